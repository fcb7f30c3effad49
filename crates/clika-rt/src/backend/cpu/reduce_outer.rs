//! Outer reductions: when the kept dimension is the contiguous one (column sums of a
//! row-major matrix), whole kept rows stream into per-column accumulators instead of each
//! output walking its own strided lane (`reduce`'s inner path).

use super::fold::{self, RedElem, OUTER_BLOCK};
use super::iter::{collect_in_parallel, items_in_parallel, SendPtr, PARALLEL_MIN_ELEMS};
use super::reduce::{Moments, Plan};
use super::vmath::{avx2, dispatch_avx2, Call};
use crate::dtype::Element;
use crate::ops::ReduceOp as Kind;
use crate::{DType, Tensor};

/// Whether to reduce "outer" dimensions by streaming whole kept rows into accumulators
/// (column sums of a row-major matrix) instead of walking each output's strided lane.
pub(super) fn use_outer(plan: &Plan) -> bool {
    let [ks] = plan.kept.inner_strides();
    let [rs] = plan.red.inner_strides();
    plan.kept.inner() >= 16 && plan.count > 1 && ks.unsigned_abs() < rs.unsigned_abs()
}

/// Per-column partial results of one span of reduced steps: sums or products (`f`, `i`),
/// compared values (`w`, with indices in `i`), or means (`f`) and squared deviations (`m2`).
struct ColAcc<W> {
    f: Vec<f64>,
    i: Vec<i64>,
    w: Vec<W>,
    m2: Vec<f64>,
}

