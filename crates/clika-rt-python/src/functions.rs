//! The module-level functions: creating tensors, borrowing from numpy and DLPack, and the
//! memory pool's controls.

use clika_rt::{device as pool, DType, Device, Tensor};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyTuple};

use crate::args;
use crate::device;
use crate::dtype as dt;
use crate::error::IntoPyResult;
use crate::memory_stats::PyMemoryStats;
use crate::tensor::PyTensor;
use crate::{dlpack, numpy_import};

/// The default dtype of new tensors, as in PyTorch.
const DEFAULT: DType = DType::Float32;

/// Creates on the CPU, then copies to `device` (a no-op for the CPU): a new tensor on a
/// device is the device's own memory, counted by its pool, even where `.to` would alias.
pub(crate) fn placed(
    t: clika_rt::Result<Tensor>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let py = t_py(device);
    let device = device::resolve_opt(device)?;
    device.ensure_available().py()?;
    let t = t.py()?;
    let inner = if device.is_cpu() {
        Ok(t)
    } else {
        t.copy_to(device)
    };
    if let Some(py) = py {
        device::warn_fallback(py)?;
    }
    Ok(PyTensor { inner: inner.py()? })
}

/// The interpreter token from an argument, when there is one.
fn t_py<'py>(device: Option<&Bound<'py, PyAny>>) -> Option<Python<'py>> {
    device.map(|d| d.py())
}

#[doc = include_str!("../pydoc/zeros.md")]
#[pyfunction]
#[pyo3(signature = (*shape, dtype=None, device=None))]
pub fn zeros(
    py: Python<'_>,
    shape: &Bound<'_, PyTuple>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let (shape, dtype) = (args::shape(shape)?, dt::resolve_or(dtype, DEFAULT)?);
    placed(py.detach(|| Tensor::zeros(&shape, dtype)), device)
}

#[doc = include_str!("../pydoc/ones.md")]
#[pyfunction]
#[pyo3(signature = (*shape, dtype=None, device=None))]
pub fn ones(
    py: Python<'_>,
    shape: &Bound<'_, PyTuple>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let (shape, dtype) = (args::shape(shape)?, dt::resolve_or(dtype, DEFAULT)?);
    placed(py.detach(|| Tensor::ones(&shape, dtype)), device)
}

#[doc = include_str!("../pydoc/empty.md")]
#[pyfunction]
#[pyo3(signature = (*shape, dtype=None, device=None))]
pub fn empty(
    py: Python<'_>,
    shape: &Bound<'_, PyTuple>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let (shape, dtype) = (args::shape(shape)?, dt::resolve_or(dtype, DEFAULT)?);
    placed(py.detach(|| Tensor::empty(&shape, dtype)), device)
}

#[doc = include_str!("../pydoc/full.md")]
#[pyfunction]
#[pyo3(signature = (shape, fill_value, *, dtype=None, device=None))]
pub fn full(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    fill_value: &Bound<'_, PyAny>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let inferred = if fill_value.is_instance_of::<PyBool>() {
        DType::Bool
    } else if fill_value.is_instance_of::<PyFloat>() || fill_value.extract::<i64>().is_err() {
        DEFAULT
    } else {
        DType::Int64
    };
    let (shape, dtype) = (args::shape_of(shape)?, dt::resolve_or(dtype, inferred)?);
    crate::int_range::check_fill(fill_value, dtype)?;
    if dtype.is_integer() && !fill_value.is_instance_of::<PyBool>() {
        // An int fill is stored exactly (2**64 - 1 into uint64), not through a float.
        if let Some(s) = crate::ops::exact_int(fill_value) {
            return placed(
                py.detach(|| {
                    let mut out = Tensor::full(&shape, 0.0, dtype)?;
                    out.copy_(&s.to_tensor(dtype)?)?;
                    Ok(out)
                }),
                device,
            );
        }
    }
    let value: f64 = fill_value.extract()?;
    placed(py.detach(|| Tensor::full(&shape, value, dtype)), device)
}

