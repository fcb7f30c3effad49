//! Sorting and selection along one dim — `sort`, `argsort`, `topk`, `kthvalue`, `median`,
//! `max_dim`/`min_dim` — and `unique`, with PyTorch's semantics (NaN is larger than every
//! number: ascending sorts put it last, `median` and `max` propagate it).
//!
//! Each op moves its dim last and hands the backend contiguous `[rows, n]` rows
//! ([`Backend::select_rows`](crate::backend)); the results are moved back and made
//! contiguous. `Bool` inputs are sorted as `UInt8` and converted back.

use super::reduce::{reduce, ReduceOp};
use crate::backend::backend;
use crate::layout::normalize_dim;
use crate::{DType, Error, Result, Tensor};

/// What a backend computes along each row for [`Backend::select_rows`](crate::backend).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowSelect {
    /// The whole row sorted (ties keep their order, so the sort is stable).
    Sort {
        /// Largest first (NaN first).
        descending: bool,
    },
    /// The `k` (≥ 1) largest or smallest, sorted when `sorted`.
    TopK {
        /// How many.
        k: usize,
        /// The largest (else the smallest).
        largest: bool,
        /// In order (largest first when `largest`); otherwise in an unspecified order.
        sorted: bool,
    },
    /// The `k`-th smallest (0-based here; `kthvalue`'s `k` is 1-based).
    Kth {
        /// 0-based rank.
        k: usize,
    },
    /// The lower median, or the first NaN when the row has one.
    Median,
}

impl RowSelect {
    /// The op's name, for errors.
    pub fn name(self) -> &'static str {
        match self {
            RowSelect::Sort { .. } => "sort",
            RowSelect::TopK { .. } => "topk",
            RowSelect::Kth { .. } => "kthvalue",
            RowSelect::Median => "median",
        }
    }
}

/// Values and the `Int64` indices they came from along the reduced or sorted dim (PyTorch's
/// `torch.return_types.*`).
#[derive(Debug, Clone)]
pub struct ValuesIndices {
    /// The values, in the input's dtype.
    pub values: Tensor,
    /// Their positions along the dim, `Int64`.
    pub indices: Tensor,
}

/// `t` with one dim moved last and laid out as contiguous `[rows, n]` rows.
struct Rows {
    rows: Tensor,
    /// The sizes of the other dims, in order.
    outer: Vec<usize>,
    /// The dim, normalised (0 for a 0-d input).
    dim: usize,
    /// The input's dims (at least 1).
    nd: usize,
    /// The input was 0-d.
    scalar: bool,
    /// The input's dtype (the rows are `UInt8` for `Bool`).
    dtype: DType,
}

impl Rows {
    fn new(t: &Tensor, dim: isize) -> Result<Rows> {
        let scalar = t.ndim() == 0;
        let nd = t.ndim().max(1);
        let d = normalize_dim(dim, nd)?;
        let x = if scalar { t.reshape(&[1])? } else { t.clone() };
        let x = match x.dtype() {
            DType::Bool => x.to_dtype(DType::UInt8)?,
            _ => x,
        };
        let moved = x.movedim(d as isize, -1)?;
        let (&n, outer) = moved.shape().split_last().expect("at least one dim");
        let outer = outer.to_vec();
        let r: usize = outer.iter().product();
        let rows = moved.contiguous()?.reshape(&[r as isize, n as isize])?;
        Ok(Rows {
            rows,
            outer,
            dim: d,
            nd,
            scalar,
            dtype: t.dtype(),
        })
    }

    fn len(&self) -> usize {
        self.rows.shape()[1]
    }

    /// A `[rows, m]` result back in the input's layout (the dim where it was, `m` long),
    /// contiguous; without `keep`, the dim (of length 1) is dropped.
    fn restore(&self, res: Tensor, keep: bool, values: bool) -> Result<Tensor> {
        let m = res.shape()[1];
        let mut shape: Vec<isize> = self.outer.iter().map(|&s| s as isize).collect();
        shape.push(m as isize);
        let mut r = res.reshape(&shape)?;
        if self.dim + 1 != self.nd {
            r = r.movedim(-1, self.dim as isize)?.contiguous()?;
        }
        if self.scalar {
            r = r.reshape(&[])?;
        } else if !keep {
            r = r.squeeze(Some(self.dim as isize))?;
        }
        if values && self.dtype != r.dtype() {
            r = r.to_dtype(self.dtype)?;
        }
        Ok(r)
    }

    fn run(&self, op: RowSelect, keep: bool) -> Result<ValuesIndices> {
        let (v, i) = backend(self.rows.device())?.select_rows(op, &self.rows)?;
        Ok(ValuesIndices {
            values: self.restore(v, keep, true)?,
            indices: self.restore(i, keep, false)?,
        })
    }
}

