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

/// `n` bytes of device memory from the driver directly (another library's allocation).
fn device_alloc(n: usize) -> u64 {
    let _ = pinned(0); // binds device 0's primary context on this thread
                       // SAFETY: a plain device allocation, freed by the caller with cuMemFree.
    unsafe { cu::malloc_sync(n).unwrap() }
}

#[test]
fn device_memory_of_another_allocator_is_borrowed_and_adopted_in_place() {
    let Some(_g) = cuda() else { return };
    let n = 1 << 22; // 16 MiB: the kernels below are still queued when the tensor drops
    let want: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let dptr = device_alloc(4 * n);
    // SAFETY: `dptr` holds 4n bytes; the copy is synchronous.
    unsafe { cu::memcpy_htod_sync(dptr, &want).unwrap() };
    let on = |deleter: Option<Deleter>| BlobOptions {
        device: CUDA,
        deleter,
        ..BlobOptions::default()
    };
    // Borrowed: the tensor is the memory (same address), on cuda:0, usable by every op.
    // SAFETY: `dptr` holds n initialised f32s and outlives the tensor (freed at the end).
    let t = unsafe {
        Tensor::from_blob_with(dptr as *mut u8, &[n as i64], None, DType::Float32, on(None))
    }
    .unwrap();
    assert_eq!((t.device(), t.data_ptr() as u64), (CUDA, dptr));
    assert_eq!(t.to_vec::<f32>().unwrap(), want);
    let m = t
        .reshape(&[1024, (n / 1024) as isize])
        .unwrap()
        .transpose(0, 1)
        .unwrap();
    let sums = m.sum_dims(&[1], false).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(sums[0], want.iter().step_by(n / 1024).sum::<f32>());
    // DLPack on CUDA: an export and its import share the address and device.
    let p = clika_rt::io::dlpack::export_versioned(t.clone(), false).unwrap();
    // SAFETY: `p` is the live export just made; the import owns it from here.
    let back = unsafe { clika_rt::io::dlpack::import_versioned(p) }.unwrap();
    assert_eq!((back.device(), back.data_ptr() as u64), (CUDA, dptr));
    drop((t, back, m));

    // Adopted: the deleter runs once, after the work that still reads the memory.
    let stream = clika_rt::backend::stream_handle(CUDA).unwrap();
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (c, idle_at_free) = (Arc::clone(&calls), Arc::new(AtomicBool::new(false)));
    let idle = Arc::clone(&idle_at_free);
    let deleter = Deleter::new(move |p| {
        // SAFETY: the runtime's stream lives as long as the process.
        let done = unsafe { cudarc::driver::sys::cuStreamQuery(stream as _) };
        idle.store(
            done == cudarc::driver::sys::CUresult::CUDA_SUCCESS,
            Ordering::SeqCst,
        );
        c.fetch_add(1, Ordering::SeqCst);
        // SAFETY: `p` is `dptr`, from cuMemAlloc, freed once, here.
        unsafe { cu::free_sync(p as u64).unwrap() };
    });
    // SAFETY: as above; the deleter owns `dptr` from now on.
    let t = unsafe {
        Tensor::from_blob_with(
            dptr as *mut u8,
            &[n as i64],
            None,
            DType::Float32,
            on(Some(deleter)),
        )
    }
    .unwrap();
    let mut acc = clika_rt::ops::add(&t, &t).unwrap();
    for _ in 0..8 {
        acc = clika_rt::ops::add(&acc, &t).unwrap();
    }
    drop(t);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "the deleter runs exactly once"
    );
    assert!(
        idle_at_free.load(Ordering::SeqCst),
        "the deleter ran while kernels reading the memory were queued"
    );
    let got = acc.to_vec::<f32>().unwrap();
    assert!(got.iter().zip(&want).all(|(g, w)| *g == 10.0 * w));
}

#[test]
fn memory_that_is_not_this_devices_is_refused_and_nothing_is_taken() {
    let Some(_g) = cuda() else { return };
    let called = Arc::new(AtomicBool::new(false));
    let wrap = |ptr: *mut u8, len: i64| {
        let flag = Arc::clone(&called);
        let options = BlobOptions {
            device: CUDA,
            deleter: Some(Deleter::new(move |_| flag.store(true, Ordering::SeqCst))),
            ..BlobOptions::default()
        };
        // SAFETY: every case below is refused before the memory is touched.
        unsafe { Tensor::from_blob_with(ptr, &[len], None, DType::Float32, options) }
            .unwrap_err()
            .to_string()
    };
    let mut host = vec![0f32; 64];
    let e = wrap(host.as_mut_ptr().cast(), 64);
    assert!(e.contains("not CUDA memory"), "{e}");
    let pinned_ptr = pinned(256);
    let e = wrap(pinned_ptr, 64);
    assert!(e.contains("page-locked host memory"), "{e}");
    // SAFETY: from cuMemHostAlloc above.
    unsafe { cu::free_host(pinned_ptr.cast()).unwrap() };
    let dptr = device_alloc(4096);
    let e = wrap(dptr as *mut u8, 1 << 40);
    assert!(e.contains("last byte"), "{e}");
    // SAFETY: from cuMemAlloc above, not wrapped.
    unsafe { cu::free_sync(dptr).unwrap() };
    assert!(
        !called.load(Ordering::SeqCst),
        "a refused wrap called the deleter"
    );
}

