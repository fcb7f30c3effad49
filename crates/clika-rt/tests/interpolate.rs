//! `interpolate` against direct per-output reference loops written here (PyTorch's
//! definitions: each output element sums its whole 2×2 or 4×4 neighbourhood, not the
//! runtime's separable passes), on contiguous, channels-last, sliced and broadcast inputs,
//! over random shapes and sizes (proptest); uint8 rounding; errors.

#[path = "support/lcg.rs"]
mod lcg;
use clika_rt::ops::{self, InterpolateMode, InterpolateOptions};
use clika_rt::{DType, Tensor};
use lcg::Lcg;
use proptest::prelude::*;

/// Deterministic values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Lcg::new(seed.wrapping_add(0x9E37_79B9_7F4A_7C15));
    (0..n).map(|_| rng.unit() * 2.0 - 1.0).collect()
}

/// PyTorch's source coordinate of output `j` (`area_pixel_compute_source_index`).
fn source(n_in: usize, n_out: usize, j: usize, align: bool, cubic: bool) -> f64 {
    if align {
        let s = if n_out > 1 {
            (n_in - 1) as f64 / (n_out - 1) as f64
        } else {
            0.0
        };
        return s * j as f64;
    }
    let v = n_in as f64 / n_out as f64 * (j as f64 + 0.5) - 0.5;
    if cubic || v >= 0.0 {
        v
    } else {
        0.0
    }
}

fn cubic(x: f64) -> f64 {
    let (a, x) = (-0.75, x.abs());
    if x < 1.0 {
        ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    } else if x < 2.0 {
        ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
    } else {
        0.0
    }
}

/// The neighbourhood of output `j`: `(input index, weight)`.
fn taps(n_in: usize, n_out: usize, j: usize, align: bool, bicubic: bool) -> Vec<(usize, f64)> {
    let real = source(n_in, n_out, j, align, bicubic);
    let last = n_in as i64 - 1;
    let i = (real.floor() as i64).min(last);
    let t = (real - i as f64).clamp(0.0, 1.0);
    if bicubic {
        (0..4)
            .map(|k| {
                let w = cubic(t + 1.0 - k as f64);
                ((i - 1 + k).clamp(0, last) as usize, w)
            })
            .collect()
    } else {
        let i1 = if i < last { i + 1 } else { i };
        vec![(i as usize, 1.0 - t), (i1 as usize, t)]
    }
}

/// PyTorch's bilinear/bicubic `[N, C, H, W]` → `[N, C, oh, ow]`, one output at a time; `x` is
/// dense row-major.
fn reference(
    x: &[f64],
    shape: [usize; 4],
    oh: usize,
    ow: usize,
    align: bool,
    bicubic: bool,
) -> Vec<f64> {
    let [n, c, h, w] = shape;
    let mut out = Vec::with_capacity(n * c * oh * ow);
    for plane in 0..n * c {
        for y in 0..oh {
            for xo in 0..ow {
                let mut acc = 0.0;
                for (iy, wy) in taps(h, oh, y, align, bicubic) {
                    for (ix, wx) in taps(w, ow, xo, align, bicubic) {
                        acc += wy * wx * x[(plane * h + iy) * w + ix];
                    }
                }
                out.push(acc);
            }
        }
    }
    out
}

fn opts(oh: usize, ow: usize, mode: InterpolateMode, align: bool) -> InterpolateOptions {
    InterpolateOptions {
        align_corners: align,
        ..InterpolateOptions::size(&[oh, ow], mode)
    }
}

fn assert_close(got: &Tensor, want: &[f64], tol: f64) {
    let got: Vec<f64> = got.to_dtype(DType::Float64).unwrap().to_vec().unwrap();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "element {i}: {g} vs {w}"
        );
    }
}

#[test]
fn align_corners_bilinear_is_exact_on_a_ramp() {
    let x = Tensor::from_vec(vec![0.0f32, 1.0, 2.0, 3.0], &[1, 1, 2, 2]).unwrap();
    let y = ops::interpolate(&x, &opts(3, 3, InterpolateMode::Linear, true)).unwrap();
    let v: Vec<f32> = y.to_vec().unwrap();
    assert_eq!(v, [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.5, 3.0]);
}

