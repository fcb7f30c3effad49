//! Custom operators from C: `crt_op_register` with C callbacks, `crt_op_call` by name (for
//! operators registered from any language in this library), and the `crt_op_output` a
//! kernel writes into or hands its own tensor to.
//!
//! Callbacks run on the thread that calls the operator, possibly several at once, outside
//! any runtime lock; they must not unwind (a C++ callback catches its exceptions: the C++
//! header does so). A callback reports failure by returning a status other than
//! `CRT_STATUS_OK`, optionally with an error made by `crt_error_new` in `*err` (the runtime
//! frees it); the status becomes the call's status.

use std::ffi::{c_char, c_void};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clika_rt::ops::{self, Output, TensorSpec};
use clika_rt::{Error, ErrorKind, Tensor, MAX_DIMS};

use crate::boundary::guard;
use crate::error::{crt_error, crt_status, CapiError, CRT_STATUS_INTERNAL, CRT_STATUS_OK};
use crate::ffi::{self, arg, into_handle, Out};
use crate::tensor::{create, crt_tensor, sizes};
use crate::types;

pub use crate::abi::{crt_op_drop_fn, crt_op_spec, CRT_MAX_DIMS};
const _: () = assert!(CRT_MAX_DIMS == MAX_DIMS);

/// Where a kernel puts its result (valid during the kernel call only): either the pool
/// tensor from `crt_op_output_pooled`, written by the kernel, or any tensor of the promised
/// spec handed over with `crt_op_output_set` (typically the kernel's own buffer wrapped by
/// `crt_tensor_from_blob` with a deleter).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
#[derive(Debug)]
pub struct crt_op_output {
    /// The kernel's output, lent for the duration of the kernel call.
    inner: *mut Output,
}

/// The output a kernel was lent.
///
/// # Safety
/// `p` is NULL or the `crt_op_output` the runtime passed to the running kernel (P1), used by
/// one thread at a time.
unsafe fn lent<'a>(p: *const crt_op_output) -> Result<&'a mut Output, CapiError> {
    // SAFETY: by the caller's contract `p` is NULL or the live `crt_op_output` of a running
    // kernel, whose `inner` points at the `Output` the kernel call borrows mutably.
    let output = unsafe { p.as_ref() }.ok_or(CapiError::NullArgument("output"))?;
    // SAFETY: as above; nothing else touches the `Output` during the kernel call.
    Ok(unsafe { &mut *output.inner })
}

/// A rule: writes the output's spec to `*output` from the `n_inputs` input specs.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_op_rule_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        inputs: *const crt_op_spec,
        n_inputs: usize,
        output: *mut crt_op_spec,
        err: *mut *mut crt_error,
    ) -> crt_status,
>;

/// A kernel: computes the output from `n_inputs` read-only input handles (borrowed for the
/// call: do not free them; `crt_tensor_clone` one to keep it).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_op_kernel_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        inputs: *const *const crt_tensor,
        n_inputs: usize,
        output: *mut crt_op_output,
        err: *mut *mut crt_error,
    ) -> crt_status,
>;

/// An operator registered from C: its callbacks and their context.
struct ForeignOp {
    /// Checked non-NULL at registration, like `kernel`.
    rule: crt_op_rule_fn,
    kernel: crt_op_kernel_fn,
    user_data: *mut c_void,
    drop_user_data: crt_op_drop_fn,
    /// Set once the registration succeeded: only then does dropping release `user_data`.
    owns_user_data: AtomicBool,
    name: String,
}

// SAFETY: the header requires the callbacks to be callable from any thread, concurrently,
// with `user_data`, and `drop_user_data` from any thread; the pointer is only passed back.
unsafe impl Send for ForeignOp {}
// SAFETY: as for `Send`: shared use only passes `user_data` to callbacks that accept that.
unsafe impl Sync for ForeignOp {}

impl Drop for ForeignOp {
    fn drop(&mut self) {
        if !*self.owns_user_data.get_mut() {
            return;
        }
        if let Some(f) = self.drop_user_data {
            // SAFETY: registered with this `user_data`; dropped exactly once, here.
            unsafe { crate::deleters::call_drop(f, self.user_data) };
        }
    }
}

