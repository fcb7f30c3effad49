//! Sorting, selection, scans, roll, the composed reductions, creation and random tensors,
//! each against a reference written out here with plain Rust (sorting `Vec`s, loops).

use clika_rt::ops;
use clika_rt::{manual_seed, DType, Device, Generator, Tensor};

/// A deterministic pseudo-random f32 matrix with repeats (ties) and negative values.
fn data(rows: usize, cols: usize) -> Vec<f32> {
    let mut x = 12345u32;
    (0..rows * cols)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 16) % 23) as f32 - 11.0
        })
        .collect()
}

fn vals<T: clika_rt::Element>(t: &Tensor) -> Vec<T> {
    t.contiguous().unwrap().to_vec::<T>().unwrap()
}

/// The reference stable sort of one row: values and original indices (`-0.0` equal to
/// `0.0`, NaN largest).
fn sorted_row(row: &[f32], descending: bool) -> (Vec<f32>, Vec<i64>) {
    let mut keyed: Vec<(f32, i64)> = row.iter().copied().zip(0..).collect();
    let canon = |x: f32| if x == 0.0 { 0.0 } else { x };
    keyed.sort_by(|a, b| {
        let o = canon(a.0).total_cmp(&canon(b.0));
        if descending {
            o.reverse()
        } else {
            o
        }
    });
    keyed.into_iter().unzip()
}

#[test]
fn sort_matches_a_stable_reference_along_either_dim_and_on_views() {
    let (r, c) = (7, 9);
    let d = data(r, c);
    let t = Tensor::from_vec(d.clone(), &[r, c]).unwrap();
    for descending in [false, true] {
        let s = ops::sort(&t, -1, descending, true).unwrap();
        let (v, i) = (vals::<f32>(&s.values), vals::<i64>(&s.indices));
        for row in 0..r {
            let (rv, ri) = sorted_row(&d[row * c..(row + 1) * c], descending);
            assert_eq!(&v[row * c..(row + 1) * c], &rv[..]);
            assert_eq!(&i[row * c..(row + 1) * c], &ri[..]);
        }
        // Along dim 0 of the transpose is along dim 1 of the original.
        let st = ops::sort(&t.t(), 0, descending, true).unwrap();
        assert_eq!(vals::<f32>(&st.values.t()), v);
        assert_eq!(vals::<i64>(&st.indices.t()), i);
    }
    assert_eq!(
        ops::argsort(&t, 1, false, true).unwrap().dtype(),
        DType::Int64
    );
}

/// Rows long enough to sort by radix, in every key width (8 to 64 bits, signed, unsigned and
/// float), with ties, signed zeros and NaNs: equal to the stable reference.
#[test]
fn long_rows_sort_stably_in_every_dtype() {
    // (One row of 300 under Miri: still past the radix threshold of 256.)
    let (r, c) = if cfg!(miri) { (1, 300) } else { (3, 700) };
    let mut d = data(r, c);
    d[5] = f32::NAN;
    d[40] = -0.0;
    d[41] = 0.0;
    d[c - 1] = f32::NAN;
    let t = Tensor::from_vec(d.clone(), &[r, c]).unwrap();
    let finite: Vec<f32> = d
        .iter()
        .map(|&x| if x.is_nan() { 7.0 } else { x })
        .collect();
    let tf = Tensor::from_vec(finite.clone(), &[r, c]).unwrap();
    let cases = [
        (DType::Float32, &t, &d),
        (DType::Float64, &t, &d),
        (DType::Float16, &t, &d),
        (DType::Int8, &tf, &finite),
        (DType::Int16, &tf, &finite),
        (DType::Int64, &tf, &finite),
        (DType::UInt64, &tf, &finite),
    ];
    for (dtype, src, want) in cases {
        // Unsigned types see the values shifted up; the order is the same.
        let x = if dtype == DType::UInt64 {
            src.binary_scalar(ops::BinaryOp::Add, 11.0)
                .unwrap()
                .to_dtype(dtype)
                .unwrap()
        } else {
            src.to_dtype(dtype).unwrap()
        };
        for descending in [false, true] {
            let s = ops::sort(&x, 1, descending, true).unwrap();
            let v = vals::<f64>(&s.values.to_dtype(DType::Float64).unwrap());
            let i = vals::<i64>(&s.indices);
            for row in 0..r {
                let (mut rv, ri) = sorted_row(&want[row * c..(row + 1) * c], descending);
                if dtype == DType::UInt64 {
                    rv.iter_mut().for_each(|v| *v += 11.0);
                }
                let got = &v[row * c..(row + 1) * c];
                for (g, w) in got.iter().zip(&rv) {
                    assert!(
                        g == &f64::from(*w) || (g.is_nan() && w.is_nan()),
                        "{dtype} {g} {w}"
                    );
                }
                assert_eq!(
                    &i[row * c..(row + 1) * c],
                    &ri[..],
                    "{dtype} desc={descending}"
                );
            }
        }
    }
}

