//! The buffer protocol on `Tensor` (`memoryview(t)`, `bytes(t)`, `struct.unpack_from`,
//! `array.array(...).frombytes`, any C extension that calls `PyObject_GetBuffer`): host
//! tensors export their memory in place, with numpy's rules for which requests a layout
//! can answer.
//!
//! The export keeps the tensor object alive (`view.obj`), and the tensor class is frozen,
//! so the storage it points into outlives every export. Read-only tensors export read-only
//! buffers and refuse writable requests.

use std::ffi::{c_int, CStr};

use clika_rt::{DType, Tensor};
use pyo3::exceptions::PyBufferError;
use pyo3::ffi;
use pyo3::prelude::*;

use crate::tensor::PyTensor;

/// What one export owns until `__releasebuffer__`: the shape and byte strides it hands out.
struct Export {
    shape: Vec<ffi::Py_ssize_t>,
    strides: Vec<ffi::Py_ssize_t>,
}

/// The `struct` module's code for one element, or `None` for a dtype it has no code for.
fn format(dtype: DType) -> Option<&'static CStr> {
    Some(match dtype {
        DType::Float32 => c"f",
        DType::Float64 => c"d",
        DType::Float16 => c"e",
        DType::BFloat16 => return None,
        DType::Int8 => c"b",
        DType::Int16 => c"h",
        DType::Int32 => c"i",
        DType::Int64 => c"q",
        DType::UInt8 => c"B",
        DType::Bool => c"?",
        DType::UInt16 => c"H",
        DType::UInt32 => c"I",
        DType::UInt64 => c"Q",
    })
}

/// Column-major without gaps (size-1 dimensions' strides do not matter; empty counts).
fn is_f_contiguous(t: &Tensor) -> bool {
    if t.numel() == 0 {
        return true;
    }
    let mut expected: isize = 1;
    for (&d, &s) in t.shape().iter().zip(t.strides()) {
        if d != 1 {
            if s != expected {
                return false;
            }
            expected *= d as isize;
        }
    }
    true
}

/// The strides an export reports, in bytes. A contiguous layout reports the canonical
/// row-major (else column-major) strides, whatever its size-1 and empty dimensions' strides
/// are, as numpy's export does: consumers that judge contiguity from the strides alone
/// (`memoryview.c_contiguous`, Cython's contiguous memoryviews) then see what is true.
fn byte_strides(t: &Tensor, item: ffi::Py_ssize_t) -> Vec<ffi::Py_ssize_t> {
    let canonical = |dims: &mut dyn Iterator<Item = (usize, &mut ffi::Py_ssize_t)>| {
        let mut next = item;
        for (d, s) in dims {
            *s = next;
            next *= d as ffi::Py_ssize_t;
        }
    };
    let mut out: Vec<ffi::Py_ssize_t> = t
        .strides()
        .iter()
        .map(|&s| s as ffi::Py_ssize_t * item)
        .collect();
    let shape = t.shape();
    if t.is_contiguous() {
        canonical(&mut shape.iter().copied().zip(out.iter_mut()).rev());
    } else if is_f_contiguous(t) {
        canonical(&mut shape.iter().copied().zip(out.iter_mut()));
    }
    out
}

/// Why `flags` cannot be answered for `t`, or `None` when they can.
fn refusal(t: &Tensor, flags: c_int) -> Option<String> {
    let has = |f: c_int| flags & f == f;
    if !t.device().is_cpu() {
        return Some(format!(
            "the buffer protocol exports host memory, but this tensor is on {}; move it \
             first: memoryview(t.to('cpu'))",
            t.device()
        ));
    }
    if format(t.dtype()).is_none() {
        return Some(
            "bfloat16 has no buffer-protocol format code; export it as float32 \
             (memoryview(t.to(crt.float32))) or numpy's view of its bits"
                .to_string(),
        );
    }
    if has(ffi::PyBUF_WRITABLE) && !t.storage().is_writable() {
        return Some(
            "the tensor is read-only (its memory was lent read-only); ask for a read-only \
             buffer, or export a writable copy: memoryview(t.clone())"
                .to_string(),
        );
    }
    let c = t.is_contiguous();
    let f = is_f_contiguous(t);
    let needs = if has(ffi::PyBUF_C_CONTIGUOUS) && !c {
        Some("C-contiguous")
    } else if has(ffi::PyBUF_F_CONTIGUOUS) && !f {
        Some("Fortran-contiguous")
    } else if has(ffi::PyBUF_ANY_CONTIGUOUS) && !(c || f) {
        Some("contiguous")
    } else if !has(ffi::PyBUF_STRIDES) && !c {
        Some("C-contiguous (the consumer takes no strides)")
    } else {
        None
    };
    needs.map(|what| {
        format!(
            "the consumer asked for a {what} buffer and the tensor's strides {:?} are not; \
             export a contiguous copy: memoryview(t.contiguous())",
            t.strides()
        )
    })
}

