//! Reductions: one public enum ([`ReduceOp`]) and one entry point ([`reduce`]) that Rust, C
//! and Python all use; the named functions (`sum`, `max_dims`, …) are shorthands for it.
//!
//! A reduction is planned once here ([`ReducePlan`]: dims normalised and checked, result
//! shape and dtype) and run by the backend of the tensor's device. `var`/`std` and
//! `softmax`/`log_softmax` run a backend's fused kernel when it has one (the CPU's, for
//! `float32`/`float64`) and are otherwise compositions of primitive ops.

use super::binary::{binary_owned, binary_scalar, mul, sub};
use super::promote::{float_type, Scalar};
use super::unary::{exp, log, sqrt};
use super::BinaryOp;
use crate::backend::backend;
use crate::layout::{normalize_dim, DimVec};
use crate::{DType, Error, Result, Tensor};

/// A reduction. The discriminants ([`ReduceOp::code`]) are the C ABI's `CRT_REDUCE_*`
/// numbers and never change; a new reduction takes a new number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum (floats keep their dtype; integers and bools give `Int64`; `UInt64` gives
    /// `UInt64`, wrapping modulo 2^64, since `Int64` cannot hold its values).
    Sum,
    /// Mean (floats keep their dtype; integers and bools give `Float64`; no elements give NaN).
    Mean,
    /// Product (dtypes as for sum).
    Prod,
    /// Maximum (NaN-propagating; an error on no elements).
    Max,
    /// Minimum (NaN-propagating; an error on no elements).
    Min,
    /// Index of the first maximum along one dim (or of the flattened tensor), `Int64`.
    ArgMax,
    /// Index of the first minimum along one dim (or of the flattened tensor), `Int64`.
    ArgMin,
    /// Variance with `correction` subtracted from the count (1: unbiased, PyTorch's
    /// default; 0: numpy's). Floats keep their dtype; integers give `Float64`.
    Var {
        /// Subtracted from the number of elements in the denominator.
        correction: usize,
    },
    /// Standard deviation: the square root of [`ReduceOp::Var`].
    Std {
        /// As for `Var`.
        correction: usize,
    },
}

impl ReduceOp {
    /// Every reduction (`Var`/`Std` with correction 1).
    pub const ALL: [ReduceOp; 9] = [
        ReduceOp::Sum,
        ReduceOp::Mean,
        ReduceOp::Prod,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::ArgMax,
        ReduceOp::ArgMin,
        ReduceOp::Var { correction: 1 },
        ReduceOp::Std { correction: 1 },
    ];

    /// The op's name (`"sum"`).
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Mean => "mean",
            ReduceOp::Prod => "prod",
            ReduceOp::Max => "max",
            ReduceOp::Min => "min",
            ReduceOp::ArgMax => "argmax",
            ReduceOp::ArgMin => "argmin",
            ReduceOp::Var { .. } => "var",
            ReduceOp::Std { .. } => "std",
        }
    }

    /// The op's stable number (the C ABI's `CRT_REDUCE_*`).
    pub fn code(self) -> u32 {
        match self {
            ReduceOp::Sum => 0,
            ReduceOp::Mean => 1,
            ReduceOp::Prod => 2,
            ReduceOp::Max => 3,
            ReduceOp::Min => 4,
            ReduceOp::ArgMax => 5,
            ReduceOp::ArgMin => 6,
            ReduceOp::Var { .. } => 7,
            ReduceOp::Std { .. } => 8,
        }
    }

    /// The op numbered `code`, with `correction` for `Var`/`Std` (ignored by the others).
    pub fn from_code(code: u32, correction: usize) -> Option<ReduceOp> {
        let op = ReduceOp::ALL.into_iter().find(|op| op.code() == code)?;
        Some(match op {
            ReduceOp::Var { .. } => ReduceOp::Var { correction },
            ReduceOp::Std { .. } => ReduceOp::Std { correction },
            op => op,
        })
    }

    /// The op named `name` (`"sum"`), with `correction` for `var`/`std`.
    pub fn from_name(name: &str, correction: usize) -> Option<ReduceOp> {
        let op = ReduceOp::ALL.into_iter().find(|op| op.name() == name)?;
        ReduceOp::from_code(op.code(), correction)
    }

    /// The dtype of the result for an input of `d`.
    pub fn out_dtype(self, d: DType) -> DType {
        match self {
            ReduceOp::Sum | ReduceOp::Prod => d.sum_dtype(),
            ReduceOp::Mean | ReduceOp::Var { .. } | ReduceOp::Std { .. } => d.mean_dtype(),
            ReduceOp::Max | ReduceOp::Min => d,
            ReduceOp::ArgMax | ReduceOp::ArgMin => DType::Int64,
        }
    }

    /// Whether the op returns indices and so reduces at most one dimension.
    pub fn is_arg(self) -> bool {
        matches!(self, ReduceOp::ArgMax | ReduceOp::ArgMin)
    }

    /// Whether the visiting order of the reduced elements does not change the result
    /// (beyond float rounding), so a backend may walk them in memory order.
    pub(crate) fn order_free(self) -> bool {
        !self.is_arg()
    }

    /// Whether an empty reduction has a value (the op's identity) rather than an error.
    pub(crate) fn has_identity(self) -> bool {
        // Var/Std of nothing is NaN, as PyTorch's (the mean of nothing is NaN).
        !matches!(
            self,
            ReduceOp::Max | ReduceOp::Min | ReduceOp::ArgMax | ReduceOp::ArgMin
        )
    }
}

