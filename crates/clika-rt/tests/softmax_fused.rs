//! The fused softmax / log_softmax against an `f64` reference computed row by row here, on
//! every dimension of a 3-D tensor and on transposed, sliced, broadcast and empty inputs,
//! with NaN and -inf in rows.

use clika_rt::{DType, Tensor};

/// The larger of `a` and `b`, NaN if either is.
fn max_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// softmax (or log_softmax) of `x` (shape `shape`, contiguous f64 values) along `dim`.
fn reference(x: &[f64], shape: &[usize], dim: usize, log: bool) -> Vec<f64> {
    let n = shape[dim];
    let inner: usize = shape[dim + 1..].iter().product();
    let outer: usize = shape[..dim].iter().product();
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let m = (0..n).map(|k| x[at(k)]).fold(f64::NEG_INFINITY, max_nan);
            let s: f64 = (0..n).map(|k| (x[at(k)] - m).exp()).sum();
            for k in 0..n {
                let d = x[at(k)] - m;
                out[at(k)] = if log { d - s.ln() } else { d.exp() / s };
            }
        }
    }
    out
}

fn close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= tol * (1.0 + w.abs());
        assert!(ok, "{what}[{i}]: {g} vs {w}");
    }
}

fn check(t: &Tensor, tol: f64, what: &str) {
    let vals = t.contiguous().unwrap().to_f64_vec().unwrap();
    for d in 0..t.ndim() {
        for log in [false, true] {
            let got = if log {
                t.log_softmax(d as isize)
            } else {
                t.softmax(d as isize)
            }
            .unwrap();
            assert_eq!(got.shape(), t.shape());
            assert_eq!(got.dtype(), t.dtype());
            let want = reference(&vals, t.shape(), d, log);
            close(
                &got.to_f64_vec().unwrap(),
                &want,
                tol,
                &format!("{what} dim={d} log={log}"),
            );
        }
    }
}

fn values(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 37 % 101) as f64 - 50.0) * 0.21)
        .collect()
}

/// Each float dtype with the relative error allowed against the `f64` reference of its
/// own (rounded) input: a few units of rounding for `float32`/`float64`, one rounding
/// (half an ulp) and a little for `float16`/`bfloat16`, which compute in `f32`.
const TOLERANCES: [(DType, f64); 4] = [
    (DType::Float32, 2e-6),
    (DType::Float64, 1e-13),
    (DType::Float16, 6e-4),
    (DType::BFloat16, 4.5e-3),
];

#[test]
#[cfg_attr(
    miri,
    ignore = "every dtype × dim × layout: over ten minutes under Miri; the other tests here run there"
)]
fn every_dim_of_contiguous_strided_and_broadcast_inputs() {
    for (dt, tol) in TOLERANCES {
        // 3 × 5 × 37: rows shorter and longer than the lane count, with a ragged end.
        let t = Tensor::from_vec(values(3 * 5 * 37), &[3, 5, 37])
            .unwrap()
            .to_dtype(dt)
            .unwrap();
        check(&t, tol, &format!("{dt} contiguous"));
        check(
            &t.transpose(0, 2).unwrap(),
            tol,
            &format!("{dt} transposed"),
        );
        check(
            &t.slice(2, Some(1), None, 3).unwrap(),
            tol,
            &format!("{dt} sliced"),
        );
        let b = t.narrow(0, 1, 1).unwrap().expand(&[4, 5, 37]).unwrap();
        check(&b, tol, &format!("{dt} broadcast"));
        // Long rows (threads may split the rows).
        let long = Tensor::from_vec(values(64 * 4099), &[64, 4099])
            .unwrap()
            .to_dtype(dt)
            .unwrap();
        check(&long, tol, &format!("{dt} long rows"));
    }
}

