//! The CPU's `interpolate`: one pass per resized dim, each applying that dim's taps
//! (`ops::vision::resize`).
//!
//! A pass sees its input in memory order (dims by decreasing stride) as
//! `[outer.., dim, inner]`, with the dims after `dim` coalesced into one `inner` run, and
//! writes a fresh tensor dense in the same order (so a channels-last input stays channels-last
//! and the last pass's result is the answer). Each output row `(outer, j)` of `inner` elements
//! is `Σ_k w[j, k] · input row (outer, index[j, k])`: when `inner` is long (any dim but the
//! innermost) that is a weighted sum of contiguous rows, which vectorises; when the innermost
//! dim is resized, each output element gathers its few taps. Two weighted passes whose second
//! resizes a dim inside the first's rows run fused, row by row through a buffer in cache
//! (`fused_as`), with no intermediate tensor. A strided or pitched input is
//! read in place; `UInt8` converts as it is read and rounds (saturating) as the last pass
//! writes; the half types compute in `f32`.

use super::iter::{chunks_in_groups, order_by_stride, SendPtr, PARALLEL_MIN_ELEMS};
use super::vision::Real;
use super::vmath::{avx2, dispatch_avx2, Avx2};
use crate::layout::memory_order_perms;
use crate::ops::vision::{ResizePlan, Taps};
use crate::{DType, Device, Error, Result, Tensor};

mod segment;
use segment::{Segment, Windows};

/// Runs a planned interpolation into a fresh tensor of the input's dtype.
pub(crate) fn resize(p: &ResizePlan) -> Result<Tensor> {
    let dtype = p.x.dtype();
    if p.passes.is_empty() {
        // Every dim keeps its size and values: a fresh copy, as PyTorch returns.
        return p.x.contiguous_copy();
    }
    if p.passes
        .iter()
        .all(|(_, t)| t.per == 1 && t.weight.iter().all(|&w| w == 1.0))
    {
        // Nearest: every pass moves elements as they are, in the input's own dtype.
        let mut cur = p.x.clone();
        for (dim, taps) in &p.passes {
            cur = match dtype.size() {
                1 => pass_copy::<u8>(&cur, *dim, taps)?,
                2 => pass_copy::<u16>(&cur, *dim, taps)?,
                4 => pass_copy::<u32>(&cur, *dim, taps)?,
                _ => pass_copy::<u64>(&cur, *dim, taps)?,
            };
        }
        return Ok(cur);
    }
    let (mut cur, cd) = match dtype {
        DType::Float64 => (p.x.clone(), DType::Float64),
        DType::Float32 | DType::UInt8 => (p.x.clone(), DType::Float32),
        _ => (
            keeping_order(&p.x, |t| t.to_dtype(DType::Float32))?,
            DType::Float32,
        ),
    };
    let fused = match &p.passes[..] {
        [first, second] => {
            let od = if dtype == DType::UInt8 { dtype } else { cd };
            match cd {
                DType::Float64 => fused::<f64>(&cur, first, second, od)?,
                _ => fused::<f32>(&cur, first, second, od)?,
            }
        }
        _ => None,
    };
    let passes = if let Some(y) = fused {
        cur = y;
        &p.passes[..0]
    } else {
        &p.passes[..]
    };
    for (k, (dim, taps)) in passes.iter().enumerate() {
        let last = k + 1 == passes.len();
        let od = if last && dtype == DType::UInt8 {
            DType::UInt8
        } else {
            cd
        };
        cur = match cd {
            DType::Float64 => pass::<f64>(&cur, *dim, taps, od)?,
            _ => pass::<f32>(&cur, *dim, taps, od)?,
        };
    }
    debug_assert_eq!(cur.shape(), &p.out_shape[..]);
    if cur.dtype() == dtype {
        Ok(cur)
    } else {
        keeping_order(&cur, |t| t.to_dtype(dtype))
    }
}

