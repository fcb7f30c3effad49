//! The C ABI called from Rust, as C would call it: the panic boundary, NULL rejection, and
//! the ownership rules of `crt_tensor_from_blob` and of custom operators (the C and C++
//! suites in `tests/c` and `tests/cpp` cover the same ground from their own languages).

use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use clika_rt_capi::access::crt_tensor_data_ptr;
use clika_rt_capi::compute::*;
use clika_rt_capi::custom_ops::*;
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
        let s = crt_tensor_binary(1000, t, t, &mut out, &mut err);
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

// ---- custom operators through the C ABI: C callbacks, crt_error_new, user_data ownership ----

static DROPPED: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn same(
    _user: *mut c_void,
    inputs: *const crt_op_spec,
    n: usize,
    output: *mut crt_op_spec,
    err: *mut *mut crt_error,
) -> crt_status {
    if n != 1 {
        // SAFETY: `err` is writable (the runtime passes its own slot); the message is static.
        unsafe { *err = crt_error_new(CRT_STATUS_DTYPE, c"takes one input".as_ptr()) };
        return CRT_STATUS_DTYPE;
    }
    // SAFETY: one readable input spec and a writable output spec, per the contract.
    unsafe { *output = *inputs };
    CRT_STATUS_OK
}

/// Writes `*user_data` (an f32) into every element of the pooled output.
unsafe extern "C" fn fill(
    user: *mut c_void,
    _inputs: *const *const crt_tensor,
    _n: usize,
    output: *mut crt_op_output,
    _err: *mut *mut crt_error,
) -> crt_status {
    let mut t = ptr::null_mut();
    // SAFETY: `output` is this call's; `t` is a valid out-pointer.
    let status = unsafe { crt_op_output_pooled(output, &mut t, ptr::null_mut()) };
    if status != CRT_STATUS_OK {
        return status;
    }
    // SAFETY: `user` is the boxed f32 registered with the operator; the pooled output holds
    // 3 Float32 elements (the test's input shape) and only this kernel writes it.
    unsafe {
        let value = *user.cast::<f32>();
        let mut data = ptr::null_mut();
        crt_tensor_data_ptr(t, &mut data, ptr::null_mut());
        for i in 0..3 {
            data.cast::<f32>().add(i).write(value);
        }
        crt_tensor_free(t);
    }
    CRT_STATUS_OK
}

unsafe extern "C" fn drop_value(user: *mut c_void) {
    // SAFETY: `user` came from `Box::into_raw` of an f32; dropped once.
    drop(unsafe { Box::from_raw(user.cast::<f32>()) });
    DROPPED.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn c_callbacks_user_data_and_errors() {
    let user = Box::into_raw(Box::new(7.5f32)).cast::<c_void>();
    let name = c"c.fill";
    let mut err = ptr::null_mut();
    // SAFETY: valid callbacks, name and out-pointer; `user` is owned by the op from now on.
    let status = unsafe {
        crt_op_register(
            name.as_ptr(),
            Some(same),
            Some(fill),
            user,
            Some(drop_value),
            &mut err,
        )
    };
    assert_eq!(status, CRT_STATUS_OK);

    // A second registration under the same name fails and does not take its user_data.
    let other = Box::into_raw(Box::new(1.0f32)).cast::<c_void>();
    // SAFETY: as above.
    let status = unsafe {
        crt_op_register(
            name.as_ptr(),
            Some(same),
            Some(fill),
            other,
            Some(drop_value),
            &mut err,
        )
    };
    assert_eq!(status, CRT_STATUS_INVALID_ARGUMENT);
    assert!(take_message(err).contains("already registered"));
    assert_eq!(DROPPED.load(Ordering::SeqCst), 0, "ownership was not taken");
    // SAFETY: `other` is still ours.
    unsafe { drop_value(other) };
    DROPPED.store(0, Ordering::SeqCst);

    let shape = [3i64];
    let mut x = ptr::null_mut();
    let mut y = ptr::null_mut();
    // SAFETY: valid arguments and out-pointers throughout.
    unsafe {
        assert_eq!(
            crt_tensor_zeros(
                shape.as_ptr(),
                1,
                CRT_DTYPE_FLOAT32,
                &mut x,
                ptr::null_mut()
            ),
            0
        );
        let inputs = [x.cast_const()];
        assert_eq!(
            crt_op_call(name.as_ptr(), inputs.as_ptr(), 1, &mut y, &mut err),
            CRT_STATUS_OK
        );
        let mut data = ptr::null_mut();
        crt_tensor_data_ptr(y, &mut data, ptr::null_mut());
        assert_eq!(std::slice::from_raw_parts(data.cast::<f32>(), 3), [7.5; 3]);
        crt_tensor_free(y);

        let two = [x.cast_const(), x.cast_const()];
        let status = crt_op_call(name.as_ptr(), two.as_ptr(), 2, &mut y, &mut err);
        assert_eq!(status, CRT_STATUS_DTYPE, "the rule's status");
        assert!(y.is_null());
        assert!(take_message(err).contains("takes one input"));
        let status = crt_op_call(c"c.nope".as_ptr(), inputs.as_ptr(), 1, &mut y, &mut err);
        assert_eq!(status, CRT_STATUS_INVALID_ARGUMENT);
        assert!(
            take_message(err).contains("c.fill"),
            "lists the registered names"
        );
        crt_tensor_free(x);

        let mut removed = 0u8;
        assert_eq!(
            crt_op_unregister(name.as_ptr(), &mut removed, ptr::null_mut()),
            0
        );
        assert_eq!(removed, 1);
    }
    assert_eq!(DROPPED.load(Ordering::SeqCst), 1, "user_data released once");
}
