//! DLPack, both ways, following the Python array-API protocol: `t.__dlpack__(…)` /
//! `t.__dlpack_device__()` export, and `crt.from_dlpack(obj)` imports.
//!
//! Capsules are named `dltensor_versioned` (DLPack ≥ 1.0, with the read-only flag) or
//! `dltensor` (legacy, for consumers that pass no `max_version`). A consumer renames the
//! capsule to `used_…` when it takes ownership; the capsule's destructor runs the managed
//! tensor's deleter only if nobody did, so the deleter runs exactly once either way.

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicIsize, Ordering};

use clika_rt::{DType, Device, DeviceKind, ErrorKind, ForeignMemory, Owner, Tensor};
use dlpark::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned,
    DLPackVersion, DLTensor,
};
use dlpark::DlpackFlags;
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

/// The DLPack version this module produces (and the newest it asks producers for).
const VERSION: DLPackVersion = DLPackVersion { major: 1, minor: 1 };

/// Exported managed tensors whose deleter has not run yet (for tests: `_dlpack_live_exports`).
static LIVE_EXPORTS: AtomicIsize = AtomicIsize::new(0);

/// How many exported capsules' deleters have not run yet.
pub fn live_exports() -> isize {
    LIVE_EXPORTS.load(Ordering::SeqCst)
}

/// The arguments of `__dlpack__`.
#[derive(Debug)]
pub struct Request {
    /// Whether a stream other than `None` was passed (CPU tensors take none).
    pub stream_given: bool,
    /// The newest version the consumer understands; `None`: legacy only.
    pub max_version: Option<(u32, u32)>,
    /// The device the consumer wants the data on.
    pub dl_device: Option<(i32, i32)>,
    /// `True`: always copy; `False`: never; `None`: only if needed (never, here).
    pub copy: Option<bool>,
}

/// `(device_type, device_id)` as `__dlpack_device__` reports it.
pub fn device_of(device: Device) -> (i32, i32) {
    let kind = match device.kind() {
        DeviceKind::Cpu => DLDeviceType::CPU,
        DeviceKind::Gpu => DLDeviceType::VULKAN,
        DeviceKind::Cuda => DLDeviceType::CUDA,
        DeviceKind::Auto => DLDeviceType::CPU,
    };
    (kind.0 as i32, device.ordinal() as i32)
}

fn dl_dtype(dtype: DType) -> DLDataType {
    let code = match dtype {
        DType::Float32 | DType::Float64 | DType::Float16 => DLDataTypeCode::FLOAT,
        DType::BFloat16 => DLDataTypeCode::BFLOAT,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => DLDataTypeCode::INT,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => DLDataTypeCode::UINT,
        DType::Bool => DLDataTypeCode::BOOL,
    };
    DLDataType {
        code,
        bits: (dtype.size() * 8) as u8,
        lanes: 1,
    }
}

fn runtime_dtype(dl: DLDataType) -> PyResult<DType> {
    let dtype = match (dl.code, dl.bits, dl.lanes) {
        (DLDataTypeCode::FLOAT, 16, 1) => DType::Float16,
        (DLDataTypeCode::FLOAT, 32, 1) => DType::Float32,
        (DLDataTypeCode::FLOAT, 64, 1) => DType::Float64,
        (DLDataTypeCode::BFLOAT, 16, 1) => DType::BFloat16,
        (DLDataTypeCode::INT, 8, 1) => DType::Int8,
        (DLDataTypeCode::INT, 16, 1) => DType::Int16,
        (DLDataTypeCode::INT, 32, 1) => DType::Int32,
        (DLDataTypeCode::INT, 64, 1) => DType::Int64,
        (DLDataTypeCode::UINT, 8, 1) => DType::UInt8,
        (DLDataTypeCode::UINT, 16, 1) => DType::UInt16,
        (DLDataTypeCode::UINT, 32, 1) => DType::UInt32,
        (DLDataTypeCode::UINT, 64, 1) => DType::UInt64,
        (DLDataTypeCode::BOOL, 8, 1) => DType::Bool,
        (c, b, l) => {
            return Err(raise(
                ErrorKind::DType,
                format!("from_dlpack: DLPack dtype (code {}, bits {b}, lanes {l}) is not supported; the runtime supports float16/32/64, bfloat16, int8/16/32/64, uint8/16/32/64 and bool", c.0),
            ))
        }
    };
    Ok(dtype)
}

