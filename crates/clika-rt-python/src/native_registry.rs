//! One operator registry per process: the bridge between this extension's copy of the core
//! and the C/C++ library `libclika_rt`, when a process holds both.
//!
//! The extension carries its own copy of the core (a wheel cannot assume the C library is
//! installed), so a process that loads both — a C++ program embedding Python, or a Python
//! program using a C++ extension linked against `libclika_rt` — holds two registries. The
//! bridge joins them. It finds the library already loaded in the process by its soname
//! (`dlopen` with `RTLD_NOLOAD`: it never loads a second copy behind the program's back), or
//! loads the one `crt.ops.link_native(path)` names, and talks to it only through its C ABI,
//! the one interface that is stable between two separately compiled copies of the core:
//!
//! - an operator registered here (from Python, or from Rust in this copy) is also registered
//!   in `libclika_rt` under the same name, with C callbacks that call it here, so C++
//!   `ClikaRT::ops::call` reaches it;
//! - `crt.ops.call` of a name this copy does not know calls `libclika_rt`'s operator;
//! - `registered()` lists both; `unregister` removes the name from both.
//!
//! Tensors cross as descriptors (data pointer, shape, strides in elements, dtype) wrapped by
//! `from_blob` on the other side: no copy. Each wrapper keeps the original alive through a
//! deleter that releases it (a cloned C handle, or the boxed core tensor) exactly once, and
//! keeps its read-only flag, so a borrowed input is not writable on either side. Only CPU
//! tensors cross (each copy has its own device pools). Every C callback catches panics and
//! returns errors as statuses with a message: nothing unwinds across the boundary.

use std::collections::BTreeSet;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::{Arc, Mutex, PoisonError};

use clika_rt::ops::{self, TensorSpec};
use clika_rt::{DType, Device, Error, ErrorKind, ForeignMemory, Owner, Tensor, MAX_DIMS};
use libloading::os::unix::Library;

#[path = "../../clika-rt-capi/src/abi.rs"]
#[allow(
    dead_code,
    unused_imports,
    reason = "the C ABI's shared definitions; the bridge uses a part of them"
)]
mod abi;

use self::abi::{
    crt_blob_options, crt_device, crt_op_spec, crt_status as Status,
    CRT_BLOB_READ_ONLY as BLOB_READ_ONLY, CRT_DEVICE_CPU as DEVICE_CPU, CRT_STATUS_OK as OK,
};
use self::callbacks::{bridge_drop, bridge_kernel, bridge_rule, drop_boxed_tensor, Bridge};
use self::entries::Entries;

mod callbacks;

/// Opaque C handles (`crt_tensor`, `crt_error`, `crt_op_output`) as this side sees them.
type H = *mut c_void;
type Err = *mut H;

/// The entry points this bridge calls, with their signatures from `abi.rs` (which the C ABI
/// crate checks against its exports), the handles seen as `c_void`.
mod entries {
    use std::ffi::{c_char, c_void};

    use libloading::os::unix::Library;

    use super::abi::{
        crt_blob_options, crt_device, crt_dtype, crt_entry_points, crt_kernel_fn, crt_op_drop_fn,
        crt_op_spec, crt_rule_fn, crt_status,
    };

    type Tensor = c_void;
    type Error = c_void;
    type Output = c_void;
    type RuleFn = crt_rule_fn!(c_void);
    type KernelFn = crt_kernel_fn!(c_void, c_void, c_void);
    type DropFn = crt_op_drop_fn;

    macro_rules! entry_table {
        ($($name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;)*) => {
            /// The resolved entry points, one field per C function, named as in C.
            pub(super) struct Entries {
                $(pub(super) $name: unsafe extern "C" fn($($ty),*) -> $ret,)*
            }

            impl Entries {
                /// Resolves every entry point in `lib` (at `path`, for errors).
                ///
                /// # Safety
                /// `lib` must be a `libclika_rt` whose exports have the C header's types
                /// (its major version was checked first).
                pub(super) unsafe fn resolve(
                    lib: &Library,
                    path: &str,
                ) -> Result<Entries, clika_rt::Error> {
                    // SAFETY: each type is the C ABI's declaration of that symbol (`abi.rs`).
                    unsafe {
                        Ok(Entries {
                            $($name: super::symbol(lib, path, concat!(stringify!($name), "\0"))?,)*
                        })
                    }
                }
            }
        };
    }

