//! Device memory for a CUDA pool: each segment is one `cuMemAlloc` allocation (plain device
//! memory, never managed memory). Its **device address** is the pool's address and the
//! tensor storage's pointer. On 64-bit Linux the driver uses unified virtual addressing: a
//! device allocation occupies a range of the process's virtual address space that no host
//! allocation can take, so addresses are unique, non-null and never equal to a host pointer.
//! Host code never dereferences them (the backend reads device tensors with `download`);
//! `write_zeros` is a device memset.

use std::collections::HashMap;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use cudarc::driver::result as cu;

use super::driver::{why, Stream};
use crate::memory::{Event, RawAllocator, RawSegment};

/// Reserves and releases `cuMemAlloc` segments for a CUDA pool.
pub(super) struct CudaAllocator {
    stream: Arc<Stream>,
    shifted: Shifted,
}

impl std::fmt::Debug for CudaAllocator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaAllocator")
            .field("device", &self.stream.device)
            .finish()
    }
}

impl CudaAllocator {
    pub(super) fn new(stream: Arc<Stream>) -> CudaAllocator {
        CudaAllocator {
            stream,
            shifted: Shifted::default(),
        }
    }

    fn malloc(&self, nbytes: usize) -> Option<u64> {
        // SAFETY: a plain allocation; the context is bound by the caller.
        match unsafe { cu::malloc_sync(nbytes) } {
            Ok(p) => Some(p),
            Err(e) => {
                log::debug!("clika-rt: cuMemAlloc({nbytes}) failed: {}", why(e));
                None
            }
        }
    }

    fn free(&self, ptr: u64) {
        // SAFETY: `ptr` is one of our live allocations, freed exactly once.
        if let Err(e) = unsafe { cu::free_sync(ptr) } {
            log::error!("clika-rt: cuMemFree failed: {}", why(e));
        }
    }

    fn zero(&self, ptr: u64, nbytes: usize) -> bool {
        // SAFETY: the range lies inside one of our allocations; the memset is ordered on the
        // stream before any later use of the memory.
        unsafe { cu::memset_d8_async(ptr, 0, nbytes, self.stream.raw) }.is_ok()
    }
}

/// The segments over-allocated to meet the pool's alignment (rare: the driver's allocations
/// are page- or 2 MiB-aligned): aligned segment address → the allocation's own address.
#[derive(Default)]
struct Shifted(Mutex<HashMap<u64, u64>>);

impl Shifted {
    /// An allocation of at least `nbytes` with an `align`-aligned segment address inside,
    /// which it returns: `malloc(nbytes)` when that is aligned, else it is freed and made
    /// `align` bytes longer, and the address remembered.
    fn alloc(
        &self,
        nbytes: usize,
        align: usize,
        malloc: impl Fn(usize) -> Option<u64>,
        free: impl Fn(u64),
    ) -> Option<u64> {
        let base = malloc(nbytes)?;
        if base % align as u64 == 0 {
            return Some(base);
        }
        free(base);
        let base = malloc(nbytes.checked_add(align)?)?;
        let addr = aligned_in(base, align);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(addr, base);
        Some(addr)
    }

    /// The allocation behind the segment at `addr`, forgotten: what to free.
    fn take(&self, addr: u64) -> u64 {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&addr)
            .unwrap_or(addr)
    }
}

/// The address inside an allocation at `base` that is aligned to `align`.
pub(super) fn aligned_in(base: u64, align: usize) -> u64 {
    base.next_multiple_of(align as u64)
}

// SAFETY: (1) a reserved segment is `nbytes` of device memory at an `align`-aligned device
// address, read and written only by device copies and kernels and by `write_zeros` (a device
// memset), never through the pointer on the host; (2) it is zeroed on the stream before it is
// returned, so it is initialised and `zeroed`; (3) each allocation is new and its address
// range unique (unified virtual addressing); (4) every failure (no context, out of memory, a
// failed memset) returns `None` — driver calls return errors and do not panic once the
// library is loaded (it was, to start the context).
unsafe impl RawAllocator for CudaAllocator {
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment> {
        if nbytes == 0 || !align.is_power_of_two() {
            return None;
        }
        self.stream.bind().ok()?;
        // cuMemAlloc aligns large allocations to 2 MiB in practice.
        let addr = self
            .shifted
            .alloc(nbytes, align, |n| self.malloc(n), |p| self.free(p))?;
        if !self.zero(addr, nbytes) {
            self.free(self.shifted.take(addr));
            return None;
        }
        self.stream.note_work();
        Some(RawSegment {
            ptr: NonNull::new(addr as usize as *mut u8)?,
            zeroed: true,
        })
    }

    unsafe fn release(&self, ptr: NonNull<u8>, _nbytes: usize, _align: usize) {
        if self.stream.bind().is_err() {
            return;
        }
        let base = self.shifted.take(ptr.as_ptr() as usize as u64);
        // The pool releases a segment only once every event that used it completed;
        // cuMemFree synchronises anyway.
        self.free(base);
    }

    unsafe fn write_zeros(&self, ptr: NonNull<u8>, nbytes: usize) {
        if self.stream.bind().is_ok() && self.zero(ptr.as_ptr() as usize as u64, nbytes) {
            self.stream.note_work();
        }
    }

    fn pending_work(&self) -> Option<Arc<dyn Event>> {
        self.stream.event().map(|e| e as Arc<dyn Event>)
    }
}

