//! The caching pool of one device: segments reserved through a [`RawAllocator`], blocks
//! served from them, exact statistics, deferred frees, the three-step release and the
//! out-of-memory path.
//!
//! # Design
//!
//! 1. **Classes.** A request under 1 MiB is *small*: rounded to 512 bytes and served from
//!    2 MiB small segments. Larger ones are *large*: rounded to a page, served from
//!    segments that are a multiple of 2 MiB (a 256 MiB request reserves 256 MiB). Small
//!    blocks never fragment large segments.
//! 2. **Allocation ladder.** A request tries, in order: a *kept* block of exactly its size
//!    (small blocks ≤ 64 KiB freed whole, up to 8 per size: no search, split or coalesce);
//!    the best-fit free block of its class (smallest that fits, lowest address), split when
//!    the rest can serve its class; the same after flushing kept blocks (they coalesce); the
//!    same after draining completed deferred frees; a new segment from the raw allocator,
//!    within the limit; the same after the three-step release (6). Then out-of-memory.
//! 3. **Zeroing.** Segments come zeroed from the system; the arena tracks the frontier of
//!    never-used bytes (A3), so a zeroed request clears only what was used before.
//! 4. **Deferral.** A free whose last use is still queued on the device (its own event, or
//!    the raw allocator's pending work) parks the block behind that event: it is neither
//!    reused nor released until the event completes.
//! 5. **Statistics** are kept under the lock at every step and read without changing
//!    anything: kept blocks count as cached, and the largest free block counts the run a
//!    flush of kept blocks would coalesce (A5).
//! 6. **Release** (`release_cached`, and before out-of-memory): completed deferred frees
//!    drain, kept blocks flush, and segments that are one free block go back to the raw
//!    allocator. Memory in use or in flight is never touched.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use super::arena::{Arena, Class, Grant, NodeId, State as BlockState};
use super::event::Event;
use super::raw::RawAllocator;
use super::{Block, MemoryStats};
use crate::error::{Error, Result};
use crate::Device;

/// Requests below this many bytes are small and live in small segments.
pub const SMALL_REQUEST_LIMIT: usize = 1 << 20;
/// Small requests are rounded up to a multiple of this.
const SMALL_ROUND: usize = 512;
/// Size of a small segment; it holds many small blocks.
const SMALL_SEGMENT: usize = 2 << 20;
/// Large requests are rounded up to a multiple of this (a page).
const LARGE_ROUND: usize = 4096;
/// Large segments are a multiple of this, and every segment is aligned to it (the size of
/// a transparent huge page), so a 256 MiB request reserves exactly 256 MiB.
const SEGMENT_GRAIN: usize = 2 << 20;

/// Small blocks up to this size, freed with no event pending, are kept whole (the arena's
/// `Kept` state) and handed to the next request of exactly that size: no best-fit search,
/// split or coalesce, which is most of a cache hit's cost for small tensors.
const KEPT_MAX: usize = 64 << 10;
/// At most this many blocks per size are kept (at most 8 × 64 KiB × 128 sizes, and in
/// practice a few blocks of the sizes a loop uses).
const KEPT_PER_SIZE: usize = 8;

/// The kept-block slot for blocks of `size` bytes, if such blocks are kept.
fn kept_slot(size: usize) -> Option<usize> {
    (size <= KEPT_MAX && size.is_multiple_of(SMALL_ROUND)).then(|| size / SMALL_ROUND - 1)
}

/// The class and rounded size of a request, or `None` if rounding overflows.
fn round(nbytes: usize) -> Option<(Class, usize)> {
    if nbytes < SMALL_REQUEST_LIMIT {
        Some((Class::Small, nbytes.max(1).next_multiple_of(SMALL_ROUND)))
    } else if nbytes <= isize::MAX as usize / 2 {
        Some((Class::Large, nbytes.checked_next_multiple_of(LARGE_ROUND)?))
    } else {
        None
    }
}

