//! Convolutions, pooling, `linear` and `pad` against naive reference loops written here
//! (PyTorch's definitions), on contiguous, transposed and sliced inputs, over random shapes,
//! strides, paddings, dilations and groups (proptest).

#[path = "support/lcg.rs"]
mod lcg;
use clika_rt::ops::{self, ConvOptions, PadMode, Padding, PoolOptions};
use clika_rt::{DType, Device, Tensor};
use lcg::Lcg;
use proptest::prelude::*;

/// Deterministic values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Lcg::new(seed);
    rng.next_u64(); // the seed is mixed by one step first
    (0..n).map(|_| rng.unit() * 2.0 - 1.0).collect()
}

fn tensor(shape: &[usize], seed: u64) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_vec(values(n, seed), shape).unwrap()
}

/// Element `idx` of `t` read through its strides.
fn get(t: &[f64], shape: &[usize], idx: &[usize]) -> f64 {
    let mut off = 0;
    for (d, &i) in idx.iter().enumerate() {
        off = off * shape[d] + i;
    }
    t[off]
}

/// PyTorch's conv2d, naively: x [N,C,H,W], w [O,C/g,KH,KW], pads (top, left, bottom, right).
#[allow(clippy::too_many_arguments)]
fn ref_conv2d(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    stride: [usize; 2],
    pad: [usize; 4],
    dil: [usize; 2],
    groups: usize,
) -> (Vec<f64>, Vec<usize>) {
    let (xs, wsh) = (x.shape().to_vec(), w.shape().to_vec());
    let (xv, wv) = (x.to_f64_vec().unwrap(), w.to_f64_vec().unwrap());
    let bv = b.map(|b| b.to_f64_vec().unwrap());
    let (n, h, wd) = (xs[0], xs[2], xs[3]);
    let (o, cg, kh, kw) = (wsh[0], wsh[1], wsh[2], wsh[3]);
    let ho = (h + pad[0] + pad[2] - dil[0] * (kh - 1) - 1) / stride[0] + 1;
    let wo = (wd + pad[1] + pad[3] - dil[1] * (kw - 1) - 1) / stride[1] + 1;
    let og = o / groups;
    let mut out = Vec::new();
    for ni in 0..n {
        for oi in 0..o {
            let gi = oi / og;
            for oy in 0..ho {
                for ox in 0..wo {
                    let mut s = bv.as_ref().map_or(0.0, |b| b[oi]);
                    for ci in 0..cg {
                        for ki in 0..kh {
                            for kj in 0..kw {
                                let iy = (oy * stride[0] + ki * dil[0]) as isize - pad[0] as isize;
                                let ix = (ox * stride[1] + kj * dil[1]) as isize - pad[1] as isize;
                                if iy < 0 || ix < 0 || iy >= h as isize || ix >= wd as isize {
                                    continue;
                                }
                                let xv =
                                    get(&xv, &xs, &[ni, gi * cg + ci, iy as usize, ix as usize]);
                                s += xv * get(&wv, &wsh, &[oi, ci, ki, kj]);
                            }
                        }
                    }
                    out.push(s);
                }
            }
        }
    }
    (out, vec![n, o, ho, wo])
}

fn assert_close(got: &Tensor, want: &[f64], shape: &[usize], tol: f64) {
    assert_eq!(got.shape(), shape);
    let g = got.to_f64_vec().unwrap();
    for (i, (a, b)) in g.iter().zip(want).enumerate() {
        assert!(
            (a - b).abs() <= tol * (1.0 + b.abs()),
            "element {i}: got {a}, want {b}"
        );
    }
}

#[test]
fn conv2d_matches_reference_on_views_with_groups_dilation_and_bias() {
    // A transposed (non-contiguous) input: [N, C, W, H] stored, viewed as [N, C, H, W].
    let x = tensor(&[2, 4, 7, 6], 1).transpose(2, 3).unwrap();
    assert!(!x.is_contiguous());
    let w = tensor(&[6, 2, 3, 2], 2);
    let b = tensor(&[6], 3);
    let opts = ConvOptions {
        stride: vec![2, 1],
        padding: Padding::Explicit(vec![1, 2]),
        dilation: vec![1, 2],
        groups: 2,
    };
    let got = ops::conv2d(&x, &w, Some(&b), &opts).unwrap();
    let (want, shape) = ref_conv2d(&x, &w, Some(&b), [2, 1], [1, 2, 1, 2], [1, 2], 2);
    assert_close(&got, &want, &shape, 1e-12);
    assert_eq!(got.dtype(), DType::Float64);
}

