//! Scans and rolls along a dim: `cumsum`, `cumprod` (PyTorch's dtypes: integers and bools
//! give `Int64`, `UInt64` gives `UInt64` as its sum does; a `dtype` converts the input first)
//! and `roll`. A `UInt64` scan works in `Int64`: the wrapping bits are the same.
//!
//! A scan moves its dim last and hands the backend contiguous `[rows, n]` rows in its
//! working dtype ([`Backend::scan_rows`](crate::backend): `Float32`, `Float64` or `Int64`;
//! half types scan in `Float32`), then converts to the result dtype.

use super::join::cat;
use crate::backend::backend;
use crate::layout::normalize_dim;
use crate::{DType, Error, Result, Tensor};

/// An inclusive scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanOp {
    /// Running sum.
    Sum,
    /// Running product.
    Prod,
}

impl ScanOp {
    /// The op's name (`"cumsum"`).
    pub fn name(self) -> &'static str {
        match self {
            ScanOp::Sum => "cumsum",
            ScanOp::Prod => "cumprod",
        }
    }
}

/// The inclusive scan `op` of `t` along `dim`, in `dtype` when given (the input is
/// converted first), else `t`'s [`DType::sum_dtype`].
pub fn scan(op: ScanOp, t: &Tensor, dim: isize, dtype: Option<DType>) -> Result<Tensor> {
    let out = dtype.unwrap_or(t.dtype().sum_dtype());
    let work = match out {
        DType::Float64 => DType::Float64,
        d if d.is_float() => DType::Float32,
        _ => DType::Int64,
    };
    let scalar = t.ndim() == 0;
    let nd = t.ndim().max(1);
    let d = normalize_dim(dim, nd)?;
    let x = if scalar { t.reshape(&[1])? } else { t.clone() };
    let moved = x.to_dtype(out)?.to_dtype(work)?.movedim(d as isize, -1)?;
    let moved_shape: Vec<isize> = moved.shape().iter().map(|&s| s as isize).collect();
    let n = *moved.shape().last().expect("at least one dim");
    let rows = moved
        .contiguous()?
        .reshape(&[(moved.numel() / n.max(1)) as isize, n as isize])?;
    let r = backend(t.device())?.scan_rows(op, &rows)?;
    let mut r = r.reshape(&moved_shape)?;
    if d + 1 != nd {
        r = r.movedim(-1, d as isize)?.contiguous()?;
    }
    if scalar {
        r = r.reshape(&[])?;
    }
    r.to_dtype(out)
}

/// Running sum along `dim` (see [`scan`]).
pub fn cumsum(t: &Tensor, dim: isize, dtype: Option<DType>) -> Result<Tensor> {
    scan(ScanOp::Sum, t, dim, dtype)
}

/// Running product along `dim` (see [`scan`]).
pub fn cumprod(t: &Tensor, dim: isize, dtype: Option<DType>) -> Result<Tensor> {
    scan(ScanOp::Prod, t, dim, dtype)
}

/// `t` with its elements shifted by `shifts[i]` along `dims[i]`, wrapping around
/// (PyTorch's `roll`). With no dims, the flattened tensor rolls by the one shift and keeps
/// its shape.
pub fn roll(t: &Tensor, shifts: &[isize], dims: &[isize]) -> Result<Tensor> {
    if dims.is_empty() {
        let [shift] = shifts else {
            return Err(Error::InvalidArgument {
                what: format!(
                    "roll without dims takes one shift (it rolls the flattened tensor), got {shifts:?}; pass dims for several"
                ),
            });
        };
        let shape: Vec<isize> = t.shape().iter().map(|&s| s as isize).collect();
        return roll(&t.reshape(&[-1])?, &[*shift], &[0])?.reshape(&shape);
    }
    if shifts.len() != dims.len() {
        return Err(Error::InvalidArgument {
            what: format!(
                "roll: {} shifts for {} dims; pass one shift per dim",
                shifts.len(),
                dims.len()
            ),
        });
    }
    let mut x = t.clone();
    let mut moved = false;
    for (&shift, &dim) in shifts.iter().zip(dims) {
        let d = normalize_dim(dim, t.ndim().max(1))?;
        if t.ndim() == 0 {
            continue;
        }
        let n = x.shape()[d];
        let s = if n == 0 {
            0
        } else {
            shift.rem_euclid(n as isize) as usize
        };
        if s == 0 {
            continue;
        }
        let d = d as isize;
        x = cat(
            &[x.narrow(d, (n - s) as isize, s)?, x.narrow(d, 0, n - s)?],
            d,
        )?;
        moved = true;
    }
    if !moved {
        // Nothing moved: still a fresh tensor, as every op's result.
        x = x.contiguous_copy()?;
    }
    Ok(x)
}
