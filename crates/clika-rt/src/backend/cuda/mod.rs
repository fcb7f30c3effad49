//! The CUDA backend's place: devices `"cuda:N"` parse and are routed here, and report
//! themselves unavailable until the backend (cudarc, loaded dynamically) exists.

use super::Backend;
use crate::error::{Error, Result};
use crate::Device;

/// The backend of CUDA device `device`.
pub(crate) fn context(device: Device) -> Result<&'static dyn Backend> {
    Err(Error::DeviceUnavailable {
        device,
        reason: "this build of clika-rt has no CUDA backend yet; use Device::gpu(0) (Vulkan \
                 through wgpu, which runs on NVIDIA drivers too) or Device::cpu()"
            .to_string(),
    })
}
