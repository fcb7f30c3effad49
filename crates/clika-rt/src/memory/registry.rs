//! The process-wide pool of each device: every pool belongs to its device's backend
//! (`crate::backend`), started on first use; the CPU's takes its limit from
//! `CLIKA_RT_CPU_MEMORY_LIMIT` ([`env_limit`]).

use std::sync::Arc;

use super::limit::{parse_byte_size, CPU_MEMORY_LIMIT_ENV};
use super::Pool;
use crate::error::Result;
use crate::Device;

/// The pool of `device` (its backend's), or the device's unavailability error.
pub(super) fn pool(device: Device) -> Result<&'static Arc<Pool>> {
    crate::backend::pool(device)
}

/// The CPU pool, started on first use (for the fork handlers).
pub(super) fn cpu_pool() -> &'static Arc<Pool> {
    crate::backend::cpu_pool()
}

/// The CPU limit from the environment. A value that does not parse is reported once on
/// stderr and ignored, rather than silently capping or not capping memory.
pub(crate) fn env_limit() -> Option<usize> {
    let text = std::env::var(CPU_MEMORY_LIMIT_ENV).ok()?;
    let limit = parse_byte_size(&text);
    if limit.is_none() {
        eprintln!(
            "clika-rt: ignoring {CPU_MEMORY_LIMIT_ENV}={text:?}: expected a size such as \
             512MiB, 1GiB or a plain byte count"
        );
    }
    limit
}
