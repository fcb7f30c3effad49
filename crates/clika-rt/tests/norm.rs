//! `layer_norm`, `group_norm` and `batch_norm` against reference loops written here
//! (PyTorch's definitions), on contiguous, transposed and half-precision inputs; errors.

#[path = "support/lcg.rs"]
mod lcg;
use clika_rt::ops;
use clika_rt::{DType, Tensor};
use lcg::Lcg;

fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Lcg::new(seed.wrapping_add(0x9E37_79B9_7F4A_7C15));
    (0..n).map(|_| rng.unit() * 4.0 - 1.0).collect()
}

/// Normalizes each run of `len` elements of `x`; element `i` of row `r` then takes
/// `w[k]`, `b[k]` with `k = affine(r, i)`.
fn reference(
    x: &[f64],
    len: usize,
    eps: f64,
    w: &[f64],
    b: &[f64],
    affine: impl Fn(usize, usize) -> usize,
) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for (r, row) in x.chunks(len).enumerate() {
        let m = row.iter().sum::<f64>() / len as f64;
        let v = row.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / len as f64;
        for (i, &v0) in row.iter().enumerate() {
            let k = affine(r, i);
            out.push((v0 - m) / (v + eps).sqrt() * w[k] + b[k]);
        }
    }
    out
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
fn layer_norm_over_the_last_dims() {
    let data = values(3 * 4 * 5, 1);
    let x = Tensor::from_vec(data.clone(), &[3, 4, 5]).unwrap();
    let (wv, bv) = (values(20, 2), values(20, 3));
    let w = Tensor::from_vec(wv.clone(), &[4, 5]).unwrap();
    let b = Tensor::from_vec(bv.clone(), &[4, 5]).unwrap();
    let y = ops::layer_norm(&x, &[4, 5], Some(&w), Some(&b), 1e-5).unwrap();
    assert_close(&y, &reference(&data, 20, 1e-5, &wv, &bv, |_, i| i), 1e-12);
    let y32 = ops::layer_norm(&x.to_dtype(DType::Float32).unwrap(), &[5], None, None, 0.0).unwrap();
    assert_eq!(y32.dtype(), DType::Float32);
    assert_close(
        &y32,
        &reference(&data, 5, 0.0, &[1.0; 5], &[0.0; 5], |_, i| i),
        1e-5,
    );
}

#[test]
fn group_norm_on_a_transposed_view_and_batch_norm_with_running_statistics() {
    let (n, c, s) = (2, 6, 7);
    let data = values(n * s * c, 4);
    // [N, S, C] memory viewed as [N, C, S].
    let x = Tensor::from_vec(data, &[n, s, c])
        .unwrap()
        .permute(&[0, 2, 1])
        .unwrap();
    let dense: Vec<f64> = x.contiguous().unwrap().to_vec().unwrap();
    let (wv, bv) = (values(c, 5), values(c, 6));
    let w = Tensor::from_vec(wv.clone(), &[c]).unwrap();
    let b = Tensor::from_vec(bv.clone(), &[c]).unwrap();
    let y = ops::group_norm(&x, 3, Some(&w), Some(&b), 1e-5).unwrap();
    let per = 2 * s; // two channels per group
    let want = reference(&dense, per, 1e-5, &wv, &bv, |r, i| (r % 3) * 2 + i / s);
    assert_close(&y, &want, 1e-12);
    let (mv, vv) = (
        values(c, 7),
        values(c, 8)
            .iter()
            .map(|v| v.abs() + 0.5)
            .collect::<Vec<_>>(),
    );
    let rm = Tensor::from_vec(mv.clone(), &[c]).unwrap();
    let rv = Tensor::from_vec(vv.clone(), &[c]).unwrap();
    let y = ops::batch_norm(&x, &rm, &rv, Some(&w), None, 1e-3).unwrap();
    let want: Vec<f64> = dense
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let ch = (i / s) % c;
            (v - mv[ch]) / (vv[ch] + 1e-3).sqrt() * wv[ch]
        })
        .collect();
    assert_close(&y, &want, 1e-12);
    // Float16 computes in f32 and keeps its dtype.
    let h = ops::batch_norm(
        &x.to_dtype(DType::Float16).unwrap(),
        &rm,
        &rv,
        None,
        None,
        1e-3,
    )
    .unwrap();
    assert_eq!(h.dtype(), DType::Float16);
}

#[test]
fn errors_name_the_fix() {
    let x = Tensor::zeros(&[2, 4, 3], DType::Float32).unwrap();
    let e = ops::layer_norm(&x, &[4], None, None, 1e-5).unwrap_err();
    assert!(e.to_string().contains("last dims"), "{e}");
    let e = ops::group_norm(&x, 3, None, None, 1e-5).unwrap_err();
    assert!(e.to_string().contains("num_groups"), "{e}");
    let c3 = Tensor::zeros(&[3], DType::Float32).unwrap();
    let e = ops::batch_norm(&x, &c3, &c3, None, None, 1e-5).unwrap_err();
    assert!(e.to_string().contains("running_mean"), "{e}");
    let ints = Tensor::zeros(&[2, 4], DType::Int32).unwrap();
    let e = ops::layer_norm(&ints, &[4], None, None, 1e-5).unwrap_err();
    assert!(e.to_string().contains("to_dtype"), "{e}");
    assert!(ops::layer_norm(&x, &[3], None, None, -1.0).is_err());
    let empty = Tensor::zeros(&[0, 4, 3], DType::Float32).unwrap();
    assert_eq!(
        ops::group_norm(&empty, 2, None, None, 1e-5)
            .unwrap()
            .shape(),
        &[0, 4, 3]
    );
}
