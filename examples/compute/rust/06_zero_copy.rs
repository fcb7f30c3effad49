//! Chapter 06 — zero copy: memory someone else owns becomes a tensor without a copy.
//!
//! * borrow: `from_blob` views your buffer; you keep ownership and must keep it alive;
//! * adopt: `from_blob_adopted` takes ownership with a deleter that runs exactly once, when
//!   the last tensor or view over the memory drops;
//! * strided: a region of a pitched image is viewed in place with the image's row pitch;
//! * move: `from_vec` moves a `Vec` into a tensor (the safe way to hand memory over in Rust).

use std::sync::atomic::{AtomicUsize, Ordering};

use clika_rt::tensor::format_g;
use clika_rt::{ops, DType, Result, Tensor};

static DELETER_CALLS: AtomicUsize = AtomicUsize::new(0);

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn main() -> Result<()> {
    println!("-- borrow: your buffer, viewed in place");
    let mut frame: Vec<f32> = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let frame_ptr = frame.as_mut_ptr();
    {
        // SAFETY: `frame` holds 6 initialised floats, outlives `t` (dropped at the end of this
        // block) and is neither resized nor touched through another path while `t` lives.
        let t = unsafe { Tensor::from_blob(frame_ptr.cast(), &[2, 3], DType::Float32)? };
        println!(
            "tensor data is the buffer: {}",
            yes(t.data_ptr() == frame_ptr.cast())
        );
        println!(
            "owner: {:?}, sum = {}",
            t.owner_kind(),
            format_g(ops::sum(&t)?.item::<f64>()?)
        );
        // The buffer is the tensor's memory: a write through one is seen through the other.
        // SAFETY: `t` points at `frame`'s first float; nothing else accesses it meanwhile.
        unsafe { *t.data_ptr().cast::<f32>() = 100.0 };
    }
    println!(
        "after writing through the tensor, buffer[0] = {}",
        format_g(f64::from(frame[0]))
    );

    println!("-- adopt: ownership handed over with a deleter");
    let raw = Box::into_raw(vec![0.5f32; 4].into_boxed_slice()).cast::<f32>();
    let deleter = |p: *mut u8| {
        DELETER_CALLS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: `p` is the pointer `Box::into_raw` returned for 4 floats, passed back once.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), 4)) });
    };
    // SAFETY: `raw` owns 4 initialised floats; the tensor takes that ownership, and the
    // deleter rebuilds and drops that very box exactly once.
    let adopted = unsafe { Tensor::from_blob_adopted(raw.cast(), &[4], DType::Float32, deleter)? };
    let view = adopted.narrow(0, 1, 2)?;
    println!(
        "owner: {:?}, mean = {}",
        adopted.owner_kind(),
        format_g(ops::mean(&adopted)?.item::<f64>()?)
    );
    drop(adopted);
    println!(
        "tensor dropped, a view lives: deleter calls = {}",
        DELETER_CALLS.load(Ordering::SeqCst)
    );
    drop(view);
    println!(
        "last view dropped: deleter calls = {}",
        DELETER_CALLS.load(Ordering::SeqCst)
    );

    println!("-- strided: a region of a pitched image, in place");
    // A 4x6 image, row-major: pixel (r, c) = r*10 + c. The 2x3 region at (1, 2) is viewed with
    // the image's row pitch (6) as its row stride.
    let mut image: Vec<f32> = (0..24).map(|i| ((i / 6) * 10 + i % 6) as f32).collect();
    // SAFETY: every element the shape and strides reach (offsets 8..=16) lies inside `image`,
    // which outlives `roi`.
    let roi = unsafe {
        Tensor::from_blob_strided(
            image[8..].as_mut_ptr().cast(),
            &[2, 3],
            &[6, 1],
            DType::Float32,
        )?
    };
    println!("roi = {roi}");
    println!(
        "roi strides {:?}, contiguous {}, sum = {}",
        roi.strides(),
        yes(roi.is_contiguous()),
        format_g(ops::sum(&roi)?.item::<f64>()?)
    );
    drop(roi);

    println!("-- move: a Vec becomes a tensor, no copy");
    let v: Vec<i32> = (1..=6).collect();
    let addr = v.as_ptr();
    let moved = Tensor::from_vec(v, &[3, 2])?;
    println!(
        "same memory: {}, owner: {:?}, {moved}",
        yes(moved.const_data_ptr() == addr.cast()),
        moved.owner_kind()
    );
    Ok(())
}
