//! Dense, grouped and transposed convolutions (im2col + GEMM, GEMM + col2im) and the direct
//! depthwise kernel.

use super::super::iter::{chunks_in_groups, threads_available};
use super::{dense, elems, fresh, Real};
use crate::ops::vision::ConvPlan;
use crate::{DType, Result, Tensor};

pub(super) fn conv<T: Real>(p: &ConvPlan, cd: DType) -> Result<Tensor> {
    let ops = ConvOperands::new(p, cd)?;
    let (x, w) = (&ops.x, &ops.w);
    let (n, c, h, wd) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let (o, cg, kh, kw) = (w.shape()[0], w.shape()[1], w.shape()[2], w.shape()[3]);
    let [ho, wo] = p.out_hw;
    let (out, dst) = fresh::<T>(&[n, o, ho, wo], cd)?;
    if dst.is_empty() {
        return Ok(out);
    }
    // SAFETY: `T` is `cd`'s type (`run` picks `f32` or `f64` to match it).
    let (xs, ws, bs) = unsafe { ops.slices::<T>() };
    let g = p.groups;
    let og = o / g;
    if cg == 1 {
        depthwise(p, xs, ws, bs, dst, [c, h, wd], og, [kh, kw]);
        return Ok(out);
    }
    let kk = cg * kh * kw;
    let pp = ho * wo;
    let direct = kh == 1 && kw == 1 && p.stride == [1, 1] && p.pad == [0, 0];
    let (par, inner) = inner_parallelism(n * g, og * kk * pp);
    let geo = Geometry {
        c: cg,
        h,
        w: wd,
        kh,
        kw,
        ho,
        wo,
        stride: p.stride,
        pad: p.pad,
        dilation: p.dilation,
    };
    // `owned` is the tap-row scratch, reused from block to block (im2col writes all of it).
    let block = |owned: &mut Vec<T>, (t, dst): (usize, &mut [T])| {
        let (ni, gi) = (t / g, t % g);
        let xg = &xs[(ni * c + gi * cg) * h * wd..][..cg * h * wd];
        let wg = &ws[gi * og * kk..][..og * kk];
        if let Some(bs) = bs {
            for (oi, row) in dst.chunks_mut(pp).enumerate() {
                row.fill(bs[gi * og + oi]);
            }
        }
        let col: &[T] = if direct {
            xg
        } else {
            if owned.len() < kk * pp {
                owned.resize(kk * pp, T::default());
            }
            im2col(xg, &geo, &mut owned[..kk * pp]);
            &owned[..kk * pp]
        };
        // SAFETY: `wg` is og×kk (row stride kk), `col` kk×pp (row stride pp), `dst` og×pp
        // (row stride pp), all row-major slices of exactly those sizes; `dst` is this
        // block's own part of the fresh output and overlaps neither input. With a bias the
        // destination (prefilled with it) is read: dst = 1·dst + 1·(wg × col).
        unsafe {
            gemm::gemm::<T>(
                og,
                pp,
                kk,
                dst.as_mut_ptr(),
                1,
                pp as isize,
                bs.is_some(),
                wg.as_ptr(),
                1,
                kk as isize,
                col.as_ptr(),
                1,
                pp as isize,
                if bs.is_some() {
                    T::from(1.0)
                } else {
                    T::default()
                },
                T::from(1.0),
                false,
                false,
                false,
                inner,
            );
        }
    };
    let chunk = og * pp;
    chunks_in_groups(dst, chunk, chunk, par, |first, part| {
        let mut owned = Vec::new();
        for (i, item) in part.chunks_mut(chunk).enumerate() {
            block(&mut owned, (first + i, item));
        }
    });
    Ok(out)
}

/// A convolution's input, weight and bias, contiguous in the compute dtype.
struct ConvOperands {
    x: Tensor,
    w: Tensor,
    b: Option<Tensor>,
}

impl ConvOperands {
    fn new(p: &ConvPlan, cd: DType) -> Result<ConvOperands> {
        Ok(ConvOperands {
            x: dense(&p.x, cd)?,
            w: dense(&p.w, cd)?,
            b: p.bias.as_ref().map(|b| dense(b, cd)).transpose()?,
        })
    }

