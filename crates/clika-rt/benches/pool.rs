//! The caching pool against the system allocator, side by side: allocate + free of 4 KiB,
//! 1 MiB and 64 MiB, and `zeros` of 256 MiB from fresh OS pages versus a recycled block.
//! Run with `make bench` (or `cargo bench -p clika-rt --bench pool`).

use std::alloc::{alloc, dealloc, Layout};
use std::hint::black_box;
use std::time::Duration;

use clika_rt::device::release_cached_memory;
use clika_rt::memory::{allocate, ALIGN};
use clika_rt::{DType, Device, Tensor};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

const SIZES: [(&str, usize); 3] = [("4KiB", 4 << 10), ("1MiB", 1 << 20), ("64MiB", 64 << 20)];

fn alloc_free(c: &mut Criterion) {
    let cpu = Device::cpu();
    let mut group = c.benchmark_group("alloc_free");
    for (name, n) in SIZES {
        drop(allocate(cpu, n, false).unwrap()); // warm the cache: steady state is a hit
        group.bench_function(format!("pool/{name}"), |b| {
            b.iter(|| drop(black_box(allocate(cpu, black_box(n), false).unwrap())))
        });
        let layout = Layout::from_size_align(n, ALIGN).unwrap();
        group.bench_function(format!("system/{name}"), |b| {
            b.iter(|| {
                // SAFETY: `layout` has a non-zero size; the pointer is freed with it once.
                unsafe {
                    let p = black_box(alloc(layout));
                    assert!(!p.is_null());
                    dealloc(p, layout);
                }
            })
        });
    }
    group.finish();
}

fn zeros_256mib(c: &mut Criterion) {
    let cpu = Device::cpu();
    let shape = [64, 1024, 1024];
    let mut group = c.benchmark_group("zeros_256MiB");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("pool/fresh", |b| {
        b.iter_batched(
            || release_cached_memory(cpu).unwrap(),
            |_| Tensor::zeros(&shape, DType::Float32).unwrap(),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("pool/recycled", |b| {
        b.iter(|| Tensor::zeros(&shape, DType::Float32).unwrap())
    });
    group.bench_function("system/calloc", |b| {
        b.iter(|| black_box(vec![0f32; 64 << 20]))
    });
    group.finish();
    release_cached_memory(cpu).unwrap();
}

criterion_group!(benches, alloc_free, zeros_256mib);
criterion_main!(benches);
