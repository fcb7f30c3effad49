//! A block of runtime memory and, until the caching pool lands, the plain allocator behind it.

use std::alloc::{self, Layout as AllocLayout};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::MemoryStats;
use crate::error::{Error, Result};
use crate::Device;

/// Alignment of every runtime allocation: a cache line, enough for any SIMD load.
pub const ALIGN: usize = 64;

/// Runtime memory handed out by [`super::allocate`]; returned when dropped.
#[derive(Debug)]
pub struct Block {
    ptr: *mut u8,
    nbytes: usize,
}

// SAFETY: a `Block` exclusively owns its allocation; moving it between threads moves that
// ownership, and the allocator it returns to is thread-safe.
unsafe impl Send for Block {}
// SAFETY: `&Block` only exposes the pointer value and length.
unsafe impl Sync for Block {}

impl Block {
    /// Start of the block (non-null, `ALIGN`-aligned, even for zero bytes).
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Usable length in bytes (as requested).
    pub fn nbytes(&self) -> usize {
        self.nbytes
    }
}

static STATS: Mutex<MemoryStats> = Mutex::new(MemoryStats {
    active_bytes: 0,
    cached_bytes: 0,
    reserved_bytes: 0,
    peak_active_bytes: 0,
    requested_bytes: 0,
    deferred_bytes: 0,
    allocation_count: 0,
    cache_hit_count: 0,
    os_reserve_count: 0,
    os_release_count: 0,
    oom_count: 0,
    largest_free_block: 0,
    limit_bytes: None,
});
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

fn alloc_layout(nbytes: usize) -> Option<AllocLayout> {
    AllocLayout::from_size_align(nbytes.max(1), ALIGN).ok()
}

pub(super) fn allocate_cpu(device: Device, nbytes: usize, zeroed: bool) -> Result<Block> {
    let mut st = STATS.lock().unwrap_or_else(|e| e.into_inner());
    let limit = LIMIT.load(Ordering::Relaxed);
    let oom = |st: &mut MemoryStats| {
        st.oom_count += 1;
        Error::OutOfMemory {
            device,
            requested: nbytes,
            limit: (limit != usize::MAX).then_some(limit),
            active: st.active_bytes,
            cached: st.cached_bytes,
            largest_free: st.largest_free_block,
        }
    };
    if st.reserved_bytes.saturating_add(nbytes) > limit {
        return Err(oom(&mut st));
    }
    let layout = alloc_layout(nbytes).ok_or_else(|| oom(&mut st))?;
    let _ = zeroed; // fresh memory is always zeroed here, so both requests are served alike
                    // SAFETY: `layout` has a non-zero size.
    let ptr = unsafe { alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(oom(&mut st));
    }
    st.active_bytes += nbytes;
    st.reserved_bytes += nbytes;
    st.requested_bytes += nbytes;
    st.allocation_count += 1;
    st.os_reserve_count += 1;
    st.peak_active_bytes = st.peak_active_bytes.max(st.active_bytes);
    Ok(Block { ptr, nbytes })
}

impl Drop for Block {
    fn drop(&mut self) {
        let layout = alloc_layout(self.nbytes).expect("layout was valid at allocation");
        // SAFETY: `ptr` came from `alloc_zeroed` with this same layout and is freed once.
        unsafe { alloc::dealloc(self.ptr, layout) };
        let mut st = STATS.lock().unwrap_or_else(|e| e.into_inner());
        st.active_bytes -= self.nbytes;
        st.reserved_bytes -= self.nbytes;
        st.requested_bytes -= self.nbytes;
        st.os_release_count += 1;
    }
}

pub(super) fn stats(_device: Device) -> MemoryStats {
    let mut st = *STATS.lock().unwrap_or_else(|e| e.into_inner());
    let limit = LIMIT.load(Ordering::Relaxed);
    st.limit_bytes = (limit != usize::MAX).then_some(limit);
    st
}

pub(super) fn set_limit(limit: Option<usize>) {
    LIMIT.store(limit.unwrap_or(usize::MAX), Ordering::Relaxed);
}

pub(super) fn reset_peak(_device: Device) {
    let mut st = STATS.lock().unwrap_or_else(|e| e.into_inner());
    st.peak_active_bytes = st.active_bytes;
}