#[test]
fn channels_last_views_are_read_in_place_and_stay_channels_last() {
    let (n, h, w, c) = (2, 7, 9, 3);
    let data = values(n * h * w * c, 3);
    let nhwc = Tensor::from_vec(data.clone(), &[n, h, w, c]).unwrap();
    let x = nhwc.permute(&[0, 3, 1, 2]).unwrap();
    let y = ops::interpolate(&x, &opts(4, 5, InterpolateMode::Bicubic, false)).unwrap();
    assert_eq!(y.shape(), &[n, c, 4, 5]);
    assert_eq!(
        y.strides()[1],
        1,
        "channels stay innermost: {:?}",
        y.strides()
    );
    // The reference reads the same values in NCHW order.
    let nchw: Vec<f64> = x.contiguous().unwrap().to_vec().unwrap();
    assert_close(
        &y,
        &reference(&nchw, [n, c, h, w], 4, 5, false, true),
        1e-12,
    );
}

/// The two resized dims with the channels between them in memory (an NHCW or NWCH view):
/// each row of the first pass holds one block of the second's rows per channel.
#[test]
fn channels_between_the_resized_dims() {
    let (n, c, h, w) = (2, 3, 7, 9);
    let data = values(n * c * h * w, 6);
    // Memory order `[n, h, c, w]` and `[n, w, c, h]`, both viewed as NCHW.
    for (stored, perm) in [([n, h, c, w], [0, 2, 1, 3]), ([n, w, c, h], [0, 2, 3, 1])] {
        let x = Tensor::from_vec(data.clone(), &stored)
            .unwrap()
            .permute(&perm)
            .unwrap();
        let nchw: Vec<f64> = x.contiguous().unwrap().to_vec().unwrap();
        for (oh, ow, bicubic) in [(4, 13, false), (11, 5, true)] {
            let mode = if bicubic {
                InterpolateMode::Bicubic
            } else {
                InterpolateMode::Linear
            };
            let want = reference(&nchw, [n, c, h, w], oh, ow, false, bicubic);
            let y = ops::interpolate(&x, &opts(oh, ow, mode, false)).unwrap();
            assert_close(&y, &want, 1e-12);
            let x32 = x.to_dtype(DType::Float32).unwrap();
            let y = ops::interpolate(&x32, &opts(oh, ow, mode, false)).unwrap();
            assert_close(&y, &want, 2e-5);
        }
    }
}

#[test]
fn sliced_and_broadcast_inputs() {
    let base = Tensor::from_vec(values(2 * 3 * 12 * 10, 4), &[2, 3, 12, 10]).unwrap();
    let crop = base.narrow(2, 1, 9).unwrap().narrow(3, 2, 7).unwrap();
    let dense: Vec<f64> = crop.contiguous().unwrap().to_vec().unwrap();
    let y = ops::interpolate(&crop, &opts(5, 11, InterpolateMode::Linear, false)).unwrap();
    assert_close(
        &y,
        &reference(&dense, [2, 3, 9, 7], 5, 11, false, false),
        1e-12,
    );
    let plane = Tensor::from_vec(values(6 * 5, 5), &[1, 1, 6, 5]).unwrap();
    let wide = plane.expand(&[2, 3, 6, 5]).unwrap();
    let y = ops::interpolate(&wide, &opts(3, 8, InterpolateMode::Linear, true)).unwrap();
    let dense: Vec<f64> = wide.contiguous().unwrap().to_vec().unwrap();
    assert_close(
        &y,
        &reference(&dense, [2, 3, 6, 5], 3, 8, true, false),
        1e-12,
    );
}

