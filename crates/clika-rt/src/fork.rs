//! Surviving `fork`: `pthread_atfork` handlers, registered once, on first use of the thread
//! pool, the CPU memory pool or the operator registry.
//!
//! - **Thread pool.** The child handler bumps a *fork generation* (one atomic add, which is
//!   async-signal-safe); [`crate::threads`] rebuilds its pool when the generation changed.
//! - **Locks.** A lock held by another thread at the moment of `fork` stays locked forever
//!   in the child (that thread does not exist there). The *prepare* handler therefore takes
//!   the runtime's process-wide locks — the operator registry's, then the CPU pool's — in the
//!   forking thread, so no other thread holds them while the address space is copied; the
//!   *parent* and *child* handlers release them. The pool's state is consistent whenever its
//!   lock is free, so the child inherits a consistent pool (blocks held by the parent's
//!   tensors stay active in its copy, as the tensors themselves do). Taking the locks cannot
//!   deadlock: neither lock is held while waiting for anything else, and the registry's is
//!   always taken before the pool's.
//! - **GPU contexts** do not survive a fork (driver state, device memory and the driver's
//!   threads belong to the parent): the backend records the process that started them and
//!   answers a child with `DeviceUnavailable` naming the fix (the `spawn` start method).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

static GENERATION: AtomicU64 = AtomicU64::new(0);
static REGISTER: Once = Once::new();

/// Locks held by the forking thread between the prepare and parent/child handlers.
struct Held {
    _pool: Option<crate::memory::ForkGuard>,
    _registry: crate::ops::registry::ForkGuard,
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// The number of forks between the process that first used the runtime and this one (0 in
/// that process). Registers the fork handlers on first call.
pub(crate) fn generation() -> u64 {
    register();
    GENERATION.load(Ordering::Acquire)
}

/// Registers the `pthread_atfork` handlers once per process.
pub(crate) fn register() {
    REGISTER.call_once(|| {
        // SAFETY: the three handlers are `extern "C"` functions that live as long as the
        // process (this library is never unloaded while the runtime is in use) and never
        // unwind.
        let rc = unsafe { libc::pthread_atfork(Some(prepare), Some(parent), Some(child)) };
        if rc != 0 {
            log::warn!("clika-rt: pthread_atfork failed ({rc}); a forked child may hang");
        }
    });
}

extern "C" fn prepare() {
    // Nothing here may unwind out of an `extern "C"` function.
    let _ = std::panic::catch_unwind(|| {
        let registry = crate::ops::registry::lock_for_fork();
        let pool = crate::memory::lock_cpu_pool_for_fork();
        let _ = HELD.try_with(|held| {
            *held.borrow_mut() = Some(Held {
                _pool: pool,
                _registry: registry,
            })
        });
    });
}

extern "C" fn parent() {
    let _ = std::panic::catch_unwind(release);
}

extern "C" fn child() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
    let _ = std::panic::catch_unwind(release);
}

fn release() {
    // Pool first, then the registry: the reverse of the order they were taken in.
    let _ = HELD.try_with(|held| {
        if let Some(h) = held.borrow_mut().take() {
            drop(h._pool);
            drop(h._registry);
        }
    });
}
