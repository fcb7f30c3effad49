//! Runtime-owned memory: every allocation the runtime makes for a tensor goes through
//! [`allocate`], which serves it from the device's caching [`Pool`]; [`memory_stats`]
//! reports the pool and [`release_cached_memory`] gives its idle reserve back.
//!
//! - `raw`: the [`RawAllocator`] interface segments come from — [`PageAllocator`] (`mmap`,
//!   huge pages) for the CPU, [`HeapAllocator`] as the mock for tests and Miri;
//! - `arena`: segments and blocks, best fit, split and coalesce;
//! - `pool`: locking, statistics, deferred frees, release, out-of-memory;
//! - `block`: the [`Block`] handle; `event`: [`Event`]s deferred frees wait on;
//! - `registry`: the per-device global pools; `limit`: byte sizes for the limit variable.

mod arena;
mod block;
mod event;
mod heap;
mod limit;
#[cfg(all(unix, not(miri)))]
mod pages;
mod pool;
mod raw;
mod registry;
mod stats;
#[cfg(test)]
mod tests;

pub use block::{Block, ALIGN};
pub use event::{Event, ManualEvent};
pub use heap::HeapAllocator;
pub use limit::{parse_byte_size, CPU_MEMORY_LIMIT_ENV};
#[cfg(all(unix, not(miri)))]
pub use pages::PageAllocator;
pub(crate) use pool::ForkGuard;
pub use pool::{Pool, SMALL_REQUEST_LIMIT};
pub use raw::{RawAllocator, RawSegment};
pub use stats::MemoryStats;

pub(crate) use registry::env_limit;

use crate::error::Result;
use crate::Device;

/// The raw allocator behind the CPU pool: OS pages, or under Miri (which cannot map pages)
/// and off Unix, the heap mock.
#[cfg(all(unix, not(miri)))]
pub type CpuAllocator = PageAllocator;
/// The raw allocator behind the CPU pool: OS pages, or under Miri (which cannot map pages)
/// and off Unix, the heap mock.
#[cfg(not(all(unix, not(miri))))]
pub type CpuAllocator = HeapAllocator;

/// Allocates `nbytes` of runtime memory on `device`.
///
/// The memory is always initialised: zeroed when `zeroed` is true, otherwise holding
/// unspecified (but initialised) bytes. It goes back to the pool when the [`Block`] drops.
/// When the request cannot be met, the pool releases its cache, retries once and then
/// returns [`Error::OutOfMemory`](crate::Error::OutOfMemory).
pub fn allocate(device: Device, nbytes: usize, zeroed: bool) -> Result<Block> {
    registry::pool(device)?.allocate(nbytes, zeroed)
}

/// Locks the CPU pool for the duration of a `fork`; see `crate::fork`. The pool is started
/// first when nothing started it yet, and when another thread is starting it this waits for
/// that start to finish: a child forked in the middle of it would wait forever on a start
/// that no thread of its own is running.
pub(crate) fn lock_cpu_pool_for_fork() -> ForkGuard {
    registry::cpu_pool().lock_for_fork()
}

/// Frees `block` once `event` completes; see [`Block::free_after`].
pub fn defer_free(block: Block, event: std::sync::Arc<dyn Event>) {
    block.free_after(event);
}

/// Current statistics of `device`'s pool (all zero for a device without one).
pub fn memory_stats(device: Device) -> MemoryStats {
    registry::pool(device).map_or_else(|_| MemoryStats::default(), |p| p.stats())
}

/// Returns `device`'s idle reserve to the system and reports how many bytes were released:
/// completed deferred frees drain, cached blocks retire, empty segments are released.
/// Memory in use, or whose last use has not completed, is never touched.
pub fn release_cached_memory(device: Device) -> Result<usize> {
    Ok(registry::pool(device)?.release_cached())
}

/// Statistics of the page-locked host pool behind tensors pinned for `device`
/// ([`Tensor::pin_memory`](crate::Tensor::pin_memory)); an error for a device without one
/// (every device but CUDA).
pub fn pinned_memory_stats(device: Device) -> Result<MemoryStats> {
    Ok(crate::backend::backend(device)?.pinned_pool()?.stats())
}

/// Returns the idle page-locked segments of `device`'s pinned host pool to the system, as
/// [`release_cached_memory`] does for a device pool; the bytes released.
pub fn release_cached_pinned_memory(device: Device) -> Result<usize> {
    Ok(crate::backend::backend(device)?
        .pinned_pool()?
        .release_cached())
}

/// Caps how many bytes `device`'s pool may reserve (`None` removes the cap).
pub fn set_memory_limit(device: Device, limit: Option<usize>) -> Result<()> {
    registry::pool(device)?.set_limit(limit);
    Ok(())
}

/// Resets `peak_active_bytes` to the current `active_bytes`.
pub fn reset_peak_stats(device: Device) {
    if let Ok(pool) = registry::pool(device) {
        pool.reset_peak();
    }
}
