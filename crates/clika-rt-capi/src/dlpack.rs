//! DLPack for C and C++: a tensor over a producer's `DLManagedTensorVersioned` (or legacy
//! `DLManagedTensor`) without a copy, and a managed tensor over a tensor's memory for any
//! DLPack consumer. The structs are DLPack's own (`dlpack.h`); the header only declares
//! them, so a program includes `dlpack.h` (any version ≥ 1.0) to read their fields.
//!
//! Ownership, both ways, is DLPack's: whoever holds a managed tensor calls its deleter
//! exactly once. An import that succeeds takes the producer's managed tensor (the deleter
//! runs when the last tensor over the memory is freed); one that fails takes nothing. An
//! export gives the caller a managed tensor whose deleter releases the tensor's memory.

use std::ffi::c_int;

use clika_rt::io::dlpack::{self, DLManagedTensor, DLManagedTensorVersioned};

use crate::boundary::guard;
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{arg, Out};
use crate::tensor::{create, crt_tensor};

/// A tensor over the memory of a DLPack ≥ 1.0 managed tensor, without a copy: read-only
/// (writes give `CRT_STATUS_READ_ONLY`) when the producer set `DLPACK_FLAG_BITMASK_READ_ONLY`.
/// On success the tensor owns `managed`: its deleter runs exactly once, when the last tensor
/// over the memory is freed (on whatever thread frees it), and the caller must not call it.
/// On failure nothing is taken: the caller still owns `managed`. Refused: NULL
/// (`CRT_STATUS_NULL_POINTER`), host memory only
/// (`kDLCPU`; other devices give `CRT_STATUS_INVALID_ARGUMENT`), a major version other than
/// 1, a dtype the runtime lacks (`CRT_STATUS_DTYPE`), a misaligned or wrapping range.
///
/// # Safety
/// `managed` is NULL (rejected) or a live managed tensor whose memory stays valid (and
/// writable unless flagged read-only) until its deleter runs; the header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_dlpack(
    managed: *mut DLManagedTensorVersioned,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract (`create` checks `out` before `make` runs, so a rejected
    // out-pointer takes nothing either).
    unsafe {
        create(out, err, || {
            if managed.is_null() {
                return Err(CapiError::NullArgument("managed"));
            }
            Ok(dlpack::import_versioned(managed)?)
        })
    }
}

/// `crt_tensor_from_dlpack` for a legacy (pre-1.0) `DLManagedTensor`, which cannot say
/// whether its memory may be written: `read_only` non-zero gives a tensor that refuses
/// writes (as numpy imports legacy DLPack); zero trusts the producer that it may be written.
/// Ownership as for `crt_tensor_from_dlpack`.
///
/// # Safety
/// As for `crt_tensor_from_dlpack`; the memory is writable unless `read_only`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_dlpack_legacy(
    managed: *mut DLManagedTensor,
    read_only: c_int,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            if managed.is_null() {
                return Err(CapiError::NullArgument("managed"));
            }
            Ok(dlpack::import_legacy(managed, read_only != 0)?)
        })
    }
}

/// A DLPack 1.x managed tensor over the tensor's memory (no copy; its strides and offset as
/// they are), flagged read-only when the tensor is. `*out` receives it; the caller hands it
/// to a consumer or calls its deleter, exactly once, which releases the memory (the tensor
/// handle itself stays the caller's to free, before or after). Host tensors only: a device
/// tensor gives `CRT_STATUS_DEVICE` (move it with `crt_tensor_to` first).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_to_dlpack(
    tensor: *const crt_tensor,
    out: *mut *mut DLManagedTensorVersioned,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        out.write(dlpack::export_versioned(t.tensor.clone(), false)?);
        Ok(())
    })
}

/// `crt_tensor_to_dlpack` in the legacy (pre-1.0) struct, for consumers that predate DLPack
/// 1.0. It cannot mark memory read-only, so a read-only tensor gives `CRT_STATUS_READ_ONLY`
/// (export the versioned struct, or a copy).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_to_dlpack_legacy(
    tensor: *const crt_tensor,
    out: *mut *mut DLManagedTensor,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        out.write(dlpack::export_legacy(t.tensor.clone())?);
        Ok(())
    })
}
