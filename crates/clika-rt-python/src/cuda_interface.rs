//! `__cuda_array_interface__` (version 3), both ways: a CUDA tensor describes its memory to
//! CuPy, numba and PyTorch (`cupy.asarray(t)`, `torch.as_tensor(t, device="cuda")`), and
//! `crt.from_dlpack` imports an object that has only this interface (numba device arrays).
//!
//! Nothing is copied either way. The consumer of an export holds the tensor (the object it
//! read the interface from); an import holds the producer's object. The `stream` entry
//! orders the work: an export names the runtime's stream (the consumer waits on it), and an
//! import makes the runtime's stream wait for the producer's before it touches the memory.

use clika_rt::{DType, DeviceKind, ErrorKind, ForeignMemory, Owner, Tensor};
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::error::{raise, IntoPyResult};
use crate::tensor::PyTensor;

/// The interface's `typestr` of `dtype` (`None` for bfloat16, which has none).
fn typestr(dtype: DType) -> Option<String> {
    let kind = match dtype {
        DType::Float32 | DType::Float64 | DType::Float16 => 'f',
        DType::BFloat16 => return None,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => 'i',
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => 'u',
        DType::Bool => 'b',
    };
    let order = if dtype.size() == 1 { '|' } else { '<' };
    Some(format!("{order}{kind}{}", dtype.size()))
}

/// The dtype of a `typestr` (little-endian or byte-sized only).
fn dtype_of(given: &str) -> PyResult<DType> {
    DType::ALL
        .into_iter()
        .find(|&d| {
            typestr(d)
                .is_some_and(|t| t == given || (d.size() == 1 && given.get(1..) == t.get(1..)))
        })
        .ok_or_else(|| {
            raise(
                ErrorKind::DType,
                format!(
                    "__cuda_array_interface__: typestr {given:?} is not supported (little-endian \
                     bool, int8–64, uint8–64 and float16/32/64 are)"
                ),
            )
        })
}

#[pymethods]
impl PyTensor {
    /// The CUDA Array Interface (version 3) of a tensor on `cuda:N`: shape, `typestr`, byte
    /// strides (`None` when row-major), the device pointer with the read-only flag, and the
    /// runtime's stream, which a consumer waits on before it reads. Absent
    /// (`AttributeError`) on other devices and for bfloat16 (use DLPack).
    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.inner;
        let absent = |why: String| PyAttributeError::new_err(why);
        if t.device().kind() != DeviceKind::Cuda {
            return Err(absent(format!(
                "__cuda_array_interface__ describes CUDA memory; this tensor is on {}",
                t.device()
            )));
        }
        let Some(ts) = typestr(t.dtype()) else {
            return Err(absent(
                "__cuda_array_interface__ has no typestr for bfloat16; use DLPack \
                 (torch.from_dlpack(t))"
                    .to_string(),
            ));
        };
        let size = t.dtype().size() as isize;
        let d = PyDict::new(py);
        d.set_item("shape", PyTuple::new(py, t.shape())?)?;
        d.set_item("typestr", ts)?;
        let ptr = if t.numel() == 0 {
            0
        } else {
            t.data_ptr() as usize
        };
        d.set_item("data", (ptr, !t.storage().is_writable()))?;
        if t.is_contiguous() {
            d.set_item("strides", py.None())?;
        } else {
            let strides: Vec<isize> = t.strides().iter().map(|&s| s * size).collect();
            d.set_item("strides", PyTuple::new(py, strides)?)?;
        }
        d.set_item("version", 3)?;
        let device = t.device();
        let stream = py
            .detach(|| clika_rt::backend::stream_handle(device))
            .py()?;
        d.set_item("stream", stream)?;
        Ok(d)
    }
}

/// What an imported tensor keeps: the producer's object, released with the interpreter
/// attached (or parked by pyo3 if it has gone).
struct Producer(Option<Py<PyAny>>);

impl Drop for Producer {
    fn drop(&mut self) {
        let obj = self.0.take();
        let _ = Python::try_attach(move |_| drop(obj));
    }
}

/// A tensor over the memory `obj.__cuda_array_interface__` describes, keeping `obj` alive.
pub fn import(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let py = obj.py();
    let info = obj.getattr("__cuda_array_interface__")?;
    let info = info.cast::<PyDict>().map_err(|_| {
        raise(
            ErrorKind::InvalidArgument,
            "__cuda_array_interface__ is not a dict",
        )
    })?;
    let item = |key: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        Ok(info.get_item(key)?.filter(|v| !v.is_none()))
    };
    let need = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        item(key)?.ok_or_else(|| {
            raise(
                ErrorKind::InvalidArgument,
                format!("__cuda_array_interface__ has no {key:?} entry"),
            )
        })
    };
    if item("mask")?.is_some() {
        return Err(raise(
            ErrorKind::InvalidArgument,
            "__cuda_array_interface__: masked arrays are not supported; fill the masked values \
             first",
        ));
    }
    let shape: Vec<i64> = need("shape")?.extract()?;
    let dtype = dtype_of(&need("typestr")?.extract::<String>()?)?;
    let (ptr, read_only): (usize, bool) = need("data")?.extract()?;
    let strides = match item("strides")? {
        None => None,
        Some(s) => {
            let bytes: Vec<i64> = s.extract()?;
            let size = dtype.size() as i64;
            if bytes.iter().any(|b| b % size != 0) {
                return Err(raise(
                    ErrorKind::Layout,
                    format!(
                        "__cuda_array_interface__: byte strides {bytes:?} are not multiples of \
                         the {size}-byte element; copy the array first"
                    ),
                ));
            }
            Some(bytes.into_iter().map(|b| b / size).collect::<Vec<_>>())
        }
    };
    let numel: i64 = shape.iter().product();
    let device = if ptr == 0 && numel == 0 {
        clika_rt::Device::cuda(0)
    } else {
        py.detach(|| clika_rt::backend::cuda_device_of(ptr)).py()?
    };
    let memory =
        ForeignMemory::check(ptr as *mut u8, &shape, strides.as_deref(), dtype, device).py()?;
    // Version 3: the producer's work on `stream` must be done before the memory is used.
    if let Some(stream) = item("stream")? {
        let stream: usize = stream.extract()?;
        py.detach(|| clika_rt::backend::wait_for_external_stream(device, stream))
            .py()?;
    }
    let keep = Owner::keepalive(Producer(Some(obj.clone().unbind())));
    // SAFETY: the interface's contract: the memory it describes stays valid (for writes
    // unless flagged read-only) while the object that exposes it lives, which the storage
    // keeps; the pointer was checked to be this device's memory at both ends.
    Ok(unsafe { memory.wrap(keep, None, read_only) })
}
