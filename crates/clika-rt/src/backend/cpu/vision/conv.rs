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
    let layout = Layout::new(p, [h, w], [kh, kw], std::mem::size_of::<T>());
    let simd = super::super::vmath::avx2();
    let parallel = dst.len() * kh * kw >= 1 << 15;
    chunks_in_groups(dst, ho * wo, ho * wo * kh * kw, parallel, |first, part| {
        let mut buf = vec![T::default(); layout.buf_len];
        for (i, out) in part.chunks_mut(ho * wo).enumerate() {
            // Output plane t = (image, output channel); the channel reads input channel oc / og.
            let t = first + i;
            let (ni, oc) = (t / (c * og), t % (c * og));
            let body = Plane {
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

/// The geometry of [`depthwise`]'s planes and how its scratch buffer is laid out.
struct Layout {
    src_hw: [usize; 2],
    out_hw: [usize; 2],
    kernel: [usize; 2],
    stride: [usize; 2],
    pad: [usize; 2],
    dilation: [usize; 2],
    /// The columns of one phase of a padded row (stride 1 across: the whole padded row).
    phase_len: usize,
    /// Per kernel column, where its tap for output column 0 sits in a padded row (its
    /// phase's start plus its offset in the phase).
    col_at: Vec<usize>,
    /// The output rows of a band.
    band: usize,
    /// The scratch buffer: a band's padded rows.
    buf_len: usize,
}

impl Layout {
    /// A band's budget: 32 KiB, a core's L1 data cache on current x86 parts.
    const BAND_BYTES: usize = 32 * 1024;

    fn new(p: &ConvPlan, src_hw: [usize; 2], kernel: [usize; 2], elem: usize) -> Layout {
        let ([ho, wo], [sy, sx], [dy, dx]) = (p.out_hw, p.stride, p.dilation);
        let reach = (kernel[1] - 1) * dx;
        let phase_len = ((wo.max(1) - 1) * sx + reach + 1).div_ceil(sx);
        let col_at = (0..kernel[1])
            .map(|kj| (kj * dx) % sx * phase_len + kj * dx / sx)
            .collect();
        let row = sx * phase_len;
        let rows = (Self::BAND_BYTES / elem / row).saturating_sub((kernel[0] - 1) * dy + 1);
        let band = (rows / sy + 1).min(ho.max(1));
        let buf_len = Self::band_rows(band, sy, kernel[0], dy) * row;
        Layout {
            src_hw,
            out_hw: p.out_hw,
            kernel,
            stride: p.stride,
            pad: p.pad,
            dilation: p.dilation,
            phase_len,
            col_at,
            band,
            buf_len,
        }
    }

    /// The padded rows a band of `rows` output rows reads.
    fn band_rows(rows: usize, sy: usize, kh: usize, dy: usize) -> usize {
        (rows - 1) * sy + (kh - 1) * dy + 1
    }

    /// Fills `dst` (one padded row) from input row `iy` of `src` (`None`: a padding row):
    /// padded column `x` goes to phase `x % s`, position `x / s`; columns outside the input
    /// are zero.
    #[inline(always)]
    fn fill_row<T: Real>(&self, src: &[T], iy: Option<usize>, dst: &mut [T]) {
        let ([_, w], [_, sx], [_, px]) = (self.src_hw, self.stride, self.pad);
        let Some(iy) = iy else {
            dst.fill(T::default());
            return;
        };
        let row = &src[iy * w..][..w];
        if sx == 1 {
            let lead = px.min(dst.len());
            let body = (dst.len() - lead).min(w);
            dst[..lead].fill(T::default());
            dst[lead..lead + body].copy_from_slice(&row[..body]);
            dst[lead + body..].fill(T::default());
            return;
        }
        for (q, phase) in dst.chunks_mut(self.phase_len).enumerate() {
            for (j, d) in phase.iter_mut().enumerate() {
                let ix = (q + j * sx).wrapping_sub(px);
                *d = if ix < w { row[ix] } else { T::default() };
            }
        }
    }
}

/// One output plane of [`depthwise`].
struct Plane<'a, T> {
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
        // The common kernel sizes get a copy of the row kernel compiled for their size: the
        // tap loops unrolled and the taps in registers across a row (about twice as fast as
        // loops over runtime sizes).
        match self.layout.kernel {
            [3, 3] => self.rows::<F, 3, 3>(),
            [5, 5] => self.rows::<F, 5, 5>(),
            [7, 7] => self.rows::<F, 7, 7>(),
            _ => self.rows::<F, 0, 0>(),
        }
    }
}

impl<T: Real> Plane<'_, T> {
    /// Every output row, with the kernel `KH × KW` fixed at compile time, or (`KH == 0`) of
    /// the plan's size.
    #[inline(always)]
    fn rows<const F: bool, const KH: usize, const KW: usize>(self) {
        let g = self.layout;
        let kernel = Kernel::<T, KH, KW> {
            taps: self.taps,
            rows: g.kernel[0],
            fixed: std::array::from_fn(|ki| {
                std::array::from_fn(|kj| self.taps[ki * g.kernel[1] + kj])
            }),
            at: std::array::from_fn(|kj| g.col_at[kj]),
            col_at: &g.col_at,
            bias: self.bias,
        };
        self.bands::<F, KH, KW>(&kernel);
    }

    /// Per band of output rows, the padded input rows it reads copied into the buffer with
    /// padded column `x` at phase `x % s`, position `x / s` (`s` the stride across), so every
    /// tap reads a contiguous run.
    #[inline(always)]
    fn bands<const F: bool, const KH: usize, const KW: usize>(self, k: &Kernel<T, KH, KW>) {
        let g = self.layout;
        let ([h, _], [ho, wo], [kh, _]) = (g.src_hw, g.out_hw, g.kernel);
        let ([sy, sx], [py, _], [dy, _]) = (g.stride, g.pad, g.dilation);
        let row_len = sx * g.phase_len;
        for oy0 in (0..ho).step_by(g.band) {
            let band = g.band.min(ho - oy0);
            let buf = &mut self.buf[..Layout::band_rows(band, sy, kh, dy) * row_len];
            // Each output row copies the padded rows it is the first to read just before it
            // runs, so the input streams in while the rows compute (a band's rows copied up
            // front stalled on memory, then computed with the memory idle: 30% slower).
            let mut filled = 0;
            for oy in oy0..oy0 + band {
                let base = (oy - oy0) * sy;
                let need = base + (kh - 1) * dy + 1;
                for (r, dst) in buf[filled * row_len..need * row_len]
                    .chunks_mut(row_len)
                    .enumerate()
                {
                    let iy = (oy0 * sy + filled + r).checked_sub(py).filter(|&iy| iy < h);
                    g.fill_row(self.src, iy, dst);
                }
                filled = need;
                let buf = &*buf;
                let src = |ki: usize| &buf[(base + ki * dy) * row_len..][..row_len];
                k.row::<F>(src, 0, &mut self.out[oy * wo..][..wo]);
            }
        }
    }
}

/// A depthwise kernel, `KH × KW` fixed at compile time or (`KH == 0`) not.
struct Kernel<'a, T, const KH: usize, const KW: usize> {
    /// Row-major.
    taps: &'a [T],
    rows: usize,
    fixed: [[T; KW]; KH],
    /// Each kernel column's offset in a row it reads.
    at: [usize; KW],
    col_at: &'a [usize],
    bias: T,
}

