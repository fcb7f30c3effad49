//! The runtime's own CPU thread pool.
//!
//! Every parallel section of the CPU kernels runs inside [`install`], on a rayon
//! [`ThreadPool`] this module owns, never on rayon's global pool: the global pool cannot be
//! replaced, and after `fork` its worker threads do not exist in the child, so the child's
//! first parallel op would wait forever for them. Ours is rebuilt lazily in a forked child:
//! the pool remembers the fork generation it was built in ([`crate::fork::generation`]),
//! and a pool from an older generation is abandoned (leaked: dropping it would signal
//! threads that are not there) and a fresh one is built. This is what numpy/OpenBLAS and
//! PyTorch do with their own pools.
//!
//! The `gemm` crate's `Parallelism::Rayon` runs `into_par_iter` on the pool of the current
//! `install` scope, so matmul uses this pool too. The number of threads follows rayon's
//! rules (`RAYON_NUM_THREADS`, else the available parallelism).

use std::any::Any;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

struct Entry {
    generation: u64,
    pool: Option<ThreadPool>,
}

static CURRENT: AtomicPtr<Entry> = AtomicPtr::new(ptr::null_mut());

/// The pool of this process, built on first use (and again after a fork); `None` when the
/// operating system refused to start its threads, in which case work runs serially.
pub(crate) fn pool() -> Option<&'static ThreadPool> {
    let generation = crate::fork::generation();
    loop {
        let current = CURRENT.load(Ordering::Acquire);
        if !current.is_null() {
            // SAFETY: entries are leaked boxes, never freed once published, so the pointer
            // stays valid for the life of the process.
            let entry: &'static Entry = unsafe { &*current };
            if entry.generation == generation {
                return entry.pool.as_ref();
            }
        }
        let pool = ThreadPoolBuilder::new()
            .thread_name(|i| format!("clika-rt-{i}"))
            .build()
            .map_err(|e| {
                log::warn!("clika-rt: cannot start the CPU thread pool ({e}); running serially")
            })
            .ok();
        let fresh = Box::into_raw(Box::new(Entry { generation, pool }));
        match CURRENT.compare_exchange(current, fresh, Ordering::AcqRel, Ordering::Acquire) {
            // The entry it replaces (if any) belongs to the parent of a fork: it is leaked.
            Ok(_) => {
                // SAFETY: `fresh` was just published and is never freed.
                return unsafe { &*fresh }.pool.as_ref();
            }
            Err(_) => {
                // Another thread published first: use its pool, drop ours (never shared).
                // SAFETY: `fresh` came from `Box::into_raw` above and was not published.
                drop(unsafe { Box::from_raw(fresh) });
            }
        }
    }
}

/// The number of threads parallel sections get (1 when the pool could not start).
pub(crate) fn current_num_threads() -> usize {
    pool().map_or(1, ThreadPool::current_num_threads)
}

/// Runs `f` inside the runtime's pool, so its rayon parallel iterators (and `gemm`'s) run
/// there; runs it on the calling thread when the pool is unavailable.
pub(crate) fn install<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// The high bit of [`Section::state`]: set by the caller once it has finished, after which
/// no helper may start work; the low bits count helpers working.
const CLOSED: usize = 1 << (usize::BITS - 1);

thread_local! {
    /// Whether this thread is inside a [`for_each_index`] section (nested sections run
    /// serially: the outer one already occupies every thread).
    static IN_SECTION: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The shared state of one [`for_each_index`] call. It lives in an `Arc`, so a helper that
/// starts after the call returned still finds it; the work `f` (borrowed from the caller)
/// is only reached by helpers that joined before [`CLOSED`], which the caller waits for.
struct Section {
    next: AtomicUsize,
    items: usize,
    state: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    f: *const (dyn Fn(usize) + Sync + 'static),
}

// SAFETY: `f` points at a `Sync` closure and is only dereferenced while the caller of
// `for_each_index` keeps it alive (see `Section`); the other fields are thread-safe.
unsafe impl Send for Section {}
// SAFETY: as above.
unsafe impl Sync for Section {}

impl Section {
    /// Takes items until none is left; a panic stops the section and is kept for the
    /// caller to resume.
    fn drain(&self, f: &(dyn Fn(usize) + Sync)) {
        let outer = IN_SECTION.with(|s| s.replace(true));
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.items {
                break;
            }
            f(i);
        }));
        IN_SECTION.with(|s| s.set(outer));
        if let Err(p) = run {
            self.next.store(self.items, Ordering::Relaxed);
            let mut slot = self.panic.lock().unwrap_or_else(PoisonError::into_inner);
            slot.get_or_insert(p);
        }
    }
}

