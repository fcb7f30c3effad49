//! `conv_transpose1d` / `conv_transpose2d` against a direct scatter loop written from
//! PyTorch's definition, over random shapes, strides, paddings, output paddings, dilations
//! and groups (proptest), strided and broadcast inputs, float64, and every refusal.

use clika_rt::ops::{self, ConvTransposeOptions};
use clika_rt::{DType, Tensor};
use proptest::prelude::*;

/// The scatter definition: every input element adds `x · w[c, o, ki, kj]` at
/// `(iy·s − p + ki·d, ix·s − p + kj·d)` of output channel `g·og + o`, plus the bias.
#[allow(clippy::too_many_arguments)]
fn reference(
    x: &[f64],
    [n, c, h, w]: [usize; 4],
    wt: &[f64],
    [og, kh, kw]: [usize; 3],
    bias: Option<&[f64]>,
    s: [usize; 2],
    p: [usize; 2],
    op: [usize; 2],
    d: [usize; 2],
    groups: usize,
) -> (Vec<f64>, [usize; 4]) {
    let ho = (h - 1) * s[0] + d[0] * (kh - 1) + op[0] + 1 - 2 * p[0];
    let wo = (w - 1) * s[1] + d[1] * (kw - 1) + op[1] + 1 - 2 * p[1];
    let o = og * groups;
    let cg = c / groups;
    let mut out = vec![0.0; n * o * ho * wo];
    for ni in 0..n {
        for oc in 0..o {
            let b = bias.map_or(0.0, |b| b[oc]);
            for v in &mut out[(ni * o + oc) * ho * wo..][..ho * wo] {
                *v = b;
            }
        }
        for ci in 0..c {
            let gi = ci / cg;
            for iy in 0..h {
                for ix in 0..w {
                    let xv = x[((ni * c + ci) * h + iy) * w + ix];
                    for oi in 0..og {
                        for ki in 0..kh {
                            for kj in 0..kw {
                                let oy = (iy * s[0] + ki * d[0]) as isize - p[0] as isize;
                                let ox = (ix * s[1] + kj * d[1]) as isize - p[1] as isize;
                                if oy < 0 || ox < 0 || oy >= ho as isize || ox >= wo as isize {
                                    continue;
                                }
                                let wv = wt[((ci * og + oi) * kh + ki) * kw + kj];
                                let oc = gi * og + oi;
                                out[((ni * o + oc) * ho + oy as usize) * wo + ox as usize] +=
                                    xv * wv;
                            }
                        }
                    }
                }
            }
        }
    }
    (out, [n, o, ho, wo])
}

fn values(len: usize, seed: u64) -> Vec<f64> {
    (0..len)
        .map(|i| (((i as u64 * 2654435761 + seed * 97) % 1000) as f64) / 250.0 - 2.0)
        .collect()
}

fn f32s(v: &[f64], shape: &[usize]) -> Tensor {
    let f: Vec<f32> = v.iter().map(|&x| x as f32).collect();
    Tensor::from_vec(f, shape).unwrap()
}

fn close(got: &Tensor, want: &[f64], shape: [usize; 4], tol: f64) {
    assert_eq!(got.shape(), shape);
    let got = got
        .to_dtype(DType::Float64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "element {i}: {g} vs {w}"
        );
    }
}

