//! `clika_runtime.Tensor`: each method translates its arguments, calls the core (with the
//! GIL released around compute) and translates the result.

use clika_rt::ops::{BinaryOp, UnaryOp};
use clika_rt::{DType, Tensor};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::args;
use crate::device::{self, PyDevice};
use crate::dtype::{self as dt, PyDType};
use crate::error::IntoPyResult;
use crate::ops::{self as o, Reduce};
use crate::{dlpack, indexing, numpy_export};

/// An n-dimensional strided view of typed memory. Views (indexing, `reshape` when possible,
/// `permute`, `transpose`, `T`) share memory; `numpy()` and `np.asarray(t)` do too.
#[pyclass(name = "Tensor", module = "clika_runtime", frozen, weakref)]
#[derive(Debug)]
pub struct PyTensor {
    /// The core tensor.
    pub inner: Tensor,
}

impl PyTensor {
    fn binary(&self, py: Python<'_>, op: BinaryOp, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let t = o::Operand::T(std::borrow::Cow::Borrowed(&self.inner));
        let inner = o::binary(py, op, t, o::fn_operand(other)?)?;
        Ok(PyTensor { inner })
    }

    fn unary(&self, py: Python<'_>, op: UnaryOp) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::unary(py, op, &self.inner)?,
        })
    }

    /// A new Python tensor object.
    pub fn wrap(py: Python<'_>, inner: Tensor) -> PyResult<Bound<'_, PyTensor>> {
        Bound::new(py, PyTensor { inner })
    }
}

/// Runs `f` on the tensor with the GIL released.
fn compute<T: Send>(
    py: Python<'_>,
    t: &Tensor,
    f: impl FnOnce(&Tensor) -> clika_rt::Result<T> + Send,
) -> PyResult<T> {
    py.detach(|| f(t)).py()
}

/// Nested lists of Python numbers in the tensor's shape.
fn nest<'py>(
    py: Python<'py>,
    shape: &[usize],
    items: &mut impl Iterator<Item = Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match shape.split_first() {
        None => Ok(items.next().expect("one item per element")),
        Some((&n, rest)) => {
            let list = PyList::empty(py);
            for _ in 0..n {
                list.append(nest(py, rest, items)?)?;
            }
            Ok(list.into_any())
        }
    }
}

