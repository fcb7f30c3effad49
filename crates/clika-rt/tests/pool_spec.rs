//! The specification's numbers on the process-wide CPU pool, the resident set dropping after
//! `release_cached_memory`, and the limit API. One test function: nothing else in this
//! binary may allocate while it reads the global figures.
#![cfg(not(miri))]

use clika_rt::device::{memory_stats, release_cached_memory, set_memory_limit};
use clika_rt::{DType, Device, ErrorKind, Tensor};

const MIB: usize = 1 << 20;

/// Resident set size of this process, from `/proc/self/statm`.
fn rss_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    // SAFETY: `sysconf` only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    pages * page
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / MIB as f64
}

#[test]
fn spec_numbers_rss_drop_and_limit() {
    let cpu = Device::cpu();
    let rss_start = rss_bytes();
    let rss_in_use;
    {
        let big = Tensor::zeros(&[64, 1024, 1024], DType::Float32).unwrap();
        big.synchronize().unwrap();
        // SAFETY: `big` holds 256 MiB of initialised bytes and nothing writes them now.
        let bytes = unsafe { std::slice::from_raw_parts(big.const_data_ptr(), 256 * MIB) };
        assert!(bytes.iter().step_by(4096).all(|&b| b == 0));
        // Touch every page, as real work on the tensor would.
        // SAFETY: `big` is a fresh contiguous 256 MiB tensor held only here.
        unsafe { std::ptr::write_bytes(big.data_ptr(), 0, 256 * MIB) };
        let s = memory_stats(cpu);
        assert_eq!((mib(s.active_bytes), mib(s.cached_bytes)), (256.0, 0.0));
        assert_eq!(s.reserved_bytes, 256 * MIB, "256 MiB reserves 256 MiB");
        rss_in_use = rss_bytes();
        assert!(
            rss_in_use >= rss_start + 250 * MIB,
            "{rss_start} -> {rss_in_use}"
        );
    }
    let s = memory_stats(cpu);
    assert_eq!((mib(s.active_bytes), mib(s.cached_bytes)), (0.0, 256.0));
    assert_eq!(s.largest_free_block, 256 * MIB);

    assert_eq!(release_cached_memory(cpu).unwrap(), 256 * MIB);
    let s = memory_stats(cpu);
    assert_eq!(
        (s.active_bytes, s.cached_bytes, s.reserved_bytes),
        (0, 0, 0)
    );
    assert_eq!((s.os_reserve_count, s.os_release_count), (1, 1));
    let rss_after = rss_bytes();
    assert!(
        rss_after + 250 * MIB <= rss_in_use,
        "RSS should drop by ~256 MiB: {rss_in_use} -> {rss_after}"
    );
    assert!(s.to_string().contains("reserved"));

    // The limit API: an over-limit request fails with the figures, the next one works.
    set_memory_limit(cpu, Some(64 * MIB)).unwrap();
    let err = Tensor::zeros(&[32, 1024, 1024], DType::Float32).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfMemory);
    let msg = err.to_string();
    for figure in ["tried to allocate 134217728 bytes", "limit 67108864 bytes"] {
        assert!(msg.contains(figure), "{msg}");
    }
    assert_eq!(memory_stats(cpu).oom_count, 1);
    let ok = Tensor::zeros(&[1024, 1024], DType::Float32).unwrap();
    assert_eq!(memory_stats(cpu).active_bytes, 4 * MIB);
    drop(ok);
    set_memory_limit(cpu, None).unwrap();
    assert_eq!(memory_stats(cpu).limit_bytes, None);
}
