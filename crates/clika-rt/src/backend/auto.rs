//! Automatic placement: `Device::auto()` resolves to the best available accelerator, else the
//! CPU. When the accelerator fails (no adapter, failed start, out of memory while moving
//! data in), its cached memory is released, the work falls back to the CPU, and one warning
//! says so (once per process, through the `log` facade).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::{Device, Error};

/// Set to a non-empty value other than `0` to make every GPU unavailable (tests use it to
/// force the automatic-placement fallback).
pub const GPU_DISABLE_ENV: &str = "CLIKA_RT_GPU_DISABLE";

/// Why GPUs are disabled by the environment, if they are.
#[cfg_attr(
    not(all(feature = "gpu", not(miri))),
    expect(dead_code, reason = "only the GPU backend consults it")
)]
pub(crate) fn disabled_reason() -> Option<String> {
    let v = std::env::var(GPU_DISABLE_ENV).ok()?;
    (!v.is_empty() && v != "0").then(|| {
        format!("GPUs are disabled by {GPU_DISABLE_ENV}={v}; unset it or use Device::cpu()")
    })
}

/// The device `Device::auto()` resolves to: GPU 0 when it starts, else the CPU (after one
/// warning).
pub fn auto_device() -> Device {
    let gpu = Device::gpu(0);
    match super::ensure_available(gpu) {
        Ok(()) => gpu,
        Err(e) => fall_back(gpu, &e),
    }
}

/// The fallback message not yet shown by a binding.
static PENDING: Mutex<Option<String>> = Mutex::new(None);

/// Gives up on `failed` for automatic placement: releases its cached memory and warns once
/// per process (`log::warn!`; bindings also show it their own way, see
/// [`take_fallback_warning`]).
pub(crate) fn fall_back(failed: Device, why: &Error) -> Device {
    let _ = crate::memory::release_cached_memory(failed);
    static WARNED: AtomicBool = AtomicBool::new(false);
    if !WARNED.swap(true, Ordering::Relaxed) {
        let msg = format!("clika-rt: automatic placement falls back to CPU: {why}");
        log::warn!("{msg}");
        *PENDING.lock().unwrap_or_else(|e| e.into_inner()) = Some(msg);
    }
    Device::cpu()
}

/// The automatic-placement fallback warning, returned once (the first call after the
/// fallback happened), so a binding can show it its own way (Python `warnings.warn`, C++
/// stderr). `None` when there was no fallback or it was already taken.
pub fn take_fallback_warning() -> Option<String> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).take()
}
