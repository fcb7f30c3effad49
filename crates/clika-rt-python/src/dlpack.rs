//! DLPack, both ways, following the Python array-API protocol: `t.__dlpack__(…)` /
//! `t.__dlpack_device__()` export, and `crt.from_dlpack(obj)` imports.
//!
//! Capsules are named `dltensor_versioned` (DLPack ≥ 1.0, with the read-only flag) or
//! `dltensor` (legacy, for consumers that pass no `max_version`). A consumer renames the
//! capsule to `used_…` when it takes ownership; the capsule's destructor runs the managed
//! tensor's deleter only if nobody did, so the deleter runs exactly once either way.

use std::ffi::{c_char, c_void, CStr};

use clika_rt::io::dlpack::{self as dl, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned};
use clika_rt::{Device, DeviceKind, ErrorKind, Tensor};
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::{raise, IntoPyResult};
use crate::tensor::PyTensor;

const VERSIONED: &CStr = c"dltensor_versioned";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const LEGACY: &CStr = c"dltensor";
const USED_LEGACY: &CStr = c"used_dltensor";

/// How many exported capsules' deleters have not run yet (`_dlpack_live_exports`).
pub fn live_exports() -> isize {
    dl::live_exports()
}

/// The arguments of `__dlpack__`.
#[derive(Debug)]
pub struct Request {
    /// The consumer's stream (`None` when it passed `None`): CPU tensors take none; for a
    /// CUDA tensor `None` means the legacy default stream and `-1` "do not synchronise".
    pub stream: Option<i64>,
    /// The newest version the consumer understands; `None`: legacy only.
    pub max_version: Option<(u32, u32)>,
    /// The device the consumer wants the data on.
    pub dl_device: Option<(i32, i32)>,
    /// `True`: always copy; `False`: never; `None`: only if needed (never, here).
    pub copy: Option<bool>,
}

/// The `stream` argument of `__dlpack__` as an integer (`None` stays `None`).
pub fn stream_arg(stream: Option<&Bound<'_, PyAny>>) -> PyResult<Option<i64>> {
    match stream.filter(|s| !s.is_none()) {
        None => Ok(None),
        Some(s) => s.extract::<i64>().map(Some).map_err(|_| {
            PyTypeError::new_err(
                "__dlpack__: stream must be None or an integer (a CUDA stream handle, 1 for the \
                 legacy default stream, 2 for the per-thread one, -1 for no synchronisation)",
            )
        }),
    }
}

/// Makes the consumer's `stream` wait for the runtime's work on a CUDA tensor's device
/// (DLPack: the producer orders its work before the consumer's stream; `None` names the
/// legacy default stream, `-1` asks for nothing).
fn order_consumer(t: &Tensor, stream: Option<i64>) -> PyResult<()> {
    let stream = stream.unwrap_or(1);
    if stream == -1 {
        return Ok(());
    }
    let handle = usize::try_from(stream)
        .ok()
        .filter(|&h| h != 0)
        .ok_or_else(|| {
            PyBufferError::new_err(format!(
                "__dlpack__: stream {stream} is not a CUDA stream (0 is ambiguous and negative \
             values other than -1 are not handles)"
            ))
        })?;
    clika_rt::backend::order_external_stream_after(t.device(), handle).py()
}

/// `(device_type, device_id)` as `__dlpack_device__` reports it.
pub fn device_of(device: Device) -> (i32, i32) {
    dl::device_of(device)
}

unsafe extern "C" fn versioned_capsule_destructor(capsule: *mut ffi::PyObject) {
    // SAFETY: called by Python with a live capsule. Still named `dltensor_versioned` means
    // no consumer took ownership, so the deleter has not run: run it now, once.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, VERSIONED.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(capsule, VERSIONED.as_ptr())
                .cast::<DLManagedTensorVersioned>();
            if let Some(deleter) = (*p).deleter {
                deleter(p);
            }
        }
    }
}