    /// The elements.
    ///
    /// # Safety
    /// `T` is the Rust type of the compute dtype given to `new`.
    unsafe fn slices<T>(&self) -> (&[T], &[T], Option<&[T]>) {
        // SAFETY: the tensors are contiguous CPU tensors of the compute dtype, whose type is
        // `T` (the caller's contract), made by `new` (fresh or the plan's own, only read),
        // and nobody writes them while `self` is borrowed.
        unsafe {
            (
                elems::<T>(&self.x),
                elems::<T>(&self.w),
                self.b.as_ref().map(|b| elems::<T>(b)),
            )
        }
    }
}

/// How many threads a GEMM inside one of `tasks` parallel blocks of `work` multiply-adds
/// may use: all of them when there are fewer blocks than threads and the block is big.
fn inner_parallelism(tasks: usize, work: usize) -> (bool, gemm::Parallelism) {
    // Asked only when threads may be used: asking starts the pool (never under Miri).
    let par = threads_available();
    let threads = if par {
        crate::threads::current_num_threads()
    } else {
        1
    };
    let inner = if par && tasks < threads && work >= 1 << 18 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    (par, inner)
}

/// A transposed convolution: per (image, group), `cols = Wᵀ · x` (`[og·kh·kw, h·w]`: the
/// weight `[cg, og·kh·kw]` read transposed through its strides), then each tap's row is
/// added into the output at `stride · position + dilation · tap − pad` (col2im); the output
/// starts as the bias (or zeros). A 1×1 kernel with stride 1, no padding and no output
/// padding multiplies straight into the output.
pub(super) fn conv_transpose<T: Real>(p: &ConvPlan, cd: DType) -> Result<Tensor> {
    let ops = ConvOperands::new(p, cd)?;
    let (x, w) = (&ops.x, &ops.w);
    let (n, c, h, wd) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let (og, kh, kw) = (w.shape()[1], w.shape()[2], w.shape()[3]);
    let g = p.groups;
    let (cg, o) = (c / g, og * g);
    let [ho, wo] = p.out_hw;
    let (out, dst) = fresh::<T>(&[n, o, ho, wo], cd)?;
    if dst.is_empty() {
        return Ok(out);
    }
    // SAFETY: `T` is `cd`'s type (`run` picks `f32` or `f64` to match it).
    let (xs, ws, bs) = unsafe { ops.slices::<T>() };
    let m = og * kh * kw;
    let hw = h * wd;
    // Direct only when the product covers the whole output: an output padding (allowed with
    // stride 1 when the dilation exceeds it) adds rows or columns nothing else writes.
    let direct = kh == 1 && kw == 1 && p.stride == [1, 1] && p.pad == [0, 0] && [ho, wo] == [h, wd];
    let (par, inner) = inner_parallelism(n * g, m * cg * hw);
    let geo = Geometry {
        c: og,
        h: ho,
        w: wo,
        kh,
        kw,
        ho: h,
        wo: wd,
        stride: p.stride,
        pad: p.pad,
        dilation: p.dilation,
    };
    // `owned` is a scratch for the tap rows, reused from block to block (the GEMM overwrites
    // all of it, so it is zeroed only when first grown): no allocation, page faults or memset
    // per image.
    let block = |owned: &mut Vec<T>, (t, dst): (usize, &mut [T])| {
        let (ni, gi) = (t / g, t % g);
        let xg = &xs[(ni * c + gi * cg) * hw..][..cg * hw];
        let wg = &ws[gi * cg * m..][..cg * m];
        match bs {
            Some(bs) => {
                for (oi, plane) in dst.chunks_mut(ho * wo).enumerate() {
                    plane.fill(bs[gi * og + oi]);
                }
            }
            None if !direct => dst.fill(T::default()),
            None => {}
        }
        let cols: &mut [T] = if direct {
            dst
        } else {
            if owned.len() < m * hw {
                owned.resize(m * hw, T::default());
            }
            &mut owned[..m * hw]
        };
        let accumulate = direct && bs.is_some();
        // SAFETY: the product is m×hw (row stride hw) into `cols`, which has exactly m·hw
        // elements (the output block itself when direct: m = og and hw = ho·wo); the lhs is
        // `wg` read transposed — element (r, k) at `wg[k·m + r]`, in bounds for r < m,
        // k < cg — and the rhs `xg` is cg×hw row-major. `cols` overlaps neither input.
        unsafe {
            gemm::gemm::<T>(
                m,
                hw,
                cg,
                cols.as_mut_ptr(),
                1,
                hw as isize,
                accumulate,
                wg.as_ptr(),
                m as isize,
                1,
                xg.as_ptr(),
                1,
                hw as isize,
                if accumulate {
                    T::from(1.0)
                } else {
                    T::default()
                },
                T::from(1.0),
                false,
                false,
                false,
                inner,
            );
        }
        if !direct {
            col2im(&owned[..m * hw], dst, &geo);
        }
    };
    let chunk = og * ho * wo;
    chunks_in_groups(dst, chunk, chunk, par, |first, part| {
        let mut owned = Vec::new();
        for (i, item) in part.chunks_mut(chunk).enumerate() {
            block(&mut owned, (first + i, item));
        }
    });
    Ok(out)
}

