//! GPU backend benchmarks (wgpu; lavapipe on machines without a GPU): upload, read-back,
//! elementwise, reduction and matmul, each ending in `synchronize` so the queued work is
//! timed. Skipped, with a message, where no Vulkan driver exists.

use clika_rt::{ops, DType, Device, Tensor};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const GPU: Device = Device::gpu(0);

fn gpu(c: &mut Criterion) {
    if let Err(e) = GPU.ensure_available() {
        eprintln!("gpu benchmarks skipped: {e}");
        return;
    }
    let name = clika_rt::backend::device_name(GPU).unwrap_or_default();
    eprintln!("gpu benchmarks on {name}");
    let mut g = c.benchmark_group("gpu");
    g.sample_size(10);
    let n = 4 << 20; // 16 MiB of f32
    let host = Tensor::full(&[n], 1.0, DType::Float32).unwrap();
    let dev = host.to(GPU).unwrap();
    g.throughput(Throughput::Bytes((n * 4) as u64));
    g.bench_function("upload_16MiB", |b| {
        b.iter(|| {
            let t = host.to(GPU).unwrap();
            t.synchronize().unwrap();
            t
        })
    });
    g.bench_function("readback_16MiB", |b| {
        b.iter(|| dev.to(Device::cpu()).unwrap())
    });
    g.bench_function("add_4M_f32", |b| {
        b.iter(|| {
            let t = ops::add(&dev, &dev).unwrap();
            t.synchronize().unwrap();
            t
        })
    });
    g.bench_function("sum_4M_f32", |b| {
        b.iter(|| dev.sum().unwrap().item::<f32>().unwrap())
    });
    let m = Tensor::full(&[256, 256], 0.5, DType::Float32)
        .unwrap()
        .to(GPU)
        .unwrap();
    g.throughput(Throughput::Elements(2 * 256 * 256 * 256));
    g.bench_function("matmul_256_f32", |b| {
        b.iter(|| {
            let t = m.matmul(&m).unwrap();
            t.synchronize().unwrap();
            t
        })
    });
    g.finish();
}

criterion_group!(benches, gpu);
criterion_main!(benches);
