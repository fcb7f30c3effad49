//! The GPU pool and its hazards: statistics, deferred frees behind in-flight work, the
//! pinned upload path. Each test prints a message and returns where no Vulkan driver exists.
//! One test at a time touches the GPU pool's counters (a lock), since tests share it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use clika_rt::device::{memory_stats, release_cached_memory};
use clika_rt::memory::{allocate, Event, ManualEvent};
use clika_rt::{BlobOptions, DType, Deleter, Device, Tensor};

const GPU: Device = Device::gpu(0);

/// The GPU, exclusively, or `None` (with a message) where there is no driver.
fn gpu() -> Option<MutexGuard<'static, ()>> {
    static ONE: Mutex<()> = Mutex::new(());
    if let Err(e) = GPU.ensure_available() {
        eprintln!("skipping: {e}");
        return None;
    }
    Some(ONE.lock().unwrap_or_else(|e| e.into_inner()))
}

#[test]
fn stats_move_as_tensors_are_created_dropped_and_released() {
    let Some(_gpu) = gpu() else { return };
    release_cached_memory(GPU).unwrap();
    let before = memory_stats(GPU);
    // `copy_to`: on a unified-memory GPU `.to` would use the host memory in place.
    let t = Tensor::zeros(&[1 << 20], DType::Float32)
        .unwrap()
        .copy_to(GPU)
        .unwrap();
    let during = memory_stats(GPU);
    assert_eq!(during.active_bytes - before.active_bytes, 4 << 20);
    drop(t);
    let dropped = memory_stats(GPU);
    assert_eq!(dropped.active_bytes, before.active_bytes);
    // The upload may still be in flight: the block is deferred or already cached.
    assert!(dropped.cached_bytes >= 4 << 20);
    clika_rt::Tensor::zeros(&[1], DType::Float32)
        .unwrap()
        .to(GPU)
        .unwrap()
        .synchronize()
        .unwrap();
    assert!(release_cached_memory(GPU).unwrap() >= 4 << 20);
    let released = memory_stats(GPU);
    assert_eq!(released.deferred_bytes, 0);
    assert!(released.cached_bytes < 4 << 20);
}

#[test]
fn a_deferred_free_waits_for_its_event() {
    let Some(_gpu) = gpu() else { return };
    release_cached_memory(GPU).unwrap();
    let event = Arc::new(ManualEvent::new());
    let block = allocate(GPU, 3 << 20, false).unwrap();
    let reserved = memory_stats(GPU).reserved_bytes;
    block.free_after(Arc::clone(&event) as Arc<dyn Event>);
    assert!(memory_stats(GPU).deferred_bytes >= 3 << 20);
    // Neither released…
    release_cached_memory(GPU).unwrap();
    assert_eq!(memory_stats(GPU).reserved_bytes, reserved);
    // …nor handed out again while the event is pending.
    let other = allocate(GPU, 3 << 20, false).unwrap();
    assert!(memory_stats(GPU).reserved_bytes > reserved);
    drop(other);
    event.complete();
    release_cached_memory(GPU).unwrap();
    let after = memory_stats(GPU);
    assert_eq!(after.deferred_bytes, 0);
    assert!(after.reserved_bytes < reserved);
}

#[test]
fn a_tensor_dropped_while_its_work_is_queued_is_deferred() {
    let Some(_gpu) = gpu() else { return };
    release_cached_memory(GPU).unwrap();
    let src = Tensor::full(&[1 << 20], 2.0, DType::Float32).unwrap();
    let d = src.copy_to(GPU).unwrap(); // queued, not yet submitted
    let doubled = clika_rt::ops::add(&d, &d).unwrap(); // a kernel reading `d`, queued
    drop(d);
    let stats = memory_stats(GPU);
    assert!(stats.deferred_bytes >= 4 << 20, "{stats:?}");
    release_cached_memory(GPU).unwrap();
    assert!(memory_stats(GPU).deferred_bytes >= 4 << 20);
    doubled.synchronize().unwrap();
    release_cached_memory(GPU).unwrap();
    assert_eq!(memory_stats(GPU).deferred_bytes, 0);
    assert_eq!(
        doubled
            .to(Device::cpu())
            .unwrap()
            .sum()
            .unwrap()
            .item::<f32>()
            .unwrap(),
        4.0 * (1 << 20) as f32
    );
}

#[test]
fn pinned_upload_keeps_an_adopted_source_until_the_copy_completed() {
    let Some(_gpu) = gpu() else { return };
    let data: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    let mut boxed = data.clone().into_boxed_slice();
    let ptr = boxed.as_mut_ptr().cast::<u8>();
    std::mem::forget(boxed);
    let freed = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&freed);
    let deleter = Deleter::new(move |p| {
        flag.store(true, Ordering::SeqCst);
        // SAFETY: `p` is the pointer of the boxed slice forgotten above, 4096 f32 long.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), 4096)) });
    });
    let options = BlobOptions {
        pinned_for: Some(GPU),
        deleter: Some(deleter),
        ..BlobOptions::default()
    };
    // SAFETY: `ptr` holds 4096 initialised f32s, owned by the deleter from now on.
    let src =
        unsafe { Tensor::from_blob_with(ptr, &[4096], None, DType::Float32, options) }.unwrap();
    let on_gpu = src.copy_to(GPU).unwrap();
    drop(src);
    // The copy is queued, not complete: the source must still be alive.
    assert!(
        !freed.load(Ordering::SeqCst),
        "deleter ran before the copy completed"
    );
    on_gpu.synchronize().unwrap();
    assert!(
        freed.load(Ordering::SeqCst),
        "deleter never ran after the copy completed"
    );
    assert_eq!(on_gpu.to_vec::<f32>().unwrap(), data);
}

