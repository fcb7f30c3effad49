//! Dense and grouped `float32` convolutions computed directly, with AVX-512: no im2col
//! matrix, no GEMM packing.
//!
//! Per (image, group) and band of output rows, every input channel's padded rows are copied
//! into phase planes laid out as [`Layout`] describes for the depthwise kernel (stride `s`
//! splits the columns and rows into `s` phases, so every tap reads a contiguous run at a
//! fixed offset, and the output rows are one flat run with the dropped columns between
//! them). A register block is [`MR`] output channels × [`NR`] flat outputs: per input
//! channel and tap, [`NV`] unaligned loads of the tap's run and [`MR`] broadcast weights feed
//! `MR · NV` FMAs into accumulators that stay in registers over the whole reduction
//! (`C/groups · KH · KW` products), then the block's valid outputs are written to their
//! rows. The weights are packed once per call, `MR` channels interleaved, so each tap's
//! weights are one contiguous read.
//!
//! im2col + GEMM wrote `C · KH · KW` tap rows per output row and the GEMM packed them again;
//! for 8×64×56² with a 3×3 kernel that was a quarter of the time, and the GEMM's kernels
//! (whose blocks fit a 64-row weight badly, 4×6 and 3×6 vectors) ran below the FMA units'
//! rate.

// Off x86-64 `convolve` declines every convolution, and the rest goes unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::{Layout, Real, Window};
use crate::backend::cpu::iter::{for_each_group, threads_available, SendPtr};
use crate::ops::vision::ConvPlan;

/// Output channels of a register block.
const MR: usize = 8;
/// Vectors of 16 outputs of a register block: `MR · NV` = 24 accumulators, the loaded
/// inputs and a broadcast weight in AVX-512's 32 registers.
const NV: usize = 3;
/// Flat outputs of a register block.
const NR: usize = 16 * NV;
/// A band's budget: its phase planes over all the group's input channels fill at most half
/// a 2 MiB L2, so the taps' reads, eight blocks of channels over each, stay there.
const BAND_BYTES: usize = 1 << 20;

/// Computes the convolution `p` (dense or grouped with `in_channels / groups > 1`, or
/// transposed) into the fresh output `dst` directly when `T` is `f32` and the CPU has
/// AVX-512; returns whether it did (nothing is written otherwise).
pub(super) fn convolve<T: Real>(
    p: &ConvPlan,
    xs: &[T],
    ws: &[T],
    bs: Option<&[T]>,
    dst: &mut [T],
    nchw: [usize; 4],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some((simd, [xs, ws], bs, dst)) = as_f32(xs, ws, bs, dst) {
        let (og, (kernel, win, passes)) = if p.transposed {
            (p.w.shape()[1], transposed(p, ws, bs, dst, nchw))
        } else {
            (p.w.shape()[0] / p.groups, dense(p, ws, dst, nchw))
        };
        if !passes.is_empty() {
            let pb = Problem {
                xs,
                nchw,
                groups: p.groups,
                og,
                kernel,
                win,
                passes,
                bias: bs,
            };
            run(simd, &pb);
        }
        return true;
    }
    let _ = (p, xs, ws, bs, dst, nchw);
    false
}

/// The window and pass of the convolution `p`: its own taps, all in one pass.
fn dense(
    p: &ConvPlan,
    ws: &[f32],
    dst: &mut [f32],
    nchw: [usize; 4],
) -> ([usize; 2], Window, Vec<Pass>) {
    let (o, [kh, kw]) = (p.w.shape()[0], [p.w.shape()[2], p.w.shape()[3]]);
    let og = o / p.groups;
    let k = nchw[1] / p.groups * kh * kw;
    let [ho, wo] = p.out_hw;
    let pass = Pass {
        taps: (0..kh * kw).collect(),
        packed: pack(p.groups, og, k, |gi, oc, j| ws[(gi * og + oc) * k + j]),
        out_hw: p.out_hw,
        out: Grid {
            ptr: SendPtr(dst.as_mut_ptr()),
            plane: ho * wo,
            row: wo,
            col: 1,
        },
    };
    ([kh, kw], Window::of(p), vec![pass])
}

