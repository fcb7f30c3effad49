//! Host memory used in place by a unified-memory GPU (`VK_EXT_external_memory_host`):
//! `.to("gpu:0")` aliases the host pages, `.to("cpu")` gives them back, the owner is released
//! once after the last use, read-only memory stays read-only, and the copy paths stay where
//! the import cannot apply. Lavapipe (CI's GPU) is a unified-memory device with the
//! extension, so there every alias assertion must hold; on other drivers the aliasing cases
//! print a message and return. `CLIKA_RT_GPU_IMPORT=off` (the Makefile's second GPU run)
//! makes every case check the copy path instead.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use clika_rt::device::memory_stats;
use clika_rt::ops::UnaryOp;
use clika_rt::{ops, BlobOptions, DType, Deleter, Device, Tensor};

const GPU: Device = Device::gpu(0);

/// The GPU, exclusively (tests read its counters), and whether every aligned move must
/// alias there (lavapipe with the import on); `None` (with a message) without a driver.
fn gpu() -> Option<(MutexGuard<'static, ()>, bool)> {
    static ONE: Mutex<()> = Mutex::new(());
    if let Err(e) = GPU.ensure_available() {
        eprintln!("skipping: {e}");
        return None;
    }
    let guard = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let mode = std::env::var("CLIKA_RT_GPU_IMPORT").unwrap_or_default();
    let off = mode == "off" || mode == "pinned";
    let name = clika_rt::backend::device_name(GPU).unwrap();
    let must = name.contains("llvmpipe") && !off;
    let (_, aliased) = moved(&Tensor::zeros(&[4096], DType::Float32).unwrap());
    if off {
        assert!(
            !aliased,
            "CLIKA_RT_GPU_IMPORT={mode} must turn the aliasing off"
        );
    }
    if !aliased {
        eprintln!("{name}: moves copy here; checking the copy path");
    }
    Some((guard, must))
}

/// `t` moved to the GPU, and whether the move used its memory in place.
fn moved(t: &Tensor) -> (Tensor, bool) {
    let before = memory_stats(GPU).imported_bytes;
    let on = t.to(GPU).unwrap();
    (on, memory_stats(GPU).imported_bytes > before)
}

/// Waits for everything queued on the GPU.
fn sync() {
    let t = Tensor::zeros(&[1], DType::Float32)
        .unwrap()
        .copy_to(GPU)
        .unwrap();
    t.synchronize().unwrap();
}

fn floats(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32 * 0.25 - 7.0).collect()
}

#[test]
fn a_move_to_the_gpu_uses_the_host_pages_and_a_move_back_returns_them() {
    let Some((_g, must)) = gpu() else { return };
    // 64 MiB of float32 in a Vec the test owns, borrowed.
    let n = 16 << 20;
    let mut data = floats(n);
    // SAFETY: `data` outlives every tensor over it (all dropped before the end of the test),
    // and is written below only between operations.
    let host =
        unsafe { Tensor::from_blob(data.as_mut_ptr().cast(), &[n], DType::Float32) }.unwrap();
    let before = memory_stats(GPU);
    let (on, aliases) = moved(&host);
    assert!(aliases || !must);
    let during = memory_stats(GPU);
    if aliases {
        assert_eq!(
            during.reserved_bytes, before.reserved_bytes,
            "no pool memory"
        );
        assert_eq!(during.active_bytes, before.active_bytes);
        assert!(during.imported_bytes >= before.imported_bytes + n * 4);
    } else {
        assert!(during.active_bytes >= before.active_bytes + n * 4);
    }
    // Kernels read it: the GPU's result equals the CPU's.
    let want = ops::unary(
        UnaryOp::Exp,
        &ops::unary(UnaryOp::Neg, &ops::mul(&host, &host).unwrap()).unwrap(),
    )
    .unwrap();
    let got = ops::unary(
        UnaryOp::Exp,
        &ops::unary(UnaryOp::Neg, &ops::mul(&on, &on).unwrap()).unwrap(),
    )
    .unwrap();
    let (got, want) = (got.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
    assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-6));
    // The same memory: a write to the source shows through the moved tensor (aliasing), or
    // does not (copy).
    data[12345] = 1000.0;
    let seen = on.narrow(0, 12345, 1).unwrap().to_vec::<f32>().unwrap()[0];
    if aliases {
        assert_eq!(seen, 1000.0);
        let back = on.to(Device::cpu()).unwrap();
        assert_eq!(
            back.data_ptr(),
            data.as_mut_ptr().cast(),
            "the host view, not a copy"
        );
        // `copy_to` always copies.
        let copied = on.copy_to(Device::cpu()).unwrap();
        assert_ne!(copied.data_ptr(), data.as_mut_ptr().cast());
        assert_eq!(copied.to_vec::<f32>().unwrap()[12345], 1000.0);
    } else {
        assert_eq!(seen, floats(n)[12345]);
    }
    drop((on, host));
    sync();
    assert_eq!(memory_stats(GPU).imported_bytes, before.imported_bytes);
}

