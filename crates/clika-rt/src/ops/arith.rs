//! Rust operator conventions: `+ - * /` between tensors (owned or borrowed) and with a
//! scalar of any numeric type on either side, the compound assignments `+= -= *= /=`, their
//! fallible forms (`try_add`, `try_add_assign`, …), and value comparison (`equal`,
//! `allclose`).
//!
//! # Panics
//! The operators panic with the error's message when the operation fails (shapes that do not
//! broadcast, a dtype the operation does not take, tensors on different devices, an
//! allocation the pool cannot satisfy), as slice indexing panics: call the `try_*` form to
//! get the [`Error`](crate::Error) instead.
//!
//! `Tensor` has no `PartialEq`: `==` would have to pick between element-wise comparison (a
//! tensor, [`Tensor::eq`]), exact equality ([`Tensor::equal`]) and tolerance
//! ([`Tensor::allclose`]), and float NaNs make exact equality not an equivalence relation.

use std::ops;

use half::{bf16, f16};

use super::{binary_operands, BinaryOp, Operand, Scalar};
use crate::{DType, Result, Tensor};

macro_rules! scalar_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Scalar {
            fn from(v: $t) -> Self {
                Scalar::$v(v.into())
            }
        }
    )*};
}

scalar_from!(i8 => Int, i16 => Int, u8 => Int, u16 => Int, u32 => Int, f16 => Float, bf16 => Float);

macro_rules! operand_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Operand<'static> {
            fn from(v: $t) -> Self {
                Operand::Scalar(v.into())
            }
        }
    )*};
}

operand_from!(f32, f64, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64, bool);