/// The window and passes of the transposed convolution `p`, one per output phase; the
/// phases no tap reaches are written here (the bias).
///
/// A stride `s` splits the output into `sy · sx` phases, outputs `(ry + sy·u, rx + sx·v)`;
/// each phase is an ordinary (stride 1) convolution of the input with the taps that reach
/// it, flipped (see [`Phase`]), whose outputs are written `sy` rows and `sx` columns apart.
/// The phases differ only in their taps and where they start reading, so a band of input
/// rows is copied once for all of them: one window holds every phase's taps, each phase's
/// offset by how much less padding it has than the most padded one. Every output is
/// computed once, as a sum in registers: no tap rows, no read-modify-write of the output per
/// tap (GEMM + col2im added `C_out · KH · KW` tap rows into it).
fn transposed(
    p: &ConvPlan,
    ws: &[f32],
    bs: Option<&[f32]>,
    dst: &mut [f32],
    nchw: [usize; 4],
) -> ([usize; 2], Window, Vec<Pass>) {
    let [n, c, _, _] = nchw;
    let (g, og) = (p.groups, p.w.shape()[1]);
    let (cg, o) = (c / g, og * g);
    let [kh, kw] = [p.w.shape()[2], p.w.shape()[3]];
    let [ho, wo] = p.out_hw;
    let [sy, sx] = p.stride;
    let phases = |k: usize, i: usize, len: usize| -> Vec<Phase> {
        (0..p.stride[i].min(len))
            .map(|r| Phase::new(k, p.stride[i], p.dilation[i], p.pad[i], len, r))
            .collect()
    };
    let (ys, xs_) = (phases(kh, 0, ho), phases(kw, 1, wo));
    // The window: padded as much as the most padded phase, reaching as far as the
    // farthest, stride and dilation 1; phase `r` reads it `max_pad − pad_r` further on.
    let span = |ph: &[Phase]| {
        let pad = ph.iter().map(|f| f.pad).max().unwrap_or(0);
        let extent = ph
            .iter()
            .filter(|f| !f.taps.is_empty())
            .map(|f| (pad - f.pad) as usize + (f.taps.len() - 1) * f.dilation + 1)
            .max()
            .unwrap_or(1);
        let count = ph.iter().map(|f| f.count).max().unwrap_or(0);
        (pad, extent, count)
    };
    let ((pad_y, ey, cy), (pad_x, ex, cx)) = (span(&ys), span(&xs_));
    let ptr = SendPtr(dst.as_mut_ptr());
    let mut passes = Vec::new();
    for (ry, fy) in ys.iter().enumerate() {
        for (rx, fx) in xs_.iter().enumerate() {
            let out = Grid {
                // In bounds: `ry < ho`, `rx < wo`.
                ptr: SendPtr(ptr.get().wrapping_add(ry * wo + rx)),
                plane: ho * wo,
                row: sy * wo,
                col: sx,
            };
            let [jy, jx] = [fy.taps.len(), fx.taps.len()];
            if jy == 0 || jx == 0 {
                // No tap reaches this phase: its outputs are the bias.
                for oc in 0..n * o {
                    let v = bs.map_or(0.0, |b| b[oc % o]);
                    for u in 0..fy.count {
                        for x in 0..fx.count {
                            dst[oc * out.plane + (ry + u * sy) * wo + rx + x * sx] = v;
                        }
                    }
                }
                continue;
            }
            let k = cg * jy * jx;
            let (y0, x0) = ((pad_y - fy.pad) as usize, (pad_x - fx.pad) as usize);
            passes.push(Pass {
                taps: (0..jy * jx)
                    .map(|t| {
                        let (ty, tx) = (t / jx, t % jx);
                        (y0 + ty * fy.dilation) * ex + x0 + tx * fx.dilation
                    })
                    .collect(),
                // Step `j = (ci, ty, tx)` of output channel `oc` reads the weight of
                // input channel `ci`, kernel tap `(taps_y[ty], taps_x[tx])`.
                packed: pack(g, og, k, |gi, oc, j| {
                    let (ci, t) = (j / (jy * jx), j % (jy * jx));
                    let (ky, kx) = (fy.taps[t / jx], fx.taps[t % jx]);
                    ws[((gi * cg + ci) * og + oc) * kh * kw + ky * kw + kx]
                }),
                out_hw: [fy.count, fx.count],
                out,
            });
        }
    }
    let win = Window {
        out_hw: [cy, cx],
        stride: [1, 1],
        pad: [pad_y, pad_x],
        dilation: [1, 1],
    };
    ([ey, ex], win, passes)
}

