//! Reductions composed of primitive ops (so they run wherever those do): `any`, `all`,
//! `logsumexp` and `norm` (a backend may fuse `logsumexp` and the 1- and 2-norms).

use super::binary::{binary, binary_scalar, mul, sub};
use super::promote::{float_type, Scalar};
use super::reduce::{reduce, ReduceOp, ReducePlan};
use super::select::where_;
use super::unary::{abs, exp, log, sqrt};
use super::BinaryOp;
use crate::backend::backend;
use crate::{Result, Tensor};

/// Whether any element over `dims` (all when `None`) is non-zero (NaN counts as non-zero),
/// as `Bool`; over no elements, `false`.
pub fn any(t: &Tensor, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    let nonzero = binary_scalar(BinaryOp::Ne, t, Scalar::Int(0))?;
    let count = reduce(ReduceOp::Sum, &nonzero, dims, keepdim)?;
    binary_scalar(BinaryOp::Gt, &count, Scalar::Int(0))
}

/// Whether every element over `dims` (all when `None`) is non-zero, as `Bool`; over no
/// elements, `true`.
pub fn all(t: &Tensor, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    let zero = binary_scalar(BinaryOp::Eq, t, Scalar::Int(0))?;
    let count = reduce(ReduceOp::Sum, &zero, dims, keepdim)?;
    binary_scalar(BinaryOp::Eq, &count, Scalar::Int(0))
}

/// `log(sum(exp(t)))` over `dims` (all when `None`), computed stably by subtracting the
/// maximum (an infinite maximum is not subtracted, so `+inf` gives `+inf` and all `-inf`
/// gives `-inf`; no elements give `-inf`). Integer inputs give float results.
pub fn logsumexp(t: &Tensor, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    let x = t.to_dtype(float_type(t.dtype()))?;
    let plan = ReducePlan::new(ReduceOp::Sum, &x, dims, keepdim)?;
    if plan.count == 0 {
        return log(&reduce(ReduceOp::Sum, &exp(&x)?, dims, keepdim)?);
    }
    if let Some(r) = backend(x.device())?.logsumexp(&plan, &x) {
        return r;
    }
    let m = reduce(ReduceOp::Max, &x, dims, true)?;
    let finite = binary_scalar(BinaryOp::Eq, &sub(&m, &m)?, Scalar::Float(0.0))?;
    let zero = Tensor::zeros(&[], m.dtype())?.to(m.device())?;
    let shift = where_(&finite, &m, &zero)?;
    let s = reduce(ReduceOp::Sum, &exp(&sub(&x, &shift)?)?, dims, true)?;
    let r = binary(BinaryOp::Add, &log(&s)?, &shift)?;
    let shape: Vec<isize> = plan.out_shape.iter().map(|&s| s as isize).collect();
    r.reshape(&shape)
}

/// The vector `p`-norm over `dims` (all when `None`): `p = 2` (also the Frobenius norm of a
/// matrix), `1`, `f64::INFINITY` (largest magnitude), `f64::NEG_INFINITY` (smallest), `0`
/// (the count of non-zeros) or any other `p` (`sum(|x|^p)^(1/p)`). Integer inputs give float
/// results (PyTorch refuses them).
pub fn norm(t: &Tensor, p: f64, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
    let x = t.to_dtype(float_type(t.dtype()))?;
    let plan = ReducePlan::new(ReduceOp::Sum, &x, dims, keepdim)?;
    if let Some(r) = backend(x.device())?.vector_norm(&plan, p, &x) {
        return r;
    }
    if p == 2.0 {
        return sqrt(&reduce(ReduceOp::Sum, &mul(&x, &x)?, dims, keepdim)?);
    }
    if p == 0.0 {
        let nz = binary_scalar(BinaryOp::Ne, &x, Scalar::Float(0.0))?;
        return reduce(ReduceOp::Sum, &nz, dims, keepdim)?.to_dtype(x.dtype());
    }
    let a = abs(&x)?;
    if p == f64::INFINITY {
        return reduce(ReduceOp::Max, &a, dims, keepdim);
    }
    if p == f64::NEG_INFINITY {
        return reduce(ReduceOp::Min, &a, dims, keepdim);
    }
    if p == 1.0 {
        return reduce(ReduceOp::Sum, &a, dims, keepdim);
    }
    let powered = binary_scalar(BinaryOp::Pow, &a, Scalar::Float(p))?;
    let s = reduce(ReduceOp::Sum, &powered, dims, keepdim)?;
    binary_scalar(BinaryOp::Pow, &s, Scalar::Float(1.0 / p))
}
