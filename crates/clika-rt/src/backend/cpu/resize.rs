//! The CPU's `interpolate`: one pass per resized dim, each applying that dim's taps
//! (`ops::vision::resize`).
//!
//! A pass sees its input in memory order (dims by decreasing stride) as
//! `[outer.., dim, inner]`, with the dims after `dim` coalesced into one `inner` run, and
//! writes a fresh tensor dense in the same order (so a channels-last input stays channels-last
//! and the last pass's result is the answer). Each output row `(outer, j)` of `inner` elements
//! is `Σ_k w[j, k] · input row (outer, index[j, k])`: when `inner` is long (any dim but the
//! innermost) that is a weighted sum of contiguous rows, which vectorises; when the innermost
//! dim is resized, each output element gathers its few taps. A strided or pitched input is
//! read in place; `UInt8` converts as it is read and rounds (saturating) as the last pass
//! writes; the half types compute in `f32`.

use rayon::prelude::*;

use super::iter::{order_by_stride, threads_available, SendPtr, PARALLEL_MIN_ELEMS};
use super::vision::Real;
use super::vmath::{avx2, dispatch_avx2, SimdBody};
use crate::ops::vision::{ResizePlan, Taps};
use crate::{DType, Device, Error, Result, Tensor};

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
        _ => (p.x.to_dtype(DType::Float32)?, DType::Float32),
    };
    for (k, (dim, taps)) in p.passes.iter().enumerate() {
        let last = k + 1 == p.passes.len();
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
        cur.to_dtype(dtype)
    }
}

/// An element a pass reads or writes, for compute type `T`.
trait Px<T>: Copy + Send + Sync + 'static {
    fn get(self) -> T;
    fn put(v: T) -> Self;
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
}

impl Walk {
    /// Plans the pass over `dim` of `src` into `len` positions of `od`; `None` when the dims
    /// after `dim` do not form one strided run (a rare view: the caller reads a dense copy).
    fn new(src: &Tensor, dim: usize, len: usize, od: DType) -> Result<Option<Walk>> {
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
        let mut out_shape = src.shape().to_vec();
        out_shape[dim] = len;
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
            lo: len,
        }))
    }

    /// Runs `segment(o, j0, rows)` over every output row, in tasks of whole rows (each about
    /// 2^14 reads of `per` taps), in parallel when the pass is large.
    fn drive<O: Send>(&self, per: usize, segment: impl Fn(usize, usize, &mut [O]) + Sync) {
        let (n, inner, lo) = (self.out.numel(), self.inner, self.lo);
        if n == 0 {
            return;
        }
        // SAFETY: `out` is fresh, dense (in memory order) and exclusive: `n` elements of `O`
        // (its dtype, the caller's) from its data pointer, written only through this slice.
        let dst = unsafe { std::slice::from_raw_parts_mut(self.out.data_ptr().cast::<O>(), n) };
        let rows_per_task = (1usize << 14).div_ceil(inner * per).max(1);
        let task = |(t, chunk): (usize, &mut [O])| {
            let (mut r, mut rest) = (t * rows_per_task, chunk);
            while !rest.is_empty() {
                let (o, j0) = (r / lo, r % lo);
                let take = (lo - j0).min(rest.len() / inner);
                let (now, later) = rest.split_at_mut(take * inner);
                segment(o, j0, now);
                (r, rest) = (r + take, later);
            }
        };
        if threads_available() && n * per >= PARALLEL_MIN_ELEMS && n / inner > rows_per_task {
            crate::threads::install(|| {
                dst.par_chunks_mut(rows_per_task * inner)
                    .enumerate()
                    .for_each(task)
            });
        } else {
            dst.chunks_mut(rows_per_task * inner)
                .enumerate()
                .for_each(task);
        }
    }
}

