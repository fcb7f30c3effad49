//! The elementwise functions that take more than an op code (issue 14): `round` with
//! `decimals`, `tril`/`triu` with a diagonal offset, and `clamp_` in place. The new unary
//! and binary ops themselves are op codes (`CRT_UNARY_ROUND`, `CRT_BINARY_FLOOR_DIVIDE`, …)
//! of `crt_tensor_unary`/`crt_tensor_binary`.

use clika_rt::ops;
use clika_rt::Tensor;

use crate::error::{crt_error, crt_status, CapiError};
use crate::op_codes::crt_scalar;
use crate::tensor::{crt_tensor, derive};

/// Rounds to `decimals` decimal places, halves to even (numpy's `round(x, decimals)`);
/// `decimals` 0 is `CRT_UNARY_ROUND`. Integer tensors are returned unchanged for
/// `decimals >= 0`; negative decimals need a float tensor (`CRT_STATUS_DTYPE`).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_round_decimals(
    tensor: *const crt_tensor,
    decimals: i32,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::round_decimals(t, decimals)?)) }
}

/// The lower triangle of the last two dims (`col - row <= diagonal` kept, the rest zero;
/// `torch.tril`). Needs at least 2 dims.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_tril(
    tensor: *const crt_tensor,
    diagonal: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::tril(t, diagonal)?)) }
}

/// The upper triangle of the last two dims (`col - row >= diagonal` kept, the rest zero;
/// `torch.triu`). Needs at least 2 dims.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_triu(
    tensor: *const crt_tensor,
    diagonal: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::triu(t, diagonal)?)) }
}

/// Limits every element of `tensor` to `[min, max]` in place; `has_min`/`has_max` zero
/// leaves that side open. A float bound on an integer tensor is refused
/// (`CRT_STATUS_DTYPE`), as for every in-place op whose result the dtype cannot hold.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_clamp_(
    tensor: *const crt_tensor,
    min: crt_scalar,
    has_min: i32,
    max: crt_scalar,
    has_max: i32,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &Tensor| -> Result<(), CapiError> {
        let lo = if has_min != 0 {
            Some(min.to_core()?)
        } else {
            None
        };
        let hi = if has_max != 0 {
            Some(max.to_core()?)
        } else {
            None
        };
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { t.clamp_shared(lo, hi) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { crate::compute::in_place(tensor, err, f) }
}
