//! Device memory: the pool's statistics, giving its idle reserve back, the memory limit.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::boundary::guard;
use crate::error::{crt_error, crt_status};
use crate::ffi::Out;
use crate::types::{crt_device, crt_memory_stats};

/// Writes `device`'s pool statistics to `*out`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_memory_stats(
    device: crt_device,
    out: *mut crt_memory_stats,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(clika_rt::device::memory_stats(device.to_core()?).into());
        Ok(())
    })
}

/// Writes to `*out` the bytes of host memory `device` currently uses in place (tensors moved
/// to a unified-memory GPU without a copy). Not pool memory: `crt_memory_stats` leaves it
/// out, and the memory limit does not count it.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_imported_bytes(
    device: crt_device,
    out: *mut u64,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::new(out, "out") }?;
        let stats = clika_rt::device::memory_stats(device.to_core()?);
        out.write(stats.imported_bytes as u64);
        Ok(())
    })
}

/// Returns `device`'s idle reserve to the system: deferred reservations drain, parked
/// buffers retire, empty segments are released. Memory in use, or whose last use has not
/// completed, is never touched. `released_out` (may be NULL) receives the bytes released.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_release_cached_memory(
    device: crt_device,
    released_out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        let released = clika_rt::device::release_cached_memory(device.to_core()?)?;
        if !released_out.is_null() {
            // SAFETY: non-NULL, so valid for one write by P2.
            unsafe { Out::new(released_out, "released_out") }?.write(released);
        }
        Ok(())
    })
}

/// Writes to `*out` the statistics of `device`'s page-locked host pool (the memory behind
/// `crt_tensor_pin_memory`). Only CUDA devices have one; others fail with
/// `CRT_ERROR_DEVICE` naming why.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_pinned_memory_stats(
    device: crt_device,
    out: *mut crt_memory_stats,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(clika_rt::device::pinned_memory_stats(device.to_core()?)?.into());
        Ok(())
    })
}

/// Returns the idle page-locked segments of `device`'s pinned host pool to the system, as
/// `crt_device_release_cached_memory` does for its device pool. `released_out` (may be
/// NULL) receives the bytes released.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_release_cached_pinned_memory(
    device: crt_device,
    released_out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        let released = clika_rt::device::release_cached_pinned_memory(device.to_core()?)?;
        if !released_out.is_null() {
            // SAFETY: non-NULL, so valid for one write by P2.
            unsafe { Out::new(released_out, "released_out") }?.write(released);
        }
        Ok(())
    })
}

/// Caps how many bytes `device`'s pool may reserve; a negative `limit_bytes` removes the cap.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_set_memory_limit(
    device: crt_device,
    limit_bytes: i64,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        let limit = usize::try_from(limit_bytes).ok();
        Ok(clika_rt::device::set_memory_limit(
            device.to_core()?,
            limit,
        )?)
    })
}

/// Resets `peak_active_bytes` of `device` to its current `active_bytes`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_device_reset_peak_stats(
    device: crt_device,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        clika_rt::device::reset_peak_stats(device.to_core()?);
        Ok(())
    })
}

/// Whether the automatic-placement fallback warning goes to stderr.
static FALLBACK_WARNINGS: AtomicBool = AtomicBool::new(true);

/// Prints the automatic-placement fallback warning once, unless silenced. Runs after every
/// export, since any call that takes a device may have resolved `CRT_DEVICE_AUTO`.
pub(crate) fn report_fallback() {
    if let Some(warning) = clika_rt::backend::take_fallback_warning() {
        if FALLBACK_WARNINGS.load(Ordering::Relaxed) {
            eprintln!("{warning}");
        }
    }
}

/// Whether the one-time warning printed when automatic placement (`CRT_DEVICE_AUTO`) falls
/// back to the CPU goes to stderr: non-zero (the default) prints it, zero silences it.
#[no_mangle]
pub extern "C" fn crt_device_set_fallback_warnings(enabled: i32) {
    FALLBACK_WARNINGS.store(enabled != 0, Ordering::Relaxed);
}