/// Halving the height or the width of a channels-last uint8 image (bilinear, two taps of
/// weight 1/2) gives exact halves: each rounds away from zero, as PyTorch's uint8 resize.
/// The height's pass sums whole rows (blocks of 32 and 8 elements and a ragged tail), the
/// width's sums pixels.
#[test]
fn channels_last_uint8_halves_round_away_from_zero() {
    let (h, w) = (6, 2 * 37);
    for c in [3, 4] {
        let data: Vec<u8> = values(h * w * c, 23)
            .iter()
            .map(|v| ((v + 1.0) * 127.9) as u8)
            .collect();
        let nhwc = Tensor::from_vec(data.clone(), &[1, h, w, c]).unwrap();
        let x = nhwc.permute(&[0, 3, 1, 2]).unwrap();
        let at = |r: usize, x: usize, k: usize| u32::from(data[(r * w + x) * c + k]);
        for (oh, ow) in [(h / 2, w), (h, w / 2)] {
            let y = ops::interpolate(&x, &opts(oh, ow, InterpolateMode::Linear, false)).unwrap();
            let got: Vec<u8> = y
                .permute(&[0, 2, 3, 1])
                .unwrap()
                .contiguous()
                .unwrap()
                .to_vec()
                .unwrap();
            for r in 0..oh {
                for j in 0..ow {
                    for k in 0..c {
                        let want = if oh < h {
                            at(2 * r, j, k) + at(2 * r + 1, j, k)
                        } else {
                            at(r, 2 * j, k) + at(r, 2 * j + 1, k)
                        }
                        .div_ceil(2);
                        let g = got[(r * ow + j) * c + k];
                        assert_eq!(
                            u32::from(g),
                            want,
                            "{c} channels, {oh}x{ow}: row {r}, pixel {j}, channel {k}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn uint8_rounds_and_saturates() {
    // Bicubic overshoots at a sharp edge: the result saturates at 0 and 255.
    let row: Vec<u8> = [0u8, 0, 255, 255, 0, 0].repeat(6);
    let x = Tensor::from_vec(row.clone(), &[1, 1, 6, 6]).unwrap();
    let y = ops::interpolate(&x, &opts(6, 13, InterpolateMode::Bicubic, false)).unwrap();
    assert_eq!(y.dtype(), DType::UInt8);
    let got: Vec<u8> = y.to_vec().unwrap();
    let xf: Vec<f64> = row.iter().map(|&v| f64::from(v)).collect();
    let want = reference(&xf, [1, 1, 6, 6], 6, 13, false, true);
    assert!(want.iter().any(|&v| v < -0.5) && want.iter().any(|&v| v > 255.5));
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(*g, w.round().clamp(0.0, 255.0) as u8, "{w}");
    }
}

#[test]
fn empty_batches_and_errors() {
    let x = Tensor::zeros(&[0, 3, 4, 4], DType::Float32).unwrap();
    let y = ops::interpolate(&x, &opts(2, 3, InterpolateMode::Linear, false)).unwrap();
    assert_eq!(y.shape(), &[0, 3, 2, 3]);
    let x = Tensor::zeros(&[1, 1, 4, 4], DType::Float32).unwrap();
    let err = |o: InterpolateOptions| ops::interpolate(&x, &o).unwrap_err().to_string();
    assert!(err(InterpolateOptions::size(&[], InterpolateMode::Nearest)).contains("exactly one"));
    assert!(err(InterpolateOptions::size(
        &[1, 2, 3],
        InterpolateMode::Nearest
    ))
    .contains("1 or 2"));
    assert!(err(InterpolateOptions::scale(&[0.1], InterpolateMode::Nearest)).contains("positive"));
    assert!(err(opts(2, 2, InterpolateMode::Area, true)).contains("linear and bicubic"));
    let ints = Tensor::zeros(&[1, 1, 4, 4], DType::Int32).unwrap();
    let e = ops::interpolate(&ints, &opts(2, 2, InterpolateMode::Linear, false)).unwrap_err();
    assert!(e.to_string().contains("to_dtype"), "{e}");
    // The nearest modes move any dtype as it is.
    let ints = Tensor::from_vec(vec![1i32, 2, 3, 4], &[1, 1, 2, 2]).unwrap();
    let y = ops::interpolate(&ints, &opts(2, 4, InterpolateMode::Nearest, false)).unwrap();
    assert_eq!(y.to_vec::<i32>().unwrap(), [1, 1, 2, 2, 3, 3, 4, 4]);
    let e = InterpolateMode::for_input("bilinear", 3).unwrap_err();
    assert!(e.to_string().contains("4-D"), "{e}");
    assert!(InterpolateMode::for_input("cubic", 4).is_err());
}

/// The widest input drawn: past two of the row kernel's 32-element blocks, so rows of whole
/// blocks and a ragged tail are both summed (narrower under Miri).
const WIDTH: usize = if cfg!(miri) { 9 } else { 80 };

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 48 }))]
    #[test]
    fn random_shapes_match_the_reference(
        n in 1usize..3, c in 1usize..3, h in 1usize..9, w in 1usize..WIDTH,
        oh in 1usize..12, ow in 1usize..12, align: bool, bicubic: bool, transpose: bool,
    ) {
        let data = values(n * c * h * w, (h * 16 + w) as u64);
        let x = if transpose {
            Tensor::from_vec(data, &[n, c, w, h]).unwrap().permute(&[0, 1, 3, 2]).unwrap()
        } else {
            Tensor::from_vec(data, &[n, c, h, w]).unwrap()
        };
        let dense: Vec<f64> = x.contiguous().unwrap().to_vec().unwrap();
        let mode = if bicubic { InterpolateMode::Bicubic } else { InterpolateMode::Linear };
        let y = ops::interpolate(&x, &opts(oh, ow, mode, align)).unwrap();
        assert_close(&y, &reference(&dense, [n, c, h, w], oh, ow, align, bicubic), 1e-12);
        let y32 = ops::interpolate(&x.to_dtype(DType::Float32).unwrap(), &opts(oh, ow, mode, align))
            .unwrap();
        assert_close(&y32, &reference(&dense, [n, c, h, w], oh, ow, align, bicubic), 2e-5);
    }
}

