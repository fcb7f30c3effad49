//! Chapter 04 — memory: the runtime's caching pool, measured and given back.
//!
//! Tensors the runtime allocates come from a per-device pool. Freed blocks stay cached for
//! the next allocation (no page faults, no system calls); `memory_stats` measures it, and
//! `release_cached_memory` hands the idle reserve back to the OS. A memory limit turns an
//! oversized request into a clean, catchable out-of-memory error.

use clika_rt::device::{memory_stats, release_cached_memory, set_memory_limit, MemoryStats};
use clika_rt::tensor::format_g;
use clika_rt::{DType, Device, ErrorKind, Result, Tensor};

const MIB: f64 = 1_048_576.0;

fn report(when: &str, base: &MemoryStats) {
    let s = memory_stats(Device::cpu());
    let d = |now: usize, then: usize| (now as f64 - then as f64) / MIB;
    println!(
        "{when:<22} active {:+7.1} MiB, cached {:+7.1} MiB, reserved {:+7.1} MiB",
        d(s.active_bytes, base.active_bytes),
        d(s.cached_bytes, base.cached_bytes),
        d(s.reserved_bytes, base.reserved_bytes)
    );
}

fn main() -> Result<()> {
    let cpu = Device::cpu();
    release_cached_memory(cpu)?;
    let base = memory_stats(cpu);

    println!("-- the pool measures every allocation (changes since the start)");
    {
        let big = Tensor::zeros(&[64, 1024, 1024], DType::Float32)?; // 256 MiB
        report("256 MiB of zeros:", &base);
        drop(big);
        report("dropped (cached):", &base);
        let before = memory_stats(cpu);
        let again = Tensor::zeros(&[64, 1024, 1024], DType::Float32)?;
        let s = memory_stats(cpu);
        println!(
            "allocated again: served from the cache {}, new OS reservations {}",
            if s.cache_hit_count > before.cache_hit_count {
                "yes"
            } else {
                "no"
            },
            s.os_reserve_count - before.os_reserve_count
        );
        drop(again);
    }
    let released = release_cached_memory(cpu)?;
    println!(
        "release_cached_memory: {} MiB back to the OS",
        format_g(released as f64 / MIB)
    );
    report("released:", &base);

    println!("-- a memory limit, and a clean out-of-memory");
    set_memory_limit(cpu, Some(64 << 20))?;
    match Tensor::zeros(&[64, 1024, 1024], DType::Float32) {
        Ok(_) => println!("unexpected: 256 MiB fit under a 64 MiB limit"),
        Err(e) => {
            println!(
                "256 MiB under a 64 MiB limit: refused, out of memory {}",
                if e.kind() == ErrorKind::OutOfMemory {
                    "yes"
                } else {
                    "no"
                }
            );
            println!("  message: {e}");
        }
    }
    let fits = Tensor::zeros(&[4, 1024, 1024], DType::Float32)?; // 16 MiB
    println!(
        "16 MiB still fits: sum = {}",
        format_g(fits.sum()?.item::<f64>()?)
    );
    println!(
        "out-of-memory count: +{}",
        memory_stats(cpu).oom_count - base.oom_count
    );
    set_memory_limit(cpu, None)?;
    drop(fits);
    release_cached_memory(cpu)?;
    report("limit lifted, released:", &base);
    Ok(())
}