impl<T: Real, const KH: usize, const KW: usize> Kernel<'_, T, KH, KW> {
    /// `out[o] = bias + Σ tap(ki, kj) · rows[ki][first + o + col_at[kj]]`, in blocks of 32
    /// (`f32`) or 16 (`f64`) columns, then 8, then 1.
    #[inline(always)]
    fn row<'b, const F: bool>(&self, rows: impl Fn(usize) -> &'b [T], first: usize, out: &mut [T])
    where
        T: 'b,
    {
        if KH == 0 {
            let at = dynamic_blocks::<T, F, 32, KH, KW>(self, &rows, first, out, 0);
            let at = dynamic_blocks::<T, F, 8, KH, KW>(self, &rows, first, out, at);
            dynamic_blocks::<T, F, 1, KH, KW>(self, &rows, first, out, at);
            return;
        }
        // Locals, not reads through `self`: the optimiser keeps them in registers across the
        // blocks (through the reference it reloaded every tap after each store to `out`).
        let (src, taps, at): ([&[T]; KH], _, _) = (std::array::from_fn(rows), self.fixed, self.at);
        let k = (&src, &taps, &at, self.bias);
        // Four vectors of accumulators a block.
        let at = if std::mem::size_of::<T>() == 4 {
            fixed_blocks::<T, F, 32, KH, KW>(k, first, out, 0)
        } else {
            fixed_blocks::<T, F, 16, KH, KW>(k, first, out, 0)
        };
        let at = fixed_blocks::<T, F, 8, KH, KW>(k, first, out, at);
        fixed_blocks::<T, F, 1, KH, KW>(k, first, out, at);
    }
}

/// Output columns `from..` of [`Kernel::row`] in blocks of `N` held in registers across
/// all the taps. When at least `N` columns remain the last block ends at the row's end,
/// overlapping the one before (it recomputes the same values) rather than leaving a
/// remainder; returns the row's length then, else `from` (fewer than `N` columns).
#[inline(always)]
fn dynamic_blocks<
    'b,
    T: Real + 'b,
    const F: bool,
    const N: usize,
    const KH: usize,
    const KW: usize,
>(
    k: &Kernel<T, KH, KW>,
    rows: &impl Fn(usize) -> &'b [T],
    first: usize,
    out: &mut [T],
    from: usize,
) -> usize {
    let (to, kw) = (out.len(), k.col_at.len());
    if to - from < N {
        return from;
    }
    let mut ox = from;
    loop {
        let o = ox.min(to - N);
        let mut r = [k.bias; N];
        for ki in 0..k.rows {
            let row = rows(ki);
            for (kj, &col) in k.col_at.iter().enumerate() {
                let tap = k.taps[ki * kw + kj];
                let s: &[T; N] = row[first + o + col..][..N].try_into().unwrap();
                for l in 0..N {
                    r[l] = s[l].fma::<F>(tap, r[l]);
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

/// A row's kernel with its size fixed at compile time: the rows its kernel rows read, the
/// taps, each kernel column's offset and the bias.
type Fixed<'a, 'b, T, const KH: usize, const KW: usize> =
    (&'a [&'b [T]; KH], &'a [[T; KW]; KH], &'a [usize; KW], T);

/// [`dynamic_blocks`] with the kernel size fixed at compile time.
#[inline(always)]
fn fixed_blocks<T: Real, const F: bool, const N: usize, const KH: usize, const KW: usize>(
    (src, taps, at, bias): Fixed<'_, '_, T, KH, KW>,
    first: usize,
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
                let s: &[T; N] = src[ki][first + o + at[kj]..][..N].try_into().unwrap();
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
