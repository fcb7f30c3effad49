//! The C ABI called from Rust, as C would call it: the panic boundary, NULL rejection, and
//! the ownership rules of `crt_tensor_from_blob` (the C and C++ suites in `tests/c` and
//! `tests/cpp` cover the same ground from their own languages).

use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use clika_rt_capi::error::*;
use clika_rt_capi::tensor::*;
use clika_rt_capi::testing::crt_testing_panic;
use clika_rt_capi::types::*;
use clika_rt_capi::views::*;
use clika_rt_capi::{crt_error, crt_tensor};

/// The message of `err`, freeing it.
fn take_message(err: *mut crt_error) -> String {
    assert!(!err.is_null());
    // SAFETY: `err` is a live error from the library; freed once, here.
    unsafe {
        let m = CStr::from_ptr(crt_error_message(err))
            .to_string_lossy()
            .into_owned();
        crt_error_free(err);
        m
    }
}

#[test]
fn a_panic_becomes_an_internal_status() {
    let mut err = ptr::null_mut();
    // SAFETY: `err` is a valid out-pointer.
    let status = unsafe { crt_testing_panic(&mut err) };
    assert_eq!(status, CRT_STATUS_INTERNAL);
    assert!(take_message(err).contains("provoked by crt_testing_panic"));
    // SAFETY: a NULL `err` is allowed.
    let status = unsafe { crt_testing_panic(ptr::null_mut()) };
    assert_eq!(status, CRT_STATUS_INTERNAL);
}

#[test]
fn null_handles_and_out_pointers_are_rejected() {
    let mut out: *mut crt_tensor = ptr::dangling_mut();
    let mut err = ptr::null_mut();
    // SAFETY: NULL handle, valid out-pointers: the case under test.
    let status = unsafe { crt_tensor_sum(ptr::null(), &mut out, &mut err) };
    assert_eq!(status, CRT_STATUS_NULL_POINTER);
    assert!(
        out.is_null(),
        "a failed call leaves NULL in the handle out-pointer"
    );
    assert!(take_message(err).contains("`tensor`"));
    let shape = [2i64];
    // SAFETY: a NULL out-pointer: the case under test.
    let status = unsafe {
        crt_tensor_zeros(
            shape.as_ptr(),
            1,
            CRT_DTYPE_FLOAT32,
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    assert_eq!(status, CRT_STATUS_NULL_POINTER);
    // SAFETY: NULL frees are no-ops.
    unsafe { crt_tensor_free(ptr::null_mut()) };
}

static CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn count(_data: *mut c_void, ctx: *mut c_void) {
    assert_eq!(ctx as usize, 0x5a);
    CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn deleter_runs_once_after_the_last_view_and_never_on_failure() {
    let mut buf = [1.0f32; 6];
    let options = crt_blob_options {
        deleter: Some(count),
        deleter_ctx: 0x5a as *mut c_void,
        ..crt_blob_options::default()
    };
    let (bad, shape, dims) = ([-1i64], [2i64, 3], [1i64, 0]);
    let (mut t, mut v, mut err) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    let data = buf.as_mut_ptr().cast::<c_void>();
    // SAFETY: `buf` outlives every tensor over it (all freed below); valid out-pointers.
    unsafe {
        let s = crt_tensor_from_blob(
            data,
            bad.as_ptr(),
            1,
            ptr::null(),
            CRT_DTYPE_FLOAT32,
            &options,
            &mut t,
            &mut err,
        );
        assert_eq!(s, CRT_STATUS_INVALID_SHAPE);
        assert!(take_message(err).contains("negative"));
        let s = crt_tensor_from_blob(
            data,
            shape.as_ptr(),
            2,
            ptr::null(),
            CRT_DTYPE_FLOAT32,
            &options,
            &mut t,
            ptr::null_mut(),
        );
        assert_eq!(s, CRT_STATUS_OK);
        assert_eq!(
            crt_tensor_permute(t, dims.as_ptr(), 2, &mut v, ptr::null_mut()),
            CRT_STATUS_OK
        );
        crt_tensor_free(t);
        assert_eq!(CALLS.load(Ordering::SeqCst), 0);
        crt_tensor_free(v);
    }
    assert_eq!(CALLS.load(Ordering::SeqCst), 1);
}
