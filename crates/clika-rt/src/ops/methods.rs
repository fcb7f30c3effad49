//! `Tensor` methods and `std::ops` operators that forward to the free functions.

use std::ops;

use super::{BinaryOp, Scalar, UnaryOp};
use crate::{Result, Tensor};

macro_rules! forward {
    ($($(#[$m:meta])* fn $name:ident(&self $(, $arg:ident: $t:ty)*) => $path:path;)*) => {
        impl Tensor {
            $(
                $(#[$m])*
                #[doc = concat!("See [`ops::", stringify!($name), "`](crate::ops).")]
                pub fn $name(&self $(, $arg: $t)*) -> Result<Tensor> {
                    $path(self $(, $arg)*)
                }
            )*
        }
    };
}

forward! {
    fn sum(&self) => super::sum;
    fn mean(&self) => super::mean;
    fn prod(&self) => super::prod;
    fn max(&self) => super::max;
    fn min(&self) => super::min;
    fn argmax(&self) => super::argmax;
    fn argmin(&self) => super::argmin;
    fn sum_dims(&self, dims: &[isize], keepdim: bool) => super::sum_dims;
    fn mean_dims(&self, dims: &[isize], keepdim: bool) => super::mean_dims;
    fn prod_dims(&self, dims: &[isize], keepdim: bool) => super::prod_dims;
    fn max_dims(&self, dims: &[isize], keepdim: bool) => super::max_dims;
    fn min_dims(&self, dims: &[isize], keepdim: bool) => super::min_dims;
    fn argmax_dim(&self, dim: isize, keepdim: bool) => super::argmax_dim;
    fn argmin_dim(&self, dim: isize, keepdim: bool) => super::argmin_dim;
    fn var_dims(&self, dims: &[isize], correction: usize, keepdim: bool) => super::var_dims;
    fn std_dims(&self, dims: &[isize], correction: usize, keepdim: bool) => super::std_dims;
    fn softmax(&self, dim: isize) => super::softmax;
    fn log_softmax(&self, dim: isize) => super::log_softmax;
    fn matmul(&self, other: &Tensor) => super::matmul;
    fn maximum(&self, other: &Tensor) => super::maximum;
    fn minimum(&self, other: &Tensor) => super::minimum;
    fn pow(&self, other: &Tensor) => super::pow;
    fn eq(&self, other: &Tensor) => super::eq;
    fn ne(&self, other: &Tensor) => super::ne;
    fn lt(&self, other: &Tensor) => super::lt;
    fn le(&self, other: &Tensor) => super::le;
    fn gt(&self, other: &Tensor) => super::gt;
    fn ge(&self, other: &Tensor) => super::ge;
}

impl Tensor {
    /// `op(self)`; see [`ops::unary`](crate::ops::unary).
    pub fn unary(&self, op: UnaryOp) -> Result<Tensor> {
        super::unary(op, self)
    }

    /// `op(self, other)`; see [`ops::binary`](crate::ops::binary).
    pub fn binary(&self, op: BinaryOp, other: &Tensor) -> Result<Tensor> {
        super::binary(op, self, other)
    }

    /// `op(self, s)` with a weak scalar; see [`ops::binary_scalar`](crate::ops::binary_scalar).
    pub fn binary_scalar(&self, op: BinaryOp, s: impl Into<Scalar>) -> Result<Tensor> {
        super::binary_scalar(op, self, s.into())
    }

    /// Limits every element to `[min, max]`; see [`ops::clamp`](crate::ops::clamp).
    pub fn clamp(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
        super::clamp(self, min, max)
    }
}

/// Operators on references allocate a result; `Tensor op &Tensor` may reuse the left
/// operand's memory (see [`ops::binary_owned`](crate::ops::binary_owned)). They panic on
/// error (shape mismatch, unsupported dtype), like indexing: use the `try_*` forms or the
/// named functions to handle errors. Scalar operands and `+=` are in `arith.rs`.
macro_rules! operator {
    ($tr:ident, $method:ident, $op:ident) => {
        impl ops::$tr<&Tensor> for &Tensor {
            type Output = Tensor;
            fn $method(self, rhs: &Tensor) -> Tensor {
                super::binary(BinaryOp::$op, self, rhs).unwrap_or_else(|e| panic!("{e}"))
            }
        }
        impl ops::$tr<&Tensor> for Tensor {
            type Output = Tensor;
            fn $method(self, rhs: &Tensor) -> Tensor {
                super::binary_owned(BinaryOp::$op, self, rhs).unwrap_or_else(|e| panic!("{e}"))
            }
        }
    };
}

operator!(Add, add, Add);
operator!(Sub, sub, Sub);
operator!(Mul, mul, Mul);
operator!(Div, div, Div);

impl ops::Neg for &Tensor {
    type Output = Tensor;
    fn neg(self) -> Tensor {
        super::neg(self).unwrap_or_else(|e| panic!("{e}"))
    }
}
