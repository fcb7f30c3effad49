//! The CPU's reduction engine.
//!
//! The reduced dimensions are coalesced into rows (for order-free reductions they are first
//! sorted so the smallest stride is innermost, which turns a transposed or pitched view into
//! contiguous rows). Work is split across threads over output elements, or, when there are
//! few outputs, over the rows of each reduction, and partial results are combined.
//!
//! Float sums accumulate rows of `f32` in 16 `f32` lanes per block of at most 1024 elements
//! and add the block sums in `f64`; other floats accumulate in `f64` with blocks of 4096.
//! Either way the error grows with the block size plus `n / block`, not `n` (a 10^7-element
//! float32 sum of 0.1 is within 1e-7 relative). Integer and boolean sums and products wrap in
//! `i64` and return `Int64`.

use rayon::prelude::*;

use super::iter::{order_by_stride, Coalesced, SendPtr, PARALLEL_MIN_ELEMS};
use super::num::Num;
use crate::dtype::Element;
use crate::layout::DimVec;
use crate::ops::{ReduceOp as Kind, ReducePlan};
use crate::{DType, Error, Result, Tensor};

/// A running reduction value. `Float` sums/products in `f64`; `Int` in wrapping `i64`;
/// `Best` holds the max/min value as `f64` or `i64` (exact for every dtype but huge `i64`,
/// which `BestI` covers) with the logical index of its first occurrence.
#[derive(Debug, Clone, Copy)]
enum Acc {
    Float(f64),
    Int(i64),
    BestF(f64, i64),
    BestI(i64, i64),
    Empty,
}

/// The dimensions a reduction keeps and walks.
struct Plan {
    kept: Coalesced<1>,
    red: Coalesced<1>,
    count: usize,
}

/// The CPU's walk of `p` over `t`: kept and reduced dims coalesced (reduced ones ordered by
/// stride when the order is free).
fn plan(p: &ReducePlan, t: &Tensor) -> Plan {
    let (shape, strides) = (t.shape(), t.strides());
    let mut red_dims: DimVec<usize> = p.dims(true).collect();
    if p.op.order_free() {
        let rs: DimVec<usize> = red_dims.iter().map(|&d| shape[d]).collect();
        let rst: DimVec<isize> = red_dims.iter().map(|&d| strides[d]).collect();
        red_dims = order_by_stride(&rs, &rst)
            .iter()
            .map(|&i| red_dims[i])
            .collect();
    }
    let pick = |ds: &mut dyn Iterator<Item = usize>| -> (DimVec<usize>, DimVec<isize>) {
        ds.map(|d| (shape[d], strides[d])).unzip()
    };
    let (ks, kst) = pick(&mut p.dims(false));
    let (rs, rst) = pick(&mut red_dims.iter().copied());
    Plan {
        count: p.count,
        kept: Coalesced::new(&ks, [&kst]),
        red: Coalesced::new(&rs, [&rst]),
    }
}

/// Sum of `n` contiguous `f32` at `p`, blocked: 16 lanes per block of ≤ 1024, blocks in f64.
///
/// # Safety
/// `p` must be valid for reading `n` `f32`.
unsafe fn sum_f32_contiguous(p: *const f32, n: usize) -> f64 {
    const LANES: usize = 16;
    const BLOCK: usize = 1024;
    let mut total = 0f64;
    let mut start = 0;
    while start < n {
        let len = BLOCK.min(n - start);
        // SAFETY: `start + len <= n`, inside the caller's range.
        let block = unsafe { std::slice::from_raw_parts(p.add(start), len) };
        let mut lanes = [0f32; LANES];
        let mut chunks = block.chunks_exact(LANES);
        for c in &mut chunks {
            for (l, v) in lanes.iter_mut().zip(c) {
                *l += v;
            }
        }
        let tail: f32 = chunks.remainder().iter().sum();
        // Pairwise combination of the lanes.
        let mut w = LANES;
        while w > 1 {
            w /= 2;
            for i in 0..w {
                lanes[i] += lanes[i + w];
            }
        }
        total += f64::from(lanes[0]) + f64::from(tail);
        start += len;
    }
    total
}