impl ForeignOp {
    fn rule(&self, inputs: &[TensorSpec]) -> clika_rt::Result<TensorSpec> {
        let specs: Vec<crt_op_spec> = inputs.iter().map(spec_to_c).collect();
        let mut out = crt_op_spec {
            dtype: u32::MAX,
            ndim: 0,
            shape: [0; CRT_MAX_DIMS],
        };
        let mut err = ptr::null_mut();
        // SAFETY: the callback was registered for this; `specs` is readable for its length
        // and `out`/`err` writable for the call.
        let status = self.rule.map_or(CRT_STATUS_INTERNAL, |rule| unsafe {
            rule(
                self.user_data,
                specs.as_ptr(),
                specs.len(),
                &mut out,
                &mut err,
            )
        });
        // SAFETY: `err` is NULL or an error made by `crt_error_new` for us to free.
        self.failed(status, err, "rule")?;
        spec_from_c(&out).map_err(|e| self.error(ErrorKind::InvalidArgument, &e.message()))
    }

    fn kernel(&self, inputs: &[Tensor], output: &mut Output) -> clika_rt::Result<()> {
        let handles: Vec<crt_tensor> = inputs.iter().cloned().map(crt_tensor::new).collect();
        let ptrs: Vec<*const crt_tensor> = handles.iter().map(ptr::from_ref).collect();
        let mut out = crt_op_output {
            inner: ptr::from_mut(output),
        };
        let mut err = ptr::null_mut();
        // SAFETY: the callback was registered for this; the handles live until after the call
        // and `out`/`err` are writable for the call.
        let status = self.kernel.map_or(CRT_STATUS_INTERNAL, |kernel| unsafe {
            kernel(
                self.user_data,
                ptrs.as_ptr(),
                ptrs.len(),
                &mut out,
                &mut err,
            )
        });
        // SAFETY: as in `rule`.
        self.failed(status, err, "kernel")
    }

    /// The error for a callback's `status`, freeing the error object it may have made.
    fn failed(&self, status: crt_status, err: *mut crt_error, what: &str) -> clika_rt::Result<()> {
        // SAFETY: `err` is NULL or an error made by `crt_error_new`, handed to us.
        let object = unsafe { ffi::take_box(err) };
        if status == CRT_STATUS_OK {
            return Ok(());
        }
        let message = object.map_or_else(
            || format!("the {what} returned {}", status_name(status)),
            |e| e.text(),
        );
        Err(self.error(kind_of(status), &message))
    }

    fn error(&self, kind: ErrorKind, message: &str) -> Error {
        Error::Operator {
            op: self.name.clone(),
            kind,
            message: message.to_string(),
        }
    }
}

fn status_name(status: crt_status) -> String {
    // SAFETY: `crt_status_name` returns a static NUL-terminated string.
    let name = unsafe { std::ffi::CStr::from_ptr(crate::error::crt_status_name(status)) };
    format!("{} ({status})", name.to_string_lossy())
}

/// The core's kind for a status number (an unknown number is `Internal`).
fn kind_of(status: crt_status) -> ErrorKind {
    ErrorKind::from_code(status).unwrap_or(ErrorKind::Internal)
}

fn spec_to_c(s: &TensorSpec) -> crt_op_spec {
    let mut shape = [0; CRT_MAX_DIMS];
    for (d, &n) in shape.iter_mut().zip(&s.shape) {
        *d = n as i64;
    }
    crt_op_spec {
        dtype: types::dtype_code(s.dtype),
        ndim: s.shape.len(),
        shape,
    }
}

fn spec_from_c(s: &crt_op_spec) -> Result<TensorSpec, CapiError> {
    let dims = s.shape.get(..s.ndim).ok_or(Error::TooManyDims {
        ndim: s.ndim,
        max: MAX_DIMS,
    })?;
    Ok(TensorSpec {
        shape: sizes(dims)?,
        dtype: types::dtype(s.dtype)?,
    })
}

/// Registers an operator under `name` (UTF-8) for the whole library. `rule` and `kernel` are
/// required; `user_data` is passed to both and, when the operator is unregistered, to
/// `drop_user_data` (may be NULL). A name already registered gives
/// `CRT_STATUS_INVALID_ARGUMENT`. On failure ownership of `user_data` is **not** taken:
/// `drop_user_data` is not called.
///
/// # Safety
/// The callbacks follow the module contract (callable from any thread, concurrently, with
/// `user_data`; never unwinding); the header's pointer contract; `name` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn crt_op_register(
    name: *const c_char,
    rule: crt_op_rule_fn,
    kernel: crt_op_kernel_fn,
    user_data: *mut c_void,
    drop_user_data: crt_op_drop_fn,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: `name` is NUL-terminated.
        let name = unsafe { ffi::utf8(name, "name") }?;
        rule.ok_or(CapiError::NullArgument("rule"))?;
        kernel.ok_or(CapiError::NullArgument("kernel"))?;
        let op = Arc::new(ForeignOp {
            rule,
            kernel,
            user_data,
            drop_user_data,
            owns_user_data: AtomicBool::new(false),
            name: name.to_string(),
        });
        let (for_rule, for_kernel) = (Arc::clone(&op), Arc::clone(&op));
        ops::register(
            name,
            move |specs| for_rule.rule(specs),
            move |inputs, out| for_kernel.kernel(inputs, out),
        )?;
        // Registered: from now on the operator owns `user_data`. (On failure the closures
        // were dropped with the flag unset, so `drop_user_data` was not called.)
        op.owns_user_data.store(true, Ordering::Release);
        Ok(())
    })
}

