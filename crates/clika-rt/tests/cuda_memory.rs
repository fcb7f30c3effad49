//! The CUDA pool and its hazards on `cuda:0`: statistics, deferred frees behind queued
//! work, segments returned to the driver, the pinned upload path (a real `cuMemHostAlloc`
//! buffer) and the pageable one. Built only with the `cuda` feature; each test prints a
//! message and returns where there is no NVIDIA driver. One test at a time touches the
//! pool's counters (a lock), since tests share it.
#![cfg(all(feature = "cuda", not(miri)))]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use clika_rt::device::{memory_stats, release_cached_memory};
use clika_rt::memory::{allocate, Event, ManualEvent};
use clika_rt::{BlobOptions, DType, Deleter, Device, Tensor};
use cudarc::driver::result as cu;

const CUDA: Device = Device::cuda(0);

/// CUDA device 0, exclusively, or `None` (with a message) where there is no driver.
fn cuda() -> Option<MutexGuard<'static, ()>> {
    static ONE: Mutex<()> = Mutex::new(());
    if let Err(e) = CUDA.ensure_available() {
        eprintln!("skipping: {e}");
        return None;
    }
    Some(ONE.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Waits for the device's queued work (through a tensor on it).
fn sync() {
    Tensor::zeros(&[1], DType::Float32)
        .unwrap()
        .to(CUDA)
        .unwrap()
        .synchronize()
        .unwrap();
}

/// `n` page-locked bytes from the driver (device 0's primary context bound on this thread).
fn pinned(n: usize) -> *mut u8 {
    let dev = cu::device::get(0).unwrap();
    // SAFETY: `dev` came from cuDeviceGet; retaining the primary context again only bumps
    // its reference count (the runtime retained it when the device started).
    unsafe { cu::ctx::set_current(cu::primary_ctx::retain(dev).unwrap()).unwrap() };
    // SAFETY: a plain page-locked allocation, freed by the caller with cuMemFreeHost.
    unsafe { cu::malloc_host(n, 0).unwrap().cast() }
}

#[test]
fn stats_move_as_tensors_are_created_dropped_and_released() {
    let Some(_g) = cuda() else { return };
    sync();
    release_cached_memory(CUDA).unwrap();
    let before = memory_stats(CUDA);
    let t = Tensor::zeros(&[1 << 20], DType::Float32)
        .unwrap()
        .to(CUDA)
        .unwrap();
    let during = memory_stats(CUDA);
    assert_eq!(during.active_bytes - before.active_bytes, 4 << 20);
    assert!(during.reserved_bytes >= before.reserved_bytes + (4 << 20));
    drop(t);
    let dropped = memory_stats(CUDA);
    assert_eq!(dropped.active_bytes, before.active_bytes);
    assert!(dropped.cached_bytes >= 4 << 20);
    sync();
    // Segments go back to the driver: reserved drops by at least the tensor's segment.
    assert!(release_cached_memory(CUDA).unwrap() >= 4 << 20);
    let released = memory_stats(CUDA);
    assert_eq!(released.deferred_bytes, 0);
    assert!(released.reserved_bytes <= before.reserved_bytes);
}

#[test]
fn a_deferred_free_waits_for_its_event() {
    let Some(_g) = cuda() else { return };
    sync();
    release_cached_memory(CUDA).unwrap();
    let event = Arc::new(ManualEvent::new());
    let block = allocate(CUDA, 3 << 20, false).unwrap();
    let reserved = memory_stats(CUDA).reserved_bytes;
    block.free_after(Arc::clone(&event) as Arc<dyn Event>);
    assert!(memory_stats(CUDA).deferred_bytes >= 3 << 20);
    release_cached_memory(CUDA).unwrap();
    assert_eq!(memory_stats(CUDA).reserved_bytes, reserved);
    let other = allocate(CUDA, 3 << 20, false).unwrap();
    assert!(memory_stats(CUDA).reserved_bytes > reserved);
    drop(other);
    event.complete();
    sync();
    release_cached_memory(CUDA).unwrap();
    let after = memory_stats(CUDA);
    assert_eq!(after.deferred_bytes, 0);
    assert!(after.reserved_bytes < reserved);
}

#[test]
fn a_tensor_dropped_while_its_kernel_is_queued_is_deferred_and_correct() {
    let Some(_g) = cuda() else { return };
    let n = 1 << 24; // 64 MiB: the kernels below take long enough to still be queued
    let src = Tensor::full(&[n], 2.0, DType::Float32).unwrap();
    let d = src.to(CUDA).unwrap();
    let mut acc = clika_rt::ops::add(&d, &d).unwrap();
    for _ in 0..8 {
        acc = clika_rt::ops::add(&acc, &d).unwrap();
    }
    drop(d);
    // Freed with work queued: parked behind the stream's event, not reusable yet.
    assert!(memory_stats(CUDA).deferred_bytes >= 4 * n);
    acc.synchronize().unwrap();
    release_cached_memory(CUDA).unwrap();
    assert_eq!(memory_stats(CUDA).deferred_bytes, 0);
    let (got, want) = (acc.sum().unwrap().item::<f32>().unwrap(), 20.0 * n as f32);
    assert!((got - want).abs() <= 1e-5 * want, "{got} vs {want}");
    assert!(acc.to_vec::<f32>().unwrap().iter().all(|&v| v == 20.0));
}

#[test]
fn pinned_upload_keeps_an_adopted_source_until_the_copy_completed() {
    let Some(_g) = cuda() else { return };
    let n = 1 << 22;
    let ptr = pinned(4 * n);
    // SAFETY: `ptr` holds 4n bytes, page-locked, exclusively ours.
    let host = unsafe { std::slice::from_raw_parts_mut(ptr.cast::<f32>(), n) };
    for (i, v) in host.iter_mut().enumerate() {
        *v = (i % 1000) as f32;
    }
    let want: Vec<f32> = host.to_vec();
    let freed = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&freed);
    let deleter = Deleter::new(move |p| {
        flag.store(true, Ordering::SeqCst);
        // SAFETY: `p` came from cuMemHostAlloc above and is freed once, here.
        unsafe { cu::free_host(p.cast()).unwrap() };
    });
    let options = BlobOptions {
        pinned_for: Some(CUDA),
        deleter: Some(deleter),
        ..BlobOptions::default()
    };
    // SAFETY: `ptr` holds n initialised f32s, owned by the deleter from now on.
    let src =
        unsafe { Tensor::from_blob_with(ptr, &[n as i64], None, DType::Float32, options) }.unwrap();
    let on = src.to(CUDA).unwrap();
    drop(src);
    // The copy was queued asynchronously: the source is kept until it completes.
    assert!(
        !freed.load(Ordering::SeqCst),
        "deleter ran before the copy completed"
    );
    on.synchronize().unwrap();
    assert!(
        freed.load(Ordering::SeqCst),
        "deleter never ran after the copy"
    );
    assert_eq!(on.to_vec::<f32>().unwrap(), want);
}

