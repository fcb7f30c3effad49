//! Unit tests of the pool logic over the heap mock: small enough for Miri
//! (`cargo +nightly miri test -p clika-rt --lib memory`).

use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::*;
use crate::{Device, Error};

const MIB: usize = 1 << 20;

fn pool() -> (Arc<HeapAllocator>, Arc<Pool>) {
    let raw = Arc::new(HeapAllocator::new());
    (raw.clone(), Pool::new(Device::cpu(), raw))
}

fn fill(b: &Block, byte: u8) {
    // SAFETY: `b` owns `nbytes` writable bytes.
    unsafe { std::ptr::write_bytes(b.as_ptr(), byte, b.nbytes()) };
}

fn all_zero(b: &Block) -> bool {
    // SAFETY: `b` owns `nbytes` initialised bytes and nothing writes them meanwhile.
    unsafe { std::slice::from_raw_parts(b.as_ptr(), b.nbytes()) }
        .iter()
        .all(|&x| x == 0)
}

fn check(p: &Pool) -> MemoryStats {
    let s = p.stats();
    assert_eq!(s.active_bytes + s.cached_bytes, s.reserved_bytes);
    assert!(s.deferred_bytes <= s.cached_bytes);
    assert!(s.largest_free_block <= s.cached_bytes);
    s
}

#[test]
fn parses_byte_sizes() {
    assert_eq!(parse_byte_size("512MiB"), Some(512 * MIB));
    assert_eq!(parse_byte_size(" 1GiB "), Some(1 << 30));
    assert_eq!(parse_byte_size("1.5 GiB"), Some(3 << 29));
    assert_eq!(parse_byte_size("4096"), Some(4096));
    assert_eq!(parse_byte_size("2kb"), Some(2000));
    assert_eq!(parse_byte_size("7B"), Some(7));
    assert_eq!(parse_byte_size("lots"), None);
    assert_eq!(parse_byte_size("12 parsecs"), None);
    assert_eq!(parse_byte_size(""), None);
}

#[test]
fn small_blocks_split_reuse_and_coalesce() {
    let (raw, p) = pool();
    let a = p.allocate(100, false).unwrap();
    let b = p.allocate(1000, false).unwrap();
    let c = p.allocate(512, false).unwrap();
    assert_eq!(a.as_ptr() as usize % ALIGN, 0);
    // One small segment serves all three, back to back, rounded to 512 bytes.
    assert_eq!(b.as_ptr() as usize - a.as_ptr() as usize, 512);
    assert_eq!(c.as_ptr() as usize - b.as_ptr() as usize, 1024);
    let s = check(&p);
    assert_eq!((s.active_bytes, s.requested_bytes), (2048, 1612));
    assert_eq!((s.reserved_bytes, s.os_reserve_count), (2 * MIB, 1));
    assert_eq!(raw.live_bytes(), 2 * MIB);

    let b_ptr = b.as_ptr();
    drop(b);
    // Best fit: the 1 KiB hole is reused for a request that fits it.
    let d = p.allocate(600, false).unwrap();
    assert_eq!(d.as_ptr(), b_ptr);
    drop((a, c, d));
    let s = check(&p);
    assert_eq!((s.active_bytes, s.cached_bytes), (0, 2 * MIB));
    // Everything coalesced back into one block spanning the segment.
    assert_eq!(s.largest_free_block, 2 * MIB);
    assert_eq!(s.cache_hit_count, 3);
    assert_eq!(p.release_cached(), 2 * MIB);
    assert_eq!(raw.live_bytes(), 0);
    assert_eq!(check(&p).reserved_bytes, 0);
}

#[test]
fn small_and_large_requests_use_separate_segments() {
    let (_raw, p) = pool();
    let small = p.allocate(64, false).unwrap();
    let large = p.allocate(SMALL_REQUEST_LIMIT, false).unwrap();
    let s = check(&p);
    assert_eq!(s.os_reserve_count, 2);
    // The large request reserved exactly its rounded size (2 MiB grain), not more.
    assert_eq!(s.reserved_bytes, 4 * MIB);
    assert_eq!(s.active_bytes, 512 + MIB);
    drop((small, large));
    assert_eq!(p.release_cached(), 4 * MIB);
}