/// Folds one row (`n` elements from `p` with stride `s`, logical indices from `index0`).
///
/// # Safety
/// Every element of the row must be readable as `S`.
unsafe fn fold_row<S: Element + Num>(
    kind: Kind,
    acc: Acc,
    p: *const S,
    s: isize,
    n: usize,
    index0: i64,
) -> Acc {
    let at = |i: usize| {
        // SAFETY: every caller passes `i < n`, so `p + i * s` is an element of the row.
        unsafe { S::load(p.offset(i as isize * s)) }
    };
    match (kind, acc) {
        (Kind::Sum | Kind::Mean, Acc::Float(mut t)) => {
            if S::DTYPE == DType::Float32 && s == 1 {
                // SAFETY: a stride-1 row of `n` f32 (the dtype was just checked).
                return Acc::Float(t + unsafe { sum_f32_contiguous(p.cast::<f32>(), n) });
            }
            let mut block = 0f64;
            for i in 0..n {
                block += at(i).to_f64();
                if i % 4096 == 4095 {
                    t += block;
                    block = 0.0;
                }
            }
            Acc::Float(t + block)
        }
        (Kind::Sum | Kind::Mean, Acc::Int(t)) => {
            Acc::Int((0..n).fold(t, |a, i| a.wrapping_add(at(i).to_i64())))
        }
        (Kind::Prod, Acc::Float(t)) => Acc::Float((0..n).fold(t, |a, i| a * at(i).to_f64())),
        (Kind::Prod, Acc::Int(t)) => {
            Acc::Int((0..n).fold(t, |a, i| a.wrapping_mul(at(i).to_i64())))
        }
        (_, mut best) => {
            let want_max = matches!(kind, Kind::Max | Kind::ArgMax);
            for i in 0..n {
                best = better(best, at(i), index0 + i as i64, want_max);
            }
            best
        }
    }
}

/// Keeps the better of `best` and `(v, idx)`: NaN wins (and the first NaN stays), ties keep
/// the earlier index.
fn better<S: Element + Num>(best: Acc, v: S, idx: i64, want_max: bool) -> Acc {
    if S::DTYPE.is_float() {
        let x = v.to_f64();
        match best {
            Acc::BestF(b, _) if b.is_nan() => best,
            Acc::BestF(b, _) if !x.is_nan() && !(if want_max { x > b } else { x < b }) => best,
            _ => Acc::BestF(x, idx),
        }
    } else {
        let x = v.to_i64();
        match best {
            Acc::BestI(b, _) if !(if want_max { x > b } else { x < b }) => best,
            _ => Acc::BestI(x, idx),
        }
    }
}

fn combine(kind: Kind, a: Acc, b: Acc) -> Acc {
    match (a, b) {
        (Acc::Empty, x) | (x, Acc::Empty) => x,
        (Acc::Float(x), Acc::Float(y)) if kind == Kind::Prod => Acc::Float(x * y),
        (Acc::Float(x), Acc::Float(y)) => Acc::Float(x + y),
        (Acc::Int(x), Acc::Int(y)) if kind == Kind::Prod => Acc::Int(x.wrapping_mul(y)),
        (Acc::Int(x), Acc::Int(y)) => Acc::Int(x.wrapping_add(y)),
        // `a` covers earlier indices than `b`, so `b` wins only when strictly better.
        (Acc::BestF(x, i), Acc::BestF(y, j)) => {
            let max = matches!(kind, Kind::Max | Kind::ArgMax);
            let b_wins = !x.is_nan() && (y.is_nan() || if max { y > x } else { y < x });
            if b_wins {
                Acc::BestF(y, j)
            } else {
                Acc::BestF(x, i)
            }
        }
        (Acc::BestI(x, i), Acc::BestI(y, j)) => {
            let max = matches!(kind, Kind::Max | Kind::ArgMax);
            if if max { y > x } else { y < x } {
                Acc::BestI(y, j)
            } else {
                Acc::BestI(x, i)
            }
        }
        (x, _) => x,
    }
}

fn identity(kind: Kind, d: DType) -> Acc {
    let float = d.is_float() || kind == Kind::Mean;
    match kind {
        Kind::Sum | Kind::Mean if float => Acc::Float(0.0),
        Kind::Sum | Kind::Mean => Acc::Int(0),
        Kind::Prod if float => Acc::Float(1.0),
        Kind::Prod => Acc::Int(1),
        _ => Acc::Empty,
    }
}