/// 64-bit integers spanning more than 2^32 (keys that do not pack into 64-bit items).
#[test]
fn long_rows_of_wide_integers_sort_stably() {
    let (r, c) = if cfg!(miri) { (1, 300) } else { (2, 500) };
    let d = data(r, c);
    let wide: Vec<i64> = d.iter().map(|&x| x as i64 * 1_000_000_000_000).collect();
    let t = Tensor::from_vec(wide.clone(), &[r, c]).unwrap();
    for descending in [false, true] {
        let s = ops::sort(&t, 1, descending, true).unwrap();
        let (v, i) = (vals::<i64>(&s.values), vals::<i64>(&s.indices));
        for row in 0..r {
            let (rv, ri) = sorted_row(&d[row * c..(row + 1) * c], descending);
            let rv: Vec<i64> = rv.iter().map(|&x| x as i64 * 1_000_000_000_000).collect();
            assert_eq!(&v[row * c..(row + 1) * c], &rv[..]);
            assert_eq!(&i[row * c..(row + 1) * c], &ri[..]);
        }
    }
}

#[test]
fn sort_puts_nan_last_ascending_and_first_descending() {
    let t = Tensor::from_vec(vec![2.0f64, f64::NAN, -1.0, 5.0], &[4]).unwrap();
    let a = vals::<f64>(&ops::sort(&t, 0, false, false).unwrap().values);
    assert_eq!(&a[..3], &[-1.0, 2.0, 5.0]);
    assert!(a[3].is_nan());
    let d = ops::sort(&t, 0, true, false).unwrap();
    assert!(vals::<f64>(&d.values)[0].is_nan());
    assert_eq!(vals::<i64>(&d.indices), vec![1, 3, 0, 2]);
}

#[test]
fn sort_of_ints_bools_empty_and_scalars() {
    let t = Tensor::from_vec(vec![3i32, -1, 3, 0], &[4]).unwrap();
    let s = ops::sort(&t, 0, false, true).unwrap();
    assert_eq!(vals::<i32>(&s.values), vec![-1, 0, 3, 3]);
    assert_eq!(vals::<i64>(&s.indices), vec![1, 3, 0, 2]);
    let b = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
    let s = ops::sort(&b, 0, true, true).unwrap();
    assert_eq!(s.values.dtype(), DType::Bool);
    assert_eq!(vals::<bool>(&s.values), vec![true, true, false]);
    let e = Tensor::zeros(&[3, 0], DType::Float32).unwrap();
    assert_eq!(
        ops::sort(&e, 1, false, true).unwrap().values.shape(),
        &[3, 0]
    );
    let z = Tensor::full(&[], 4.0, DType::Float32).unwrap();
    let s = ops::sort(&z, 0, false, true).unwrap();
    assert_eq!(s.values.shape(), &[] as &[usize]);
    assert_eq!(s.indices.item::<i64>().unwrap(), 0);
}