#[pymethods]
impl PyTensor {
    /// Sizes of each dimension.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.shape())
    }

    /// Strides of each dimension, in elements (numpy's `strides` are in bytes).
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.strides())
    }

    /// Element type.
    #[getter]
    fn dtype(&self) -> PyDType {
        PyDType(self.inner.dtype())
    }

    /// Where the memory lives.
    #[getter]
    fn device(&self) -> PyDevice {
        PyDevice(self.inner.device())
    }

    /// Number of dimensions.
    #[getter]
    fn ndim(&self) -> usize {
        self.inner.ndim()
    }

    /// All dimensions reversed (a view).
    #[getter(T)]
    fn t(&self) -> PyTensor {
        PyTensor {
            inner: self.inner.t(),
        }
    }

    /// Number of elements.
    fn numel(&self) -> usize {
        self.inner.numel()
    }

    /// The single element as a Python `float`, `int` or `bool`.
    fn item<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = &self.inner;
        Ok(match t.dtype() {
            DType::Bool => t
                .item::<bool>()
                .py()?
                .into_pyobject(py)?
                .to_owned()
                .into_any(),
            d if d.is_float() => t.item::<f64>().py()?.into_pyobject(py)?.into_any(),
            _ => t.item::<i64>().py()?.into_pyobject(py)?.into_any(),
        })
    }

    /// The elements as (nested) Python lists; a 0-d tensor gives a number.
    fn tolist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = &self.inner;
        let items: Vec<Bound<'py, PyAny>> = match t.dtype() {
            DType::Bool => compute(py, t, Tensor::to_vec::<bool>)?
                .into_iter()
                .map(|v| v.into_bound_py_any(py))
                .collect::<PyResult<_>>()?,
            d if d.is_float() => compute(py, t, Tensor::to_f64_vec)?
                .into_iter()
                .map(|v| v.into_bound_py_any(py))
                .collect::<PyResult<_>>()?,
            _ => compute(py, t, |t| t.to_dtype(DType::Int64)?.to_vec::<i64>())?
                .into_iter()
                .map(|v| v.into_bound_py_any(py))
                .collect::<PyResult<_>>()?,
        };
        nest(py, t.shape(), &mut items.into_iter())
    }

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
            Some(o::Operand::T(b)) => {
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
            Some(o::Operand::T(a)) => {
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

    // ---- elementwise methods --------------------------------------------------------------

    fn add(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Add, other)
    }
    fn sub(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Sub, other)
    }
    fn mul(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Mul, other)
    }
    fn div(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Div, other)
    }
    fn pow(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Pow, other)
    }
    fn maximum(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Maximum, other)
    }
    fn minimum(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Minimum, other)
    }
    fn eq(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Eq, other)
    }
    fn ne(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Ne, other)
    }
    fn lt(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Lt, other)
    }
    fn le(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Le, other)
    }
    fn gt(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Gt, other)
    }
    fn ge(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        self.binary(py, BinaryOp::Ge, other)
    }

    fn neg(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Neg)
    }
    fn abs(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Abs)
    }
    fn exp(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Exp)
    }
    fn log(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Log)
    }
    fn sqrt(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Sqrt)
    }
    fn rsqrt(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Rsqrt)
    }
    fn sin(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Sin)
    }
    fn cos(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Cos)
    }
    fn tanh(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Tanh)
    }
    fn sigmoid(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Sigmoid)
    }
    fn relu(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Relu)
    }
    fn gelu(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Gelu)
    }
    fn silu(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Silu)
    }
    fn erf(&self, py: Python<'_>) -> PyResult<PyTensor> {
        self.unary(py, UnaryOp::Erf)
    }

    /// Limits every element to `[min, max]` (either optional; numbers or tensors).
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

    /// Matrix product (`self @ other`).
    fn matmul(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::matmul(py, &self.inner, &o::tensor_arg(other)?)?,
        })
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

    // ---- reductions -------------------------------------------------------------------------

    /// Sum over all elements, or over `dim` (an int or a tuple of ints).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn sum(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::reduce(py, Reduce::Sum, &self.inner, dim, keepdim)?,
        })
    }

    /// Mean over all elements, or over `dim` (an int or a tuple of ints).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn mean(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::reduce(py, Reduce::Mean, &self.inner, dim, keepdim)?,
        })
    }

    /// Product over all elements, or over `dim`.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn prod(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::reduce(py, Reduce::Prod, &self.inner, dim, keepdim)?,
        })
    }

    /// Maximum values over all elements, or over `dim` (values only, like `torch.amax`).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn max(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::reduce(py, Reduce::Max, &self.inner, dim, keepdim)?,
        })
    }

    /// Minimum values over all elements, or over `dim` (values only, like `torch.amin`).
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn min(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::reduce(py, Reduce::Min, &self.inner, dim, keepdim)?,
        })
    }

    /// Index of the maximum over the flattened tensor, or along `dim`.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn argmax(&self, py: Python<'_>, dim: Option<isize>, keepdim: bool) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::arg_reduce(py, true, &self.inner, dim, keepdim)?,
        })
    }

    /// Index of the minimum over the flattened tensor, or along `dim`.
    #[pyo3(signature = (dim=None, keepdim=false))]
    fn argmin(&self, py: Python<'_>, dim: Option<isize>, keepdim: bool) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::arg_reduce(py, false, &self.inner, dim, keepdim)?,
        })
    }

    /// Variance (`correction=1`: unbiased, PyTorch's default).
    #[pyo3(signature = (dim=None, *, correction=1, keepdim=false))]
    fn var(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        correction: usize,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::var_std(py, false, &self.inner, dim, correction, keepdim)?,
        })
    }

    /// Standard deviation (`correction=1`: unbiased, PyTorch's default).
    #[pyo3(signature = (dim=None, *, correction=1, keepdim=false))]
    fn std(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        correction: usize,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::var_std(py, true, &self.inner, dim, correction, keepdim)?,
        })
    }

    /// Softmax along `dim`.
    fn softmax(&self, py: Python<'_>, dim: isize) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::softmax(py, false, &self.inner, dim)?,
        })
    }

    /// Log-softmax along `dim`.
    fn log_softmax(&self, py: Python<'_>, dim: isize) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: o::softmax(py, true, &self.inner, dim)?,
        })
    }

    /// The same tensor when contiguous, else a compact copy.
    fn contiguous(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let t = &self.inner;
        Ok(PyTensor {
            inner: o::run(py, t.numel(), || t.contiguous())?,
        })
    }

    /// Whether the elements are row-major without gaps (numpy's rule).
    fn is_contiguous(&self) -> bool {
        self.inner.is_contiguous()
    }

    /// Moves to a device and/or converts to a dtype: `t.to('cpu')`, `t.to(crt.float64)`,
    /// `t.to(device=..., dtype=...)`.
    #[pyo3(signature = (target=None, *, dtype=None, device=None))]
    fn to(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
        device: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        let mut want_dtype = dtype
            .filter(|d| !d.is_none())
            .map(dt::resolve)
            .transpose()?;
        let mut want_device = device
            .filter(|d| !d.is_none())
            .map(device::resolve)
            .transpose()?;
        if let Some(t) = target.filter(|t| !t.is_none()) {
            match device::device_or_dtype(t)? {
                Ok(d) => want_device = Some(d),
                Err(d) => want_dtype = Some(d),
            }
        }
        let mut out = self.inner.clone();
        if let Some(d) = want_device {
            let moved = py.detach(|| out.to(d));
            device::warn_fallback(py)?;
            out = moved.py()?;
        }
        if let Some(d) = want_dtype {
            out = compute(py, &out, |t| t.to_dtype(d))?;
        }
        Ok(PyTensor { inner: out })
    }

    /// The same elements in a new shape (one size may be -1): a view when the strides allow,
    /// else a copy.
    #[pyo3(signature = (*shape))]
    fn reshape(&self, py: Python<'_>, shape: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let shape = args::int_list(shape)?;
        Ok(PyTensor {
            inner: compute(py, &self.inner, |t| t.reshape(&shape))?,
        })
    }

    /// Like `reshape`, but never copies (raises `LayoutError` instead).
    #[pyo3(signature = (*shape))]
    fn view(&self, shape: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let shape = args::int_list(shape)?;
        Ok(PyTensor {
            inner: self.inner.view(&shape).py()?,
        })
    }

    /// Reorders the dimensions (a view).
    #[pyo3(signature = (*dims))]
    fn permute(&self, dims: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let dims = args::int_list(dims)?;
        Ok(PyTensor {
            inner: self.inner.permute(&dims).py()?,
        })
    }

    /// Swaps two dimensions (a view).
    fn transpose(&self, dim0: isize, dim1: isize) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: self.inner.transpose(dim0, dim1).py()?,
        })
    }

    /// Address of the first element (for a borrowed array, the array's own pointer).
    fn data_ptr(&self) -> usize {
        self.inner.data_ptr() as usize
    }

    /// Waits for the device's outstanding work.
    fn synchronize(&self, py: Python<'_>) -> PyResult<()> {
        compute(py, &self.inner, Tensor::synchronize)
    }

    /// `shape` elements of `dtype` at byte `offset` of a raw binary file, mapped read-only
    /// without copying (same as `crt.from_file`).
    #[staticmethod]
    #[pyo3(signature = (path, dtype, shape, offset=0, *, copy=false))]
    fn from_file(
        py: Python<'_>,
        path: std::path::PathBuf,
        dtype: &Bound<'_, PyAny>,
        shape: &Bound<'_, PyAny>,
        offset: u64,
        copy: bool,
    ) -> PyResult<PyTensor> {
        crate::files::from_file(py, path, dtype, shape, offset, copy)
    }

    /// A zero-copy numpy view; its `base` keeps this tensor's memory alive.
    fn numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        numpy_export::view(slf)
    }

    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        numpy_export::array(slf, dtype, copy)
    }

    #[pyo3(signature = (*, stream=None, max_version=None, dl_device=None, copy=None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<&Bound<'py, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let request = dlpack::Request {
            stream_given: stream.is_some_and(|s| !s.is_none()),
            max_version,
            dl_device,
            copy,
        };
        dlpack::export(py, &self.inner, request)
    }

    fn __dlpack_device__(&self) -> (i32, i32) {
        dlpack::device_of(self.inner.device())
    }

    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: indexing::index(&self.inner, key)?,
        })
    }

    fn __len__(&self) -> PyResult<usize> {
        match self.inner.shape().first() {
            Some(&n) => Ok(n),
            None => Err(PyTypeError::new_err("len() of a 0-d tensor")),
        }
    }

    fn __repr__(&self) -> String {
        self.inner.to_string()
    }
}
