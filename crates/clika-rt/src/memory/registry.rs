//! The process-wide pool of each device. The CPU pool is created on first use, with the
//! limit from `CLIKA_RT_CPU_MEMORY_LIMIT` if set; an accelerator's pool belongs to its backend
//! (`crate::backend`), started on first use.

use std::sync::{Arc, OnceLock};

use super::limit::{parse_byte_size, CPU_MEMORY_LIMIT_ENV};
use super::{CpuAllocator, Pool};
use crate::error::Result;
use crate::{Device, DeviceKind};

/// The pool of `device`, or the device's unavailability error.
pub(super) fn pool(device: Device) -> Result<&'static Arc<Pool>> {
    match device.kind() {
        DeviceKind::Cpu => Ok(cpu_pool()),
        DeviceKind::Gpu => crate::backend::pool(device),
        DeviceKind::Auto => pool(device.resolve()),
    }
}

static CPU: OnceLock<Arc<Pool>> = OnceLock::new();

/// The CPU pool if something already used it (for the fork handlers, which must not start it).
pub(super) fn cpu_pool_if_started() -> Option<&'static Arc<Pool>> {
    CPU.get()
}

fn cpu_pool() -> &'static Arc<Pool> {
    CPU.get_or_init(|| {
        crate::fork::register();
        let pool = Pool::new(Device::cpu(), Arc::new(CpuAllocator::default()));
        pool.set_limit(env_limit());
        pool
    })
}

/// The CPU limit from the environment. A value that does not parse is reported once on
/// stderr and ignored, rather than silently capping or not capping memory.
fn env_limit() -> Option<usize> {
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