#[test]
fn topk_kthvalue_and_median_match_the_sorted_rows() {
    let (r, c) = (5, 11);
    let d = data(r, c);
    let t = Tensor::from_vec(d.clone(), &[r, c]).unwrap();
    for k in [0, 1, 4, c] {
        for largest in [true, false] {
            let got = ops::topk(&t, k, 1, largest, true).unwrap();
            assert_eq!(got.values.shape(), &[r, k]);
            let (v, i) = (vals::<f32>(&got.values), vals::<i64>(&got.indices));
            for row in 0..r {
                let (rv, ri) = sorted_row(&d[row * c..(row + 1) * c], largest);
                assert_eq!(&v[row * k..(row + 1) * k], &rv[..k]);
                assert_eq!(&i[row * k..(row + 1) * k], &ri[..k]);
            }
        }
    }
    assert!(ops::topk(&t, c + 1, 1, true, true).is_err());
    for k in 1..=c {
        let got = ops::kthvalue(&t, k, 1, false).unwrap();
        let v = vals::<f32>(&got.values);
        let i = vals::<i64>(&got.indices);
        for row in 0..r {
            let (rv, _) = sorted_row(&d[row * c..(row + 1) * c], false);
            assert_eq!(v[row], rv[k - 1]);
            assert_eq!(d[row * c + i[row] as usize], rv[k - 1]);
        }
    }
    assert!(ops::kthvalue(&t, 0, 1, false).is_err());
    let m = ops::median_dim(&t, 1, true).unwrap();
    assert_eq!(m.values.shape(), &[r, 1]);
    let mv = vals::<f32>(&m.values);
    for row in 0..r {
        let (rv, _) = sorted_row(&d[row * c..(row + 1) * c], false);
        assert_eq!(mv[row], rv[(c - 1) / 2]);
    }
    // Even count: the lower median; all elements.
    let even = Tensor::from_vec(vec![4.0f32, 1.0, 3.0, 2.0], &[4]).unwrap();
    assert_eq!(ops::median(&even).unwrap().item::<f32>().unwrap(), 2.0);
    let nan = Tensor::from_vec(vec![1.0f32, f32::NAN, 0.0], &[3]).unwrap();
    assert!(ops::median(&nan).unwrap().item::<f32>().unwrap().is_nan());
    assert_eq!(
        vals::<i64>(&ops::median_dim(&nan, 0, false).unwrap().indices),
        vec![1]
    );
}

#[test]
fn max_and_min_dim_give_values_and_first_indices() {
    let t = Tensor::from_vec(vec![1i32, 7, 7, 2, -3, 0], &[2, 3]).unwrap();
    let m = ops::max_dim(&t, 1, false).unwrap();
    assert_eq!(vals::<i32>(&m.values), vec![7, 2]);
    assert_eq!(vals::<i64>(&m.indices), vec![1, 0]);
    let m = ops::min_dim(&t, 0, true).unwrap();
    assert_eq!(m.values.shape(), &[1, 3]);
    assert_eq!(vals::<i32>(&m.values), vec![1, -3, 0]);
    assert_eq!(vals::<i64>(&m.indices), vec![0, 1, 1]);
}

#[test]
fn unique_sorts_counts_and_inverts() {
    let t = Tensor::from_vec(vec![3i64, 1, 3, 2, 1, 3], &[2, 3]).unwrap();
    let u = ops::unique(&t, true, true, true).unwrap();
    assert_eq!(vals::<i64>(&u.values), vec![1, 2, 3]);
    assert_eq!(vals::<i64>(&u.counts.unwrap()), vec![2, 1, 3]);
    let inv = u.inverse.unwrap();
    assert_eq!(inv.shape(), &[2, 3]);
    assert_eq!(vals::<i64>(&inv), vec![2, 0, 2, 1, 0, 2]);
    let e = ops::unique(
        &Tensor::zeros(&[0], DType::Float32).unwrap(),
        true,
        true,
        true,
    )
    .unwrap();
    assert_eq!(e.values.numel(), 0);
}