/// Runs `f(i)` for every `i < items`, in any order, on the calling thread and up to
/// `threads - 1` of the pool's threads.
///
/// The caller works instead of sleeping until the pool is done (rayon's `install` from
/// outside the pool blocks the caller on a condition variable, so every parallel operation
/// paid two thread wake-ups, tens of microseconds each on a virtual machine, and its
/// times were bimodal), and helpers take items from one shared counter, so a helper that
/// wakes late only joins for what is left; the caller returns once the helpers that
/// joined have finished their item. Nested calls, and calls with no pool, run serially;
/// calls from inside a rayon section on the pool use rayon's own nesting.
pub(crate) fn for_each_index(items: usize, f: &(dyn Fn(usize) + Sync)) {
    let serial = || (0..items).for_each(f);
    // One item needs no pool: checked first, so a lone task never starts one (under Miri
    // no code path may).
    if items < 2 || IN_SECTION.with(std::cell::Cell::get) {
        return serial();
    }
    let Some(pool) = pool() else {
        return serial();
    };
    if pool.current_thread_index().is_some() {
        return pool.install(|| (0..items).into_par_iter().for_each(f));
    }
    let helpers = (pool.current_num_threads() - 1).min(items - 1);
    if helpers == 0 {
        return serial();
    }
    let fp: *const (dyn Fn(usize) + Sync + '_) = f;
    // SAFETY: only the lifetime bound changes; `Section` documents when `f` is reached.
    let fp: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(fp) };
    let section = Arc::new(Section {
        next: AtomicUsize::new(0),
        items,
        state: AtomicUsize::new(0),
        panic: Mutex::new(None),
        f: fp,
    });
    for _ in 0..helpers {
        let s = Arc::clone(&section);
        pool.spawn(move || {
            if s.state.fetch_add(1, Ordering::AcqRel) & CLOSED != 0 {
                s.state.fetch_sub(1, Ordering::Release);
                return;
            }
            // SAFETY: this helper joined before the caller closed the section, and the
            // caller does not return (so `f` stays alive) until it has left.
            s.drain(unsafe { &*s.f });
            s.state.fetch_sub(1, Ordering::Release);
        });
    }
    section.drain(f);
    section.state.fetch_or(CLOSED, Ordering::AcqRel);
    let mut spins = 0u32;
    while section.state.load(Ordering::Acquire) & !CLOSED != 0 {
        if spins < 1 << 12 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
    let panic = section
        .panic
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(p) = panic {
        std::panic::resume_unwind(p);
    }
}

#[cfg(test)]
mod tests {
    use super::for_each_index;
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

    fn counts(n: usize) -> Vec<AtomicU32> {
        (0..n).map(|_| AtomicU32::new(0)).collect()
    }

    #[test]
    #[cfg_attr(miri, ignore = "rayon's pool under Miri's strict provenance")]
    fn every_index_runs_once_from_several_callers_and_when_nested() {
        std::thread::scope(|s| {
            for caller in 0..4 {
                s.spawn(move || {
                    let n = 1000 + caller * 37;
                    let seen = counts(n);
                    let inner = AtomicUsize::new(0);
                    for_each_index(n, &|i| {
                        seen[i].fetch_add(1, Ordering::Relaxed);
                        if i % 100 == 0 {
                            // A nested section runs serially on this thread.
                            for_each_index(3, &|_| {
                                inner.fetch_add(1, Ordering::Relaxed);
                            });
                        }
                    });
                    assert!(seen.iter().all(|c| c.load(Ordering::Relaxed) == 1));
                    assert_eq!(inner.load(Ordering::Relaxed), 3 * n.div_ceil(100));
                });
            }
        });
    }

    #[test]
    #[cfg_attr(miri, ignore = "rayon's pool under Miri's strict provenance")]
    fn a_panic_reaches_the_caller_after_the_helpers_left_and_the_pool_still_works() {
        for bad in [0, 5, 999] {
            let seen = counts(1000);
            let r = std::panic::catch_unwind(|| {
                for_each_index(1000, &|i| {
                    assert!(i != bad, "item {i} fails");
                    seen[i].fetch_add(1, Ordering::Relaxed);
                })
            });
            let msg = r.expect_err("the panic propagates");
            assert!(msg
                .downcast_ref::<String>()
                .is_some_and(|m| m.contains("fails")));
            assert_eq!(seen[bad].load(Ordering::Relaxed), 0);
        }
        let seen = counts(500);
        for_each_index(500, &|i| {
            seen[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(seen.iter().all(|c| c.load(Ordering::Relaxed) == 1));
    }
}
