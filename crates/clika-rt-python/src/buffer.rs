//! Any buffer-protocol exporter as a tensor without a copy: `crt.from_buffer` (bytes,
//! bytearray, memoryview, mmap, `SharedMemory.buf`, Arrow buffers, `PickleBuffer`s) and the
//! receiving half of unpickling.
//!
//! numpy's `frombuffer` takes the export (the path was written for Python 3.9's stable
//! ABI, which lacks `PyObject_GetBuffer`, and serves every exporter): it holds a
//! `memoryview` of the object for as long as the array lives, and the tensor's storage
//! holds the array. So the export lasts exactly as long as the tensor (`SharedMemory.close()`
//! under a live tensor raises `BufferError`), and a read-only exporter gives a read-only
//! tensor.

use clika_rt::{DType, ErrorKind, ForeignMemory, Tensor};
use numpy::PyUntypedArray;
use numpy::PyUntypedArrayMethods;
use pyo3::prelude::*;

use crate::error::{raise, IntoPyResult};
use crate::numpy_import::{keep_array, WriteableFlag};
use crate::tensor::PyTensor;

/// Wraps `shape` elements of `dtype` (with `strides` in elements, row-major when `None`)
/// whose element `[0, …, 0]` lies at byte `offset` of `obj`'s buffer. `shape = None` takes
/// every whole element from `offset` to the end, as a 1-D tensor.
pub fn wrap(
    obj: &Bound<'_, PyAny>,
    dtype: DType,
    shape: Option<Vec<i64>>,
    strides: Option<&[i64]>,
    offset: usize,
) -> PyResult<Tensor> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np
        .call_method1("frombuffer", (obj, np.getattr("uint8")?))
        .map_err(|e| {
            let ty = obj
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            raise(
                ErrorKind::InvalidArgument,
                format!(
                    "from_buffer: cannot take a contiguous buffer from a {ty} ({e}); pass an \
                     object with the buffer protocol (bytes, bytearray, memoryview, mmap, \
                     SharedMemory.buf) whose bytes are contiguous, or copy it with bytes(obj)"
                ),
            )
        })?;
    let arr = arr.cast::<PyUntypedArray>()?;
    let len = arr.len();
    // SAFETY: `arr` is a live 1-D uint8 ndarray (numpy's own result) and the GIL is held.
    let data = unsafe { (*arr.as_array_ptr()).fields.data.cast::<u8>() };
    let size = dtype.size();
    if offset > len {
        return Err(raise(
            ErrorKind::InvalidShape,
            format!("from_buffer: offset {offset} lies past the end of the {len}-byte buffer"),
        ));
    }
    let address = data as usize + offset;
    let empty = shape.as_ref().map_or(len == offset, |s| s.contains(&0));
    if !address.is_multiple_of(size) && !empty {
        return Err(raise(
            ErrorKind::Misaligned,
            format!(
                "from_buffer: byte offset {offset} into the buffer at {:#x} gives address \
                 {address:#x}, which is not aligned for {} ({size}-byte alignment); pass an \
                 offset that makes it a multiple of {size}, or copy the bytes into an aligned \
                 buffer first (crt.tensor(np.frombuffer(obj, dtype, offset=...)) copies)",
                data as usize,
                dtype.short_name()
            ),
        ));
    }
    let shape = match shape {
        Some(s) => s,
        None if (len - offset).is_multiple_of(size) => vec![((len - offset) / size) as i64],
        None => {
            return Err(raise(
                ErrorKind::InvalidShape,
                format!(
                    "from_buffer: the {} bytes after offset {offset} are not a whole number of \
                     {} elements ({size} bytes each); pass shape= or an offset that leaves a \
                     multiple of {size} bytes",
                    len - offset,
                    dtype.short_name()
                ),
            ))
        }
    };
    let memory = ForeignMemory::within(data, len, offset, &shape, strides, dtype).py()?;
    let read_only = !arr.is_writeable_flag();
    let owner = keep_array(arr)?;
    // SAFETY: every element the descriptor reaches lies inside the array's `len` bytes
    // (checked by `within`); the array keeps the exporter's buffer export (and so the
    // memory) alive, and is kept alive by the owner until the storage drops. Writes are
    // allowed only when the exporter granted a writable buffer. Concurrent writes by the
    // exporter's other users during a runtime read are the caller's responsibility, as for
    // every borrowed buffer.
    Ok(unsafe { memory.wrap(owner, None, read_only) })
}

#[doc = include_str!("../pydoc/from_buffer.md")]
#[pyfunction]
#[pyo3(signature = (obj, dtype, shape=None, offset=0))]
pub fn from_buffer(
    obj: &Bound<'_, PyAny>,
    dtype: &Bound<'_, PyAny>,
    shape: Option<&Bound<'_, PyAny>>,
    offset: usize,
) -> PyResult<PyTensor> {
    let dtype = crate::dtype::resolve(dtype)?;
    let shape = shape
        .filter(|s| !s.is_none())
        .map(crate::args::shape_of)
        .transpose()?
        .map(|s| s.iter().map(|&d| d as i64).collect());
    Ok(PyTensor {
        inner: wrap(obj, dtype, shape, None, offset)?,
    })
}