impl Tensor {
    /// `self op rhs`; `rhs` is a tensor or a weak scalar (see [`ops::binary_operands`]).
    ///
    /// [`ops::binary_operands`]: crate::ops::binary_operands
    fn try_op<'a>(&self, op: BinaryOp, rhs: impl Into<Operand<'a>>) -> Result<Tensor> {
        binary_operands(op, &Operand::from(self), &rhs.into())
    }

    /// `self + rhs` (`rhs`: a `&Tensor` or a number), returning the error `+` panics with.
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let a = Tensor::from(vec![1.0f32, 2.0]);
    /// assert_eq!(a.try_add(&a)?.to_vec::<f32>()?, [2.0, 4.0]);
    /// assert_eq!(a.try_add(1u8)?.to_vec::<f32>()?, [2.0, 3.0]);
    /// assert!(a.try_add(&Tensor::from(vec![1.0f32, 2.0, 3.0])).is_err());
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn try_add<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Tensor> {
        self.try_op(BinaryOp::Add, rhs)
    }

    /// `self - rhs`, returning the error `-` panics with.
    pub fn try_sub<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Tensor> {
        self.try_op(BinaryOp::Sub, rhs)
    }

    /// `self * rhs`, returning the error `*` panics with.
    pub fn try_mul<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Tensor> {
        self.try_op(BinaryOp::Mul, rhs)
    }

    /// `self / rhs` (true division), returning the error `/` panics with.
    pub fn try_div<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<Tensor> {
        self.try_op(BinaryOp::Div, rhs)
    }

    /// `-self`, returning the error unary `-` panics with.
    pub fn try_neg(&self) -> Result<Tensor> {
        super::neg(self)
    }

    /// `self op= rhs`: the result keeps this tensor's dtype and shape (`rhs` must broadcast
    /// to it), as numpy's and PyTorch's in-place operators do. When this tensor is the only
    /// reference to writable memory the result is written in place; otherwise (a view or
    /// clone shares the storage, or the memory is read-only) `self` is rebound to a new
    /// tensor, so other views never see the change.
    fn try_op_assign<'a>(&mut self, op: BinaryOp, rhs: impl Into<Operand<'a>>) -> Result<()> {
        let rhs = rhs.into();
        if self.is_exclusive() {
            let rhs = rhs.to_tensor_for(self.dtype())?;
            return self.binary_(op, &rhs);
        }
        let r = binary_operands(op, &Operand::from(&*self), &rhs)?;
        if r.shape() != self.shape() {
            return Err(crate::Error::ShapeMismatch {
                op: op.name(),
                expected: crate::error::dims_i64(self.shape()),
                got: crate::error::dims_i64(r.shape()),
            });
        }
        // The same casting rule as the in-place path: `int += float` is refused either way.
        super::elementwise_more::check_in_place(op, r.dtype(), self.dtype())?;
        *self = if r.dtype() == self.dtype() {
            r
        } else {
            r.to_dtype(self.dtype())?
        };
        Ok(())
    }

    /// `self += rhs`, returning the error `+=` panics with (see the module docs for when it
    /// writes in place).
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let mut a = Tensor::from(vec![1i32, 2]);
    /// a.try_add_assign(2)?; // the result keeps Int32
    /// assert_eq!(a.to_vec::<i32>()?, [3, 4]);
    /// assert!(a.try_add_assign(2.7).is_err()); // a float cannot be stored back (numpy, PyTorch)
    /// let alias = a.clone();
    /// a += 10;
    /// assert_eq!(a.to_vec::<i32>()?, [13, 14]);
    /// assert_eq!(alias.to_vec::<i32>()?, [3, 4]); // shared storage is never written
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn try_add_assign<'a>(&mut self, rhs: impl Into<Operand<'a>>) -> Result<()> {
        self.try_op_assign(BinaryOp::Add, rhs)
    }

    /// `self -= rhs`, returning the error `-=` panics with.
    pub fn try_sub_assign<'a>(&mut self, rhs: impl Into<Operand<'a>>) -> Result<()> {
        self.try_op_assign(BinaryOp::Sub, rhs)
    }

    /// `self *= rhs`, returning the error `*=` panics with.
    pub fn try_mul_assign<'a>(&mut self, rhs: impl Into<Operand<'a>>) -> Result<()> {
        self.try_op_assign(BinaryOp::Mul, rhs)
    }

    /// `self /= rhs`, returning the error `/=` panics with.
    pub fn try_div_assign<'a>(&mut self, rhs: impl Into<Operand<'a>>) -> Result<()> {
        self.try_op_assign(BinaryOp::Div, rhs)
    }

    /// Whether both tensors have the same shape and equal elements (compared after type
    /// promotion, so `Int32` 1 equals `Float32` 1.0; NaN equals nothing, like `==`). Fails
    /// only when the tensors cannot be compared (different devices, a failed allocation).
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let a = Tensor::from(vec![1.0f32, 2.0]);
    /// assert!(a.equal(&Tensor::from(vec![1i32, 2]))?);
    /// assert!(!a.equal(&Tensor::from(vec![1.0f32, 2.5]))?);
    /// assert!(!a.equal(&a.reshape(&[2, 1])?)?); // shapes differ
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn equal(&self, other: &Tensor) -> Result<bool> {
        if self.shape() != other.shape() {
            return Ok(false);
        }
        all_true(&super::eq(self, other)?)
    }

    /// numpy's `allclose`: every pair (after broadcasting) satisfies
    /// `|a - b| <= atol + rtol * |b|` in `Float64`, or is equal (infinities of the same
    /// sign); NaN is close to nothing. Fails when the shapes do not broadcast.
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let a = Tensor::from(vec![1.0f32, 2.0]);
    /// assert!(a.allclose(&Tensor::from(vec![1.0f64 + 1e-9, 2.0]), 1e-5, 1e-8)?);
    /// assert!(!a.allclose(&Tensor::from(vec![1.1f32, 2.0]), 1e-5, 1e-8)?);
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn allclose(&self, other: &Tensor, rtol: f64, atol: f64) -> Result<bool> {
        let host =
            |t: &Tensor| -> Result<Tensor> { t.to(crate::Device::cpu())?.to_dtype(DType::Float64) };
        let (a, b) = (host(self)?, host(other)?);
        let diff = super::abs(&super::sub(&a, &b)?)?;
        let abs_b = super::abs(&b)?;
        let tol = (&abs_b * rtol).try_add(atol)?;
        let within = super::le(&diff, &tol)?;
        let finite_b = abs_b.try_op(BinaryOp::Le, f64::MAX)?;
        let close = (&within * &finite_b).try_add(&super::eq(&a, &b)?)?;
        all_true(&close)
    }
}