#[test]
fn one_dimensional_unbatched_strided_and_float64_inputs() {
    // 1-D: [C, L] unbatched, stride 2, output padding 1.
    let xv = values(3 * 5, 1);
    let wv = values(3 * 2 * 4, 2);
    let x = Tensor::from_vec(xv.clone(), &[3, 5]).unwrap();
    let wt = Tensor::from_vec(wv.clone(), &[3, 2, 4]).unwrap();
    let opts = ConvTransposeOptions {
        stride: vec![2],
        padding: vec![1],
        output_padding: vec![1],
        ..Default::default()
    };
    let got = ops::conv_transpose1d(&x, &wt, None, &opts).unwrap();
    assert_eq!(got.dtype(), DType::Float64);
    let (want, shape) = reference(
        &xv,
        [1, 3, 1, 5],
        &wv,
        [2, 1, 4],
        None,
        [1, 2],
        [0, 1],
        [0, 1],
        [1, 1],
        1,
    );
    assert_eq!(got.shape(), &[2, shape[3]]);
    close(
        &got.unsqueeze(0).unwrap().unsqueeze(2).unwrap(),
        &want,
        shape,
        1e-12,
    );
    // A transposed (strided) input and a broadcast weight give the same as dense copies.
    let base = f32s(&values(2 * 6 * 5, 3), &[2, 6, 5]);
    let xt = base.transpose(1, 2).unwrap().unsqueeze(0).unwrap(); // [1, 2, 5, 6], strided
    let w1 = f32s(&values(3 * 3, 4), &[1, 1, 3, 3])
        .expand(&[2, 2, 3, 3])
        .unwrap();
    let opts = ConvTransposeOptions {
        stride: vec![2, 1],
        ..Default::default()
    };
    let a = ops::conv_transpose2d(&xt, &w1, None, &opts).unwrap();
    let b = ops::conv_transpose2d(
        &xt.contiguous().unwrap(),
        &w1.contiguous().unwrap(),
        None,
        &opts,
    )
    .unwrap();
    assert_eq!(a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
    // Integers compute in Float32.
    let xi = Tensor::from_vec(vec![1i32, 2, 3, 4], &[1, 1, 2, 2]).unwrap();
    let wi = Tensor::from_vec(vec![1i32; 4], &[1, 1, 2, 2]).unwrap();
    let r = ops::conv_transpose2d(&xi, &wi, None, &ConvTransposeOptions::default()).unwrap();
    assert_eq!(r.dtype(), DType::Float32);
    assert_eq!(
        r.to_vec::<f32>().unwrap(),
        vec![1.0, 3.0, 2.0, 4.0, 10.0, 6.0, 3.0, 7.0, 4.0]
    );
}

#[test]
fn bad_arguments_are_refused_naming_the_rule() {
    let x = Tensor::zeros(&[1, 4, 3, 3], DType::Float32).unwrap();
    let w = Tensor::zeros(&[4, 2, 2, 2], DType::Float32).unwrap();
    let with = |f: fn(&mut ConvTransposeOptions)| {
        let mut o = ConvTransposeOptions::default();
        f(&mut o);
        ops::conv_transpose2d(&x, &w, None, &o)
            .unwrap_err()
            .to_string()
    };
    assert!(with(|o| o.output_padding = vec![1]).contains("output_padding"));
    assert!(with(|o| o.padding = vec![3]).contains("less padding"));
    assert!(with(|o| o.groups = 3).contains("groups=3"));
    assert!(with(|o| o.stride = vec![0]).contains("stride"));
    assert!(with(|o| o.dilation = vec![1, 1, 1]).contains("give 1 or 2"));
    let e = ops::conv_transpose2d(
        &x,
        &Tensor::zeros(&[3, 2, 2, 2], DType::Float32).unwrap(),
        None,
        &Default::default(),
    );
    assert!(e.unwrap_err().to_string().contains("input channels"));
    let b = Tensor::zeros(&[3], DType::Float32).unwrap();
    let e = ops::conv_transpose2d(&x, &w, Some(&b), &Default::default());
    assert!(e.unwrap_err().to_string().contains("bias"));
    let empty = Tensor::zeros(&[1, 4, 0, 3], DType::Float32).unwrap();
    let e = ops::conv_transpose2d(&empty, &w, None, &Default::default());
    assert!(e.unwrap_err().to_string().contains("non-empty"));
    // An empty batch is fine.
    let none = Tensor::zeros(&[0, 4, 3, 3], DType::Float32).unwrap();
    let r = ops::conv_transpose2d(&none, &w, None, &Default::default()).unwrap();
    assert_eq!(r.shape(), &[0, 2, 4, 4]);
}

/// A 1×1 kernel with stride 1 and an output padding (allowed because the dilation exceeds
/// it) grows the output past what the product covers: those elements are zeros (or the
/// bias), not whatever the recycled memory held.
#[test]
fn output_padding_past_a_one_by_one_kernel_is_zero() {
    // Leave non-zero bytes in the pool's cached blocks first.
    for _ in 0..4 {
        drop(Tensor::full(&[64], 7.5, DType::Float32).unwrap());
    }
    let x = Tensor::from_vec(vec![2.0f32, 3.0], &[1, 1, 1, 2]).unwrap();
    let w = Tensor::from_vec(vec![1.5f32], &[1, 1, 1, 1]).unwrap();
    let opts = ConvTransposeOptions {
        stride: vec![1, 1],
        padding: vec![0, 0],
        output_padding: vec![1, 1],
        dilation: vec![2, 2],
        groups: 1,
    };
    let y = ops::conv_transpose2d(&x, &w, None, &opts).unwrap();
    assert_eq!(y.shape(), &[1, 1, 2, 3]);
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        vec![3.0, 4.5, 0.0, 0.0, 0.0, 0.0]
    );
    let b = Tensor::from_vec(vec![-1.0f32], &[1]).unwrap();
    let yb = ops::conv_transpose2d(&x, &w, Some(&b), &opts).unwrap();
    assert_eq!(
        yb.to_vec::<f32>().unwrap(),
        vec![2.0, 3.5, -1.0, -1.0, -1.0, -1.0]
    );
}

