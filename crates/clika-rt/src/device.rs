//! Devices: a small `Copy` id (kind + ordinal). Per-device state (pools, queues) lives in
//! `memory/` and, for accelerators, in a backend.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
pub use crate::memory::{
    memory_stats, pinned_memory_stats, release_cached_memory, release_cached_pinned_memory,
    reset_peak_stats, set_memory_limit, MemoryStats,
};

/// The kind of a device.
///
/// The discriminants are part of the C ABI (`CRT_DEVICE_*`) and never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum DeviceKind {
    /// Host memory and host threads.
    Cpu = 0,
    /// A portable GPU through wgpu (Vulkan; Mesa's lavapipe where there is no GPU).
    Gpu = 1,
    /// Automatic placement: resolves to the best available accelerator, else the CPU, when
    /// a tensor is created or moved. No tensor ever lives on `Auto`.
    Auto = 2,
    /// An NVIDIA GPU through CUDA (`"cuda:N"`).
    Cuda = 3,
}

impl DeviceKind {
    /// Every kind, in discriminant order.
    pub const ALL: [DeviceKind; 4] = [
        DeviceKind::Cpu,
        DeviceKind::Gpu,
        DeviceKind::Auto,
        DeviceKind::Cuda,
    ];

    /// The kind's name as devices are spelled in text (`"cpu"`, `"gpu"`, `"auto"`, `"cuda"`).
    pub const fn name(self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Gpu => "gpu",
            DeviceKind::Auto => "auto",
            DeviceKind::Cuda => "cuda",
        }
    }

    /// The kind with C ABI number `code` (`CRT_DEVICE_*`), if there is one.
    pub fn from_code(code: u32) -> Option<DeviceKind> {
        DeviceKind::ALL.into_iter().find(|k| *k as u32 == code)
    }

    /// Whether devices of this kind are numbered (`gpu:1`, `cuda:2`); the CPU and `auto`
    /// are one device each.
    pub const fn has_ordinals(self) -> bool {
        matches!(self, DeviceKind::Gpu | DeviceKind::Cuda)
    }
}

/// A device: where a tensor's memory lives and where its ops run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Device {
    kind: DeviceKind,
    ordinal: u32,
}

impl Device {
    /// The host.
    pub const fn cpu() -> Device {
        Device {
            kind: DeviceKind::Cpu,
            ordinal: 0,
        }
    }

    /// The `ordinal`-th GPU.
    pub const fn gpu(ordinal: u32) -> Device {
        Device {
            kind: DeviceKind::Gpu,
            ordinal,
        }
    }

    /// The `ordinal`-th CUDA device.
    pub const fn cuda(ordinal: u32) -> Device {
        Device {
            kind: DeviceKind::Cuda,
            ordinal,
        }
    }

    /// Automatic placement: the best available accelerator, else the CPU (see
    /// [`Device::resolve`]).
    pub const fn auto() -> Device {
        Device {
            kind: DeviceKind::Auto,
            ordinal: 0,
        }
    }

    /// The concrete device: `Auto` becomes CUDA device 0 when it is available, else GPU 0
    /// (wgpu), else the CPU (after releasing the accelerators' caches and one warning); any
    /// other device is itself.
    pub fn resolve(self) -> Device {
        match self.kind {
            DeviceKind::Auto => crate::backend::auto_device(),
            _ => self,
        }
    }

    /// Builds a device from its parts.
    pub const fn new(kind: DeviceKind, ordinal: u32) -> Device {
        Device { kind, ordinal }
    }

    /// The device kind.
    pub const fn kind(self) -> DeviceKind {
        self.kind
    }

    /// The ordinal among devices of its kind.
    pub const fn ordinal(self) -> u32 {
        self.ordinal
    }

    /// Whether this is the host.
    pub const fn is_cpu(self) -> bool {
        matches!(self.kind, DeviceKind::Cpu)
    }

    /// Fails unless the device is available in this build and on this machine (for a GPU,
    /// this starts its backend on first use). `Auto` is always available.
    pub fn ensure_available(self) -> Result<()> {
        match self.kind {
            DeviceKind::Auto => Ok(()),
            _ => crate::backend::ensure_available(self),
        }
    }
}

impl Default for Device {
    fn default() -> Self {
        Device::cpu()
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DeviceKind::Cpu => f.write_str("CPU"),
            DeviceKind::Gpu => write!(f, "GPU:{}", self.ordinal),
            DeviceKind::Auto => f.write_str("auto"),
            DeviceKind::Cuda => write!(f, "CUDA:{}", self.ordinal),
        }
    }
}

impl FromStr for Device {
    type Err = Error;

    /// Parses `"cpu"`, `"gpu"`, `"gpu:1"` (`"vulkan:N"` names the same wgpu devices),
    /// `"cuda"`, `"cuda:N"` and `"auto"` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        let bad = || Error::ParseDevice {
            text: s.to_string(),
        };
        let lower = s.trim().to_ascii_lowercase();
        let (name, ordinal) = match lower.split_once(':') {
            Some((n, o)) => (n, o.parse::<u32>().map_err(|_| bad())?),
            None => (lower.as_str(), 0),
        };
        match name {
            "cpu" if ordinal == 0 => Ok(Device::cpu()),
            "auto" if ordinal == 0 && !lower.contains(':') => Ok(Device::auto()),
            "gpu" | "vulkan" => Ok(Device::gpu(ordinal)),
            "cuda" => Ok(Device::cuda(ordinal)),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        assert_eq!("cpu".parse::<Device>().unwrap(), Device::cpu());
        assert_eq!("CPU".parse::<Device>().unwrap(), Device::cpu());
        assert_eq!("cuda:0".parse::<Device>().unwrap(), Device::cuda(0));
        assert_eq!("CUDA:3".parse::<Device>().unwrap(), Device::cuda(3));
        assert_eq!(Device::cuda(1).to_string(), "CUDA:1");
        for k in DeviceKind::ALL {
            assert_eq!(DeviceKind::from_code(k as u32), Some(k));
        }
        assert_eq!("vulkan:2".parse::<Device>().unwrap(), Device::gpu(2));
        assert_eq!("gpu".parse::<Device>().unwrap(), Device::gpu(0));
        assert!("tpu:0".parse::<Device>().is_err());
        assert_eq!("auto".parse::<Device>().unwrap(), Device::auto());
        assert!("auto:0".parse::<Device>().is_err());
        assert!("cpu:1".parse::<Device>().is_err());
        assert!("gpu:x".parse::<Device>().is_err());
        assert_eq!(Device::cpu().to_string(), "CPU");
        assert_eq!(Device::gpu(1).to_string(), "GPU:1");
    }
}
