//! Sorting, selection (top-k, k-th value, median) and scans (cumulative sum/product) over
//! the contiguous rows `ops/` prepares: a `[rows, n]` tensor whose last dim is the one the
//! op runs along. Rows are independent, so large inputs run in parallel over rows inside
//! the runtime's pool; each row sorts `(value, index)` keys, which makes the unstable sorts
//! deterministic and equal to a stable sort (ties keep their original order).

use std::cmp::Ordering;

use rayon::prelude::*;

use super::iter::{threads_available, PARALLEL_MIN_ELEMS};
use crate::error::{Error, Result};
use crate::ops::{RowSelect, ScanOp};
use crate::{DType, Device, Element, Tensor};

/// A total order for sorting: NaN is larger than every number (PyTorch's rule: ascending
/// sorts put NaN last, `topk(largest)` takes NaN first).
pub(crate) trait SortKey: Element {
    /// Whether the value is NaN.
    fn nan(self) -> bool;
    /// The order with NaN largest and all NaNs equal.
    fn total(self, other: Self) -> Ordering;
}

macro_rules! float_key {
    ($($t:ty),*) => {$(
        impl SortKey for $t {
            #[inline]
            fn nan(self) -> bool {
                self.is_nan()
            }
            #[inline]
            fn total(self, other: Self) -> Ordering {
                match self.partial_cmp(&other) {
                    Some(o) => o,
                    None => self.is_nan().cmp(&other.is_nan()),
                }
            }
        }
    )*};
}

macro_rules! int_key {
    ($($t:ty),*) => {$(
        impl SortKey for $t {
            #[inline]
            fn nan(self) -> bool {
                false
            }
            #[inline]
            fn total(self, other: Self) -> Ordering {
                self.cmp(&other)
            }
        }
    )*};
}

float_key!(f32, f64, half::f16, half::bf16);
int_key!(i8, i16, i32, i64, u8, u16, u32, u64);

type Key<T> = (T, i64);

fn ascending<T: SortKey>(a: &Key<T>, b: &Key<T>) -> Ordering {
    a.0.total(b.0).then(a.1.cmp(&b.1))
}

fn descending<T: SortKey>(a: &Key<T>, b: &Key<T>) -> Ordering {
    b.0.total(a.0).then(a.1.cmp(&b.1))
}

/// The number of results per row of `op` over rows of length `n`.
pub(crate) fn row_outputs(op: RowSelect, n: usize) -> usize {
    match op {
        RowSelect::Sort { .. } => n,
        RowSelect::TopK { k, .. } => k,
        RowSelect::Kth { .. } | RowSelect::Median => 1,
    }
}

/// One row of `op`: `src` in, `m` values and indices out; `buf` is scratch.
fn select_row<T: SortKey>(
    op: RowSelect,
    src: &[T],
    buf: &mut Vec<Key<T>>,
    vals: &mut [T],
    idx: &mut [i64],
) {
    if let RowSelect::Median = op {
        // PyTorch's median propagates NaN: the first NaN of the row is the answer.
        if let Some(p) = src.iter().position(|x| x.nan()) {
            vals[0] = src[p];
            idx[0] = p as i64;
            return;
        }
    }
    buf.clear();
    buf.extend(src.iter().enumerate().map(|(i, &x)| (x, i as i64)));
    let cmp: fn(&Key<T>, &Key<T>) -> Ordering = match op {
        RowSelect::Sort { descending: true } | RowSelect::TopK { largest: true, .. } => descending,
        _ => ascending,
    };
    let chosen: &[Key<T>] = match op {
        RowSelect::Sort { .. } => {
            buf.sort_unstable_by(cmp);
            buf
        }
        RowSelect::TopK { k, sorted, .. } => {
            if k < buf.len() {
                buf.select_nth_unstable_by(k - 1, cmp);
                buf.truncate(k);
            }
            if sorted {
                buf.sort_unstable_by(cmp);
            }
            buf
        }
        RowSelect::Kth { k } => {
            let (_, kth, _) = buf.select_nth_unstable_by(k, cmp);
            std::slice::from_ref(kth)
        }
        RowSelect::Median => {
            let k = (src.len() - 1) / 2;
            let (_, kth, _) = buf.select_nth_unstable_by(k, cmp);
            std::slice::from_ref(kth)
        }
    };
    for ((v, i), &(x, j)) in vals.iter_mut().zip(idx.iter_mut()).zip(chosen) {
        *v = x;
        *i = j;
    }
}

