//! Sorting, selection (top-k, k-th value, median) and scans (cumulative sum/product) over
//! the contiguous rows `ops/` prepares: a `[rows, n]` tensor whose last dim is the one the
//! op runs along. Rows are independent, so large inputs run in parallel over rows inside
//! the runtime's pool. Each row sorts or selects packed `(key, index)` integers
//! ([`sort_keys`](super::sort_keys)), which makes the unstable sorts deterministic and equal
//! to a stable sort (ties keep their original order); rows of 256 or more sort by radix.

use super::sort_keys::{radix_sort, Item, SortKey};

use super::iter::{chunks_in_groups, for_each_group, SendPtr, PARALLEL_MIN_ELEMS};
use crate::error::{Error, Result};
use crate::ops::{RowSelect, ScanOp};
use crate::{DType, Device, Element, Tensor};

/// Rows at least this long sort by radix; shorter ones by comparison of packed items.
const RADIX_MIN: usize = 256;

/// The number of results per row of `op` over rows of length `n`.
pub(crate) fn row_outputs(op: RowSelect, n: usize) -> usize {
    match op {
        RowSelect::Sort { .. } => n,
        RowSelect::TopK { k, .. } => k,
        RowSelect::Kth { .. } | RowSelect::Median => 1,
    }
}

/// One row of `op`: `src` in, `m` values and indices out; keys are packed less `base`;
/// `buf` and `tmp` are scratch.
fn select_row<T: SortKey, I: Item>(
    op: RowSelect,
    (src, base): (&[T], u64),
    (buf, tmp): &mut (Vec<I>, Vec<I>),
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
    let descending = matches!(
        op,
        RowSelect::Sort { descending: true } | RowSelect::TopK { largest: true, .. }
    );
    buf.clear();
    buf.extend(
        src.iter()
            .enumerate()
            .map(|(i, &x)| I::pack(x.key() - base, i, descending)),
    );
    let chosen: &[I] = match op {
        RowSelect::Sort { .. } => {
            if buf.len() >= RADIX_MIN {
                radix_sort(buf, tmp);
            } else {
                buf.sort_unstable();
            }
            buf
        }
        RowSelect::TopK { k, sorted, .. } => {
            if k < buf.len() {
                buf.select_nth_unstable(k - 1);
                buf.truncate(k);
            }
            if sorted {
                buf.sort_unstable();
            }
            buf
        }
        RowSelect::Kth { k } => std::slice::from_ref(buf.select_nth_unstable(k).1),
        RowSelect::Median => {
            let k = (src.len() - 1) / 2;
            std::slice::from_ref(buf.select_nth_unstable(k).1)
        }
    };
    for ((v, i), &p) in vals.iter_mut().zip(idx.iter_mut()).zip(chosen) {
        let j = p.index();
        // Integers from their keys: no random read of the row.
        *v = if T::EXACT {
            T::unkey(p.packed_key(descending) + base)
        } else {
            src[j]
        };
        *i = j as i64;
    }
}

/// `op` along the `n`-element rows of `src` into `m`-element rows of `v` and `ix`, with
/// items of type `I` holding keys less `base`.
fn run_rows<T: SortKey, I: Item>(
    op: RowSelect,
    (src, n, base): (&[T], usize, u64),
    (v, ix, m): (&mut [T], &mut [i64], usize),
) {
    let rows = src.len() / n;
    let parallel = rows > 1 && rows * n >= PARALLEL_MIN_ELEMS / 4;
    let (v, ix) = (SendPtr(v.as_mut_ptr()), SendPtr(ix.as_mut_ptr()));
    for_each_group(rows, n, parallel, &|group| {
        let mut bufs: (Vec<I>, Vec<I>) = Default::default();
        for r in group {
            // SAFETY: `v` and `ix` hold `rows * m` elements, borrowed mutably for this call;
            // row `r`'s `m` of each are written by this iteration only (the groups are
            // disjoint).
            let (v, ix) = unsafe {
                (
                    std::slice::from_raw_parts_mut(v.get().add(r * m), m),
                    std::slice::from_raw_parts_mut(ix.get().add(r * m), m),
                )
            };
            select_row(op, (&src[r * n..(r + 1) * n], base), &mut bufs, v, ix);
        }
    });
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
        // 64-bit integers whose keys span less than 2^32 pack relative to the smallest.
        let (lo, hi) = if T::WIDE && T::EXACT {
            src.iter().fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x.key()), hi.max(x.key())))
        } else {
            (0, 0)
        };
        let narrow = !T::WIDE || (T::EXACT && hi.saturating_sub(lo) <= u64::from(u32::MAX));
        if narrow && n <= <u64 as Item>::MAX_LEN {
            run_rows::<T, u64>(op, (src, n, lo), (v, ix, m));
        } else {
            run_rows::<T, u128>(op, (src, n, 0), (v, ix, m));
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
            let parallel = rows > 1 && rows * n >= PARALLEL_MIN_ELEMS;
            chunks_in_groups(dst, n, n, parallel, |first, part| {
                for (o, s) in part.chunks_mut(n).zip(src[first * n..].chunks(n)) {
                    scan_row(op, s, o);
                }
            });
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
