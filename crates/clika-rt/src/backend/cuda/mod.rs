//! The CUDA backend (`"cuda:N"`), behind the `cuda` cargo feature and never compiled under
//! Miri. The driver (libcuda) and NVRTC are loaded with `dlopen` on first use through
//! `cudarc`, so building needs no CUDA toolkit and a machine without a driver gets
//! [`Error::DeviceUnavailable`] with the reason.
//!
//! - `driver`: start-up (library probe, context, stream), events and the host-access decision;
//! - `alloc`: `cuMemAlloc` segments for the pool, addressed by their device addresses;
//! - `transfer`: host ↔ device copies (pageable and pinned);
//! - `interop`: other libraries' device pointers and streams (wrapping, ordering);
//! - `codegen`: CUDA C source per (op, dtypes) and launch shapes (pure, tested without a GPU);
//! - `kernels`: NVRTC compilation, the kernel cache and the op entry points;
//! - `blas`: `matmul` through cuBLAS (the NVRTC kernel where cuBLAS is missing);
//! - `vision`: `normalize_image`, `cvt_color` and `interpolate`.

#[cfg(all(feature = "cuda", not(miri)))]
mod alloc;
#[cfg(all(feature = "cuda", not(miri)))]
mod blas;
#[cfg(all(feature = "cuda", not(miri)))]
mod codegen;
#[cfg(all(feature = "cuda", not(miri)))]
mod driver;
#[cfg(all(feature = "cuda", not(miri)))]
mod interop;
#[cfg(all(feature = "cuda", not(miri)))]
mod kernels;
#[cfg(all(feature = "cuda", not(miri)))]
mod transfer;
#[cfg(all(feature = "cuda", not(miri)))]
mod vision;

use super::Backend;
use crate::error::Result;
use crate::Device;

/// The backend of CUDA device `device`, started on first use.
#[cfg(all(feature = "cuda", not(miri)))]
pub(crate) fn context(device: Device) -> Result<&'static dyn Backend> {
    Ok(driver::context(device)?)
}

/// The backend of CUDA device `device`: absent from this build.
#[cfg(not(all(feature = "cuda", not(miri))))]
pub(crate) fn context(device: Device) -> Result<&'static dyn Backend> {
    Err(crate::error::Error::DeviceUnavailable {
        device,
        reason: "this build of clika-rt has no CUDA backend (built without the `cuda` cargo \
                 feature); rebuild with `--features cuda`, or use Device::gpu(0) (Vulkan \
                 through wgpu, which runs on NVIDIA drivers too) or Device::cpu()"
            .to_string(),
    })
}

/// The CUDA device whose memory `ptr` is.
#[cfg(all(feature = "cuda", not(miri)))]
pub(crate) fn device_of_pointer(ptr: usize) -> Result<Device> {
    interop::device_of_pointer(ptr)
}

/// The CUDA device whose memory `ptr` is: no CUDA in this build.
#[cfg(not(all(feature = "cuda", not(miri))))]
pub(crate) fn device_of_pointer(ptr: usize) -> Result<Device> {
    let _ = ptr;
    context(Device::cuda(0)).map(|_| Device::cuda(0))
}