#[doc = include_str!("../pydoc/arange.md")]
#[pyfunction]
#[pyo3(signature = (start, end=None, step=None, *, dtype=None, device=None))]
pub fn arange(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    end: Option<&Bound<'_, PyAny>>,
    step: Option<&Bound<'_, PyAny>>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let given: Vec<&Bound<'_, PyAny>> = [Some(start), end, step]
        .into_iter()
        .flatten()
        .filter(|v| !v.is_none())
        .collect();
    let all_ints = given
        .iter()
        .all(|v| !v.is_instance_of::<PyFloat>() && v.extract::<i64>().is_ok());
    let dtype = dt::resolve_or(dtype, if all_ints { DType::Int64 } else { DEFAULT })?;
    let num = |v: Option<&Bound<'_, PyAny>>, d: f64| -> PyResult<f64> {
        v.filter(|v| !v.is_none()).map_or(Ok(d), |v| v.extract())
    };
    let (lo, hi) = match end.filter(|e| !e.is_none()) {
        Some(e) => (start.extract::<f64>()?, e.extract::<f64>()?),
        None => (0.0, start.extract::<f64>()?),
    };
    let step = num(step, 1.0)?;
    placed(py.detach(|| Tensor::arange(lo, hi, step, dtype)), device)
}

#[doc = include_str!("../pydoc/from_numpy.md")]
#[pyfunction]
pub fn from_numpy(a: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    Ok(PyTensor {
        inner: numpy_import::from_numpy(a)?,
    })
}

#[doc = include_str!("../pydoc/tensor.md")]
#[pyfunction]
#[pyo3(signature = (obj, dtype=None, device=None))]
pub fn tensor(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let copied = match obj.cast::<PyTensor>() {
        Ok(t) => {
            let t = t.get().inner.clone();
            py.detach(|| t.contiguous_copy()).py()?
        }
        Err(_) => match dtype.filter(|d| !d.is_none()) {
            Some(d) => numpy_import::copy_from_python_as(obj, dt::resolve(d)?)?,
            None => numpy_import::copy_from_python(obj)?,
        },
    };
    let converted = match dtype.filter(|d| !d.is_none()) {
        Some(d) => {
            let d = dt::resolve(d)?;
            py.detach(|| copied.to_dtype(d))
        }
        None => Ok(copied),
    };
    placed(converted, device)
}

#[doc = include_str!("../pydoc/from_dlpack.md")]
#[pyfunction]
pub fn from_dlpack(obj: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    Ok(PyTensor {
        inner: dlpack::from_dlpack(obj)?,
    })
}

#[doc = include_str!("../pydoc/memory_stats.md")]
#[pyfunction]
#[pyo3(signature = (device=None))]
pub fn memory_stats(device: Option<&Bound<'_, PyAny>>) -> PyResult<PyMemoryStats> {
    let d: Device = device::resolve_opt(device)?.resolve();
    d.ensure_available().py()?;
    Ok(PyMemoryStats::new(d, pool::memory_stats(d)))
}

#[doc = include_str!("../pydoc/release_cached_memory.md")]
#[pyfunction]
#[pyo3(signature = (device=None))]
pub fn release_cached_memory(py: Python<'_>, device: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let d = device::resolve_opt(device)?;
    py.detach(|| pool::release_cached_memory(d.resolve())).py()
}

#[doc = include_str!("../pydoc/set_memory_limit.md")]
#[pyfunction]
#[pyo3(signature = (limit_bytes, device=None))]
pub fn set_memory_limit(
    limit_bytes: Option<usize>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    pool::set_memory_limit(device::resolve_opt(device)?.resolve(), limit_bytes).py()
}

#[doc = include_str!("../pydoc/reset_peak_stats.md")]
#[pyfunction]
#[pyo3(signature = (device=None))]
pub fn reset_peak_stats(device: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let d = device::resolve_opt(device)?;
    d.ensure_available().py()?;
    pool::reset_peak_stats(d);
    Ok(())
}

/// How many exported DLPack capsules' deleters have not run yet (for tests).
#[pyfunction]
pub fn _dlpack_live_exports() -> isize {
    dlpack::live_exports()
}
