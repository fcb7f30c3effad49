//! `clika_runtime.Tensor`: each method translates its arguments, calls the core (with the
//! GIL released around compute) and translates the result.

use clika_rt::{DType, Tensor};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::args;
use crate::device::{self, PyDevice};
use crate::dtype::{self as dt, PyDType};
use crate::error::IntoPyResult;
use crate::ops as o;
use crate::{dlpack, indexing, numpy_export};

#[doc = include_str!("../pydoc/Tensor.md")]
#[pyclass(name = "Tensor", module = "clika_runtime", frozen, weakref)]
#[derive(Debug)]
pub struct PyTensor {
    /// The core tensor.
    pub inner: Tensor,
}

impl PyTensor {
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

/// Refuses the scalar conversions (`float(t)`, `int(t)`, …) of a tensor that does not hold
/// exactly one element.
fn one_element(t: &Tensor, what: &str) -> PyResult<()> {
    if t.numel() == 1 {
        Ok(())
    } else {
        Err(PyTypeError::new_err(format!(
            "only a tensor of one element converts with {what}(); this one has shape {:?} ({} \
             elements): select one with t[i] or reduce it first",
            t.shape(),
            t.numel()
        )))
    }
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

    #[doc = include_str!("../pydoc/Tensor.numel.md")]
    fn numel(&self) -> usize {
        self.inner.numel()
    }

    /// Bytes the elements take: numel() times the element size (numpy's and PyTorch's nbytes).
    #[getter]
    fn nbytes(&self) -> usize {
        self.inner.nbytes()
    }

    /// Bytes of one element (numpy's and PyTorch's itemsize).
    #[getter]
    fn itemsize(&self) -> usize {
        self.inner.element_size()
    }

    #[doc = include_str!("../pydoc/Tensor.element_size.md")]
    fn element_size(&self) -> usize {
        self.inner.element_size()
    }

    #[doc = include_str!("../pydoc/Tensor.item.md")]
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
            DType::UInt64 => t.item::<u64>().py()?.into_pyobject(py)?.into_any(),
            _ => t.item::<i64>().py()?.into_pyobject(py)?.into_any(),
        })
    }

    #[doc = include_str!("../pydoc/Tensor.tolist.md")]
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
            DType::UInt64 => compute(py, t, Tensor::to_vec::<u64>)?
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

    #[doc = include_str!("../pydoc/Tensor.contiguous.md")]
    fn contiguous(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let t = &self.inner;
        Ok(PyTensor {
            inner: o::run(py, t.numel(), || t.contiguous())?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.is_contiguous.md")]
    fn is_contiguous(&self) -> bool {
        self.inner.is_contiguous()
    }

    #[doc = include_str!("../pydoc/Tensor.to.md")]
    #[pyo3(signature = (target=None, *, dtype=None, device=None, copy=false))]
    fn to(
        &self,
        py: Python<'_>,
        target: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
        device: Option<&Bound<'_, PyAny>>,
        copy: bool,
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
            let moved = py.detach(|| if copy { out.copy_to(d) } else { out.to(d) });
            device::warn_fallback(py)?;
            out = moved.py()?;
        }
        if let Some(d) = want_dtype {
            out = compute(py, &out, |t| t.to_dtype(d))?;
        }
        if copy && out.storage().same_as(self.inner.storage()) {
            out = compute(py, &out, |t| t.contiguous_copy())?;
        }
        Ok(PyTensor { inner: out })
    }

    #[doc = include_str!("../pydoc/Tensor.reshape.md")]
    #[pyo3(signature = (*shape))]
    fn reshape(&self, py: Python<'_>, shape: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let shape = args::int_list(shape)?;
        Ok(PyTensor {
            inner: compute(py, &self.inner, |t| t.reshape(&shape))?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.view.md")]
    #[pyo3(signature = (*shape))]
    fn view(&self, shape: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let shape = args::int_list(shape)?;
        Ok(PyTensor {
            inner: self.inner.view(&shape).py()?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.permute.md")]
    #[pyo3(signature = (*dims))]
    fn permute(&self, dims: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let dims = args::int_list(dims)?;
        Ok(PyTensor {
            inner: self.inner.permute(&dims).py()?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.transpose.md")]
    fn transpose(&self, dim0: isize, dim1: isize) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: self.inner.transpose(dim0, dim1).py()?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.data_ptr.md")]
    fn data_ptr(&self) -> usize {
        self.inner.data_ptr() as usize
    }

    #[doc = include_str!("../pydoc/Tensor.synchronize.md")]
    fn synchronize(&self, py: Python<'_>) -> PyResult<()> {
        compute(py, &self.inner, Tensor::synchronize)
    }

    #[doc = include_str!("../pydoc/Tensor.from_file.md")]
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

    #[doc = include_str!("../pydoc/Tensor.numpy.md")]
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
            stream: dlpack::stream_arg(stream)?,
            max_version,
            dl_device,
            copy,
        };
        dlpack::export(py, &self.inner, request)
    }

    fn __dlpack_device__(&self) -> (i32, i32) {
        dlpack::device_of(self.inner.device())
    }

    /// `t[key]` with numpy's rules: ints, slices, `None` and `...` give views; integer
    /// and boolean tensors, arrays or lists (advanced indexing) give copies.
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Ok(PyTensor {
            inner: indexing::index(py, &self.inner, key)?,
        })
    }

    /// `t[key] = value`: writes the selected elements in place (a number, tensor, array or
    /// list, broadcast to them and converted to this dtype). Read-only memory refuses.
    fn __setitem__(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        indexing::assign(py, &self.inner, key, value)
    }

    /// `float(t)` of a one-element tensor.
    fn __float__(&self, py: Python<'_>) -> PyResult<f64> {
        one_element(&self.inner, "float")?;
        compute(py, &self.inner, |t| {
            t.reshape(&[]).and_then(|t| t.item::<f64>())
        })
    }

    /// `int(t)` of a one-element tensor (floats truncate toward zero, as Python's `int`).
    fn __int__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        one_element(&self.inner, "int")?;
        let item = self.item(py)?;
        py.get_type::<pyo3::types::PyInt>().call1((item,))
    }

    /// `operator.index(t)` (and `range(t)`, `lst[t]`): one element of an integer or bool
    /// tensor.
    fn __index__(&self, py: Python<'_>) -> PyResult<i64> {
        one_element(&self.inner, "index")?;
        if self.inner.dtype().is_float() {
            return Err(PyTypeError::new_err(format!(
                "only integer tensors of a single element can be converted to an index, not {}",
                self.inner.dtype().short_name()
            )));
        }
        compute(py, &self.inner, |t| {
            t.reshape(&[]).and_then(|t| t.item::<i64>())
        })
    }

    /// `format(t, spec)` / f-strings: a one-element tensor formats as its Python number;
    /// any tensor formats with an empty spec as `str(t)`.
    fn __format__(&self, py: Python<'_>, spec: &str) -> PyResult<String> {
        if self.inner.numel() == 1 && self.inner.device().is_cpu() || !spec.is_empty() {
            one_element(&self.inner, "format")?;
            let item = self.item(py)?;
            return item.call_method1("__format__", (spec,))?.extract();
        }
        Ok(self.inner.to_string())
    }

    fn __len__(&self) -> PyResult<usize> {
        match self.inner.shape().first() {
            Some(&n) => Ok(n),
            None => Err(PyTypeError::new_err("len() of a 0-d tensor")),
        }
    }

    fn __repr__(&self) -> String {
        crate::printing::repr(&self.inner)
    }
}