/// Bytes of the segment to reserve for a block of `size` bytes of `class`.
fn segment_bytes(class: Class, size: usize) -> Option<usize> {
    match class {
        Class::Small => Some(SMALL_SEGMENT),
        Class::Large => size.checked_next_multiple_of(SEGMENT_GRAIN),
    }
}

/// A free block is split only when the remainder could serve a request of its class.
fn min_split(class: Class) -> usize {
    match class {
        Class::Small => SMALL_ROUND,
        Class::Large => SMALL_REQUEST_LIMIT,
    }
}

/// Everything behind the pool's one lock.
struct Inner {
    arena: Arena,
    stats: MemoryStats,
    deferred: Vec<(NodeId, Arc<dyn Event>)>,
}

/// A pool's lock, held by the forking thread while the process forks.
pub(crate) struct ForkGuard(#[allow(dead_code)] MutexGuard<'static, Inner>);

/// A caching memory pool for one device. Cheap to share (`Arc`); every [`Block`] it hands
/// out keeps it alive and returns to it when dropped.
///
/// The global per-device pools behind [`allocate`](super::allocate) are `Pool`s; a private
/// one ([`Pool::new`]) is useful for tests and for isolating a workload's accounting.
pub struct Pool {
    device: Device,
    raw: Arc<dyn RawAllocator>,
    inner: Mutex<Inner>,
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("device", &self.device)
            .field("raw", &self.raw)
            .field("stats", &self.stats())
            .finish()
    }
}

impl Pool {
    /// A pool for `device` that reserves its segments from `raw`.
    pub fn new(device: Device, raw: Arc<dyn RawAllocator>) -> Arc<Pool> {
        Arc::new(Pool {
            device,
            raw,
            inner: Mutex::new(Inner {
                arena: Arena::default(),
                stats: MemoryStats::default(),
                deferred: Vec::new(),
            }),
        })
    }

    /// The device this pool serves.
    pub fn device(&self) -> Device {
        self.device
    }