/// What an exported capsule owns: the tensor (keeping its storage alive) and the shape
/// and strides the `DLTensor` points at. `M` (the managed struct) comes first, so a
/// pointer to it is a pointer to the whole export.
#[repr(C)]
struct Export<M> {
    managed: M,
    tensor: Tensor,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

/// Boxes `tensor` with the `DLTensor` describing it. The shape and strides buffers are heap
/// allocations, so the pointers taken here stay valid when the vectors move into the box.
fn boxed<M>(tensor: Tensor, managed: impl FnOnce(DLTensor) -> M) -> Box<Export<M>> {
    let mut shape: Vec<i64> = tensor.shape().iter().map(|&d| d as i64).collect();
    let mut strides: Vec<i64> = tensor.strides().iter().map(|&s| s as i64).collect();
    let (dev_type, dev_id) = device_of(tensor.device());
    let dl = DLTensor {
        data: tensor.data_ptr().cast(),
        device: DLDevice {
            device_type: DLDeviceType(dev_type as u32),
            device_id: dev_id,
        },
        ndim: shape.len() as i32,
        dtype: dl_dtype(tensor.dtype()),
        shape: shape.as_mut_ptr(),
        strides: strides.as_mut_ptr(),
        byte_offset: 0,
    };
    LIVE_EXPORTS.fetch_add(1, Ordering::SeqCst);
    Box::new(Export {
        managed: managed(dl),
        tensor,
        shape,
        strides,
    })
}

unsafe extern "C" fn delete_versioned(p: *mut DLManagedTensorVersioned) {
    // SAFETY: `p` came from `Box::into_raw` of an `Export<DLManagedTensorVersioned>` (the
    // managed struct is its first field), and DLPack calls the deleter once.
    drop(unsafe { Box::from_raw(p.cast::<Export<DLManagedTensorVersioned>>()) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::SeqCst);
}

unsafe extern "C" fn delete_legacy(p: *mut DLManagedTensor) {
    // SAFETY: as for `delete_versioned`, with the legacy struct.
    drop(unsafe { Box::from_raw(p.cast::<Export<DLManagedTensor>>()) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::SeqCst);
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
    if !t.device().is_cpu() {
        return Err(PyBufferError::new_err(format!(
            "__dlpack__: the tensor is on {}, whose memory this build does not export; move it \
             first: t.to('cpu').numpy() or np.from_dlpack(t.to('cpu'))",
            t.device()
        )));
    }
    if req.stream_given {
        return Err(PyBufferError::new_err(
            "__dlpack__: CPU tensors take stream=None",
        ));
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
    let read_only = !tensor.storage().is_writable();
    match req.max_version {
        Some((major, _)) if major >= 1 => {
            let mut flags = DlpackFlags::empty();
            flags.set(DlpackFlags::READ_ONLY, read_only);
            flags.set(DlpackFlags::IS_COPIED, copied);
            let export = boxed(tensor, |dl_tensor| DLManagedTensorVersioned {
                version: VERSION,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_versioned),
                flags,
                dl_tensor,
            });
            let p = Box::into_raw(export).cast::<DLManagedTensorVersioned>();
            let undo = move || {
                // SAFETY: `p` is the export just leaked; no capsule owns it (creation failed).
                unsafe { delete_versioned(p) }
            };
            capsule(py, p.cast(), VERSIONED, versioned_capsule_destructor, undo)
        }
        _ => {
            if read_only {
                return Err(PyBufferError::new_err(
                    "__dlpack__: the tensor is read-only, which legacy DLPack cannot signal; pass max_version=(1, 0) or copy=True",
                ));
            }
            let export = boxed(tensor, |dl_tensor| DLManagedTensor {
                dl_tensor,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_legacy),
            });
            let p = Box::into_raw(export).cast::<DLManagedTensor>();
            let undo = move || {
                // SAFETY: as above, for the legacy export.
                unsafe { delete_legacy(p) }
            };
            capsule(py, p.cast(), LEGACY, legacy_capsule_destructor, undo)
        }
    }
}

/// Calls a producer's deleter exactly once, when the last tensor over its memory drops.
struct ProducerGuard {
    run: Option<Box<dyn FnOnce() + Send>>,
}

impl Drop for ProducerGuard {
    fn drop(&mut self) {
        if let Some(run) = self.run.take() {
            run();
        }
    }
}

/// A raw pointer that may cross threads: DLPack deleters may be called from any thread.
struct SendPtr<T>(*mut T);
// SAFETY: the pointee is a managed tensor whose only use here is its deleter, which the
// DLPack contract allows on any thread.
unsafe impl<T> Send for SendPtr<T> {}

/// The two managed-tensor structs, as far as an import needs them.
trait Managed: 'static {
    fn tensor(&self) -> &DLTensor;
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)>;
}

impl Managed for DLManagedTensorVersioned {
    fn tensor(&self) -> &DLTensor {
        &self.dl_tensor
    }
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
}

impl Managed for DLManagedTensor {
    fn tensor(&self) -> &DLTensor {
        &self.dl_tensor
    }
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
}

/// A guard that runs `p`'s own deleter.
///
/// # Safety
/// `p` must be a live managed tensor whose deleter nobody else runs.
unsafe fn guard_for<M: Managed>(p: *mut M) -> ProducerGuard {
    let sp = SendPtr(p);
    ProducerGuard {
        run: Some(Box::new(move || {
            let sp = sp;
            // SAFETY: `p` is live until its deleter runs, and the guard runs this once.
            unsafe {
                if let Some(d) = (*sp.0).deleter() {
                    d(sp.0)
                }
            }
        })),
    }
}