/// A pass whose taps each copy one input element (nearest, and identity-weighted taps):
/// elements move as they are, in any dtype (`E` of the dtype's width).
fn pass_copy<E: Copy + Send + Sync + 'static>(
    src: &Tensor,
    dim: usize,
    taps: &Taps,
) -> Result<Tensor> {
    let Some(walk) = Walk::new(src, dim, taps.len(), src.dtype())? else {
        return pass_copy::<E>(&src.contiguous_copy()?, dim, taps);
    };
    let base = SendPtr(src.const_data_ptr().cast::<E>().cast_mut());
    let (inner, si, sl) = (walk.inner, walk.si, walk.sl);
    walk.drive(1, |o, j0, dst: &mut [E]| {
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
    let Some(walk) = Walk::new(src, dim, taps.len(), od)? else {
        return pass_as::<I, T, O>(&src.contiguous_copy()?, dim, taps, od);
    };
    let weights: Vec<T> = taps.weight.iter().map(|&w| T::from_f64(w)).collect();
    let per = taps.per;
    let windows = Windows::new(taps, src.shape()[dim], &walk);
    let base = SendPtr(src.const_data_ptr().cast::<I>().cast_mut());
    let simd = avx2();
    walk.drive(per, |o, j0, dst: &mut [O]| {
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
            idx: &taps.index[j0 * per..],
            w: &weights[j0 * per..],
            window: windows
                .as_ref()
                .map(|v| (&v.start[j0..], &v.weight[j0 * v.len..], v.len)),
            dst,
        };
        dispatch_avx2(simd, body);
    });
    Ok(walk.out)
}

/// One segment of a pass: whole output rows of one outer row, written to `dst`. A
/// [`SimdBody`] rather than a closure so that it compiles inside the AVX2+FMA dispatcher
/// (the row sums then vectorise 8 wide); a closure there was not inlined and ran as SSE2.
struct Segment<'a, I, T, O> {
    /// The outer row's first element in `src`.
    row0: *const I,
    sl: isize,
    si: isize,
    inner: usize,
    per: usize,
    /// The segment's taps: `per` indices and weights for each output row.
    idx: &'a [usize],
    w: &'a [T],
    /// The same taps as [`Windows`] (each output's first row, its window's weights, and the
    /// window's length in elements), where the pass takes that form.
    window: Option<(&'a [usize], &'a [T], usize)>,
    dst: &'a mut [O],
}

/// Rows per block of a [`Windows`] window: its elements are whole vectors of eight lanes
/// for any row length `C` (blocks of `8·C` elements).
const WINDOW_ROWS: usize = 8;

/// A pass over a dim whose rows are short and dense (the innermost dim, or a channels-last
/// image's pixels: `C ≤ 4` elements each, the next row right after), with many taps (an
/// antialiased shrink): each output reads one contiguous window of rows, a multiple of
/// [`WINDOW_ROWS`] long, against weights expanded to every element of it (zero outside its
/// taps; a tap repeated by clamping at an edge adds its weights). The window's products are
/// then whole-vector multiply-adds into `8·C` lanes, summed per element of the row at the
/// end, instead of `C` scalar multiply-adds per tap.
struct Windows<T> {
    /// Each output's first row.
    start: Vec<usize>,
    /// Each output's `len` weights, one per element of its window.
    weight: Vec<T>,
    /// Elements per window: rows × `C`.
    len: usize,
}

impl<T: Real> Windows<T> {
    /// The windows of `taps` over `len_in` rows, or `None` where the pass does not take this
    /// form: rows not short and dense, too few taps to gain (under 6: the gathers are
    /// cheaper), or a window longer than the dim.
    fn new(taps: &Taps, len_in: usize, walk: &Walk) -> Option<Windows<T>> {
        let (c, per) = (walk.inner, taps.per);
        let dense = walk.sl == c as isize && (c == 1 || walk.si == 1);
        let rows = per.div_ceil(WINDOW_ROWS) * WINDOW_ROWS;
        if !(1..=4).contains(&c) || !dense || per < 6 || rows > len_in {
            return None;
        }
        let n = taps.len();
        let mut start = Vec::with_capacity(n);
        let mut weight = vec![T::default(); n * rows * c];
        let mut wide = vec![0.0f64; rows];
        for (j, (idx, w)) in taps
            .index
            .chunks(per)
            .zip(taps.weight.chunks(per))
            .enumerate()
        {
            let (lo, hi) = (idx.iter().min()?, idx.iter().max()?);
            if hi - lo >= rows {
                return None;
            }
            let s0 = (*lo).min(len_in - rows);
            wide.fill(0.0);
            for (&i, &w) in idx.iter().zip(w) {
                wide[i - s0] += w;
            }
            let out = &mut weight[j * rows * c..][..rows * c];
            for (o, &w) in out.chunks_mut(c).zip(&wide) {
                o.fill(T::from_f64(w));
            }
            start.push(s0);
        }
        Some(Windows {
            start,
            weight,
            len: rows * c,
        })
    }
}

