//! The specification's `release_cached.cpp` in Rust: give the pool's idle reserve back.

use clika_rt::device::{memory_stats, release_cached_memory};
use clika_rt::{DType, Device, Tensor};

fn report(when: &str) {
    let s = memory_stats(Device::cpu());
    println!(
        "{when:<14} active {:8.1} MiB, cached {:8.1} MiB",
        s.active_bytes as f64 / 1_048_576.0,
        s.cached_bytes as f64 / 1_048_576.0
    );
}

fn main() -> clika_rt::Result<()> {
    {
        // 256 MiB of Float32 work: the pool reserves real memory for it.
        let big = Tensor::zeros(&[64, 1024, 1024], DType::Float32)?;
        big.synchronize()?;
        report("in use:");
    }
    // The tensor is gone, but the pool keeps its bytes idle for reuse.
    report("dropped:");

    // Hand the idle reserve back to the system. Memory still in use, or whose last use has
    // not completed, is never touched.
    release_cached_memory(Device::cpu())?;
    report("released:");
    Ok(())
}