    crt_entry_points!(entry_table);
}

/// The C library's entry points this bridge uses, resolved once.
struct Api {
    path: String,
    fns: Entries,
    /// Names this bridge registered in the library (removed again by `unregister`).
    bridged: Mutex<BTreeSet<String>>,
    /// Keeps the library mapped while any entry point may be called: last, so it drops last.
    _lib: Library,
}

/// The library once found; `None` until then (looked for again at each registry use).
static NATIVE: Mutex<Option<Arc<Api>>> = Mutex::new(None);

/// The soname `make install` gives the library (`libclika_rt.so.MAJOR`).
fn soname() -> String {
    format!("libclika_rt.so.{}", env!("CARGO_PKG_VERSION_MAJOR"))
}

fn bridge_error(message: String) -> Error {
    Error::Operator {
        op: "libclika_rt bridge".into(),
        kind: ErrorKind::InvalidArgument,
        message,
    }
}

/// Resolves `name` (NUL-terminated) as a `T` (a function pointer type).
///
/// # Safety
/// `T` must be the symbol's true type.
unsafe fn symbol<T: Copy>(lib: &Library, path: &str, name: &str) -> Result<T, Error> {
    // SAFETY: the caller names the symbol's true type.
    let s = unsafe { lib.get::<T>(name.as_bytes()) }.map_err(|e| {
        bridge_error(format!(
            "{path} lacks {} ({e}): it is not the clika_runtime {} C library; load the one \
             built from the same release",
            name.trim_end_matches('\0'),
            env!("CARGO_PKG_VERSION"),
        ))
    })?;
    Ok(*s)
}

impl Api {
    fn open(lib: Library, path: String) -> Result<Api, Error> {
        let p = path.as_str();
        // SAFETY: each type below is the C header's declaration of that function.
        let api = unsafe {
            let version: unsafe extern "C" fn() -> *const c_char =
                symbol(&lib, p, "crt_version\0")?;
            // SAFETY: `crt_version` returns a static NUL-terminated string.
            let theirs = CStr::from_ptr(version()).to_string_lossy().into_owned();
            let major = |v: &str| v.split('.').next().map(str::to_owned);
            if major(&theirs) != major(env!("CARGO_PKG_VERSION")) {
                return Err(bridge_error(format!(
                    "{p} is version {theirs}, clika_runtime is {}: operators are shared only \
                     with a library of the same major version",
                    env!("CARGO_PKG_VERSION")
                )));
            }
            Api {
                // SAFETY: the library's major version matches (checked above).
                fns: Entries::resolve(&lib, p)?,
                bridged: Mutex::new(BTreeSet::new()),
                path,
                _lib: lib,
            }
        };
        Ok(api)
    }

    /// Runs a C call that reports through `err`; a failure becomes an error for operator
    /// `op` carrying the library's message.
    fn check(&self, op: &str, f: impl FnOnce(Err) -> Status) -> Result<(), Error> {
        let mut err: H = ptr::null_mut();
        let status = f(&mut err);
        if status == OK {
            return Ok(());
        }
        let message = if err.is_null() {
            format!("status {status}")
        } else {
            // SAFETY: `err` is an error object the library made for us; its message is a
            // NUL-terminated string valid until the object is freed, right after the copy.
            unsafe {
                let text = CStr::from_ptr((self.fns.crt_error_message)(err))
                    .to_string_lossy()
                    .into_owned();
                let status = (self.fns.crt_error_status)(err);
                (self.fns.crt_error_free)(err);
                debug_assert_ne!(status, OK);
                text
            }
        };
        Err(Error::Operator {
            op: op.to_string(),
            kind: ErrorKind::from_code(status).unwrap_or(ErrorKind::Internal),
            message: format!("in libclika_rt: {message}"),
        })
    }

