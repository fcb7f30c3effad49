//! Dense, grouped and transposed convolutions (the direct `float32` kernel of [`direct`],
//! transposed ones per output phase; otherwise im2col + GEMM, GEMM + col2im) and the direct
//! depthwise kernel.

use super::super::iter::{chunks_in_groups, threads_available};
use super::super::vmath::Avx2;
use super::{dense, elems, fresh, Real};
use crate::ops::vision::ConvPlan;
use crate::{DType, Result, Tensor};

mod direct;

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
    if !direct && direct::convolve(p, xs, ws, bs, dst, [n, c, h, wd]) {
        return Ok(out);
    }
    let (par, inner) = inner_parallelism(n * g, og * kk * pp);
    let geo = Geometry {
        c: cg,
        h,
        w: wd,
        kh,
        kw,
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
        let wm = Mat::rows(wg.as_ptr(), kk);
        if direct {
            // SAFETY: `wg` is og×kk, the input block `xg` kk×pp and `dst` og×pp, row-major
            // slices of exactly those sizes; `dst` is this block's own part of the fresh
            // output and overlaps neither input. With a bias `dst` (prefilled with it) is
            // added to.
            unsafe {
                gemm_into(
                    [og, pp, kk],
                    Mat::rows(dst.as_mut_ptr(), pp),
                    bs.is_some(),
                    wm,
                    Mat::rows(xg.as_ptr(), pp),
                    inner,
                )
            };
            return;
        }
        // The tap rows of a few output rows at a time, so the scratch stays in L2 between
        // im2col writing it and the GEMM packing it.
        for rows in tiles::<T>(ho, kk * wo) {
            let cols = rows.len() * wo;
            let owned = scratch(owned, kk * cols);
            im2col(xg, &geo, rows.clone(), owned);
            // SAFETY: `owned` holds the kk×cols tap rows of these output rows, and the
            // destination is og rows of `dst` (row stride pp) from column `rows.start·wo`,
            // `cols` wide: within `dst`'s og·pp elements. `dst` is this block's own part of
            // the fresh output; `owned` is a scratch of this thread.
            unsafe {
                gemm_into(
                    [og, cols, kk],
                    Mat::rows(dst.as_mut_ptr().add(rows.start * wo), pp),
                    bs.is_some(),
                    wm,
                    Mat::rows(owned.as_ptr(), cols),
                    inner,
                )
            };
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

/// The bytes of tap rows an im2col/col2im tile holds: a quarter of a 1 MiB L2, so the
/// scratch is still there when the GEMM packs or col2im reads it, beside the GEMM's own
/// packed blocks. Whole-image scratch (7 MB for 64 channels of 56², 3×3) went through
/// memory: on two threads the 8×64×56² 3×3 convolution took 12.0–12.8 ms with it and
/// 10.6–10.7 with 256 KiB tiles (1 and 4 MiB tiles in between), the 4×4 stride-2
/// transposed one 14.2–15.0 and 12.4–12.6.
const TILE_BYTES: usize = 256 << 10;

/// `0..rows` in tiles of at most [`TILE_BYTES`] (at least one row each) of rows of `row`
/// elements of `T`.
fn tiles<T>(rows: usize, row: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let tile = (TILE_BYTES / (row * std::mem::size_of::<T>()).max(1)).max(1);
    (0..rows)
        .step_by(tile)
        .map(move |r| r..(r + tile).min(rows))
}

/// The first `len` elements of the reused scratch `owned`, grown (zeroed) when short.
fn scratch<T: Real>(owned: &mut Vec<T>, len: usize) -> &mut [T] {
    if owned.len() < len {
        owned.resize(len, T::default());
    }
    &mut owned[..len]
}

/// A GEMM operand: element `(r, c)` at `ptr + r·rs + c·cs`.
#[derive(Clone, Copy)]
struct Mat<P> {
    ptr: P,
    rs: isize,
    cs: isize,
}

impl<P> Mat<P> {
    /// Row-major with `row` elements between rows.
    fn rows(ptr: P, row: usize) -> Self {
        Mat {
            ptr,
            rs: row as isize,
            cs: 1,
        }
    }
}

/// `dst (+)= lhs × rhs` for an `[m, k]` lhs and a `[k, n]` rhs; with `accumulate` the
/// destination (prefilled with a bias) is added to, else overwritten.
///
/// # Safety
/// Every element the product reads or writes — `lhs (r, j)`, `rhs (j, c)`, `dst (r, c)` for
/// `r < m`, `j < k`, `c < n` — is in bounds of a live allocation, and `dst` overlaps neither
/// input nor is accessed elsewhere during the call.
unsafe fn gemm_into<T: Real>(
    [m, n, k]: [usize; 3],
    dst: Mat<*mut T>,
    accumulate: bool,
    lhs: Mat<*const T>,
    rhs: Mat<*const T>,
    inner: gemm::Parallelism,
) {
    // SAFETY: the caller's contract.
    unsafe {
        gemm::gemm::<T>(
            m,
            n,
            k,
            dst.ptr,
            dst.cs,
            dst.rs,
            accumulate,
            lhs.ptr,
            lhs.cs,
            lhs.rs,
            rhs.ptr,
            rhs.cs,
            rhs.rs,
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

/// A transposed convolution: `float32` on AVX-512 per output phase ([`direct::convolve`]);
/// otherwise per (image, group), `cols = Wᵀ · x` (`[og·kh·kw, h·w]`: the
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
    if !direct && direct::convolve(p, xs, ws, bs, dst, [n, c, h, wd]) {
        return Ok(out);
    }
    let (par, inner) = inner_parallelism(n * g, m * cg * hw);
    let geo = Geometry {
        c: og,
        h: ho,
        w: wo,
        kh,
        kw,
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
        // The lhs is `wg` read transposed: element (r, k) at `wg[k·m + r]`.
        let wt = Mat {
            ptr: wg.as_ptr(),
            rs: 1,
            cs: m as isize,
        };
        if direct {
            // SAFETY: the product is m×hw into the output block itself (m = og and hw =
            // ho·wo, row-major), in bounds; the lhs reads wg[k·m + r] for r < m, k < cg, and
            // the rhs `xg` is cg×hw row-major. `dst` is this block's own part of the fresh
            // output and overlaps neither input.
            unsafe {
                gemm_into(
                    [m, hw, cg],
                    Mat::rows(dst.as_mut_ptr(), hw),
                    bs.is_some(),
                    wt,
                    Mat::rows(xg.as_ptr(), hw),
                    inner,
                )
            };
            return;
        }
        // The tap rows of a few input rows at a time, added into the output while they are
        // still in L2.
        for rows in tiles::<T>(h, m * wd) {
            let cols = rows.len() * wd;
            let owned = scratch(owned, m * cols);
            // SAFETY: the product is m×cols into `owned` (row-major, at least m·cols long);
            // the lhs as above; the rhs is the cg×cols block of `xg` from column
            // `rows.start·wd` (row stride hw), in bounds. `owned` is this thread's scratch.
            unsafe {
                gemm_into(
                    [m, cols, cg],
                    Mat::rows(owned.as_mut_ptr(), cols),
                    false,
                    wt,
                    Mat::rows(xg.as_ptr().add(rows.start * wd), hw),
                    inner,
                )
            };
            col2im(owned, dst, &geo, rows);
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

/// Adds the `[c·kh·kw, iys.len()·wo]` tap rows `cols` of tap-layout rows `iys` into the
/// `[c, h, w]` image `dst`: the inverse of [`im2col`] (taps that land in the padding are
/// dropped). Here `wo` is the width the taps are laid out over (a transposed convolution's
/// input) and `h`/`w` the image's.
fn col2im<T: Real>(cols: &[T], dst: &mut [T], g: &Geometry, iys: std::ops::Range<usize>) {
    let pp = iys.len() * g.wo;
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
                for (iy, src) in iys.clone().zip(row.chunks(g.wo)) {
                    let oy = (iy * g.stride[0] + ki * g.dilation[0]) as isize - g.pad[0] as isize;
                    if oy < 0 || oy >= g.h as isize || lo >= hi {
                        continue;
                    }
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
/// == 1`: depthwise, with any channel multiplier, or a one-channel input), computed directly,
/// one output plane at a time, in bands of output rows: the input rows a band reads are
/// copied, zero-padded and (for a stride `s` across) split into `s` phases of every `s`-th
/// column, into a buffer that stays in L1, so every kernel tap reads a contiguous run of it
/// at a fixed offset: no edge columns or border rows with fewer taps, no strided reads.
/// Blocks of output columns stay in registers while every tap adds `weight × input`; 3×3,
/// 5×5 and 7×7 kernels run a copy compiled for their size (the taps unrolled, held in
/// registers where they fit). No im2col matrix, no GEMM of a 1-wide inner dimension. The
/// planes run in parallel; the blocks vectorise with AVX2+FMA where the CPU has it
/// (`dispatch_avx2`: AVX-512's 64-byte loads at the taps' unaligned offsets split a cache
/// line every time and measured slower).
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
    let layout = Layout::new(
        Window::of(p),
        [h, w],
        [kh, kw],
        std::mem::size_of::<T>(),
        [Layout::BAND_BYTES, ho],
    );
    let simd = super::super::vmath::avx2();
    let parallel = dst.len() * kh * kw >= 1 << 15;
    chunks_in_groups(dst, ho * wo, ho * wo * kh * kw, parallel, |first, part| {
        // Zeroed once: the padding columns of its phase rows stay zero (`Layout::fill_row`).
        let mut buf = vec![T::default(); layout.buf_len];
        for (i, out) in part.chunks_mut(ho * wo).enumerate() {
            // Output plane t = (image, output channel); the channel reads input channel oc / og.
            let t = first + i;
            let (ni, oc) = (t / (c * og), t % (c * og));
            let body = Plane {
                simd,
                src: &xs[(ni * c + oc / og) * h * w..][..h * w],
                taps: &ws[oc * kh * kw..][..kh * kw],
                bias: bs.map_or(T::default(), |b| b[oc]),
                out,
                buf: &mut buf,
                layout: &layout,
            };
            super::super::vmath::dispatch_avx2(simd, body);
        }
    });
}

/// How a convolution's window slides over its input: the output size, the stride, the
/// padding before the first row and column (negative: that many input rows or columns are
/// never read, as in an output phase of a transposed convolution with a wide padding) and the
/// dilation. The padding after the input is implied by the output size.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Window {
    out_hw: [usize; 2],
    stride: [usize; 2],
    pad: [isize; 2],
    dilation: [usize; 2],
}

impl Window {
    fn of(p: &ConvPlan) -> Window {
        Window {
            out_hw: p.out_hw,
            stride: p.stride,
            pad: p.pad.map(|v| v as isize),
            dilation: p.dilation,
        }
    }
}

/// The geometry of [`depthwise`]'s planes and how its scratch buffer is laid out.
///
/// A band's padded input rows are stored by phase: padded row `y`, column `x` goes to phase
/// plane `(y % sy, x % sx)`, row `y / sy`, column `x / sx`, each phase row `phase_len` long.
/// Output `(oy, ox)` of the band then reads tap `(ki, kj)` at one fixed offset plus
/// `oy · phase_len + ox`: the whole band is one flat run of outputs `o = oy · phase_len + ox`
/// (the columns `ox >= wo` computed and dropped), so narrow rows still fill wide blocks.
struct Layout {
    src_hw: [usize; 2],
    out_hw: [usize; 2],
    kernel: [usize; 2],
    stride: [usize; 2],
    pad: [isize; 2],
    dilation: [usize; 2],
    /// The columns of a phase row, and the flat distance between output rows.
    phase_len: usize,
    /// The rows of a phase plane.
    plane_rows: usize,
    /// Per phase of the columns `q < sx`: the phase row's columns `[lo, hi)` that hold input
    /// columns (the rest is padding), and the input column at `lo`.
    spans: Vec<[usize; 3]>,
    /// Per tap, row-major: where it reads for output `(0, 0)`.
    tap_at: Vec<usize>,
    /// The output rows of a band.
    band: usize,
    /// The output rows computed as one flat run.
    group: usize,
    /// The band's phase planes.
    band_len: usize,
    /// The band, then a group's flat outputs.
    buf_len: usize,
}

impl Layout {
    /// A band's budget: 32 KiB, a core's L1 data cache on current x86 parts.
    const BAND_BYTES: usize = 32 * 1024;

    /// The layout whose band's phase planes (of one channel) fill at most `budget` bytes
    /// (at least one output row), of at most `max_band` output rows.
    fn new(
        win: Window,
        src_hw: [usize; 2],
        kernel: [usize; 2],
        elem: usize,
        [budget, max_band]: [usize; 2],
    ) -> Layout {
        let ([ho, wo], [sy, sx], [dy, dx]) = (win.out_hw, win.stride, win.dilation);
        let [kh, kw] = kernel;
        let phase_len = ((wo.max(1) - 1) * sx + (kw - 1) * dx + 1).div_ceil(sx);
        let reach = (kh - 1) * dy / sy;
        let planes = sy * sx;
        let band = (budget / elem / (planes * phase_len))
            .saturating_sub(reach)
            .clamp(1, max_band.min(ho).max(1));
        let plane_rows = band + reach;
        let tap_at = (0..kh * kw)
            .map(|t| {
                let (y, x) = (t / kw * dy, t % kw * dx);
                (((y % sy) * sx + x % sx) * plane_rows + y / sy) * phase_len + x / sx
            })
            .collect();
        // Rows narrower than the widest block (four vectors) run in groups of at least two
        // such blocks' outputs; wider rows one at a time, written straight to the output.
        let widest = 128 / elem;
        let group = if wo >= widest {
            1
        } else {
            (2 * widest).div_ceil(phase_len).min(band)
        };
        let band_len = planes * plane_rows * phase_len;
        // Phase column `j` of phase `q` holds padded column `j·sx + q`, input column
        // `j·sx + q − px`: the input columns are `j` from `⌈(px − q) / sx⌉` up to
        // `⌈(w + px − q) / sx⌉` (from 0 where the first bound is negative).
        let ([_, w], [_, px]) = (src_hw, win.pad);
        let at_least = |v: isize| v.max(0) as usize;
        let spans = (0..sx)
            .map(|q| {
                let lo = at_least(px - q as isize).div_ceil(sx).min(phase_len);
                let hi = at_least(w as isize + px - q as isize)
                    .div_ceil(sx)
                    .clamp(lo, phase_len);
                [lo, hi, at_least((lo * sx + q) as isize - px).min(w)]
            })
            .collect();
        Layout {
            src_hw,
            out_hw: win.out_hw,
            kernel,
            stride: win.stride,
            pad: win.pad,
            dilation: win.dilation,
            phase_len,
            plane_rows,
            spans,
            tap_at,
            band,
            group,
            band_len,
            buf_len: band_len + group * phase_len,
        }
    }

    /// Copies padded row `y` of the plane `src` into the band `buf` as the band's row
    /// `r = pr · sy + ph`: padded column `x` to phase plane `(ph, x % sx)`, row `pr`, column
    /// `x / sx`. Only the input columns are written: the padding columns are zero from the
    /// buffer's allocation. (The caller counts `pr` and `ph` along: a division per row by
    /// the runtime stride cost as much as the copy.)
    #[inline(always)]
    fn fill_row<T: Real>(
        &self,
        simd: Option<Avx2>,
        src: &[T],
        y: usize,
        [pr, ph]: [usize; 2],
        buf: &mut [T],
    ) {
        let ([h, w], [_, sx], [py, _]) = (self.src_hw, self.stride, self.pad);
        let len = self.phase_len;
        let row_at = |q: usize| ((ph * sx + q) * self.plane_rows + pr) * len;
        let iy = y as isize - py;
        let Some(iy) = (0..h as isize).contains(&iy).then_some(iy as usize) else {
            for q in 0..sx {
                buf[row_at(q)..][..len].fill(T::default());
            }
            return;
        };
        let row = &src[iy * w..][..w];
        for (q, &[lo, hi, from]) in self.spans.iter().enumerate() {
            // Only the input columns: the padding columns outside `lo..hi` are zero from the
            // buffer's allocation and no row writes them (filling them per row cost a
            // `memset` call per phase, 12% of a 5x5 stride-2 convolution).
            let (dst, row) = (&mut buf[row_at(q)..][lo..hi], &row[from..]);
            match sx {
                1 => dst.copy_from_slice(&row[..dst.len()]),
                // Every other column: whole vectors with AVX2's shuffles, the rest in a loop
                // over pairs, and the last column alone when the row ends on one.
                2 => {
                    let done = take_even(simd, row, dst);
                    let pairs = (row.len() / 2).min(dst.len());
                    for (d, c) in dst[done..].iter_mut().zip(row[2 * done..].chunks_exact(2)) {
                        *d = c[0];
                    }
                    if pairs < dst.len() {
                        dst[pairs] = row[2 * pairs];
                    }
                }
                _ => {
                    for (j, d) in dst.iter_mut().enumerate() {
                        *d = row[j * sx];
                    }
                }
            }
        }
    }
}

/// One output plane of [`depthwise`].
struct Plane<'a, T> {
    simd: Option<Avx2>,
    src: &'a [T],
    taps: &'a [T],
    bias: T,
    out: &'a mut [T],
    buf: &'a mut [T],
    layout: &'a Layout,
}

impl<T: Real> super::super::vmath::SimdBody for Plane<'_, T> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        // The common kernel sizes get a copy of the blocks compiled for their size: the tap
        // loops unrolled and the taps in registers across a run (about twice as fast as
        // loops over runtime sizes).
        match self.layout.kernel {
            [3, 3] => self.bands::<F, 3, 3>(),
            [5, 5] => self.bands::<F, 5, 5>(),
            [7, 7] => self.bands::<F, 7, 7>(),
            _ => self.bands::<F, 0, 0>(),
        }
    }
}

impl<T: Real> Plane<'_, T> {
    /// Every band of output rows, a group of rows at a time: the padded input rows the
    /// group is the first to read copied into the band's phase planes, then the group's flat
    /// run of outputs computed with the kernel `KH × KW` fixed at compile time, or
    /// (`KH == 0`) of the plan's size.
    #[inline(always)]
    fn bands<const F: bool, const KH: usize, const KW: usize>(self) {
        let g = self.layout;
        let ([ho, wo], [kh, kw], [sy, _], [dy, _]) = (g.out_hw, g.kernel, g.stride, g.dilation);
        let len = g.phase_len;
        // Locals, not reads through a reference: the optimiser keeps them in registers
        // across the blocks (through a reference it reloaded every tap after each store).
        let taps: [[T; KW]; KH] =
            std::array::from_fn(|ki| std::array::from_fn(|kj| self.taps[ki * kw + kj]));
        let at: [[usize; KW]; KH] =
            std::array::from_fn(|ki| std::array::from_fn(|kj| g.tap_at[ki * kw + kj]));
        let (buf, flat) = self.buf.split_at_mut(g.band_len);
        for oy0 in (0..ho).step_by(g.band) {
            let band = g.band.min(ho - oy0);
            // Each group copies the rows it is the first to read just before it runs, so the
            // input streams in while the arithmetic runs (a band's rows copied up front
            // stalled on memory with the arithmetic idle: 30% slower).
            let (mut filled, mut pr, mut ph) = (0, 0, 0);
            for r0 in (0..band).step_by(g.group) {
                let r1 = (r0 + g.group).min(band);
                let need = (r1 - 1) * sy + (kh - 1) * dy + 1;
                for r in filled..need {
                    g.fill_row(self.simd, self.src, oy0 * sy + r, [pr, ph], buf);
                    ph += 1;
                    if ph == sy {
                        (pr, ph) = (pr + 1, 0);
                    }
                }
                filled = need;
                let src = &buf[r0 * len..];
                // One row writes straight to the output; several go through `flat`, which
                // holds their dropped columns too.
                let out = match r1 - r0 {
                    1 => &mut self.out[(oy0 + r0) * wo..][..wo],
                    rows => &mut flat[..(rows - 1) * len + wo],
                };
                if KH == 0 {
                    let k = (src, self.taps, &g.tap_at[..], self.bias);
                    let next = dynamic_blocks::<T, F, 32>(k, out, 0);
                    let next = dynamic_blocks::<T, F, 8>(k, out, next);
                    dynamic_blocks::<T, F, 1>(k, out, next);
                } else {
                    let k = (src, &taps, &at, self.bias);
                    // Four vectors of accumulators a block.
                    let next = if std::mem::size_of::<T>() == 4 {
                        fixed_blocks::<T, F, 32, KH, KW>(k, out, 0)
                    } else {
                        fixed_blocks::<T, F, 16, KH, KW>(k, out, 0)
                    };
                    let next = fixed_blocks::<T, F, 8, KH, KW>(k, out, next);
                    fixed_blocks::<T, F, 1, KH, KW>(k, out, next);
                }
                if r1 - r0 > 1 {
                    for (i, oy) in (oy0 + r0..oy0 + r1).enumerate() {
                        self.out[oy * wo..][..wo].copy_from_slice(&flat[i * len..][..wo]);
                    }
                }
            }
        }
    }
}

/// Outputs `from..` of a flat run, `out[o] = bias + Σ tap · src[at + o]` over the taps, in
/// blocks of `N` held in registers across all the taps. When at least `N` outputs remain the
/// last block ends at the run's end, overlapping the one before (it recomputes the same
/// values) rather than leaving a remainder; returns the run's length then, else `from`
/// (fewer than `N` outputs).
#[inline(always)]
fn dynamic_blocks<T: Real, const F: bool, const N: usize>(
    (src, taps, at, bias): (&[T], &[T], &[usize], T),
    out: &mut [T],
    from: usize,
) -> usize {
    let to = out.len();
    if to - from < N {
        return from;
    }
    let mut ox = from;
    loop {
        let o = ox.min(to - N);
        let mut r = [bias; N];
        for (&tap, &a) in taps.iter().zip(at) {
            let s: &[T; N] = src[a + o..][..N].try_into().unwrap();
            for l in 0..N {
                r[l] = s[l].fma::<F>(tap, r[l]);
            }
        }
        out[o..o + N].copy_from_slice(&r);
        if o + N == to {
            return to;
        }
        ox += N;
    }
}

/// A flat run's kernel with its size fixed at compile time: the band's phase planes from
/// the run's first output row, the taps, where each reads, and the bias.
type Fixed<'a, T, const KH: usize, const KW: usize> =
    (&'a [T], &'a [[T; KW]; KH], &'a [[usize; KW]; KH], T);

/// [`dynamic_blocks`] with the kernel size fixed at compile time.
#[inline(always)]
fn fixed_blocks<T: Real, const F: bool, const N: usize, const KH: usize, const KW: usize>(
    (src, taps, at, bias): Fixed<'_, T, KH, KW>,
    out: &mut [T],
    from: usize,
) -> usize {
    let to = out.len();
    if to - from < N {
        return from;
    }
    let mut ox = from;
    loop {
        let o = ox.min(to - N);
        let mut r = [bias; N];
        for ki in 0..KH {
            for kj in 0..KW {
                let s: &[T; N] = src[at[ki][kj] + o..][..N].try_into().unwrap();
                for l in 0..N {
                    r[l] = s[l].fma::<F>(taps[ki][kj], r[l]);
                }
            }
        }
        out[o..o + N].copy_from_slice(&r);
        if o + N == to {
            return to;
        }
        ox += N;
    }
}

/// `dst[j] = src[2j]` for the leading `j` that [`Real::take_even`] covers with AVX2 (none
/// without it); returns how many.
#[inline(always)]
fn take_even<T: Real>(simd: Option<Avx2>, src: &[T], dst: &mut [T]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = simd {
        return T::take_even(simd.v3(), src, dst);
    }
    let _ = (simd, src, dst);
    0
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
    wo: usize,
    stride: [usize; 2],
    pad: [usize; 2],
    dilation: [usize; 2],
}

/// Lays the `[c, h, w]` image `x` out as `[c·kh·kw, oys.len()·wo]` tap rows of the output
/// rows `oys` in `col` (exactly that long; every element is written): row `(ci, ki, kj)`
/// holds, for each of those output positions, the input element that tap reads, or zero in
/// the padding. Per (tap, output row) the valid output columns are one range, computed
/// once: a slice copy when the stride is 1, a branch-free strided read otherwise, and zeros
/// either side.
fn im2col<T: Real>(x: &[T], g: &Geometry, oys: std::ops::Range<usize>, col: &mut [T]) {
    let pp = oys.len() * g.wo;
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
                for (oy, out) in oys.clone().zip(row.chunks_mut(g.wo)) {
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