impl<I: Px<T>, T: Real, O: Px<T>> SimdBody for Segment<'_, I, T, O> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Segment {
            row0,
            sl,
            si,
            inner,
            per,
            idx,
            w,
            window,
            dst,
        } = self;
        let at = |i: usize| row0.wrapping_offset(i as isize * sl);
        if let Some((start, weight, len)) = window {
            return match inner {
                1 => window_sums::<I, T, O, 1>(at, start, weight, len, dst),
                2 => window_sums::<I, T, O, 2>(at, start, weight, len, dst),
                3 => window_sums::<I, T, O, 3>(at, start, weight, len, dst),
                _ => window_sums::<I, T, O, 4>(at, start, weight, len, dst),
            };
        }
        if inner == 1 {
            match per {
                2 => gather::<I, T, O, 2>(at, idx, w, dst),
                4 => gather::<I, T, O, 4>(at, idx, w, dst),
                _ => {
                    for ((d, idx), w) in dst.iter_mut().zip(idx.chunks(per)).zip(w.chunks(per)) {
                        let mut s = T::default();
                        for (&i, &w) in idx.iter().zip(w) {
                            // SAFETY: `at(i)` is a readable element (see `pass_as`).
                            s = s + w * unsafe { *at(i) }.get();
                        }
                        *d = O::put(s);
                    }
                }
            }
            return;
        }
        if si == 1 {
            // Short contiguous runs (the channels of a channels-last image): unrolled.
            match inner {
                2 => return runs::<I, T, O, 2>(at, per, idx, w, dst),
                3 => return runs::<I, T, O, 3>(at, per, idx, w, dst),
                4 => return runs::<I, T, O, 4>(at, per, idx, w, dst),
                _ => return rows::<I, T, O, ROW_BLOCK>(at, inner, per, idx, w, dst),
            }
        }
        let mut acc = vec![T::default(); inner];
        for ((d, idx), w) in dst
            .chunks_mut(inner)
            .zip(idx.chunks(per))
            .zip(w.chunks(per))
        {
            for (k, (&i, &w)) in idx.iter().zip(w).enumerate() {
                let row = at(i);
                for (e, a) in acc.iter_mut().enumerate() {
                    // SAFETY: element `e` of the inner run of a row (see `pass_as`).
                    let x = unsafe { *row.offset(e as isize * si) }.get();
                    *a = if k == 0 { w * x } else { *a + w * x };
                }
            }
            d.iter_mut()
                .zip(acc.iter())
                .for_each(|(d, &a)| *d = O::put(a));
        }
    }
}

/// Output elements that each gather `K` taps (the innermost dim resized): unrolled over `K`.
#[inline(always)]
fn gather<I: Px<T>, T: Real, O: Px<T>, const K: usize>(
    at: impl Fn(usize) -> *const I,
    idx: &[usize],
    w: &[T],
    dst: &mut [O],
) {
    let (idx, _) = idx.as_chunks::<K>();
    let (w, _) = w.as_chunks::<K>();
    for ((d, idx), w) in dst.iter_mut().zip(idx).zip(w) {
        let mut s = T::default();
        for k in 0..K {
            // SAFETY: `at` gives a readable element for every tap index (see the caller).
            s = s + w[k] * unsafe { *at(idx[k]) }.get();
        }
        *d = O::put(s);
    }
}

/// Output rows of `C` elements from [`Windows`]: each a window of `len` contiguous elements
/// (from row `start[j]`) times its weights, summed in `C` vectors of [`WINDOW_ROWS`] lanes
/// (element `k` of a block of `8·C` in lane `k % 8` of vector `k / 8`; written as separate
/// 8-lane sums, which compile to whole vectors where one `8·C`-lane array did not), then
/// per element of the row (`k % C`).
#[inline(always)]
fn window_sums<I: Px<T>, T: Real, O: Px<T>, const C: usize>(
    at: impl Fn(usize) -> *const I,
    start: &[usize],
    weight: &[T],
    len: usize,
    dst: &mut [O],
) {
    const L: usize = WINDOW_ROWS;
    let (dst, _) = dst.as_chunks_mut::<C>();
    for ((d, &s0), w) in dst.iter_mut().zip(start).zip(weight.chunks(len)) {
        // SAFETY: rows `s0..s0 + len / C` are in the dim (`Windows::new`) and dense (each
        // row's `C` elements followed directly by the next row's), so the window is `len`
        // contiguous readable elements from row `s0`.
        let xs = unsafe { std::slice::from_raw_parts(at(s0), len) };
        let mut s = [[T::default(); L]; C];
        for (x, w) in xs
            .as_chunks::<L>()
            .0
            .chunks_exact(C)
            .zip(w.as_chunks::<L>().0.chunks_exact(C))
        {
            for v in 0..C {
                for l in 0..L {
                    s[v][l] = s[v][l] + w[v][l] * x[v][l].get();
                }
            }
        }
        for (d, &t) in d.iter_mut().zip(&fold_lanes(&s)) {
            *d = O::put(t);
        }
    }
}

