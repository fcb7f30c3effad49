//! The C ABI called from Rust, as C would call it: the panic boundary, NULL rejection, and
//! the ownership rules of `crt_tensor_from_blob` (the C and C++ suites in `tests/c` and
//! `tests/cpp` cover the same ground from their own languages).

use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use clika_rt_capi::compute::*;
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

#[test]
fn compute_validates_op_numbers_and_handle_arrays() {
    let shape = [2i64, 3];
    let (mut t, mut out, mut err) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid shape and out-pointers; every handle is freed once below.
    unsafe {
        let s = crt_tensor_ones(
            shape.as_ptr(),
            2,
            CRT_DTYPE_FLOAT32,
            &mut t,
            ptr::null_mut(),
        );
        assert_eq!(s, CRT_STATUS_OK);
        let s = crt_tensor_binary(13, t, t, &mut out, &mut err);
        assert_eq!(s, CRT_STATUS_INVALID_ARGUMENT);
        assert!(out.is_null());
        assert!(take_message(err).contains("CRT_BINARY_"));
        let s = crt_tensor_reduce(CRT_REDUCE_SUM, t, ptr::null(), 1, 0, 0, &mut out, &mut err);
        assert_eq!(s, CRT_STATUS_NULL_POINTER);
        assert!(take_message(err).contains("`dims`"));
        let list = [t.cast_const(), ptr::null()];
        let s = crt_tensor_cat(list.as_ptr(), 2, 0, &mut out, ptr::null_mut());
        assert_eq!(s, CRT_STATUS_NULL_POINTER);
        let s = crt_tensor_cat(list.as_ptr(), 1, 1, &mut out, ptr::null_mut());
        assert_eq!(s, CRT_STATUS_OK);
        let scalar = crt_scalar {
            kind: CRT_SCALAR_INT,
            int_value: 2,
            float_value: 0.0,
        };
        assert_eq!(
            crt_tensor_binary_scalar_(CRT_BINARY_MUL, out, scalar, ptr::null_mut()),
            CRT_STATUS_OK
        );
        let mut sum = ptr::null_mut();
        let s = crt_tensor_reduce_all(CRT_REDUCE_SUM, out, 0, &mut sum, ptr::null_mut());
        assert_eq!(s, CRT_STATUS_OK);
        let mut v = 0.0f64;
        let s = clika_rt_capi::access::crt_tensor_item(
            sum,
            CRT_DTYPE_FLOAT64,
            (&raw mut v).cast(),
            ptr::null_mut(),
        );
        assert_eq!((s, v), (CRT_STATUS_OK, 12.0));
        crt_tensor_free(sum);
        crt_tensor_free(out);
        crt_tensor_free(t);
    }
}