/// One dimension of an output phase of a transposed convolution (kernel `k`, stride `s`,
/// dilation `d`, padding `pad`, output length `len`): the outputs `r, r + s, r + 2s, …`.
///
/// Output `r + s·u` gets input `i` through tap `t` when `r + s·u + pad = s·i + d·t`: only the
/// taps with `d·t ≡ r + pad (mod s)` reach the phase, every `s / gcd(d, s)`-th one, and
/// with them it is an ordinary convolution with stride 1 and dilation `d / gcd(d, s)` of the
/// input, the taps in decreasing order.
struct Phase {
    /// The kernel taps in the order the phase's convolution reads them.
    taps: Vec<usize>,
    dilation: usize,
    /// The phase's padding before its input (negative: input rows it never reads).
    pad: isize,
    /// The phase's outputs.
    count: usize,
}

impl Phase {
    fn new(k: usize, s: usize, d: usize, pad: usize, len: usize, r: usize) -> Phase {
        let reach = (r + pad) as isize;
        let taps: Vec<usize> = (0..k)
            .rev()
            .filter(|&t| (reach - (d * t) as isize).rem_euclid(s as isize) == 0)
            .collect();
        // The first tap (the largest) reads input `u + (r + pad − d·t) / s` for output `u`.
        let pad = taps
            .first()
            .map_or(0, |&t| ((d * t) as isize - reach) / s as isize);
        let gcd = (1..=d.min(s))
            .rev()
            .find(|&v| d.is_multiple_of(v) && s.is_multiple_of(v));
        Phase {
            taps,
            dilation: d / gcd.unwrap_or(1),
            pad,
            count: len.saturating_sub(r).div_ceil(s),
        }
    }
}

/// The slices as `f32` and the AVX-512 token, when `T` is `f32` and the CPU has AVX-512.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::type_complexity)]
fn as_f32<'a, T: Real>(
    xs: &'a [T],
    ws: &'a [T],
    bs: Option<&'a [T]>,
    dst: &'a mut [T],
) -> Option<(
    pulp::x86::V4,
    [&'a [f32]; 2],
    Option<&'a [f32]>,
    &'a mut [f32],
)> {
    if std::any::TypeId::of::<T>() != std::any::TypeId::of::<f32>() {
        return None;
    }
    let simd = pulp::x86::V4::try_new()?;
    // SAFETY: `T` is `f32` (checked above), so each slice is the same memory read as (or,
    // for `dst`, written as) the same elements of the same type.
    unsafe {
        Some((
            simd,
            [
                std::slice::from_raw_parts(xs.as_ptr().cast::<f32>(), xs.len()),
                std::slice::from_raw_parts(ws.as_ptr().cast::<f32>(), ws.len()),
            ],
            bs.map(|b| std::slice::from_raw_parts(b.as_ptr().cast::<f32>(), b.len())),
            std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<f32>(), dst.len()),
        ))
    }
}

/// The weights of `g` groups of `og` output channels, `k` reduction steps each (`weight(gi,
/// oc, j)`), packed per group and block of [`MR`] output channels as `[k][MR]`: step `j`'s
/// weights of the block's channels side by side (zero for channels past `og`).
fn pack(g: usize, og: usize, k: usize, weight: impl Fn(usize, usize, usize) -> f32) -> Vec<f32> {
    let blocks = og.div_ceil(MR);
    let mut packed = vec![0f32; g * blocks * k * MR];
    for gi in 0..g {
        for oc in 0..og {
            let at = ((gi * blocks + oc / MR) * k) * MR + oc % MR;
            for j in 0..k {
                packed[at + j * MR] = weight(gi, oc, j);
            }
        }
    }
    packed
}