/// Reserves and releases page-locked host segments (`cuMemHostAlloc`) for a device's pinned
/// host pool: host memory the device's copy engines read and write directly, so a copy from
/// or to it is a true asynchronous DMA. The pool caches them like device segments
/// (page-locking is expensive: it is a system call that faults in and locks every page).
pub(super) struct PinnedAllocator {
    stream: Arc<Stream>,
    shifted: Shifted,
}

impl std::fmt::Debug for PinnedAllocator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PinnedAllocator")
            .field("device", &self.stream.device)
            .finish()
    }
}

impl PinnedAllocator {
    pub(super) fn new(stream: Arc<Stream>) -> PinnedAllocator {
        PinnedAllocator {
            stream,
            shifted: Shifted::default(),
        }
    }

    fn malloc(nbytes: usize) -> Option<usize> {
        // SAFETY: a plain page-locked allocation; the context is bound by the caller.
        match unsafe { cu::malloc_host(nbytes, 0) } {
            Ok(p) if !p.is_null() => Some(p as usize),
            Ok(_) => None,
            Err(e) => {
                log::debug!("clika-rt: cuMemHostAlloc({nbytes}) failed: {}", why(e));
                None
            }
        }
    }

    fn free(ptr: usize) {
        // SAFETY: `ptr` is one of our live page-locked allocations, freed exactly once.
        if let Err(e) = unsafe { cu::free_host(ptr as *mut std::ffi::c_void) } {
            log::error!("clika-rt: cuMemFreeHost failed: {}", why(e));
        }
    }
}

// SAFETY: (1) a reserved segment is `nbytes` of host memory at an `align`-aligned address,
// readable and writable by the host (page-locked memory is ordinary memory to the CPU);
// (2) it is zero-filled before it is returned, so it is initialised and `zeroed`; (3) each
// allocation is new and not aliased; (4) every failure returns `None`.
unsafe impl RawAllocator for PinnedAllocator {
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment> {
        if nbytes == 0 || !align.is_power_of_two() {
            return None;
        }
        self.stream.bind().ok()?;
        // cuMemHostAlloc returns page-aligned memory; the pool may ask for more.
        let addr = self.shifted.alloc(
            nbytes,
            align,
            |n| Self::malloc(n).map(|p| p as u64),
            |p| Self::free(p as usize),
        )? as usize;
        // SAFETY: `addr..addr + nbytes` lies inside the allocation just made, ours alone.
        unsafe { std::ptr::write_bytes(addr as *mut u8, 0, nbytes) };
        Some(RawSegment {
            ptr: NonNull::new(addr as *mut u8)?,
            zeroed: true,
        })
    }

    unsafe fn release(&self, ptr: NonNull<u8>, _nbytes: usize, _align: usize) {
        if self.stream.bind().is_err() {
            return;
        }
        Self::free(self.shifted.take(ptr.as_ptr() as usize as u64) as usize);
    }

    unsafe fn write_zeros(&self, ptr: NonNull<u8>, nbytes: usize) {
        // SAFETY: the pool passes a range inside one of its live segments (host memory).
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, nbytes) };
    }

    fn pending_work(&self) -> Option<Arc<dyn Event>> {
        // A pinned block may be the source or target of a copy still queued on the stream.
        self.stream.event().map(|e| e as Arc<dyn Event>)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::{aligned_in, Shifted};

    #[test]
    fn shifted_segments_over_allocate_and_free_their_own_address() {
        // A fake driver that hands out addresses 0x200 past a 2 MiB boundary.
        let (live, next) = (RefCell::new(Vec::new()), RefCell::new(0x7000_0000_0200u64));
        let malloc = |n: usize| {
            let p = *next.borrow();
            *next.borrow_mut() += 1 << 30;
            live.borrow_mut().push((p, n));
            Some(p)
        };
        let free = |p: u64| live.borrow_mut().retain(|&(q, _)| q != p);
        let s = Shifted::default();
        // Aligned as made: kept, nothing remembered.
        assert_eq!(s.alloc(64, 0x100, malloc, free), Some(0x7000_0000_0200));
        assert_eq!(s.take(0x7000_0000_0200), 0x7000_0000_0200);
        // Unaligned: freed, made `align` longer, the aligned address inside returned.
        let addr = s.alloc(4096, 2 << 20, malloc, free).unwrap();
        assert_eq!(addr % (2 << 20), 0);
        let (base, n) = *live.borrow().last().unwrap();
        assert_eq!(n, 4096 + (2 << 20));
        assert!(base < addr && addr + 4096 <= base + n as u64);
        assert_eq!(live.borrow().len(), 2, "the first, unaligned try was freed");
        assert_eq!(s.take(addr), base);
        assert_eq!(s.take(addr), addr, "forgotten once taken");
    }

    #[test]
    fn over_allocated_segments_start_aligned_inside() {
        assert_eq!(aligned_in(0x7000_0020_0000, 2 << 20), 0x7000_0020_0000);
        assert_eq!(aligned_in(0x7000_0000_0200, 2 << 20), 0x7000_0020_0000);
        // The aligned start plus the request stays inside base + nbytes + align.
        let (base, n, a) = (0x1234_5600u64, 4096usize, 1usize << 21);
        assert!(aligned_in(base, a) + n as u64 <= base + (n + a) as u64);
    }
}