/// Antialiased and area shrinks have many taps per output: where rows are short and dense
/// (the innermost dim, or a channels-last image's pixels) each output sums a window of rows
/// in vector lanes, elsewhere taps are gathered one by one. Both forms agree, in float and
/// uint8, whichever pass order the plan takes, for pixels of one to four channels (each
/// folds its window's lanes its own way).
#[test]
fn wide_filters_agree_between_windowed_and_gathered_layouts() {
    let channels: &[usize] = if cfg!(miri) { &[3] } else { &[2, 3, 4] };
    for &c in channels {
        windowed_and_gathered_agree(c);
    }
}

fn windowed_and_gathered_agree(c: usize) {
    let (n, h, w) = (1, 11, if cfg!(miri) { 40 } else { 150 });
    let data = values(n * c * h * w * 2, 17);
    let bytes: Vec<u8> = data.iter().map(|v| (v * 120.0 + 128.0) as u8).collect();
    // Every other column (the width's rows are not dense, so its pass gathers), the same
    // values dense (windows of one element per row) and channels-last (three).
    let layouts = |wide: Tensor| {
        let gathered = wide.slice(3, Some(0), None, 2).unwrap();
        let dense = gathered.contiguous().unwrap();
        let nhwc = dense
            .permute(&[0, 2, 3, 1])
            .unwrap()
            .contiguous()
            .unwrap()
            .permute(&[0, 3, 1, 2])
            .unwrap();
        [gathered, dense, nhwc]
    };
    let floats = layouts(
        Tensor::from_vec(data, &[n, c, h, w * 2])
            .unwrap()
            .to_dtype(DType::Float32)
            .unwrap(),
    );
    let u8s = layouts(Tensor::from_vec(bytes, &[n, c, h, w * 2]).unwrap());
    let modes = [
        (InterpolateMode::Linear, true, [4, 9]),
        (InterpolateMode::Bicubic, true, [5, 13]),
        (InterpolateMode::Area, false, [3, 7]),
        (InterpolateMode::Linear, true, [h, 5]),
        // Few taps (no window form): channels-last pixels are summed as vectors.
        (InterpolateMode::Linear, false, [5, 97]),
        (InterpolateMode::Bicubic, false, [h, 61]),
        // Antialiased shrinks by 1.5 and 2.3: four and five taps, summed as vectors too.
        (InterpolateMode::Linear, true, [h, 97]),
        (InterpolateMode::Linear, true, [h, 65]),
    ];
    // Under Miri the first two: the windowed and gathered passes are the same for all.
    for &(mode, antialias, size) in &modes[..if cfg!(miri) { 2 } else { modes.len() }] {
        let o = InterpolateOptions {
            antialias,
            ..InterpolateOptions::size(&size, mode)
        };
        let want: Vec<f64> = ops::interpolate(&floats[0], &o)
            .unwrap()
            .to_dtype(DType::Float64)
            .unwrap()
            .to_vec()
            .unwrap();
        let bytes_of = |x: &Tensor| -> Vec<u8> {
            let y = ops::interpolate(x, &o).unwrap();
            y.contiguous().unwrap().to_vec().unwrap()
        };
        let want_u8 = bytes_of(&u8s[0]);
        for k in 1..3 {
            assert_close(&ops::interpolate(&floats[k], &o).unwrap(), &want, 1e-5);
            // Summation order differs: a value at a rounding boundary may land either side.
            let got = bytes_of(&u8s[k]);
            assert!(
                got.iter().zip(&want_u8).all(|(a, b)| a.abs_diff(*b) <= 1),
                "{mode:?} to {size:?} (antialias {antialias}) uint8, {c} channels, layout {k}"
            );
        }
    }
}
