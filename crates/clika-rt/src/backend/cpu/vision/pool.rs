//! Max, average and adaptive-average pooling, a plane per task, in two separable passes.
//!
//! Every pooling window is a rectangle — the product of one window per dim — so a plane is
//! pooled down the columns first (each output row combines its window's whole input rows
//! element by element into a row scratch: contiguous, so it vectorises, under the AVX2
//! dispatch), then along that scratch, one window per output. Per dim, output `o` reads `len[o]` input positions from
//! `start[o]` at `step` (the dilation); an average divides by the product of the two dims'
//! divisors, which is PyTorch's count (with or without the padding) and the adaptive
//! window's area. Max propagates NaN, as PyTorch.

use super::super::iter::{for_each_item, SendPtr};
use super::super::vmath::{avx2, dispatch_avx2, SimdBody};
use super::{dense, elems, fresh, Real};
use crate::ops::vision::{PoolKind, PoolPlan};
use crate::{DType, Result, Tensor};

/// The windows of one pooled dim (see the module doc).
struct Windows {
    start: Vec<usize>,
    len: Vec<usize>,
    step: usize,
    div: Vec<usize>,
}

impl Windows {
    /// Dim `d` (0: rows, 1: columns) of `p`, over an input of `size` and `out` outputs.
    fn new(p: &PoolPlan, d: usize, size: usize, out: usize) -> Windows {
        let (mut start, mut len, mut div) = (Vec::new(), Vec::new(), Vec::new());
        let mut step = 1;
        for o in 0..out {
            let (s, l, v) = match p.kind {
                PoolKind::Max => {
                    // Taps `first + k·dil` for `k < kernel`, inside `0..size`.
                    let dil = p.dilation[d] as isize;
                    step = p.dilation[d];
                    let first = (o * p.stride[d]) as isize - p.pad[d] as isize;
                    let k_lo = if first < 0 {
                        (-first).div_euclid(dil) + isize::from((-first) % dil != 0)
                    } else {
                        0
                    };
                    let last = size as isize - 1 - first; // k·dil ≤ last
                    let k_hi = if last < 0 {
                        0
                    } else {
                        (last / dil + 1).min(p.kernel[d] as isize)
                    };
                    let n = (k_hi - k_lo).max(0) as usize;
                    let s = if n > 0 {
                        (first + k_lo * dil) as usize
                    } else {
                        0
                    };
                    (s, n, 1)
                }
                PoolKind::Avg { count_include_pad } => {
                    // PyTorch's windows: clipped to the padded input for the divisor with
                    // padding, to the input for the sum.
                    let start = (o * p.stride[d]) as isize - p.pad[d] as isize;
                    let end = (start + p.kernel[d] as isize).min((size + p.pad[d]) as isize);
                    let (s, e) = (
                        start.max(0) as usize,
                        end.min(size as isize).max(0) as usize,
                    );
                    let n = e.saturating_sub(s);
                    let v = if count_include_pad {
                        (end - start) as usize
                    } else {
                        n
                    };
                    (s.min(size), n, v)
                }
                PoolKind::AdaptiveAvg => {
                    let (s, e) = (o * size / out, ((o + 1) * size).div_ceil(out));
                    (s, e - s, e - s)
                }
            };
            start.push(s);
            len.push(l);
            div.push(v);
        }
        Windows {
            start,
            len,
            step,
            div,
        }
    }
}

/// The combine of a pooling: `max` (NaN wins) or `+`.
#[inline(always)]
fn combine<T: Real>(max: bool, acc: T, v: T) -> T {
    if max {
        if v > acc || v.is_nan() {
            v
        } else {
            acc
        }
    } else {
        acc + v
    }
}

/// Folds `len` elements of `row` from `start` at `step` into one value: running lanes over
/// a contiguous window (so a long one, a global pooling's, vectorises: 32 lanes, four
/// AVX2 `f32` vectors whose adds do not wait on each other, from 64 elements; 8 from 16),
/// one otherwise.
#[inline(always)]
fn fold_window<T: Real>(max: bool, row: &[T], start: usize, len: usize, step: usize) -> T {
    let init = if max { T::NEG_INF } else { T::default() };
    if len == 0 {
        return init;
    }
    if step != 1 || len < 16 {
        let taps = row[start..].iter().step_by(step).take(len);
        return taps.fold(init, |a, &v| combine(max, a, v));
    }
    let w = &row[start..start + len];
    if len >= 64 {
        fold_lanes::<T, 32>(max, w)
    } else {
        fold_lanes::<T, 8>(max, w)
    }
}

/// [`fold_window`]'s contiguous case with `N` running lanes.
#[inline(always)]
fn fold_lanes<T: Real, const N: usize>(max: bool, w: &[T]) -> T {
    let init = if max { T::NEG_INF } else { T::default() };
    let mut lanes = [init; N];
    let (chunks, tail) = w.as_chunks::<N>();
    for c in chunks {
        for l in 0..N {
            lanes[l] = combine(max, lanes[l], c[l]);
        }
    }
    let mut acc = tail.iter().fold(init, |a, &v| combine(max, a, v));
    for l in lanes {
        acc = combine(max, acc, l);
    }
    acc
}

