//! `clika_runtime.MemoryStats`: a snapshot of one device pool's accounting.

use clika_rt::MemoryStats;
use pyo3::prelude::*;

/// A snapshot of a device pool's statistics, in bytes and counts. `str()` gives a
/// human-readable summary.
#[pyclass(name = "MemoryStats", module = "clika_runtime", frozen)]
#[derive(Debug)]
pub struct PyMemoryStats {
    /// The device the statistics are for, as printed (`CPU`).
    device: String,
    stats: MemoryStats,
}

impl PyMemoryStats {
    /// Wraps a core snapshot.
    pub fn new(device: clika_rt::Device, stats: MemoryStats) -> Self {
        PyMemoryStats {
            device: device.to_string(),
            stats,
        }
    }
}

#[pymethods]
impl PyMemoryStats {
    /// Bytes in blocks handed out and not yet returned.
    #[getter]
    fn active_bytes(&self) -> usize {
        self.stats.active_bytes
    }
    /// Bytes reserved from the system but idle in the pool.
    #[getter]
    fn cached_bytes(&self) -> usize {
        self.stats.cached_bytes
    }
    /// Bytes reserved from the system.
    #[getter]
    fn reserved_bytes(&self) -> usize {
        self.stats.reserved_bytes
    }
    /// Highest `active_bytes` since start or the last `reset_peak_stats`.
    #[getter]
    fn peak_active_bytes(&self) -> usize {
        self.stats.peak_active_bytes
    }
    /// Bytes requested by callers (before rounding) and not yet returned.
    #[getter]
    fn requested_bytes(&self) -> usize {
        self.stats.requested_bytes
    }
    /// Bytes whose free waits for device work to complete.
    #[getter]
    fn deferred_bytes(&self) -> usize {
        self.stats.deferred_bytes
    }
    /// Allocations served.
    #[getter]
    fn allocation_count(&self) -> u64 {
        self.stats.allocation_count
    }
    /// Allocations served from the cache.
    #[getter]
    fn cache_hit_count(&self) -> u64 {
        self.stats.cache_hit_count
    }
    /// Segments reserved from the system.
    #[getter]
    fn os_reserve_count(&self) -> u64 {
        self.stats.os_reserve_count
    }
    /// Segments released to the system.
    #[getter]
    fn os_release_count(&self) -> u64 {
        self.stats.os_release_count
    }
    /// Requests that failed with out-of-memory.
    #[getter]
    fn oom_count(&self) -> u64 {
        self.stats.oom_count
    }
    /// Largest free block in the pool.
    #[getter]
    fn largest_free_block(&self) -> usize {
        self.stats.largest_free_block
    }
    /// The memory limit, or `None`.
    #[getter]
    fn limit_bytes(&self) -> Option<usize> {
        self.stats.limit_bytes
    }

    /// Host memory the device uses in place (moves to a unified-memory GPU), not pool memory.
    #[getter]
    fn imported_bytes(&self) -> usize {
        self.stats.imported_bytes
    }

    fn __repr__(&self) -> String {
        let s = &self.stats;
        format!(
            "MemoryStats(device={}, active_bytes={}, cached_bytes={}, reserved_bytes={}, peak_active_bytes={}, allocation_count={}, cache_hit_count={}, oom_count={}, limit_bytes={}, imported_bytes={})",
            self.device,
            s.active_bytes,
            s.cached_bytes,
            s.reserved_bytes,
            s.peak_active_bytes,
            s.allocation_count,
            s.cache_hit_count,
            s.oom_count,
            s.limit_bytes.map_or("None".to_string(), |l| l.to_string()),
            s.imported_bytes,
        )
    }

    fn __str__(&self) -> String {
        self.stats.to_string()
    }
}