/// Where a convolution's outputs go: output channel `oc` of image `ni`, row `y`, column `x`
/// at `ptr + (ni·C_out + oc)·plane + y·row + x·col`.
#[derive(Clone, Copy)]
struct Grid {
    ptr: SendPtr<f32>,
    plane: usize,
    row: usize,
    col: usize,
}

/// A convolution (`in_channels / groups > 1`) for [`run`]: its input, the window its band
/// planes are laid out for, and one or more passes of register blocks over each band.
struct Problem<'a> {
    xs: &'a [f32],
    nchw: [usize; 4],
    groups: usize,
    /// Output channels per group.
    og: usize,
    kernel: [usize; 2],
    win: Window,
    passes: Vec<Pass>,
    /// Per output channel.
    bias: Option<&'a [f32]>,
}

/// A convolution over a band's planes: some of the window's taps, its weights and outputs.
struct Pass {
    /// Indices of the window's taps (row-major), in the order of the reduction.
    taps: Vec<usize>,
    /// As [`pack`] lays them out, `in_channels / groups · taps.len()` steps.
    packed: Vec<f32>,
    /// At most the window's.
    out_hw: [usize; 2],
    out: Grid,
}

#[cfg(target_arch = "x86_64")]
fn run(simd: pulp::x86::V4, pb: &Problem) {
    let [n, c, h, w] = pb.nchw;
    let ([ho, wo], g, [sy, _], [dy, _]) =
        (pb.win.out_hw, pb.groups, pb.win.stride, pb.win.dilation);
    let [kh, kw] = pb.kernel;
    let (og, cg) = (pb.og, c / g);
    let o = og * g;
    let blocks = og.div_ceil(MR);
    let threads = if threads_available() {
        crate::threads::current_num_threads()
    } else {
        1
    };
    let k_all: usize = pb.passes.iter().map(|p| cg * p.taps.len()).sum();
    let work = n * o * ho * wo * k_all;
    let parallel = threads > 1 && work >= 1 << 20;
    // In parallel, bands short enough for about four tasks per thread (at least four rows:
    // a band copies `KH − 1` rows beyond its own).
    let max_band = if parallel {
        ho.div_ceil((4 * threads).div_ceil(n * g)).max(4)
    } else {
        ho
    };
    let layout = Layout::new(pb.win, [h, w], [kh, kw], 4, [BAND_BYTES / cg, max_band]);
    let (band, chan, len) = (layout.band, layout.band_len, layout.phase_len);
    let bands = ho.div_ceil(band);
    let avx2 = crate::backend::cpu::vmath::avx2();
    // Per pass: where its taps read for flat output 0, and the farthest of them.
    let taps: Vec<(Vec<usize>, usize)> = pb
        .passes
        .iter()
        .map(|p| {
            let at: Vec<usize> = p.taps.iter().map(|&t| layout.tap_at[t]).collect();
            let reach = at.iter().copied().max().unwrap_or(0);
            (at, reach)
        })
        .collect();
    // Per pass with its columns apart, how a vector of them is stored.
    let spread: Vec<_> = pb
        .passes
        .iter()
        .map(|p| (p.out.col > 1).then(|| Spread::new(simd, p.out.col)))
        .collect();
    for_each_group(n * g * bands, og * band * wo * k_all, parallel, &|units| {
        // Zeroed once: the padding columns of the phase rows stay zero (`Layout::fill_row`
        // writes only the input columns); `NR` more so a block may read past a short run.
        let mut buf = vec![0f32; cg * chan + NR];
        for u in units {
            let (t, bi) = (u / bands, u % bands);
            let (ni, gi) = (t / g, t % g);
            let oy0 = bi * band;
            let rows = band.min(ho - oy0);
            let need = (rows - 1) * sy + (kh - 1) * dy + 1;
            for (ci, cbuf) in buf.chunks_exact_mut(chan).take(cg).enumerate() {
                let src = &pb.xs[(ni * c + gi * cg + ci) * h * w..][..h * w];
                let (mut pr, mut ph) = (0, 0);
                for r in 0..need {
                    layout.fill_row(avx2, src, oy0 * sy + r, [pr, ph], cbuf);
                    ph += 1;
                    if ph == sy {
                        (pr, ph) = (pr + 1, 0);
                    }
                }
            }
            for ((pass, (at, reach)), spread) in pb.passes.iter().zip(&taps).zip(&spread) {
                let [ph, pw] = pass.out_hw;
                if oy0 >= ph || pw == 0 {
                    continue;
                }
                let rows = rows.min(ph - oy0);
                let run = (rows - 1) * len + pw;
                // Every read of the blocks below, `ci · chan + tap_at + o + lane` with
                // `o + NR <= max(run, NR)`, is inside `buf`.
                assert!((cg - 1) * chan + reach + run.max(NR) <= buf.len());
                let k = cg * at.len();
                let grid = pass.out;
                let unit = Unit {
                    src: &buf,
                    chan,
                    cg,
                    at,
                    weights: &pass.packed[gi * blocks * k * MR..][..blocks * k * MR],
                    bias: pb.bias.map(|b| &b[gi * og..][..og]),
                    og,
                    len,
                    wo: pw,
                    run,
                    // In bounds: output plane `(ni, gi·og)`, row `oy0 < ph` of the pass's
                    // outputs in the fresh output.
                    out: grid
                        .ptr
                        .get()
                        .wrapping_add((ni * o + gi * og) * grid.plane + oy0 * grid.row),
                    plane: grid.plane,
                    row: grid.row,
                    col: grid.col,
                    spread: spread.as_ref(),
                };
                simd.vectorize(
                    #[inline(always)]
                    || unit.blocks(simd),
                );
            }
        }
    });
}

