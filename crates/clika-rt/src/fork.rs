//! Surviving `fork`: `pthread_atfork` handlers, registered once, on first use of the thread
//! pool, the CPU memory pool or the operator registry.
//!
//! - **Thread pool.** The child handler bumps a *fork generation* (one atomic add, which is
//!   async-signal-safe); [`crate::threads`] rebuilds its pool when the generation changed.
//! - **Locks.** A lock held by another thread at the moment of `fork` stays locked forever
//!   in the child (that thread does not exist there). The *prepare* handler therefore takes
//!   the runtime's process-wide locks — the operator registry's, the CPU pool's, then the
//!   default random generator's — in the forking thread, so no other thread holds them while
//!   the address space is copied; the *parent* and *child* handlers release them. The pool's
//!   state is consistent whenever its lock is free, so the child inherits a consistent pool
//!   (blocks held by the parent's tensors stay active in its copy, as the tensors themselves
//!   do). Taking the locks cannot deadlock: none of them is held while waiting for anything
//!   else, and they are always taken in that order.
//! - **One-time starts.** A `OnceLock` another thread is initialising at the moment of `fork`
//!   stays "being initialised" forever in the child. Taking the CPU pool's lock goes through
//!   the CPU backend's `OnceLock`, so the prepare handler first waits for (or runs) the CPU
//!   backend's start, and the child never inherits it half-done; likewise the default
//!   generator's. For that the handlers must exist before any such start can begin, so they
//!   are registered when the library is loaded (a load-time constructor), not on first use.
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
    _random: crate::tensor::random::ForkGuard,
    _pool: crate::memory::ForkGuard,
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

/// Registers the fork handlers when the library is loaded (program start, or `dlopen` of the
/// C library or the Python extension), before any thread can be inside one of the runtime's
/// one-time starts. Registering on first use instead leaves a window: a thread that has
/// entered the CPU backend's `OnceLock` but not yet registered the handlers, while another
/// thread forks, hands the child a start that never finishes (the child hangs on its first
/// allocation). `register` stays idempotent and is still called on first use, for targets
/// without load-time constructors.
#[used]
#[cfg_attr(target_vendor = "apple", link_section = "__DATA,__mod_init_func")]
#[cfg_attr(not(target_vendor = "apple"), link_section = ".init_array")]
static REGISTER_AT_LOAD: extern "C" fn() = register_at_load;

extern "C" fn register_at_load() {
    // Nothing may unwind out of a load-time constructor.
    let _ = std::panic::catch_unwind(register);
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
        let random = crate::tensor::random::lock_default_for_fork();
        let _ = HELD.try_with(|held| {
            *held.borrow_mut() = Some(Held {
                _random: random,
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
    // The reverse of the order they were taken in.
    let _ = HELD.try_with(|held| {
        if let Some(h) = held.borrow_mut().take() {
            drop(h._random);
            drop(h._pool);
            drop(h._registry);
        }
    });
}
