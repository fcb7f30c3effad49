//! Calling the caller's deleters (`crt_deleter_fn`, `crt_op_drop_fn`) and reporting failures.
//!
//! A deleter must not throw: Rust cannot catch a C++ exception (nor swallow it soundly), so
//! the promise "a throwing deleter is swallowed" is kept on the C++ side, which can catch:
//! the C++ header's wrappers (`Tensor::from_blob` with any callable) and, for code that
//! passes a raw function through the C API, the trampoline `ClikaRT::catching_deleter<fn>`,
//! a `noexcept` `crt_deleter_fn` that calls `fn` and swallows what it throws. Each swallowed
//! throw is reported with `crt_deleter_report_failure`: counted (`crt_deleter_failures`) and
//! logged once on stderr.
//!
//! A raw deleter that throws anyway is called through the unwinding ABI, so the exception
//! reaches a guard here that prints what happened and how to fix it, then aborts: the
//! process cannot continue past a deleter that did not finish (the memory's state is
//! unknown), and the exception must not unwind further into the runtime.

use std::ffi::c_void;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static FAILURES: AtomicU64 = AtomicU64::new(0);
static WARNED: AtomicBool = AtomicBool::new(false);

/// Aborts, with a message naming the fix, if dropped while a foreign exception unwinds.
struct AbortOnUnwind(&'static str);

impl Drop for AbortOnUnwind {
    fn drop(&mut self) {
        let _ = writeln!(
            std::io::stderr(),
            "clika_rt: a {} threw a C++ exception; callbacks passed to the C ABI must not \
             throw (declare them noexcept and catch inside, or wrap the function with \
             ClikaRT::catching_deleter<fn>, which swallows and counts the exception); aborting",
            self.0
        );
        std::process::abort();
    }
}

/// Calls `f(data, ctx)`; see the module documentation for a throwing `f`.
///
/// # Safety
/// `f` is a deleter the caller handed over with `data` and `ctx`; called at most once.
pub(crate) unsafe fn call_deleter(
    f: unsafe extern "C" fn(*mut c_void, *mut c_void),
    data: *mut c_void,
    ctx: *mut c_void,
) {
    let guard = AbortOnUnwind("crt_deleter_fn");
    // SAFETY: "C" and "C-unwind" share the calling convention; the unwinding ABI only lets a
    // foreign exception reach `guard` (which aborts) instead of being undefined behaviour.
    let f: unsafe extern "C-unwind" fn(*mut c_void, *mut c_void) =
        unsafe { std::mem::transmute(f) };
    // SAFETY: the caller's contract.
    unsafe { f(data, ctx) };
    std::mem::forget(guard);
}

/// Calls `f(user_data)` (an operator's `drop_user_data`) like [`call_deleter`].
///
/// # Safety
/// `f` was registered with `user_data`; called at most once.
pub(crate) unsafe fn call_drop(f: unsafe extern "C" fn(*mut c_void), user_data: *mut c_void) {
    let guard = AbortOnUnwind("crt_op_drop_fn");
    // SAFETY: as in `call_deleter`.
    let f: unsafe extern "C-unwind" fn(*mut c_void) = unsafe { std::mem::transmute(f) };
    // SAFETY: the caller's contract.
    unsafe { f(user_data) };
    std::mem::forget(guard);
}

/// Reports that a deleter failed and its failure was swallowed (the C++ header's deleter
/// trampolines call this when they catch an exception): counted in
/// `crt_deleter_failures`, and logged on stderr the first time.
#[no_mangle]
pub extern "C" fn crt_deleter_report_failure() {
    FAILURES.fetch_add(1, Ordering::Relaxed);
    if !WARNED.swap(true, Ordering::Relaxed) {
        let _ = writeln!(
            std::io::stderr(),
            "clika_rt: a deleter threw an exception, which was swallowed (the memory may not \
             have been released); crt_deleter_failures() counts these (logged once)"
        );
    }
}

/// How many deleter failures were reported (`crt_deleter_report_failure`) in this process.
#[no_mangle]
pub extern "C" fn crt_deleter_failures() -> u64 {
    FAILURES.load(Ordering::Relaxed)
}
