//! Chapter 03 — data movement: `.to(device)`, `synchronize()`, pinned sources, and automatic
//! placement with a CPU fallback.
//!
//! The accelerator is a portable GPU through wgpu (Vulkan; Mesa's software driver where there
//! is no GPU). Work on it is queued; `synchronize()` waits, and reading a device tensor on the
//! host (`item`, printing, `to_vec`) synchronises first. `Device::auto()` picks the GPU when
//! it starts and falls back to the CPU — releasing the GPU's cache and warning once — when it
//! does not. Run with `CLIKA_RT_GPU_DISABLE=1` to see the fallback.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clika_rt::device::{memory_stats, release_cached_memory};
use clika_rt::storage::Deleter;
use clika_rt::tensor::format_g;
use clika_rt::{ops, BlobOptions, DType, Device, Result, Tensor};

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn main() -> Result<()> {
    println!("-- automatic placement");
    let dev = Device::auto().resolve();
    println!("Device::auto() resolves to {dev}");

    println!("-- moves");
    let x = Tensor::from_data(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    let xd = x.to(dev)?; // an upload when `dev` is a GPU; the same tensor on the CPU
    println!("x.to({dev}) is on {}", xd.device());
    // Queued on the device; nothing waits yet.
    let y = ops::relu(&(&(&xd * 2.0) - 5.0))?;
    y.synchronize()?; // waits for the device's queue (cheap on the CPU)
    println!("relu(2x - 5) on {}: {y}", y.device()); // printing reads back
    println!(
        "sum on {} = {}",
        y.device(),
        format_g(y.sum()?.item::<f64>()?)
    );
    let back = y.to(Device::cpu())?;
    println!("back on the CPU: {}", back.device());
    let t = xd.t(); // a strided view moves gathered, not refused
    println!("x.t() moved back: {}", t.to(Device::cpu())?);

    println!("-- pinned sources");
    // `pinned_for` tags memory you page-locked yourself; the runtime keeps a tagged source
    // alive until its copy completed, so an adopted buffer's deleter cannot run early.
    // `copy_to` is a real transfer everywhere (`to` would use the pages in place on a
    // unified-memory GPU, as the next part shows).
    let released = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&released);
    let buf = Box::into_raw(vec![0.25f32; 1024].into_boxed_slice()).cast::<f32>();
    let deleter = Deleter::new(move |p| {
        counter.fetch_add(1, Ordering::SeqCst);
        // SAFETY: `p` is `buf`, a boxed slice of 1024 floats; the runtime calls this once.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), 1024)) });
    });
    let options = BlobOptions {
        pinned_for: Some(dev),
        deleter: Some(deleter),
        ..BlobOptions::default()
    };
    // SAFETY: `buf` holds 1024 initialised floats, owned by the deleter from here on.
    let src =
        unsafe { Tensor::from_blob_with(buf.cast(), &[1024], None, DType::Float32, options)? };
    let moved = src.copy_to(dev)?;
    drop(src);
    moved.synchronize()?;
    println!(
        "pinned source copied; after synchronize its deleter ran {} time(s); sum = {}",
        released.load(Ordering::SeqCst),
        format_g(moved.sum()?.item::<f64>()?)
    );
    drop(moved);
    println!(
        "copy dropped: deleter ran {} time(s)",
        released.load(Ordering::SeqCst)
    );

    println!("-- moves in place on unified memory");
    // A GPU whose memory is host memory (an integrated GPU; lavapipe) imports the host pages
    // instead of copying them: nothing moves, nothing is reserved, and moving back returns
    // the same memory. Elsewhere (a discrete GPU) `to` copies. Timings go to stderr.
    let mut frame = vec![0.5f32; 64 << 20]; // 256 MiB
                                            // SAFETY: `frame` outlives every tensor over it (all dropped below); it is written
                                            // only between operations.
    let host =
        unsafe { Tensor::from_blob(frame.as_mut_ptr().cast(), &[64 << 20], DType::Float32)? };
    let before = memory_stats(dev);
    let start = std::time::Instant::now();
    let on = host.to(dev)?;
    let took_move = start.elapsed();
    let after = memory_stats(dev);
    let mib = |b: usize| b >> 20;
    if dev.is_cpu() {
        println!("256 MiB to {dev}: the same tensor");
    } else if after.imported_bytes > before.imported_bytes {
        println!(
            "256 MiB to {dev}: in place (imported {} MiB, reserved {} MiB more)",
            mib(after.imported_bytes - before.imported_bytes),
            mib(after.reserved_bytes - before.reserved_bytes)
        );
    } else {
        println!(
            "256 MiB to {dev}: copied (reserved {} MiB more)",
            mib(after.reserved_bytes.saturating_sub(before.reserved_bytes))
        );
    }
    frame[7] = 2.0;
    let seen = on.narrow(0, 7, 1)?.item::<f32>()? == 2.0;
    println!(
        "a write to the source is seen through the moved tensor: {}",
        yes(seen)
    );
    let same = on.to(Device::cpu())?.data_ptr() == frame.as_mut_ptr().cast();
    println!("moved back: the same memory: {}", yes(same));
    let start = std::time::Instant::now();
    let copied = host.copy_to(dev)?;
    copied.synchronize()?;
    let took_copy = start.elapsed();
    // New memory: a fresh host block, or the device pool's own.
    let fresh = if dev.is_cpu() {
        copied.data_ptr() != frame.as_mut_ptr().cast()
    } else {
        memory_stats(dev).active_bytes >= after.active_bytes + (256 << 20)
    };
    println!("copy_to gives new memory: {}", yes(fresh));
    eprintln!(
        "figures: to({dev}) {:.3} ms, copy_to({dev}) {:.1} ms",
        took_move.as_secs_f64() * 1e3,
        took_copy.as_secs_f64() * 1e3
    );
    drop((on, copied, host));

    println!("-- the device's own pool");
    drop((xd, y, t));
    println!(
        "{dev}: active {} bytes after the tensors dropped",
        memory_stats(dev).active_bytes
    );
    release_cached_memory(dev)?;
    println!(
        "{dev}: cached {} bytes after release_cached_memory",
        memory_stats(dev).cached_bytes
    );
    Ok(())
}
