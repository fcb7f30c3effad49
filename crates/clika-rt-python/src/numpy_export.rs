//! tensor → numpy: `t.numpy()` (a zero-copy view whose base is the tensor) and
//! `__array__` with numpy 2's `copy=` semantics.

use std::os::raw::c_int;

use clika_rt::{DType, ErrorKind};
use numpy::npyffi::{get_type_object, npy_intp, NpyTypes, NPY_ARRAY_WRITEABLE, PY_ARRAY_API};
use numpy::PyArrayDescrMethods;
use pyo3::prelude::*;

use crate::dtype::to_numpy_descr;
use crate::error::{raise, IntoPyResult};
use crate::tensor::PyTensor;

/// A numpy array over the tensor's memory, with the tensor object as its `base`, so the
/// view keeps the storage alive however long it outlives the tensor's name. Strided
/// tensors give strided views (negative strides included); read-only storage gives a
/// read-only array.
pub fn view<'py>(slf: &Bound<'py, PyTensor>) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let t = &slf.get().inner;
    if !t.device().is_cpu() {
        return Err(raise(
            ErrorKind::Device,
            format!("numpy() needs host memory but the tensor is on {}; move it first: t.to('cpu').numpy()", t.device()),
        ));
    }
    let descr = to_numpy_descr(py, t.dtype())?;
    let item = t.dtype().size() as npy_intp;
    let mut dims: Vec<npy_intp> = t.shape().iter().map(|&d| d as npy_intp).collect();
    let mut strides: Vec<npy_intp> = t.strides().iter().map(|&s| s as npy_intp * item).collect();
    let flags: c_int = if t.storage().is_writable() {
        NPY_ARRAY_WRITEABLE
    } else {
        0
    };
    // SAFETY: the GIL is held. `descr` is a new reference that `PyArray_NewFromDescr` steals.
    // `dims` and `strides` hold `ndim` entries and are copied by numpy. By the layout
    // invariant L3 every element they reach from `data_ptr()` lies inside the storage, which
    // the base object (the tensor, set below) keeps alive as long as the array lives.
    let raw = unsafe {
        PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            get_type_object(py, NpyTypes::PyArray_Type),
            descr.into_dtype_ptr(),
            dims.len() as c_int,
            dims.as_mut_ptr(),
            strides.as_mut_ptr(),
            t.data_ptr().cast(),
            flags,
            std::ptr::null_mut(),
        )
    };
    // SAFETY: `raw` is a new reference or null with an exception set.
    let arr = unsafe { Bound::from_owned_ptr_or_err(py, raw)? };
    // SAFETY: `arr` is a fresh ndarray without a base; SetBaseObject steals the new
    // reference to the tensor, also on failure.
    let rc = unsafe {
        PY_ARRAY_API.PyArray_SetBaseObject(
            py,
            arr.as_ptr().cast(),
            slf.clone().into_any().into_ptr(),
        )
    };
    if rc < 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(arr)
}

/// `np.asarray(t, dtype=None, copy=None)`: zero-copy when neither a dtype change nor
/// `copy=True` asks for a copy; `copy=False` refuses any copy.
pub fn array<'py>(
    slf: &Bound<'py, PyTensor>,
    dtype: Option<&Bound<'py, PyAny>>,
    copy: Option<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let t = &slf.get().inner;
    let no_copy = || {
        raise(
            ErrorKind::InvalidArgument,
            "a copy is needed (dtype conversion) but copy=False was passed; pass copy=None to allow it",
        )
    };
    if t.dtype() == DType::BFloat16 {
        if copy == Some(false) {
            return Err(no_copy());
        }
        let f32 = PyTensor::wrap(py, t.to_dtype(DType::Float32).py()?)?;
        return array(&f32, dtype, None);
    }
    let arr = view(slf)?;
    let wanted = match dtype {
        Some(d) if !d.is_none() => Some(numpy::PyArrayDescr::new(py, d)?),
        _ => None,
    };
    let convert = match &wanted {
        Some(w) => !w.is_equiv_to(&to_numpy_descr(py, t.dtype())?),
        None => false,
    };
    if convert && copy == Some(false) {
        return Err(no_copy());
    }
    match (wanted, convert || copy == Some(true)) {
        (Some(w), true) => arr.call_method1("astype", (w,)),
        (None, true) => arr.call_method0("copy"),
        (_, false) => Ok(arr),
    }
}

#[pymethods]
impl PyTensor {
    /// numpy's array interface (version 3) for host tensors of a dtype numpy has: shape,
    /// `typestr`, byte strides, and the data pointer with the read-only flag. A consumer keeps
    /// this tensor (the object it read the interface from) alive while it uses the memory,
    /// so the memory is shared, not copied. Absent (`AttributeError`) for device tensors and
    /// bfloat16, so numpy falls back to `__array__` (which converts bfloat16 to float32, and
    /// refuses device memory naming the move).
    #[getter]
    fn __array_interface__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let t = &slf.get().inner;
        if !t.device().is_cpu() || t.dtype() == DType::BFloat16 {
            return Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "__array_interface__ describes host memory of a numpy dtype, not a {} tensor on {}",
                t.dtype(),
                t.device()
            )));
        }
        // The interface of a zero-copy view describes exactly this tensor's memory; the
        // view itself may go, since the consumer holds this tensor.
        view(slf)?.getattr("__array_interface__")
    }
}
