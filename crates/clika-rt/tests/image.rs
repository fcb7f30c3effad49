//! The image entry points against naive loops written here: `normalize_image` on
//! contiguous, pitched (padded rows), flipped and broadcast uint8 frames, batched and not,
//! over random sizes (proptest), and its errors.

#[path = "support/frames.rs"]
mod frames;
use clika_rt::ops;
use clika_rt::{DType, Tensor};
use frames::bytes;
use proptest::prelude::*;

/// `(x / 255 - mean[c]) / std[c]` of the NHWC frame `x` (read element by element through
/// its strides), as NCHW, in float32 as written.
fn reference(x: &Tensor, mean: &[f32], std: &[f32]) -> Vec<f32> {
    let x4 = if x.ndim() == 3 {
        x.unsqueeze(0).unwrap()
    } else {
        x.clone()
    };
    let s = x4.shape().to_vec();
    let dense = x4.contiguous().unwrap().to_vec::<u8>().unwrap();
    let mut out = Vec::with_capacity(dense.len());
    for n in 0..s[0] {
        for c in 0..s[3] {
            for y in 0..s[1] {
                for xi in 0..s[2] {
                    let v = dense[((n * s[1] + y) * s[2] + xi) * s[3] + c];
                    let (m, sd) = (mean[c % mean.len()], std[c % std.len()]);
                    out.push((f32::from(v) / 255.0 - m) / sd);
                }
            }
        }
    }
    out
}

fn check(x: &Tensor, mean: &[f32], std: &[f32]) {
    let got = ops::normalize_image(x, mean, std).unwrap();
    let s = x.shape();
    let want_shape: Vec<usize> = if s.len() == 3 {
        vec![s[2], s[0], s[1]]
    } else {
        vec![s[0], s[3], s[1], s[2]]
    };
    assert_eq!(got.shape(), want_shape);
    assert_eq!(got.dtype(), DType::Float32);
    assert!(got.is_contiguous());
    let g = got.to_vec::<f32>().unwrap();
    let w = reference(x, mean, std);
    assert_eq!(g.len(), w.len());
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!(a.to_bits() == b.to_bits(), "element {i}: got {a}, want {b}");
    }
}

const MEAN: [f32; 3] = [0.485, 0.456, 0.406];
const STD: [f32; 3] = [0.229, 0.224, 0.225];

#[test]
fn normalize_image_contiguous_batched_and_single_value() {
    let x = Tensor::from_vec(bytes(2 * 5 * 7 * 3, 1), &[2, 5, 7, 3]).unwrap();
    check(&x, &MEAN, &STD);
    let x = Tensor::from_vec(bytes(5 * 7 * 3, 2), &[5, 7, 3]).unwrap();
    check(&x, &MEAN, &STD);
    check(&x, &[0.5], &[0.25]);
    // All 256 values, one channel.
    let x = Tensor::from_vec((0..=255u8).collect(), &[16, 16, 1]).unwrap();
    check(&x, &[0.1], &[0.3]);
    let xt = x.reshape(&[16, 16]).unwrap().t().contiguous().unwrap();
    check(&xt.reshape(&[16, 16, 1]).unwrap(), &[0.0], &[1.0]);
}

#[test]
fn normalize_image_pitched_flipped_and_broadcast_views() {
    // A pitched frame: rows of 9 pixels padded to 12 (stride 36 bytes), read in place.
    let full = Tensor::from_vec(bytes(2 * 6 * 12 * 3, 3), &[2, 6, 12, 3]).unwrap();
    let pitched = full.narrow(2, 1, 9).unwrap();
    assert!(!pitched.is_contiguous());
    check(&pitched, &MEAN, &STD);
    check(&pitched.select(0, 1).unwrap(), &MEAN, &STD);
    // BGR read as RGB by a flipped channel dim (negative stride), and a flipped frame.
    check(&full.flip(&[3]).unwrap(), &MEAN, &STD);
    check(&full.flip(&[1, 2]).unwrap(), &MEAN, &STD);
    // A planar frame viewed as HWC, and one pixel broadcast over the frame (zero strides).
    let planar = Tensor::from_vec(bytes(3 * 4 * 5, 4), &[3, 4, 5]).unwrap();
    check(&planar.permute(&[1, 2, 0]).unwrap(), &MEAN, &STD);
    let px = Tensor::from_vec(vec![10u8, 128, 250], &[1, 1, 3]).unwrap();
    check(&px.expand(&[4, 6, 3]).unwrap(), &MEAN, &STD);
}