/// `t` sorted along `dim`, with the indices of the sorted elements. Ascending puts NaN last,
/// descending first (PyTorch's order). Ties always keep their original order, so `stable`
/// is accepted for PyTorch's signature and changes nothing.
pub fn sort(t: &Tensor, dim: isize, descending: bool, stable: bool) -> Result<ValuesIndices> {
    let _ = stable;
    Rows::new(t, dim)?.run(RowSelect::Sort { descending }, true)
}

/// The indices that sort `t` along `dim` (see [`sort`]).
pub fn argsort(t: &Tensor, dim: isize, descending: bool, stable: bool) -> Result<Tensor> {
    Ok(sort(t, dim, descending, stable)?.indices)
}

/// The `k` largest (or smallest) elements along `dim` and their indices; `sorted` orders
/// them (largest first for `largest`). `k` may be 0; more than the dim's size is an error.
pub fn topk(
    t: &Tensor,
    k: usize,
    dim: isize,
    largest: bool,
    sorted: bool,
) -> Result<ValuesIndices> {
    let rows = Rows::new(t, dim)?;
    if k > rows.len() {
        return Err(Error::InvalidArgument {
            what: format!(
                "topk: k = {k} is larger than the dim's size {}; pass k <= t.size(dim)",
                rows.len()
            ),
        });
    }
    if k == 0 {
        let empty = |d: DType| Tensor::zeros(&[rows.rows.shape()[0], 0], d);
        let v = empty(rows.rows.dtype())?.to(t.device())?;
        let i = empty(DType::Int64)?.to(t.device())?;
        return Ok(ValuesIndices {
            values: rows.restore(v, true, true)?,
            indices: rows.restore(i, true, false)?,
        });
    }
    rows.run(RowSelect::TopK { k, largest, sorted }, true)
}

/// The `k`-th smallest element (1-based, as PyTorch) along `dim` and its index.
pub fn kthvalue(t: &Tensor, k: usize, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
    let rows = Rows::new(t, dim)?;
    if k == 0 || k > rows.len() {
        return Err(Error::InvalidArgument {
            what: format!(
                "kthvalue: k = {k} is outside 1..={} (k is 1-based: 1 is the smallest)",
                rows.len()
            ),
        });
    }
    rows.run(RowSelect::Kth { k: k - 1 }, keepdim)
}

/// The lower median along `dim` (PyTorch's `median(dim)`: of an even count, the smaller of
/// the two middle values) and its index; a row with NaN gives its first NaN.
pub fn median_dim(t: &Tensor, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
    let rows = Rows::new(t, dim)?;
    if rows.len() == 0 {
        return Err(Error::EmptyReduction { op: "median" });
    }
    rows.run(RowSelect::Median, keepdim)
}

/// The lower median of all elements, as a 0-d tensor (NaN when there is one).
pub fn median(t: &Tensor) -> Result<Tensor> {
    Ok(median_dim(&t.reshape(&[-1])?, 0, false)?.values)
}

/// The maximum along `dim` and the index of its first occurrence (PyTorch's `max(dim)`;
/// NaN propagates and its first index is returned).
pub fn max_dim(t: &Tensor, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
    best_dim(ReduceOp::ArgMax, t, dim, keepdim)
}

/// The minimum along `dim` and the index of its first occurrence (see [`max_dim`]).
pub fn min_dim(t: &Tensor, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
    best_dim(ReduceOp::ArgMin, t, dim, keepdim)
}

/// One pass over `t`: the arg-reduction `op` (which finds the best values to compare them),
/// then the values gathered at those indices, one element per output.
fn best_dim(op: ReduceOp, t: &Tensor, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
    let indices = reduce(op, t, Some(&[dim]), true)?;
    let values = super::gather(t, dim, &indices)?;
    if keepdim || t.ndim() == 0 {
        return Ok(ValuesIndices { values, indices });
    }
    Ok(ValuesIndices {
        values: values.squeeze(Some(dim))?,
        indices: indices.squeeze(Some(dim))?,
    })
}

/// The result of [`unique`].
#[derive(Debug, Clone)]
pub struct Unique {
    /// The distinct values, ascending (1-D).
    pub values: Tensor,
    /// For each input element (the input's shape), the index of its value in `values`.
    pub inverse: Option<Tensor>,
    /// How many times each value occurs (`Int64`, like `values`).
    pub counts: Option<Tensor>,
}

