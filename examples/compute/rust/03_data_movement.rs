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
    let moved = src.to(dev)?;
    drop(src);
    moved.synchronize()?;
    println!(
        "pinned source moved; after synchronize its deleter ran {} time(s) (0 while it is the same tensor on the CPU); sum = {}",
        released.load(Ordering::SeqCst),
        format_g(moved.sum()?.item::<f64>()?)
    );
    drop(moved);
    println!(
        "moved tensor dropped: deleter ran {} time(s)",
        released.load(Ordering::SeqCst)
    );

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