/// A primitive reduction planned once for every backend: which dims are reduced, the
/// result's shape and dtype, and how many elements each result reduces.
#[derive(Debug, Clone)]
pub(crate) struct ReducePlan {
    /// A primitive op (`Var`/`Std` only for [`crate::backend::Backend::moments`]).
    pub(crate) op: ReduceOp,
    /// Per input dim: whether it is reduced.
    pub(crate) reduced: DimVec<bool>,
    /// The result's shape (reduced dims kept with size 1 when `keepdim`).
    pub(crate) out_shape: DimVec<usize>,
    /// The result's dtype.
    pub(crate) out_dtype: DType,
    /// Elements reduced into each result (1 when no dim is reduced).
    pub(crate) count: usize,
}

impl ReducePlan {
    /// Plans `op` over `dims` of `t` (all dims when `None`; negative dims count from the
    /// end; an empty list reduces nothing, as numpy's `axis=()`). A 0-d tensor accepts dim
    /// 0 and -1, as in PyTorch.
    pub(crate) fn new(
        op: ReduceOp,
        t: &Tensor,
        dims: Option<&[isize]>,
        keepdim: bool,
    ) -> Result<ReducePlan> {
        let nd = t.ndim();
        let mut reduced: DimVec<bool> = std::iter::repeat_n(dims.is_none(), nd).collect();
        for &d in dims.unwrap_or(&[]) {
            if nd == 0 {
                normalize_dim(d, 1)?;
                continue;
            }
            let d = normalize_dim(d, nd)?;
            if std::mem::replace(&mut reduced[d], true) {
                return Err(Error::DuplicateDim {
                    dim: d,
                    dims: dims.unwrap_or(&[]).iter().map(|&v| v as i64).collect(),
                });
            }
        }
        let shape = t.shape();
        let out_shape = (0..nd)
            .filter(|&d| keepdim || !reduced[d])
            .map(|d| if reduced[d] { 1 } else { shape[d] })
            .collect();
        let count = (0..nd).filter(|&d| reduced[d]).map(|d| shape[d]).product();
        // An empty reduced dim has no max (mean, …) even when the output is empty too:
        // numpy and PyTorch refuse `max` over dim 0 of a 0×0 matrix.
        if count == 0 && !op.has_identity() {
            return Err(Error::EmptyReduction { op: op.name() });
        }
        Ok(ReducePlan {
            op,
            reduced,
            out_shape,
            out_dtype: op.out_dtype(t.dtype()),
            count,
        })
    }

    /// The kept (`false`) or reduced (`true`) dims of the input, in order.
    pub(crate) fn dims(&self, reduced: bool) -> impl Iterator<Item = usize> + '_ {
        (0..self.reduced.len()).filter(move |&d| self.reduced[d] == reduced)
    }
}

/// `op` over `dims` of `t` (`None`: every dim; negative dims count from the end; an empty
/// list reduces nothing, as numpy's `axis=()`; a 0-d tensor accepts dim 0 and -1), keeping
/// reduced dims with size 1 when `keepdim`. `ArgMax`/`ArgMin` take one dim, or `None` for
/// the index into the flattened tensor.
pub fn reduce(op: ReduceOp, t: &Tensor, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    match op {
        ReduceOp::Var { .. } | ReduceOp::Std { .. } => moments(op, t, dims, keepdim),
        ReduceOp::ArgMax | ReduceOp::ArgMin => match dims {
            None => {
                let r = primitive(op, &t.reshape(&[-1])?, Some(&[0]), false)?;
                if keepdim {
                    let ones: DimVec<isize> = std::iter::repeat_n(1, t.ndim()).collect();
                    r.reshape(&ones)
                } else {
                    Ok(r)
                }
            }
            Some([_]) => primitive(op, t, dims, keepdim),
            Some(ds) => Err(Error::InvalidArgument {
                what: format!(
                    "{} reduces one dim (or all, with none given), got dims {ds:?}",
                    op.name()
                ),
            }),
        },
        _ => primitive(op, t, dims, keepdim),
    }
}

/// A primitive reduction on `t`'s backend.
fn primitive(op: ReduceOp, t: &Tensor, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    let plan = ReducePlan::new(op, t, dims, keepdim)?;
    backend(t.device())?.reduce(&plan, t)
}

/// `Var`/`Std` over `dims`: the backend's fused pass when it has one, else composed.
fn moments(op: ReduceOp, t: &Tensor, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    let plan = ReducePlan::new(op, t, dims, keepdim)?;
    if let Some(r) = backend(t.device())?.moments(&plan, t) {
        return r;
    }
    match op {
        ReduceOp::Var { correction } => var(t, dims, correction, keepdim),
        ReduceOp::Std { correction } => sqrt(&var(t, dims, correction, keepdim)?),
        _ => unreachable!("moments computes var and std only"),
    }
}