#[test]
fn conv2d_same_valid_depthwise_float32_and_unbatched() {
    let x = tensor(&[1, 3, 5, 6], 4).to_dtype(DType::Float32).unwrap();
    let w = tensor(&[3, 1, 4, 3], 5).to_dtype(DType::Float32).unwrap();
    let same = ConvOptions {
        padding: Padding::Same,
        groups: 3,
        ..ConvOptions::default()
    };
    let got = ops::conv2d(&x, &w, None, &same).unwrap();
    // kernel 4 high: total pad 3 -> 1 before, 2 after (PyTorch's split); width 3: 1 and 1.
    let (want, shape) = ref_conv2d(&x, &w, None, [1, 1], [1, 1, 2, 1], [1, 1], 3);
    assert_close(&got, &want, &shape, 1e-5);
    assert_eq!(got.shape(), &[1, 3, 5, 6]);
    assert_eq!(got.dtype(), DType::Float32);
    let valid = ConvOptions {
        padding: Padding::Valid,
        groups: 3,
        ..ConvOptions::default()
    };
    let x3 = x.select(0, 0).unwrap();
    let got = ops::conv2d(&x3, &w, None, &valid).unwrap();
    let (want, _) = ref_conv2d(&x, &w, None, [1, 1], [0; 4], [1, 1], 3);
    assert_close(&got, &want, &[3, 2, 4], 1e-5);
    // "same" with a stride is refused, naming the fix.
    let bad = ConvOptions {
        stride: vec![2],
        ..same
    };
    let e = ops::conv2d(&x, &w, None, &bad).unwrap_err().to_string();
    assert!(e.contains("stride 1"), "{e}");
}

#[test]
fn conv2d_one_by_one_and_empty_batch() {
    let x = tensor(&[2, 5, 3, 4], 6);
    let w = tensor(&[7, 5, 1, 1], 7);
    let got = ops::conv2d(&x, &w, None, &ConvOptions::default()).unwrap();
    let (want, shape) = ref_conv2d(&x, &w, None, [1, 1], [0; 4], [1, 1], 1);
    assert_close(&got, &want, &shape, 1e-12);
    let empty = Tensor::zeros(&[0, 5, 3, 4], DType::Float32).unwrap();
    let got = ops::conv2d(&empty, &w, None, &ConvOptions::default()).unwrap();
    assert_eq!(got.shape(), &[0, 7, 3, 4]);
}

#[test]
fn conv_errors_name_the_fix() {
    let x = tensor(&[1, 4, 5, 5], 8);
    let w = tensor(&[6, 3, 3, 3], 9);
    let e = ops::conv2d(&x, &w, None, &ConvOptions::default()).unwrap_err();
    assert!(e.to_string().contains("input channels"), "{e}");
    let opts = ConvOptions {
        groups: 3,
        ..ConvOptions::default()
    };
    let e = ops::conv2d(&x, &w, None, &opts).unwrap_err();
    assert!(e.to_string().contains("groups=3"), "{e}");
    let w = tensor(&[6, 4, 7, 7], 9);
    let e = ops::conv2d(&x, &w, None, &ConvOptions::default()).unwrap_err();
    assert!(
        e.to_string().contains("smaller than the dilated kernel"),
        "{e}"
    );
    let w = tensor(&[6, 4, 3, 3], 9);
    let bad_bias = tensor(&[5], 1);
    let e = ops::conv2d(&x, &w, Some(&bad_bias), &ConvOptions::default()).unwrap_err();
    assert!(e.to_string().contains("bias"), "{e}");
}

#[test]
fn conv1d_is_conv2d_of_height_one() {
    let x = tensor(&[2, 4, 11], 10);
    let w = tensor(&[6, 2, 3], 11);
    let b = tensor(&[6], 12);
    let opts = ConvOptions {
        stride: vec![2],
        padding: Padding::Explicit(vec![2]),
        dilation: vec![2],
        groups: 2,
    };
    let got = ops::conv1d(&x, &w, Some(&b), &opts).unwrap();
    let (want, shape) = ref_conv2d(
        &x.unsqueeze(2).unwrap(),
        &w.unsqueeze(2).unwrap(),
        Some(&b),
        [1, 2],
        [0, 2, 0, 2],
        [1, 2],
        2,
    );
    assert_close(&got, &want, &[shape[0], shape[1], shape[3]], 1e-12);
}

