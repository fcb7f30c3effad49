//! Page-locked host memory for a CUDA device: `t.pin_memory(device)` and the pinned pool's
//! statistics. A pinned host tensor moves to its device by asynchronous DMA.

use clika_rt::device as pool;
use clika_rt::Device;
use pyo3::prelude::*;

use crate::device;
use crate::error::IntoPyResult;
use crate::memory_stats::PyMemoryStats;
use crate::tensor::PyTensor;

/// The device a pinned-memory call is for: the given one, else `cuda:0`.
fn for_device(device: Option<&Bound<'_, PyAny>>) -> PyResult<Device> {
    match device.filter(|d| !d.is_none()) {
        Some(d) => Ok(device::resolve(d)?.resolve()),
        None => Ok(Device::cuda(0)),
    }
}

#[pymethods]
impl PyTensor {
    #[doc = include_str!("../pydoc/Tensor.pin_memory.md")]
    #[pyo3(signature = (device=None))]
    fn pin_memory(&self, py: Python<'_>, device: Option<&Bound<'_, PyAny>>) -> PyResult<PyTensor> {
        let d = for_device(device)?;
        let t = self.inner.clone();
        Ok(PyTensor {
            inner: py.detach(|| t.pin_memory(d)).py()?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.is_pinned.md")]
    fn is_pinned(&self) -> bool {
        self.inner.storage().pinned_for().is_some()
    }
}

#[doc = include_str!("../pydoc/pinned_memory_stats.md")]
#[pyfunction]
#[pyo3(signature = (device=None))]
pub fn pinned_memory_stats(device: Option<&Bound<'_, PyAny>>) -> PyResult<PyMemoryStats> {
    let d = for_device(device)?;
    Ok(PyMemoryStats::new(d, pool::pinned_memory_stats(d).py()?))
}

#[doc = include_str!("../pydoc/release_cached_pinned_memory.md")]
#[pyfunction]
#[pyo3(signature = (device=None))]
pub fn release_cached_pinned_memory(
    py: Python<'_>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<usize> {
    let d = for_device(device)?;
    py.detach(|| pool::release_cached_pinned_memory(d)).py()
}