/// `f` (a dense copy or a conversion) of `t` laid out in `t`'s memory order, so every pass
/// and the result keep the input's order (`interpolate`'s contract), whatever `f` returns.
fn keeping_order(t: &Tensor, f: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let (perm, inverse) = memory_order_perms(t.shape(), t.strides());
    f(&t.permute(&perm)?)?.permute(&inverse)
}

/// The AVX2 token where a pass runs in its AVX2 form ([`Px::get8`] widens bytes with it).
#[cfg(target_arch = "x86_64")]
type Token = Option<pulp::x86::V3>;
#[cfg(not(target_arch = "x86_64"))]
type Token = Option<()>;

/// An element a pass reads or writes, for compute type `T`.
trait Px<T>: Copy + Send + Sync + 'static {
    fn get(self) -> T;
    fn put(v: T) -> Self;
    /// Eight elements as `T`s.
    #[inline(always)]
    fn get8(_tok: Token, x: &[Self; 8]) -> [T; 8] {
        x.map(Self::get)
    }
}

impl Px<f32> for f32 {
    #[inline(always)]
    fn get(self) -> f32 {
        self
    }
    #[inline(always)]
    fn put(v: f32) -> f32 {
        v
    }
    #[inline(always)]
    fn get8(_tok: Token, x: &[f32; 8]) -> [f32; 8] {
        // The elements as they are (`map`'s copy loop kept the vectoriser off the sums).
        *x
    }
}

impl Px<f64> for f64 {
    #[inline(always)]
    fn get(self) -> f64 {
        self
    }
    #[inline(always)]
    fn put(v: f64) -> f64 {
        v
    }
    #[inline(always)]
    fn get8(_tok: Token, x: &[f64; 8]) -> [f64; 8] {
        // The elements as they are (`map`'s copy loop kept the vectoriser off the sums).
        *x
    }
}

impl<T: Real> Px<T> for u8 {
    #[inline(always)]
    fn get(self) -> T {
        T::from(f32::from(self))
    }
    #[inline(always)]
    fn put(v: T) -> u8 {
        v.round_u8()
    }
    #[inline(always)]
    fn get8(tok: Token, x: &[u8; 8]) -> [T; 8] {
        #[cfg(target_arch = "x86_64")]
        if let Some(simd) = tok {
            return T::widen8(simd, x);
        }
        let _ = tok;
        x.map(<u8 as Px<T>>::get)
    }
}

/// One pass over `dim` of `src` into a fresh tensor of `od` (`T`'s dtype or `UInt8`).
fn pass<T: Real + Px<T>>(src: &Tensor, dim: usize, taps: &Taps, od: DType) -> Result<Tensor>
where
    u8: Px<T>,
{
    match (src.dtype() == DType::UInt8, od == DType::UInt8) {
        (false, false) => pass_as::<T, T, T>(src, dim, taps, od),
        (true, false) => pass_as::<u8, T, T>(src, dim, taps, od),
        (false, true) => pass_as::<T, T, u8>(src, dim, taps, od),
        (true, true) => pass_as::<u8, T, u8>(src, dim, taps, od),
    }
}

/// The coalesced `(length, stride)` of `dims` (in memory order) of `t`, when they form one
/// strided run.
fn run_of(t: &Tensor, dims: &[usize]) -> Option<(usize, isize)> {
    let (shape, strides) = (t.shape(), t.strides());
    let mut len = 1usize;
    let mut stride = 1isize;
    for &d in dims.iter().rev().filter(|&&d| shape[d] != 1) {
        if len == 1 {
            stride = strides[d];
        } else if strides[d] != stride * len as isize {
            return None;
        }
        len *= shape[d];
    }
    Some((len, stride))
}

/// One pass's walk: `src` in memory order as `[outer.., dim, inner]`, and its fresh output.
struct Walk {
    out: Tensor,
    /// The offset of each outer row of `src` (elements, from its data pointer).
    offsets: Vec<isize>,
    /// The inner run's length and stride in `src` (the output's inner stride is 1).
    inner: usize,
    si: isize,
    /// `src`'s stride along `dim`, and the output's length there.
    sl: isize,
    lo: usize,
    /// The output's elements per output row: `inner`, or more where a fused second pass
    /// resizes a dim of the row ([`fused_as`]).
    row: usize,
}