pub(super) fn pool<T: Real>(p: &PoolPlan, cd: DType) -> Result<Tensor> {
    let x = dense(&p.x, cd)?;
    let (n, c, h, w) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let [ho, wo] = p.out_hw;
    let (out, dst) = fresh::<T>(&[n, c, ho, wo], cd)?;
    if dst.is_empty() {
        return Ok(out);
    }
    let max = p.kind == PoolKind::Max;
    let (wy, wx) = (Windows::new(p, 0, h, ho), Windows::new(p, 1, w, wo));
    // SAFETY: `x` is a contiguous CPU tensor of `T` that nobody writes during the call.
    let xs = unsafe { elems::<T>(&x) };
    let simd = avx2();
    let planes = SendPtr(dst.as_mut_ptr());
    let plane = |i: usize| {
        // SAFETY: plane `i` of the fresh output (`ho·wo` elements from `i·ho·wo`) is written
        // by this call alone (each `i` runs once), and `out` outlives the loop.
        let dst = unsafe { std::slice::from_raw_parts_mut(planes.get().add(i * ho * wo), ho * wo) };
        let body = Plane {
            max,
            src: &xs[i * h * w..][..h * w],
            w,
            wy: &wy,
            wx: &wx,
            acc: &mut Vec::new(),
            dst,
        };
        dispatch_avx2(simd, body);
    };
    // Planes handed out in groups through the runtime's own sections (a caller that works
    // too, no rayon split per call): a global pooling's whole call is ~0.1 ms.
    let work = h * w + ho * wo * p.kernel[0].max(1) * p.kernel[1].max(1);
    for_each_item(n * c, work, plane);
    Ok(out)
}

/// One plane's pooling (see [`pool_plane`]) as a [`SimdBody`], so that the whole of it
/// compiles inside the AVX2 dispatcher (a closure's body may stay out of line, in the
/// baseline's SSE2).
struct Plane<'a, T> {
    max: bool,
    src: &'a [T],
    w: usize,
    wy: &'a Windows,
    wx: &'a Windows,
    acc: &'a mut Vec<T>,
    dst: &'a mut [T],
}

impl<T: Real> SimdBody for Plane<'_, T> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Plane {
            max,
            src,
            w,
            wy,
            wx,
            acc,
            dst,
        } = self;
        if max {
            pool_plane::<T, true>(src, w, wy, wx, acc, dst)
        } else {
            pool_plane::<T, false>(src, w, wy, wx, acc, dst)
        }
    }
}

/// Pools one plane (`src`: rows of `w`) into `dst` (rows of `wx`'s outputs). Down the
/// columns first: each output row combines its window's whole input rows into `acc`, element
/// by element (contiguous, so it vectorises, and the bulk of the work); then along `acc`, one
/// window per output — `h / ho` times fewer scalar folds than pooling the rows first.
#[inline(always)]
fn pool_plane<T: Real, const MAX: bool>(
    src: &[T],
    w: usize,
    wy: &Windows,
    wx: &Windows,
    acc: &mut Vec<T>,
    dst: &mut [T],
) {
    let max = MAX;
    let wo = wx.start.len();
    if wo == 1 && wx.start[0] == 0 && wx.len[0] == w && wx.step == 1 && wy.step == 1 {
        // One window spanning whole rows (a global pooling, or pooling to one column): its
        // rows are one contiguous span, folded directly, with no column pass between.
        for (oy, o) in dst.iter_mut().enumerate() {
            *o = fold_window(max, src, wy.start[oy] * w, wy.len[oy] * w, 1);
            if !max {
                *o = *o / T::from_usize(wy.div[oy] * wx.div[0]);
            }
        }
        return;
    }
    let init = if max { T::NEG_INF } else { T::default() };
    acc.resize(w, init);
    for (oy, o) in dst.chunks_exact_mut(wo).enumerate() {
        let rows = (0..wy.len[oy]).map(|k| (wy.start[oy] + k * wy.step) * w);
        // Blocks of columns stay in registers down the whole window: four AVX2 vectors of
        // `f32`, or (narrower rows) one, or single columns.
        let done = columns::<T, MAX, 32>(src, rows.clone(), acc, 0);
        let done = columns::<T, MAX, 8>(src, rows.clone(), acc, done);
        columns::<T, MAX, 1>(src, rows, acc, done);
        for (ox, v) in o.iter_mut().enumerate() {
            *v = fold_window(max, acc, wx.start[ox], wx.len[ox], wx.step);
        }
        if !max {
            for (a, &dx) in o.iter_mut().zip(&wx.div) {
                *a = *a / T::from_usize(wy.div[oy] * dx);
            }
        }
    }
}

/// Combines the rows starting at `rows` (element offsets into `src`) into `acc[from..]`, a
/// block of `N` columns at a time. When at least `N` columns remain, the last block ends at
/// the row's end, overlapping the one before (recomputing the same values: each block is
/// written whole, not accumulated) rather than leaving a remainder, whose narrower blocks
/// would each be one chain of dependent adds; returns the row's end then, else `from`.
#[inline(always)]
fn columns<T: Real, const MAX: bool, const N: usize>(
    src: &[T],
    rows: impl Iterator<Item = usize> + Clone,
    acc: &mut [T],
    from: usize,
) -> usize {
    let w = acc.len();
    if w - from < N {
        return from;
    }
    let init = if MAX { T::NEG_INF } else { T::default() };
    let mut col = from;
    loop {
        let at = col.min(w - N);
        let mut r = [init; N];
        for row in rows.clone() {
            let row: &[T; N] = src[row + at..][..N].try_into().unwrap();
            for l in 0..N {
                r[l] = combine(MAX, r[l], row[l]);
            }
        }
        acc[at..at + N].copy_from_slice(&r);
        if at + N == w {
            return w;
        }
        col += N;
    }
}
