//! Automatic placement when the GPU runs out of memory on the way in (a tiny memory limit):
//! the GPU's cache is released, the tensor lands on the CPU, one warning. Its own test
//! binary: the warning is once per process.

#[path = "support/warnings.rs"]
mod warnings;

use clika_rt::device::{memory_stats, release_cached_memory, set_memory_limit};
use clika_rt::{DType, Device, Tensor};

#[test]
fn out_of_memory_on_the_way_in_falls_back_and_frees_the_gpu_cache() {
    warnings::install();
    let gpu = Device::gpu(0);
    if let Err(e) = gpu.ensure_available() {
        eprintln!("skipping: {e}");
        return;
    }
    assert_eq!(Device::auto().resolve(), gpu);
    // Some cached GPU memory, then a limit that a 16 MiB tensor cannot fit under.
    let small = Tensor::ones(&[1 << 16], DType::Float32)
        .unwrap()
        .copy_to(gpu)
        .unwrap();
    small.synchronize().unwrap();
    drop(small);
    gpu.ensure_available().unwrap();
    Tensor::ones(&[1], DType::Float32)
        .unwrap()
        .copy_to(gpu)
        .unwrap()
        .synchronize()
        .unwrap();
    assert!(memory_stats(gpu).cached_bytes > 0);
    set_memory_limit(gpu, Some(4 << 20)).unwrap();
    let big = Tensor::ones(&[4 << 20], DType::Float32).unwrap();
    // `copy_to`: a unified-memory GPU would take `big` in place with `.to`, reserving nothing.
    let moved = big.copy_to(Device::auto()).unwrap();
    assert_eq!(moved.device(), Device::cpu());
    assert_eq!(warnings::count(), 1);
    assert_eq!(memory_stats(gpu).cached_bytes, 0, "{:?}", memory_stats(gpu));
    // A second failure does not warn again.
    assert_eq!(big.copy_to(Device::auto()).unwrap().device(), Device::cpu());
    assert_eq!(warnings::count(), 1);
    set_memory_limit(gpu, None).unwrap();
    release_cached_memory(gpu).unwrap();
}
