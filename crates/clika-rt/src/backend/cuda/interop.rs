//! Memory and streams of other CUDA libraries: checking a device pointer before it is
//! wrapped, holding a foreign owner until queued work is done, and ordering the runtime's
//! stream with another library's (DLPack's and `__cuda_array_interface__`'s `stream`).
//!
//! Every library in the process shares the device's primary context (the runtime retains it
//! too), so pointers, streams and events cross freely; what must not cross unordered is
//! work: a producer's kernel still writing a buffer the runtime is about to read, or the
//! runtime still reading a buffer whose owner frees it. Both orderings are one event
//! recorded on one stream and waited on by the other, without blocking the host.

use std::ffi::c_void;

use cudarc::driver::result as cu;
use cudarc::driver::sys;

use super::driver::{self, failed, why, Cuda};
use crate::error::{Error, Result};
use crate::Device;

/// What the driver says about one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PointerInfo {
    /// `CU_POINTER_ATTRIBUTE_MEMORY_TYPE` (`CU_MEMORYTYPE_*`), 0 when the driver does not
    /// know the address (plain host memory).
    pub(super) memory_type: u32,
    /// Allocated by `cuMemAllocManaged` (reachable from every device).
    pub(super) managed: bool,
    /// The device whose memory it is.
    pub(super) ordinal: i32,
}

/// Whether memory described by `info` may be wrapped as a tensor of device `ordinal`, or
/// the reason it may not (with the fix). Pure: the pointer query is [`pointer_info`].
pub(super) fn accepts(info: Option<PointerInfo>, ordinal: i32, what: &str) -> Option<String> {
    const DEVICE: u32 = sys::CUmemorytype::CU_MEMORYTYPE_DEVICE as u32;
    let Some(info) = info else {
        return Some(format!(
            "the {what} is not CUDA memory (the driver does not know it: host memory from \
             malloc or numpy); wrap it on the CPU and move it with .to(\"cuda:{ordinal}\")"
        ));
    };
    if info.managed {
        return None;
    }
    if info.memory_type != DEVICE {
        return Some(format!(
            "the {what} is page-locked host memory, not device memory; wrap it on the CPU \
             with pinned_for=cuda:{ordinal} and move it with .to(\"cuda:{ordinal}\")"
        ));
    }
    if info.ordinal != ordinal {
        return Some(format!(
            "the {what} is memory of cuda:{}, not cuda:{ordinal}; wrap it with device \
             cuda:{} (and move it with .to(\"cuda:{ordinal}\"))",
            info.ordinal, info.ordinal
        ));
    }
    None
}

/// The driver's view of `ptr`; `None` when it does not know the address.
fn pointer_info(ptr: u64) -> Result<Option<PointerInfo>> {
    fn get<T: Default>(
        ptr: u64,
        attr: sys::CUpointer_attribute,
    ) -> std::result::Result<T, cu::DriverError> {
        let mut value = T::default();
        // SAFETY: `value` is a `T` of the size the attribute writes (u32 for the memory
        // type, i32 for the ordinal, u32 for the managed flag); the driver reads `ptr` as a
        // number only.
        unsafe {
            sys::cuPointerGetAttribute((&raw mut value).cast::<c_void>(), attr, ptr).result()?;
        }
        Ok(value)
    }
    use sys::CUpointer_attribute as A;
    let memory_type = match get::<u32>(ptr, A::CU_POINTER_ATTRIBUTE_MEMORY_TYPE) {
        Ok(t) => t,
        Err(e) if e.0 == sys::cudaError_enum::CUDA_ERROR_INVALID_VALUE => return Ok(None),
        Err(e) => return Err(failed("cuPointerGetAttribute", e)),
    };
    let managed = get::<u32>(ptr, A::CU_POINTER_ATTRIBUTE_IS_MANAGED).unwrap_or(0) != 0;
    let ordinal = get::<i32>(ptr, A::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL).unwrap_or(-1);
    Ok(Some(PointerInfo {
        memory_type,
        managed,
        ordinal,
    }))
}

/// Whether the driver knows `ptr` as page-locked host memory (`cuMemHostAlloc`,
/// `cuMemHostRegister`), which the device reads by DMA.
pub(super) fn is_page_locked(ptr: usize) -> bool {
    const HOST: u32 = sys::CUmemorytype::CU_MEMORYTYPE_HOST as u32;
    matches!(pointer_info(ptr as u64), Ok(Some(i)) if i.memory_type == HOST && !i.managed)
}