/// Adds the `[c·kh·kw, ho·wo]` tap rows `cols` into the `[c, h, w]` image `dst`: the inverse
/// of [`im2col`] (taps that land in the padding are dropped). Here `ho`/`wo` are the sizes
/// the taps are laid out over (a transposed convolution's input) and `h`/`w` the image's.
fn col2im<T: Real>(cols: &[T], dst: &mut [T], g: &Geometry) {
    let pp = g.ho * g.wo;
    let mut rows = cols.chunks(pp);
    for ci in 0..g.c {
        let plane = &mut dst[ci * g.h * g.w..][..g.h * g.w];
        for ki in 0..g.kh {
            for kj in 0..g.kw {
                let row = rows.next().expect("one row per tap");
                // The tap positions whose output column lands inside: ix in [lo, hi).
                let shift = (kj * g.dilation[1]) as isize - g.pad[1] as isize;
                let s = g.stride[1] as isize;
                let (lo, hi) = span(shift, g.stride[1], g.w, g.wo);
                for iy in 0..g.ho {
                    let oy = (iy * g.stride[0] + ki * g.dilation[0]) as isize - g.pad[0] as isize;
                    if oy < 0 || oy >= g.h as isize || lo >= hi {
                        continue;
                    }
                    let src = &row[iy * g.wo..][..g.wo];
                    let out = &mut plane[oy as usize * g.w..][..g.w];
                    if s == 1 {
                        let start = (lo as isize + shift) as usize;
                        for (d, &v) in out[start..][..hi - lo].iter_mut().zip(&src[lo..hi]) {
                            *d = *d + v;
                        }
                    } else {
                        for (ix, &v) in src.iter().enumerate().take(hi).skip(lo) {
                            let ox = (ix as isize * s + shift) as usize;
                            out[ox] = out[ox] + v;
                        }
                    }
                }
            }
        }
    }
}

/// A convolution whose output channels each read one input channel (`in_channels / groups
/// == 1`: depthwise, with any channel multiplier, or a one-channel input), computed directly:
/// per output plane and row, with stride 1, blocks of output columns stay in registers while
/// every kernel tap adds `weight × shifted input`, the padded edges tap by tap; other strides
/// add each tap's `weight × input row` into the output row while it is in L1 — no im2col
/// matrix, no GEMM of a 1-wide inner dimension. The planes run in parallel; the rows vectorise with the CPU's best SIMD
/// (`vmath::dispatch`, FMA where it has it).
#[allow(clippy::too_many_arguments)]
fn depthwise<T: Real>(
    p: &ConvPlan,
    xs: &[T],
    ws: &[T],
    bs: Option<&[T]>,
    dst: &mut [T],
    [c, h, w]: [usize; 3],
    og: usize,
    [kh, kw]: [usize; 2],
) {
    let [ho, wo] = p.out_hw;
    let arch = pulp::Arch::new();
    let plane = |(t, out): (usize, &mut [T])| {
        // Output plane t = (image, output channel); the channel reads input channel oc / og.
        let (ni, oc) = (t / (c * og), t % (c * og));
        let body = Plane {
            src: &xs[(ni * c + oc / og) * h * w..][..h * w],
            taps: &ws[oc * kh * kw..][..kh * kw],
            bias: bs.map_or(T::default(), |b| b[oc]),
            out,
            src_hw: [h, w],
            out_w: wo,
            kernel: [kh, kw],
            stride: p.stride,
            pad: p.pad,
            dilation: p.dilation,
        };
        super::super::vmath::dispatch(arch, body);
    };
    let parallel = dst.len() * kh * kw >= 1 << 15;
    chunks_in_groups(dst, ho * wo, ho * wo * kh * kw, parallel, |first, part| {
        for (i, out) in part.chunks_mut(ho * wo).enumerate() {
            plane((first + i, out));
        }
    });
}

