//! `clika_runtime.DType`: the dtype objects (`crt.float32`, …), and the translation between
//! them, numpy dtypes and strings.

use clika_rt::{DType, ErrorKind};
use numpy::{PyArrayDescr, PyArrayDescrMethods};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::error::{raise, IntoPyResult};

/// The dtypes numpy can hold, as a refusal lists them.
pub const NUMPY_SUPPORTED: &str =
    "float32, float64, float16, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool";

#[doc = include_str!("../pydoc/DType.md")]
#[pyclass(name = "DType", module = "clika_runtime", frozen)]
#[derive(Debug, Clone, Copy)]
pub struct PyDType(pub DType);

#[pymethods]
impl PyDType {
    /// The lower-case name (`"float32"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.0.short_name()
    }

    /// Bytes per element.
    #[getter]
    fn itemsize(&self) -> usize {
        self.0.size()
    }

    /// Whether this is a floating-point type.
    #[getter]
    fn is_floating_point(&self) -> bool {
        self.0.is_float()
    }

    /// The matching `numpy.dtype` (so `np.dtype(crt.float32)` works); numpy has no bfloat16.
    #[getter]
    fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDescr>> {
        to_numpy_descr(py, self.0)
    }

    fn __repr__(&self) -> String {
        format!("clika_runtime.{}", self.0.short_name())
    }

    fn __str__(&self) -> &'static str {
        self.0.short_name()
    }

    fn __hash__(&self) -> u64 {
        self.0 as u64
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let same = resolve(other).ok().map(|d| d == self.0);
        crate::args::compare(other.py(), op, same)
    }
}

/// The runtime dtype for a numpy dtype, if the runtime has one.
pub fn from_numpy_descr(descr: &Bound<'_, PyArrayDescr>) -> Option<DType> {
    if descr.has_fields() || descr.has_subarray() {
        return None;
    }
    let dtype = match (descr.kind(), descr.itemsize()) {
        (b'f', 2) => DType::Float16,
        (b'f', 4) => DType::Float32,
        (b'f', 8) => DType::Float64,
        (b'i', 1) => DType::Int8,
        (b'i', 2) => DType::Int16,
        (b'i', 4) => DType::Int32,
        (b'i', 8) => DType::Int64,
        (b'u', 1) => DType::UInt8,
        (b'u', 2) => DType::UInt16,
        (b'u', 4) => DType::UInt32,
        (b'u', 8) => DType::UInt64,
        (b'b', 1) => DType::Bool,
        _ => return None,
    };
    Some(dtype)
}

/// The numpy dtype for a runtime dtype; bfloat16 has none.
pub fn to_numpy_descr(py: Python<'_>, dtype: DType) -> PyResult<Bound<'_, PyArrayDescr>> {
    use numpy::dtype as d;
    Ok(match dtype {
        DType::Float32 => d::<f32>(py),
        DType::Float64 => d::<f64>(py),
        DType::Float16 => d::<half::f16>(py),
        DType::Int8 => d::<i8>(py),
        DType::Int16 => d::<i16>(py),
        DType::Int32 => d::<i32>(py),
        DType::Int64 => d::<i64>(py),
        DType::UInt8 => d::<u8>(py),
        DType::UInt16 => d::<u16>(py),
        DType::UInt32 => d::<u32>(py),
        DType::UInt64 => d::<u64>(py),
        DType::Bool => d::<bool>(py),
        DType::BFloat16 => {
            return Err(raise(
                ErrorKind::DType,
                "numpy has no bfloat16 dtype; convert first, e.g. t.to(crt.float32).numpy()",
            ))
        }
    })
}

/// Reads a dtype argument: a `crt` dtype, a numpy dtype or scalar type (`np.float32`), a
/// `torch.dtype` (`torch.uint16`), a Python type (`float`, `int`, `bool`) or a name
/// (`"float32"`).
pub fn resolve(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    if let Ok(d) = obj.cast::<PyDType>() {
        return Ok(d.get().0);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s.extract::<String>()?.parse::<DType>().py();
    }
    if let Some(d) = torch_dtype(obj) {
        return Ok(d);
    }
    let descr = PyArrayDescr::new(obj.py(), obj).map_err(|_| unsupported(obj))?;
    from_numpy_descr(&descr).ok_or_else(|| unsupported(obj))
}

/// The runtime dtype for a `torch.dtype` object (its `str` is `"torch.uint16"`), without
/// importing torch: `None` for anything else, or a torch dtype the runtime lacks.
fn torch_dtype(obj: &Bound<'_, PyAny>) -> Option<DType> {
    let ty = obj.get_type();
    if ty.module().ok()? != "torch" || ty.name().ok()? != "dtype" {
        return None;
    }
    let text = obj.str().ok()?.to_string();
    text.strip_prefix("torch.")?.parse().ok()
}

/// Reads an optional dtype argument, with a default.
pub fn resolve_or(obj: Option<&Bound<'_, PyAny>>, default: DType) -> PyResult<DType> {
    match obj {
        Some(o) if !o.is_none() => resolve(o),
        _ => Ok(default),
    }
}

fn unsupported(obj: &Bound<'_, PyAny>) -> PyErr {
    let shown = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    raise(
        ErrorKind::DType,
        format!("unsupported dtype {shown}; the runtime supports {NUMPY_SUPPORTED} and bfloat16"),
    )
}

/// Adds `DType` and the dtype constants (`float32`, …, `bool`) to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDType>()?;
    for d in DType::ALL {
        m.add(d.short_name(), PyDType(d))?;
    }
    Ok(())
}
