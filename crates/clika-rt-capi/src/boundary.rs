//! The panic boundary every export runs inside.
//!
//! A Rust panic must never unwind into C (undefined behaviour) nor abort the host program:
//! [`guard`] catches it and turns it into `CRT_STATUS_INTERNAL` with the panic's message, and
//! [`quietly`] does the same for the functions that return nothing (the `*_free` family).
//! The few exports outside both (`crt_error_status`, `crt_error_message`, `crt_status_name`,
//! `crt_version`) only read a field or a constant and cannot panic.
//! Dropping a panic payload can itself panic; such a payload is leaked, never unwound.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use crate::error::{crt_error, crt_status, CapiError, CRT_STATUS_OK};

/// Runs `f` inside the boundary; reports its error through `err` (which may be NULL).
///
/// `AssertUnwindSafe` is sound here: after a panic nothing `f` touched is used again except
/// through the runtime's own types, which stay consistent across unwinding (their locks are
/// poison-tolerant and their invariants are re-established before any code that can panic).
pub fn guard(err: *mut *mut crt_error, f: impl FnOnce() -> Result<(), CapiError>) -> crt_status {
    let result = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(CapiError::Panic(panic_message(payload))),
    };
    let _ = catch_unwind(crate::device::report_fallback);
    let (status, object) = match result {
        Ok(()) => (CRT_STATUS_OK, ptr::null_mut()),
        Err(e) => {
            let status = e.status();
            // Building the error allocates; should even that panic, report the status alone.
            let object = catch_unwind(AssertUnwindSafe(|| {
                Box::into_raw(Box::new(e.into_object()))
            }));
            (status, object.unwrap_or(ptr::null_mut()))
        }
    };
    if err.is_null() {
        // SAFETY: `object` is NULL or was just made by `Box::into_raw`; nobody else has it.
        drop(unsafe { crate::ffi::take_box(object) });
    } else {
        // SAFETY: the header requires `err` to be NULL or valid for writing one pointer.
        unsafe { err.write(object) };
    }
    status
}

/// Runs `f` inside the boundary, swallowing a panic (for functions without a status).
pub fn quietly(f: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(f)) {
        drop_payload(payload);
    }
}

/// The text of a panic payload (`&str` and `String` payloads; others are named as such).
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    let text = if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-string payload".to_string()
    };
    drop_payload(payload);
    text
}

/// Drops a panic payload; a payload whose drop panics is leaked rather than unwound.
fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(inner) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(inner);
    }
}
