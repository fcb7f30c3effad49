//! `cvt_color` against float references written here (the textbook BT.601/BT.709 formulas,
//! rounded to nearest and saturated): within 1 of them for every YUV layout, matrix and
//! range, on contiguous and pitched frames; the RGB conversions exactly.

#[path = "support/frames.rs"]
mod frames;
use clika_rt::ops::{self, ColorConversion as C, YuvMatrix, YuvRange};
use clika_rt::{DType, Tensor};
use frames::bytes;
use proptest::prelude::*;

/// The float YUV → RGB of one pixel.
fn ref_rgb(y: u8, u: u8, v: u8, m: YuvMatrix, r: YuvRange) -> [f64; 3] {
    let (kr, kb) = match m {
        YuvMatrix::Bt601 => (0.299, 0.114),
        YuvMatrix::Bt709 => (0.2126, 0.0722),
    };
    let kg = 1.0 - kr - kb;
    let (ys, cs, off) = match r {
        YuvRange::Limited => (255.0 / 219.0, 255.0 / 224.0, 16.0),
        YuvRange::Full => (1.0, 1.0, 0.0),
    };
    let yy = ys * (f64::from(y) - off).max(0.0);
    let (u, v) = (cs * (f64::from(u) - 128.0), cs * (f64::from(v) - 128.0));
    let c = |t: f64| t.round().clamp(0.0, 255.0);
    [
        c(yy + 2.0 * (1.0 - kr) * v),
        c(yy - 2.0 * kb * (1.0 - kb) / kg * u - 2.0 * kr * (1.0 - kr) / kg * v),
        c(yy + 2.0 * (1.0 - kb) * u),
    ]
}

/// A `(rows, w)` frame of `data` whose rows are pitched to `w + pad` bytes.
fn pitched(data: &[u8], rows: usize, w: usize, pad: usize) -> Tensor {
    let mut buf = vec![0u8; rows * (w + pad)];
    for r in 0..rows {
        buf[r * (w + pad)..][..w].copy_from_slice(&data[r * w..][..w]);
    }
    let t = Tensor::from_vec(buf, &[rows, w + pad]).unwrap();
    t.narrow(1, 0, w).unwrap()
}

/// The (Y, U, V) of output pixel (y, x), read from the packed data.
type PixelFn = Box<dyn Fn(usize, usize) -> (u8, u8, u8)>;

/// Max |got - want| over a YUV conversion of an `h`×`w` frame.
fn yuv_case(conv: C, h: usize, w: usize, pad: usize, m: YuvMatrix, r: YuvRange, seed: u64) -> f64 {
    let bgr = matches!(conv, C::Nv12ToBgr | C::I420ToBgr | C::YuyvToBgr);
    let (x, pixel): (Tensor, PixelFn) = match conv {
        C::YuyvToRgb | C::YuyvToBgr => {
            let d = bytes(h * w * 2, seed);
            let t = pitched(&d, h, w * 2, pad * 2).reshape(&[h as isize, w as isize, 2]);
            let t = t.unwrap_or_else(|_| {
                pitched(&d, h, w * 2, 0)
                    .reshape(&[h as isize, w as isize, 2])
                    .unwrap()
            });
            let d2 = d.clone();
            (
                t,
                Box::new(move |y, xx| {
                    let b = y * w * 2 + xx / 2 * 4;
                    (d2[y * w * 2 + xx * 2], d2[b + 1], d2[b + 3])
                }),
            )
        }
        _ => {
            let d = bytes(h * 3 / 2 * w, seed);
            let t = pitched(&d, h * 3 / 2, w, pad);
            let nv12 = matches!(conv, C::Nv12ToRgb | C::Nv12ToBgr);
            let d2 = d.clone();
            (
                t,
                Box::new(move |y, xx| {
                    let yv = d2[y * w + xx];
                    if nv12 {
                        let c = h * w + (y / 2) * w + xx / 2 * 2;
                        (yv, d2[c], d2[c + 1])
                    } else {
                        let (uo, vo) = (h * w, h * w + (h / 2) * (w / 2));
                        let c = (y / 2) * (w / 2) + xx / 2;
                        (yv, d2[uo + c], d2[vo + c])
                    }
                }),
            )
        }
    };
    let got = ops::cvt_color(&x, conv, m, r).unwrap();
    assert_eq!(got.shape(), [h, w, 3]);
    let g = got.to_vec::<u8>().unwrap();
    let mut worst: f64 = 0.0;
    for y in 0..h {
        for xx in 0..w {
            let (yv, u, v) = pixel(y, xx);
            let mut want = ref_rgb(yv, u, v, m, r);
            if bgr {
                want.reverse();
            }
            for k in 0..3 {
                worst = worst.max((f64::from(g[(y * w + xx) * 3 + k]) - want[k]).abs());
            }
        }
    }
    worst
}