/// One (image, group, band of output rows): the band's phase planes and where its outputs go.
#[cfg(target_arch = "x86_64")]
struct Unit<'a> {
    /// The input channels' phase planes, `chan` apart.
    src: &'a [f32],
    chan: usize,
    cg: usize,
    /// Per tap, where it reads for flat output 0.
    at: &'a [usize],
    /// The group's packed weights, `[og / MR][cg·kh·kw][MR]`.
    weights: &'a [f32],
    bias: Option<&'a [f32]>,
    og: usize,
    /// The flat distance between output rows.
    len: usize,
    wo: usize,
    /// The flat outputs of the band: `(rows − 1)·len + wo`.
    run: usize,
    /// The band's first output of the group's first output channel; channels `plane` apart,
    /// rows `row` apart, columns `col` apart.
    out: *mut f32,
    plane: usize,
    row: usize,
    col: usize,
    /// With columns apart (`col > 1`), how a vector is stored.
    spread: Option<&'a Spread>,
}

/// Where a register block's vector of 16 flat outputs goes: at most two output rows' parts
/// (a flat row is at least 16 long), each a masked store at an offset from the block's
/// channel's output plane (lane `l` to `offset + l·col`; the second part's offset may point
/// before the plane for lanes the mask leaves out).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Default)]
struct Part {
    offset: isize,
    mask: u16,
}