#[test]
fn unique_dim_groups_whole_slices_in_lexicographic_order() {
    // rows [2 1] [0 5] [2 1] [0 4]: distinct rows [0 4] [0 5] [2 1]
    let t = Tensor::from_vec(vec![2i32, 1, 0, 5, 2, 1, 0, 4], &[4, 2]).unwrap();
    let u = ops::unique_dim(&t, 0, true, true).unwrap();
    assert_eq!(u.values.shape(), &[3, 2]);
    assert_eq!(vals::<i32>(&u.values), vec![0, 4, 0, 5, 2, 1]);
    assert_eq!(vals::<i64>(&u.inverse.unwrap()), vec![2, 1, 2, 0]);
    assert_eq!(vals::<i64>(&u.counts.unwrap()), vec![1, 1, 2]);
    // The same columns of the transposed (strided) view, along dim 1 (= -1).
    let c = ops::unique_dim(&t.t(), -1, false, true).unwrap();
    assert_eq!(c.values.shape(), &[2, 3]);
    assert_eq!(vals::<i32>(&c.values), vec![0, 0, 2, 4, 5, 1]);
    assert!(c.inverse.is_none());
    // -0.0 equals 0.0; a slice with NaN equals no other slice.
    let f = Tensor::from_vec(
        vec![-0.0f32, 1.0, f32::NAN, 0.0, 0.0, 1.0, f32::NAN, 0.0],
        &[4, 2],
    )
    .unwrap();
    let uf = ops::unique_dim(&f, 0, false, true).unwrap();
    assert_eq!(vals::<i64>(&uf.counts.unwrap()), vec![2, 1, 1]);
    // Empty along dim: no slices; out-of-range dim: refused.
    let e = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    assert_eq!(
        ops::unique_dim(&e, 0, true, true).unwrap().values.shape(),
        &[0, 3]
    );
    assert!(ops::unique_dim(&t, 2, false, false).is_err());
}

#[test]
fn any_all_follow_truthiness_and_empty_identities() {
    let t = Tensor::from_vec(vec![0.0f32, 0.0, f32::NAN, 0.0, 1.0, 2.0], &[2, 3]).unwrap();
    assert!(ops::any(&t, None, false).unwrap().item::<bool>().unwrap());
    assert!(!ops::all(&t, None, false).unwrap().item::<bool>().unwrap());
    assert_eq!(
        vals::<bool>(&ops::any(&t, Some(&[1]), false).unwrap()),
        vec![true, true]
    );
    assert_eq!(
        vals::<bool>(&ops::all(&t, Some(&[0]), false).unwrap()),
        vec![false, false, true]
    );
    let e = Tensor::zeros(&[0, 2], DType::Int32).unwrap();
    assert_eq!(
        vals::<bool>(&ops::all(&e, Some(&[0]), true).unwrap()),
        vec![true, true]
    );
    assert!(!ops::any(&e, None, false).unwrap().item::<bool>().unwrap());
}

#[test]
fn cumsum_cumprod_match_running_loops_and_promote_integers() {
    let (r, c) = (4, 6);
    let d = data(r, c);
    let t = Tensor::from_vec(d.clone(), &[r, c]).unwrap();
    let s0 = vals::<f32>(&ops::cumsum(&t, 0, None).unwrap());
    for col in 0..c {
        let mut acc = 0.0f32;
        for row in 0..r {
            acc += d[row * c + col];
            assert_eq!(s0[row * c + col], acc);
        }
    }
    let i = Tensor::from_vec(vec![1i8, 2, 3, 4, 5], &[5]).unwrap();
    let p = ops::cumprod(&i, 0, None).unwrap();
    assert_eq!(p.dtype(), DType::Int64);
    assert_eq!(vals::<i64>(&p), vec![1, 2, 6, 24, 120]);
    let f = ops::cumsum(&i, -1, Some(DType::Float64)).unwrap();
    assert_eq!(vals::<f64>(&f), vec![1.0, 3.0, 6.0, 10.0, 15.0]);
    let b = Tensor::from_vec(vec![true, true, false], &[3]).unwrap();
    assert_eq!(
        vals::<i64>(&ops::cumsum(&b, 0, None).unwrap()),
        vec![1, 2, 2]
    );
}

#[test]
fn roll_wraps_along_dims_and_flattened() {
    let t = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
    assert_eq!(
        vals::<i32>(&ops::roll(&t, &[1], &[1]).unwrap()),
        vec![2, 0, 1, 5, 3, 4]
    );
    assert_eq!(
        vals::<i32>(&ops::roll(&t, &[-1], &[]).unwrap()),
        vec![1, 2, 3, 4, 5, 0]
    );
    assert_eq!(
        vals::<i32>(&ops::roll(&t, &[1, 4], &[0, 1]).unwrap()),
        vec![5, 3, 4, 2, 0, 1]
    );
    assert!(ops::roll(&t, &[1, 2], &[0]).is_err());
}

