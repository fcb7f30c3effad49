//! The statistics a device pool reports.

use std::fmt;

/// A snapshot of one device pool's accounting. Exact after every operation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryStats {
    /// Bytes in blocks handed out and not yet returned (rounded sizes).
    pub active_bytes: usize,
    /// Bytes reserved from the system but idle in the pool (`reserved − active`); includes
    /// `deferred_bytes`.
    pub cached_bytes: usize,
    /// Bytes reserved from the system (segments).
    pub reserved_bytes: usize,
    /// Highest `active_bytes` since start or the last `reset_peak_stats`.
    pub peak_active_bytes: usize,
    /// Bytes currently requested by callers, before rounding.
    pub requested_bytes: usize,
    /// Bytes freed but waiting on a completion event before they can be reused or released.
    pub deferred_bytes: usize,
    /// Allocations served, in total.
    pub allocation_count: u64,
    /// Allocations served from the cache without asking the system.
    pub cache_hit_count: u64,
    /// Segments reserved from the system.
    pub os_reserve_count: u64,
    /// Segments released to the system.
    pub os_release_count: u64,
    /// Requests that failed with out-of-memory.
    pub oom_count: u64,
    /// Largest free block in the pool, in bytes.
    pub largest_free_block: usize,
    /// The memory limit, if any.
    pub limit_bytes: Option<usize>,
    /// Bytes of host memory the device currently uses in place (imported, not copied: a
    /// `.to("gpu:N")` on a unified-memory GPU). Not pool memory: never counted in
    /// `reserved_bytes`, `active_bytes` or against the limit.
    pub imported_bytes: usize,
}

fn mib(b: usize) -> f64 {
    b as f64 / 1_048_576.0
}

impl fmt::Display for MemoryStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "active    {:10.1} MiB (peak {:.1} MiB, requested {:.1} MiB)",
            mib(self.active_bytes),
            mib(self.peak_active_bytes),
            mib(self.requested_bytes)
        )?;
        writeln!(
            f,
            "cached    {:10.1} MiB (largest free block {:.1} MiB, deferred {:.1} MiB)",
            mib(self.cached_bytes),
            mib(self.largest_free_block),
            mib(self.deferred_bytes)
        )?;
        writeln!(
            f,
            "reserved  {:10.1} MiB (limit {})",
            mib(self.reserved_bytes),
            self.limit_bytes
                .map_or("none".to_string(), |l| format!("{:.1} MiB", mib(l)))
        )?;
        write!(
            f,
            "allocations {} ({} cache hits), system reserves {}, releases {}, out-of-memory {}",
            self.allocation_count,
            self.cache_hit_count,
            self.os_reserve_count,
            self.os_release_count,
            self.oom_count
        )?;
        if self.imported_bytes > 0 {
            write!(
                f,
                "\nimported  {:10.1} MiB (host memory used in place)",
                mib(self.imported_bytes)
            )?;
        }
        Ok(())
    }
}