/// Builds a tensor over `dl`'s memory, owned by `guard`. On error the guard is defused
/// (the caller keeps ownership: the capsule's destructor will run the deleter).
///
/// # Safety
/// `dl` must describe memory valid (for reads, and writes unless `read_only`) until the
/// deleter that `guard` runs is called.
unsafe fn wrap(dl: &DLTensor, read_only: bool, mut guard: ProducerGuard) -> PyResult<Tensor> {
    let result = (|| {
        if dl.device.device_type != DLDeviceType::CPU {
            return Err(raise(
                ErrorKind::Device,
                format!("from_dlpack: only host (kDLCPU) memory can be imported by this build, got device type {}; move it to the CPU first", dl.device.device_type.0),
            ));
        }
        let dtype = runtime_dtype(dl.dtype)?;
        let ndim = usize::try_from(dl.ndim)
            .map_err(|_| raise(ErrorKind::InvalidShape, "from_dlpack: negative ndim"))?;
        if ndim > clika_rt::MAX_DIMS {
            return Err(raise(
                ErrorKind::InvalidShape,
                format!(
                    "from_dlpack: {ndim} dimensions; at most {} are supported",
                    clika_rt::MAX_DIMS
                ),
            ));
        }
        let read = |p: *mut i64| -> &[i64] {
            if ndim == 0 || p.is_null() {
                &[]
            } else {
                // SAFETY: DLPack guarantees `ndim` entries behind non-null shape/strides.
                unsafe { std::slice::from_raw_parts(p, ndim) }
            }
        };
        let shape = read(dl.shape);
        let strides = (!dl.strides.is_null() || ndim == 0).then(|| read(dl.strides));
        if shape.len() != ndim {
            return Err(raise(
                ErrorKind::NullPointer,
                "from_dlpack: the DLTensor has no shape",
            ));
        }
        let data = dl.data.cast::<u8>().wrapping_add(dl.byte_offset as usize);
        // Every check (sizes, overflow, null, alignment, wrap-around) is the core's.
        ForeignMemory::check(data, shape, strides, dtype, Device::cpu()).py()
    })();
    let memory = match result {
        Ok(m) => m,
        Err(e) => {
            guard.run = None;
            return Err(e);
        }
    };
    // SAFETY: the checked range stays valid while the guard is unrun; the guard runs the
    // producer's deleter only when this storage drops.
    Ok(unsafe { memory.wrap(Owner::keepalive(guard), None, read_only) })
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

/// A tensor over the memory of the capsule's managed tensor `p`, owning its deleter.
fn import_managed<M: Managed>(p: *mut M, read_only: bool) -> PyResult<Tensor> {
    // SAFETY: `p` comes from a capsule that still owns it (not yet renamed `used_…`), so it
    // is live and its deleter has not run; the capsule is renamed only once this succeeds.
    unsafe { wrap((*p).tensor(), read_only, guard_for(p)) }
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
        let p = ptr.cast::<DLManagedTensorVersioned>();
        // SAFETY: a versioned managed tensor, per the capsule name.
        let m = unsafe { &*p };
        if m.version.major != 1 {
            return Err(raise(
                ErrorKind::InvalidArgument,
                format!(
                    "from_dlpack: DLPack {}.{} is not supported (1.x is)",
                    m.version.major, m.version.minor
                ),
            ));
        }
        let read_only = m.flags.contains(DlpackFlags::READ_ONLY);
        (import_managed(p, read_only)?, USED_VERSIONED)
    } else if name == LEGACY {
        // Legacy DLPack cannot say whether the memory may be written (JAX arrays are
        // immutable), so, as numpy does, a legacy import is read-only.
        (
            import_managed(ptr.cast::<DLManagedTensor>(), true)?,
            USED_LEGACY,
        )
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
        let ty = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        return Err(raise(
            ErrorKind::InvalidArgument,
            format!("from_dlpack: {ty} has no __dlpack__ method; use crt.tensor(obj) to copy it"),
        ));
    }
    if obj.hasattr("__dlpack_device__")? {
        let (kind, id): (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
        if kind != DLDeviceType::CPU.0 as i32 {
            return Err(raise(
                ErrorKind::Device,
                format!("from_dlpack: the object lives on DLPack device ({kind}, {id}); this build imports host memory only: move it to the CPU first (e.g. x.cpu())"),
            ));
        }
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_version", (VERSION.major, VERSION.minor))?;
    let cap = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        // A producer that predates max_version.
        Err(e) if e.is_instance_of::<PyTypeError>(py) => obj.call_method0("__dlpack__")?,
        Err(e) => return Err(e),
    };
    import_capsule(&cap)
}