    /// A core tensor over the memory of the C tensor `h`, without copying: it keeps a clone
    /// of the handle, released exactly once by its deleter, and `h`'s read-only flag.
    ///
    /// # Safety
    /// `h` is a live `crt_tensor` handle of this library.
    unsafe fn import(self: &Arc<Self>, op: &str, h: *const c_void) -> Result<Tensor, Error> {
        let mut device = crt_device {
            kind: 0,
            ordinal: 0,
        };
        let (mut dtype, mut writable, mut data): (u32, u8, H) = (0, 0, ptr::null_mut());
        let (mut shape, mut strides) = ((ptr::null(), 0), (ptr::null(), 0));
        // SAFETY: `h` is live; every out-pointer is writable for the call.
        unsafe {
            self.check(op, |e| (self.fns.crt_tensor_device)(h, &mut device, e))?;
            if device.kind != DEVICE_CPU {
                return Err(Error::Operator {
                    op: op.to_string(),
                    kind: ErrorKind::Device,
                    message: "tensors cross between libclika_rt and Python on the CPU only; \
                              move it to the CPU first (ClikaRT::Device::cpu())"
                        .into(),
                });
            }
            self.check(op, |e| (self.fns.crt_tensor_dtype)(h, &mut dtype, e))?;
            self.check(op, |e| {
                (self.fns.crt_tensor_is_writable)(h, &mut writable, e)
            })?;
            self.check(op, |e| (self.fns.crt_tensor_data_ptr)(h, &mut data, e))?;
            self.check(op, |e| {
                (self.fns.crt_tensor_shape)(h, &mut shape.0, &mut shape.1, e)
            })?;
            self.check(op, |e| {
                (self.fns.crt_tensor_strides)(h, &mut strides.0, &mut strides.1, e)
            })?;
        }
        let dims = |(p, n): (*const i64, usize)| {
            if n == 0 {
                Vec::new()
            } else {
                // SAFETY: the library returned `n` readable dimensions, valid while `h` lives.
                unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
            }
        };
        let (shape, strides) = (dims(shape), dims(strides));
        let dtype = DType::from_u32(dtype).ok_or_else(|| Error::ParseDType {
            text: format!("dtype number {dtype} from {}", self.path),
        })?;
        let mut keep: H = ptr::null_mut();
        // SAFETY: `h` is live; `keep` is writable.
        self.check(op, |e| unsafe {
            (self.fns.crt_tensor_clone)(h, &mut keep, e)
        })?;
        let keep = Handle {
            api: Arc::clone(self),
            h: keep,
        };
        let memory =
            ForeignMemory::check(data.cast(), &shape, Some(&strides), dtype, Device::cpu())?;
        // SAFETY: the memory is the C tensor's, valid for every element its shape and strides
        // reach for as long as the cloned handle (kept alive by the storage) lives; a
        // read-only source stays read-only; the library's contract forbids writes racing
        // reads. On a failed check the clone was released by `keep`'s drop.
        Ok(unsafe { memory.wrap(Owner::keepalive(keep), None, writable == 0) })
    }

    /// A C tensor over `t`'s memory, without copying: adopted, its deleter drops `t` (boxed)
    /// exactly once; read-only when `t` is.
    fn export(self: &Arc<Self>, op: &str, t: Tensor) -> Result<Handle, Error> {
        if !t.device().is_cpu() {
            return Err(Error::Operator {
                op: op.to_string(),
                kind: ErrorKind::Device,
                message: format!(
                    "tensors cross between Python and libclika_rt on the CPU only; this one is \
                     on {}: move it with .to(\"cpu\") first",
                    t.device()
                ),
            });
        }
        let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
        let strides: Vec<i64> = t.strides().iter().map(|&s| s as i64).collect();
        let dtype = t.dtype() as u32;
        let flags = if t.storage().is_writable() {
            0
        } else {
            BLOB_READ_ONLY
        };
        let data: H = t.data_ptr().cast();
        let ctx = Box::into_raw(Box::new(t)).cast::<c_void>();
        let options = crt_blob_options {
            device: crt_device {
                kind: DEVICE_CPU,
                ordinal: 0,
            },
            pinned_for: ptr::null(),
            deleter: Some(drop_boxed_tensor),
            deleter_ctx: ctx,
            flags,
        };
        let mut out: H = ptr::null_mut();
        // SAFETY: the descriptor is the boxed tensor's own (valid while the box lives, which
        // the deleter ends); `options` and `out` are valid for the call.
        let made = self.check(op, |e| unsafe {
            (self.fns.crt_tensor_from_blob)(
                data,
                shape.as_ptr(),
                shape.len(),
                strides.as_ptr(),
                dtype,
                &options,
                &mut out,
                e,
            )
        });
        if let Err(e) = made {
            // On failure the library took no ownership: the box is still ours.
            // SAFETY: made by `Box::into_raw` above and not handed over.
            drop(unsafe { Box::from_raw(ctx.cast::<Tensor>()) });
            return Err(e);
        }
        Ok(Handle {
            api: Arc::clone(self),
            h: out,
        })
    }

