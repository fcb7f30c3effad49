//! `clika_runtime.Tensor`'s newer elementwise methods and the integer operators (issue 14):
//! `// % & | ^ << >> ~` with their reflected and in-place forms, rounding, the predicates,
//! the extra transcendental functions, `tril`/`triu`, and the in-place `sub_ mul_ div_
//! clamp_ zero_` beside `add_ fill_ copy_`. A further `#[pymethods]` block of the class in `tensor.rs`.

use clika_rt::ops::{self, BinaryOp, UnaryOp};
use pyo3::prelude::*;

use crate::error::IntoPyResult;
use crate::ops as o;
use crate::tensor::PyTensor;

#[pymethods]
impl PyTensor {
    fn __floordiv__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::FloorDivide, false)
    }
    fn __rfloordiv__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::FloorDivide, true)
    }
    fn __ifloordiv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::FloorDivide, other)
    }
    fn __mod__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Remainder, false)
    }
    fn __rmod__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Remainder, true)
    }
    fn __imod__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::Remainder, other)
    }
    fn __and__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseAnd, false)
    }
    fn __rand__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseAnd, true)
    }
    fn __iand__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::BitwiseAnd, other)
    }
    fn __or__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseOr, false)
    }
    fn __ror__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseOr, true)
    }
    fn __ior__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::BitwiseOr, other)
    }
    fn __xor__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseXor, false)
    }
    fn __rxor__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseXor, true)
    }
    fn __ixor__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::BitwiseXor, other)
    }
    fn __lshift__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseLeftShift, false)
    }
    fn __rlshift__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseLeftShift, true)
    }
    fn __ilshift__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::BitwiseLeftShift, other)
    }
    fn __rshift__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseRightShift, false)
    }
    fn __rrshift__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::BitwiseRightShift, true)
    }
    fn __irshift__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::BitwiseRightShift, other)
    }
    fn __invert__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::BitwiseNot)
    }

    /// `round(t)`: halves to even, keeping the dtype (`ndigits` as `decimals`).
    #[pyo3(signature = (ndigits=None))]
    fn __round__(&self, py: Python<'_>, ndigits: Option<i32>) -> PyResult<PyTensor> {
        self.round(py, ndigits.unwrap_or(0))
    }

    /// Rounds to `decimals` decimal places, halves to even (as numpy and PyTorch).
    #[pyo3(signature = (decimals=0))]
    fn round(&self, py: Python<'_>, decimals: i32) -> PyResult<PyTensor> {
        let t = &self.inner;
        let inner = o::run(py, t.numel(), || ops::round_decimals(t, decimals))?;
        Ok(PyTensor { inner })
    }

    /// The lower triangle of the last two dims (`col - row <= diagonal` kept).
    #[pyo3(signature = (diagonal=0))]
    fn tril(&self, py: Python<'_>, diagonal: i64) -> PyResult<PyTensor> {
        let t = &self.inner;
        let inner = o::run(py, t.numel(), || ops::tril(t, diagonal))?;
        Ok(PyTensor { inner })
    }

    /// The upper triangle of the last two dims (`col - row >= diagonal` kept).
    #[pyo3(signature = (diagonal=0))]
    fn triu(&self, py: Python<'_>, diagonal: i64) -> PyResult<PyTensor> {
        let t = &self.inner;
        let inner = o::run(py, t.numel(), || ops::triu(t, diagonal))?;
        Ok(PyTensor { inner })
    }
    fn floor(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Floor)
    }
    fn ceil(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Ceil)
    }
    fn trunc(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Trunc)
    }
    fn sign(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Sign)
    }
    fn isnan(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::IsNan)
    }
    fn isinf(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::IsInf)
    }
    fn isfinite(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::IsFinite)
    }
    fn log1p(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Log1p)
    }
    fn expm1(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Expm1)
    }
    fn log2(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Log2)
    }
    fn log10(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Log10)
    }
    fn exp2(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Exp2)
    }
    fn tan(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Tan)
    }
    fn atan(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Atan)
    }
    fn asin(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Asin)
    }
    fn acos(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Acos)
    }
    fn sinh(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Sinh)
    }
    fn cosh(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Cosh)
    }
    fn bitwise_not(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::BitwiseNot)
    }
    fn logical_not(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::LogicalNot)
    }
    fn atan2(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Atan2, other)
    }
    fn hypot(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Hypot, other)
    }
    fn fmod(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Fmod, other)
    }
    fn remainder(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Remainder, other)
    }
    fn floor_divide(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::FloorDivide, other)
    }
    fn bitwise_and(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::BitwiseAnd, other)
    }
    fn bitwise_or(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::BitwiseOr, other)
    }
    fn bitwise_xor(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::BitwiseXor, other)
    }
    fn bitwise_left_shift(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::BitwiseLeftShift, other)
    }
    fn bitwise_right_shift(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::BitwiseRightShift, other)
    }
    fn logical_and(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::LogicalAnd, other)
    }
    fn logical_or(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::LogicalOr, other)
    }
    fn logical_xor(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::LogicalXor, other)
    }
    /// `self -= other` in place; returns `self`.
    fn sub_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Sub, other)?;
        Ok(slf.clone())
    }
    /// `self *= other` in place; returns `self`.
    fn mul_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Mul, other)?;
        Ok(slf.clone())
    }
    /// `self /= other` in place; returns `self`.
    fn div_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Div, other)?;
        Ok(slf.clone())
    }
    /// Sets every element to zero; returns `self`.
    fn zero_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().inner;
        // SAFETY: as for `binary_inplace`: the numpy/PyTorch contract for in-place writes.
        o::run(slf.py(), t.numel(), || unsafe { t.fill_shared(0.0) })?;
        Ok(slf.clone())
    }

    /// Limits every element to `[min, max]` in place (numbers or tensors; either optional);
    /// returns `self`. A float bound on an integer tensor raises, as `int_tensor += 1.5`
    /// does.
    #[pyo3(signature = (min=None, max=None))]
    fn clamp_<'py>(
        slf: &Bound<'py, Self>,
        min: Option<&Bound<'py, PyAny>>,
        max: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().inner;
        let r = o::clamp(slf.py(), t, min, max)?;
        ops::check_in_place(BinaryOp::Maximum, r.dtype(), t.dtype()).py()?;
        // SAFETY: as for `zero_`; `r` is fresh.
        o::run(slf.py(), t.numel(), || unsafe { t.copy_shared(&r) })?;
        Ok(slf.clone())
    }

    // ---- in place ---------------------------------------------------------------------------

    /// `self += other` in place; returns `self`.
    fn add_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Add, other)?;
        Ok(slf.clone())
    }

    /// Sets every element to `value`; returns `self`.
    fn fill_<'py>(slf: &Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::fill_inplace(slf.py(), &slf.get().inner, value)?;
        Ok(slf.clone())
    }

    /// Copies `src` (broadcast to this shape, converted to this dtype) in; returns `self`.
    fn copy_<'py>(slf: &Bound<'py, Self>, src: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::copy_inplace(slf.py(), &slf.get().inner, src)?;
        Ok(slf.clone())
    }
}
