//! `clika_runtime.Device`: where a tensor's memory lives.

use clika_rt::Device;
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::error::IntoPyResult;

/// A device (`cpu`, `gpu:N`). Compares equal to its name (`t.device == "cpu"`).
#[pyclass(name = "Device", module = "clika_runtime", frozen)]
#[derive(Debug, Clone, Copy)]
pub struct PyDevice(pub Device);

#[pymethods]
impl PyDevice {
    #[new]
    fn new(name: &str) -> PyResult<Self> {
        Ok(PyDevice(name.parse::<Device>().py()?))
    }

    /// `"cpu"` or `"gpu"`.
    #[getter]
    fn r#type(&self) -> &'static str {
        if self.0.is_cpu() {
            "cpu"
        } else {
            "gpu"
        }
    }

    /// The ordinal among devices of its kind.
    #[getter]
    fn index(&self) -> u32 {
        self.0.ordinal()
    }

    fn __str__(&self) -> String {
        if self.0.is_cpu() {
            "cpu".to_string()
        } else {
            format!("gpu:{}", self.0.ordinal())
        }
    }

    fn __repr__(&self) -> String {
        format!("clika_runtime.Device('{}')", self.__str__())
    }

    fn __hash__(&self) -> u64 {
        ((self.0.kind() as u64) << 32) | u64::from(self.0.ordinal())
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let same = resolve(other).ok().map(|d| d == self.0);
        crate::args::compare(other.py(), op, same)
    }
}

/// Reads a device argument: a `Device` or a name (`"cpu"`, `"gpu:0"`, `"cuda:0"`).
pub fn resolve(obj: &Bound<'_, PyAny>) -> PyResult<Device> {
    if let Ok(d) = obj.cast::<PyDevice>() {
        return Ok(d.get().0);
    }
    let name: String = obj.cast::<PyString>()?.extract()?;
    name.parse::<Device>().py()
}

/// Reads an optional device argument (`None` is the CPU).
pub fn resolve_opt(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Device> {
    match obj {
        Some(o) if !o.is_none() => resolve(o),
        _ => Ok(Device::cpu()),
    }
}
