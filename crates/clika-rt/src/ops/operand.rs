//! Operands that are either a tensor or a weak scalar (a Python or C number), and the ops
//! that take them: the rules every binding shares, so C, C++ and Python agree.
//!
//! A weak scalar takes the dtype of the tensor it meets unless it crosses a category (see
//! [`scalar_result_type`](super::scalar_result_type)); two scalars meet as their default
//! dtypes ([`Scalar::default_dtype`]).

use std::borrow::Cow;

use super::binary::{binary, binary_scalar, scalar_binary, BinaryOp};
use super::promote::Scalar;
use super::select::where_;
use crate::{Result, Tensor};

/// A tensor or a weak scalar.
#[derive(Debug, Clone)]
pub enum Operand<'a> {
    /// A tensor (borrowed, or owned when the binding made it).
    Tensor(Cow<'a, Tensor>),
    /// A weak scalar.
    Scalar(Scalar),
}

impl Operand<'_> {
    /// Elements the operand holds (1 for a scalar).
    #[inline]
    pub fn numel(&self) -> usize {
        match self {
            Operand::Tensor(t) => t.numel(),
            Operand::Scalar(_) => 1,
        }
    }

    /// The operand as a tensor to combine with a tensor of `dtype`: a tensor as it is, a
    /// scalar in the dtype it promotes to.
    pub fn to_tensor_for(&self, dtype: crate::DType) -> Result<Tensor> {
        match self {
            Operand::Tensor(t) => Ok(t.as_ref().clone()),
            Operand::Scalar(s) => s.to_tensor_for(dtype),
        }
    }

    /// The operand as a tensor on its own (a scalar in its default dtype).
    pub fn to_tensor(&self) -> Result<Tensor> {
        match self {
            Operand::Tensor(t) => Ok(t.as_ref().clone()),
            Operand::Scalar(s) => s.to_tensor(s.default_dtype()),
        }
    }
}

impl<'a> From<&'a Tensor> for Operand<'a> {
    fn from(t: &'a Tensor) -> Self {
        Operand::Tensor(Cow::Borrowed(t))
    }
}

impl From<Tensor> for Operand<'static> {
    fn from(t: Tensor) -> Self {
        Operand::Tensor(Cow::Owned(t))
    }
}

impl From<Scalar> for Operand<'static> {
    fn from(s: Scalar) -> Self {
        Operand::Scalar(s)
    }
}

/// `a` and `b` as tensors to combine: scalars take the dtype they promote to against the
/// other operand (or their defaults when both are scalars).
fn tensors(a: &Operand<'_>, b: &Operand<'_>) -> Result<(Tensor, Tensor)> {
    match (a, b) {
        (Operand::Tensor(x), _) => Ok((x.as_ref().clone(), b.to_tensor_for(x.dtype())?)),
        (_, Operand::Tensor(y)) => Ok((a.to_tensor_for(y.dtype())?, y.as_ref().clone())),
        (Operand::Scalar(_), Operand::Scalar(_)) => {
            let x = a.to_tensor()?;
            let y = b.to_tensor_for(x.dtype())?;
            Ok((x, y))
        }
    }
}

/// `op(a, b)` for any mix of tensors and weak scalars.
pub fn binary_operands(op: BinaryOp, a: &Operand<'_>, b: &Operand<'_>) -> Result<Tensor> {
    match (a, b) {
        (Operand::Tensor(x), Operand::Tensor(y)) => binary(op, x, y),
        (Operand::Tensor(x), Operand::Scalar(s)) => binary_scalar(op, x, *s),
        (Operand::Scalar(s), Operand::Tensor(y)) => scalar_binary(op, *s, y),
        (Operand::Scalar(s), Operand::Scalar(t)) => {
            binary_scalar(op, &s.to_tensor(s.default_dtype())?, *t)
        }
    }
}

/// `cond ? a : b` where either branch may be a weak scalar.
pub fn where_operands(cond: &Tensor, a: Operand<'_>, b: Operand<'_>) -> Result<Tensor> {
    let (a, b) = tensors(&a, &b)?;
    where_(cond, &a, &b)
}

/// Limits `t` to `[min, max]` elementwise; each bound is optional and may be a weak scalar
/// or a tensor broadcast against `t`. NaN stays NaN.
pub fn clamp_operands(
    t: &Tensor,
    min: Option<Operand<'_>>,
    max: Option<Operand<'_>>,
) -> Result<Tensor> {
    let scalar = |o: &Option<Operand<'_>>| match o {
        Some(Operand::Scalar(s)) => Some(*s),
        _ => None,
    };
    let mut r = super::select::clamp(t, scalar(&min), scalar(&max))?;
    if let Some(Operand::Tensor(m)) = &min {
        r = super::binary::binary_owned(BinaryOp::Maximum, r, m)?;
    }
    if let Some(Operand::Tensor(m)) = &max {
        r = super::binary::binary_owned(BinaryOp::Minimum, r, m)?;
    }
    Ok(r)
}