/// PyTorch's max/avg pooling, naively (ceil mode and the divisor rules included).
fn ref_pool(
    x: &Tensor,
    k: usize,
    s: usize,
    p: usize,
    ceil: bool,
    max: bool,
    include_pad: bool,
) -> (Vec<f64>, Vec<usize>) {
    let sh = x.shape().to_vec();
    let xv = x.to_f64_vec().unwrap();
    let size = |n: usize| {
        let room = n + 2 * p - k;
        let mut o = if ceil {
            room.div_ceil(s) + 1
        } else {
            room / s + 1
        };
        if ceil && (o - 1) * s >= n + p {
            o -= 1;
        }
        o
    };
    let (ho, wo) = (size(sh[2]), size(sh[3]));
    let mut out = Vec::new();
    for n in 0..sh[0] {
        for c in 0..sh[1] {
            for oy in 0..ho {
                for ox in 0..wo {
                    let (ys, xs) = (
                        (oy * s) as isize - p as isize,
                        (ox * s) as isize - p as isize,
                    );
                    let mut vals = Vec::new();
                    for y in ys..ys + k as isize {
                        for xx in xs..xs + k as isize {
                            if y >= 0 && xx >= 0 && y < sh[2] as isize && xx < sh[3] as isize {
                                vals.push(get(&xv, &sh, &[n, c, y as usize, xx as usize]));
                            }
                        }
                    }
                    if max {
                        out.push(vals.iter().cloned().fold(f64::NEG_INFINITY, f64::max));
                    } else {
                        let ye = (ys + k as isize).min((sh[2] + p) as isize);
                        let xe = (xs + k as isize).min((sh[3] + p) as isize);
                        let div = if include_pad {
                            ((ye - ys) * (xe - xs)) as f64
                        } else {
                            vals.len() as f64
                        };
                        out.push(vals.iter().sum::<f64>() / div);
                    }
                }
            }
        }
    }
    (out, vec![sh[0], sh[1], ho, wo])
}