/// Checks that the first and the last byte of `base..base + nbytes` are memory of this
/// device (device memory of its ordinal, or managed memory). Both ends, not one
/// allocation's range: an allocator that maps several physical chunks into one virtual
/// range (PyTorch's expandable segments) hands out tensors that span them.
pub(super) fn check_foreign(cuda: &Cuda, base: *mut u8, nbytes: usize) -> Result<()> {
    if nbytes == 0 {
        return Ok(());
    }
    cuda.stream.bind()?;
    let ordinal = cuda.stream.device.ordinal() as i32;
    let first = base as usize as u64;
    let last = first + (nbytes as u64 - 1);
    for (addr, what) in [(first, "first byte"), (last, "last byte")] {
        if let Some(reason) = accepts(pointer_info(addr)?, ordinal, what) {
            return Err(Error::InvalidArgument {
                what: format!(
                    "from_blob on cuda:{ordinal}: {reason} (memory {first:#x}, {nbytes} bytes)"
                ),
            });
        }
    }
    Ok(())
}

/// The device whose memory `ptr` is: the driver is started through `cuda:0` (which every
/// machine with a CUDA device has), then asked.
pub(super) fn device_of_pointer(ptr: usize) -> Result<Device> {
    let first = driver::context(Device::cuda(0))?;
    first.stream.bind()?;
    let info = pointer_info(ptr as u64)?;
    match info {
        Some(i) if i.ordinal >= 0 => Ok(Device::cuda(i.ordinal as u32)),
        _ => Err(Error::InvalidArgument {
            what: accepts(info, 0, "pointer")
                .unwrap_or_else(|| format!("the driver reports no device for memory {ptr:#x}")),
        }),
    }
}

/// Orders the runtime's stream and `external` (see `Backend::order_with_stream`).
pub(super) fn order_with_stream(cuda: &Cuda, external: usize, ours_waits: bool) -> Result<()> {
    if external == 0 {
        return Err(Error::InvalidArgument {
            what: "stream 0 is ambiguous (DLPack and __cuda_array_interface__ forbid it); \
                   pass 1 for the legacy default stream or 2 for the per-thread one"
                .to_string(),
        });
    }
    let stream = &cuda.stream;
    stream.bind()?;
    let theirs = external as sys::CUstream;
    let (signal, waiter) = if ours_waits {
        (theirs, stream.raw)
    } else {
        (stream.raw, theirs)
    };
    let event = cu::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING)
        .map_err(|e| failed("cuEventCreate", e))?;
    // SAFETY: `event` was just created; `signal` is the runtime's live stream or the
    // caller's stream handle, which the protocols require to be live in this context.
    let recorded = unsafe { cu::event::record(event, signal) };
    // SAFETY: as above, for the waiting stream.
    let waited = recorded.and_then(|()| unsafe {
        cu::stream::wait_event(
            waiter,
            event,
            sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT,
        )
    });
    // SAFETY: the event is ours; destroying it after the wait was queued is allowed (the
    // driver keeps it until the wait resolves).
    let _ = unsafe { cu::event::destroy(event) };
    if ours_waits {
        stream.note_work();
    }
    waited.map_err(|e| Error::InvalidArgument {
        what: format!(
            "ordering the runtime's stream with stream {external:#x} failed ({}); pass a live \
             CUstream of this device's primary context",
            why(e)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(memory_type: sys::CUmemorytype, managed: bool, ordinal: i32) -> Option<PointerInfo> {
        Some(PointerInfo {
            memory_type: memory_type as u32,
            managed,
            ordinal,
        })
    }

    #[test]
    fn only_device_or_managed_memory_of_the_device_is_wrapped() {
        use sys::CUmemorytype as M;
        assert_eq!(
            accepts(info(M::CU_MEMORYTYPE_DEVICE, false, 1), 1, "x"),
            None
        );
        assert_eq!(accepts(info(M::CU_MEMORYTYPE_HOST, true, -1), 0, "x"), None);
        let unknown = accepts(None, 0, "first byte").unwrap();
        assert!(unknown.contains("not CUDA memory") && unknown.contains(".to(\"cuda:0\")"));
        let pinned = accepts(info(M::CU_MEMORYTYPE_HOST, false, 0), 0, "x").unwrap();
        assert!(pinned.contains("pinned_for=cuda:0"), "{pinned}");
        let other = accepts(info(M::CU_MEMORYTYPE_DEVICE, false, 2), 0, "x").unwrap();
        assert!(other.contains("memory of cuda:2"), "{other}");
    }
}
