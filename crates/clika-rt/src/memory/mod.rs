//! Runtime-owned memory: every allocation the runtime makes for a tensor goes through
//! [`allocate`], which serves it from the device's pool; [`memory_stats`] reports the pool
//! and [`release_cached_memory`] gives its idle reserve back.

mod block;
mod stats;

pub use block::Block;
pub use stats::MemoryStats;

use crate::error::Result;
use crate::Device;

/// Allocates `nbytes` of runtime memory on `device`.
///
/// The memory is always initialised: zeroed when `zeroed` is true, otherwise holding
/// unspecified (but initialised) bytes. It goes back to the pool when the [`Block`] drops.
pub fn allocate(device: Device, nbytes: usize, zeroed: bool) -> Result<Block> {
    device.ensure_available()?;
    block::allocate_cpu(device, nbytes, zeroed)
}

/// Current statistics of `device`'s pool.
pub fn memory_stats(device: Device) -> MemoryStats {
    block::stats(device)
}

/// Returns `device`'s idle reserve to the system and reports how many bytes were released.
pub fn release_cached_memory(device: Device) -> Result<usize> {
    device.ensure_available()?;
    Ok(0)
}

/// Caps how many bytes `device`'s pool may reserve (`None` removes the cap).
pub fn set_memory_limit(device: Device, limit: Option<usize>) -> Result<()> {
    device.ensure_available()?;
    block::set_limit(limit);
    Ok(())
}

/// Resets `peak_active_bytes` to the current `active_bytes`.
pub fn reset_peak_stats(device: Device) {
    block::reset_peak(device);
}