/// Variance over `dims` (all when `None`) composed from primitive ops, two-pass for accuracy.
fn var(t: &Tensor, dims: Option<&[isize]>, correction: usize, keepdim: bool) -> Result<Tensor> {
    let x = t.to_dtype(t.dtype().mean_dtype())?;
    let m = reduce(ReduceOp::Mean, &x, dims, true)?;
    let d = sub(&x, &m)?;
    let sq = mul(&d, &d)?;
    let n = ReducePlan::new(ReduceOp::Sum, t, dims, keepdim)?.count;
    let s = reduce(ReduceOp::Sum, &sq, dims, keepdim)?;
    let denom = n.saturating_sub(correction) as f64;
    binary_scalar(BinaryOp::Div, &s, Scalar::Float(denom))?.to_dtype(x.dtype())
}

macro_rules! reductions {
    ($($all:ident, $dims:ident => $op:ident;)*) => {
        $(
            #[doc = concat!("[`ReduceOp::", stringify!($op), "`] of all elements, as a 0-dimensional tensor.")]
            pub fn $all(t: &Tensor) -> Result<Tensor> {
                reduce(ReduceOp::$op, t, None, false)
            }

            #[doc = concat!("[`ReduceOp::", stringify!($op), "`] over `dims` (negative counts from the end; an empty list reduces nothing, as numpy's `axis=()`); `keepdim` keeps reduced dimensions with size 1.")]
            pub fn $dims(t: &Tensor, dims: &[isize], keepdim: bool) -> Result<Tensor> {
                reduce(ReduceOp::$op, t, Some(dims), keepdim)
            }
        )*
    };
}

reductions! {
    sum, sum_dims => Sum;
    mean, mean_dims => Mean;
    prod, prod_dims => Prod;
    max, max_dims => Max;
    min, min_dims => Min;
}

/// Index of the (first) maximum over the flattened tensor, as a 0-d `Int64` tensor.
pub fn argmax(t: &Tensor) -> Result<Tensor> {
    reduce(ReduceOp::ArgMax, t, None, false)
}

/// Index of the (first) minimum over the flattened tensor, as a 0-d `Int64` tensor.
pub fn argmin(t: &Tensor) -> Result<Tensor> {
    reduce(ReduceOp::ArgMin, t, None, false)
}

/// Indices of the (first) maxima along `dim`.
pub fn argmax_dim(t: &Tensor, dim: isize, keepdim: bool) -> Result<Tensor> {
    reduce(ReduceOp::ArgMax, t, Some(&[dim]), keepdim)
}

/// Indices of the (first) minima along `dim`.
pub fn argmin_dim(t: &Tensor, dim: isize, keepdim: bool) -> Result<Tensor> {
    reduce(ReduceOp::ArgMin, t, Some(&[dim]), keepdim)
}

/// Variance over `dims`; see [`ReduceOp::Var`].
pub fn var_dims(t: &Tensor, dims: &[isize], correction: usize, keepdim: bool) -> Result<Tensor> {
    reduce(ReduceOp::Var { correction }, t, Some(dims), keepdim)
}

/// Standard deviation over `dims`; see [`ReduceOp::Std`].
pub fn std_dims(t: &Tensor, dims: &[isize], correction: usize, keepdim: bool) -> Result<Tensor> {
    reduce(ReduceOp::Std { correction }, t, Some(dims), keepdim)
}

/// The backend's fused softmax of the float tensor `x`, if it has one (0-d tensors and
/// the rest are composed from primitive ops).
fn fused_softmax(x: &Tensor, dim: isize, log: bool) -> Result<Option<Result<Tensor>>> {
    if x.ndim() == 0 {
        return Ok(None);
    }
    let d = normalize_dim(dim, x.ndim())?;
    Ok(backend(x.device())?.softmax(x, d, log))
}

/// `exp(x - max) / sum(exp(x - max))` along `dim` (stable).
pub fn softmax(t: &Tensor, dim: isize) -> Result<Tensor> {
    let x = t.to_dtype(float_type(t.dtype()))?;
    if let Some(fused) = fused_softmax(&x, dim, false)? {
        return fused;
    }
    let m = max_dims(&x, &[dim], true)?;
    let e = exp(&sub(&x, &m)?)?;
    let s = sum_dims(&e, &[dim], true)?;
    binary_owned(BinaryOp::Div, e, &s)
}

/// `x - max - log(sum(exp(x - max)))` along `dim` (stable).
pub fn log_softmax(t: &Tensor, dim: isize) -> Result<Tensor> {
    let x = t.to_dtype(float_type(t.dtype()))?;
    if let Some(fused) = fused_softmax(&x, dim, true)? {
        return fused;
    }
    let m = max_dims(&x, &[dim], true)?;
    let shifted = sub(&x, &m)?;
    let s = sum_dims(&exp(&shifted)?, &[dim], true)?;
    binary_owned(BinaryOp::Sub, shifted, &log(&s)?)
}
