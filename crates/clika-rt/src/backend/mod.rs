//! Accelerator backends: the small interface every device implements (context and queue,
//! raw device memory for the pool, copies in/out, kernel launches, completion events), and
//! the dispatch from a [`Device`] to its backend.
//!
//! The CPU is implicitly the first backend: its pool is host pages and its ops run eagerly in
//! `ops/`. The second is `wgpu` (Vulkan; Mesa's lavapipe on machines without a GPU), behind
//! the default-on `gpu` cargo feature and never compiled under Miri. Without it every GPU
//! request fails with [`Error::DeviceUnavailable`](crate::Error::DeviceUnavailable).

#[cfg(all(feature = "gpu", not(miri)))]
mod wgpu;

mod auto;

use std::sync::Arc;

#[cfg(not(all(feature = "gpu", not(miri))))]
use crate::error::Error;
use crate::error::Result;
use crate::memory::{Event, Pool};
use crate::{Device, Tensor};

pub(crate) use auto::fall_back;
pub use auto::{auto_device, take_fallback_warning, GPU_DISABLE_ENV};

/// What a device backend provides to the rest of the runtime. Kernels are backend-specific
/// and reached through the op dispatch in `ops/`, so they are not part of this trait.
pub(crate) trait Backend: Send + Sync {
    /// The device's caching pool (its raw allocator reserves device memory).
    fn pool(&self) -> &Arc<Pool>;
    /// Copies a host tensor into fresh device memory; a source pinned for this device is
    /// kept alive until the copy completes instead of being waited for.
    fn upload(&self, src: &Tensor) -> Result<Tensor>;
    /// Reads a device tensor back into a fresh contiguous host tensor (waits for the queue).
    fn download(&self, src: &Tensor) -> Result<Tensor>;
    /// An event that completes once all work queued so far has completed.
    #[allow(
        dead_code,
        reason = "part of the interface; the pool gets it through pending_work"
    )]
    fn record_event(&self) -> Arc<dyn Event>;
    /// Waits for all queued work.
    fn synchronize(&self) -> Result<()>;
    /// A human-readable name of the hardware (the wgpu adapter's name).
    fn name(&self) -> String;
}

/// Why a GPU is unavailable in a build without the backend.
#[cfg(not(all(feature = "gpu", not(miri))))]
const NO_BACKEND: &str = "this build of clika-rt has no GPU backend (built without the `gpu` \
     cargo feature); rebuild with default features or use Device::cpu()";

/// The backend of an accelerator `device`, created on first use.
#[cfg(all(feature = "gpu", not(miri)))]
pub(crate) fn backend(device: Device) -> Result<&'static dyn Backend> {
    Ok(wgpu::context(device)?)
}

/// The backend of an accelerator `device`, created on first use.
#[cfg(not(all(feature = "gpu", not(miri))))]
pub(crate) fn backend(device: Device) -> Result<&'static dyn Backend> {
    Err(Error::DeviceUnavailable {
        device,
        reason: NO_BACKEND.to_string(),
    })
}

/// The pool of accelerator `device`.
pub(crate) fn pool(device: Device) -> Result<&'static Arc<Pool>> {
    Ok(backend(device)?.pool())
}

/// Whether `device` can be used, with the reason when not. Starts its backend if needed.
pub(crate) fn ensure_available(device: Device) -> Result<()> {
    backend(device).map(|_| ())
}

/// Waits for `device`'s queued work.
pub(crate) fn synchronize(device: Device) -> Result<()> {
    if device.is_cpu() {
        return Ok(());
    }
    backend(device)?.synchronize()
}

/// Moves `t` to `device` (different from its own).
pub(crate) fn transfer(t: &Tensor, device: Device) -> Result<Tensor> {
    match (t.device().is_cpu(), device.is_cpu()) {
        (true, false) => backend(device)?.upload(t),
        (false, true) => backend(t.device())?.download(t),
        (false, false) => backend(device)?.upload(&backend(t.device())?.download(t)?),
        (true, true) => Ok(t.clone()),
    }
}

/// The host copy of `t` for reading its values (the same tensor on the CPU).
pub(crate) fn host(t: &Tensor) -> Result<Tensor> {
    if t.device().is_cpu() {
        Ok(t.clone())
    } else {
        transfer(t, Device::cpu())
    }
}

/// The name of the hardware behind accelerator `device` (for logs and benchmarks), starting
/// its backend if needed.
pub fn device_name(device: Device) -> Result<String> {
    if device.is_cpu() {
        return Ok("host CPU".to_string());
    }
    Ok(backend(device)?.name())
}

/// The reductions GPU kernels implement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reduction {
    Sum,
    Mean,
    Max,
    Min,
}

impl Reduction {
    /// The op's name, for errors.
    #[cfg_attr(
        not(all(feature = "gpu", not(miri))),
        expect(dead_code, reason = "only GPU kernels name their reduction")
    )]
    pub(crate) fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Mean => "mean",
            Reduction::Max => "max",
            Reduction::Min => "min",
        }
    }
}

/// Device kernels behind the op entry points in `ops/`; each is reached only with an
/// operand on an accelerator, so without the backend they report it unavailable.
#[cfg(all(feature = "gpu", not(miri)))]
pub(crate) use self::wgpu::kernels;

#[cfg(not(all(feature = "gpu", not(miri))))]
pub(crate) mod kernels {
    use super::Reduction;
    use crate::ops::{BinaryOp, UnaryOp};
    use crate::{DType, Error, Result, Tensor};

    fn none(t: &Tensor) -> Error {
        Error::DeviceUnavailable {
            device: t.device(),
            reason: super::NO_BACKEND.to_string(),
        }
    }

    pub(crate) fn convert(t: &Tensor, _: DType) -> Result<Tensor> {
        Err(none(t))
    }

    pub(crate) fn binary(_: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        Err(none(if a.device().is_cpu() { b } else { a }))
    }

    pub(crate) fn unary(_: UnaryOp, t: &Tensor) -> Result<Tensor> {
        Err(none(t))
    }

    pub(crate) fn reduce(
        _: Reduction,
        t: &Tensor,
        _: Option<&[isize]>,
        _: bool,
        _: DType,
    ) -> Result<Tensor> {
        Err(none(t))
    }

    pub(crate) fn matmul(a: &Tensor, _: &Tensor) -> Result<Tensor> {
        Err(none(a))
    }
}