unsafe extern "C" fn legacy_capsule_destructor(capsule: *mut ffi::PyObject) {
    // SAFETY: as for `versioned_capsule_destructor`, with the legacy name and struct.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, LEGACY.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(capsule, LEGACY.as_ptr()).cast::<DLManagedTensor>();
            if let Some(deleter) = (*p).deleter {
                deleter(p);
            }
        }
    }
}

/// A capsule owning `ptr`; if creating it fails, `undo` frees `ptr`.
fn capsule<'py>(
    py: Python<'py>,
    ptr: *mut c_void,
    name: &'static CStr,
    destructor: unsafe extern "C" fn(*mut ffi::PyObject),
    undo: impl FnOnce(),
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `name` is static; `ptr` is non-null and owned by the capsule from here on.
    let raw = unsafe { ffi::PyCapsule_New(ptr, name.as_ptr(), Some(destructor)) };
    if raw.is_null() {
        undo();
        return Err(PyErr::fetch(py));
    }
    // SAFETY: a new reference.
    Ok(unsafe { Bound::from_owned_ptr(py, raw) })
}

/// `t.__dlpack__(…)`.
pub fn export<'py>(py: Python<'py>, t: &Tensor, req: Request) -> PyResult<Bound<'py, PyAny>> {
    match t.device().kind() {
        DeviceKind::Cpu | DeviceKind::Auto => {
            if req.stream.is_some() {
                return Err(PyBufferError::new_err(
                    "__dlpack__: CPU tensors take stream=None",
                ));
            }
        }
        DeviceKind::Cuda => {}
        DeviceKind::Gpu => {
            return Err(PyBufferError::new_err(format!(
                "__dlpack__: the tensor is on {}, whose buffers have no address another \
                 library can use; move it first: t.to('cpu') (or use a cuda:N device)",
                t.device()
            )))
        }
    }
    if let Some(dev) = req.dl_device {
        if dev != device_of(t.device()) {
            return Err(PyBufferError::new_err(format!(
                "__dlpack__: cannot export a tensor on {} to DLPack device {dev:?}; move it first with t.to(...)",
                t.device()
            )));
        }
    }
    let copied = req.copy == Some(true);
    let tensor = if copied {
        py.detach(|| t.contiguous_copy()).py()?
    } else {
        t.clone()
    };
    if t.device().kind() == DeviceKind::Cuda {
        order_consumer(&tensor, req.stream)?;
    }
    match req.max_version {
        Some((major, _)) if major >= 1 => {
            let p = dl::export_versioned(tensor, copied).py()?;
            let undo = move || {
                // SAFETY: `p` is the export just made; no capsule owns it (creation failed),
                // so its deleter runs here, once.
                unsafe { ((*p).deleter.expect("our exports have a deleter"))(p) }
            };
            capsule(py, p.cast(), VERSIONED, versioned_capsule_destructor, undo)
        }
        _ => {
            if !tensor.storage().is_writable() {
                return Err(PyBufferError::new_err(
                    "__dlpack__: the tensor is read-only, which legacy DLPack cannot signal; pass max_version=(1, 0) or copy=True",
                ));
            }
            let p = dl::export_legacy(tensor).py()?;
            let undo = move || {
                // SAFETY: as above, for the legacy export.
                unsafe { ((*p).deleter.expect("our exports have a deleter"))(p) }
            };
            capsule(py, p.cast(), LEGACY, legacy_capsule_destructor, undo)
        }
    }
}