/// The per-element sums of [`window_sums`]' lanes (element `k % C` of lane `k`). Not
/// inlined on purpose: seen together with the lanes' loop, LLVM's SLP vectoriser built its
/// vectors from this reduction (lanes `c, c + C, …`: strided pairs and scalars) instead of
/// the loop's eight consecutive lanes (measured: the loop ran as scalar and 2-lane ops).
#[inline(never)]
fn fold_lanes<T: Real, const C: usize>(s: &[[T; WINDOW_ROWS]; C]) -> [T; C] {
    let mut t = [T::default(); C];
    for (k, &v) in s.as_flattened().iter().enumerate() {
        t[k % C] = t[k % C] + v;
    }
    t
}

/// The block of a long contiguous inner run whose sums stay in registers across the taps:
/// 32 `f32` are four AVX2 vectors (eight of `f64`).
const ROW_BLOCK: usize = 32;

/// Output rows of `inner` contiguous elements (stride 1), each a weighted sum of `per`
/// contiguous input rows, in blocks of `B` elements summed over every tap in registers
/// (one write of the output, not a read and write of an accumulator row per tap); the
/// first tap is a product, as the rest are added to it.
#[inline(always)]
fn rows<I: Px<T>, T: Real, O: Px<T>, const B: usize>(
    at: impl Fn(usize) -> *const I,
    inner: usize,
    per: usize,
    idx: &[usize],
    w: &[T],
    dst: &mut [O],
) {
    for ((d, idx), w) in dst
        .chunks_mut(inner)
        .zip(idx.chunks(per))
        .zip(w.chunks(per))
    {
        let (blocks, tail) = d.as_chunks_mut::<B>();
        for (b, out) in blocks.iter_mut().enumerate() {
            // SAFETY: `at(i)` starts a contiguous run of `inner` readable elements (see
            // `pass_as`), of which this block's `B` start at `b * B`.
            let block = |i: usize| unsafe { &*at(i).add(b * B).cast::<[I; B]>() };
            let (x0, w0) = (block(idx[0]), w[0]);
            let mut s = [T::default(); B];
            for c in 0..B {
                s[c] = w0 * x0[c].get();
            }
            for (&i, &w) in idx[1..].iter().zip(&w[1..]) {
                let xs = block(i);
                for c in 0..B {
                    s[c] = s[c] + w * xs[c].get();
                }
            }
            for c in 0..B {
                out[c] = O::put(s[c]);
            }
        }
        let e0 = blocks.len() * B;
        for (e, out) in tail.iter_mut().enumerate() {
            let mut s = T::default();
            for (k, (&i, &w)) in idx.iter().zip(w).enumerate() {
                // SAFETY: element `e0 + e < inner` of a readable contiguous run (as above).
                let x = unsafe { *at(i).add(e0 + e) }.get();
                s = if k == 0 { w * x } else { s + w * x };
            }
            *out = O::put(s);
        }
    }
}

/// Output rows of `C` contiguous elements (`inner == C`, stride 1), each a weighted sum of
/// `per` input rows: unrolled over `C`.
#[inline(always)]
fn runs<I: Px<T>, T: Real, O: Px<T>, const C: usize>(
    at: impl Fn(usize) -> *const I,
    per: usize,
    idx: &[usize],
    w: &[T],
    dst: &mut [O],
) {
    let (dst, _) = dst.as_chunks_mut::<C>();
    for ((d, idx), w) in dst.iter_mut().zip(idx.chunks(per)).zip(w.chunks(per)) {
        let mut s = [T::default(); C];
        for (&i, &w) in idx.iter().zip(w) {
            // SAFETY: `at(i)` starts a contiguous run of `C` readable elements (the caller).
            let x = unsafe { &*at(i).cast::<[I; C]>() };
            for c in 0..C {
                s[c] = s[c] + w * x[c].get();
            }
        }
        for c in 0..C {
            d[c] = O::put(s[c]);
        }
    }
}