#[test]
fn an_untagged_source_is_read_before_to_returns() {
    let Some(_g) = cuda() else { return };
    let mut buf = vec![1.0f32; 1 << 20];
    // SAFETY: `buf` outlives `view`, and is written only after `.to()` returned.
    let view =
        unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[1 << 20], DType::Float32) }.unwrap();
    let on = view.to(CUDA).unwrap();
    drop(view);
    buf.fill(7.0);
    assert!(on.to_vec::<f32>().unwrap().iter().all(|&v| v == 1.0));
}

#[test]
fn long_and_strided_reductions_are_complete() {
    let Some(_g) = cuda() else { return };
    let n = 8 << 20;
    let g = Tensor::full(&[n], 1.0, DType::Float32)
        .unwrap()
        .to(CUDA)
        .unwrap();
    assert_eq!(g.sum().unwrap().item::<f32>().unwrap(), n as f32);
    assert_eq!(g.mean().unwrap().item::<f32>().unwrap(), 1.0);
    let rows = g.reshape(&[2, (n / 2) as isize]).unwrap();
    let per_row = rows.sum_dims(&[1], false).unwrap();
    assert_eq!(per_row.to_vec::<f32>().unwrap(), vec![(n / 2) as f32; 2]);
    let cols = rows.transpose(0, 1).unwrap().sum_dims(&[0], true).unwrap();
    assert_eq!(cols.to_vec::<f32>().unwrap(), vec![(n / 2) as f32; 2]);
    let ramp = Tensor::arange(0.0, n as f64, 1.0, DType::Float32)
        .unwrap()
        .to(CUDA)
        .unwrap();
    assert_eq!(ramp.max().unwrap().item::<f32>().unwrap(), (n - 1) as f32);
    assert_eq!(ramp.min().unwrap().item::<f32>().unwrap(), 0.0);
    // Integers sum to Int64; a mean of integers is Float64.
    let i = Tensor::arange(0.0, 1e6, 1.0, DType::Int32)
        .unwrap()
        .to(CUDA)
        .unwrap();
    assert_eq!(
        i.sum().unwrap().item::<i64>().unwrap(),
        999_999 * 1_000_000 / 2
    );
    assert_eq!(i.mean().unwrap().item::<f64>().unwrap(), 499_999.5);
}

#[test]
fn a_missing_device_is_an_error_not_a_crash() {
    let err = Tensor::ones(&[1], DType::Float32)
        .unwrap()
        .to(Device::cuda(63))
        .unwrap_err();
    assert_eq!(err.kind(), clika_rt::ErrorKind::Device, "{err}");
}