#[cfg(target_arch = "x86_64")]
impl Unit<'_> {
    /// Every register block of the band: blocks of [`NR`] flat outputs (the last one ending
    /// at the run's end, overlapping the one before rather than leaving a remainder), each
    /// for every block of [`MR`] output channels.
    #[inline(always)]
    fn blocks(&self, simd: pulp::x86::V4) {
        let k = self.cg * self.at.len();
        let mut tile = [[0f32; NR]; MR];
        for (b, weights) in self.weights.chunks_exact(k * MR).enumerate() {
            let channels = MR.min(self.og - b * MR);
            let bias = std::array::from_fn(|r| match self.bias {
                Some(bias) if r < channels => bias[b * MR + r],
                _ => 0.0,
            });
            for from in (0..self.run).step_by(NR) {
                let o = from.min(self.run.saturating_sub(NR));
                let end = (o + NR).min(self.run);
                let parts = (self.len >= 16).then(|| self.parts(o, end));
                // SAFETY: `o + NR <= max(run, NR)`: every read is inside `src` (the
                // caller's assertion); `weights` holds `k · MR` elements.
                let acc = unsafe { self.block(simd, o, weights, bias) };
                let out = |r: usize| self.out.wrapping_add((b * MR + r) * self.plane);
                match &parts {
                    // SAFETY: channel `b·MR + r < og` of the group; the parts' unmasked
                    // lanes are output rows of the band (`q < run`), columns below `wo`:
                    // inside this unit's rows of the fresh output, which no other unit
                    // writes.
                    Some(parts) => unsafe { store(simd, &acc, channels, parts, self.spread, out) },
                    None => {
                        for (row, acc) in tile.iter_mut().zip(&acc) {
                            for (v, &acc) in acc.iter().enumerate() {
                                // SAFETY: lanes `16 v..16 v + 16` of a row of `16 · NV`.
                                unsafe {
                                    simd.avx512f
                                        ._mm512_storeu_ps(row.as_mut_ptr().add(16 * v), acc)
                                };
                            }
                        }
                        self.copy(&tile[..channels], o, end, out);
                    }
                }
            }
        }
    }

    /// The masked stores of the flat outputs `o..end` (`end <= o + NR`), per vector.
    #[inline(always)]
    fn parts(&self, o: usize, end: usize) -> [[Part; 2]; NV] {
        let (len, wo) = (self.len as isize, self.wo as isize);
        let (row, col) = (self.row as isize, self.col as isize);
        std::array::from_fn(|v| {
            let q = o + 16 * v;
            // Lanes `l < lanes` are outputs of the run.
            let lanes = end.saturating_sub(q).min(16) as isize;
            let (y, x) = ((q / self.len) as isize, (q % self.len) as isize);
            let mask = |lo: isize, hi: isize| -> u16 {
                let (lo, hi) = (lo.clamp(0, lanes), hi.clamp(0, lanes));
                if lo >= hi {
                    0
                } else {
                    ((1u32 << hi) - (1u32 << lo)) as u16
                }
            };
            // Row `y`: lane `l` is column `x + l`; row `y + 1`: column `l − (len − x)`.
            [
                Part {
                    offset: y * row + x * col,
                    mask: mask(0, wo - x),
                },
                Part {
                    offset: (y + 1) * row - (len - x) * col,
                    mask: mask(len - x, len - x + wo),
                },
            ]
        })
    }

    /// The flat outputs `o..end` of `tile` (channel by channel) to their rows, the dropped
    /// columns skipped: for rows narrower than a vector.
    fn copy(&self, tile: &[[f32; NR]], o: usize, end: usize, out: impl Fn(usize) -> *mut f32) {
        let mut q = o;
        while q < end {
            let (y, x) = (q / self.len, q % self.len);
            let stop = (y * self.len + self.wo).min(end);
            for (r, row) in tile.iter().enumerate() {
                for (i, &v) in row[q - o..stop.max(q) - o].iter().enumerate() {
                    // SAFETY: output row `y` of the band (`q < run`), column
                    // `x + i < wo`, of channel `r` of the block: inside this unit's rows of
                    // the fresh output, which no other unit writes.
                    unsafe { *out(r).add(y * self.row + (x + i) * self.col) = v };
                }
            }
            q = (y + 1) * self.len;
        }
    }

    /// `bias[r] + Σ weights[j][r] · src[ci·chan + at[t] + o + l]` over the reduction steps
    /// `j = (ci, t)`, in registers: output channel `r`, flat output `o + 16 v + lane`.
    ///
    /// # Safety
    /// `ci·chan + at[t] + o + NR <= src.len()` for every `ci < cg` and tap `t`, and
    /// `weights.len() >= cg · at.len() · MR`.
    #[inline(always)]
    unsafe fn block(
        &self,
        simd: pulp::x86::V4,
        o: usize,
        weights: &[f32],
        bias: [f32; MR],
    ) -> [[std::arch::x86_64::__m512; NV]; MR] {
        use std::arch::x86_64::__m512;
        let f = simd.avx512f;
        let mut acc: [[__m512; NV]; MR] = std::array::from_fn(|r| [f._mm512_set1_ps(bias[r]); NV]);
        let mut wp = weights.as_ptr();
        for ci in 0..self.cg {
            // SAFETY: the caller's bounds (`ci < cg`).
            let base = unsafe { self.src.as_ptr().add(ci * self.chan + o) };
            for &a in self.at {
                // SAFETY: `NR` elements from `base + a` are inside `src`, and `MR` weights
                // from `wp` inside `weights` (the caller's bounds).
                unsafe {
                    let p = base.add(a);
                    let x: [__m512; NV] = std::array::from_fn(|v| f._mm512_loadu_ps(p.add(16 * v)));
                    for (r, acc) in acc.iter_mut().enumerate() {
                        let wr = f._mm512_set1_ps(*wp.add(r));
                        for (acc, &x) in acc.iter_mut().zip(&x) {
                            *acc = f._mm512_fmadd_ps(wr, x, *acc);
                        }
                    }
                    wp = wp.add(MR);
                }
            }
        }
        acc
    }
}