#[test]
fn rgb_swaps_and_gray_match_opencv_rounding() {
    let d = bytes(5 * 7 * 3, 1);
    let x = Tensor::from_vec(d.clone(), &[5, 7, 3]).unwrap();
    let bgr = ops::cvt_color(&x, C::RgbToBgr, YuvMatrix::Bt601, YuvRange::Limited).unwrap();
    let b = bgr.to_vec::<u8>().unwrap();
    for i in 0..35 {
        assert_eq!(
            [b[i * 3], b[i * 3 + 1], b[i * 3 + 2]],
            [d[i * 3 + 2], d[i * 3 + 1], d[i * 3]]
        );
    }
    let gray = ops::cvt_color(&x, C::RgbToGray, YuvMatrix::Bt601, YuvRange::Full).unwrap();
    assert_eq!(gray.shape(), [5, 7]);
    let gb = ops::cvt_color(&bgr, C::BgrToGray, YuvMatrix::Bt601, YuvRange::Full).unwrap();
    let (g, g2) = (gray.to_vec::<u8>().unwrap(), gb.to_vec::<u8>().unwrap());
    assert_eq!(g, g2);
    for i in 0..35 {
        let f = 0.299 * f64::from(d[i * 3])
            + 0.587 * f64::from(d[i * 3 + 1])
            + 0.114 * f64::from(d[i * 3 + 2]);
        assert!(
            (f64::from(g[i]) - f).abs() <= 0.5 + 1e-3,
            "{i}: {} vs {f}",
            g[i]
        );
    }
    // A flipped (negative-stride) frame is read in place.
    let f = ops::cvt_color(
        &x.flip(&[2]).unwrap(),
        C::RgbToBgr,
        YuvMatrix::Bt601,
        YuvRange::Full,
    );
    assert_eq!(f.unwrap().to_vec::<u8>().unwrap(), d);
}

#[test]
fn yuv_conversions_within_one_of_the_float_formulas() {
    for conv in [
        C::Nv12ToRgb,
        C::Nv12ToBgr,
        C::I420ToRgb,
        C::I420ToBgr,
        C::YuyvToRgb,
        C::YuyvToBgr,
    ] {
        for m in [YuvMatrix::Bt601, YuvMatrix::Bt709] {
            for r in [YuvRange::Limited, YuvRange::Full] {
                for (h, w, pad) in [
                    (2, 2, 0),
                    (6, 10, 0),
                    (6, 10, 6),
                    (10, 8, 3),
                    (0, 4, 0),
                    (4, 70, 5),
                ] {
                    let d = yuv_case(conv, h, w, pad, m, r, (h * 31 + w) as u64);
                    assert!(d <= 1.0, "{conv:?} {m:?} {r:?} {h}x{w}+{pad}: off by {d}");
                }
            }
        }
    }
}

/// Rows of 32 pixels and more are converted in blocks (vectorised where the CPU has AVX2),
/// narrower crops pixel pair by pixel pair: the two agree exactly.
#[test]
fn blocks_and_pairs_agree_exactly() {
    let (h, w, crop) = (4, 100, 20);
    for conv in [C::Nv12ToRgb, C::Nv12ToBgr, C::YuyvToRgb, C::YuyvToBgr] {
        let x = if matches!(conv, C::YuyvToRgb | C::YuyvToBgr) {
            Tensor::from_vec(bytes(h * w * 2, 7), &[h, w, 2])
        } else {
            Tensor::from_vec(bytes(h * 3 / 2 * w, 7), &[h * 3 / 2, w])
        }
        .unwrap();
        for (m, r) in [
            (YuvMatrix::Bt601, YuvRange::Limited),
            (YuvMatrix::Bt709, YuvRange::Full),
        ] {
            let wide = ops::cvt_color(&x, conv, m, r).unwrap();
            for start in (0..w as isize).step_by(crop) {
                let part = ops::cvt_color(&x.narrow(1, start, crop).unwrap(), conv, m, r);
                let want = wide.narrow(1, start, crop).unwrap();
                assert_eq!(
                    part.unwrap().to_vec::<u8>().unwrap(),
                    want.contiguous().unwrap().to_vec::<u8>().unwrap(),
                    "{conv:?} {m:?} {r:?}, pixels {start}.."
                );
            }
        }
    }
}

#[test]
fn cvt_color_errors_name_the_fix() {
    let e = |x: Tensor, c| {
        ops::cvt_color(&x, c, YuvMatrix::Bt601, YuvRange::Limited)
            .unwrap_err()
            .to_string()
    };
    let s = e(
        Tensor::zeros(&[4, 4, 3], DType::Float32).unwrap(),
        C::RgbToBgr,
    );
    assert!(s.contains("must be uint8"), "{s}");
    let s = e(
        Tensor::zeros(&[4, 4, 4], DType::UInt8).unwrap(),
        C::RgbToGray,
    );
    assert!(s.contains("(H, W, 3)"), "{s}");
    let s = e(Tensor::zeros(&[5, 4], DType::UInt8).unwrap(), C::Nv12ToRgb);
    assert!(s.contains("(H * 3 / 2, W)"), "{s}");
    let s = e(
        Tensor::zeros(&[4, 3, 2], DType::UInt8).unwrap(),
        C::YuyvToRgb,
    );
    assert!(s.contains("W even"), "{s}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 32 }))]
    #[test]
    fn yuv_random_sizes(hh in 0usize..12, ww in 1usize..12, pad in 0usize..5, k in 0usize..6,
                        m709: bool, full: bool, seed in 0u64..1000) {
        let conv = [C::Nv12ToRgb, C::Nv12ToBgr, C::I420ToRgb, C::I420ToBgr, C::YuyvToRgb, C::YuyvToBgr][k];
        let m = if m709 { YuvMatrix::Bt709 } else { YuvMatrix::Bt601 };
        let r = if full { YuvRange::Full } else { YuvRange::Limited };
        prop_assert!(yuv_case(conv, hh * 2, ww * 2, pad, m, r, seed) <= 1.0);
    }
}
