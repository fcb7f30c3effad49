//! numpy → tensor: `from_numpy` (borrows the array's memory) and the copying `tensor`.

use clika_rt::{DType, Device, ErrorKind, ForeignMemory, Owner, Tensor};
use numpy::npyffi::{NPY_ARRAY_ALIGNED, NPY_ARRAY_C_CONTIGUOUS, NPY_ARRAY_WRITEABLE};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyWeakrefReference;

use crate::dtype::{from_numpy_descr, NUMPY_SUPPORTED};
use crate::error::{raise, IntoPyResult};

/// What a borrowing storage keeps: the array (so its memory stays allocated) and a weak
/// reference to it (numpy refuses to resize or reallocate an array that has weak
/// references, even with `refcheck=False`, so its memory cannot move while borrowed).
struct BorrowedArray {
    array: Option<Py<PyAny>>,
    weak: Option<Py<PyAny>>,
}

impl Drop for BorrowedArray {
    fn drop(&mut self) {
        let (array, weak) = (self.array.take(), self.weak.take());
        // Release with the interpreter attached (the last tensor may die on a thread that is
        // not); if it is gone (shutdown), leaking the references is the only safe choice.
        // If it is shutting down, the closure is dropped unrun and pyo3 parks the references.
        let _ = Python::try_attach(move |_| drop((weak, array)));
    }
}

/// Why an array cannot be borrowed, with the fix.
fn refuse(kind: ErrorKind, why: &str, fix: &str) -> PyErr {
    raise(kind, format!("from_numpy: {why}; {fix}"))
}

/// Checks everything a borrow needs and returns the runtime dtype, shape and data pointer.
fn check_borrowable(
    arr: &Bound<'_, PyUntypedArray>,
    need_writable: bool,
) -> PyResult<(DType, Vec<usize>, *mut u8)> {
    let descr = arr.dtype();
    let Some(dtype) = from_numpy_descr(&descr) else {
        return Err(refuse(
            ErrorKind::DType,
            &format!("dtype {} is not supported", descr.str()?),
            &format!(
                "supported dtypes are {NUMPY_SUPPORTED}; convert first, e.g. a.astype(np.float32)"
            ),
        ));
    };
    if descr.is_native_byteorder() == Some(false) {
        return Err(refuse(
            ErrorKind::DType,
            &format!("dtype {} is not in native byte order", descr.str()?),
            "convert first with a.astype(a.dtype.newbyteorder('='))",
        ));
    }
    // SAFETY: `arr` is a live ndarray (checked by the cast) and the GIL is held.
    let (flags, data) = unsafe {
        let fields = &(*arr.as_array_ptr()).fields;
        (fields.flags, fields.data.cast::<u8>())
    };
    if flags & NPY_ARRAY_C_CONTIGUOUS == 0 {
        return Err(refuse(
            ErrorKind::Layout,
            "the array is not C-contiguous, so it cannot be borrowed without a copy",
            "pass np.ascontiguousarray(a) (a contiguous copy), or use crt.tensor(a) to copy",
        ));
    }
    if need_writable && flags & NPY_ARRAY_WRITEABLE == 0 {
        return Err(refuse(
            ErrorKind::ReadOnly,
            "the array is read-only, and a tensor may write its memory",
            "wrap it read-only without a copy with crt.from_dlpack(a), or pass a writable \
             copy, a.copy(), or use crt.tensor(a), which copies",
        ));
    }
    if flags & NPY_ARRAY_ALIGNED == 0 {
        return Err(refuse(
            ErrorKind::Misaligned,
            &format!("the array's data is not aligned for {}", dtype.short_name()),
            "pass an aligned copy, a.copy(), or use crt.tensor(a), which copies",
        ));
    }
    Ok((dtype, arr.shape().to_vec(), data))
}

/// Wraps a checked array's memory as a tensor that keeps the array alive.
fn borrow(arr: &Bound<'_, PyUntypedArray>, need_writable: bool) -> PyResult<Tensor> {
    let (dtype, shape, data) = check_borrowable(arr, need_writable)?;
    // C-contiguous as numpy judges it: the row-major layout reaches exactly the same bytes
    // (numpy's strides may differ only on size-1 dimensions).
    let memory = ForeignMemory::contiguous(data, &shape, dtype, Device::cpu()).py()?;
    let writable = arr.is_writeable_flag();
    let owner = keep_array(arr)?;
    // SAFETY: numpy keeps an array's `nbytes` initialised bytes at `data` allocated for as
    // long as the array lives, and moves or frees them only in `resize`, which it refuses
    // for an array with weak references. The owner holds a strong reference (the array
    // lives) and a weak one (no resize) until the storage drops. Writes are allowed only if
    // numpy marks the array writeable. Concurrent writes from Python during a runtime read
    // are the caller's responsibility, as for every borrowed buffer.
    Ok(unsafe { memory.wrap(owner, None, !writable) })
}

