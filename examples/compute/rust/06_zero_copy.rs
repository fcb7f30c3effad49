//! Chapter 06 — zero copy: memory someone else owns becomes a tensor without a copy.
//!
//! * borrow: `from_blob` views your buffer; you keep ownership and must keep it alive;
//! * adopt: `from_blob_adopted` takes ownership with a deleter that runs exactly once, when
//!   the last tensor or view over the memory drops;
//! * strided: a region of a pitched image is viewed in place with the image's row pitch;
//! * move: `from_vec` moves a `Vec` into a tensor (the safe way to hand memory over in Rust);
//! * processes: a producer puts frames in a shared segment (`share_memory`) and a consumer
//!   process (this program re-run, the segment's descriptor as its stdin) maps the same pages
//!   with `from_fd`: no copy, and what it writes the producer sees (docs/processes.md).

use std::os::fd::{AsFd, BorrowedFd};
use std::process::{Command, Stdio};
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

/// Errors of the runtime and of the operating system (spawning the consumer).
type AnyResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> AnyResult<()> {
    if std::env::args().nth(1).as_deref() == Some(CONSUMER_ARG) {
        return consumer().map_err(Into::into);
    }
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
    drop(moved);
    processes()
}

const FRAMES: usize = 3;
const FRAME_BYTES: usize = 6 * std::mem::size_of::<f32>();
const CONSUMER_ARG: &str = "--consumer";

/// The producer: frames in one shared segment, a consumer process over the same pages.
fn processes() -> AnyResult<()> {
    println!("-- processes: a producer hands frames to a consumer process, zero copy");
    // Frame k of 2x3 float32 holds 10k + 0..5.
    let values: Vec<f32> = (0..FRAMES * 6)
        .map(|i| ((i / 6) * 10 + i % 6) as f32)
        .collect();
    let original = values.clone();
    let frames = Tensor::from_vec(values, &[FRAMES, 2, 3])?.share_memory()?;
    println!("producer: {FRAMES} frames of 2x3 float32 in one shared segment");
    let region = frames
        .shared_region()
        .expect("share_memory gives a shared tensor");
    // SAFETY: `region.fd` is the segment's descriptor, owned by `frames`, which outlives
    // this borrow (it is only duplicated here).
    let segment = unsafe { BorrowedFd::borrow_raw(region.fd) }.try_clone_to_owned()?;
    // The consumer is this program again; the segment's descriptor is its stdin. Lines
    // printed so far are flushed (stdout is line-buffered), and the producer writes nothing
    // to the frames until the consumer has exited.
    let status = Command::new(std::env::current_exe()?)
        .arg(CONSUMER_ARG)
        .stdin(Stdio::from(segment))
        .status()?;
    let written = frames.to_vec::<f32>()?;
    let firsts: Vec<String> = (0..FRAMES)
        .map(|k| format_g(f64::from(written[k * 6])))
        .collect();
    println!(
        "producer: frame[0, 0] after the consumer wrote each sum there: {}",
        firsts.join(", ")
    );
    // Each first element now holds the frame's original sum: the consumer's writes landed.
    let same =
        (0..FRAMES).all(|k| written[k * 6] == original[k * 6..k * 6 + 6].iter().sum::<f32>());
    println!(
        "same pages, nothing copied: {}",
        yes(status.success() && same)
    );
    Ok(())
}

/// The consumer: each frame mapped from the inherited descriptor, summed, and the sum
/// written into its first element, in the producer's pages.
fn consumer() -> Result<()> {
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    for k in 0..FRAMES {
        // SAFETY: the segment is sealed against resizing (nobody can truncate it), and the
        // producer neither reads nor writes the frames until this process has exited.
        let mut frame = unsafe {
            Tensor::from_fd(
                fd,
                (k * FRAME_BYTES) as u64,
                DType::Float32,
                &[2, 3],
                None,
                false,
            )?
        };
        let total = ops::sum(&frame)?.item::<f64>()?;
        let mean = ops::mean(&frame)?.item::<f64>()?;
        frame.as_mut_slice::<f32>()?[0] = total as f32;
        println!(
            "consumer: frame {k} sum = {}, mean = {}",
            format_g(total),
            format_g(mean)
        );
    }
    Ok(())
}
