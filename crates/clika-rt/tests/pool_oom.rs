//! Out-of-memory under a limit: the pool releases its cache and retries before it fails; the
//! error carries the figures; the pool keeps working afterwards.
#![cfg(not(miri))] // tens of MiB per block; the unit tests cover this path under Miri

use std::sync::Arc;

use clika_rt::memory::{CpuAllocator, ManualEvent, Pool};
use clika_rt::{Device, Error, ErrorKind};

const MIB: usize = 1 << 20;

#[test]
fn over_limit_request_fails_with_figures_after_release_and_retry() {
    let pool = Pool::new(Device::cpu(), Arc::new(CpuAllocator::default()));
    pool.set_limit(Some(64 * MIB));

    // A request that fits only once the cache is released succeeds.
    drop(pool.allocate(24 * MIB, false).unwrap());
    assert_eq!(pool.stats().cached_bytes, 24 * MIB);
    let big = pool.allocate(48 * MIB, true).unwrap();
    let s = pool.stats();
    assert_eq!(
        (s.reserved_bytes, s.os_release_count, s.oom_count),
        (48 * MIB, 1, 0)
    );

    // A small block parked behind pending work keeps its segment cached through the OOM.
    let pending = Arc::new(ManualEvent::new());
    pool.allocate(100, false)
        .unwrap()
        .free_after(pending.clone());

    let err = pool.allocate(32 * MIB, false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfMemory);
    assert_eq!(
        err,
        Error::OutOfMemory {
            device: Device::cpu(),
            requested: 32 * MIB,
            limit: Some(64 * MIB),
            active: 48 * MIB,
            cached: 2 * MIB,
            largest_free: 2 * MIB - 512,
        }
    );
    let msg = err.to_string();
    for figure in [
        "tried to allocate 33554432 bytes",
        "limit 67108864 bytes",
        "50331648 bytes active",
        "2097152 bytes cached",
        "largest free block 2096640 bytes",
    ] {
        assert!(msg.contains(figure), "{figure:?} missing from: {msg}");
    }
    let s = pool.stats();
    assert_eq!((s.oom_count, s.deferred_bytes), (1, 512));
    assert!(s.reserved_bytes <= 64 * MIB);

    // The next allocation works, and so does the big one once memory is freed.
    let small = pool.allocate(MIB, false).unwrap();
    drop(big);
    let again = pool.allocate(32 * MIB, false).unwrap();
    assert_eq!(pool.stats().oom_count, 1);
    drop((small, again));
    pending.complete();
}

#[test]
fn request_beyond_any_limit_or_address_space_fails_cleanly() {
    let pool = Pool::new(Device::cpu(), Arc::new(CpuAllocator::default()));
    assert!(matches!(
        pool.allocate(usize::MAX, false),
        Err(Error::OutOfMemory {
            requested: usize::MAX,
            limit: None,
            ..
        })
    ));
    pool.set_limit(Some(4 * MIB));
    assert!(pool.allocate(5 * MIB, false).is_err());
    assert_eq!(pool.stats().oom_count, 2);
    assert!(pool.allocate(4 * MIB, false).is_ok());
}
