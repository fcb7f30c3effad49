//! Custom operators through the C ABI, called from Rust as C would: C callbacks, a status
//! and message from `crt_error_new`, and `user_data` ownership (released once when
//! unregistered; never taken when registration fails).

use std::ffi::{c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use clika_rt_capi::access::crt_tensor_data_ptr;
use clika_rt_capi::custom_ops::*;
use clika_rt_capi::error::*;
use clika_rt_capi::tensor::*;
use clika_rt_capi::types::*;
use clika_rt_capi::{crt_error, crt_tensor};

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

fn message(err: *mut crt_error) -> String {
    // SAFETY: a live error from the library; freed once, here.
    unsafe {
        let m = CStr::from_ptr(crt_error_message(err))
            .to_string_lossy()
            .into_owned();
        crt_error_free(err);
        m
    }
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
    assert!(message(err).contains("already registered"));
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
        assert!(message(err).contains("takes one input"));
        let status = crt_op_call(c"c.nope".as_ptr(), inputs.as_ptr(), 1, &mut y, &mut err);
        assert_eq!(status, CRT_STATUS_INVALID_ARGUMENT);
        assert!(
            message(err).contains("c.fill"),
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