/// Outer reduction: kept rows are cut into column blocks only past 32768 columns (their
/// accumulators, at most 16 bytes a column, stay in a 1 MiB L2), so a
/// task streams whole kept rows, one contiguous run of memory when the rows are: blocks of
/// 2048 read 8 KiB of every 9.8 KiB row of a 4096×2441 `f32` and the prefetchers lost the
/// stream (on one thread the column sum took 3.0 ms and the column max 5.2, numpy's 1.8 and
/// 1.6; whole rows, 1.2 and 1.2). When that gives few tasks the reduced steps are cut into
/// spans, so both cores stream contiguous kept rows whatever the shape. A task adds each
/// reduced slice of its block into accumulators of the type's natural lanes (sums: `f32`
/// for 64 steps, then `f64`; integers `i64`; float products `f64`, in step order; max/min
/// in the compared type, with `u32` steps from the span's start); spans are then
/// merged in order. The split depends on the shape only, so results do not depend on the
/// number of threads.
///
/// # Safety
/// `src` is a host tensor of `S`; `out` is fresh, exclusive, with one `D` per kept index.
pub(super) unsafe fn reduce_outer<S: RedElem, D: Element>(
    kind: Kind,
    src: &Tensor,
    plan: &Plan,
    out: &Tensor,
) {
    const WIDTH: usize = 32768;
    const MIN_TASKS: usize = 8;
    let (kept, red) = (&plan.kept, &plan.red);
    let ([ks], [rs]) = (kept.inner_strides(), red.inner_strides());
    let p = SendPtr(src.storage().as_ptr().cast::<S>());
    let dst = SendPtr(out.data_ptr().cast::<D>());
    let base0 = src.layout().offset() as isize;
    let (ki, steps) = (kept.inner(), red.rows() * red.inner());
    let big = kept.rows() * ki * plan.count >= PARALLEL_MIN_ELEMS;
    let per_row = ki.div_ceil(WIDTH);
    let width = ki.div_ceil(per_row);
    let blocks = kept.rows() * per_row;
    let want_spans = if big && blocks < MIN_TASKS {
        MIN_TASKS.div_ceil(blocks)
    } else {
        1
    };
    // Arg-reductions count a span's steps in `u32` (see `RedElem::arg_into`).
    let want_spans = want_spans.max(steps.div_ceil(1 << 31));
    let span = steps.div_ceil(want_spans).next_multiple_of(OUTER_BLOCK);
    let spans = steps.div_ceil(span);
    let float = S::DTYPE.is_float() || kind == Kind::Mean;
    // The slice folds (the hot loops) run compiled for AVX2 where the CPU has it.
    let simd = avx2();
    let task = |t: usize| -> ColAcc<S::W> {
        let (blk, sp) = (t / spans, t % spans);
        let (row, start) = (blk / per_row, (blk % per_row) * width);
        let len = width.min(ki - start);
        let (k_lo, k_hi) = (sp * span, ((sp + 1) * span).min(steps));
        let [ko] = kept.row_offsets(row);
        let first = base0 + ko + start as isize * ks;
        // The kept slice at reduced step `k` (in logical order), gathered when strided.
        let mut gather: Vec<S> = Vec::new();
        let mut slice_at = |k: usize, f: &mut dyn FnMut(&[S])| {
            let [ro] = red.row_offsets(k / red.inner());
            let lane = p
                .get()
                .wrapping_offset(first + ro + (k % red.inner()) as isize * rs);
            if ks == 1 {
                // SAFETY: kept indices (row, start..start + len) at reduced step `k` are
                // elements of `src` (L3), contiguous since `ks == 1`.
                f(unsafe { std::slice::from_raw_parts(lane, len) });
            } else {
                gather.clear();
                // SAFETY: as above, with stride `ks`.
                gather.extend((0..len).map(|i| unsafe { S::load(lane.offset(i as isize * ks)) }));
                f(&gather);
            }
        };
        let mut acc = ColAcc {
            f: Vec::new(),
            i: Vec::new(),
            w: Vec::new(),
            m2: Vec::new(),
        };
        match kind {
            Kind::Sum | Kind::Mean => {
                let mut part = vec![S::A::default(); len];
                if float {
                    acc.f = vec![0f64; len];
                } else {
                    acc.i = vec![0i64; len];
                }
                let mut k = k_lo;
                while k < k_hi {
                    let end = (k + OUTER_BLOCK).min(k_hi);
                    part.iter_mut().for_each(|a| *a = S::A::default());
                    for kk in k..end {
                        slice_at(kk, &mut |xs| {
                            dispatch_avx2(simd, Call(|| S::acc_add(&mut part, xs)))
                        });
                    }
                    if float {
                        acc.f
                            .iter_mut()
                            .zip(&part)
                            .for_each(|(f, &a)| *f += S::a_f64(a));
                    } else {
                        let it = acc.i.iter_mut().zip(&part);
                        it.for_each(|(f, &a)| *f = f.wrapping_add(S::a_i64(a)));
                    }
                    k = end;
                }
            }
            Kind::Prod => {
                let (f, i) = (&mut acc.f, &mut acc.i);
                if float {
                    *f = vec![1f64; len];
                } else {
                    *i = vec![1i64; len];
                }
                for k in k_lo..k_hi {
                    slice_at(k, &mut |xs| {
                        if float {
                            dispatch_avx2(simd, Call(|| S::acc_mul_f(f, xs)))
                        } else {
                            dispatch_avx2(simd, Call(|| S::acc_mul_i(i, xs)))
                        }
                    });
                }
            }
            Kind::Max | Kind::Min | Kind::ArgMax | Kind::ArgMin => {
                acc.w.reserve(len);
                slice_at(k_lo, &mut |xs| acc.w.extend(xs.iter().map(|&x| S::w_of(x))));
                // Arg-reductions: each column's best step since `k_lo`, alternating between
                // two arrays (`arg_into` reads one and writes the other).
                let n = if kind.is_arg() { len } else { 0 };
                let mut steps_at = [vec![0u32; n], vec![0u32; n]];
                let w = &mut acc.w;
                for k in k_lo + 1..k_hi {
                    let step = (k - k_lo) as u32;
                    let [a, b] = &mut steps_at;
                    let (from, to) = if step % 2 == 1 { (&*a, b) } else { (&*b, a) };
                    slice_at(k, &mut |xs| match kind {
                        Kind::Max => dispatch_avx2(simd, Call(|| S::keep_into::<true>(w, xs))),
                        Kind::Min => dispatch_avx2(simd, Call(|| S::keep_into::<false>(w, xs))),
                        Kind::ArgMax => {
                            dispatch_avx2(simd, Call(|| S::arg_into::<true>(w, from, to, xs, step)))
                        }
                        _ => dispatch_avx2(
                            simd,
                            Call(|| S::arg_into::<false>(w, from, to, xs, step)),
                        ),
                    });
                }
                if kind.is_arg() {
                    let last = &steps_at[(k_hi - k_lo - 1) % 2];
                    acc.i = last.iter().map(|&s| (k_lo + s as usize) as i64).collect();
                }
            }
            // Var/Std write `f64` only (see `reduce`): no copy of this code per output type.
            Kind::Var { .. } | Kind::Std { .. } if D::DTYPE == DType::Float64 => {
                // Welford's update per column, the columns in lanes: one pass over the span.
                let (mean, m2) = (&mut acc.f, &mut acc.m2);
                *mean = vec![0f64; len];
                *m2 = vec![0f64; len];
                for k in k_lo..k_hi {
                    let inv = 1.0 / (k - k_lo + 1) as f64;
                    slice_at(k, &mut |xs| {
                        for ((m, q), &x) in mean.iter_mut().zip(m2.iter_mut()).zip(xs) {
                            let x = x.to_f64();
                            let d = x - *m;
                            *m += d * inv;
                            *q += d * (x - *m);
                        }
                    });
                }
            }
            Kind::Var { .. } | Kind::Std { .. } => unreachable!("var/std write f64"),
        }
        acc
    };
    let threaded = big && blocks * spans > 1 && super::iter::threads_available();
    let parts: Vec<ColAcc<S::W>> = if threaded {
        collect_in_parallel(blocks * spans, task)
    } else {
        (0..blocks * spans).map(task).collect()
    };
    let finish = |blk: usize| {
        let mut it = parts[blk * spans..(blk + 1) * spans].iter();
        let first = it.next().expect("every block has a span");
        let (mut f, mut i, mut w) = (first.f.clone(), first.i.clone(), first.w.clone());
        let mut m2 = first.m2.clone();
        for (sp, later) in (1..).zip(it) {
            match kind {
                Kind::Var { .. } | Kind::Std { .. } if D::DTYPE == DType::Float64 => {
                    // Chan et al.'s pairwise update: spans `0..sp` then span `sp`.
                    let na = (sp * span) as f64;
                    let nb = (((sp + 1) * span).min(steps) - sp * span) as f64;
                    let (wb, n) = (nb / (na + nb), na * nb / (na + nb));
                    let cols = f.iter_mut().zip(m2.iter_mut());
                    for ((ma, qa), (&mb, &qb)) in cols.zip(later.f.iter().zip(&later.m2)) {
                        let d = mb - *ma;
                        *ma += d * wb;
                        *qa += qb + d * d * n;
                    }
                }
                Kind::Sum | Kind::Mean => {
                    f.iter_mut().zip(&later.f).for_each(|(a, b)| *a += b);
                    i.iter_mut()
                        .zip(&later.i)
                        .for_each(|(a, b)| *a = a.wrapping_add(*b));
                }
                Kind::Prod => {
                    f.iter_mut().zip(&later.f).for_each(|(a, b)| *a *= b);
                    i.iter_mut()
                        .zip(&later.i)
                        .for_each(|(a, b)| *a = a.wrapping_mul(*b));
                }
                Kind::Max => fold::keep_into_w::<S::W, true>(&mut w, &later.w),
                Kind::Min => fold::keep_into_w::<S::W, false>(&mut w, &later.w),
                _ => {
                    let max = kind == Kind::ArgMax;
                    for (j, &b) in later.w.iter().enumerate() {
                        let take = if max {
                            fold::better::<S::W, true>(w[j], b)
                        } else {
                            fold::better::<S::W, false>(w[j], b)
                        };
                        if take {
                            (w[j], i[j]) = (b, later.i[j]);
                        }
                    }
                }
            }
        }
        let (row, start) = (blk / per_row, (blk % per_row) * width);
        let k0 = row * ki + start;
        for j in 0..width.min(ki - start) {
            let v = match kind {
                Kind::Sum | Kind::Mean | Kind::Prod if !float => D::from_i64(i[j]),
                Kind::Mean => D::from_f64(f[j] / plan.count as f64),
                Kind::Sum | Kind::Prod => D::from_f64(f[j]),
                Kind::ArgMax | Kind::ArgMin => D::from_i64(i[j]),
                Kind::Var { correction } if D::DTYPE == DType::Float64 => {
                    D::from_f64(Moments::value(m2[j], plan.count, correction, false))
                }
                Kind::Std { correction } if D::DTYPE == DType::Float64 => {
                    D::from_f64(Moments::value(m2[j], plan.count, correction, true))
                }
                _ => S::w_out::<D>(w[j]),
            };
            // SAFETY: output `k0 + j` belongs to block `blk` only; `out` holds every kept
            // index.
            unsafe { dst.get().add(k0 + j).write(v) };
        }
    };
    if threaded && blocks > 1 {
        items_in_parallel(blocks, &finish);
    } else {
        (0..blocks).for_each(finish);
    }
}
