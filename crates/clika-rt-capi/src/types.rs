//! The plain-data types of the C ABI: dtype and device codes, blob options, memory stats.

use std::ffi::c_void;

use clika_rt::{DType, Device, DeviceKind, Error, MemoryStats};

use crate::error::CapiError;

/// An element type: one of the `CRT_DTYPE_*` numbers (stable; equal to the core's `DType`
/// discriminants). Unknown numbers are rejected with `CRT_STATUS_DTYPE`.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_dtype = u32;

/// IEEE 754 binary32 (`float`).
pub const CRT_DTYPE_FLOAT32: crt_dtype = 0;
/// IEEE 754 binary64 (`double`).
pub const CRT_DTYPE_FLOAT64: crt_dtype = 1;
/// IEEE 754 binary16, as `uint16_t` bits.
pub const CRT_DTYPE_FLOAT16: crt_dtype = 2;
/// bfloat16, as `uint16_t` bits.
pub const CRT_DTYPE_BFLOAT16: crt_dtype = 3;
/// `int8_t`.
pub const CRT_DTYPE_INT8: crt_dtype = 4;
/// `int16_t`.
pub const CRT_DTYPE_INT16: crt_dtype = 5;
/// `int32_t`.
pub const CRT_DTYPE_INT32: crt_dtype = 6;
/// `int64_t`.
pub const CRT_DTYPE_INT64: crt_dtype = 7;
/// `uint8_t`.
pub const CRT_DTYPE_UINT8: crt_dtype = 8;
/// A boolean stored as one byte; any non-zero byte reads as true.
pub const CRT_DTYPE_BOOL: crt_dtype = 9;

/// A device kind: one of the `CRT_DEVICE_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_device_kind = u32;

/// The host.
pub const CRT_DEVICE_CPU: crt_device_kind = 0;
/// A GPU (wgpu over Vulkan). Without a Vulkan driver, operations on it fail with
/// `CRT_STATUS_DEVICE`.
pub const CRT_DEVICE_GPU: crt_device_kind = 1;
/// Automatic placement: the best available accelerator, else the CPU (with one warning on
/// stderr, see `crt_device_set_fallback_warnings`). No tensor ever reports this kind.
pub const CRT_DEVICE_AUTO: crt_device_kind = 2;
/// An NVIDIA GPU through CUDA. Builds without the CUDA backend report it unavailable
/// (`CRT_STATUS_DEVICE`, with the reason).
pub const CRT_DEVICE_CUDA: crt_device_kind = 3;

/// A device: kind and ordinal. `{CRT_DEVICE_CPU, 0}` (all zero) is the host.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct crt_device {
    /// One of `CRT_DEVICE_*`.
    pub kind: crt_device_kind,
    /// The ordinal among devices of that kind (0 for the CPU).
    pub ordinal: u32,
}

/// A deleter for adopted memory: called exactly once as `deleter(data, ctx)`, with the
/// pointer given to `crt_tensor_from_blob` and the context from the options, when the last
/// tensor over the memory is freed, on whichever thread frees it. It must not unwind: a C++
/// deleter catches its exceptions (the C++ header's `Tensor::from_blob` does so for you; for
/// a raw function use the trampoline `ClikaRT::catching_deleter<fn>`, which swallows and
/// reports the exception, see `crt_deleter_report_failure`). A deleter that throws anyway
/// ends the process with a message saying so (Rust cannot catch C++ exceptions).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_deleter_fn = Option<unsafe extern "C" fn(data: *mut c_void, ctx: *mut c_void)>;

/// `crt_blob_options.flags`: the runtime must never write this memory.
pub const CRT_BLOB_READ_ONLY: u32 = 1;

/// How `crt_tensor_from_blob` treats the memory. All-zero (or a NULL options pointer) means:
/// on the CPU, not pinned, borrowed, writable.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct crt_blob_options {
    /// Where the memory lives.
    pub device: crt_device,
    /// NULL, or the device the caller already page-locked these pages for (a tag only: it
    /// pins nothing). Borrowed: read during the call only.
    pub pinned_for: *const crt_device,
    /// NULL: borrowed (the caller keeps ownership and keeps the memory alive for as long as
    /// any tensor over it exists). Non-NULL: adopted; see `crt_deleter_fn`.
    pub deleter: crt_deleter_fn,
    /// Passed to `deleter` as its second argument; owned by the caller until the deleter
    /// runs. Unused when `deleter` is NULL.
    pub deleter_ctx: *mut c_void,
    /// `CRT_BLOB_READ_ONLY` or 0; other bits must be 0.
    pub flags: u32,
}

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
        ];
        for (code, d) in codes.into_iter().zip(DType::ALL) {
            assert_eq!(dtype(code).unwrap(), d);
            assert_eq!(dtype_code(d), code);
        }
        assert!(dtype(10).is_err());
        assert_eq!(CRT_DEVICE_CPU, DeviceKind::Cpu as u32);
        assert_eq!(CRT_DEVICE_GPU, DeviceKind::Gpu as u32);
        assert_eq!(CRT_DEVICE_AUTO, DeviceKind::Auto as u32);
        assert_eq!(CRT_DEVICE_CUDA, DeviceKind::Cuda as u32);
    }
}
