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

/// The library version (`"0.1.0"`). The string is static: never free it.
#[no_mangle]
pub extern "C" fn crt_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