#[test]
fn logsumexp_and_norms() {
    let t = Tensor::from_vec(vec![1.0f64, 2.0, 3.0, -4.0], &[2, 2]).unwrap();
    let l = vals::<f64>(&ops::logsumexp(&t, Some(&[1]), false).unwrap());
    assert!((l[0] - (1f64.exp() + 2f64.exp()).ln()).abs() < 1e-12);
    assert!((l[1] - (3f64.exp() + (-4f64).exp()).ln()).abs() < 1e-12);
    let inf = Tensor::from_vec(vec![f64::INFINITY, 1.0], &[2]).unwrap();
    assert_eq!(
        ops::logsumexp(&inf, None, false)
            .unwrap()
            .item::<f64>()
            .unwrap(),
        f64::INFINITY
    );
    let e = Tensor::zeros(&[0], DType::Float32).unwrap();
    assert_eq!(
        ops::logsumexp(&e, None, false)
            .unwrap()
            .item::<f32>()
            .unwrap(),
        f32::NEG_INFINITY
    );
    let n = |p| {
        ops::norm(&t, p, None, false)
            .unwrap()
            .item::<f64>()
            .unwrap()
    };
    assert!((n(2.0) - 30f64.sqrt()).abs() < 1e-12);
    assert_eq!(n(1.0), 10.0);
    assert_eq!(n(f64::INFINITY), 4.0);
    assert_eq!(n(f64::NEG_INFINITY), 1.0);
    assert!((n(3.0) - 100f64.cbrt()).abs() < 1e-12);
}

/// The 1- and 2-norms (fused on the CPU when rows are walked, composed otherwise) against
/// f64 loops: all dims, each dim (kept and not), a transposed view, a broadcast view, half,
/// integer and empty inputs.
#[test]
fn norms_match_a_reference_over_layouts_and_dtypes() {
    let (r, c) = if cfg!(miri) { (5, 40) } else { (37, 300) };
    let d: Vec<f32> = data(r, c).iter().map(|x| x * 0.37).collect();
    let t = Tensor::from_vec(d.clone(), &[r, c]).unwrap();
    let at = |i: usize, j: usize| f64::from(d[i * c + j]);
    let reduce = |p: f64, xs: &mut dyn Iterator<Item = f64>| {
        let s: f64 = xs.map(|x| if p == 2.0 { x * x } else { x.abs() }).sum();
        if p == 2.0 {
            s.sqrt()
        } else {
            s
        }
    };
    let close = |got: &Tensor, want: &[f64], tol: f64, what: &str| {
        let g = vals::<f64>(&got.to_dtype(DType::Float64).unwrap());
        assert_eq!(g.len(), want.len(), "{what}");
        for (a, b) in g.iter().zip(want) {
            assert!(
                (a - b).abs() <= tol * b.abs().max(1e-30),
                "{what}: {a} vs {b}"
            );
        }
    };
    for p in [1.0, 2.0] {
        let all = [reduce(p, &mut (0..r * c).map(|k| at(k / c, k % c)))];
        let rows: Vec<f64> = (0..r)
            .map(|i| reduce(p, &mut (0..c).map(|j| at(i, j))))
            .collect();
        let cols: Vec<f64> = (0..c)
            .map(|j| reduce(p, &mut (0..r).map(|i| at(i, j))))
            .collect();
        close(&ops::norm(&t, p, None, false).unwrap(), &all, 1e-5, "all");
        close(
            &ops::norm(&t, p, Some(&[1]), false).unwrap(),
            &rows,
            1e-5,
            "rows",
        );
        let kept = ops::norm(&t, p, Some(&[-1]), true).unwrap();
        assert_eq!(kept.shape(), &[r, 1]);
        close(&kept, &rows, 1e-5, "rows keepdim");
        close(
            &ops::norm(&t, p, Some(&[0]), false).unwrap(),
            &cols,
            1e-5,
            "cols",
        );
        close(
            &ops::norm(&t.t(), p, Some(&[0]), false).unwrap(),
            &rows,
            1e-5,
            "transposed",
        );
        let row0 = t.narrow(0, 0, 1).unwrap().expand(&[4, c as isize]).unwrap();
        let want = [reduce(p, &mut (0..4 * c).map(|k| at(0, k % c)))];
        close(
            &ops::norm(&row0, p, None, false).unwrap(),
            &want,
            1e-5,
            "broadcast",
        );
        let h = ops::norm(&t.to_dtype(DType::Float16).unwrap(), p, Some(&[1]), false).unwrap();
        assert_eq!(h.dtype(), DType::Float16);
        close(&h, &rows, 2e-3, "float16");
        let i = Tensor::from_vec(vec![3i32, -4, 0, 12], &[2, 2]).unwrap();
        let want = if p == 2.0 { [5.0, 12.0] } else { [7.0, 12.0] };
        close(
            &ops::norm(&i, p, Some(&[1]), false).unwrap(),
            &want,
            0.0,
            "int32",
        );
        let e = Tensor::zeros(&[0, 5], DType::Float32).unwrap();
        assert_eq!(ops::norm(&e, p, Some(&[1]), false).unwrap().shape(), &[0]);
        close(
            &ops::norm(&e, p, Some(&[0]), false).unwrap(),
            &[0.0; 5],
            0.0,
            "empty",
        );
    }
}

