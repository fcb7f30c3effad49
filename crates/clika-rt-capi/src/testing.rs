//! Exports for the C and C++ tests only. Not declared in the public header (cbindgen
//! excludes them); the tests declare them themselves.

use std::ffi::c_char;

use crate::boundary::guard;
use crate::error::{crt_error, crt_status};

/// Panics inside the runtime, to prove the boundary turns it into `CRT_STATUS_INTERNAL`.
///
/// # Safety
/// `err` satisfies the header's pointer contract.
#[doc(hidden)]
#[no_mangle]
pub unsafe extern "C" fn crt_testing_panic(err: *mut *mut crt_error) -> crt_status {
    guard(err, || panic!("provoked by crt_testing_panic"))
}

/// The library version, `"MAJOR.MINOR.PATCH"` (the workspace version in Cargo.toml). The string
/// is static: never free it.
#[no_mangle]
pub extern "C" fn crt_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Registers (once) the core's test operators `rust.iota` (its kernel hands back its own
/// buffer through `from_blob_adopted`; the deleter counts into
/// `crt_testing_rust_iota_released`) and `rust.double` (pooled output), so the C++ tests
/// can call operators registered from Rust.
///
/// # Safety
/// `err` satisfies the header's pointer contract.
#[doc(hidden)]
#[no_mangle]
pub unsafe extern "C" fn crt_testing_register_rust_iota(err: *mut *mut crt_error) -> crt_status {
    guard(err, || Ok(clika_rt::ops::test_ops::register_test_ops()?))
}

/// How many `rust.iota` outputs have been released so far.
#[doc(hidden)]
#[no_mangle]
pub extern "C" fn crt_testing_rust_iota_released() -> u64 {
    clika_rt::ops::test_ops::IOTA_RELEASED.load(std::sync::atomic::Ordering::SeqCst)
}
