//! Indexing: gathering along a dim, boolean masks, the indices of non-zero elements, and
//! writing through a mask. Results are new runtime-owned tensors (advanced indexing copies);
//! `crt_tensor_masked_fill_` writes in place.

use clika_rt::ops;

use crate::compute::{crt_scalar, derive2, in_place};
use crate::error::{crt_error, crt_status};
use crate::ffi::arg;
use crate::tensor::{crt_tensor, derive};

/// The entries of `tensor` along `dim` at `indices` (an integer tensor of any shape;
/// negative indices count from the end): the result's shape is `tensor`'s with `dim`
/// replaced by `indices`' shape (numpy's `take` along an axis; PyTorch's `index_select` for
/// a 1-D `indices`). An index out of range is `CRT_STATUS_INDEX`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_index_select(
    tensor: *const crt_tensor,
    dim: i64,
    indices: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive2(tensor, indices, out, err, |t, i| {
            Ok(ops::index_select(t, dim as isize, i)?)
        })
    }
}

/// The elements of `tensor` where `mask` (broadcast to its shape; non-zero is true) holds,
/// as a 1-D tensor in row-major order.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_masked_select(
    tensor: *const crt_tensor,
    mask: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive2(tensor, mask, out, err, |t, m| Ok(ops::masked_select(t, m)?)) }
}

/// The indices of `tensor`'s non-zero elements: an Int64 tensor `[count, ndim]`, rows in
/// row-major order.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_nonzero(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::nonzero(t)?)) }
}

/// Sets the elements of `tensor` where `mask` (broadcast to its shape) holds to `value`
/// (a weak scalar converted to the dtype), in place, through memory other handles may share
/// (as `crt_tensor_fill_`). Read-only memory is `CRT_STATUS_READ_ONLY`.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_masked_fill_(
    tensor: *const crt_tensor,
    mask: *const crt_tensor,
    value: crt_scalar,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        // SAFETY: P1 for `mask`.
        let m = unsafe { arg(mask, "mask") }?;
        let v = value.to_core()?;
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { t.masked_fill_shared(&m.tensor, v) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}
