//! Device memory for the GPU pool. Each pool segment is one `wgpu::Buffer`. The pool works
//! in addresses, so every segment also gets a *synthetic address*: a range of host address
//! space reserved with `mmap(PROT_NONE)` (no memory behind it). That makes addresses unique,
//! non-null and aligned as the pool asks, never equal to a host pointer, and any accidental
//! host access through one faults at once instead of corrupting memory. The queue keeps the
//! table address → buffer that copies and kernels resolve through.

use std::ptr::{self, NonNull};
use std::sync::Arc;

use super::queue::{Queue, Segment};
use crate::memory::{Event, RawAllocator, RawSegment};

/// Reserves and releases device buffers for a GPU pool.
#[derive(Debug)]
pub(super) struct DeviceAllocator {
    queue: Arc<Queue>,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue")
            .field("device", &self.device)
            .finish()
    }
}

impl DeviceAllocator {
    pub(super) fn new(queue: Arc<Queue>) -> DeviceAllocator {
        DeviceAllocator { queue }
    }
}

/// A reservation of host address space with nothing behind it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Addresses {
    base: usize,
    len: usize,
}

/// Reserves `nbytes` of address space aligned to `align`: the aligned start and the whole
/// reservation (to return later).
pub(super) fn reserve_addresses(nbytes: usize, align: usize) -> Option<(NonNull<u8>, Addresses)> {
    let len = nbytes.checked_add(align)?;
    // SAFETY: a new anonymous PROT_NONE mapping with no address hint touches no existing
    // memory; MAP_NORESERVE commits nothing.
    let base = unsafe {
        libc::mmap(
            ptr::null_mut(),
            len,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return None;
    }
    let base = base as usize;
    let addr = NonNull::new(base.next_multiple_of(align) as *mut u8)?;
    Some((addr, Addresses { base, len }))
}

/// Returns a reservation.
///
/// # Safety
/// `a` must come from `reserve_addresses` and not have been returned; nothing uses it.
pub(super) unsafe fn release_addresses(a: Addresses) {
    // SAFETY: the caller guarantees this is exactly one live PROT_NONE mapping of ours; it
    // holds no memory and nothing uses it.
    unsafe { libc::munmap(a.base as *mut libc::c_void, a.len) };
}

// SAFETY: (1) a reserved segment is a device buffer of `nbytes` bytes behind an `align`-aligned
// synthetic address; it is only read and written by device copies and kernels (the trait's
// `write_zeros` is overridden with a device fill), never through the pointer; (2) wgpu
// zero-initialises new buffers, so they are initialised and `zeroed`; (3) each buffer is new
// and its address range unique; (4) every failure (address space, wgpu out-of-memory or
// validation error, a panic inside wgpu) returns `None`.
unsafe impl RawAllocator for DeviceAllocator {
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment> {
        let q = &self.queue;
        if nbytes == 0
            || !align.is_power_of_two()
            || nbytes as u64 > q.wdev.limits().max_buffer_size
        {
            return None;
        }
        let buffer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            q.checked(|| {
                q.wdev.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("clika-rt pool segment"),
                    size: nbytes as u64,
                    usage: wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_SRC
                        | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            })
        }))
        .ok()?
        .ok()?;
        let Some((addr, addresses)) = reserve_addresses(nbytes, align) else {
            buffer.destroy();
            return None;
        };
        q.add_segment(
            addr.as_ptr() as usize,
            Segment {
                buffer,
                nbytes,
                addresses,
            },
        );
        Some(RawSegment {
            ptr: addr,
            zeroed: true,
        })
    }

    unsafe fn release(&self, ptr: NonNull<u8>, _nbytes: usize, _align: usize) {
        if let Some(seg) = self.queue.remove_segment(ptr.as_ptr() as usize) {
            // The pool releases a segment only once every event that used it completed.
            seg.buffer.destroy();
            // SAFETY: the segment's reservation came from `reserve_addresses` in `reserve`
            // and leaves the table here, so it is returned exactly once; nothing uses it.
            unsafe { release_addresses(seg.addresses) };
        }
    }

    unsafe fn write_zeros(&self, ptr: NonNull<u8>, nbytes: usize) {
        let Ok((buffer, offset)) = self.queue.resolve(ptr.as_ptr() as usize) else {
            return;
        };
        // Blocks start 512-aligned and are rounded to at least 512 bytes, so the fill may
        // round up to wgpu's 4-byte granularity inside the block.
        let size = (nbytes as u64)
            .next_multiple_of(4)
            .min(buffer.size() - offset);
        self.queue
            .record(None, |enc| enc.clear_buffer(&buffer, offset, Some(size)));
    }

    fn pending_work(&self) -> Option<Arc<dyn Event>> {
        Some(self.queue.event())
    }
}