fn all_true(t: &Tensor) -> Result<bool> {
    let t = if t.dtype() == DType::Bool {
        t.clone()
    } else {
        t.to_dtype(DType::Bool)?
    };
    Ok(t.iter::<bool>()?.all(|b| b))
}

fn unwrap(r: Result<Tensor>) -> Tensor {
    r.unwrap_or_else(|e| panic!("{e}"))
}

fn unwrap_unit(r: Result<()>) {
    r.unwrap_or_else(|e| panic!("{e}"))
}

macro_rules! tensor_operators {
    ($tr:ident, $method:ident, $op:ident, $atr:ident, $amethod:ident) => {
        impl ops::$tr<Tensor> for Tensor {
            type Output = Tensor;
            fn $method(self, rhs: Tensor) -> Tensor {
                unwrap(super::binary_owned(BinaryOp::$op, self, &rhs))
            }
        }
        impl ops::$tr<Tensor> for &Tensor {
            type Output = Tensor;
            fn $method(self, rhs: Tensor) -> Tensor {
                unwrap(super::binary(BinaryOp::$op, self, &rhs))
            }
        }
        impl ops::$atr<&Tensor> for Tensor {
            fn $amethod(&mut self, rhs: &Tensor) {
                unwrap_unit(self.try_op_assign(BinaryOp::$op, rhs))
            }
        }
        impl ops::$atr<Tensor> for Tensor {
            fn $amethod(&mut self, rhs: Tensor) {
                unwrap_unit(self.try_op_assign(BinaryOp::$op, rhs))
            }
        }
    };
}

tensor_operators!(Add, add, Add, AddAssign, add_assign);
tensor_operators!(Sub, sub, Sub, SubAssign, sub_assign);
tensor_operators!(Mul, mul, Mul, MulAssign, mul_assign);
tensor_operators!(Div, div, Div, DivAssign, div_assign);

macro_rules! scalar_operators {
    ($t:ty; $(($tr:ident, $method:ident, $op:ident, $atr:ident, $amethod:ident)),*) => {$(
        impl ops::$tr<$t> for &Tensor {
            type Output = Tensor;
            fn $method(self, rhs: $t) -> Tensor {
                unwrap(super::binary_scalar(BinaryOp::$op, self, rhs.into()))
            }
        }
        impl ops::$tr<$t> for Tensor {
            type Output = Tensor;
            fn $method(self, rhs: $t) -> Tensor {
                unwrap(super::binary_scalar(BinaryOp::$op, &self, rhs.into()))
            }
        }
        impl ops::$tr<&Tensor> for $t {
            type Output = Tensor;
            fn $method(self, rhs: &Tensor) -> Tensor {
                unwrap(super::scalar_binary(BinaryOp::$op, self.into(), rhs))
            }
        }
        impl ops::$tr<Tensor> for $t {
            type Output = Tensor;
            fn $method(self, rhs: Tensor) -> Tensor {
                unwrap(super::scalar_binary(BinaryOp::$op, self.into(), &rhs))
            }
        }
        impl ops::$atr<$t> for Tensor {
            fn $amethod(&mut self, rhs: $t) {
                unwrap_unit(self.try_op_assign(BinaryOp::$op, rhs))
            }
        }
    )*};
}

macro_rules! numeric_operators {
    ($($t:ty),*) => {$(
        scalar_operators!($t;
            (Add, add, Add, AddAssign, add_assign),
            (Sub, sub, Sub, SubAssign, sub_assign),
            (Mul, mul, Mul, MulAssign, mul_assign),
            (Div, div, Div, DivAssign, div_assign));
    )*};
}

numeric_operators!(f32, f64, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64);

impl ops::Neg for Tensor {
    type Output = Tensor;
    fn neg(self) -> Tensor {
        unwrap(super::unary_owned(super::UnaryOp::Neg, self))
    }
}
