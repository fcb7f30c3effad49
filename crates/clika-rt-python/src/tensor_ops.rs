//! `clika_runtime.Tensor`'s operations: the operators (`+`, `@`, `+=`, comparisons), the
//! elementwise, reduction and matmul methods (the in-place `add_ fill_ copy_` are in
//! `tensor_ops_more.rs` beside the other in-place forms). A second
//! `#[pymethods]` block of the class defined in `tensor.rs` (pyo3's `multiple-pymethods`).

use clika_rt::ops::{BinaryOp, ReduceOp, UnaryOp};
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::IntoPyResult;

use crate::ops as o;
use crate::tensor::PyTensor;

impl PyTensor {
    pub(crate) fn binary(
        &self,
        py: Python<'_>,
        op: BinaryOp,
        other: &Bound<'_, PyAny>,
    ) -> PyResult<PyTensor> {
        let t = o::Operand::from(&self.inner);
        let inner = o::binary(py, op, &t, &o::fn_operand(other)?)?;
        Ok(PyTensor { inner })
    }

    pub(crate) fn unary(&self, py: Python<'_>, op: UnaryOp) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::unary(py, op, &self.inner)?,
        })
    }
}

/// `var`/`std`'s `correction` (PyTorch) or `ddof` (numpy), which name the same argument;
/// PyTorch's default 1 (unbiased) when neither is given.
fn correction_or_ddof(correction: Option<usize>, ddof: Option<usize>) -> PyResult<usize> {
    if correction.is_some() && ddof.is_some() {
        return Err(PyValueError::new_err(
            "correction and ddof name the same argument; pass one of them",
        ));
    }
    Ok(correction.or(ddof).unwrap_or(1))
}

#[pymethods]
impl PyTensor {
    // ---- operators ---------------------------------------------------------------------