/// One output plane of [`depthwise`].
struct Plane<'a, T> {
    src: &'a [T],
    taps: &'a [T],
    bias: T,
    out: &'a mut [T],
    src_hw: [usize; 2],
    out_w: usize,
    kernel: [usize; 2],
    stride: [usize; 2],
    pad: [usize; 2],
    dilation: [usize; 2],
}

impl<T: Real> super::super::vmath::SimdBody for Plane<'_, T> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let [h, w] = self.src_hw;
        let [kh, kw] = self.kernel;
        let wo = self.out_w;
        // Per kernel column: its input shift and the output columns it reaches (the same on
        // every row, so worked out once per plane, not per row).
        let cols: Vec<(isize, usize, usize)> = (0..kw)
            .map(|kj| {
                let shift = (kj * self.dilation[1]) as isize - self.pad[1] as isize;
                let (lo, hi) = span(shift, self.stride[1], w, wo);
                (shift, lo, hi)
            })
            .collect();
        // The output columns every kernel column reaches (`[max lo, min hi)`): with stride 1,
        // blocks of them stay in registers across all the taps.
        let inner = (
            cols.iter().map(|c| c.1).max().unwrap_or(0),
            cols.iter().map(|c| c.2).min().unwrap_or(0),
        );
        let shifts: Vec<isize> = cols.iter().map(|c| c.0).collect();
        let mut rows: Vec<(&[T], usize)> = Vec::with_capacity(kh);
        for (oy, row) in self.out.chunks_mut(wo).enumerate() {
            // The kernel rows that land inside the input, with their input rows.
            rows.clear();
            for ki in 0..kh {
                let iy =
                    (oy * self.stride[0] + ki * self.dilation[0]) as isize - self.pad[0] as isize;
                if (0..h as isize).contains(&iy) {
                    rows.push((&self.src[iy as usize * w..][..w], ki));
                }
            }
            if self.stride[1] == 1 && inner.0 < inner.1 {
                let (taps, bias, (lo, hi)) = (self.taps, self.bias, inner);
                let at = tap_blocks::<T, F, 32>(&rows, taps, &shifts, bias, row, lo, hi);
                let at = tap_blocks::<T, F, 8>(&rows, taps, &shifts, bias, row, at, hi);
                tap_blocks::<T, F, 1>(&rows, taps, &shifts, bias, row, at, hi);
                edge_columns::<T, F>(&rows, taps, &shifts, bias, row, (0..lo).chain(hi..wo));
                continue;
            }
            row.fill(self.bias);
            for &(src, ki) in &rows {
                for (kj, &(shift, lo, hi)) in cols.iter().enumerate() {
                    let tap = self.taps[ki * kw + kj];
                    if lo >= hi {
                        continue;
                    }
                    if self.stride[1] == 1 {
                        let from = (lo as isize + shift) as usize;
                        for (o, &v) in row[lo..hi].iter_mut().zip(&src[from..from + hi - lo]) {
                            *o = v.fma::<F>(tap, *o);
                        }
                    } else {
                        let s = self.stride[1] as isize;
                        for (ox, o) in row.iter_mut().enumerate().take(hi).skip(lo) {
                            // In bounds: `span` keeps 0 <= ox·s + shift < w.
                            *o = src[(ox as isize * s + shift) as usize].fma::<F>(tap, *o);
                        }
                    }
                }
            }
        }
    }
}

/// Stride-1 depthwise output columns `from..to` (each reached by every kernel column) in
/// blocks of `N` held in registers across all the taps; `rows` are the input rows of the
/// kernel rows that land (with their kernel row), `shifts` each kernel column's input
/// offset. When at least `N` columns remain the last block ends at `to`, overlapping the one
/// before (it recomputes the same values) rather than leaving a remainder; returns `to`
/// then, else `from` (fewer than `N` columns).
#[inline(always)]
fn tap_blocks<T: Real, const F: bool, const N: usize>(
    rows: &[(&[T], usize)],
    taps: &[T],
    shifts: &[isize],
    bias: T,
    out: &mut [T],
    from: usize,
    to: usize,
) -> usize {
    if to - from < N {
        return from;
    }
    let kw = shifts.len();
    let mut ox = from;
    loop {
        let at = ox.min(to - N);
        let mut r = [bias; N];
        for &(src, ki) in rows {
            for (kj, &shift) in shifts.iter().enumerate() {
                let tap = taps[ki * kw + kj];
                let s: &[T; N] = src[(at as isize + shift) as usize..][..N]
                    .try_into()
                    .unwrap();
                for l in 0..N {
                    r[l] = s[l].fma::<F>(tap, r[l]);
                }
            }
        }
        out[at..at + N].copy_from_slice(&r);
        if at + N == to {
            return to;
        }
        ox += N;
    }
}

