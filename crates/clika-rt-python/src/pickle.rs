//! Tensors that leave the process: `copy.copy` / `copy.deepcopy` (new memory, same values,
//! numpy's meaning) and pickling (`__reduce_ex__`).
//!
//! What a pickle carries: the dtype's name, the shape, the strides (in elements), the
//! offset of element `[0, …, 0]` inside the bytes, and the bytes of the span the elements
//! cover. A tensor whose elements fill their span exactly (row-major, or any permutation
//! or flip of it, such as `t.T`) is sent as it is, strides kept; one with gaps or repeats
//! (a stepped slice, a broadcast) is compacted to row-major first. Protocol 5 sends the
//! bytes as a `pickle.PickleBuffer`, so a consumer that takes buffers out of band (Ray,
//! `pickle.dumps(..., buffer_callback=)`) never copies them, and unpickling wraps whatever
//! buffer it is given without a copy (read-only when that buffer is). Protocols 0–4 copy
//! the bytes into the stream (a `bytearray`, or `bytes` for a read-only tensor, so the
//! received tensor is writable exactly when the sent one was). Device tensors are
//! refused: move them with `.to("cpu")` first.

use clika_rt::{ErrorKind, Tensor};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyTuple};

use crate::error::{raise, IntoPyResult};
use crate::numpy_export;
use crate::ops::run;
use crate::tensor::PyTensor;

fn copied(py: Python<'_>, t: &Tensor) -> PyResult<PyTensor> {
    Ok(PyTensor {
        inner: run(py, t.numel(), || t.contiguous_copy())?,
    })
}

#[pymethods]
impl PyTensor {
    /// `copy.copy(t)`: a copy in new memory (numpy's meaning; same as `clone()`).
    fn __copy__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        copied(py, &self.inner)
    }

    /// `copy.deepcopy(t)`: a copy in new memory (same as `clone()`).
    fn __deepcopy__(&self, py: Python<'_>, memo: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let _ = memo;
        copied(py, &self.inner)
    }

    /// Pickling support; see the module `pickle` documentation of `clika_runtime`.
    fn __reduce_ex__<'py>(slf: &Bound<'py, Self>, protocol: i64) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let t = &slf.get().inner;
        if !t.device().is_cpu() {
            return Err(raise(
                ErrorKind::Device,
                format!(
                    "cannot pickle a tensor on {}: a pickle carries host bytes; move it first \
                     with t.to(\"cpu\") (and back with .to(\"{}\") after unpickling)",
                    t.device(),
                    t.device()
                ),
            ));
        }
        let compact;
        let (sent, span) = match t.dense_span() {
            Some(span) => (t, Some(span)),
            None if t.numel() == 0 => (t, None),
            None => {
                compact = run(py, t.numel(), || t.contiguous_copy())?;
                let span = compact.dense_span();
                (&compact, span)
            }
        };
        let (buffer, offset) = match span {
            None => (PyBytes::new(py, &[]).into_any(), 0),
            Some((bytes, offset)) if protocol >= 5 => {
                let view = numpy_export::view(&PyTensor::wrap(py, bytes)?)?;
                let pickle_buffer = py.import("pickle")?.getattr("PickleBuffer")?;
                (pickle_buffer.call1((view,))?, offset)
            }
            Some((bytes, offset)) => {
                let data = run(py, bytes.numel(), || bytes.to_vec::<u8>())?;
                let buffer = if bytes.storage().is_writable() {
                    PyByteArray::new(py, &data).into_any()
                } else {
                    PyBytes::new(py, &data).into_any()
                };
                (buffer, offset)
            }
        };
        let rebuild = py
            .import("clika_runtime._native")?
            .getattr("_rebuild_tensor")?;
        let args = (
            buffer,
            sent.dtype().short_name(),
            PyTuple::new(py, sent.shape())?,
            PyTuple::new(py, sent.strides())?,
            offset,
        );
        PyTuple::new(py, [rebuild, args.into_pyobject(py)?.into_any()])
    }
}

/// Unpickling: a tensor over `buffer` (whatever buffer the pickle or its consumer supplied)
/// with element `[0, …, 0]` at element `offset`, without a copy.
#[pyfunction]
#[pyo3(name = "_rebuild_tensor")]
pub fn rebuild_tensor(
    buffer: &Bound<'_, PyAny>,
    dtype: &str,
    shape: Vec<i64>,
    strides: Vec<i64>,
    offset: usize,
) -> PyResult<PyTensor> {
    let dtype = dtype.parse::<clika_rt::DType>().py()?;
    let offset = offset.checked_mul(dtype.size()).ok_or_else(|| {
        raise(
            ErrorKind::InvalidShape,
            format!("a pickled tensor's offset {offset} overflows"),
        )
    })?;
    Ok(PyTensor {
        inner: crate::buffer::wrap(buffer, dtype, Some(shape), Some(&strides), offset)?,
    })
}