    fn __add__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Add, false)
    }
    fn __radd__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Add, true)
    }
    fn __sub__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Sub, false)
    }
    fn __rsub__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Sub, true)
    }
    fn __mul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Mul, false)
    }
    fn __rmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Mul, true)
    }
    fn __truediv__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Div, false)
    }
    fn __rtruediv__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, BinaryOp::Div, true)
    }
    fn __pow__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        modulo: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Ok(slf.py().NotImplemented().into_bound(slf.py()));
        }
        o::operator(slf, other, BinaryOp::Pow, false)
    }
    fn __rpow__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        modulo: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Ok(slf.py().NotImplemented().into_bound(slf.py()));
        }
        o::operator(slf, other, BinaryOp::Pow, true)
    }
    fn __matmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        match o::operand(other)? {
            Some(o::Operand::Tensor(b)) => {
                PyTensor::wrap(py, o::matmul(py, &slf.get().inner, &b)?).map(Bound::into_any)
            }
            _ => Ok(py.NotImplemented().into_bound(py)),
        }
    }
    fn __rmatmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        match o::operand(other)? {
            Some(o::Operand::Tensor(a)) => {
                PyTensor::wrap(py, o::matmul(py, &a, &slf.get().inner)?).map(Bound::into_any)
            }
            _ => Ok(py.NotImplemented().into_bound(py)),
        }
    }
    fn __iadd__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::Add, other)
    }
    fn __isub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::Sub, other)
    }
    fn __imul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::Mul, other)
    }
    fn __itruediv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::Div, other)
    }
    fn __ipow__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        _modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        o::binary_inplace(py, &self.inner, BinaryOp::Pow, other)
    }
    fn __richcmp__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        op: CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        o::operator(slf, other, o::compare_op(op), false)
    }
    /// Identity hash (as PyTorch): `==` is elementwise, so equal values do not mean equal keys.
    fn __hash__(slf: &Bound<'_, Self>) -> u64 {
        slf.as_ptr() as usize as u64
    }
    fn __neg__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Neg)
    }
    fn __abs__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Abs)
    }
    /// The truth of a one-element tensor; more elements are ambiguous (as in numpy).
    fn __bool__(&self) -> PyResult<bool> {
        if self.inner.numel() != 1 {
            return Err(PyValueError::new_err(format!(
                "the truth value of a tensor with {} elements is ambiguous; use (t != 0).sum().item() > 0 for any, or t.min().item() for all",
                self.inner.numel()
            )));
        }
        Ok(self.inner.reshape(&[]).py()?.item::<f64>().py()? != 0.0)
    }

    /// Makes numpy's operators defer to the tensor's (`array + t` gives a tensor).
    #[classattr]
    fn __array_priority__() -> f64 {
        1000.0
    }

    // ---- elementwise methods: tensor_elementwise.rs ---------------------------------------

    #[doc = include_str!("../pydoc/Tensor.clamp.md")]
    #[pyo3(signature = (min=None, max=None))]
    fn clamp(
        &self,
        py: Python<'_>,
        min: Option<&Bound<'_, PyAny>>,
        max: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::clamp(py, &self.inner, min, max)?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.matmul.md")]
    fn matmul(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::matmul(py, &self.inner, &o::tensor_arg(other)?)?,
        })
    }

    // ---- reductions -------------------------------------------------------------------------

    #[doc = include_str!("../pydoc/Tensor.sum.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, dtype=None, out=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn sum<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        o::reduce_call(py, ReduceOp::Sum, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.mean.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, dtype=None, out=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn mean<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        o::reduce_call(py, ReduceOp::Mean, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.prod.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, dtype=None, out=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn prod<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        o::reduce_call(py, ReduceOp::Prod, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.max.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, dtype=None, out=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn max<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(d) = crate::algorithms::single_dim(dim, axis, keepdims, dtype, &out) {
            let r = o::run(py, self.inner.numel(), || {
                clika_rt::ops::max_dim(&self.inner, d, keepdim.unwrap_or(false))
            })?;
            return Ok(Bound::new(py, crate::algorithms::pair(py, r)?)?.into_any());
        }
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        o::reduce_call(py, ReduceOp::Max, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.min.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, dtype=None, out=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn min<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(d) = crate::algorithms::single_dim(dim, axis, keepdims, dtype, &out) {
            let r = o::run(py, self.inner.numel(), || {
                clika_rt::ops::min_dim(&self.inner, d, keepdim.unwrap_or(false))
            })?;
            return Ok(Bound::new(py, crate::algorithms::pair(py, r)?)?.into_any());
        }
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        o::reduce_call(py, ReduceOp::Min, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.argmax.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, out=None))]
    fn argmax<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype: None,
            out,
        };
        o::reduce_call(py, ReduceOp::ArgMax, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.argmin.md")]
    #[pyo3(signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, out=None))]
    fn argmin<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype: None,
            out,
        };
        o::reduce_call(py, ReduceOp::ArgMin, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.var.md")]
    #[pyo3(signature = (dim=None, *, correction=None, keepdim=None, axis=None, keepdims=None, dtype=None, out=None, ddof=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn var<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        correction: Option<usize>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
        ddof: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        let correction = correction_or_ddof(correction, ddof)?;
        o::reduce_call(py, ReduceOp::Var { correction }, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.std.md")]
    #[pyo3(signature = (dim=None, *, correction=None, keepdim=None, axis=None, keepdims=None, dtype=None, out=None, ddof=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the PyTorch and numpy keyword sets"
    )]
    fn std<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        correction: Option<usize>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyTensor>>,
        ddof: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let a = o::ReduceArgs {
            dim,
            keepdim,
            axis,
            keepdims,
            dtype,
            out,
        };
        let correction = correction_or_ddof(correction, ddof)?;
        o::reduce_call(py, ReduceOp::Std { correction }, &self.inner, a)
    }

    #[doc = include_str!("../pydoc/Tensor.softmax.md")]
    fn softmax(&self, py: Python<'_>, dim: isize) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::softmax(py, false, &self.inner, dim)?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.log_softmax.md")]
    fn log_softmax(&self, py: Python<'_>, dim: isize) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::softmax(py, true, &self.inner, dim)?,
        })
    }
}