#[test]
fn streams_are_shared_and_ordered_without_blocking() {
    let Some(_g) = cuda() else { return };
    use clika_rt::backend::{order_external_stream_after, stream_handle, wait_for_external_stream};
    assert_ne!(stream_handle(CUDA).unwrap(), 0);
    assert!(stream_handle(Device::cpu()).is_err());
    // The legacy (1) and per-thread (2) default streams, both ways.
    for s in [1, 2] {
        order_external_stream_after(CUDA, s).unwrap();
        wait_for_external_stream(CUDA, s).unwrap();
    }
    let e = wait_for_external_stream(CUDA, 0).unwrap_err().to_string();
    assert!(e.contains("ambiguous"), "{e}");
    sync();
}

#[test]
fn the_pinned_pool_backs_pin_memory_and_gives_its_pages_back() {
    use clika_rt::device::{pinned_memory_stats, release_cached_pinned_memory};
    let Some(_g) = cuda() else { return };
    let n = 1 << 20;
    let src = Tensor::from_vec((0..n).map(|i| (i % 977) as f32).collect(), &[n]).unwrap();
    let pinned = src.pin_memory(CUDA).unwrap();
    assert_eq!(pinned.device(), Device::cpu());
    assert_eq!(pinned.storage().pinned_for(), Some(CUDA));
    assert_eq!(
        pinned.to_vec::<f32>().unwrap(),
        src.to_vec::<f32>().unwrap()
    );
    // The driver sees page-locked host memory.
    let mut kind = 0u32;
    // SAFETY: `kind` receives the u32 memory type; the pointer is read as a number.
    unsafe {
        cudarc::driver::sys::cuPointerGetAttribute(
            (&raw mut kind).cast(),
            cudarc::driver::sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            pinned.data_ptr() as u64,
        )
        .result()
        .unwrap()
    };
    assert_eq!(
        kind,
        cudarc::driver::sys::CUmemorytype::CU_MEMORYTYPE_HOST as u32
    );
    assert!(pinned_memory_stats(CUDA).unwrap().active_bytes >= 4 * n);
    // Already pinned for the device: the same memory, not a copy.
    assert_eq!(
        pinned.pin_memory(CUDA).unwrap().data_ptr(),
        pinned.data_ptr()
    );
    // The upload from it is asynchronous; the block is kept until the copy completes.
    let on = pinned.to(CUDA).unwrap();
    drop(pinned);
    assert_eq!(on.to_vec::<f32>().unwrap(), src.to_vec::<f32>().unwrap());
    on.synchronize().unwrap();
    release_cached_pinned_memory(CUDA).unwrap();
    let stats = pinned_memory_stats(CUDA).unwrap();
    assert_eq!(
        (stats.active_bytes, stats.reserved_bytes),
        (0, 0),
        "{stats:?}"
    );
    // The CPU has no pinned pool: a clear error, not a plain host tensor.
    let e = src.pin_memory(Device::cpu()).unwrap_err().to_string();
    assert!(e.contains("pinned pool"), "{e}");
}

#[test]
fn a_pinned_tag_on_pageable_memory_is_checked_and_copied_as_pageable() {
    let Some(_g) = cuda() else { return };
    let n = 1 << 20;
    let data: Vec<f32> = (0..n).map(|i| (i % 100) as f32).collect();
    let want = data.clone();
    let boxed = Box::into_raw(data.into_boxed_slice());
    let freed = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&freed);
    let options = BlobOptions {
        pinned_for: Some(CUDA), // untrue: plain heap memory
        deleter: Some(Deleter::new(move |p| {
            flag.store(true, Ordering::SeqCst);
            // SAFETY: `p` is the boxed slice's pointer, given back once.
            drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), n)) });
        })),
        ..BlobOptions::default()
    };
    // SAFETY: `boxed` holds n initialised f32s, owned by the deleter from now on.
    let src =
        unsafe { Tensor::from_blob_with(boxed.cast(), &[n as i64], None, DType::Float32, options) }
            .unwrap();
    let on = src.to(CUDA).unwrap();
    drop(src);
    // The driver does not know the memory as page-locked: the copy read it before `to`
    // returned, so nothing kept it.
    assert!(
        freed.load(Ordering::SeqCst),
        "pageable source kept as if pinned"
    );
    assert_eq!(on.to_vec::<f32>().unwrap(), want);
}
