//! Deferred frees: a block freed behind an incomplete event is neither handed out again nor
//! released, and becomes both once the event completes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clika_rt::memory::{Event, HeapAllocator, ManualEvent, Pool};
use clika_rt::Device;

const MIB: usize = 1 << 20;

#[test]
fn deferred_block_is_kept_until_its_event_completes() {
    let raw = Arc::new(HeapAllocator::new());
    let pool = Pool::new(Device::cpu(), raw.clone());
    let a = pool.allocate(8 * MIB, false).unwrap();
    let a_ptr = a.as_ptr();
    let event = Arc::new(ManualEvent::new());
    a.free_after(event.clone());
    let s = pool.stats();
    assert_eq!(
        (s.active_bytes, s.deferred_bytes, s.cached_bytes),
        (0, 8 * MIB, 8 * MIB)
    );
    assert_eq!(
        s.largest_free_block, 0,
        "a deferred block is not free to hand out"
    );

    // Not handed out again: the same request needs a second segment.
    let b = pool.allocate(8 * MIB, false).unwrap();
    assert_ne!(b.as_ptr(), a_ptr);
    assert_eq!(pool.stats().os_reserve_count, 2);
    drop(b);
    // Not released: only the idle segment goes back.
    assert_eq!(pool.release_cached(), 8 * MIB);
    assert_eq!(pool.stats().reserved_bytes, 8 * MIB);
    assert_eq!(raw.live_bytes(), 8 * MIB);

    event.complete();
    // Reusable: the next request drains the completed free and gets the same memory.
    let c = pool.allocate(8 * MIB, false).unwrap();
    assert_eq!(c.as_ptr(), a_ptr);
    let s = pool.stats();
    assert_eq!((s.deferred_bytes, s.os_reserve_count), (0, 2));
    c.free_after(event); // already complete: freed at once
    assert_eq!(pool.stats().deferred_bytes, 0);
    assert_eq!(pool.release_cached(), 8 * MIB);
    assert_eq!(raw.live_bytes(), 0);
}

#[test]
fn release_drains_completed_frees_and_keeps_pending_ones() {
    let pool = Pool::new(Device::cpu(), Arc::new(HeapAllocator::new()));
    let done = Arc::new(ManualEvent::new());
    let pending = Arc::new(ManualEvent::new());
    pool.allocate(4 * MIB, false)
        .unwrap()
        .free_after(done.clone());
    pool.allocate(6 * MIB, false)
        .unwrap()
        .free_after(pending.clone());
    done.complete();
    assert_eq!(pool.release_cached(), 4 * MIB);
    let s = pool.stats();
    assert_eq!((s.reserved_bytes, s.deferred_bytes), (6 * MIB, 6 * MIB));
    assert_eq!(
        pool.release_cached(),
        0,
        "a later call releases nothing new"
    );
    pending.complete();
    assert_eq!(pool.release_cached(), 6 * MIB, "...until the work retires");
}

/// An event that uses the pool from inside `is_complete` and counts its drops: the pool
/// must call and drop events outside its lock.
struct Reentrant {
    pool: Arc<Pool>,
    polls: AtomicUsize,
    drops: Arc<AtomicUsize>,
}

impl Event for Reentrant {
    fn is_complete(&self) -> bool {
        let _probe = self.pool.allocate(16, false).unwrap();
        let _ = self.pool.stats();
        self.polls.fetch_add(1, Ordering::SeqCst) >= 1
    }
    fn wait(&self) {}
}

impl Drop for Reentrant {
    fn drop(&mut self) {
        let _ = self.pool.stats();
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn events_are_polled_and_dropped_outside_the_lock() {
    let pool = Pool::new(Device::cpu(), Arc::new(HeapAllocator::new()));
    let drops = Arc::new(AtomicUsize::new(0));
    let event = Arc::new(Reentrant {
        pool: Arc::clone(&pool),
        polls: AtomicUsize::new(0),
        drops: drops.clone(),
    });
    pool.allocate(3 * MIB, false).unwrap().free_after(event);
    assert_eq!(pool.stats().deferred_bytes, 3 * MIB);
    pool.release_cached();
    assert_eq!(pool.stats().deferred_bytes, 0);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn manual_event_wait_returns_once_completed_elsewhere() {
    let event = Arc::new(ManualEvent::new());
    let e = event.clone();
    let t = std::thread::spawn(move || e.complete());
    event.wait();
    assert!(event.is_complete());
    t.join().unwrap();
}
