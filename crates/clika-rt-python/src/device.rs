//! `clika_runtime.Device`: where a tensor's memory lives.

use clika_rt::Device;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::error::IntoPyResult;

#[doc = include_str!("../pydoc/Device.md")]
#[pyclass(name = "Device", module = "clika_runtime", frozen)]
#[derive(Debug, Clone, Copy)]
pub struct PyDevice(pub Device);

#[pymethods]
impl PyDevice {
    #[new]
    fn new(name: &str) -> PyResult<Self> {
        Ok(PyDevice(name.parse::<Device>().py()?))
    }

    /// `"cpu"`, `"gpu"`, `"cuda"` or `"auto"`.
    #[getter]
    fn r#type(&self) -> &'static str {
        self.0.kind().name()
    }

    /// The ordinal among devices of its kind.
    #[getter]
    fn index(&self) -> u32 {
        self.0.ordinal()
    }

    fn __str__(&self) -> String {
        let kind = self.0.kind();
        if kind.has_ordinals() {
            format!("{}:{}", kind.name(), self.0.ordinal())
        } else {
            kind.name().to_string()
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

/// Shows the automatic-placement fallback warning (once per process) with
/// `warnings.warn`, after any call that may have resolved `"auto"`.
pub fn warn_fallback(py: Python<'_>) -> PyResult<()> {
    match clika_rt::backend::take_fallback_warning() {
        Some(msg) => {
            let msg = std::ffi::CString::new(msg).unwrap_or_default();
            PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &msg, 1)
        }
        None => Ok(()),
    }
}

/// Reads a device argument: a `Device` or a name (`"cpu"`, `"gpu:0"`, `"cuda:0"`, `"auto"`).
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

/// `t.to(x)`'s positional argument: a device, else a dtype; anything that is neither is an
/// error saying so and listing both forms (not a dtype error for `"tpu:0"`).
pub fn device_or_dtype(obj: &Bound<'_, PyAny>) -> PyResult<Result<Device, clika_rt::DType>> {
    let device_err = match resolve(obj) {
        Ok(d) => return Ok(Ok(d)),
        Err(e) => e,
    };
    if let Ok(d) = crate::dtype::resolve(obj) {
        return Ok(Err(d));
    }
    let shown = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let why = device_err.value(obj.py()).to_string();
    Err(crate::error::raise(
        clika_rt::ErrorKind::InvalidArgument,
        format!(
            "to({shown}): {shown} is neither a device nor a dtype; devices are 'cpu', 'gpu', \
             'gpu:N' (N = 0, 1, ...), 'auto' or a crt.Device; dtypes are crt.float32, \
             'float32', np.float32 and the like (as a device: {why})"
        ),
    ))
}