#[test]
fn nan_and_negative_infinity_in_rows() {
    let inf = f64::INFINITY;
    let x = vec![
        1.0,
        f64::NAN,
        2.0,
        -inf,
        0.5,
        -inf,
        3.0,
        1.0,
        -inf,
        -inf,
        -inf,
        -inf,
    ];
    for (dt, tol) in TOLERANCES {
        let t = Tensor::from_vec(x.clone(), &[3, 4])
            .unwrap()
            .to_dtype(dt)
            .unwrap();
        for log in [false, true] {
            let got = if log { t.log_softmax(1) } else { t.softmax(1) }.unwrap();
            let want = reference(&x, &[3, 4], 1, log);
            close(
                &got.to_f64_vec().unwrap(),
                &want,
                tol.max(1e-6),
                &format!("{dt} log={log}"),
            );
        }
    }
}

#[test]
fn short_rows_sixteen_at_a_time_with_nan_and_infinities() {
    // 37 rows (17 under Miri, where each size takes minutes): groups of 16 run one row per
    // lane, the rest one by one; rows of up to 64 elements take that path, 65 does not.
    // Row 3 holds a NaN, row 7 is all -inf, row 10 holds +inf, row 11 some -inf, and the
    // last row (one by one) a NaN.
    let inf = f64::INFINITY;
    let (rows, sizes): (usize, &[usize]) = if cfg!(miri) {
        (17, &[5, 65])
    } else {
        (37, &[1, 5, 16, 40, 64, 65])
    };
    for &n in sizes {
        let mut x = values(rows * n);
        x[3 * n + n / 2] = f64::NAN;
        x[7 * n..8 * n].fill(-inf);
        x[10 * n] = inf;
        x[11 * n + n - 1] = -inf;
        x[(rows - 1) * n] = f64::NAN;
        for (dt, tol) in TOLERANCES {
            let t = Tensor::from_vec(x.clone(), &[rows, n])
                .unwrap()
                .to_dtype(dt)
                .unwrap();
            let rounded = t.to_f64_vec().unwrap();
            for log in [false, true] {
                let got = if log { t.log_softmax(1) } else { t.softmax(1) }.unwrap();
                let want = reference(&rounded, &[rows, n], 1, log);
                let what = format!("{dt} n={n} log={log}");
                close(&got.to_f64_vec().unwrap(), &want, tol.max(1e-6), &what);
            }
            let lse = t
                .logsumexp(Some(&[1]), false)
                .unwrap()
                .to_f64_vec()
                .unwrap();
            let want: Vec<f64> = rounded
                .chunks(n)
                .map(|r| {
                    let m = r.iter().copied().fold(-inf, max_nan);
                    if m.is_infinite() {
                        m
                    } else {
                        m + r.iter().map(|&v| (v - m).exp()).sum::<f64>().ln()
                    }
                })
                .collect();
            close(&lse, &want, tol.max(1e-6), &format!("{dt} n={n} logsumexp"));
        }
    }
}

#[test]
fn outer_dims_run_in_column_tiles_with_nan_and_infinities() {
    // softmax over dim 1 of 2 × 7 × 21 (and dim 0 of 7 × 21): 21 columns are one whole
    // tile of 16 and a ragged one of 5. Column 3 holds a NaN, column 7 is all -inf,
    // column 10 holds +inf, column 17 (in the ragged tile) a -inf and a NaN.
    let inf = f64::INFINITY;
    let (n, inner) = (7, 21);
    let mut x = values(2 * n * inner);
    for q in 0..2 {
        let at = |j: usize, c: usize| q * n * inner + j * inner + c;
        x[at(2, 3)] = f64::NAN;
        for j in 0..n {
            x[at(j, 7)] = -inf;
        }
        x[at(4, 10)] = inf;
        x[at(0, 17)] = -inf;
        x[at(6, 17)] = f64::NAN;
    }
    for (dt, tol) in TOLERANCES {
        let t = Tensor::from_vec(x.clone(), &[2, n, inner])
            .unwrap()
            .to_dtype(dt)
            .unwrap();
        let rounded = t.to_f64_vec().unwrap();
        for log in [false, true] {
            let got = if log { t.log_softmax(1) } else { t.softmax(1) }.unwrap();
            let want = reference(&rounded, &[2, n, inner], 1, log);
            let what = format!("{dt} columns log={log}");
            close(&got.to_f64_vec().unwrap(), &want, tol.max(1e-6), &what);
            let first = t.select(0, 0).unwrap();
            let got = if log {
                first.log_softmax(0)
            } else {
                first.softmax(0)
            }
            .unwrap();
            let want = reference(&rounded[..n * inner], &[n, inner], 0, log);
            close(&got.to_f64_vec().unwrap(), &want, tol.max(1e-6), &what);
        }
    }
}