/// An owner that keeps `arr` alive and unresizable (a strong and a weak reference) for as
/// long as a storage over its memory lives.
pub(crate) fn keep_array(arr: &Bound<'_, PyUntypedArray>) -> PyResult<Owner> {
    Ok(Owner::keepalive(BorrowedArray {
        weak: Some(PyWeakrefReference::new(arr)?.into_any().unbind()),
        array: Some(arr.clone().into_any().unbind()),
    }))
}

pub(crate) trait WriteableFlag {
    fn is_writeable_flag(&self) -> bool;
}

impl WriteableFlag for Bound<'_, PyUntypedArray> {
    fn is_writeable_flag(&self) -> bool {
        // SAFETY: a live ndarray, GIL held.
        unsafe { (*self.as_array_ptr()).fields.flags & NPY_ARRAY_WRITEABLE != 0 }
    }
}

fn as_ndarray<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyUntypedArray>> {
    obj.cast::<PyUntypedArray>().map_err(|_| {
        let ty = obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
        raise(
            ErrorKind::InvalidArgument,
            format!("from_numpy expects a numpy.ndarray, got {ty}; use crt.tensor(obj) to copy other objects"),
        )
    })
}

/// `crt.from_numpy(a)`: the array's own memory as a tensor, no copy.
pub fn from_numpy(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    borrow(as_ndarray(obj)?, true)
}

/// A kernel's result: a `crt.Tensor` as is; a numpy array the runtime can view (C-contiguous,
/// aligned, native order, supported dtype; read-only allowed) kept alive by the tensor
/// without a copy; anything else copied with `crt.tensor`'s rules.
pub fn adopt_result(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    if let Ok(t) = obj.cast::<crate::tensor::PyTensor>() {
        return Ok(t.get().inner.clone());
    }
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        if check_borrowable(arr, false).is_ok() {
            return borrow(arr, false);
        }
    }
    copy_from_python(obj)
}

/// `crt.tensor(obj)` for anything numpy can read (arrays, nested lists, scalars): always a
/// fresh runtime-owned copy, in native byte order.
pub fn copy_from_python(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("asarray", (obj,))?;
    let descr = as_ndarray(&arr)?.dtype();
    if from_numpy_descr(&descr).is_none() {
        return Err(raise(
            ErrorKind::DType,
            format!(
                "tensor: dtype {} is not supported; supported dtypes are {NUMPY_SUPPORTED}",
                descr.str()?
            ),
        ));
    }
    let native = descr.call_method1("newbyteorder", ("=",))?;
    // `require` keeps 0-d arrays 0-d (`ascontiguousarray` would make them 1-d).
    let compact = np.call_method1("require", (arr, native, ["C", "A"]))?;
    let view = borrow(as_ndarray(&compact)?, false)?;
    view.contiguous_copy().py()
}

/// `crt.tensor(obj, dtype=...)`: Python data (lists, ints, floats) is converted by numpy
/// straight to the dtype, so an int out of the dtype's range raises `OverflowError` as
/// `np.array([300], np.uint8)` does; numpy arrays and scalars are copied as they are and
/// converted afterwards (wrapping, as numpy's `astype`). bfloat16, which numpy lacks, is
/// reached through the default conversion.
pub fn copy_from_python_as(obj: &Bound<'_, PyAny>, dtype: clika_rt::DType) -> PyResult<Tensor> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let is_numpy =
        obj.is_instance_of::<PyUntypedArray>() || obj.is_instance(&np.getattr("generic")?)?;
    match crate::dtype::to_numpy_descr(py, dtype) {
        Ok(descr) if !is_numpy => {
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("dtype", descr)?;
            copy_from_python(&np.call_method("asarray", (obj,), Some(&kwargs))?)
        }
        _ => copy_from_python(obj),
    }
}
