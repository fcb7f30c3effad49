//! Criterion benchmarks per op family, on the shapes of the issue's comparison table.
//! `make bench` runs these next to `bench/compare.py` (numpy / PyTorch from the same run).

use clika_rt::{ops, DType, Tensor};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn reductions(c: &mut Criterion) {
    let mut g = c.benchmark_group("sum");
    g.sample_size(20);
    let big = Tensor::full(&[64 << 20], 1.0, DType::Float32).unwrap();
    g.throughput(Throughput::Bytes(256 << 20));
    g.bench_function("contiguous_64M_f32", |b| b.iter(|| big.sum().unwrap()));
    let pitched_base = Tensor::full(&[4096, 8192], 1.0, DType::Float32).unwrap();
    let pitched = pitched_base.narrow(1, 0, 4096).unwrap();
    g.throughput(Throughput::Bytes(64 << 20));
    g.bench_function("pitched_4096x4096", |b| b.iter(|| pitched.sum().unwrap()));
    let square = Tensor::full(&[4096, 4096], 1.0, DType::Float32).unwrap();
    let transposed = square.t();
    g.bench_function("transposed_4096x4096", |b| {
        b.iter(|| transposed.sum().unwrap())
    });
    g.bench_function("rows_4096x4096", |b| {
        b.iter(|| square.sum_dims(&[1], false).unwrap())
    });
    g.bench_function("cols_4096x4096", |b| {
        b.iter(|| square.sum_dims(&[0], false).unwrap())
    });
    g.finish();
}

/// The issue's reduction and cast rows beyond plain sums (values from `arange`, so max and
/// argmax do real comparisons; `% 251` keeps the int8 values in range).
fn issue_rows(c: &mut Criterion) {
    let mut g = c.benchmark_group("issue");
    g.sample_size(10);
    let n = 4096 * 4096;
    let x = Tensor::arange(0.0, n as f64, 1.0, DType::Float32)
        .unwrap()
        .reshape(&[4096, 4096])
        .unwrap();
    g.throughput(Throughput::Bytes(4 * n as u64));
    g.bench_function("max_4096x4096_f32", |b| b.iter(|| ops::max(&x).unwrap()));
    g.bench_function("argmax_dim1_4096x4096_f32", |b| {
        b.iter(|| ops::argmax_dim(&x, 1, false).unwrap())
    });
    g.bench_function("max_dim0_4096x4096_f32", |b| {
        b.iter(|| ops::max_dims(&x, &[0], false).unwrap())
    });
    g.bench_function("sum_dim1_4096x4096_f32", |b| {
        b.iter(|| ops::sum_dims(&x, &[1], false).unwrap())
    });
    g.bench_function("sum_dim0_4096x4096_f32", |b| {
        b.iter(|| ops::sum_dims(&x, &[0], false).unwrap())
    });
    // One fused pass (chunk moments merged pairwise; Welford per column on the outer path).
    g.bench_function("var_4096x4096_f32", |b| {
        b.iter(|| ops::reduce(ops::ReduceOp::Var { correction: 1 }, &x, None, false).unwrap())
    });
    g.bench_function("var_dim1_4096x4096_f32", |b| {
        b.iter(|| ops::var_dims(&x, &[1], 1, false).unwrap())
    });
    g.bench_function("var_dim0_4096x4096_f32", |b| {
        b.iter(|| ops::var_dims(&x, &[0], 1, false).unwrap())
    });
    let i8s = Tensor::full(&[n], 3.0, DType::Int8).unwrap();
    g.throughput(Throughput::Bytes(n as u64));
    g.bench_function("sum_16M_i8", |b| b.iter(|| ops::sum(&i8s).unwrap()));
    let v = Tensor::full(&[10_000_000], 1.5, DType::Float32).unwrap();
    g.throughput(Throughput::Bytes(6 * 10_000_000));
    g.bench_function("to_f16_10M", |b| {
        b.iter(|| v.to_dtype(DType::Float16).unwrap())
    });
    g.finish();
}

fn copies(c: &mut Criterion) {
    let mut g = c.benchmark_group("contiguous");
    g.sample_size(10);
    let pitched_base = Tensor::full(&[4096, 8192], 1.0, DType::Float32).unwrap();
    let pitched = pitched_base.narrow(1, 0, 4096).unwrap();
    let square = Tensor::full(&[4096, 4096], 1.0, DType::Float32).unwrap();
    let transposed = square.t();
    g.throughput(Throughput::Bytes(64 << 20));
    g.bench_function("pitched_4096x4096", |b| {
        b.iter(|| pitched.contiguous().unwrap())
    });
    g.bench_function("transposed_4096x4096", |b| {
        b.iter(|| transposed.contiguous().unwrap())
    });
    g.finish();
}

fn elementwise(c: &mut Criterion) {
    let mut g = c.benchmark_group("elementwise");
    g.sample_size(20);
    let n = 10_000_000;
    let a = Tensor::full(&[n], 1.5, DType::Float32).unwrap();
    let b = Tensor::full(&[n], 2.5, DType::Float32).unwrap();
    g.throughput(Throughput::Bytes(3 * 4 * n as u64));
    g.bench_function("add_10M_f32", |bn| bn.iter(|| ops::add(&a, &b).unwrap()));
    let row = Tensor::full(&[1, 1000], 1.0, DType::Float32).unwrap();
    let m = Tensor::full(&[10_000, 1000], 1.0, DType::Float32).unwrap();
    g.bench_function("add_broadcast_row_10M_f32", |bn| {
        bn.iter(|| ops::add(&m, &row).unwrap())
    });
    g.bench_function("exp_10M_f32", |bn| bn.iter(|| ops::exp(&a).unwrap()));
    let small = Tensor::full(&[1000], 1.0, DType::Float32).unwrap();
    g.throughput(Throughput::Elements(1000));
    g.bench_function("sum_1000_f32", |bn| bn.iter(|| small.sum().unwrap()));
    g.finish();
}

fn matmul(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul");
    g.sample_size(10);
    for n in [256usize, 1024] {
        let a = Tensor::full(&[n, n], 0.5, DType::Float32).unwrap();
        let b = Tensor::full(&[n, n], 0.25, DType::Float32).unwrap();
        g.throughput(Throughput::Elements(2 * (n * n * n) as u64));
        g.bench_with_input(BenchmarkId::new("f32", n), &n, |bn, _| {
            bn.iter(|| a.matmul(&b).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, reductions, issue_rows, copies, elementwise, matmul);
criterion_main!(benches);
