//! Reduction semantics that the lane kernels must keep: NaN wins (and the first NaN is the
//! argmax), ties keep the first index, empty reductions, integer wrap and widening, and the
//! same answers on the inner (row) and outer (column) paths, across chunk boundaries (the
//! kernels work in chunks of 1024) and on strided rows.

#[path = "support/lcg.rs"]
mod lcg;
use clika_rt::ops::ReduceOp;
use clika_rt::{ops, DType, Tensor};
use lcg::Lcg;

/// Reference max/min/argmax/argmin of a lane with the runtime's rules.
fn best(v: &[f64], max: bool) -> (f64, i64) {
    let (mut b, mut i) = (v[0], 0);
    for (j, &x) in v.iter().enumerate().skip(1) {
        if b.is_nan() {
            break;
        }
        if x.is_nan() || (max && x > b) || (!max && x < b) {
            b = x;
            i = j as i64;
        }
    }
    (b, i)
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Values with repeated extremes, NaNs and infinities placed around chunk boundaries.
fn values(n: usize, seed: u64, nan_at: Option<usize>) -> Vec<f32> {
    let mut rng = Lcg::new(seed);
    let mut v: Vec<f32> = (0..n).map(|_| rng.below(50) as f32 - 25.0).collect();
    // Ties: the extreme value appears several times, the first copy past a chunk edge.
    for &k in &[1500usize, 1023, 2900, 40] {
        if k < n {
            v[k] = 1e30;
        }
    }
    for &k in &[1700usize, 7, 2048] {
        if k < n {
            v[k] = -1e30;
        }
    }
    if n > 300 {
        v[300] = f32::NEG_INFINITY;
    }
    if let Some(k) = nan_at {
        if k < n {
            v[k] = f32::NAN;
            if k + 1000 < n {
                v[k + 1000] = f32::NAN;
            }
        }
    }
    v
}

/// The lanes of `t` along `dim`: `(outer, inner, lane)` where `lane(o, i)` lists the values
/// that reduce into output `o * inner + i`.
fn lanes(t: &Tensor, dim: usize) -> (usize, usize, impl Fn(usize, usize) -> Vec<f64>) {
    let shape = t.shape().to_vec();
    let xs = t.to_f64_vec().unwrap();
    let (outer, n, inner) = (
        shape[..dim].iter().product::<usize>(),
        shape[dim],
        shape[dim + 1..].iter().product::<usize>(),
    );
    let lane = move |o: usize, i: usize| -> Vec<f64> {
        (0..n).map(|j| xs[(o * n + j) * inner + i]).collect()
    };
    (outer, inner, lane)
}

fn check_all(t: &Tensor, dim: usize) {
    let (outer, inner, lane) = lanes(t, dim);
    let d = dim as isize;
    let max = t.max_dims(&[d], false).unwrap().to_f64_vec().unwrap();
    let min = t.min_dims(&[d], false).unwrap().to_f64_vec().unwrap();
    let amax = t.argmax_dim(d, false).unwrap().to_vec::<i64>().unwrap();
    let amin = t.argmin_dim(d, false).unwrap().to_vec::<i64>().unwrap();
    for o in 0..outer {
        for i in 0..inner {
            let l = lane(o, i);
            let k = o * inner + i;
            let (bx, ix) = best(&l, true);
            let (bn, i_n) = best(&l, false);
            assert!(same(max[k], bx), "max {k}: {} vs {bx}", max[k]);
            assert!(same(min[k], bn), "min {k}: {} vs {bn}", min[k]);
            assert_eq!(amax[k], ix, "argmax {k} dim {dim} {:?}", t.strides());
            assert_eq!(amin[k], i_n, "argmin {k} dim {dim} {:?}", t.strides());
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of elements are slow under Miri")]
fn max_min_arg_keep_nan_and_first_ties_on_every_path() {
    for dtype in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
    ] {
        for nan_at in [None, Some(5), Some(1030), Some(2999)] {
            let v = values(3000, 7, nan_at);
            let flat = Tensor::from_data(&v, &[3000])
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            // One long row (inner path), and as a column (outer path: 3000 × 20).
            check_all(&flat.reshape(&[1, 3000]).unwrap(), 1);
            let cols = flat.reshape(&[150, 20]).unwrap();
            check_all(&cols, 0);
            check_all(&cols, 1);
            // Strided rows: the transpose reduces along a stride-20 lane.
            check_all(&cols.t(), 1);
            check_all(&cols.t(), 0);
            let wide = Tensor::from_data(&values(3000 * 20, 3, nan_at), &[3000, 20])
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            check_all(&wide, 0);
            check_all(&wide.t(), 1);
            // Tall and narrow: big enough that the column path also splits the reduced
            // steps into spans (merged in order).
            let mut tv = values(8000 * 20, 5, nan_at.map(|k| k * 40));
            // A tie for column 0's maximum in a later span (step 5000 vs step 2).
            tv[5000 * 20] = 1e30;
            let tall = Tensor::from_data(&tv, &[8000, 20])
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            check_all(&tall, 0);
            // Whole-tensor reductions agree with the flattened lane.
            let all = wide.to_f64_vec().unwrap();
            let (bx, ix) = best(&all, true);
            assert!(same(wide.max().unwrap().to_f64_vec().unwrap()[0], bx));
            assert_eq!(wide.argmax().unwrap().item::<i64>().unwrap(), ix);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of elements are slow under Miri")]
fn column_max_min_and_args_of_every_type_and_of_rows_wider_than_a_block() {
    // The column (outer) path of every element type, ties across steps and across the
    // spans of reduced steps that threads take (integers keep by `max`/`min`, floats by
    // their NaN-aware blend; arg indices alternate between two arrays step by step).
    for dtype in [
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::UInt16,
        DType::Int32,
        DType::UInt32,
        DType::Int64,
        DType::UInt64,
        DType::Float32,
        DType::Float64,
        DType::BFloat16,
    ] {
        for steps in [1, 2, 3, 4000] {
            let t = Tensor::from_data(&values(steps * 24, 9, None), &[steps, 24])
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            check_all(&t, 0);
        }
    }
    // Kept rows wider than one column block: blocks reduce apart and write their columns.
    for nan_at in [None, Some(40_000)] {
        let wide = Tensor::from_data(&values(3 * 33_000, 4, nan_at), &[3, 33_000]).unwrap();
        check_all(&wide, 0);
    }
}

#[test]
fn integer_reductions_are_exact_and_wrap_like_i64() {
    // int8 sums widen: 3000 × 127 does not fit in int8 (nor int16 partials).
    let t = Tensor::full(&[3000], 127.0, DType::Int8).unwrap();
    assert_eq!(t.sum().unwrap().item::<i64>().unwrap(), 381_000);
    let neg = Tensor::full(&[2, 1500], -128.0, DType::Int8).unwrap();
    assert_eq!(
        neg.sum_dims(&[0], false).unwrap().to_vec::<i64>().unwrap(),
        vec![-256; 1500]
    );
    assert_eq!(
        neg.sum_dims(&[1], false).unwrap().to_vec::<i64>().unwrap(),
        vec![-192_000; 2]
    );
    // int64 sums wrap (two's complement), on the row path and the column path.
    let big = Tensor::from_data(&[i64::MAX, 1, i64::MAX, 1], &[2, 2]).unwrap();
    assert_eq!(
        big.sum().unwrap().item::<i64>().unwrap(),
        i64::MAX.wrapping_add(i64::MAX).wrapping_add(2)
    );
    assert_eq!(
        big.sum_dims(&[1], false).unwrap().to_vec::<i64>().unwrap(),
        vec![i64::MIN, i64::MIN]
    );
    // int64 max/min stay exact beyond 2^53.
    let wide: Vec<i64> = (0..40).map(|i| i64::MAX - 1000 + i).collect();
    let w = Tensor::from_data(&wide, &[2, 20]).unwrap();
    assert_eq!(w.max().unwrap().item::<i64>().unwrap(), i64::MAX - 961);
    assert_eq!(
        w.max_dims(&[0], false).unwrap().to_vec::<i64>().unwrap(),
        wide[20..].to_vec()
    );
    // Ties among integers: the first index, in rows and columns.
    let ties = Tensor::from_data(&[5i32, 9, 9, 1, 9, 9], &[2, 3]).unwrap();
    assert_eq!(ties.argmax().unwrap().item::<i64>().unwrap(), 1);
    assert_eq!(
        ties.argmax_dim(1, false).unwrap().to_vec::<i64>().unwrap(),
        vec![1, 1]
    );
    assert_eq!(
        ties.argmax_dim(0, false).unwrap().to_vec::<i64>().unwrap(),
        vec![0, 0, 0]
    );
    let col = Tensor::full(&[4, 32], 2.0, DType::UInt8).unwrap();
    assert_eq!(
        col.argmin_dim(0, false).unwrap().to_vec::<i64>().unwrap(),
        vec![0; 32]
    );
    // Integer means are exact sums divided once.
    let m = Tensor::from_data(&[i32::MAX, i32::MAX, i32::MAX], &[3]).unwrap();
    assert_eq!(
        m.mean().unwrap().item::<f64>().unwrap(),
        f64::from(i32::MAX)
    );
}

#[test]
fn empty_and_bool_reductions() {
    let e = Tensor::zeros(&[0, 40], DType::Float32).unwrap();
    assert!(e.max().is_err());
    assert!(e.argmin_dim(0, false).is_err());
    assert_eq!(
        e.sum_dims(&[0], false).unwrap().to_vec::<f32>().unwrap(),
        vec![0.0; 40]
    );
    assert!(e.mean_dims(&[0], false).unwrap().to_vec::<f32>().unwrap()[0].is_nan());
    let b = Tensor::from_data(&[true, false, true, true], &[2, 2]).unwrap();
    assert_eq!(b.sum().unwrap().item::<i64>().unwrap(), 3);
    assert_eq!(b.argmin().unwrap().item::<i64>().unwrap(), 1);
    assert!(ops::max(&b).unwrap().item::<bool>().unwrap());
}

#[test]
#[cfg_attr(miri, ignore = "large inputs are slow under Miri")]
fn float_sums_agree_between_row_and_column_paths() {
    // 0.1 is inexact: both paths must stay within the blocked-summation bound of f64 truth.
    let t = Tensor::full(&[8000, 40], 0.1, DType::Float32).unwrap();
    let want = 8000.0 * f64::from(0.1f32);
    for s in t.sum_dims(&[0], false).unwrap().to_f64_vec().unwrap() {
        assert!((s - want).abs() / want < 1e-6, "{s}");
    }
    for s in t.t().sum_dims(&[1], false).unwrap().to_f64_vec().unwrap() {
        assert!((s - want).abs() / want < 1e-6, "{s}");
    }
    let h = t.to_dtype(DType::Float16).unwrap();
    let wh = 8000.0 * half::f16::from_f32(0.1).to_f64();
    for s in h.sum_dims(&[0], false).unwrap().to_f64_vec().unwrap() {
        assert!((s - wh).abs() / wh < 1e-3, "{s} vs {wh}");
    }
}

/// [`values`] without the extremes: the var/std tests want finite data in `[-25, 25]`.
fn bounded(n: usize, seed: u64) -> Vec<f32> {
    values(n, seed, None)
        .into_iter()
        .map(|x| x.clamp(-25.0, 25.0))
        .collect()
}

/// `op` over every element, as `f64`.
fn full(op: ReduceOp, t: &Tensor) -> f64 {
    ops::reduce(op, t, None, false)
        .unwrap()
        .item::<f64>()
        .unwrap()
}

/// Reference variance of a lane: two passes in `f64`.
fn ref_var(v: &[f64], correction: usize) -> f64 {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len().saturating_sub(correction) as f64
}

/// Every lane's variance and standard deviation along `dim` against [`ref_var`].
fn check_var(t: &Tensor, dim: usize, rtol: f64) {
    let (outer, inner, lane) = lanes(t, dim);
    for correction in [0, 1] {
        let d = dim as isize;
        let var = t.var_dims(&[d], correction, false).unwrap();
        let std = t.std_dims(&[d], correction, false).unwrap();
        assert_eq!(var.dtype(), t.dtype().mean_dtype());
        let (var, std) = (var.to_f64_vec().unwrap(), std.to_f64_vec().unwrap());
        for o in 0..outer {
            for i in 0..inner {
                let want = ref_var(&lane(o, i), correction);
                let k = o * inner + i;
                let close = |g: f64, w: f64| (g - w).abs() <= rtol * w.abs() + 1e-12;
                assert!(
                    close(var[k], want),
                    "var[{k}] dim {dim}: {} vs {want}",
                    var[k]
                );
                assert!(
                    close(std[k], want.sqrt()),
                    "std[{k}]: {} vs {}",
                    std[k],
                    want.sqrt()
                );
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "large inputs are slow under Miri")]
fn var_and_std_agree_with_two_pass_f64_on_every_path() {
    // A large common offset: `Σx² − (Σx)²/n` would lose every digit in f32 and most in f64.
    let n = 3000 * 70;
    let v: Vec<f32> = bounded(n, 3)
        .into_iter()
        .map(|x| 1.0e4 + x * 0.01)
        .collect();
    let t = Tensor::from_data(&v, &[3000, 70]).unwrap();
    // Columns (the outer path, split into spans on two threads), rows (the inner path,
    // across chunk edges), and both again on the transpose and on a pitched view.
    check_var(&t, 0, 1e-6);
    check_var(&t, 1, 1e-6);
    check_var(&t.t().contiguous().unwrap(), 1, 1e-6);
    check_var(&t.narrow(1, 3, 40).unwrap(), 0, 1e-6);
    check_var(&t.t(), 0, 1e-6);
    for dtype in [DType::Float64, DType::Float16, DType::Int32, DType::UInt8] {
        let c = Tensor::from_data(&bounded(5000, 9), &[50, 100])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let rtol = if dtype == DType::Float16 { 2e-3 } else { 1e-5 };
        check_var(&c, 0, rtol);
        check_var(&c, 1, rtol);
    }
    // One long row split into pieces across threads.
    let long = Tensor::from_data(&bounded(1 << 20, 5), &[1 << 20]).unwrap();
    let xs = long.to_f64_vec().unwrap();
    let got = full(ReduceOp::Var { correction: 1 }, &long);
    let want = ref_var(&xs, 1);
    assert!((got - want).abs() / want < 1e-6, "{got} vs {want}");
}

#[test]
fn var_of_too_few_elements_is_nan_or_inf_as_pytorch() {
    let e = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    let r = e.var_dims(&[0], 1, false).unwrap().to_vec::<f32>().unwrap();
    assert!(r.len() == 3 && r.iter().all(|x| x.is_nan()), "{r:?}");
    assert!(full(ReduceOp::Var { correction: 1 }, &e).is_nan());
    let one = Tensor::from_data(&[2.5f32], &[1]).unwrap();
    assert!(full(ReduceOp::Var { correction: 1 }, &one).is_nan());
    assert_eq!(
        one.var_dims(&[0], 0, false).unwrap().item::<f64>().unwrap(),
        0.0
    );
    let two = Tensor::from_data(&[1.0f64, 3.0], &[2]).unwrap();
    assert!(two
        .var_dims(&[0], 2, false)
        .unwrap()
        .item::<f64>()
        .unwrap()
        .is_infinite());
    let inf = Tensor::from_data(&[1.0f32, f32::INFINITY], &[2]).unwrap();
    assert!(full(ReduceOp::Std { correction: 1 }, &inf).is_nan());
}

/// The products along `dim` of `t` computed in `f64` over its (dtype-rounded) values, and
/// the runtime's, as `f64`.
fn products(t: &Tensor, dim: usize) -> (Vec<f64>, Vec<f64>) {
    let (outer, inner, lane) = lanes(t, dim);
    let want = (0..outer)
        .flat_map(|o| (0..inner).map(move |i| (o, i)))
        .map(|(o, i)| lane(o, i).iter().product())
        .collect();
    let got = t.prod_dims(&[dim as isize], false).unwrap();
    (got.to_f64_vec().unwrap(), want)
}

#[test]
#[cfg_attr(miri, ignore = "large inputs are slow under Miri")]
fn float_products_agree_on_row_and_column_paths_in_every_float_type() {
    // Factors near 1 so 8000 of them stay finite; each type's result is the f64 product
    // rounded once.
    let near_one: Vec<f32> = bounded(8000 * 20, 9)
        .iter()
        .map(|x| 1.0 + x / 2000.0)
        .collect();
    for (dtype, rtol) in [
        (DType::Float32, 1e-6),
        (DType::Float64, 1e-12),
        (DType::Float16, 1e-3),
        (DType::BFloat16, 8e-3),
    ] {
        let tall = Tensor::from_data(&near_one, &[8000, 20])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        // Columns (the outer path; 8000 steps on two threads split into spans), a short
        // block of columns, the transpose's strided rows and a contiguous copy's rows (the
        // inner path).
        let short = tall.narrow(0, 0, 150).unwrap();
        let cases = [
            (tall.clone(), 0),
            (short.clone(), 0),
            (tall.t(), 1),
            (tall.t().contiguous().unwrap(), 1),
            (short.t().contiguous().unwrap(), 1),
        ];
        for (t, dim) in cases {
            let (got, want) = products(&t, dim);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() <= rtol * w.abs(),
                    "{dtype} {:?} dim {dim} output {k}: {g} vs {w}",
                    t.shape()
                );
            }
        }
    }
    // Zero times infinity is NaN, NaN spreads, and an overflow is infinite, on both paths.
    let mut v = vec![1.5f32; 40 * 20];
    v[3 * 20] = 0.0;
    v[7 * 20] = f32::INFINITY;
    v[5 * 20 + 1] = f32::NAN;
    v[2] = 1e30;
    v[20 + 2] = 1e30;
    let t = Tensor::from_data(&v, &[40, 20]).unwrap();
    for r in [
        t.prod_dims(&[0], false).unwrap(),
        t.t().contiguous().unwrap().prod_dims(&[1], false).unwrap(),
    ] {
        let r = r.to_vec::<f32>().unwrap();
        assert!(r[0].is_nan() && r[1].is_nan(), "{r:?}");
        assert_eq!(r[2], f32::INFINITY);
        assert_eq!(r[3], 1.5f32.powi(40));
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of elements are slow under Miri")]
fn integer_products_wrap_like_i64_on_row_and_column_paths() {
    let mut rng = Lcg::new(11u64);
    let mut next = |m: u64| rng.below(m);
    // Factors up to ±1000 over 300 steps wrap many times past 2^63.
    let v: Vec<i32> = (0..300 * 24).map(|_| next(2001) as i32 - 1000).collect();
    let bytes: Vec<u8> = (0..300 * 24).map(|_| next(256) as u8).collect();
    let wants = |xs: &[i64], dim: usize, t: &Tensor| -> Vec<i64> {
        let (r, c) = (t.shape()[0], t.shape()[1]);
        let (outer, n) = if dim == 0 { (c, r) } else { (r, c) };
        (0..outer)
            .map(|o| {
                (0..n).fold(1i64, |p, j| {
                    let k = if dim == 0 { j * c + o } else { o * c + j };
                    p.wrapping_mul(xs[k])
                })
            })
            .collect()
    };
    for t in [
        Tensor::from_data(&v, &[300, 24]).unwrap(),
        Tensor::from_data(&bytes, &[300, 24]).unwrap(),
    ] {
        let xs: Vec<i64> = t.to_dtype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
        for (view, dim) in [(t.clone(), 0), (t.clone(), 1)] {
            let got = view.prod_dims(&[dim as isize], false).unwrap();
            assert_eq!(got.dtype(), DType::Int64);
            assert_eq!(
                got.to_vec::<i64>().unwrap(),
                wants(&xs, dim, &t),
                "dim {dim}"
            );
        }
        // The transpose's columns are strided (a gathered outer path).
        let tt = t.t();
        let got = tt.prod_dims(&[1], false).unwrap().to_vec::<i64>().unwrap();
        assert_eq!(got, wants(&xs, 0, &t));
    }
}

/// Many outputs that each fold one short contiguous row go through a loop of their own
/// (one SIMD dispatch per block of rows): every op, at lengths around the lane counts (8
/// and 32 for `f32` sums, 4 and 16 for `f64`, the 256-element switch between them and the
/// 1024-element chunk), with NaNs and ties placed in different rows, over a view whose kept
/// dims neither coalesce nor start at the storage's first element. Sums must also give the
/// same bits as the general path, which the same rows take when they are strided.
#[test]
fn many_short_rows_fold_like_the_general_path() {
    // Miri checks the row loop's pointer arithmetic, not the arithmetic: a few cases.
    let (lengths, dtypes): (&[usize], &[DType]) = if cfg!(miri) {
        (&[1, 17], &[DType::Float32, DType::Int32])
    } else {
        (
            &[1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 255, 256, 1024],
            &[
                DType::Float32,
                DType::Float64,
                DType::Float16,
                DType::Int32,
                DType::UInt8,
            ],
        )
    };
    for &n in lengths {
        // [3, 5, 2n] → kept dims (5, 3) permuted, the reduced dim every second element of
        // one half: `rows` strided rows; their contiguous copy has the same values.
        let mut v = values(3 * 5 * 2 * n, n as u64, None);
        for (r, x) in v.chunks_mut(2 * n).enumerate() {
            match r % 4 {
                1 => x[2 * (r % n) + 1] = f32::NAN,
                2 => x[2 * n - 1] = 1e30,
                _ => {}
            }
        }
        for &dtype in dtypes {
            // Integers: NaN → 3, the extremes → ±100 (and magnitudes for `u8`).
            let data: Vec<f32> = match dtype {
                DType::Int32 => v
                    .iter()
                    .map(|x| {
                        if x.is_nan() {
                            3.0
                        } else {
                            x.clamp(-100.0, 100.0)
                        }
                    })
                    .collect(),
                DType::UInt8 => v
                    .iter()
                    .map(|x| if x.is_nan() { 3.0 } else { x.abs().min(100.0) })
                    .collect(),
                _ => v.clone(),
            };
            let base = Tensor::from_data(&data, &[3, 5, 2 * n])
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            let strided = base
                .slice(2, Some(1), None, 2)
                .unwrap()
                .permute(&[1, 0, 2])
                .unwrap();
            let packed = strided.contiguous_copy().unwrap();
            // A view of the packed rows whose kept dims do not coalesce, at an offset.
            let view = base.narrow(2, 1, n).unwrap().permute(&[1, 0, 2]).unwrap();
            let rows: Vec<Vec<f64>> = {
                let xs = packed.to_f64_vec().unwrap();
                xs.chunks(n).map(<[f64]>::to_vec).collect()
            };
            let view_rows: Vec<Vec<f64>> = {
                let xs = view.contiguous_copy().unwrap().to_f64_vec().unwrap();
                xs.chunks(n).map(<[f64]>::to_vec).collect()
            };
            for (t, rows, general) in [(&packed, &rows, Some(&strided)), (&view, &view_rows, None)]
            {
                let red = |op| ops::reduce(op, t, Some(&[2]), false).unwrap();
                let sum = red(ReduceOp::Sum).to_f64_vec().unwrap();
                let mean = red(ReduceOp::Mean).to_f64_vec().unwrap();
                let max = red(ReduceOp::Max).to_f64_vec().unwrap();
                let min = red(ReduceOp::Min).to_f64_vec().unwrap();
                let amax = red(ReduceOp::ArgMax).to_vec::<i64>().unwrap();
                let amin = red(ReduceOp::ArgMin).to_vec::<i64>().unwrap();
                let tol = match dtype {
                    DType::Float16 => 2e-3,
                    DType::Float32 => 1e-6,
                    _ => 1e-12,
                };
                for (k, row) in rows.iter().enumerate() {
                    let s: f64 = row.iter().sum();
                    let close = |got: f64, want: f64| {
                        same(got, want)
                            || (got - want).abs() <= tol * row.iter().map(|x| x.abs()).sum::<f64>()
                    };
                    assert!(
                        close(sum[k], s),
                        "{dtype} n={n} row {k}: sum {} vs {s}",
                        sum[k]
                    );
                    let m = s / n as f64;
                    assert!(
                        close(mean[k], m),
                        "{dtype} n={n} row {k}: mean {} vs {m}",
                        mean[k]
                    );
                    let ((bx, ix), (bn, i_n)) = (best(row, true), best(row, false));
                    assert!(
                        same(max[k], bx),
                        "{dtype} n={n} row {k}: max {} vs {bx}",
                        max[k]
                    );
                    assert!(
                        same(min[k], bn),
                        "{dtype} n={n} row {k}: min {} vs {bn}",
                        min[k]
                    );
                    assert_eq!((amax[k], amin[k]), (ix, i_n), "{dtype} n={n} row {k}");
                }
                if let Some(g) = general {
                    let gs = ops::reduce(ReduceOp::Sum, g, Some(&[2]), false).unwrap();
                    // Bits, NaN as one NaN (a NaN's sign and payload are not specified,
                    // and Miri varies them).
                    let bits = |t: Tensor| {
                        t.to_f64_vec()
                            .unwrap()
                            .iter()
                            .map(|&x| if x.is_nan() { f64::NAN } else { x }.to_bits())
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(
                        bits(gs),
                        bits(red(ReduceOp::Sum)),
                        "{dtype} n={n}: sum paths differ"
                    );
                }
            }
        }
    }
}
