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

use super::{Layout, Real};
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

/// Computes the convolution `p` (`in_channels / groups > 1`) into the fresh output `dst`
/// directly when `T` is `f32` and the CPU has AVX-512; returns whether it did (nothing is
/// written otherwise).
pub(super) fn dense<T: Real>(
    p: &ConvPlan,
    xs: &[T],
    ws: &[T],
    bs: Option<&[T]>,
    dst: &mut [T],
    nchw: [usize; 4],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if std::any::TypeId::of::<T>() != std::any::TypeId::of::<f32>() {
            return false;
        }
        let Some(simd) = pulp::x86::V4::try_new() else {
            return false;
        };
        // SAFETY: `T` is `f32` (checked above), so each slice is the same memory read as
        // (or, for `dst`, written as) the same elements of the same type.
        let (xs, ws, bs, dst) = unsafe {
            (
                std::slice::from_raw_parts(xs.as_ptr().cast::<f32>(), xs.len()),
                std::slice::from_raw_parts(ws.as_ptr().cast::<f32>(), ws.len()),
                bs.map(|b| std::slice::from_raw_parts(b.as_ptr().cast::<f32>(), b.len())),
                std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<f32>(), dst.len()),
            )
        };
        run(simd, p, [xs, ws], bs, dst, nchw);
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (p, xs, ws, bs, dst, nchw);
        false
    }
}

#[cfg(target_arch = "x86_64")]
fn run(
    simd: pulp::x86::V4,
    p: &ConvPlan,
    [xs, ws]: [&[f32]; 2],
    bs: Option<&[f32]>,
    dst: &mut [f32],
    [n, c, h, w]: [usize; 4],
) {
    let ([ho, wo], g, [sy, _], [dy, _]) = (p.out_hw, p.groups, p.stride, p.dilation);
    let (o, cg) = (p.w.shape()[0], c / g);
    let [kh, kw] = [p.w.shape()[2], p.w.shape()[3]];
    let (og, k) = (o / g, cg * kh * kw);
    let blocks = og.div_ceil(MR);
    // Per group and block of `MR` output channels, `[k][MR]`: reduction step `j`'s weights
    // of the block's channels side by side (zero for channels past `og`).
    let mut packed = vec![0f32; g * blocks * k * MR];
    for (oc, wr) in ws.chunks_exact(k).enumerate() {
        let (gi, oc) = (oc / og, oc % og);
        let at = ((gi * blocks + oc / MR) * k) * MR + oc % MR;
        for (j, &v) in wr.iter().enumerate() {
            packed[at + j * MR] = v;
        }
    }
    let threads = if threads_available() {
        crate::threads::current_num_threads()
    } else {
        1
    };
    let work = n * o * ho * wo * k;
    let parallel = threads > 1 && work >= 1 << 20;
    // In parallel, bands short enough for about four tasks per thread (at least four rows:
    // a band copies `KH − 1` rows beyond its own).
    let max_band = if parallel {
        ho.div_ceil((4 * threads).div_ceil(n * g)).max(4)
    } else {
        ho
    };
    let layout = Layout::new(p, [h, w], [kh, kw], 4, [BAND_BYTES / cg, max_band]);
    let (band, chan, len) = (layout.band, layout.band_len, layout.phase_len);
    let bands = ho.div_ceil(band);
    let reach = layout.tap_at.iter().copied().max().unwrap_or(0);
    let avx2 = crate::backend::cpu::vmath::avx2();
    let out = SendPtr(dst.as_mut_ptr());
    let plane = ho * wo;
    for_each_group(n * g * bands, og * band * wo * k, parallel, &|units| {
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
                let src = &xs[(ni * c + gi * cg + ci) * h * w..][..h * w];
                let (mut pr, mut ph) = (0, 0);
                for r in 0..need {
                    layout.fill_row(avx2, src, oy0 * sy + r, [pr, ph], cbuf);
                    ph += 1;
                    if ph == sy {
                        (pr, ph) = (pr + 1, 0);
                    }
                }
            }
            let run = (rows - 1) * len + wo;
            // Every read of the blocks below, `ci · chan + tap_at + o + lane` with
            // `o + NR <= max(run, NR)`, is inside `buf`.
            assert!((cg - 1) * chan + reach + run.max(NR) <= buf.len());
            let unit = Unit {
                src: &buf,
                chan,
                cg,
                at: &layout.tap_at,
                weights: &packed[gi * blocks * k * MR..][..blocks * k * MR],
                bias: bs.map(|b| &b[gi * og..][..og]),
                og,
                len,
                wo,
                run,
                // SAFETY: output plane `(ni, gi·og)` starts inside `dst` (`ni < n`,
                // `gi·og < o`).
                out: unsafe { out.get().add((ni * o + gi * og) * plane + oy0 * wo) },
                plane,
            };
            simd.vectorize(
                #[inline(always)]
                || unit.blocks(simd),
            );
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
    /// rows `wo` apart.
    out: *mut f32,
    plane: usize,
}

/// Where a register block's vector of 16 flat outputs goes: at most two output rows' parts
/// (a flat row is at least 16 long), each a masked store at an offset from the block's
/// channel's output plane (lane `l` to `offset + l`; the first part's offset may point
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
                    Some(parts) => unsafe { store(simd, &acc, channels, parts, out) },
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
                    offset: y * wo + x,
                    mask: mask(0, wo - x),
                },
                Part {
                    offset: (y + 1) * wo - (len - x),
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
                    unsafe { *out(r).add(y * self.wo + x + i) = v };
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

/// The first `channels` rows of a register block to the output, each vector as its parts'
/// masked stores from channel `r`'s plane `out(r)`.
///
/// # Safety
/// For every `r < channels` and part, the lanes in the part's mask are writable elements at
/// `out(r) + offset + lane`, not accessed otherwise during the call.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn store(
    simd: pulp::x86::V4,
    acc: &[[std::arch::x86_64::__m512; NV]; MR],
    channels: usize,
    parts: &[[Part; 2]; NV],
    out: impl Fn(usize) -> *mut f32,
) {
    for (r, acc) in acc.iter().enumerate().take(channels) {
        for (&v, parts) in acc.iter().zip(parts) {
            for part in parts.iter().filter(|p| p.mask != 0) {
                // SAFETY: the caller's contract; masked-off lanes are not accessed.
                unsafe {
                    simd.avx512f._mm512_mask_storeu_ps(
                        out(r).wrapping_offset(part.offset),
                        part.mask,
                        v,
                    )
                };
            }
        }
    }
}
