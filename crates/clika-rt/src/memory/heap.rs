//! A raw allocator over the Rust global allocator: the mock the pool's tests and Miri use
//! (Miri cannot `mmap`), with an optional capacity that simulates the system refusing.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::raw::{RawAllocator, RawSegment};

/// Segments from `std::alloc::alloc_zeroed`, counted, optionally capped.
#[derive(Debug)]
pub struct HeapAllocator {
    capacity: usize,
    live: AtomicUsize,
}

impl HeapAllocator {
    /// An allocator that only refuses when the global allocator does.
    pub const fn new() -> Self {
        Self::with_capacity(usize::MAX)
    }

    /// An allocator that refuses any reservation that would take its live bytes past
    /// `capacity`, as an OS out of memory would.
    pub const fn with_capacity(capacity: usize) -> Self {
        Self {
            capacity,
            live: AtomicUsize::new(0),
        }
    }

    /// Bytes reserved and not yet released.
    pub fn live_bytes(&self) -> usize {
        self.live.load(Ordering::Acquire)
    }
}

impl Default for HeapAllocator {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: (1) `alloc_zeroed` returns `nbytes` writable bytes aligned to the layout's
// alignment; (2) they are zeroed; (3) the allocation is fresh and ours alone; (4) failures
// (bad layout, over capacity, null) return `None`.
unsafe impl RawAllocator for HeapAllocator {
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment> {
        let layout = Layout::from_size_align(nbytes, align).ok()?;
        if nbytes == 0 {
            return None;
        }
        let cap = self.capacity;
        self.live
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |live| {
                live.checked_add(nbytes).filter(|&n| n <= cap)
            })
            .ok()?;
        // SAFETY: `layout` has a non-zero size.
        let ptr = NonNull::new(unsafe { alloc::alloc_zeroed(layout) });
        if ptr.is_none() {
            self.live.fetch_sub(nbytes, Ordering::AcqRel);
        }
        Some(RawSegment {
            ptr: ptr?,
            zeroed: true,
        })
    }

    unsafe fn release(&self, ptr: NonNull<u8>, nbytes: usize, align: usize) {
        // SAFETY: `reserve` accepted this same size and alignment, so the layout is valid.
        let layout = unsafe { Layout::from_size_align_unchecked(nbytes, align) };
        // SAFETY: the caller passes back a live allocation made with this layout.
        unsafe { alloc::dealloc(ptr.as_ptr(), layout) };
        self.live.fetch_sub(nbytes, Ordering::AcqRel);
    }
}
