//! Automatic placement with the GPU forced to fail (`CLIKA_RT_GPU_DISABLE=1`): everything
//! lands on the CPU, with exactly one warning. Its own test binary: the variable is
//! process-wide.

#[path = "support/warnings.rs"]
mod warnings;

use clika_rt::backend::{take_fallback_warning, GPU_DISABLE_ENV};
use clika_rt::{DType, Device, Tensor};

#[test]
fn auto_falls_back_to_cpu_with_one_warning() {
    warnings::install();
    std::env::set_var(GPU_DISABLE_ENV, "1");
    let err = Device::gpu(0).ensure_available().unwrap_err();
    // Without the `gpu` feature (`make miri`) the reason is the missing backend instead.
    let reason = if cfg!(feature = "gpu") {
        GPU_DISABLE_ENV
    } else {
        "gpu` cargo feature"
    };
    assert!(err.to_string().contains(reason), "{err}");
    assert_eq!(Device::auto().resolve(), Device::cpu());
    let t = Tensor::ones(&[3], DType::Float32).unwrap();
    for _ in 0..3 {
        let moved = t.to(Device::auto()).unwrap();
        assert_eq!(moved.device(), Device::cpu());
        assert_eq!(moved.to_vec::<f32>().unwrap(), vec![1.0; 3]);
    }
    assert_eq!(warnings::count(), 1, "exactly one warning");
    let text = warnings::WARNINGS.last.lock().unwrap().clone();
    assert!(
        text.contains("falls back to CPU") && text.contains(reason),
        "{text}"
    );
    // Every accelerator automatic placement tries (CUDA first, then wgpu) says why it was
    // not used.
    for device in clika_rt::backend::AUTO_PREFERENCE {
        assert!(
            text.contains(&device.to_string()),
            "{device} missing from: {text}"
        );
    }
    // Bindings get the same message once.
    assert!(take_fallback_warning().is_some());
    assert!(take_fallback_warning().is_none());
}
