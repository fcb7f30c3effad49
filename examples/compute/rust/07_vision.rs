//! Chapter 07 — a vision pipeline: a decoder's frame to a classification, without a copy.
//!
//! * wrap: the decoder owns a pitched NV12 frame (each row padded to 384 bytes); the tensor
//!   views it in place, with the pitch as its row stride;
//! * weights: a small convolutional network's safetensors file is mapped, not read;
//! * pipeline: NV12 -> RGB, an antialiased bilinear resize of the uint8 frame to 64x64, a
//!   fused normalize to float32 NCHW, three convolutions, pooling, a linear layer, softmax;
//! * the answer is compared with PyTorch's for the same frame (`examples/compute/data/
//!   make_vision_net.py` wrote both the weights and PyTorch's answers);
//! * frame 2 is decoded into the same buffer: the same tensor sees it, and the pool serves the
//!   whole second frame from the blocks the first one gave back.

use std::collections::HashMap;
use std::path::PathBuf;

use clika_rt::device::memory_stats;
use clika_rt::ops::{
    self, ColorConversion, ConvOptions, InterpolateMode, InterpolateOptions, Padding, PoolOptions,
    YuvMatrix, YuvRange,
};
use clika_rt::{io, DType, Device, Result, Tensor};

const W: usize = 320;
const H: usize = 240;
const PITCH: usize = 384;
const SIDE: usize = 64;
const MEAN: [f32; 3] = [0.485, 0.456, 0.406];
const STD: [f32; 3] = [0.229, 0.224, 0.225];
const CLASSES: [&str; 10] = [
    "plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck",
];

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The "decoder": writes frame `k` into its own buffer (rows of `PITCH` bytes).
fn decode(buf: &mut [u8], k: usize) {
    for r in 0..H {
        for c in 0..W {
            buf[r * PITCH + c] = (16 + (r * (5 + 2 * k) + c * (3 + 4 * k) + 17 * k) % 200) as u8;
        }
    }
    for r in 0..H / 2 {
        for c in 0..W / 2 {
            let row = (H + r) * PITCH;
            buf[row + 2 * c] = (96 + (r * 5 + c * 3 + 31 * k) % 64) as u8;
            buf[row + 2 * c + 1] = (96 + (r * 2 + c * 7 + 13 * k) % 64) as u8;
        }
    }
}

fn conv(x: &Tensor, w: &HashMap<String, Tensor>, name: &str, stride: usize) -> Result<Tensor> {
    let opts = ConvOptions {
        stride: vec![stride],
        padding: Padding::Explicit(vec![1]),
        ..ConvOptions::default()
    };
    let y = ops::conv2d(
        x,
        &w[&format!("{name}.weight")],
        Some(&w[&format!("{name}.bias")]),
        &opts,
    )?;
    ops::relu(&y)
}

fn classify(frame: &Tensor, w: &HashMap<String, Tensor>) -> Result<Tensor> {
    let rgb = ops::cvt_color(
        frame,
        ColorConversion::Nv12ToRgb,
        YuvMatrix::Bt601,
        YuvRange::Limited,
    )?; // (H, W, 3) uint8
    let mut resize = InterpolateOptions::size(&[SIDE, SIDE], InterpolateMode::Linear);
    resize.antialias = true;
    let small = ops::interpolate(&rgb.permute(&[2, 0, 1])?.unsqueeze(0)?, &resize)?;
    let x = ops::normalize_image(&small.permute(&[0, 2, 3, 1])?, &MEAN, &STD)?; // (1, 3, 64, 64)
    let pool = PoolOptions::new(2);
    let x = ops::max_pool2d(&conv(&x, w, "conv1", 1)?, &pool)?;
    let x = ops::max_pool2d(&conv(&x, w, "conv2", 1)?, &pool)?;
    let x = conv(&x, w, "conv3", 2)?;
    let x = ops::adaptive_avg_pool2d(&x, &[1, 1])?.flatten(1, -1)?;
    let logits = ops::linear(&x, &w["fc.weight"], Some(&w["fc.bias"]))?;
    ops::softmax(&logits, 1)?.select(0, 0)
}