    /// Holds the pool's lock across a `fork` (taken by the prepare handler, dropped by the
    /// parent and child handlers; see `crate::fork`).
    pub(crate) fn lock_for_fork(&'static self) -> ForkGuard {
        ForkGuard(self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The state is consistent at every point a panic could leave it, so a poisoned lock
        // is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Allocates `nbytes` (initialised; zeroed when `zeroed`). On failure, takes the three
    /// release steps, retries once, and then reports [`Error::OutOfMemory`].
    pub fn allocate(self: &Arc<Self>, nbytes: usize, zeroed: bool) -> Result<Block> {
        let grant = self.grant(nbytes)?;
        let dirty = grant.dirty.min(nbytes);
        if zeroed && dirty > 0 {
            // SAFETY: the granted block lies inside one of our live segments, is at least
            // `nbytes >= dirty` long, and is exclusively ours until the `Block` drops.
            unsafe { self.raw.write_zeros(grant.ptr, dirty) };
        }
        Ok(Block::new(Arc::clone(self), grant.id, grant.ptr, nbytes))
    }

    fn grant(&self, nbytes: usize) -> Result<Grant> {
        let Some((class, size)) = round(nbytes) else {
            return Err(self.lock().out_of_memory(self.device, nbytes));
        };
        let mut inner = self.lock();
        if let Some(g) = inner.take_kept(size, nbytes) {
            return Ok(g);
        }
        if let Some(g) = inner.take_cached(class, size, nbytes) {
            return Ok(g);
        }
        if inner.arena.flush_kept() {
            if let Some(g) = inner.take_cached(class, size, nbytes) {
                return Ok(g);
            }
        }
        if !inner.deferred.is_empty() {
            drop(inner);
            self.drain_deferred();
            inner = self.lock();
            if let Some(g) = inner.take_cached(class, size, nbytes) {
                return Ok(g);
            }
        }
        if let Some(g) = inner.reserve(&*self.raw, class, size, nbytes) {
            return Ok(g);
        }
        drop(inner);
        self.release_cached();
        let mut inner = self.lock();
        if let Some(g) = inner.take_cached(class, size, nbytes) {
            return Ok(g);
        }
        if let Some(g) = inner.reserve(&*self.raw, class, size, nbytes) {
            return Ok(g);
        }
        Err(inner.out_of_memory(self.device, nbytes))
    }

    /// Returns block `id` (requested as `nbytes`) to the cache, or parks it behind `event`
    /// when that has not completed.
    pub(super) fn free(&self, id: NodeId, nbytes: usize, event: Option<Arc<dyn Event>>) {
        let event = event
            .or_else(|| self.raw.pending_work())
            .filter(|e| !e.is_complete());
        let mut inner = self.lock();
        let size = inner.arena.size(id);
        inner.stats.active_bytes -= size;
        inner.stats.requested_bytes -= nbytes;
        match event {
            None => {
                let kept = kept_slot(size).is_some_and(|s| inner.arena.keep(id, s, KEPT_PER_SIZE));
                if !kept {
                    inner.arena.free(id);
                }
            }
            Some(event) => {
                inner.arena.defer(id);
                inner.stats.deferred_bytes += size;
                inner.deferred.push((id, event));
            }
        }
    }

    /// Step 1: deferred frees whose events completed return to the cache. Events are polled
    /// and dropped outside the lock, so they may run any code.
    fn drain_deferred(&self) {
        let pending = std::mem::take(&mut self.lock().deferred);
        if pending.is_empty() {
            return;
        }
        let (done, waiting): (Vec<_>, Vec<_>) =
            pending.into_iter().partition(|(_, e)| e.is_complete());
        let mut inner = self.lock();
        for &(id, _) in &done {
            debug_assert_eq!(inner.arena.state(id), BlockState::Deferred);
            inner.stats.deferred_bytes -= inner.arena.size(id);
            inner.arena.free(id);
        }
        inner.deferred.extend(waiting);
        drop(inner);
        drop(done);
    }

    /// Gives the idle reserve back to the system in three steps: completed deferred frees
    /// drain, cached blocks that cover a whole segment retire from the cache, and those
    /// empty segments are released. Memory in use or still deferred is never touched.
    /// Returns the bytes released.
    pub fn release_cached(&self) -> usize {
        self.drain_deferred();
        let segments = {
            let mut inner = self.lock();
            inner.arena.flush_kept();
            let segments = inner.arena.take_empty_segments();
            for seg in &segments {
                inner.stats.reserved_bytes -= seg.nbytes;
                inner.stats.os_release_count += 1;
            }
            segments
        };
        let mut released = 0;
        for seg in segments {
            // SAFETY: the segment came from `self.raw.reserve(nbytes, align)`, was empty
            // (no block in use or deferred) and has left the arena, so nothing uses it.
            unsafe { self.raw.release(seg.base, seg.nbytes, seg.align) };
            released += seg.nbytes;
        }
        released
    }

    /// A snapshot of the pool's statistics, exact as of the last completed operation (it
    /// changes nothing).
    pub fn stats(&self) -> MemoryStats {
        let inner = self.lock();
        MemoryStats {
            cached_bytes: inner.stats.reserved_bytes - inner.stats.active_bytes,
            largest_free_block: inner.arena.largest_free(),
            ..inner.stats
        }
    }

    /// Caps the bytes this pool may reserve (`None` removes the cap). Memory already
    /// reserved is kept; requests that would go past the cap release the cache first and
    /// fail if that is not enough.
    pub fn set_limit(&self, limit: Option<usize>) {
        self.lock().stats.limit_bytes = limit;
    }

    /// Counts `nbytes` of host memory the device starts (`add`) or stops using in place;
    /// shown as `imported_bytes`, apart from the pool's own figures.
    pub fn count_imported(&self, nbytes: usize, add: bool) {
        let st = &mut self.lock().stats;
        st.imported_bytes = if add {
            st.imported_bytes + nbytes
        } else {
            st.imported_bytes.saturating_sub(nbytes)
        };
    }

    /// Resets `peak_active_bytes` to the current `active_bytes`.
    pub fn reset_peak(&self) {
        let mut inner = self.lock();
        inner.stats.peak_active_bytes = inner.stats.active_bytes;
    }
}

impl Inner {
    /// Serves a small request from a block of exactly its size kept whole, or `None`.
    fn take_kept(&mut self, size: usize, nbytes: usize) -> Option<Grant> {
        let grant = self.arena.take_kept(kept_slot(size)?)?;
        self.stats.cache_hit_count += 1;
        self.count_active(grant.size, nbytes);
        Some(grant)
    }

    fn count_active(&mut self, size: usize, nbytes: usize) {
        let st = &mut self.stats;
        st.allocation_count += 1;
        st.active_bytes += size;
        st.requested_bytes += nbytes;
        st.peak_active_bytes = st.peak_active_bytes.max(st.active_bytes);
    }

    /// Serves a request from the cache (best fit), or `None`.
    fn take_cached(&mut self, class: Class, size: usize, nbytes: usize) -> Option<Grant> {
        let id = self.arena.best_fit(class, size)?;
        self.stats.cache_hit_count += 1;
        Some(self.activate(id, class, size, nbytes))
    }

    /// Serves a request from a new segment, or `None` if the limit or the system refuses.
    fn reserve(
        &mut self,
        raw: &dyn RawAllocator,
        class: Class,
        size: usize,
        nbytes: usize,
    ) -> Option<Grant> {
        let seg_bytes = segment_bytes(class, size)?;
        let reserved = self.stats.reserved_bytes.checked_add(seg_bytes)?;
        if self.stats.limit_bytes.is_some_and(|limit| reserved > limit) {
            return None;
        }
        let seg = raw.reserve(seg_bytes, SEGMENT_GRAIN)?;
        self.stats.reserved_bytes = reserved;
        self.stats.os_reserve_count += 1;
        let id = self
            .arena
            .add_segment(class, seg.ptr, seg_bytes, SEGMENT_GRAIN, seg.zeroed);
        Some(self.activate(id, class, size, nbytes))
    }

    fn activate(&mut self, id: NodeId, class: Class, size: usize, nbytes: usize) -> Grant {
        let grant = self.arena.carve(id, size, min_split(class));
        self.count_active(grant.size, nbytes);
        grant
    }

    /// Counts an out-of-memory and builds its error.
    fn out_of_memory(&mut self, device: Device, nbytes: usize) -> Error {
        self.stats.oom_count += 1;
        Error::OutOfMemory {
            device,
            requested: nbytes,
            limit: self.stats.limit_bytes,
            active: self.stats.active_bytes,
            cached: self.stats.reserved_bytes - self.stats.active_bytes,
            largest_free: self.arena.largest_free(),
        }
    }
}

impl Drop for Pool {
    /// Releases every segment. No block is active (each one keeps the pool alive); a
    /// segment holding a deferred block whose event has not completed is leaked instead,
    /// since work may still use it, and waiting could hang forever on an event that never
    /// completes.
    fn drop(&mut self) {
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        let pending: Vec<usize> = inner
            .deferred
            .drain(..)
            .filter(|(_, event)| !event.is_complete())
            .map(|(id, _)| inner.arena.segment_of(id))
            .collect();
        for (index, seg) in inner.arena.take_all_segments() {
            if pending.contains(&index) {
                continue;
            }
            // SAFETY: the segment came from `self.raw.reserve(nbytes, align)`; no block in
            // it is active (blocks hold the pool alive) or awaits an incomplete event.
            unsafe { self.raw.release(seg.base, seg.nbytes, seg.align) };
        }
    }
}