/// logsumexp (fused on the CPU for float32/float64, composed otherwise) against f64 loops:
/// one dim, two non-adjacent dims, all dims, a transposed view, rows with infinities and
/// NaN, and float16 and integer inputs.
#[test]
fn logsumexp_matches_a_reference_over_dims_and_special_rows() {
    let (a, b, c) = if cfg!(miri) { (2, 3, 20) } else { (4, 5, 70) };
    let mut d: Vec<f64> = data(a * b, c).iter().map(|&x| f64::from(x) * 0.9).collect();
    d[3] = f64::NEG_INFINITY;
    // Row (0, 1, ·) all -inf, row (1, 0, ·) with +inf, row (1, 1, ·) with NaN.
    d[c..2 * c].fill(f64::NEG_INFINITY);
    d[b * c + 7] = f64::INFINITY;
    d[(b + 1) * c + 2] = f64::NAN;
    let t = Tensor::from_vec(d.clone(), &[a, b, c]).unwrap();
    let at = |i: usize, j: usize, k: usize| d[(i * b + j) * c + k];
    let lse = |xs: &[f64]| {
        let m = xs.iter().fold(
            f64::NEG_INFINITY,
            |m, &x| if x > m || x.is_nan() { x } else { m },
        );
        if m.is_infinite() {
            m
        } else {
            m + xs.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
        }
    };
    let check = |got: Tensor, want: Vec<f64>, tol: f64, what: &str| {
        let g = vals::<f64>(&got.to_dtype(DType::Float64).unwrap());
        assert_eq!(g.len(), want.len(), "{what}");
        for (x, y) in g.iter().zip(&want) {
            let ok =
                (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= tol * y.abs().max(1.0);
            assert!(ok, "{what}: {x} vs {y}");
        }
    };
    let last: Vec<f64> = (0..a * b).map(|r| lse(&d[r * c..(r + 1) * c])).collect();
    for dtype in [DType::Float64, DType::Float32] {
        let x = t.to_dtype(dtype).unwrap();
        let tol = if dtype == DType::Float64 { 1e-12 } else { 1e-5 };
        check(
            ops::logsumexp(&x, Some(&[-1]), false).unwrap(),
            last.clone(),
            tol,
            "last",
        );
        let mid: Vec<f64> = (0..a * c)
            .map(|r| lse(&(0..b).map(|j| at(r / c, j, r % c)).collect::<Vec<_>>()))
            .collect();
        check(
            ops::logsumexp(&x, Some(&[1]), false).unwrap(),
            mid,
            tol,
            "middle",
        );
        let outer: Vec<f64> = (0..b)
            .map(|j| lse(&(0..a * c).map(|q| at(q / c, j, q % c)).collect::<Vec<_>>()))
            .collect();
        let r = ops::logsumexp(&x, Some(&[0, 2]), true).unwrap();
        assert_eq!(r.shape(), &[1, b, 1]);
        check(r, outer, tol, "dims 0 and 2");
        check(
            ops::logsumexp(&x, None, false).unwrap(),
            vec![lse(&d)],
            tol,
            "all",
        );
        let tr = x.reshape(&[(a * b) as isize, c as isize]).unwrap().t();
        check(
            ops::logsumexp(&tr, Some(&[0]), false).unwrap(),
            last.clone(),
            tol,
            "transposed",
        );
    }
    let h = ops::logsumexp(&t.to_dtype(DType::Float16).unwrap(), Some(&[-1]), false).unwrap();
    assert_eq!(h.dtype(), DType::Float16);
    let i = Tensor::from_vec(vec![0i32, 0, 1, 1], &[2, 2]).unwrap();
    let want = vec![2f64.ln(), 1.0 + 2f64.ln()];
    check(
        ops::logsumexp(&i, Some(&[1]), false).unwrap(),
        want,
        1e-6,
        "int32",
    );
}

/// Equal values; under Miri within 1e-12 relative, because Miri deliberately perturbs the
/// last bits of every transcendental float function (`powf`, `ln`, `cos`) on each call.
fn assert_same(got: &[f64], want: &[f64]) {
    if cfg!(miri) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                "{got:?} vs {want:?}"
            );
        }
    } else {
        assert_eq!(got, want);
    }
}