#[test]
fn empty_and_zero_dimensional_inputs() {
    for (dt, _) in TOLERANCES {
        let e = Tensor::zeros(&[0, 5], dt).unwrap();
        assert_eq!(e.softmax(-1).unwrap().shape(), &[0, 5]);
        assert_eq!(e.log_softmax(1).unwrap().shape(), &[0, 5]);
        // No output rows, five elements each: the fused logsumexp has no block to run.
        assert_eq!(e.logsumexp(Some(&[0]), false).unwrap().shape(), &[5]);
        let none = e.logsumexp(Some(&[1]), false).unwrap();
        assert_eq!(none.shape(), &[0]);
        let s = Tensor::full(&[], 3.0, dt).unwrap();
        assert_eq!(s.softmax(0).unwrap().to_f64_vec().unwrap(), [1.0]);
        assert_eq!(s.log_softmax(-1).unwrap().to_f64_vec().unwrap(), [0.0]);
    }
}

#[test]
fn integer_inputs_promote_and_use_the_fused_rows() {
    let t = Tensor::arange(0.0, 12.0, 1.0, DType::Int32)
        .unwrap()
        .view(&[3, 4])
        .unwrap();
    let got = t.softmax(1).unwrap();
    assert!(got.dtype().is_float());
    let want = reference(
        &(0..12).map(f64::from).collect::<Vec<_>>(),
        &[3, 4],
        1,
        false,
    );
    close(&got.to_f64_vec().unwrap(), &want, 1e-6, "int32");
}

/// Long `float16` rows (the row-kernel path: widened to `f32`, computed there, rounded once)
/// give exactly the `float32` computation of the same values rounded to `float16` (NaN as
/// NaN), NaN and infinite entries and an all `-inf` row included, for softmax, log_softmax
/// and logsumexp.
#[test]
fn long_float16_rows_round_the_float32_computation_once() {
    let (rows, n) = (5, 203);
    let mut v: Vec<f64> = (0..rows * n)
        .map(|i| ((i * 53 % 97) as f64 - 48.0) * 0.173)
        .collect();
    v[n + 7] = f64::NAN;
    v[2 * n..3 * n].fill(f64::NEG_INFINITY);
    v[3 * n + 100] = f64::INFINITY;
    // A NaN past the last whole 16 lanes of a row.
    v[4 * n + 200] = f64::NAN;
    let h = Tensor::from_vec(v, &[rows, n])
        .unwrap()
        .to_dtype(DType::Float16)
        .unwrap();
    let f = h.to_dtype(DType::Float32).unwrap();
    // NaN compares by being NaN: its sign and payload are not specified (Miri picks them at
    // random for each operation that makes one).
    let bits = |t: Tensor| {
        t.to_vec::<half::f16>()
            .unwrap()
            .iter()
            .map(|x| if x.is_nan() { 0x7e00 } else { x.to_bits() })
            .collect::<Vec<_>>()
    };
    let rounded = |t: Tensor| bits(t.to_dtype(DType::Float16).unwrap());
    assert_eq!(bits(h.softmax(1).unwrap()), rounded(f.softmax(1).unwrap()));
    assert_eq!(
        bits(h.log_softmax(1).unwrap()),
        rounded(f.log_softmax(1).unwrap())
    );
    assert_eq!(
        bits(h.logsumexp(Some(&[1]), false).unwrap()),
        rounded(f.logsumexp(Some(&[1]), false).unwrap())
    );
}
