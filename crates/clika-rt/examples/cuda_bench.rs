//! A short CUDA benchmark for `bench/device/run` (built with `--features cuda`): host ↔
//! device bandwidth from pageable and from pinned (`cuMemHostAlloc`) memory, an elementwise
//! add and a full sum on `cuda:0`. Prints one `name<TAB>value<TAB>unit` line per result;
//! `bench/device/run` prints PyTorch's figures for the same work beside them.

use std::time::Instant;

use clika_rt::{BlobOptions, DType, Deleter, Device, Tensor};
use cudarc::driver::result as cu;

const CUDA: Device = Device::cuda(0);

/// The median of `reps` timings of `f` (seconds), after one warm-up run.
fn median(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

fn sync(t: &Tensor) {
    t.synchronize().expect("synchronize");
}

fn main() {
    if let Err(e) = CUDA.ensure_available() {
        eprintln!("cuda_bench: skipped: {e}");
        return;
    }
    println!(
        "device\t{}\t",
        clika_rt::backend::device_name(CUDA).unwrap_or_default()
    );
    let n: usize = 64 << 20; // 64 Mi float32 = 256 MiB
    let bytes = (n * 4) as f64;
    let gbs = |s: f64| bytes / s / 1e9;

    let pageable = Tensor::full(&[n], 1.0, DType::Float32).expect("host tensor");
    let up = median(5, || sync(&pageable.to(CUDA).expect("upload")));
    println!("upload_pageable_256MiB\t{:.2}\tGB/s", gbs(up));

    // Pinned: page-locked by the driver, tagged `pinned_for` so the copy is asynchronous.
    let dev = cu::device::get(0).expect("cuDeviceGet");
    // SAFETY: `dev` came from cuDeviceGet; retaining the primary context again only bumps its
    // reference count.
    unsafe { cu::ctx::set_current(cu::primary_ctx::retain(dev).expect("retain")).expect("ctx") };
    // SAFETY: a plain page-locked allocation, freed by the deleter below.
    let ptr: *mut u8 = unsafe { cu::malloc_host(n * 4, 0).expect("cuMemHostAlloc").cast() };
    // SAFETY: `ptr` holds n * 4 bytes, exclusively ours until the deleter runs.
    unsafe { std::slice::from_raw_parts_mut(ptr.cast::<f32>(), n) }.fill(1.0);
    let options = BlobOptions {
        pinned_for: Some(CUDA),
        // SAFETY: `p` came from cuMemHostAlloc and is freed once, here.
        deleter: Some(Deleter::new(|p| unsafe {
            let _ = cu::free_host(p.cast());
        })),
        ..BlobOptions::default()
    };
    // SAFETY: `ptr` holds n initialised f32s, owned by the deleter from now on.
    let pinned = unsafe { Tensor::from_blob_with(ptr, &[n as i64], None, DType::Float32, options) }
        .expect("pinned tensor");
    let up = median(5, || sync(&pinned.to(CUDA).expect("upload")));
    println!("upload_pinned_256MiB\t{:.2}\tGB/s", gbs(up));

    let on = pageable.to(CUDA).expect("upload");
    let down = median(5, || drop(on.to(Device::cpu()).expect("download")));
    println!("download_pageable_256MiB\t{:.2}\tGB/s", gbs(down));

    let b = Tensor::full(&[n], 2.0, DType::Float32)
        .expect("host")
        .to(CUDA)
        .expect("upload");
    let add = median(20, || sync(&clika_rt::ops::add(&on, &b).expect("add")));
    println!("add_f32_64Mi\t{:.3}\tms", add * 1e3);
    println!(
        "add_f32_64Mi_bandwidth\t{:.1}\tGB/s",
        3.0 * bytes / add / 1e9
    );
    let sum = median(20, || sync(&on.sum().expect("sum")));
    println!("sum_f32_64Mi\t{:.3}\tms", sum * 1e3);
    let got = on.sum().expect("sum").item::<f32>().expect("item");
    println!("sum_f32_64Mi_value\t{got}\t(expect {n})");
    let rows = on.reshape(&[8192, (n / 8192) as isize]).expect("reshape");
    let per_row = median(20, || sync(&rows.sum_dims(&[1], false).expect("sum rows")));
    println!("sum_rows_8192x8192\t{:.3}\tms", per_row * 1e3);
    // Square products through cuBLAS (the NVRTC kernel where libcublas is missing).
    for (dtype, name) in [
        (DType::Float32, "f32"),
        (DType::Float16, "f16"),
        (DType::BFloat16, "bf16"),
    ] {
        let m = 4096;
        let a = Tensor::full(&[m, m], 0.5, dtype)
            .expect("host")
            .to(CUDA)
            .expect("upload");
        let mm = median(5, || sync(&a.matmul(&a).expect("matmul")));
        let tflops = 2.0 * (m as f64).powi(3) / mm / 1e12;
        println!(
            "matmul_{name}_4096\t{:.3}\tms\t{tflops:.1} TFLOP/s",
            mm * 1e3
        );
    }
    // A batch of small products with a broadcast operand (one strided-batched call).
    let a = Tensor::full(&[256, 128, 64], 0.5, DType::Float32)
        .expect("host")
        .to(CUDA)
        .expect("upload");
    let b = Tensor::full(&[64, 96], 0.25, DType::Float32)
        .expect("host")
        .to(CUDA)
        .expect("upload");
    let bm = median(20, || sync(&a.matmul(&b).expect("matmul")));
    println!("matmul_f32_batched_256x128x64x96\t{:.3}\tms", bm * 1e3);
}