/// `conv_transpose2d` of float32 operands against the scatter definition in f64: the
/// AVX-512 path computes each output phase as a convolution in register blocks of eight
/// output channels and 48 outputs, its rows written `stride` columns apart.
#[allow(clippy::too_many_arguments)]
fn check_float32(
    [n, c, h, w]: [usize; 4],
    og: usize,
    [kh, kw]: [usize; 2],
    s: [usize; 2],
    p: [usize; 2],
    op: [usize; 2],
    d: [usize; 2],
    groups: usize,
    with_bias: bool,
    seed: u64,
) {
    let round = |v: Vec<f64>| v.iter().map(|&x| x as f32 as f64).collect::<Vec<_>>();
    let xv = round(values(n * c * h * w, seed));
    let wv = round(values(c * og * kh * kw, seed + 1));
    let bv = round(values(og * groups, seed + 2));
    let opts = ConvTransposeOptions {
        stride: s.to_vec(),
        padding: p.to_vec(),
        output_padding: op.to_vec(),
        dilation: d.to_vec(),
        groups,
    };
    let bias = with_bias.then(|| f32s(&bv, &[og * groups]));
    let got = ops::conv_transpose2d(
        &f32s(&xv, &[n, c, h, w]),
        &f32s(&wv, &[c, og, kh, kw]),
        bias.as_ref(),
        &opts,
    )
    .unwrap();
    assert_eq!(got.dtype(), DType::Float32);
    let (want, shape) = reference(
        &xv,
        [n, c, h, w],
        &wv,
        [og, kh, kw],
        with_bias.then_some(&bv[..]),
        s,
        p,
        op,
        d,
        groups,
    );
    // Sums of up to `c/groups · kh · kw` products of values in [-2, 2], in float32.
    close(&got, &want, shape, 1e-6 * (c / groups * kh * kw) as f64);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "sizes that split into bands on threads take minutes under Miri"
)]
fn float32_phases_channel_blocks_and_bands() {
    // The 2x upsampling of a decoder (4x4, stride 2, padding 1): four phases of 2x2 taps,
    // 20 output channels (two whole blocks of eight and a part), rows wider than a vector.
    check_float32(
        [2, 32, 28, 30],
        20,
        [4, 4],
        [2, 2],
        [1, 1],
        [0, 0],
        [1, 1],
        1,
        true,
        3,
    );
    // Stride 3 with a 2-tap kernel: phases that no tap reaches are the bias alone.
    check_float32(
        [1, 12, 18, 40],
        9,
        [2, 2],
        [3, 3],
        [0, 0],
        [1, 2],
        [1, 1],
        1,
        true,
        4,
    );
    // A padding wider than the taps reach (phases that skip input rows), dilation with a
    // stride (every other tap per phase), groups.
    check_float32(
        [2, 16, 24, 36],
        10,
        [5, 3],
        [2, 2],
        [4, 3],
        [1, 0],
        [2, 3],
        2,
        false,
        5,
    );
    // Stride 1: one phase, the kernel flipped.
    check_float32(
        [1, 24, 30, 33],
        17,
        [3, 3],
        [1, 1],
        [1, 1],
        [0, 0],
        [1, 1],
        1,
        true,
        6,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 64 }))]
    /// Random geometry: channels past a register block, rows wider and narrower than a
    /// vector, paddings wider than the kernel's reach (phases that skip input), strides
    /// past the kernel (phases no tap reaches); small sizes under Miri.
    #[test]
    fn matches_the_scatter_definition(
        n in 0usize..3, cg in 1usize..MAX[0], og in 1usize..MAX[1], groups in 1usize..3,
        h in 1usize..MAX[2], w in 1usize..MAX[3], kh in 1usize..6, kw in 1usize..6,
        s in (1usize..4, 1usize..4), d in (1usize..3, 1usize..3),
        p in (0usize..5, 0usize..5), op in (0usize..3, 0usize..3),
        with_bias in any::<bool>(), seed in 0u64..1000,
    ) {
        let (s, d, p) = ([s.0, s.1], [d.0, d.1], [p.0, p.1]);
        // Only valid configurations: output padding below the stride or the dilation, and a
        // positive output.
        let op = [op.0 % s[0].max(d[0]), op.1 % s[1].max(d[1])];
        let full = |size: usize, k: usize, i: usize| (size - 1) * s[i] + d[i] * (k - 1) + op[i] + 1;
        prop_assume!(full(h, kh, 0) > 2 * p[0] && full(w, kw, 1) > 2 * p[1]);
        check_float32(
            [n, cg * groups, h, w], og, [kh, kw], s, p, op, d, groups, with_bias, seed,
        );
    }
}

/// The proptest's bounds on input channels per group, output channels per group, height
/// and width (under Miri a few elements, which still reach every branch of the GEMM path).
const MAX: [usize; 4] = if cfg!(miri) {
    [4, 4, 6, 7]
} else {
    [10, 20, 20, 50]
};
