//! A block of pooled memory: the handle [`allocate`](super::allocate) returns. Dropping it
//! returns the memory to its pool; [`Block::free_after`] defers that behind an event.

use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;

use super::arena::NodeId;
use super::event::Event;
use super::pool::Pool;
use crate::Device;

/// Every block's start is aligned to at least this (a cache line, enough for any SIMD load).
pub const ALIGN: usize = 64;

/// Runtime memory handed out by a pool; returned to it when dropped.
///
/// The memory is initialised, at least `nbytes` long, `ALIGN`-aligned, and exclusively
/// owned by this handle until it drops.
pub struct Block {
    ptr: NonNull<u8>,
    nbytes: usize,
    id: NodeId,
    after: Option<Arc<dyn Event>>,
    pool: Arc<Pool>,
}

// SAFETY: a `Block` exclusively owns its memory; moving it between threads moves that
// ownership, and the pool it returns to is thread-safe.
unsafe impl Send for Block {}
// SAFETY: `&Block` only exposes the pointer value, the length and the device.
unsafe impl Sync for Block {}

impl Block {
    pub(super) fn new(pool: Arc<Pool>, id: NodeId, ptr: NonNull<u8>, nbytes: usize) -> Block {
        Block {
            ptr,
            nbytes,
            id,
            after: None,
            pool,
        }
    }

    /// Start of the block (non-null, `ALIGN`-aligned, even for zero bytes).
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Usable length in bytes (as requested).
    pub fn nbytes(&self) -> usize {
        self.nbytes
    }

    /// The device the memory lives on.
    pub fn device(&self) -> Device {
        self.pool.device()
    }

    /// Frees the block once `event` completes: until then it is *deferred*, neither handed
    /// out again nor released to the system (it counts in
    /// [`MemoryStats::deferred_bytes`](super::MemoryStats::deferred_bytes)). Use it when
    /// work that outlives this handle (an async copy, a queued kernel) still uses the
    /// memory. An event that has already completed frees at once.
    pub fn free_after(mut self, event: Arc<dyn Event>) {
        self.after = Some(event);
    }
}

impl fmt::Debug for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Block")
            .field("ptr", &self.ptr)
            .field("nbytes", &self.nbytes)
            .field("device", &self.device())
            .finish()
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        self.pool.free(self.id, self.nbytes, self.after.take());
    }
}
