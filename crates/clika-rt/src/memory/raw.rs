//! The raw-allocator interface: how a [`Pool`](super::Pool) reserves and releases the large
//! segments it carves blocks from. One implementation per kind of memory: host pages now
//! ([`PageAllocator`](super::PageAllocator)), device memory when a GPU backend lands, and a
//! heap mock ([`HeapAllocator`](super::HeapAllocator)) for tests and Miri.

use std::fmt;
use std::ptr::NonNull;

/// A run of memory reserved from a [`RawAllocator`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawSegment {
    /// Start of the memory, aligned as requested.
    pub ptr: NonNull<u8>,
    /// Whether every byte is known to be zero (fresh OS pages are), so handing the memory
    /// out as zeros needs no memset.
    pub zeroed: bool,
}

/// Reserves and releases segments of memory for a pool.
///
/// # Safety
/// The pool trusts its raw allocator with memory safety. Implementors guarantee that
/// 1. a successful `reserve(nbytes, align)` returns memory valid for reads and writes of
///    `nbytes` bytes through [`write_zeros`](RawAllocator::write_zeros) (and, for host
///    allocators, through the returned pointer), aligned to `align`;
/// 2. that memory is initialised, and all zero when `zeroed` is reported;
/// 3. nothing else uses the memory until it is passed back to `release`;
/// 4. `reserve` reports failure with `None`: it never panics and never aborts the process.
pub unsafe trait RawAllocator: Send + Sync + fmt::Debug {
    /// Reserves `nbytes` (non-zero) aligned to `align` (a power of two), or `None` when the
    /// system refuses.
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment>;

    /// Gives a segment back to the system.
    ///
    /// # Safety
    /// `ptr` must have been returned by `self.reserve(nbytes, align)` with these same
    /// `nbytes` and `align`, not released since, and nothing may use the memory afterwards.
    unsafe fn release(&self, ptr: NonNull<u8>, nbytes: usize, align: usize);

    /// Sets `nbytes` bytes at `ptr` to zero. The default writes through the pointer, which
    /// suits host memory; a device allocator overrides it with a device fill.
    ///
    /// # Safety
    /// `ptr..ptr + nbytes` must lie inside one segment reserved from `self` and not be in
    /// use by anything else while this runs.
    unsafe fn write_zeros(&self, ptr: NonNull<u8>, nbytes: usize) {
        // SAFETY: the caller guarantees the range lies in one live segment of ours, which
        // (contract 1) is valid for writes, and that nothing else uses it meanwhile.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, nbytes) };
    }

    /// An event for work already queued that may still use this allocator's memory, or
    /// `None` (host memory: ops run eagerly). A device allocator returns its queue's
    /// latest work, and the pool then defers every free behind it, so a block freed while a
    /// kernel that reads it is in flight is neither reused nor released until it completes.
    fn pending_work(&self) -> Option<std::sync::Arc<dyn super::Event>> {
        None
    }
}