impl Walk {
    /// Plans the pass over `dim` of `src` into a fresh `out_shape` of `od` (`src`'s shape
    /// with `dim` resized, and for a fused pass a later dim too); `None` when the dims after
    /// `dim` do not form one strided run (a rare view: the caller reads a dense copy).
    fn new(src: &Tensor, dim: usize, out_shape: &[usize], od: DType) -> Result<Option<Walk>> {
        let order = order_by_stride(src.shape(), src.strides());
        let at = order
            .iter()
            .position(|&d| d == dim)
            .ok_or_else(|| Error::Internal {
                message: format!("interpolate: dim {dim} of a {}-D input", src.ndim()),
            })?;
        let Some((inner, si)) = run_of(src, &order[at + 1..]) else {
            return Ok(None);
        };
        let dense: Vec<usize> = order.iter().map(|&d| out_shape[d]).collect();
        let mut back = vec![0isize; order.len()];
        for (k, &d) in order.iter().enumerate() {
            back[d] = k as isize;
        }
        let out = Tensor::alloc(&dense, od, Device::cpu(), false)?.permute(&back)?;
        let mut offsets = vec![0isize];
        if out.numel() > 0 {
            for &d in &order[..at] {
                let (n, st) = (src.shape()[d], src.strides()[d]);
                offsets = offsets
                    .iter()
                    .flat_map(|&o| (0..n as isize).map(move |i| o + i * st))
                    .collect();
            }
        }
        Ok(Some(Walk {
            out,
            offsets,
            inner,
            si,
            sl: src.strides()[dim],
            lo: out_shape[dim],
            row: dense[at + 1..].iter().product(),
        }))
    }

    /// Runs `segment(o, j0, rows)` over every output row (`row` elements, costing `reads`
    /// each: its elements times their taps), in tasks of whole rows (each about 2^16 reads:
    /// a tap counts a quarter element in `chunks_in_groups`' task size; tasks of 2^14 reads
    /// made a 4M-output bilinear resize 10% slower on 2 threads, in the pool's per-task
    /// hand-off), in parallel when the pass is large.
    fn drive<O: Send>(&self, reads: usize, segment: impl Fn(usize, usize, &mut [O]) + Sync) {
        let (n, row, lo) = (self.out.numel(), self.row, self.lo);
        if n == 0 {
            return;
        }
        // SAFETY: `out` is fresh, dense (in memory order) and exclusive: `n` elements of `O`
        // (its dtype, the caller's) from its data pointer, written only through this slice.
        let dst = unsafe { std::slice::from_raw_parts_mut(self.out.data_ptr().cast::<O>(), n) };
        let parallel = (n / row).saturating_mul(reads) >= PARALLEL_MIN_ELEMS;
        // Whole rows per task; a task's run of rows may cross from one outer index to the
        // next, one segment for each.
        chunks_in_groups(dst, row, reads / 4, parallel, |first, rows| {
            let (mut r, mut rest) = (first, rows);
            while !rest.is_empty() {
                let (o, j0) = (r / lo, r % lo);
                let take = (lo - j0).min(rest.len() / row);
                let (now, later) = rest.split_at_mut(take * row);
                segment(o, j0, now);
                (r, rest) = (r + take, later);
            }
        });
    }
}

