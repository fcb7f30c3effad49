//! The `out=` forms: an operation's result written into an existing tensor (`out`), which
//! may be a view of shared memory. Nothing is allocated when `out` has the result's dtype;
//! otherwise the result is converted into it. Inputs may alias or overlap `out`: they are
//! read in full (or copied) before anything is written.

use clika_rt::{ops, Tensor};

use crate::compute::in_place;
use crate::error::{crt_error, crt_status};
use crate::ffi::arg;
use crate::op_codes::{binary_op, crt_binary_op, crt_reduce_op, crt_unary_op, reduce_op, unary_op};
use crate::tensor::crt_tensor;

/// `op(a, b)` written into the existing tensor `out` (the `out=` form): `out` must have the
/// broadcast shape of `a` and `b`; the result is converted to `out`'s dtype. Nothing is
/// allocated when `out` has the op's result dtype. `a` or `b` may be `out` itself, and an
/// input overlapping `out` is read in full before anything is written.
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_binary_into(
    op: crt_binary_op,
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        let op = binary_op(op)?;
        // SAFETY: P1 for `a` and `b`.
        let (a, b) = unsafe { (arg(a, "a")?, arg(b, "b")?) };
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::binary_into_shared(op, &a.tensor, &b.tensor, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}

/// `op(tensor)` written into the existing tensor `out` of the same shape (the `out=` form);
/// the result is converted to `out`'s dtype.
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_unary_into(
    op: crt_unary_op,
    tensor: *const crt_tensor,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        let op = unary_op(op)?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::unary_into_shared(op, &t.tensor, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}

/// The matrix product of `a` and `b` (numpy's `matmul` rules, as `crt_tensor_matmul`)
/// written into the existing tensor `out`, which must have the result's shape; the values
/// are converted to `out`'s dtype. With the result's dtype the CPU writes the product
/// straight into `out`; `a` or `b` may be `out` itself (it is copied first).
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_matmul_into(
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        // SAFETY: P1 for `a` and `b`.
        let (a, b) = unsafe { (arg(a, "a")?, arg(b, "b")?) };
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::matmul_into_shared(&a.tensor, &b.tensor, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}

/// `op` over the `ndims` dimensions in `dims` (as `crt_tensor_reduce`) written into the
/// existing tensor `out`, which must have the reduction's shape; the values are converted
/// to `out`'s dtype (libtorch's `at::sum_out`). `tensor` may overlap `out`: the reduction
/// is computed first. On any error `out` is left as it was.
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`; `dims` is valid for `ndims` reads (or NULL when
/// `ndims` is 0).
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_reduce_into(
    op: crt_reduce_op,
    tensor: *const crt_tensor,
    dims: *const i64,
    ndims: usize,
    keepdim: u8,
    correction: usize,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        // SAFETY: `dims` as documented.
        let dims = unsafe { crate::views::isz_list(dims, ndims, "dims") }?;
        let op = reduce_op(op, correction)?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::reduce_into_shared(op, &t.tensor, Some(&dims), keepdim != 0, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}

/// `op` over every element (as `crt_tensor_reduce_all`) written into the existing
/// 0-dimensional tensor `out`, converted to its dtype. On any error `out` is left as it was.
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_reduce_all_into(
    op: crt_reduce_op,
    tensor: *const crt_tensor,
    correction: usize,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        let op = reduce_op(op, correction)?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::reduce_into_shared(op, &t.tensor, None, false, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}