/// Counts `write_zeros` calls: the zeros fast path must skip fresh memory.
#[derive(Debug, Default)]
struct CountingZeros {
    heap: HeapAllocator,
    zero_calls: AtomicUsize,
}

// SAFETY: forwards to `HeapAllocator`, which upholds the contract; `write_zeros` is the
// default host fill.
unsafe impl RawAllocator for CountingZeros {
    fn reserve(&self, nbytes: usize, align: usize) -> Option<RawSegment> {
        self.heap.reserve(nbytes, align)
    }
    unsafe fn release(&self, ptr: NonNull<u8>, nbytes: usize, align: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { self.heap.release(ptr, nbytes, align) }
    }
    unsafe fn write_zeros(&self, ptr: NonNull<u8>, nbytes: usize) {
        self.zero_calls.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded from the caller.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, nbytes) };
    }
}

#[test]
fn zeros_skip_fresh_memory_and_clear_recycled() {
    let raw = Arc::new(CountingZeros::default());
    let p = Pool::new(Device::cpu(), raw.clone());
    let a = p.allocate(4096, true).unwrap();
    assert!(all_zero(&a));
    assert_eq!(
        raw.zero_calls.load(Ordering::Relaxed),
        0,
        "fresh pages need no memset"
    );
    fill(&a, 0xAB);
    drop(a);
    let b = p.allocate(4096, true).unwrap();
    assert!(all_zero(&b), "recycled bytes are zeroed");
    assert_eq!(raw.zero_calls.load(Ordering::Relaxed), 1);
    // Untouched remainder of the fresh segment is still known zero.
    let c = p.allocate(4096, true).unwrap();
    assert_eq!(raw.zero_calls.load(Ordering::Relaxed), 1);
    // A non-zeroed request never memsets.
    fill(&b, 1);
    drop(b);
    let _d = p.allocate(4096, false).unwrap();
    assert_eq!(raw.zero_calls.load(Ordering::Relaxed), 1);
    drop(c);
}

#[test]
fn deferred_block_waits_for_its_event() {
    let (raw, p) = pool();
    let a = p.allocate(1000, false).unwrap();
    let a_ptr = a.as_ptr();
    let event = Arc::new(ManualEvent::new());
    a.free_after(event.clone());
    let s = check(&p);
    assert_eq!((s.active_bytes, s.deferred_bytes), (0, 1024));
    // Not handed out again, and its segment is not released.
    let b = p.allocate(1000, false).unwrap();
    assert_ne!(b.as_ptr(), a_ptr);
    drop(b);
    assert_eq!(p.release_cached(), 0);
    assert_eq!(raw.live_bytes(), 2 * MIB);
    event.complete();
    assert_eq!(p.release_cached(), 2 * MIB);
    let s = check(&p);
    assert_eq!((s.deferred_bytes, s.reserved_bytes), (0, 0));
}

#[test]
fn completed_event_frees_at_once() {
    let (_raw, p) = pool();
    let event = Arc::new(ManualEvent::new());
    event.complete();
    defer_free(p.allocate(10, false).unwrap(), event);
    assert_eq!(check(&p).deferred_bytes, 0);
}

#[test]
fn limit_releases_cache_then_reports_oom() {
    let (_raw, p) = pool();
    p.set_limit(Some(6 * MIB));
    let a = p.allocate(2 * MIB, false).unwrap();
    drop(a);
    // 4 MiB fits beside the cached 2 MiB segment...
    let b = p.allocate(4 * MIB, false).unwrap();
    drop(b);
    // ...but 6 MiB only fits once the cache is released.
    let c = p.allocate(6 * MIB, false).unwrap();
    assert_eq!(check(&p).os_release_count, 2);
    let err = p.allocate(1, false).unwrap_err();
    assert!(matches!(
        err,
        Error::OutOfMemory { requested: 1, limit: Some(l), active, cached: 0, .. }
            if l == 6 * MIB && active == 6 * MIB
    ));
    assert_eq!(check(&p).oom_count, 1);
    drop(c);
    assert!(
        p.allocate(1, false).is_ok(),
        "the pool keeps working after an OOM"
    );
}