/// How a vector of 16 outputs `col > 1` columns apart is stored without a scatter (16
/// stores a vector, which took a fifth of a 4×4 stride-2 transposed convolution): as `col`
/// vectors of 16 consecutive columns, each a permute and a masked store.
#[cfg(target_arch = "x86_64")]
struct Spread(Vec<Columns>);

/// Vector `q` of a [`Spread`]: the source's lanes from `first` at the columns `16·q + m`
/// that are multiples of `col` (the bits of `deposit`), moved there by `perm`.
#[cfg(target_arch = "x86_64")]
struct Columns {
    perm: std::arch::x86_64::__m512i,
    first: u32,
    deposit: u32,
}

#[cfg(target_arch = "x86_64")]
impl Spread {
    fn new(simd: pulp::x86::V4, col: usize) -> Spread {
        Spread(
            (0..col)
                .map(|q| {
                    let lanes: [i32; 16] =
                        std::array::from_fn(|m| ((16 * q + m) / col) as i32 & 15);
                    Columns {
                        // SAFETY: 16 `i32`s read from an array of 16.
                        perm: unsafe { simd.avx512f._mm512_loadu_si512(lanes.as_ptr().cast()) },
                        first: (16 * q).div_ceil(col) as u32,
                        deposit: (0..16)
                            .filter(|m| (16 * q + m) % col == 0)
                            .fold(0, |d, m| d | 1 << m),
                    }
                })
                .collect(),
        )
    }
}

/// The first `channels` rows of a register block to the output, each vector as its parts'
/// masked stores from channel `r`'s plane `out(r)`: lane `l` to `offset + l`, or with
/// `spread` to `offset + l·col`.
///
/// # Safety
/// For every `r < channels` and part, the lanes in the part's mask are writable elements at
/// `out(r) + offset + l` (`l·col`), not accessed otherwise during the call; the CPU has BMI2
/// (every AVX-512 CPU has).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn store(
    simd: pulp::x86::V4,
    acc: &[[std::arch::x86_64::__m512; NV]; MR],
    channels: usize,
    parts: &[[Part; 2]; NV],
    spread: Option<&Spread>,
    out: impl Fn(usize) -> *mut f32,
) {
    let f = simd.avx512f;
    for (r, acc) in acc.iter().enumerate().take(channels) {
        for (&v, parts) in acc.iter().zip(parts) {
            for part in parts.iter().filter(|p| p.mask != 0) {
                let at = out(r).wrapping_offset(part.offset);
                let Some(sp) = spread else {
                    // SAFETY: the caller's contract; masked-off lanes are not accessed.
                    unsafe { f._mm512_mask_storeu_ps(at, part.mask, v) };
                    continue;
                };
                for (q, cols) in sp.0.iter().enumerate() {
                    // Column `16·q + m` is lane `(16·q + m) / col`: the part's lanes from
                    // `first` to the bits of `deposit`, in order.
                    // SAFETY: BMI2 (the caller's contract).
                    let mask = unsafe {
                        std::arch::x86_64::_pdep_u32(
                            u32::from(part.mask) >> cols.first,
                            cols.deposit,
                        )
                    } as u16;
                    if mask != 0 {
                        // SAFETY: the set lanes are the part's lanes `l` at `at + l·col`
                        // (the caller's contract); masked-off lanes are not accessed.
                        unsafe {
                            f._mm512_mask_storeu_ps(
                                at.wrapping_add(16 * q),
                                mask,
                                f._mm512_permutexvar_ps(cols.perm, v),
                            )
                        };
                    }
                }
            }
        }
    }
}