#[test]
fn pooling_matches_reference_with_ceil_mode_and_padding() {
    // Under Miri one image of two channels: the windows' walk is the same.
    let (n, c) = if cfg!(miri) { (1, 2) } else { (2, 3) };
    let x = tensor(&[n, c, 9, 8], 13)
        .slice(2, Some(1), Some(9), 1)
        .unwrap();
    for (k, s, p, ceil) in [
        (2, 2, 0, false),
        (3, 2, 1, true),
        (3, 2, 0, true),
        (2, 1, 1, false),
    ] {
        let opts = PoolOptions {
            kernel: vec![k],
            stride: vec![s],
            padding: vec![p],
            dilation: vec![1],
            ceil_mode: ceil,
            count_include_pad: true,
        };
        let (want, shape) = ref_pool(&x, k, s, p, ceil, true, true);
        assert_close(&ops::max_pool2d(&x, &opts).unwrap(), &want, &shape, 0.0);
        for inc in [true, false] {
            let o = PoolOptions {
                count_include_pad: inc,
                ..opts.clone()
            };
            let (want, shape) = ref_pool(&x, k, s, p, ceil, false, inc);
            assert_close(&ops::avg_pool2d(&x, &o).unwrap(), &want, &shape, 1e-12);
        }
    }
    // Integers keep their dtype in max pooling.
    let xi = x.to_dtype(DType::Int32).unwrap();
    let got = ops::max_pool2d(&xi, &PoolOptions::new(2)).unwrap();
    assert_eq!(got.dtype(), DType::Int32);
    let e = ops::max_pool2d(
        &x,
        &PoolOptions {
            padding: vec![2],
            ..PoolOptions::new(3)
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("half the kernel"), "{e}");
}

#[test]
fn adaptive_avg_pool_uses_pytorch_windows() {
    let x = tensor(&[1, 2, 7, 5], 14);
    let got = ops::adaptive_avg_pool2d(&x, &[3, 2]).unwrap();
    let xv = x.to_f64_vec().unwrap();
    let mut want = Vec::new();
    for c in 0..2 {
        for oy in 0..3usize {
            for ox in 0..2usize {
                let (y0, y1) = (oy * 7 / 3, ((oy + 1) * 7).div_ceil(3));
                let (x0, x1) = (ox * 5 / 2, ((ox + 1) * 5).div_ceil(2));
                let mut s = 0.0;
                for y in y0..y1 {
                    for xx in x0..x1 {
                        s += get(&xv, &[1, 2, 7, 5], &[0, c, y, xx]);
                    }
                }
                want.push(s / ((y1 - y0) * (x1 - x0)) as f64);
            }
        }
    }
    assert_close(&got, &want, &[1, 2, 3, 2], 1e-12);
    let g = ops::adaptive_avg_pool2d(&x, &[1]).unwrap();
    let m = x.mean_dims(&[2, 3], true).unwrap().to_f64_vec().unwrap();
    assert_close(&g, &m, &[1, 2, 1, 1], 1e-12);
}

#[test]
fn linear_and_pad() {
    let x = tensor(&[3, 4], 15);
    let w = tensor(&[5, 4], 16);
    let b = tensor(&[5], 17);
    let got = ops::linear(&x, &w, Some(&b)).unwrap();
    let (xv, wv, bv) = (
        x.to_f64_vec().unwrap(),
        w.to_f64_vec().unwrap(),
        b.to_f64_vec().unwrap(),
    );
    let want: Vec<f64> = (0..15)
        .map(|i| {
            (0..4)
                .map(|k| xv[i / 5 * 4 + k] * wv[i % 5 * 4 + k])
                .sum::<f64>()
                + bv[i % 5]
        })
        .collect();
    assert_close(&got, &want, &[3, 5], 1e-12);

    let t = Tensor::arange(0.0, 4.0, 1.0, DType::Float32).unwrap();
    let f = |m, l, r, v| ops::pad(&t, &[l, r], m, v).unwrap().to_f64_vec().unwrap();
    assert_eq!(
        f(PadMode::Reflect, 3, 2, 0.0),
        [3., 2., 1., 0., 1., 2., 3., 2., 1.]
    );
    assert_eq!(
        f(PadMode::Replicate, 2, 1, 0.0),
        [0., 0., 0., 1., 2., 3., 3.]
    );
    assert_eq!(
        f(PadMode::Circular, 1, 2, 0.0),
        [3., 0., 1., 2., 3., 0., 1.]
    );
    assert_eq!(f(PadMode::Constant, 1, -2, 9.0), [9., 0., 1.]);
    let e = ops::pad(&t, &[4, 0], PadMode::Reflect, 0.0).unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
    // Two dims: (left, right) of the last, (top, bottom) of the one before.
    let m = Tensor::arange(0.0, 6.0, 1.0, DType::Float32)
        .unwrap()
        .view(&[2, 3])
        .unwrap();
    let got = ops::pad(&m, &[1, 0, 0, 1], PadMode::Constant, -1.0).unwrap();
    assert_eq!(
        got.to_f64_vec().unwrap(),
        [-1., 0., 1., 2., -1., 3., 4., 5., -1., -1., -1., -1.]
    );
}

/// `pad`'s reference: every output element read through the per-dim rule, from the input's
/// values in row-major order.
fn pad_reference(x: &Tensor, pads: &[isize], mode: PadMode, value: f64) -> (Vec<usize>, Vec<f64>) {
    let (shape, xv) = (x.shape().to_vec(), x.to_f64_vec().unwrap());
    let nd = shape.len();
    let mut pairs = vec![(0isize, 0isize); nd];
    for (i, p) in pads.chunks(2).enumerate() {
        pairs[nd - 1 - i] = (p[0], p[1]);
    }
    let out_shape: Vec<usize> = (0..nd)
        .map(|d| (shape[d] as isize + pairs[d].0 + pairs[d].1) as usize)
        .collect();
    let source = |d: usize, i: isize| -> Option<isize> {
        let n = shape[d] as isize;
        let s = i - pairs[d].0;
        match mode {
            PadMode::Constant => (0..n).contains(&s).then_some(s),
            PadMode::Reflect => Some(if s < 0 {
                -s
            } else if s >= n {
                2 * (n - 1) - s
            } else {
                s
            }),
            PadMode::Replicate => Some(s.clamp(0, n - 1)),
            PadMode::Circular => Some(s.rem_euclid(n)),
        }
    };
    let total: usize = out_shape.iter().product();
    let want = (0..total)
        .map(|e| {
            let (mut rem, mut flat, mut stride) = (e, 0isize, 1isize);
            for d in (0..nd).rev() {
                let i = (rem % out_shape[d]) as isize;
                rem /= out_shape[d];
                match source(d, i) {
                    Some(s) => flat += s * stride,
                    None => return value,
                }
                stride *= shape[d] as isize;
            }
            xv[flat as usize]
        })
        .collect();
    (out_shape, want)
}

/// `pad` in every mode over transposed, broadcast, flipped-offset and empty views, in 1-,
/// 2-, 4- and 8-byte dtypes, against [`pad_reference`].
#[test]
fn pad_modes_layouts_and_dtypes() {
    // Small integers: exact in every dtype below.
    let base =
        Tensor::from_vec((0..60).map(|i| (i * 7 % 23) as f32).collect(), &[3, 4, 5]).unwrap();
    let views: Vec<(&str, Tensor)> = vec![
        ("contiguous", base.clone()),
        ("transposed", base.transpose(0, 2).unwrap()),
        (
            "broadcast",
            base.narrow(0, 0, 1).unwrap().expand(&[3, -1, -1]).unwrap(),
        ),
        (
            "offset",
            base.narrow(1, 1, 3).unwrap().narrow(2, 2, 3).unwrap(),
        ),
        ("empty", base.narrow(0, 0, 0).unwrap()),
    ];
    let cases: [(PadMode, &[isize]); 7] = [
        (PadMode::Constant, &[2, 1, 0, 3]),
        (PadMode::Constant, &[-1, 1, 1, -1, 2, 0]),
        (PadMode::Reflect, &[2, 1, 1, 2]),
        (PadMode::Replicate, &[3, 0, 0, 2, 1, 1]),
        (PadMode::Circular, &[2, 2, 1, 0]),
        (PadMode::Reflect, &[0, 0, 1, 1]),
        (PadMode::Constant, &[]),
    ];
    // Under Miri, one case of each mode (each layout and element size still): minutes else.
    let cases: Vec<_> = if cfg!(miri) {
        [0, 2, 3, 4].map(|k| cases[k]).to_vec()
    } else {
        cases.to_vec()
    };
    for (name, v) in &views {
        for dtype in [DType::UInt8, DType::Float16, DType::Float32, DType::Int64] {
            let x = v.to_dtype(dtype).unwrap();
            for &(mode, pads) in &cases {
                if x.numel() == 0 && mode != PadMode::Constant {
                    continue; // a padded empty dim is refused outside the constant mode
                }
                let got = ops::pad(&x, pads, mode, 7.0).unwrap();
                let (shape, want) = pad_reference(&x, pads, mode, 7.0);
                assert_eq!(got.shape(), &shape[..], "{name} {dtype} {mode:?} {pads:?}");
                assert_eq!(got.dtype(), dtype);
                assert_eq!(
                    got.to_f64_vec().unwrap(),
                    want,
                    "{name} {dtype} {mode:?} {pads:?}"
                );
            }
        }
    }
    // A 0-d tensor pads nothing; an empty batch keeps its empty dim in every mode.
    let s = Tensor::from_data(&[5.0f32], &[]).unwrap();
    assert_eq!(
        ops::pad(&s, &[], PadMode::Reflect, 0.0)
            .unwrap()
            .item::<f32>()
            .unwrap(),
        5.0
    );
    let e = Tensor::zeros(&[0, 4], DType::Float32).unwrap();
    assert_eq!(
        ops::pad(&e, &[1, 1], PadMode::Reflect, 0.0)
            .unwrap()
            .shape(),
        [0, 6]
    );
}

#[test]
fn gpu_devices_refuse_naming_the_move() {
    // Only where a GPU backend can start; the CPU-only build refuses earlier.
    let Ok(x) = tensor(&[1, 1, 4, 4], 1).to(Device::gpu(0)) else {
        return;
    };
    let w = tensor(&[1, 1, 3, 3], 2).to(Device::gpu(0)).unwrap();
    let e = ops::conv2d(&x, &w, None, &ConvOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("to(\"cpu\")") || e.contains("cpu"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 48 }))]
    #[test]
    fn conv2d_random_geometry(
        n in 1usize..3, cg in 1usize..3, og in 1usize..3, groups in 1usize..4,
        h in 1usize..9, w in 1usize..9, kh in 1usize..4, kw in 1usize..4,
        sh in 1usize..3, sw in 1usize..3, ph in 0usize..3, pw in 0usize..3,
        dh in 1usize..3, dw in 1usize..3, bias: bool, transposed: bool, seed in 0u64..1000,
    ) {
        let c = cg * groups;
        prop_assume!(h + 2 * ph > dh * (kh - 1) && w + 2 * pw > dw * (kw - 1));
        let x = if transposed {
            tensor(&[n, c, w, h], seed).transpose(2, 3).unwrap()
        } else {
            tensor(&[n, c, h, w], seed)
        };
        let wt = tensor(&[og * groups, cg, kh, kw], seed + 1);
        let b = tensor(&[og * groups], seed + 2);
        let opts = ConvOptions {
            stride: vec![sh, sw],
            padding: Padding::Explicit(vec![ph, pw]),
            dilation: vec![dh, dw],
            groups,
        };
        let got = ops::conv2d(&x, &wt, bias.then_some(&b), &opts).unwrap();
        let (want, shape) =
            ref_conv2d(&x, &wt, bias.then_some(&b), [sh, sw], [ph, pw, ph, pw], [dh, dw], groups);
        assert_close(&got, &want, &shape, 1e-12);
    }
}