fn capsule_name(cap: &Bound<'_, PyAny>) -> PyResult<&'static CStr> {
    // SAFETY: checked to be a capsule first; the name pointer is read while the GIL is held.
    unsafe {
        if ffi::PyCapsule_CheckExact(cap.as_ptr()) == 0 {
            return Err(PyTypeError::new_err(
                "__dlpack__ did not return a PyCapsule",
            ));
        }
        let name: *const c_char = ffi::PyCapsule_GetName(cap.as_ptr());
        if name.is_null() {
            return Err(PyErr::take(cap.py())
                .unwrap_or_else(|| PyTypeError::new_err("capsule without a name")));
        }
        let name = CStr::from_ptr(name);
        for known in [VERSIONED, LEGACY, USED_VERSIONED, USED_LEGACY] {
            if name == known {
                return Ok(known);
            }
        }
        Err(PyTypeError::new_err(format!(
            "from_dlpack: unexpected capsule name {name:?}"
        )))
    }
}

/// Takes ownership of a `dltensor_versioned` / `dltensor` capsule.
fn import_capsule(cap: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let name = capsule_name(cap)?;
    // SAFETY: the name was checked; the pointer is the producer's managed tensor, valid until
    // its deleter runs, which nobody does before the capsule is renamed or destroyed.
    let ptr = unsafe { ffi::PyCapsule_GetPointer(cap.as_ptr(), name.as_ptr()) };
    if ptr.is_null() {
        return Err(PyErr::fetch(cap.py()));
    }
    let (tensor, used) = if name == VERSIONED {
        // SAFETY: a versioned managed tensor, per the capsule name, that the capsule still
        // owns (not yet renamed `used_…`): live, its deleter not run; the capsule is renamed
        // only once this succeeds, and on failure the import took nothing.
        let t = unsafe { dl::import_versioned(ptr.cast::<DLManagedTensorVersioned>()) }.py()?;
        (t, USED_VERSIONED)
    } else if name == LEGACY {
        // Legacy DLPack cannot say whether the memory may be written (JAX arrays are
        // immutable), so, as numpy does, a legacy import is read-only.
        // SAFETY: as above, for a legacy managed tensor.
        let t = unsafe { dl::import_legacy(ptr.cast::<DLManagedTensor>(), true) }.py()?;
        (t, USED_LEGACY)
    } else {
        return Err(raise(
            ErrorKind::InvalidArgument,
            "from_dlpack: this DLPack capsule was already consumed",
        ));
    };
    // SAFETY: a live capsule; renaming marks it consumed so its destructor leaves the
    // deleter to the tensor.
    if unsafe { ffi::PyCapsule_SetName(cap.as_ptr(), used.as_ptr()) } != 0 {
        // Cannot happen for a valid capsule; never let both sides run the deleter.
        std::mem::forget(tensor);
        return Err(PyErr::fetch(cap.py()));
    }
    Ok(tensor)
}

/// `crt.from_dlpack(obj)`: any object with `__dlpack__` (numpy, PyTorch, JAX, …), sharing
/// its memory.
pub fn from_dlpack(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let py = obj.py();
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Ok(t.get().inner.clone());
    }
    if !obj.hasattr("__dlpack__")? {
        if obj.hasattr("__cuda_array_interface__")? {
            return crate::cuda_interface::import(obj);
        }
        let ty = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        return Err(raise(
            ErrorKind::InvalidArgument,
            format!("from_dlpack: {ty} has neither __dlpack__ nor __cuda_array_interface__; use crt.tensor(obj) to copy it"),
        ));
    }
    let dl_device = if obj.hasattr("__dlpack_device__")? {
        let (kind, id): (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
        Some((kind, id))
    } else {
        None
    };
    // A device producer orders its work before the stream it is given: the runtime's.
    let stream = match dl_device {
        Some((kind, id)) if kind != DLDeviceType::CPU.0 as i32 => {
            let device = dl::device_from_dl(dl::DLDevice {
                device_type: DLDeviceType(kind as u32),
                device_id: id,
            })
            .py()?;
            if device.is_cpu() {
                None
            } else {
                Some(
                    py.detach(|| clika_rt::backend::stream_handle(device))
                        .py()?,
                )
            }
        }
        _ => None,
    };
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_version", (dl::VERSION.major, dl::VERSION.minor))?;
    if let Some(s) = stream {
        kwargs.set_item("stream", s)?;
    }
    let cap = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        // A producer that predates max_version.
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            kwargs.del_item("max_version")?;
            obj.call_method("__dlpack__", (), Some(&kwargs))?
        }
        Err(e) => return Err(e),
    };
    import_capsule(&cap)
}