/// Reduces all rows of `plan.red` starting at element offset `base` of `t`.
///
/// # Safety
/// `base` must be the offset of an element whose kept index is fixed; `t` is of type `S`.
unsafe fn reduce_one<S: Element + Num>(
    kind: Kind,
    t: &Tensor,
    plan: &Plan,
    base: isize,
    parallel: bool,
) -> Acc {
    if plan.count == 0 {
        // Nothing to read: no pointer into the (possibly empty) storage is formed.
        return identity(kind, S::DTYPE);
    }
    let p = SendPtr(t.storage().as_ptr().cast::<S>());
    let red = &plan.red;
    let (inner, [s]) = (red.inner(), red.inner_strides());
    let row = |r: usize| {
        let [o] = red.row_offsets(r);
        // SAFETY: row `r` of the reduced dims from `base` is inside `t` by L3.
        unsafe {
            fold_row::<S>(
                kind,
                identity(kind, S::DTYPE),
                p.get().offset(base + o),
                s,
                inner,
                (r * inner) as i64,
            )
        }
    };
    if parallel && red.rows() > 1 {
        red_par_rows(kind, red.rows(), inner, &row)
    } else if parallel && inner >= PARALLEL_MIN_ELEMS {
        // One long row: split it into pieces.
        const PIECE: usize = 1 << 16;
        let pieces = inner.div_ceil(PIECE);
        crate::threads::install(|| {
            (0..pieces)
                .into_par_iter()
                .map(|k| {
                    let (lo, n) = (k * PIECE, PIECE.min(inner - k * PIECE));
                    // SAFETY: elements `lo..lo + n` of the single row are inside `t`.
                    unsafe {
                        fold_row::<S>(
                            kind,
                            identity(kind, S::DTYPE),
                            p.get().offset(base + lo as isize * s),
                            s,
                            n,
                            lo as i64,
                        )
                    }
                })
                .reduce(|| Acc::Empty, |a, b| combine(kind, a, b))
        })
    } else {
        (0..red.rows()).fold(identity(kind, S::DTYPE), |a, r| combine(kind, a, row(r)))
    }
}

fn red_par_rows(
    kind: Kind,
    rows: usize,
    inner: usize,
    row: &(impl Fn(usize) -> Acc + Sync),
) -> Acc {
    // Rows are grouped so that each task folds at least ~64K elements: one task per short
    // row would cost more in scheduling than the row takes to sum.
    let per_task = (1usize << 16).div_ceil(inner.max(1)).max(1);
    crate::threads::install(|| {
        (0..rows)
            .into_par_iter()
            .with_min_len(per_task)
            .map(row)
            .reduce(|| Acc::Empty, |a, b| combine(kind, a, b))
    })
}

fn finish<D: Element>(kind: Kind, acc: Acc, count: usize) -> Result<D> {
    Ok(match (kind, acc) {
        (Kind::Mean, Acc::Float(s)) => D::from_f64(s / count as f64),
        (_, Acc::Float(s)) => D::from_f64(s),
        (_, Acc::Int(s)) => D::from_i64(s),
        (Kind::ArgMax | Kind::ArgMin, Acc::BestF(_, i) | Acc::BestI(_, i)) => D::from_i64(i),
        (_, Acc::BestF(v, _)) => D::from_f64(v),
        (_, Acc::BestI(v, _)) => D::from_i64(v),
        (_, Acc::Empty) => return Err(Error::EmptyReduction { op: kind.name() }),
    })
}

/// Whether to reduce "outer" dimensions by streaming whole kept rows into accumulators
/// (column sums of a row-major matrix) instead of walking each output's strided lane.
fn use_outer(kind: Kind, plan: &Plan) -> bool {
    let [ks] = plan.kept.inner_strides();
    let [rs] = plan.red.inner_strides();
    matches!(kind, Kind::Sum | Kind::Mean)
        && plan.kept.inner() >= 16
        && plan.count > 1
        && ks.unsigned_abs() < rs.unsigned_abs()
}