fn report(probs: &Tensor, reference: &[(i64, f64)]) -> Result<()> {
    let top = probs.topk(5, -1, true, true)?;
    let classes = top.indices.to_vec::<i64>()?;
    let values = top.values.to_vec::<f32>()?;
    let line: Vec<String> = classes
        .iter()
        .zip(&values)
        .map(|(&i, &p)| format!("{} {:.3}", CLASSES[i as usize], p))
        .collect();
    println!("top-5: {}", line.join(", "));
    let agree = classes
        .iter()
        .zip(&values)
        .zip(reference)
        .all(|((&i, &p), &(j, q))| i == j && (f64::from(p) - q).abs() < 5e-3);
    println!(
        "same classes as PyTorch, probabilities within 0.005: {}",
        yes(agree)
    );
    Ok(())
}

/// PyTorch's answers: per frame, the top-5 as (class, probability).
fn reference(path: &PathBuf) -> HashMap<usize, Vec<(i64, f64)>> {
    let text =
        std::fs::read_to_string(path).expect("vision_net_reference.txt is in the repository");
    text.lines()
        .map(|line| {
            let (head, rest) = line.split_once(": ").expect("frame K: class:p ...");
            let k = head["frame ".len()..].parse().expect("a frame number");
            let top = rest
                .split_whitespace()
                .map(|p| {
                    let (c, v) = p.split_once(':').expect("class:probability");
                    (
                        c.parse().expect("a class"),
                        v.parse().expect("a probability"),
                    )
                })
                .collect();
            (k, top)
        })
        .collect()
}

fn main() -> Result<()> {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data");
    let reference = reference(&data.join("vision_net_reference.txt"));

    println!("-- wrap: a pitched NV12 frame ({W}x{H}, row pitch {PITCH}) that the decoder owns");
    let mut buf = vec![0u8; H * 3 / 2 * PITCH]; // the decoder's buffer
    let base = buf.as_mut_ptr();
    // SAFETY: the shape and strides reach rows 0..H*3/2 of PITCH bytes, columns 0..W, all
    // inside `buf`, which outlives `frame`; `buf` is written below only through `base` while
    // no runtime operation reads the frame (the decoder runs between frames).
    let frame = unsafe {
        Tensor::from_blob_strided(base, &[H * 3 / 2, W], &[PITCH as isize, 1], DType::UInt8)?
    };
    println!(
        "frame tensor {:?} uint8, strides {:?}, data is the decoder's buffer: {}",
        frame.shape(),
        frame.strides(),
        yes(frame.data_ptr() == base)
    );

    println!("-- weights: mapped from vision_net.safetensors");
    let before = memory_stats(Device::cpu()).active_bytes;
    // SAFETY: the file is part of the repository and nothing truncates or rewrites it while
    // the mapping lives (the mapping contract of `io::load_safetensors`).
    let weights: HashMap<String, Tensor> =
        unsafe { io::load_safetensors(data.join("vision_net.safetensors"))? }
            .into_iter()
            .collect();
    let params: usize = weights.values().map(Tensor::numel).sum();
    println!(
        "{} tensors, {params} parameters, pool memory taken: {} bytes",
        weights.len(),
        memory_stats(Device::cpu()).active_bytes - before
    );

    let mut s1 = memory_stats(Device::cpu());
    for k in [1, 2] {
        if k == 1 {
            println!("-- frame 1");
        } else {
            println!("-- frame 2, decoded into the same buffer");
            s1 = memory_stats(Device::cpu());
        }
        // SAFETY: `base` points at `buf`'s H*3/2*PITCH bytes; no tensor operation is running.
        decode(
            unsafe { std::slice::from_raw_parts_mut(base, H * 3 / 2 * PITCH) },
            k,
        );
        let probs = classify(&frame, &weights)?;
        report(&probs, &reference[&k])?;
    }
    let s2 = memory_stats(Device::cpu());
    let allocs = s2.allocation_count - s1.allocation_count;
    println!(
        "frame 2: new memory reserved from the system: {}, every allocation served from the pool's cache: {}",
        s2.os_reserve_count - s1.os_reserve_count,
        yes(allocs > 0 && s2.cache_hit_count - s1.cache_hit_count == allocs)
    );
    drop(frame);
    drop(buf);
    Ok(())
}