/// A pass whose taps each copy one input element (nearest, and identity-weighted taps):
/// elements move as they are, in any dtype (`E` of the dtype's width).
fn pass_copy<E: Copy + Send + Sync + 'static>(
    src: &Tensor,
    dim: usize,
    taps: &Taps,
) -> Result<Tensor> {
    let Some(walk) = Walk::new(src, dim, &resized(src, dim, taps), src.dtype())? else {
        let dense = keeping_order(src, Tensor::contiguous_copy)?;
        return pass_copy::<E>(&dense, dim, taps);
    };
    let base = SendPtr(src.const_data_ptr().cast::<E>().cast_mut());
    let (inner, si, sl) = (walk.inner, walk.si, walk.sl);
    walk.drive(walk.inner, |o, j0, dst: &mut [E]| {
        let p = base.get().cast_const();
        let o0 = walk.offsets[o];
        if inner == 1 {
            for (d, &i) in dst.iter_mut().zip(&taps.index[j0..]) {
                // SAFETY: `o0 + i * sl` is element `i` (a tap index, below the dim's size)
                // of outer row `o` of `src`; nobody writes `src` during the call.
                *d = unsafe { *p.offset(o0 + i as isize * sl) };
            }
            return;
        }
        for (d, &i) in dst.chunks_mut(inner).zip(&taps.index[j0..]) {
            // SAFETY: `o0 + i * sl` starts row `i` (a tap index, below the dim's size) of
            // outer row `o` of `src`, whose `inner` elements lie at stride `si`; nobody
            // writes `src` during the call.
            let row = unsafe { p.offset(o0 + i as isize * sl) };
            if si == 1 {
                // SAFETY: as above; the run is contiguous.
                d.copy_from_slice(unsafe { std::slice::from_raw_parts(row, inner) });
            } else {
                for (e, v) in d.iter_mut().enumerate() {
                    // SAFETY: as above.
                    *v = unsafe { *row.offset(e as isize * si) };
                }
            }
        }
    });
    Ok(walk.out)
}

/// A weighted pass: reads `I`, sums in `T`, writes `O`.
fn pass_as<I: Px<T>, T: Real, O: Px<T>>(
    src: &Tensor,
    dim: usize,
    taps: &Taps,
    od: DType,
) -> Result<Tensor> {
    let Some(walk) = Walk::new(src, dim, &resized(src, dim, taps), od)? else {
        let dense = keeping_order(src, Tensor::contiguous_copy)?;
        return pass_as::<I, T, O>(&dense, dim, taps, od);
    };
    let weights = weights::<T>(taps);
    let per = taps.per;
    let windows = Windows::new(taps, src.shape()[dim], walk.inner, walk.sl, walk.si);
    let base = SendPtr(src.const_data_ptr().cast::<I>().cast_mut());
    let simd = avx2();
    walk.drive(walk.inner * per, |o, j0, dst: &mut [O]| {
        let body = Segment {
            // Every read of the segment is of row `i` of outer row `o` of `src` (`i` a tap
            // index, below `src.shape()[dim]`) at `row0 + i * sl`, or of the `inner`
            // elements after it at stride `si` (that row's inner run); nobody writes `src`
            // during the call.
            row0: base.get().cast_const().wrapping_offset(walk.offsets[o]),
            sl: walk.sl,
            si: walk.si,
            inner: walk.inner,
            per,
            len_in: src.shape()[dim],
            idx: &taps.index[j0 * per..],
            w: &weights[j0 * per..],
            window: windows
                .as_ref()
                .map(|v| (&v.start[j0..], &v.weight[j0 * v.len..], v.len)),
            dst,
        };
        run(simd, body);
    });
    Ok(walk.out)
}

/// `taps`' weights in `T`.
fn weights<T: Real>(taps: &Taps) -> Vec<T> {
    taps.weight.iter().map(|&w| T::from_f64(w)).collect()
}

/// `src`'s shape with `dim` resized by `taps`.
fn resized(src: &Tensor, dim: usize, taps: &Taps) -> Vec<usize> {
    let mut shape = src.shape().to_vec();
    shape[dim] = taps.len();
    shape
}

/// Two weighted passes fused, where the second resizes a dim inside the first's rows (a
/// frame's height, then its width: the order `cheapest_order` takes for images): each
/// first-pass output row is summed into a small buffer that stays in cache and the second
/// pass reads it there, writing the result directly. The two-pass form wrote and re-read a
/// full intermediate in the compute type, four times the bytes of a uint8 frame's rows (a
/// 1080x1920x3 -> 720x1280 resize moved 33 MB through memory for it). `None` where the dims
/// are the other way round or the first pass's rows are not one strided run.
fn fused<T: Real + Px<T>>(
    src: &Tensor,
    first: &(usize, Taps),
    second: &(usize, Taps),
    od: DType,
) -> Result<Option<Tensor>>
where
    u8: Px<T>,
{
    match (src.dtype() == DType::UInt8, od == DType::UInt8) {
        (false, false) => fused_as::<T, T, T>(src, first, second, od),
        (true, false) => fused_as::<u8, T, T>(src, first, second, od),
        (false, true) => fused_as::<T, T, u8>(src, first, second, od),
        (true, true) => fused_as::<u8, T, u8>(src, first, second, od),
    }
}

