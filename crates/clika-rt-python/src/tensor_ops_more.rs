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

    #[doc = include_str!("../pydoc/Tensor.round.md")]
    #[pyo3(signature = (decimals=0))]
    fn round(&self, py: Python<'_>, decimals: i32) -> PyResult<PyTensor> {
        let t = &self.inner;
        let inner = o::run(py, t.numel(), || ops::round_decimals(t, decimals))?;
        Ok(PyTensor { inner })
    }

    #[doc = include_str!("../pydoc/Tensor.tril.md")]
    #[pyo3(signature = (diagonal=0))]
    fn tril(&self, py: Python<'_>, diagonal: i64) -> PyResult<PyTensor> {
        let t = &self.inner;
        let inner = o::run(py, t.numel(), || ops::tril(t, diagonal))?;
        Ok(PyTensor { inner })
    }

    #[doc = include_str!("../pydoc/Tensor.triu.md")]
    #[pyo3(signature = (diagonal=0))]
    fn triu(&self, py: Python<'_>, diagonal: i64) -> PyResult<PyTensor> {
        let t = &self.inner;
        let inner = o::run(py, t.numel(), || ops::triu(t, diagonal))?;
        Ok(PyTensor { inner })
    }
    #[doc = include_str!("../pydoc/Tensor.sub_.md")]
    fn sub_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Sub, other)?;
        Ok(slf.clone())
    }
    #[doc = include_str!("../pydoc/Tensor.mul_.md")]
    fn mul_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Mul, other)?;
        Ok(slf.clone())
    }
    #[doc = include_str!("../pydoc/Tensor.div_.md")]
    fn div_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Div, other)?;
        Ok(slf.clone())
    }
    #[doc = include_str!("../pydoc/Tensor.zero_.md")]
    fn zero_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().inner;
        // SAFETY: as for `binary_inplace`: the numpy/PyTorch contract for in-place writes.
        o::run(slf.py(), t.numel(), || unsafe { t.fill_shared(0.0) })?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.clamp_.md")]
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

    #[doc = include_str!("../pydoc/Tensor.add_.md")]
    fn add_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::binary_inplace(slf.py(), &slf.get().inner, BinaryOp::Add, other)?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.fill_.md")]
    fn fill_<'py>(slf: &Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::fill_inplace(slf.py(), &slf.get().inner, value)?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.copy_.md")]
    fn copy_<'py>(slf: &Bound<'py, Self>, src: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        o::copy_inplace(slf.py(), &slf.get().inner, src)?;
        Ok(slf.clone())
    }
}
