//! The plain-data types of the C ABI: dtype and device codes, blob options, memory stats.

use clika_rt::{DType, Device, DeviceKind, Error, MemoryStats};

use crate::error::CapiError;

pub use crate::abi::{
    crt_blob_options, crt_deleter_fn, crt_device, crt_device_kind, crt_dtype, CRT_BLOB_READ_ONLY,
    CRT_DEVICE_AUTO, CRT_DEVICE_CPU, CRT_DEVICE_CUDA, CRT_DEVICE_GPU, CRT_DTYPE_BFLOAT16,
    CRT_DTYPE_BOOL, CRT_DTYPE_FLOAT16, CRT_DTYPE_FLOAT32, CRT_DTYPE_FLOAT64, CRT_DTYPE_INT16,
    CRT_DTYPE_INT32, CRT_DTYPE_INT64, CRT_DTYPE_INT8, CRT_DTYPE_UINT16, CRT_DTYPE_UINT32,
    CRT_DTYPE_UINT64, CRT_DTYPE_UINT8,
};

/// A snapshot of one device pool's statistics (bytes and counts). Exact after every
/// operation.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct crt_memory_stats {
    /// Bytes in blocks handed out and not yet returned.
    pub active_bytes: u64,
    /// Bytes reserved from the system but idle in the pool.
    pub cached_bytes: u64,
    /// Bytes reserved from the system.
    pub reserved_bytes: u64,
    /// Highest `active_bytes` since start or the last `crt_device_reset_peak_stats`.
    pub peak_active_bytes: u64,
    /// Bytes requested by callers, before rounding.
    pub requested_bytes: u64,
    /// Bytes freed but waiting on a completion event.
    pub deferred_bytes: u64,
    /// Allocations served.
    pub allocation_count: u64,
    /// Allocations served from the cache.
    pub cache_hit_count: u64,
    /// Segments reserved from the system.
    pub os_reserve_count: u64,
    /// Segments released to the system.
    pub os_release_count: u64,
    /// Requests that failed with out-of-memory.
    pub oom_count: u64,
    /// Largest free block in the pool.
    pub largest_free_block: u64,
    /// The memory limit in bytes, or -1 when there is none.
    pub limit_bytes: i64,
}

/// The core dtype for a C code.
pub fn dtype(code: crt_dtype) -> Result<DType, CapiError> {
    DType::from_u32(code).ok_or_else(|| {
        Error::ParseDType {
            text: format!("dtype number {code}"),
        }
        .into()
    })
}

/// The C code for a core dtype.
pub fn dtype_code(d: DType) -> crt_dtype {
    d as crt_dtype
}

impl crt_device {
    /// The core device; unknown kinds are rejected.
    pub fn to_core(self) -> Result<Device, CapiError> {
        let Some(kind) = DeviceKind::from_code(self.kind) else {
            let text = format!("device kind {}, ordinal {}", self.kind, self.ordinal);
            return Err(Error::ParseDevice { text }.into());
        };
        if !kind.has_ordinals() && self.ordinal != 0 {
            let text = format!("{}:{}", kind.name(), self.ordinal);
            return Err(Error::ParseDevice { text }.into());
        }
        Ok(Device::new(kind, self.ordinal))
    }

    /// The C form of a core device.
    pub fn from_core(d: Device) -> crt_device {
        crt_device {
            kind: d.kind() as crt_device_kind,
            ordinal: d.ordinal(),
        }
    }
}

impl Default for crt_blob_options {
    fn default() -> Self {
        crt_blob_options {
            device: crt_device {
                kind: CRT_DEVICE_CPU,
                ordinal: 0,
            },
            pinned_for: std::ptr::null(),
            deleter: None,
            deleter_ctx: std::ptr::null_mut(),
            flags: 0,
        }
    }
}

impl From<MemoryStats> for crt_memory_stats {
    fn from(s: MemoryStats) -> Self {
        let b = |v: usize| v as u64;
        crt_memory_stats {
            active_bytes: b(s.active_bytes),
            cached_bytes: b(s.cached_bytes),
            reserved_bytes: b(s.reserved_bytes),
            peak_active_bytes: b(s.peak_active_bytes),
            requested_bytes: b(s.requested_bytes),
            deferred_bytes: b(s.deferred_bytes),
            allocation_count: s.allocation_count,
            cache_hit_count: s.cache_hit_count,
            os_reserve_count: s.os_reserve_count,
            os_release_count: s.os_release_count,
            oom_count: s.oom_count,
            largest_free_block: b(s.largest_free_block),
            limit_bytes: s
                .limit_bytes
                .map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_codes_are_the_core_discriminants() {
        let codes = [
            CRT_DTYPE_FLOAT32,
            CRT_DTYPE_FLOAT64,
            CRT_DTYPE_FLOAT16,
            CRT_DTYPE_BFLOAT16,
            CRT_DTYPE_INT8,
            CRT_DTYPE_INT16,
            CRT_DTYPE_INT32,
            CRT_DTYPE_INT64,
            CRT_DTYPE_UINT8,
            CRT_DTYPE_BOOL,
            CRT_DTYPE_UINT16,
            CRT_DTYPE_UINT32,
            CRT_DTYPE_UINT64,
        ];
        for (code, d) in codes.into_iter().zip(DType::ALL) {
            assert_eq!(dtype(code).unwrap(), d);
            assert_eq!(dtype_code(d), code);
        }
        assert!(dtype(13).is_err());
        assert_eq!(CRT_DEVICE_CPU, DeviceKind::Cpu as u32);
        assert_eq!(CRT_DEVICE_GPU, DeviceKind::Gpu as u32);
        assert_eq!(CRT_DEVICE_AUTO, DeviceKind::Auto as u32);
        assert_eq!(CRT_DEVICE_CUDA, DeviceKind::Cuda as u32);
    }
}