#[test]
fn creation_linspace_logspace_eye_like() {
    let l = vals::<f64>(&Tensor::linspace(0.0, 1.0, 5, DType::Float64).unwrap());
    assert_eq!(l, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    assert_eq!(
        Tensor::linspace(3.0, 9.0, 1, DType::Float32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![3.0]
    );
    // Every length around the eight-element groups, and one filled in parallel: numpy's
    // formula (`start + i·step` in f64, then the cast) with `end` exactly last; arange the
    // same without the end.
    let (a, b) = (-1.5f64, 2.25f64);
    let big = if cfg!(miri) { 3001 } else { 300_001 };
    for n in [0usize, 2, 7, 8, 9, 17, big] {
        let step = (b - a) / (n.max(2) - 1) as f64;
        let want: Vec<f32> = (0..n)
            .map(|i| {
                if i == n - 1 {
                    b as f32
                } else {
                    (a + i as f64 * step) as f32
                }
            })
            .collect();
        let got = Tensor::linspace(a, b, n, DType::Float32).unwrap();
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "linspace n={n}");
        let r = Tensor::arange(a, a + n as f64 * 0.5, 0.5, DType::Int16).unwrap();
        let want: Vec<i16> = (0..n).map(|i| (a + i as f64 * 0.5) as i16).collect();
        assert_eq!(r.to_vec::<i16>().unwrap(), want, "arange n={n}");
    }
    let g = vals::<f64>(&Tensor::logspace(0.0, 2.0, 3, 10.0, DType::Float64).unwrap());
    assert_same(&g, &[1.0, 10.0, 100.0]);
    let e = vals::<i32>(&Tensor::eye(2, Some(3), DType::Int32).unwrap());
    assert_eq!(e, vec![1, 0, 0, 0, 1, 0]);
    let t = Tensor::zeros(&[2, 2], DType::Int8).unwrap();
    let f = t.full_like(7.0, None, None).unwrap();
    assert_eq!((f.dtype(), vals::<i8>(&f)), (DType::Int8, vec![7; 4]));
    assert_eq!(
        t.ones_like(Some(DType::Float32), None).unwrap().dtype(),
        DType::Float32
    );
    assert_eq!(
        t.empty_like(None, Some(Device::cpu())).unwrap().shape(),
        &[2, 2]
    );
}

#[test]
fn random_is_reproducible_per_seed_and_in_range() {
    let g = Generator::new(7);
    let a = vals::<f32>(&g.rand(&[1000], DType::Float32, Device::cpu()).unwrap());
    let b = vals::<f32>(&g.rand(&[1000], DType::Float32, Device::cpu()).unwrap());
    assert_ne!(a, b, "each call advances the generator");
    g.manual_seed(7);
    assert_eq!(
        vals::<f32>(&g.rand(&[1000], DType::Float32, Device::cpu()).unwrap()),
        a
    );
    assert!(a.iter().all(|&x| (0.0..1.0).contains(&x)));
    let mean = a.iter().sum::<f32>() / 1000.0;
    assert!((mean - 0.5).abs() < 0.05, "mean {mean}");
    // An element depends on its index only: a longer draw (split across threads) starts with
    // the shorter one, whose odd length cuts a Box–Muller pair in half.
    let g2 = Generator::new(11);
    let short = vals::<f64>(&g2.randn(&[11], DType::Float64, Device::cpu()).unwrap());
    g2.manual_seed(11);
    // (Under Miri a smaller draw, one thread: the bounds below scale with 1/√n.)
    let n = if cfg!(miri) { 1 << 11 } else { 1 << 18 };
    let long = vals::<f64>(&g2.randn(&[n], DType::Float64, Device::cpu()).unwrap());
    assert_same(&long[..11], &short);
    normal_statistics(&long, "float64");
    // Float32 and Float16 compute in f32 lanes from 24-bit uniforms.
    // (Under Miri a quarter of the draw: the bounds scale with 1/√n.)
    let m = if cfg!(miri) { n / 4 } else { n };
    for dtype in [DType::Float32, DType::Float16] {
        let x = g2.normal(&[m], 3.0, 2.0, dtype, Device::cpu()).unwrap();
        let x: Vec<f64> = vals::<f64>(&x.to_dtype(DType::Float64).unwrap())
            .iter()
            .map(|v| (v - 3.0) / 2.0)
            .collect();
        normal_statistics(&x, &format!("{dtype}"));
    }
    let r = vals::<i64>(
        &g.randint(-3, 4, &[5000], DType::Int64, Device::cpu())
            .unwrap(),
    );
    assert!(r.iter().all(|x| (-3..4).contains(x)));
    for k in -3..4 {
        assert!(r.contains(&k));
    }
    assert!(g.randint(2, 2, &[1], DType::Int64, Device::cpu()).is_err());
    assert!(g.rand(&[1], DType::Int32, Device::cpu()).is_err());
    let p = Tensor::from_vec(vec![0.0f32, 1.0, 0.0, 1.0], &[4]).unwrap();
    assert_eq!(
        vals::<f32>(&g.bernoulli(&p).unwrap()),
        vec![0.0, 1.0, 0.0, 1.0]
    );
    manual_seed(3);
    let d1 = vals::<f32>(
        &clika_rt::tensor::random::default_generator()
            .rand(&[4], DType::Float32, Device::cpu())
            .unwrap(),
    );
    manual_seed(3);
    let d2 = vals::<f32>(
        &clika_rt::tensor::random::default_generator()
            .rand(&[4], DType::Float32, Device::cpu())
            .unwrap(),
    );
    assert_eq!(d1, d2);
}

#[test]
fn philox_matches_the_published_known_answers() {
    use clika_rt::tensor::random::philox4x32_10;
    // Random123's known-answer vectors for philox4x32_10 (counter, key -> output).
    assert_eq!(
        philox4x32_10([0; 4], [0; 2]),
        [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
    );
    assert_eq!(
        philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
        [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
    );
    assert_eq!(
        philox4x32_10(
            [0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344],
            [0xa409_3822, 0x299f_31d0]
        ),
        [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
    );
    assert_eq!(clika_rt::ops::RowSelect::Median.name(), "median");
}

/// Standard normal samples: mean 0, variance 1, the two values of a pair and neighbouring
/// pairs uncorrelated, and the mass within 1σ and beyond 2σ as the distribution's; bounds
/// scale with 1/√n.
fn normal_statistics(long: &[f64], what: &str) {
    let n = long.len();
    let tol = 1.0 / (n as f64).sqrt();
    let m = long.iter().sum::<f64>() / n as f64;
    let v = long.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
    assert!(
        m.abs() < 5.0 * tol && (v - 1.0).abs() < 10.0 * tol,
        "{what}: mean {m} var {v}"
    );
    for lag in [1, 2, 3] {
        let c = long
            .iter()
            .zip(&long[lag..])
            .map(|(x, y)| (x - m) * (y - m))
            .sum::<f64>()
            / (n - lag) as f64
            / v;
        assert!(c.abs() < 5.0 * tol, "{what}: lag-{lag} correlation {c}");
    }
    for (inside, want) in [(1.0, 0.682_689), (2.0, 0.954_500)] {
        let f = long.iter().filter(|x| x.abs() < inside).count() as f64 / n as f64;
        assert!(
            (f - want).abs() < 5.0 * tol,
            "{what}: {f} within {inside}σ, want {want}"
        );
    }
}