    fn registered(&self) -> Vec<String> {
        let mut text: *mut c_char = ptr::null_mut();
        let listed = self.check("registered", |e| {
            // SAFETY: `text` is writable.
            unsafe { (self.fns.crt_op_registered)(&mut text, e) }
        });
        if listed.is_err() || text.is_null() {
            return Vec::new();
        }
        // SAFETY: a NUL-terminated string the library handed to us, freed right after.
        let names = unsafe {
            let names = CStr::from_ptr(text).to_string_lossy().into_owned();
            (self.fns.crt_string_free)(text);
            names
        };
        names
            .split('\n')
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect()
    }

    /// Registers `name` in the library with callbacks that call this copy's operator.
    fn bridge(self: &Arc<Self>, name: &str) -> Result<(), Error> {
        let cname = c_name(name)?;
        let bridge = Box::into_raw(Box::new(Bridge {
            api: Arc::clone(self),
            name: name.to_string(),
        }));
        // SAFETY: the callbacks follow the library's contract (any thread, never unwinding);
        // `bridge` is theirs once the registration succeeds.
        let done = self.check(name, |e| unsafe {
            (self.fns.crt_op_register)(
                cname.as_ptr(),
                Some(bridge_rule as _),
                Some(bridge_kernel as _),
                bridge.cast(),
                Some(bridge_drop),
                e,
            )
        });
        if let Err(e) = done {
            // SAFETY: not taken on failure; made by `Box::into_raw` above.
            drop(unsafe { Box::from_raw(bridge) });
            return Err(e);
        }
        self.bridged
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(name.to_string());
        Ok(())
    }

    /// Removes `name` from the library; whether it was registered there.
    fn unregister(&self, name: &str) -> bool {
        self.bridged
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(name);
        let Ok(cname) = c_name(name) else {
            return false;
        };
        let mut removed = 0u8;
        // SAFETY: `cname` is NUL-terminated; `removed` is writable.
        let done = self.check(name, |e| unsafe {
            (self.fns.crt_op_unregister)(cname.as_ptr(), &mut removed, e)
        });
        done.is_ok() && removed != 0
    }

