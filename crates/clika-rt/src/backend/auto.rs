//! Automatic placement: `Device::auto()` resolves to the best available accelerator (CUDA,
//! then wgpu), else the CPU. When the accelerator fails (no adapter, failed start, out of memory while moving
//! data in), its cached memory is released, the work falls back to the CPU, and one warning
//! says so (once per process, through the `log` facade).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::Device;

/// Set to a non-empty value other than `0` to make every GPU unavailable, wgpu's and CUDA's
/// (tests use it to force the automatic-placement fallback).
pub const GPU_DISABLE_ENV: &str = "CLIKA_RT_GPU_DISABLE";

/// Why GPUs are disabled by the environment, if they are.
#[cfg_attr(
    not(all(any(feature = "gpu", feature = "cuda"), not(miri))),
    expect(dead_code, reason = "only the accelerator backends consult it")
)]
pub(crate) fn disabled_reason() -> Option<String> {
    let v = std::env::var(GPU_DISABLE_ENV).ok()?;
    (!v.is_empty() && v != "0").then(|| {
        format!("GPUs are disabled by {GPU_DISABLE_ENV}={v}; unset it or use Device::cpu()")
    })
}

/// The accelerators automatic placement tries, best first: CUDA device 0 (NVIDIA's own
/// stack, the fastest path where it exists), then GPU 0 (wgpu: Vulkan on any vendor).
pub const AUTO_PREFERENCE: [Device; 2] = [Device::cuda(0), Device::gpu(0)];

/// The device `Device::auto()` resolves to: the first of [`AUTO_PREFERENCE`] that starts,
/// else the CPU (after releasing the accelerators' caches and one warning naming why each
/// was not used). Stepping from an unavailable CUDA device to a working wgpu GPU is not a
/// fallback to warn about: most machines have no CUDA driver.
pub fn auto_device() -> Device {
    let mut why = Vec::new();
    for device in AUTO_PREFERENCE {
        match super::ensure_available(device) {
            Ok(()) => return device,
            Err(e) => why.push((device, e)),
        }
    }
    let Some((last, _)) = why.last() else {
        return Device::cpu();
    };
    let last = *last;
    for (device, _) in &why[..why.len() - 1] {
        let _ = crate::memory::release_cached_memory(*device);
    }
    let reasons: Vec<String> = why.iter().map(|(_, e)| e.to_string()).collect();
    fall_back(last, &reasons.join("; "))
}

/// The fallback message not yet shown by a binding.
static PENDING: Mutex<Option<String>> = Mutex::new(None);

/// Gives up on `failed` for automatic placement: releases its cached memory and warns once
/// per process (`log::warn!`; bindings also show it their own way, see
/// [`take_fallback_warning`]).
pub(crate) fn fall_back(failed: Device, why: &dyn std::fmt::Display) -> Device {
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
