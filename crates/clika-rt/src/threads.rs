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

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

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