/// Stride-1 depthwise output columns `cols` one at a time, skipping the taps that fall in
/// the padding (the order of accumulation of [`tap_blocks`]).
#[inline(always)]
fn edge_columns<T: Real, const F: bool>(
    rows: &[(&[T], usize)],
    taps: &[T],
    shifts: &[isize],
    bias: T,
    out: &mut [T],
    cols: impl Iterator<Item = usize>,
) {
    let kw = shifts.len();
    for ox in cols {
        let mut acc = bias;
        for &(src, ki) in rows {
            for (kj, &shift) in shifts.iter().enumerate() {
                let ix = ox as isize + shift;
                if (0..src.len() as isize).contains(&ix) {
                    acc = src[ix as usize].fma::<F>(taps[ki * kw + kj], acc);
                }
            }
        }
        out[ox] = acc;
    }
}

/// The positions `p < count` with `0 <= p·stride + shift < len`, as `[lo, hi)`.
fn span(shift: isize, stride: usize, len: usize, count: usize) -> (usize, usize) {
    let s = stride as isize;
    let lo = if shift >= 0 { 0 } else { (-shift + s - 1) / s };
    let hi = if len as isize > shift {
        (len as isize - shift + s - 1) / s
    } else {
        0
    };
    (lo as usize, (hi.max(0) as usize).min(count))
}

/// The sizes of one (image, group) block of a convolution.
struct Geometry {
    c: usize,
    h: usize,
    w: usize,
    kh: usize,
    kw: usize,
    ho: usize,
    wo: usize,
    stride: [usize; 2],
    pad: [usize; 2],
    dilation: [usize; 2],
}

/// Lays the `[c, h, w]` image `x` out as `[c·kh·kw, ho·wo]` tap rows in `col` (exactly that
/// long; every element is written): row `(ci, ki, kj)` holds, for each output position, the
/// input element that tap reads, or zero in the padding. Per (tap, output row) the valid
/// output columns are one range, computed once: a slice copy when the stride is 1, a
/// branch-free strided read otherwise, and zeros either side.
fn im2col<T: Real>(x: &[T], g: &Geometry, col: &mut [T]) {
    let pp = g.ho * g.wo;
    let (s1, w) = (g.stride[1], g.w as isize);
    let mut rows = col.chunks_mut(pp);
    for ci in 0..g.c {
        let plane = &x[ci * g.h * g.w..][..g.h * g.w];
        for ki in 0..g.kh {
            for kj in 0..g.kw {
                let row = rows.next().expect("one row per tap");
                // Output column `ox` reads input column `ox·s1 + off`: valid for `lo..hi`.
                let off = (kj * g.dilation[1]) as isize - g.pad[1] as isize;
                let lo = if off >= 0 {
                    0
                } else {
                    off.unsigned_abs().div_ceil(s1)
                };
                let hi = if w - 1 - off < 0 {
                    0
                } else {
                    (w - 1 - off) as usize / s1 + 1
                };
                let hi = hi.min(g.wo);
                let lo = lo.min(hi);
                for (oy, out) in row.chunks_mut(g.wo).enumerate() {
                    let iy = (oy * g.stride[0] + ki * g.dilation[0]) as isize - g.pad[0] as isize;
                    if iy < 0 || iy >= g.h as isize {
                        out.fill(T::default());
                        continue;
                    }
                    let src = &plane[iy as usize * g.w..][..g.w];
                    out[..lo].fill(T::default());
                    out[hi..].fill(T::default());
                    if lo == hi {
                        continue;
                    }
                    // Input column of `lo`: ≥ 0 (`lo·s1 ≥ -off`) and below `w` (`lo < hi`).
                    let src = &src[((lo * s1) as isize + off) as usize..];
                    if s1 == 1 {
                        out[lo..hi].copy_from_slice(&src[..hi - lo]);
                    } else {
                        for (v, &e) in out[lo..hi].iter_mut().zip(src.iter().step_by(s1)) {
                            *v = e;
                        }
                    }
                }
            }
        }
    }
}