/// `x`, `w` and `b` as `float32`, convolved, against the `f64` reference of the same values.
#[allow(clippy::too_many_arguments)]
fn check_conv2d_f32(
    [n, c, h, w]: [usize; 4],
    o: usize,
    [kh, kw]: [usize; 2],
    stride: [usize; 2],
    pad: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
    bias: bool,
    seed: u64,
) {
    let f32 = |t: Tensor| t.to_dtype(DType::Float32).unwrap();
    // Rounded to float32 first, so the reference sees the same operands.
    let x = f32(tensor(&[n, c, h, w], seed));
    let wt = f32(tensor(&[o, c / groups, kh, kw], seed + 1));
    let b = f32(tensor(&[o], seed + 2));
    let opts = ConvOptions {
        stride: stride.to_vec(),
        padding: Padding::Explicit(pad.to_vec()),
        dilation: dilation.to_vec(),
        groups,
    };
    let got = ops::conv2d(&x, &wt, bias.then_some(&b), &opts).unwrap();
    assert_eq!(got.dtype(), DType::Float32);
    let pads = [pad[0], pad[1], pad[0], pad[1]];
    let (want, shape) = ref_conv2d(&x, &wt, bias.then_some(&b), stride, pads, dilation, groups);
    // Sums of `c/groups · kh · kw` products of values in [-1, 1], rounded in float32.
    assert_close(&got, &want, &shape, 1e-6 * (c / groups * kh * kw) as f64);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "sizes that split into bands on threads take many minutes under Miri (which has no AVX-512 path to check)"
)]
fn conv2d_float32_register_blocks_bands_and_threads() {
    // Output channels past a block of eight (24 and 13: whole and partial blocks), flat runs
    // shorter and longer than a block, and sizes that split into bands on threads.
    check_conv2d_f32(
        [1, 16, 40, 52],
        24,
        [3, 3],
        [1, 1],
        [1, 1],
        [1, 1],
        1,
        true,
        7,
    );
    check_conv2d_f32(
        [2, 12, 33, 47],
        13,
        [3, 3],
        [2, 2],
        [1, 1],
        [1, 1],
        1,
        true,
        8,
    );
    check_conv2d_f32(
        [3, 8, 20, 30],
        26,
        [5, 5],
        [1, 2],
        [2, 0],
        [2, 1],
        2,
        false,
        9,
    );
    check_conv2d_f32([2, 6, 3, 4], 9, [3, 3], [1, 1], [1, 1], [1, 1], 3, true, 10);
    check_conv2d_f32(
        [1, 4, 90, 7],
        10,
        [7, 1],
        [1, 1],
        [3, 0],
        [1, 1],
        1,
        true,
        11,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 64 }))]
    #[test]
    #[cfg_attr(
        miri,
        ignore = "images of hundreds of elements take minutes under Miri, which has no AVX-512 path to check; conv2d_random_geometry covers the GEMM path there"
    )]
    fn conv2d_float32_random_geometry(
        n in 1usize..3, cg in 2usize..6, og in 1usize..20, groups in 1usize..3,
        h in 1usize..24, w in 1usize..40, kh in 1usize..6, kw in 1usize..6,
        sh in 1usize..4, sw in 1usize..4, ph in 0usize..3, pw in 0usize..3,
        dh in 1usize..3, dw in 1usize..3, bias: bool, seed in 0u64..1000,
    ) {
        prop_assume!(h + 2 * ph > dh * (kh - 1) && w + 2 * pw > dw * (kw - 1));
        check_conv2d_f32(
            [n, cg * groups, h, w], og * groups, [kh, kw], [sh, sw], [ph, pw], [dh, dw],
            groups, bias, seed,
        );
    }
}