/// The distinct elements of the flattened `t`, ascending, optionally with the inverse
/// mapping and the counts (PyTorch's `unique(dim=None)`). The result is always sorted, so
/// `sorted` is accepted for PyTorch's signature and changes nothing. NaNs compare unequal,
/// so each NaN is its own value (PyTorch's CPU behaviour; numpy 2 merges them).
pub fn unique(
    t: &Tensor,
    sorted: bool,
    return_inverse: bool,
    return_counts: bool,
) -> Result<Unique> {
    let _ = sorted;
    let s = sort(&t.reshape(&[-1])?, 0, false, true)?;
    let vals = crate::backend::host(&s.values)?;
    let n = vals.numel();
    // Group starts: where a sorted value differs from the one before it.
    fn starts_of<T: PartialEq>(v: &[T]) -> Vec<usize> {
        (0..v.len())
            .filter(|&j| j == 0 || v[j] != v[j - 1])
            .collect()
    }
    let starts: Vec<usize> = crate::dispatch_num!(vals.dtype(), T => {
        starts_of(vals.as_slice::<T>()?)
    }, bool => starts_of(&vals.to_vec::<bool>()?));
    let firsts: Vec<i64> = starts.iter().map(|&j| j as i64).collect();
    let values = crate::ops::index_select(&vals, 0, &Tensor::from_vec(firsts, &[starts.len()])?)?;
    let counts = return_counts
        .then(|| {
            let c: Vec<i64> = starts
                .iter()
                .zip(starts.iter().skip(1).chain(std::iter::once(&n)))
                .map(|(&a, &b)| (b - a) as i64)
                .collect();
            Tensor::from_vec(c, &[starts.len()])?.to(t.device())
        })
        .transpose()?;
    let inverse = return_inverse
        .then(|| {
            let order = crate::backend::host(&s.indices)?.to_vec::<i64>()?;
            let mut inv = vec![0i64; n];
            let mut group = 0i64;
            for (j, &src) in order.iter().enumerate() {
                if j > 0 && starts.get(group as usize + 1) == Some(&j) {
                    group += 1;
                }
                inv[src as usize] = group;
            }
            Tensor::from_vec(inv, t.shape())?.to(t.device())
        })
        .transpose()?;
    Ok(Unique {
        values: values.to(t.device())?,
        inverse,
        counts,
    })
}

/// The distinct slices of `t` along `dim`, in lexicographic order, optionally with the
/// inverse mapping (for each input slice, the index of its slice in `values`: shape
/// `[t.shape[dim]]`) and the counts (PyTorch's and numpy's `unique(dim=…)` / `axis=`).
/// `values` keeps every dimension, `dim` holding the distinct slices. Elements compare as
/// numbers (`-0.0 == 0.0`); a slice containing NaN equals no other slice (PyTorch's CPU
/// behaviour), and NaNs order after every number.
pub fn unique_dim(
    t: &Tensor,
    dim: isize,
    return_inverse: bool,
    return_counts: bool,
) -> Result<Unique> {
    let d = crate::layout::normalize_dim(dim, t.ndim())?;
    let n = t.shape()[d];
    // One slice per row: the dim moved to the front, the rest flattened.
    let rows = crate::backend::host(&t.movedim(d as isize, 0)?.contiguous()?)?;
    let width = rows.numel().checked_div(n).unwrap_or(0);
    let (order, starts): (Vec<usize>, Vec<usize>) = crate::dispatch_dtype!(rows.dtype(), T => {
        let v = rows.to_vec::<T>()?;
        let row = |i: usize| &v[i * width..(i + 1) * width];
        #[allow(clippy::eq_op)] // `x != x` is NaN for every element type, bool included
        let cmp = |a: &T, b: &T| match (a != a, b != b) {
            (false, false) => a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal),
            (x, y) => x.cmp(&y),
        };
        let mut order: Vec<usize> = (0..n).collect();
        // Stable, so equal slices keep their input order.
        order.sort_by(|&i, &j| {
            row(i)
                .iter()
                .zip(row(j))
                .map(|(a, b)| cmp(a, b))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let starts = (0..n)
            .filter(|&k| k == 0 || row(order[k]) != row(order[k - 1]))
            .collect();
        (order, starts)
    });
    let firsts: Vec<i64> = starts.iter().map(|&k| order[k] as i64).collect();
    let picked = Tensor::from_vec(firsts, &[starts.len()])?.to(t.device())?;
    let values = crate::ops::index_select(t, d as isize, &picked)?;
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(n));
    let counts = return_counts
        .then(|| {
            let c: Vec<i64> = starts
                .iter()
                .zip(ends)
                .map(|(&a, b)| (b - a) as i64)
                .collect();
            Tensor::from_vec(c, &[starts.len()])?.to(t.device())
        })
        .transpose()?;
    let inverse = return_inverse
        .then(|| {
            let mut inv = vec![0i64; n];
            let mut group = 0usize;
            for (k, &src) in order.iter().enumerate() {
                if group + 1 < starts.len() && starts[group + 1] == k {
                    group += 1;
                }
                inv[src] = group as i64;
            }
            Tensor::from_vec(inv, &[n])?.to(t.device())
        })
        .transpose()?;
    Ok(Unique {
        values,
        inverse,
        counts,
    })
}