/// `op` along every row of the contiguous `[rows, n]` host tensor `t` (any dtype but
/// `Bool`): values of `t`'s dtype and `Int64` indices, both `[rows, m]`.
pub(crate) fn select_rows(op: RowSelect, t: &Tensor) -> Result<(Tensor, Tensor)> {
    let (rows, n) = (t.shape()[0], t.shape()[1]);
    let m = row_outputs(op, n);
    let vals = Tensor::alloc(&[rows, m], t.dtype(), Device::cpu(), false)?;
    let idx = Tensor::alloc(&[rows, m], DType::Int64, Device::cpu(), false)?;
    if rows == 0 || m == 0 {
        return Ok((vals, idx));
    }
    crate::dispatch_num!(t.dtype(), T => {
        // SAFETY: `t` is a contiguous host tensor of `rows * n` initialised `T`s (never
        // `Bool`), read only here; `vals` and `idx` are fresh exclusive allocations of
        // `rows * m` elements, disjoint from it.
        let (src, v, ix) = unsafe {
            (
                std::slice::from_raw_parts(t.const_data_ptr().cast::<T>(), rows * n),
                std::slice::from_raw_parts_mut(vals.data_ptr().cast::<T>(), rows * m),
                std::slice::from_raw_parts_mut(idx.data_ptr().cast::<i64>(), rows * m),
            )
        };
        let work = |((v, ix), s): ((&mut [T], &mut [i64]), &[T]), buf: &mut Vec<Key<T>>| {
            select_row(op, s, buf, v, ix)
        };
        if rows > 1 && rows * n >= PARALLEL_MIN_ELEMS / 4 && threads_available() {
            crate::threads::install(|| {
                v.par_chunks_mut(m)
                    .zip(ix.par_chunks_mut(m))
                    .zip(src.par_chunks(n))
                    .for_each_init(Vec::new, |buf, job| work(job, buf))
            });
        } else {
            let mut buf = Vec::with_capacity(n);
            v.chunks_mut(m)
                .zip(ix.chunks_mut(m))
                .zip(src.chunks(n))
                .for_each(|job| work(job, &mut buf));
        }
    }, bool => {
        return Err(Error::Internal {
            message: "select_rows takes no Bool rows (ops/ converts them)".to_string(),
        });
    });
    Ok((vals, idx))
}

/// One row's inclusive scan: floats accumulate in `f64` (PyTorch's CPU accumulator),
/// integers in wrapping `i64`.
fn scan_row<T: Element>(op: ScanOp, src: &[T], out: &mut [T]) {
    if T::DTYPE.is_float() {
        let mut acc = match op {
            ScanOp::Sum => 0.0,
            ScanOp::Prod => 1.0,
        };
        for (o, &x) in out.iter_mut().zip(src) {
            match op {
                ScanOp::Sum => acc += x.to_f64(),
                ScanOp::Prod => acc *= x.to_f64(),
            }
            *o = T::from_f64(acc);
        }
    } else {
        let mut acc: i64 = match op {
            ScanOp::Sum => 0,
            ScanOp::Prod => 1,
        };
        for (o, &x) in out.iter_mut().zip(src) {
            acc = match op {
                ScanOp::Sum => acc.wrapping_add(x.to_i64()),
                ScanOp::Prod => acc.wrapping_mul(x.to_i64()),
            };
            *o = T::from_i64(acc);
        }
    }
}

/// `op` along every row of the contiguous `[rows, n]` host tensor `t` (`Float32`,
/// `Float64` or `Int64`), into a fresh tensor of the same shape and dtype.
pub(crate) fn scan_rows(op: ScanOp, t: &Tensor) -> Result<Tensor> {
    let (rows, n) = (t.shape()[0], t.shape()[1]);
    let out = Tensor::alloc(&[rows, n], t.dtype(), Device::cpu(), false)?;
    if rows == 0 || n == 0 {
        return Ok(out);
    }
    macro_rules! run {
        ($T:ty) => {{
            // SAFETY: `t` is a contiguous host tensor of `rows * n` initialised elements of
            // its dtype, `$T`; `out` is a fresh exclusive allocation of as many, disjoint.
            let (src, dst) = unsafe {
                (
                    std::slice::from_raw_parts(t.const_data_ptr().cast::<$T>(), rows * n),
                    std::slice::from_raw_parts_mut(out.data_ptr().cast::<$T>(), rows * n),
                )
            };
            if rows > 1 && rows * n >= PARALLEL_MIN_ELEMS && threads_available() {
                crate::threads::install(|| {
                    dst.par_chunks_mut(n)
                        .zip(src.par_chunks(n))
                        .for_each(|(o, s)| scan_row(op, s, o))
                });
            } else {
                dst.chunks_mut(n)
                    .zip(src.chunks(n))
                    .for_each(|(o, s)| scan_row(op, s, o));
            }
        }};
    }
    match t.dtype() {
        DType::Float32 => run!(f32),
        DType::Float64 => run!(f64),
        DType::Int64 => run!(i64),
        d => {
            return Err(Error::Internal {
                message: format!("scan_rows takes Float32/Float64/Int64 rows, got {d}"),
            })
        }
    }
    Ok(out)
}