    /// Calls the library's operator `name` on `inputs` (shared without a copy).
    fn call(self: &Arc<Self>, name: &str, inputs: &[&Tensor]) -> Result<Tensor, Error> {
        let cname = c_name(name)?;
        let handles = inputs
            .iter()
            .map(|&t| self.export(name, t.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        let ptrs: Vec<*const c_void> = handles.iter().map(|h| h.h.cast_const()).collect();
        let mut out: H = ptr::null_mut();
        // SAFETY: the handles live until after the call; `out` is writable.
        self.check(name, |e| unsafe {
            (self.fns.crt_op_call)(cname.as_ptr(), ptrs.as_ptr(), ptrs.len(), &mut out, e)
        })?;
        let out = Handle {
            api: Arc::clone(self),
            h: out,
        };
        // SAFETY: `out` is a live handle the library just made for us.
        unsafe { self.import(name, out.h) }
    }
}

fn c_name(name: &str) -> Result<CString, Error> {
    CString::new(name).map_err(|_| Error::OutOfRange {
        what: "operator name",
        value: format!("{name:?} (it must not contain NUL)"),
    })
}

/// A C tensor handle of the library, freed once on drop (from any thread: the library
/// allows freeing a handle that nothing else uses).
struct Handle {
    api: Arc<Api>,
    h: H,
}

// SAFETY: a handle is owned by this value alone, and the library's handles may be used and
// freed from any thread.
unsafe impl Send for Handle {}

impl Drop for Handle {
    fn drop(&mut self) {
        if !self.h.is_null() {
            // SAFETY: owned by this value; freed once.
            unsafe { (self.api.fns.crt_tensor_free)(self.h) };
        }
    }
}

/// The library, if this process has it loaded (looked up by soname without loading it), or
/// an error if the loaded one cannot be used; and whether it was found just now.
fn find() -> Result<(Option<Arc<Api>>, bool), Error> {
    let mut slot = NATIVE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(api) = slot.as_ref() {
        return Ok((Some(Arc::clone(api)), false));
    }
    let name = soname();
    // SAFETY: RTLD_NOLOAD only returns a library already loaded (its initialisers have run).
    let Ok(lib) = (unsafe { Library::open(Some(&name), libc::RTLD_NOW | libc::RTLD_NOLOAD) })
    else {
        return Ok((None, false));
    };
    let api = Arc::new(Api::open(lib, name)?);
    *slot = Some(Arc::clone(&api));
    Ok((Some(api), true))
}

/// [`find`]; on first discovery, every operator of this copy the library lacks is
/// registered there.
fn native() -> Result<Option<Arc<Api>>, Error> {
    let (api, new) = find()?;
    if let (Some(api), true) = (&api, new) {
        sync(api)?;
    }
    Ok(api)
}

/// Registers in the library every operator of this copy it lacks; returns their names.
fn sync(api: &Arc<Api>) -> Result<Vec<String>, Error> {
    let theirs: BTreeSet<String> = api.registered().into_iter().collect();
    let mut shared = Vec::new();
    for name in ops::registered() {
        if !theirs.contains(&name) {
            api.bridge(&name)?;
            shared.push(name);
        }
    }
    Ok(shared)
}

/// `crt.ops.link_native(path)`: finds (or, given `path`, loads) the C library and shares
/// this copy's operators with it; returns the names registered there now. `None` path and
/// no library loaded is an error naming the fix.
pub fn link(path: Option<&str>) -> Result<Vec<String>, Error> {
    if let Some(path) = path {
        let mut slot = NATIVE.lock().unwrap_or_else(PoisonError::into_inner);
        // Released before `find()` below takes the lock again.
        if slot.is_none() {
            // SAFETY: loading runs the library's initialisers (it has none beyond Rust's
            // runtime-free statics); its entry points are resolved against the header.
            let lib = unsafe { Library::open(Some(path), libc::RTLD_NOW | libc::RTLD_LOCAL) }
                .map_err(|e| bridge_error(format!("cannot load {path}: {e}")))?;
            *slot = Some(Arc::new(Api::open(lib, path.to_string())?));
        }
        drop(slot);
    }
    let api = find()?.0.ok_or_else(|| {
        bridge_error(format!(
            "{} is not loaded in this process; pass its path: link_native(\"/usr/local/lib/{}\")",
            soname(),
            soname()
        ))
    })?;
    sync(&api)
}

/// After a local registration of `name`: also registers it in the library when present.
/// On failure (the name is taken there) the local registration is undone.
pub fn after_register(name: &str) -> Result<(), Error> {
    let shared = match native() {
        Ok(Some(api)) => {
            if api
                .bridged
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains(name)
            {
                Ok(()) // `native()` just shared it on first discovery.
            } else {
                api.bridge(name)
            }
        }
        Ok(None) => Ok(()),
        Err(e) => Err(e),
    };
    if shared.is_err() {
        ops::unregister(name);
    }
    shared
}

/// `unregister` in the library as well; whether it was registered there.
pub fn unregister(name: &str) -> bool {
    match native() {
        Ok(Some(api)) => api.unregister(name),
        _ => false,
    }
}

/// The library's operator names (empty without it).
pub fn registered() -> Vec<String> {
    match native() {
        Ok(Some(api)) => api.registered(),
        _ => Vec::new(),
    }
}

/// Calls `name` in the library, or `None` when it has no such operator (or is absent).
pub fn call(name: &str, inputs: &[&Tensor]) -> Option<Result<Tensor, Error>> {
    let api = match native() {
        Ok(Some(api)) => api,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    if !api.registered().iter().any(|n| n == name) {
        return None;
    }
    Some(api.call(name, inputs))
}