#[test]
fn an_untagged_source_is_read_before_to_returns() {
    let Some(_gpu) = gpu() else { return };
    let mut buf = vec![1.0f32; 64];
    // SAFETY: `buf` outlives `view`, and is written only after `.to()` returned.
    let view =
        unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[64], DType::Float32) }.unwrap();
    let on_gpu = view.copy_to(GPU).unwrap();
    drop(view);
    buf.fill(7.0);
    assert_eq!(on_gpu.to_vec::<f32>().unwrap(), vec![1.0f32; 64]);
}

#[test]
fn elementwise_ops_over_the_binding_limit_run_in_chunks() {
    use clika_rt::ops::{self, BinaryOp, UnaryOp};
    let Some(_gpu) = gpu() else { return };
    // 40 Mi float32 = 160 MiB: more than lavapipe's 128 MiB storage-binding limit, so each
    // operand is bound in windows and the kernel dispatched per chunk.
    let n = 40 << 20;
    let a = Tensor::arange(0.0, n as f64, 1.0, DType::Float32).unwrap();
    let b = Tensor::full(&[n], 0.5, DType::Float32).unwrap();
    let (ga, gb) = (a.to(GPU).unwrap(), b.to(GPU).unwrap());
    let host = |t: Tensor| t.to(Device::cpu()).unwrap();
    let same_f32 = |got: Tensor, want: Tensor, what: &str| {
        let (got, want) = (got.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
        assert_eq!(got.len(), want.len(), "{what}");
        let bad = (0..got.len()).find(|&i| got[i].to_bits() != want[i].to_bits());
        assert!(bad.is_none(), "{what}: first difference at {bad:?}");
    };
    let sum = ops::binary(BinaryOp::Add, &ga, &gb).unwrap();
    same_f32(
        host(sum),
        ops::binary(BinaryOp::Add, &a, &b).unwrap(),
        "add",
    );
    let neg = ops::unary(UnaryOp::Neg, &ga).unwrap();
    same_f32(host(neg), ops::unary(UnaryOp::Neg, &a).unwrap(), "neg");
    // A one-byte result (four per word) and a two-byte one, chunked alike.
    let threshold = Tensor::full(&[], 1e7, DType::Float32).unwrap();
    let gt = host(ops::binary(BinaryOp::Gt, &ga, &threshold).unwrap());
    let want = ops::binary(BinaryOp::Gt, &a, &threshold).unwrap();
    assert_eq!(gt.to_vec::<bool>().unwrap(), want.to_vec::<bool>().unwrap());
    let half = host(gb.to_dtype(DType::Float16).unwrap());
    assert!(half
        .to_vec::<clika_rt::half::f16>()
        .unwrap()
        .iter()
        .all(|&h| h.to_f32() == 0.5));
    // Reductions of every element: per-chunk partials, then one more reduction.
    let close = |got: &Tensor, want: &Tensor, what: &str| {
        let (g, w) = (got.item::<f32>().unwrap(), want.item::<f32>().unwrap());
        assert!((g - w).abs() <= 1e-5 * w.abs(), "{what}: {g} vs {w}");
    };
    close(&ga.sum().unwrap(), &a.sum().unwrap(), "sum");
    close(&ga.mean().unwrap(), &a.mean().unwrap(), "mean");
    close(&ga.max().unwrap(), &a.max().unwrap(), "max");
    close(&ga.min().unwrap(), &a.min().unwrap(), "min");
    let kept = ga.sum_dims(&[0], true).unwrap();
    assert_eq!(kept.shape(), &[1]);
    // A strided operand this large is still refused, naming what is supported.
    let err = ga
        .reshape(&[(n / 1024) as isize, 1024])
        .unwrap()
        .transpose(0, 1)
        .unwrap()
        .contiguous();
    if let Err(e) = err {
        assert!(e.to_string().contains("chunks"), "{e}");
    }
}

#[test]
fn long_reductions_are_complete() {
    // lavapipe stops a shader invocation after ~65 thousand loop iterations; a reduction
    // over millions of elements must spread them over enough workgroups (it returned
    // 43690 for the sum of 8 Mi ones before).
    let Some(_gpu) = gpu() else { return };
    let n = 8 << 20;
    let ones = Tensor::full(&[n], 1.0, DType::Float32).unwrap();
    let g = ones.to(GPU).unwrap();
    assert_eq!(g.sum().unwrap().item::<f32>().unwrap(), n as f32);
    assert_eq!(g.mean().unwrap().item::<f32>().unwrap(), 1.0);
    let rows = g.reshape(&[2, (n / 2) as isize]).unwrap();
    let per_row = rows
        .sum_dims(&[1], false)
        .unwrap()
        .to(Device::cpu())
        .unwrap();
    assert_eq!(per_row.to_vec::<f32>().unwrap(), vec![(n / 2) as f32; 2]);
    // Strided too: the columns of a transposed view.
    let cols = rows.transpose(0, 1).unwrap().sum_dims(&[0], true).unwrap();
    assert_eq!(cols.shape(), &[1, 2]);
    assert_eq!(
        cols.to(Device::cpu()).unwrap().to_vec::<f32>().unwrap(),
        vec![(n / 2) as f32; 2]
    );
    let ramp = Tensor::arange(0.0, n as f64, 1.0, DType::Float32).unwrap();
    let (got, want) = (
        ramp.to(GPU).unwrap().max().unwrap().item::<f32>().unwrap(),
        (n - 1) as f32,
    );
    assert_eq!(got, want, "max sees the last element");
}