/// Outer reduction: every thread owns a run of one kept row and adds each reduced slice of
/// it into `f64` (floats, means) or wrapping `i64` (integer sums) accumulators.
///
/// # Safety
/// `src` is a host tensor of `S`; `out` is fresh, exclusive, with one `D` per kept index.
unsafe fn reduce_outer<S: Element, D: Element>(
    kind: Kind,
    src: &Tensor,
    plan: &Plan,
    out: &Tensor,
) {
    let (kept, red) = (&plan.kept, &plan.red);
    let ([ks], [rs]) = (kept.inner_strides(), red.inner_strides());
    let p = SendPtr(src.storage().as_ptr().cast::<S>());
    let dst = SendPtr(out.data_ptr().cast::<D>());
    let base0 = src.layout().offset() as isize;
    let float = S::DTYPE.is_float() || kind == Kind::Mean;
    super::iter::for_each_piece(kept.rows(), kept.inner(), |row, start, len| {
        let [ko] = kept.row_offsets(row);
        let first = base0 + ko + start as isize * ks;
        let mut facc = vec![0f64; if float { len } else { 0 }];
        let mut iacc = vec![0i64; if float { 0 } else { len }];
        for rr in 0..red.rows() {
            let [ro] = red.row_offsets(rr);
            for j in 0..red.inner() as isize {
                let lane = p.get().wrapping_offset(first + ro + j * rs);
                // SAFETY: kept index (row, start + i) with reduced index (rr, j) is an element
                // of `src` for every `i < len` (L3).
                let at = |i: usize| unsafe { S::load(lane.offset(i as isize * ks)) };
                if float {
                    facc.iter_mut()
                        .enumerate()
                        .for_each(|(i, a)| *a += at(i).to_f64());
                } else {
                    iacc.iter_mut()
                        .enumerate()
                        .for_each(|(i, a)| *a = a.wrapping_add(at(i).to_i64()));
                }
            }
        }
        let k0 = row * kept.inner() + start;
        for i in 0..len {
            let v = if !float {
                D::from_i64(iacc[i])
            } else if kind == Kind::Mean {
                D::from_f64(facc[i] / plan.count as f64)
            } else {
                D::from_f64(facc[i])
            };
            // SAFETY: output `k0 + i` belongs to this piece only; `out` holds every kept index.
            unsafe { dst.get().add(k0 + i).write(v) };
        }
    });
}

/// Runs the primitive reduction `rp` over the host tensor `t` into a fresh tensor.
pub(crate) fn reduce(rp: &ReducePlan, t: &Tensor) -> Result<Tensor> {
    let kind = rp.op;
    let plan = plan(rp, t);
    let od = rp.out_dtype;
    let out = Tensor::alloc(&rp.out_shape, od, t.device(), false)?;
    let n_out = out.numel();
    if n_out == 0 {
        return Ok(out);
    }
    if plan.count == 0 && !matches!(kind, Kind::Sum | Kind::Mean | Kind::Prod) {
        return Err(Error::EmptyReduction { op: kind.name() });
    }
    let big = n_out * plan.count.max(1) >= PARALLEL_MIN_ELEMS && super::iter::threads_available();
    let par_inside = big && n_out < 2 * crate::threads::current_num_threads();
    let src = if t.dtype() == DType::Bool {
        t.to_dtype(DType::UInt8)?
    } else {
        t.clone()
    };
    if use_outer(kind, &plan) {
        super::num::dispatch_num!(src.dtype(), S => crate::dispatch_dtype!(od, D => {
            // SAFETY: `out` is fresh and exclusive with one element per kept index.
            unsafe { reduce_outer::<S, D>(kind, &src, &plan, &out) }
        }), bool => unreachable!("bool inputs are read as UInt8"));
        return Ok(out);
    }
    let dst = SendPtr(out.data_ptr());
    super::num::dispatch_num!(src.dtype(), S => crate::dispatch_dtype!(od, D => {
        let one = |k: usize| -> Result<()> {
            let [o] = plan.kept.row_offsets(k / plan.kept.inner());
            let j = (k % plan.kept.inner()) as isize * plan.kept.inner_strides()[0];
            let base = src.layout().offset() as isize + o + j;
            // SAFETY: `base` is the offset of output element `k`'s first input element.
            let acc = unsafe { reduce_one::<S>(kind, &src, &plan, base, par_inside) };
            let v = finish::<D>(kind, acc, plan.count)?;
            // SAFETY: `out` is a fresh exclusive allocation of `n_out` elements and `k < n_out`;
            // each `k` is written by exactly one task.
            unsafe { dst.get().cast::<D>().add(k).write(v) };
            Ok(())
        };
        if big && !par_inside {
            crate::threads::install(|| (0..n_out).into_par_iter().try_for_each(one))?;
        } else {
            (0..n_out).try_for_each(one)?;
        }
    }), bool => unreachable!("bool inputs are read as UInt8"));
    Ok(out)
}