#[test]
fn strided_offset_and_flipped_views_move_with_their_layout() {
    let Some((_g, must)) = gpu() else { return };
    let base = Tensor::from_vec(floats(64 * 48), &[64, 48]).unwrap();
    let views = [
        base.slice(0, Some(3), Some(60), 2).unwrap(),
        base.slice(1, Some(5), None, 3).unwrap().t(),
        base.flip(&[0]).unwrap().narrow(1, 4, 20).unwrap(),
    ];
    for v in &views {
        let (on, aliases) = moved(v);
        assert!(aliases || !must);
        assert_eq!(on.shape(), v.shape());
        let doubled = ops::add(&on, &on).unwrap().to_vec::<f32>().unwrap();
        let want = ops::add(v, v).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(doubled, want);
        let back = on.to(Device::cpu()).unwrap();
        assert_eq!(back.to_vec::<f32>().unwrap(), v.to_vec::<f32>().unwrap());
        if aliases {
            assert_eq!(back.strides(), v.strides());
            assert_eq!(back.data_ptr(), v.data_ptr());
        }
    }
}

#[test]
fn the_owner_is_released_once_after_the_last_device_tensor_and_its_queued_work() {
    let Some((_g, must)) = gpu() else { return };
    let n = 1 << 20;
    let calls = Arc::new(AtomicUsize::new(0));
    let boxed: Box<[f32]> = floats(n).into_boxed_slice();
    let ptr = Box::into_raw(boxed).cast::<f32>();
    let counter = Arc::clone(&calls);
    let deleter = Deleter::new(move |p| {
        counter.fetch_add(1, Ordering::SeqCst);
        // SAFETY: `p` is the pointer `Box::into_raw` returned for `n` floats.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), n)) });
    });
    let options = BlobOptions {
        deleter: Some(deleter),
        ..BlobOptions::default()
    };
    // SAFETY: `ptr` owns `n` initialised floats, handed to the deleter.
    let host =
        unsafe { Tensor::from_blob_with(ptr.cast(), &[n as i64], None, DType::Float32, options) }
            .unwrap();
    let (on, aliases) = moved(&host);
    assert!(aliases || !must);
    drop(host);
    let sum = on.sum().unwrap(); // queued work reading the pages
    let view = on.narrow(0, 10, 100).unwrap();
    drop(on);
    if aliases {
        assert_eq!(
            calls.load(Ordering::SeqCst),
            0,
            "a view still uses the pages"
        );
    }
    drop(view);
    if aliases {
        // The reduction may still be queued: the pages outlive it.
        let _ = sum.to_vec::<f32>().unwrap();
    }
    sync();
    assert_eq!(calls.load(Ordering::SeqCst), 1, "released exactly once");
    drop(sum);
    sync();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn memory_lent_read_only_is_never_written_through_the_moved_tensor() {
    let Some((_g, must)) = gpu() else { return };
    let mut data = floats(4096);
    let options = BlobOptions {
        read_only: true,
        ..BlobOptions::default()
    };
    // SAFETY: `data` outlives the tensors; nothing writes it.
    let host = unsafe {
        Tensor::from_blob_with(
            data.as_mut_ptr().cast(),
            &[4096],
            None,
            DType::Float32,
            options,
        )
    }
    .unwrap();
    let (mut on, aliases) = moved(&host);
    assert!(aliases || !must);
    if aliases {
        let err = on.fill_(0.0).unwrap_err();
        assert!(err.to_string().contains("read-only"), "{err}");
        let one = Tensor::full(&[], 1.0, DType::Float32)
            .unwrap()
            .to(GPU)
            .unwrap();
        assert!(on.add_(&one).is_err());
    } else {
        on.fill_(0.0).unwrap(); // a copy is the runtime's own memory
    }
    on.synchronize().unwrap();
    assert_eq!(data, floats(4096));
}

#[test]
fn in_place_operations_write_the_host_pages_where_the_user_asked() {
    let Some((_g, must)) = gpu() else { return };
    let one = Tensor::full(&[], 1.5, DType::Float32)
        .unwrap()
        .to(GPU)
        .unwrap();
    let mut data = floats(4096);
    // SAFETY: `data` outlives the tensors and is read only after they are synchronised.
    let host =
        unsafe { Tensor::from_blob(data.as_mut_ptr().cast(), &[4096], DType::Float32) }.unwrap();
    let (mut on, aliases) = moved(&host);
    assert!(aliases || !must);
    on.add_(&one).unwrap();
    on.synchronize().unwrap();
    drop((on, host));
    // A tensor starting one float into the buffer: on the device it sits at an element
    // offset inside its binding, and the kernel's store honours it.
    // SAFETY: as above; 8 floats from element 1 are inside `data`.
    let inner = unsafe { Tensor::from_blob(data.as_mut_ptr().add(1).cast(), &[8], DType::Float32) }
        .unwrap();
    let (mut on, _) = moved(&inner);
    on.mul_(&one).unwrap();
    on.synchronize().unwrap();
    drop((on, inner));
    let mut want: Vec<f32> = floats(4096).iter().map(|v| v + 1.5).collect();
    if aliases {
        for v in &mut want[1..9] {
            *v *= 1.5;
        }
    }
    if aliases {
        assert_eq!(data, want);
    } else {
        assert_eq!(
            data[9..],
            floats(4096)[9..],
            "a copy leaves the source alone"
        );
    }
    // A uint8 tensor of 4k + 3 bytes: the kernels' whole-word stores would reach 1 byte past
    // it, so an in-place write into the pages is refused (reads work).
    let mut bytes: Vec<u8> = (0..4099u32).map(|i| i as u8).collect();
    let guard = bytes.clone();
    // SAFETY: `bytes` outlives the tensors.
    let host = unsafe { Tensor::from_blob(bytes.as_mut_ptr(), &[4098], DType::UInt8) }.unwrap();
    let (mut on, aliases) = moved(&host);
    assert!(aliases || !must);
    let as_float = |t: &Tensor| t.to_dtype(DType::Float32).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(as_float(&on), as_float(&host));
    let r = on.fill_(9.0);
    if aliases {
        let err = r.unwrap_err();
        assert!(
            err.to_string().contains("ends inside a 4-byte word"),
            "{err}"
        );
    } else {
        r.unwrap();
    }
    on.synchronize().unwrap();
    drop((on, host));
    assert_eq!(bytes, guard);
}

#[test]
fn empty_tensors_and_copy_to_take_the_copy_path() {
    let Some((_g, _must)) = gpu() else { return };
    let before = memory_stats(GPU);
    let empty = Tensor::zeros(&[0, 3], DType::Float32)
        .unwrap()
        .to(GPU)
        .unwrap();
    assert_eq!(empty.shape(), &[0, 3]);
    let host = Tensor::from_vec(floats(4096), &[64, 64]).unwrap();
    let copied = host.copy_to(GPU).unwrap();
    assert_eq!(memory_stats(GPU).imported_bytes, before.imported_bytes);
    assert!(memory_stats(GPU).active_bytes >= before.active_bytes + 4096 * 4);
    assert_eq!(
        copied.to_vec::<f32>().unwrap(),
        host.to_vec::<f32>().unwrap()
    );
}

#[test]
fn a_pinned_source_is_copied_by_the_gpu_straight_from_its_pages() {
    let Some((_g, must)) = gpu() else { return };
    let off = std::env::var("CLIKA_RT_GPU_IMPORT").is_ok_and(|v| v == "off");
    let data = floats(1 << 16);
    let mut buf = data.clone();
    let options = BlobOptions {
        pinned_for: Some(GPU),
        ..BlobOptions::default()
    };
    // SAFETY: `buf` outlives the copy (synchronised below before it is dropped).
    let src = unsafe {
        Tensor::from_blob_with(
            buf.as_mut_ptr().cast(),
            &[1 << 16],
            None,
            DType::Float32,
            options,
        )
    }
    .unwrap();
    let before = memory_stats(GPU).imported_bytes;
    // `copy_to`: a real transfer even on this unified device, as on a discrete one.
    let on = src.copy_to(GPU).unwrap();
    let in_flight = memory_stats(GPU).imported_bytes;
    if must || (!off && std::env::var("CLIKA_RT_GPU_IMPORT").is_ok_and(|v| v == "pinned")) {
        assert!(in_flight > before, "the copy reads the imported pages");
    }
    on.synchronize().unwrap();
    sync();
    assert_eq!(
        memory_stats(GPU).imported_bytes,
        before,
        "released after the copy"
    );
    assert_eq!(on.to_vec::<f32>().unwrap(), data);
    drop(src);
}