/// [`fused`]: reads `I`, sums in `T`, writes `O`.
fn fused_as<I: Px<T>, T: Real + Px<T>, O: Px<T>>(
    src: &Tensor,
    (d1, t1): &(usize, Taps),
    (d2, t2): &(usize, Taps),
    od: DType,
) -> Result<Option<Tensor>> {
    let (d1, d2) = (*d1, *d2);
    let order = order_by_stride(src.shape(), src.strides());
    let at = |d: usize| order.iter().position(|&x| x == d);
    let (Some(a1), Some(a2)) = (at(d1), at(d2)) else {
        return Ok(None);
    };
    if a2 < a1 {
        return Ok(None);
    }
    let mut out_shape = resized(src, d1, t1);
    out_shape[d2] = t2.len();
    let Some(walk) = Walk::new(src, d1, &out_shape, od)? else {
        return Ok(None);
    };
    // A first-pass row, dense in memory order, is `[between.., d2, after..]`.
    let shape = src.shape();
    let len2 = shape[d2];
    let after: usize = order[a2 + 1..].iter().map(|&d| shape[d]).product();
    let (block_in, block_out) = (len2 * after, t2.len() * after);
    let (w1, w2) = (weights::<T>(t1), weights::<T>(t2));
    let windows1 = Windows::new(t1, shape[d1], walk.inner, walk.sl, walk.si);
    let windows2 = Windows::new(t2, len2, after, after as isize, 1);
    let (per1, per2) = (t1.per, t2.per);
    let base = SendPtr(src.const_data_ptr().cast::<I>().cast_mut());
    let simd = avx2();
    let reads = walk.inner * per1 + walk.row * per2;
    walk.drive(reads, |o, j0, dst: &mut [O]| {
        let mut buf = vec![T::default(); walk.inner];
        for (j, out) in (j0..).zip(dst.chunks_mut(walk.row)) {
            let first = Segment {
                // As in `pass_as`: the reads are of rows of outer row `o` of `src`.
                row0: base.get().cast_const().wrapping_offset(walk.offsets[o]),
                sl: walk.sl,
                si: walk.si,
                inner: walk.inner,
                per: per1,
                len_in: shape[d1],
                idx: &t1.index[j * per1..],
                w: &w1[j * per1..],
                window: windows1
                    .as_ref()
                    .map(|v| (&v.start[j..], &v.weight[j * v.len..], v.len)),
                dst: &mut buf[..],
            };
            run(simd, first);
            for (b, out) in out.chunks_mut(block_out).enumerate() {
                let second = Segment {
                    // Block `b` of the buffer: `len2` rows of `after` dense elements.
                    row0: buf.as_ptr().wrapping_add(b * block_in),
                    sl: after as isize,
                    si: 1,
                    inner: after,
                    per: per2,
                    len_in: len2,
                    idx: &t2.index,
                    w: &w2,
                    window: windows2
                        .as_ref()
                        .map(|v| (&v.start[..], &v.weight[..], v.len)),
                    dst: out,
                };
                run(simd, second);
            }
        }
    });
    Ok(Some(walk.out))
}

/// Runs a segment in its AVX2 form where the CPU has one. Kept out of line: inlined into its
/// callers, each of the fused passes' two calls carried a copy of the portable form (200 KB
/// of the shipped library for the eight dtype combinations).
#[inline(never)]
fn run<I: Px<T>, T: Real, O: Px<T>>(simd: Option<Avx2>, segment: Segment<'_, I, T, O>) {
    dispatch_avx2(simd, segment);
}