#[test]
fn normalize_image_empty_frames() {
    for shape in [[0usize, 4, 3], [4, 0, 3], [4, 4, 0]] {
        let x = Tensor::zeros(&shape, DType::UInt8).unwrap();
        let mean: &[f32] = if shape[2] == 0 { &[0.5] } else { &MEAN };
        let got = ops::normalize_image(&x, mean, &[1.0]).unwrap();
        assert_eq!(got.shape(), [shape[2], shape[0], shape[1]]);
    }
    let x = Tensor::zeros(&[0, 4, 4, 3], DType::UInt8).unwrap();
    assert_eq!(
        ops::normalize_image(&x, &MEAN, &STD).unwrap().shape(),
        [0, 3, 4, 4]
    );
}

#[test]
fn normalize_image_errors_name_the_fix() {
    let err =
        |x: &Tensor, m: &[f32], s: &[f32]| ops::normalize_image(x, m, s).unwrap_err().to_string();
    let x = Tensor::zeros(&[4, 4, 3], DType::UInt8).unwrap();
    let e = err(&x.to_dtype(DType::Float32).unwrap(), &MEAN, &STD);
    assert!(e.contains("uint8") && e.contains("Float32"), "{e}");
    let e = err(&x, &MEAN[..2], &STD);
    assert!(
        e.contains("mean has 2 values") && e.contains("3 channels"),
        "{e}"
    );
    let e = err(&x, &MEAN, &[0.2, 0.0, 0.2]);
    assert!(e.contains("std[1] is 0") && e.contains("non-zero"), "{e}");
    let e = err(&x, &[f32::NAN], &STD);
    assert!(e.contains("mean[0] is NaN"), "{e}");
    let e = err(&Tensor::zeros(&[4, 3], DType::UInt8).unwrap(), &MEAN, &STD);
    assert!(e.contains("(H, W, C) or (N, H, W, C)"), "{e}");
    // The method form is the function.
    assert_eq!(x.normalize_image(&MEAN, &STD).unwrap().shape(), [3, 4, 4]);
}

/// The largest frame side drawn (smaller under Miri, which checks the unsafe row walk).
const SIDE: usize = if cfg!(miri) { 12 } else { 40 };

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 64 }))]
    #[test]
    fn normalize_image_random_frames(
        n in 0usize..3, h in 0usize..SIDE, w in 1usize..SIDE, c in 1usize..5, pad in 0usize..7,
        batched: bool, seed in 0u64..1000,
    ) {
        let full = Tensor::from_vec(bytes(n.max(1) * h * (w + pad) * c, seed), &[n.max(1), h, w + pad, c]).unwrap();
        let x = full.narrow(2, 0, w).unwrap();
        let x = if batched { x.narrow(0, 0, n).unwrap() } else { x.select(0, 0).unwrap() };
        let mean: Vec<f32> = (0..c).map(|i| 0.1 * i as f32 + 0.3).collect();
        let std: Vec<f32> = (0..c).map(|i| 0.05 * i as f32 + 0.2).collect();
        check(&x, &mean, &std);
    }
}

#[test]
#[cfg_attr(miri, ignore = "a 64x1920 frame takes many minutes under Miri")]
fn normalize_image_large_frame_runs_in_parallel_rows() {
    // Above the parallel threshold: 64 rows of 1920 pixels, pitched to 2048.
    let full = Tensor::from_vec(bytes(64 * 2048 * 3, 9), &[64, 2048, 3]).unwrap();
    let x = full.narrow(1, 0, 1920).unwrap();
    check(&x, &MEAN, &STD);
}