#[pymethods]
impl PyTensor {
    /// Exports a host tensor's memory without a copy (PEP 3118). Strided views are exported
    /// with their strides to consumers that accept them (memoryview does); a consumer that
    /// needs contiguous memory gets a `BufferError` naming `t.contiguous()`.
    ///
    /// # Safety
    /// Called by Python's buffer machinery with a valid `view` to fill.
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        if view.is_null() {
            return Err(PyBufferError::new_err("the buffer view is null"));
        }
        let t = &slf.get().inner;
        if let Some(why) = refusal(t, flags) {
            return Err(PyBufferError::new_err(why));
        }
        let item = t.dtype().size() as ffi::Py_ssize_t;
        let export = Box::new(Export {
            shape: t.shape().iter().map(|&d| d as ffi::Py_ssize_t).collect(),
            strides: byte_strides(t, item),
        });
        let has = |f: c_int| flags & f == f;
        // SAFETY: `view` is non-null and CPython hands us a `Py_buffer` to fill. The
        // pointers stored in it stay valid until `__releasebuffer__`: `shape`/`strides`
        // point into the boxed `Export` stored in `internal` (freed there), the format is a
        // static string, and `buf` points into the storage of a frozen tensor that `obj`
        // (a new reference to it) keeps alive; by the layout invariant L3 every element the
        // shape and strides reach from `buf` lies inside that storage.
        unsafe {
            (*view).buf = t.data_ptr().cast();
            (*view).len = t.numel() as ffi::Py_ssize_t * item;
            (*view).itemsize = item;
            (*view).readonly = c_int::from(!t.storage().is_writable());
            // Without PyBUF_ND the consumer reads `len` bytes: one dimension, no shape
            // (as CPython's own `PyBuffer_FillInfo` answers; hashlib needs ndim <= 1).
            (*view).ndim = if has(ffi::PyBUF_ND) {
                t.ndim() as c_int
            } else {
                1
            };
            (*view).format = if has(ffi::PyBUF_FORMAT) {
                format(t.dtype()).map_or(std::ptr::null_mut(), |f| f.as_ptr().cast_mut())
            } else {
                std::ptr::null_mut()
            };
            (*view).shape = if has(ffi::PyBUF_ND) {
                export.shape.as_ptr().cast_mut()
            } else {
                std::ptr::null_mut()
            };
            (*view).strides = if has(ffi::PyBUF_STRIDES) {
                export.strides.as_ptr().cast_mut()
            } else {
                std::ptr::null_mut()
            };
            (*view).suboffsets = std::ptr::null_mut();
            (*view).internal = Box::into_raw(export).cast();
            (*view).obj = slf.into_any().into_ptr();
        }
        Ok(())
    }

    /// Frees what `__getbuffer__` allocated for one export.
    ///
    /// # Safety
    /// Called by Python's buffer machinery once per successful `__getbuffer__`, with its view.
    unsafe fn __releasebuffer__(&self, view: *mut ffi::Py_buffer) {
        // SAFETY: `internal` was set by `__getbuffer__` from `Box::into_raw` and is released
        // exactly once, here (CPython calls this once per export; `obj` is released by it).
        unsafe {
            let internal = (*view).internal.cast::<Export>();
            if !internal.is_null() {
                (*view).internal = std::ptr::null_mut();
                drop(Box::from_raw(internal));
            }
        }
    }
}