#[test]
fn system_refusal_releases_cache_then_retries() {
    let raw = Arc::new(HeapAllocator::with_capacity(4 * MIB));
    let p = Pool::new(Device::cpu(), raw.clone());
    drop(p.allocate(2 * MIB, false).unwrap());
    let a = p.allocate(4 * MIB, false).unwrap();
    assert_eq!(raw.live_bytes(), 4 * MIB);
    assert!(matches!(
        p.allocate(2 * MIB, false),
        Err(Error::OutOfMemory { limit: None, .. })
    ));
    drop(a);
    assert!(p.allocate(usize::MAX, false).is_err());
    assert_eq!(check(&p).oom_count, 2);
}

#[test]
fn peak_and_counts() {
    let (_raw, p) = pool();
    let a = p.allocate(3 * MIB, false).unwrap();
    drop(a);
    let s = check(&p);
    assert_eq!((s.peak_active_bytes, s.allocation_count), (3 * MIB, 1));
    p.reset_peak();
    assert_eq!(check(&p).peak_active_bytes, 0);
    assert!(s.to_string().contains("cached"));
}

#[test]
fn small_blocks_freed_whole_serve_the_next_request_of_their_size() {
    let (_raw, p) = pool();
    let a = p.allocate(4000, false).unwrap();
    let addr = a.as_ptr();
    fill(&a, 0xAB);
    drop(a);
    let before = check(&p);
    assert_eq!(before.active_bytes, 0);
    // Same rounded size: the very block, counted as a cache hit, not a new reservation.
    let b = p.allocate(3900, false).unwrap();
    assert_eq!(b.as_ptr(), addr);
    let s = check(&p);
    assert_eq!(s.cache_hit_count, before.cache_hit_count + 1);
    assert_eq!(s.os_reserve_count, before.os_reserve_count);
    assert_eq!((s.active_bytes, s.requested_bytes), (4096, 3900));
    drop(b);
    // A zeroed request clears a recycled block in full.
    let z = p.allocate(4096, true).unwrap();
    assert!(all_zero(&z));
    drop(z);
    assert_eq!(p.release_cached(), 2 * MIB);
    assert_eq!(check(&p).reserved_bytes, 0);
}

#[test]
fn kept_whole_blocks_coalesce_before_the_pool_reserves_more() {
    let (_raw, p) = pool();
    // Tile one 2 MiB small segment with 64 KiB blocks, then free every fourth one first
    // (those are kept whole) and the rest after: the arena's free runs are 192 KiB.
    let blocks: Vec<Block> = (0..32)
        .map(|_| p.allocate(64 << 10, false).unwrap())
        .collect();
    assert_eq!(check(&p).os_reserve_count, 1);
    let (kept, rest): (Vec<_>, Vec<_>) = blocks
        .into_iter()
        .enumerate()
        .partition(|(i, _)| i % 4 == 0);
    drop(kept);
    drop(rest);
    // The statistics already count each run of free and kept blocks as one free block
    // (reading them changes nothing), and 1 MiB fits once the kept blocks coalesce: no
    // second segment.
    assert_eq!(check(&p).largest_free_block, 2 * MIB);
    let big = p.allocate(SMALL_REQUEST_LIMIT - 1, false).unwrap();
    assert_eq!(check(&p).os_reserve_count, 1);
    drop(big);
    let kept_again: Vec<Block> = (0..8)
        .map(|_| p.allocate(64 << 10, false).unwrap())
        .collect();
    drop(kept_again);
    assert_eq!(
        check(&p).largest_free_block,
        2 * MIB,
        "stats see kept blocks as free space"
    );
    assert_eq!(p.release_cached(), 2 * MIB);
}