/// Unregisters `name`; writes 1 to `*removed` (may be NULL) when it was registered, else 0.
/// Its `drop_user_data` runs once the last running call has finished.
///
/// # Safety
/// The header's pointer contract; `name` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn crt_op_unregister(
    name: *const c_char,
    removed: *mut u8,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: `name` is NUL-terminated.
        let name = unsafe { ffi::utf8(name, "name") }?;
        let was = ops::unregister(name);
        if !removed.is_null() {
            // SAFETY: P2 for a non-NULL `removed`.
            unsafe { removed.write(u8::from(was)) };
        }
        Ok(())
    })
}

/// The names of the registered operators, sorted, one per line: `*out` receives a new
/// NUL-terminated string (empty when there are none) the caller frees with `crt_string_free`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_op_registered(
    out: *mut *mut c_char,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        let text = std::ffi::CString::new(ops::registered().join("\n")).unwrap_or_default();
        out.write(text.into_raw());
        Ok(())
    })
}

/// Calls the operator `name` on `n_inputs` tensors; `*out` receives the result (checked
/// against the rule's spec). An unknown name gives `CRT_STATUS_INVALID_ARGUMENT` with the
/// registered names in the message; a failing callback, its status.
///
/// # Safety
/// The header's pointer contract; `name` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn crt_op_call(
    name: *const c_char,
    inputs: *const *const crt_tensor,
    n_inputs: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let name = ffi::utf8(name, "name")?;
            let handles = ffi::handles(inputs, n_inputs, "inputs")?;
            let tensors: Vec<&Tensor> = handles.iter().map(|h| &h.tensor).collect();
            Ok(ops::call(name, &tensors)?)
        })
    }
}

/// The spec the rule promised for `output`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_op_output_spec(
    output: *const crt_op_output,
    spec: *mut crt_op_spec,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `spec`; `output` is the running kernel's.
        let (spec, output) = unsafe { (Out::new(spec, "spec")?, lent(output)?) };
        spec.write(spec_to_c(output.spec()));
        Ok(())
    })
}

/// A new handle to the output allocated from the runtime's pool (on the first call; later
/// calls return the same memory). Write every element through `crt_tensor_data_ptr`; free
/// the handle when done.
///
/// # Safety
/// The header's pointer contract; `output` is the kernel's output, during the kernel call.
#[no_mangle]
pub unsafe extern "C" fn crt_op_output_pooled(
    output: *mut crt_op_output,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        // SAFETY: `output` is the running kernel's.
        let t = unsafe { lent(output) }?.pooled()?.clone();
        out.write(into_handle(crt_tensor::new(t)));
        Ok(())
    })
}

/// Hands `tensor` over as the result (the output takes its own reference: the caller still
/// frees its handle). It must have the promised spec, which the runtime checks after the
/// kernel returns.
///
/// # Safety
/// The header's pointer contract; `output` is the kernel's output, during the kernel call.
#[no_mangle]
pub unsafe extern "C" fn crt_op_output_set(
    output: *mut crt_op_output,
    tensor: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?.tensor.clone();
        // SAFETY: `output` is the running kernel's.
        unsafe { lent(output) }?.set(t);
        Ok(())
    })
}

/// A new error with `status` (not `CRT_STATUS_OK`) and a copy of `message` (UTF-8, may be
/// NULL), for a callback to return through its `err`; the runtime frees it. Returns NULL if
/// `status` is `CRT_STATUS_OK`.
///
/// # Safety
/// `message` is NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn crt_error_new(
    status: crt_status,
    message: *const c_char,
) -> *mut crt_error {
    if status == CRT_STATUS_OK {
        return ptr::null_mut();
    }
    let mut object = ptr::null_mut();
    let status = if status > CRT_STATUS_INTERNAL {
        CRT_STATUS_INTERNAL
    } else {
        status
    };
    crate::boundary::quietly(|| {
        // SAFETY: `message` is NULL or NUL-terminated.
        let text = unsafe { ffi::c_str(message, "message") }
            .map(|m| m.to_string_lossy().into_owned())
            .unwrap_or_default();
        object = into_handle(crt_error::new(status, &text));
    });
    object
}
