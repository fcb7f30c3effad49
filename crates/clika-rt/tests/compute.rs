//! Compute ops against an f64 reference model, on contiguous, strided, transposed,
//! broadcast (stride 0) and zero-size inputs, for every dtype the op accepts.

use clika_rt::dtype::Element;
use clika_rt::ops::{self, BinaryOp, Scalar, UnaryOp};
use clika_rt::{dispatch_dtype, DType, Tensor};
use proptest::prelude::*;

/// How the test tensor's memory is laid out.
#[derive(Debug, Clone, Copy)]
enum Form {
    Contiguous,
    Transposed,
    Strided,
    Broadcast,
}

/// A tensor of `shape` with small integer values (exact in every dtype) laid out as `form`.
fn make(shape: &[usize], dtype: DType, form: Form, seed: u64) -> Tensor {
    let n: usize = shape.iter().product();
    let val = |i: usize| ((i as u64).wrapping_mul(2654435761).wrapping_add(seed) % 9) as f64 - 4.0;
    let vals: Vec<f64> = (0..n).map(val).collect();
    let base = Tensor::from_data(&vals, shape).unwrap();
    let t = match form {
        Form::Contiguous => base,
        Form::Transposed => {
            let rev: Vec<usize> = shape.iter().rev().copied().collect();
            let dims: Vec<isize> = (0..shape.len() as isize).rev().collect();
            let m: Vec<f64> = {
                // Lay the values out so that the transposed view reads `vals` in order.
                let tt = Tensor::from_data(&vals, shape)
                    .unwrap()
                    .permute(&dims)
                    .unwrap();
                tt.contiguous().unwrap().to_vec::<f64>().unwrap()
            };
            Tensor::from_data(&m, &rev).unwrap().permute(&dims).unwrap()
        }
        Form::Strided => {
            // Every other element of a tensor twice as long in the last dimension.
            let mut big = shape.to_vec();
            if let Some(l) = big.last_mut() {
                *l *= 2;
            }
            let nb: usize = big.iter().product();
            let mut data = vec![99.0; nb];
            let last = *shape.last().unwrap_or(&1);
            for (i, v) in vals.iter().enumerate() {
                let (row, col) = (i / last.max(1), i % last.max(1));
                data[row * 2 * last + 2 * col] = *v;
            }
            let b = Tensor::from_data(&data, &big).unwrap();
            if shape.is_empty() {
                b
            } else {
                b.slice(-1, None, None, 2).unwrap()
            }
        }
        Form::Broadcast => {
            // Same values only if they do not depend on the first index: use row 0 expanded.
            if shape.is_empty() || shape[0] == 0 {
                base
            } else {
                let sizes: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
                base.narrow(0, 0, 1).unwrap().expand(&sizes).unwrap()
            }
        }
    };
    t.to_dtype(dtype).unwrap()
}

fn form() -> impl Strategy<Value = Form> {
    prop_oneof![
        Just(Form::Contiguous),
        Just(Form::Transposed),
        Just(Form::Strided),
        Just(Form::Broadcast)
    ]
}

fn dtype() -> impl Strategy<Value = DType> {
    proptest::sample::select(DType::ALL.to_vec())
}

fn shape() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..4, 0..4)
}

fn reference(op: BinaryOp, x: f64, y: f64) -> f64 {
    match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div => x / y,
        BinaryOp::Pow => x.powf(y),
        BinaryOp::Maximum => x.max(y),
        BinaryOp::Minimum => x.min(y),
        BinaryOp::Eq => f64::from(u8::from(x == y)),
        BinaryOp::Ne => f64::from(u8::from(x != y)),
        BinaryOp::Lt => f64::from(u8::from(x < y)),
        BinaryOp::Le => f64::from(u8::from(x <= y)),
        BinaryOp::Gt => f64::from(u8::from(x > y)),
        BinaryOp::Ge => f64::from(u8::from(x >= y)),
        // The issue-14 ops have their own references in tests/elementwise_more.rs.
        _ => unreachable!("{op:?} is not in first_binary"),
    }
}

/// The ops this file's references model (the first thirteen; the later ones are tested
/// against their own references in tests/elementwise_more.rs).
fn first_binary() -> Vec<BinaryOp> {
    BinaryOp::ALL[..13].to_vec()
}

/// As [`first_binary`], for unary ops (the first fourteen).
fn first_unary() -> Vec<UnaryOp> {
    UnaryOp::ALL[..14].to_vec()
}

/// The reference result converted exactly as the runtime converts to `dtype`: integer
/// results wrap (two's complement), float results round.
fn round_to(dtype: DType, v: f64) -> f64 {
    if dtype.is_float() || dtype == DType::Bool || !v.is_finite() {
        dispatch_dtype!(dtype, T => T::from_f64(v).to_f64())
    } else {
        dispatch_dtype!(dtype, T => T::from_i64(v as i64).to_f64())
    }
}

fn close(a: f64, b: f64, dtype: DType) -> bool {
    let tol = match dtype {
        DType::Float16 | DType::BFloat16 => 1e-2,
        DType::Float32 => 1e-5,
        _ => 1e-12,
    };
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol * b.abs().max(1.0)
}

fn expanded_values(t: &Tensor, shape: &[usize]) -> Vec<f64> {
    let sizes: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    t.expand(&sizes).unwrap().to_f64_vec().unwrap()
}

proptest! {
    #[test]
    fn binary_ops_broadcast_and_promote(
        sa in shape(), drop_b in 0usize..3, da in dtype(), db in dtype(), fa in form(), fb in form(),
        op in proptest::sample::select(first_binary()),
    ) {
        // b's shape: a suffix of a's, with some dims set to 1.
        let sb: Vec<usize> = sa[drop_b.min(sa.len())..].iter().enumerate().map(|(i, &d)| if i % 2 == 1 { 1 } else { d }).collect();
        let (a, b) = (make(&sa, da, fa, 1), make(&sb, db, fb, 7));
        let Ok((cd, od)) = op.dtypes(da, db) else {
            prop_assert!(ops::binary(op, &a, &b).is_err());
            return Ok(());
        };
        let r = ops::binary(op, &a, &b).unwrap();
        prop_assert_eq!(r.dtype(), od);
        prop_assert_eq!(r.shape(), &sa[..]);
        let (xa, xb) = (expanded_values(&a, &sa), expanded_values(&b, &sa));
        let got = r.to_f64_vec().unwrap();
        let int_domain = !cd.is_float();
        for i in 0..got.len() {
            let (x, y) = (round_to(cd, xa[i]), round_to(cd, xb[i]));
            if int_domain && matches!(op, BinaryOp::Pow) && y < 0.0 {
                continue; // integer negative powers: documented truncation, checked below
            }
            // Integer powers exactly (wrapping, as the runtime): `powf` is inexact under Miri,
            // which perturbs float functions, and truncation would turn -26.99… into -26.
            let want = if int_domain && matches!(op, BinaryOp::Pow) {
                round_to(od, (x as i64).wrapping_pow(y as u32) as f64)
            } else {
                round_to(od, reference(op, x, y))
            };
            prop_assert!(close(got[i], want, od), "{:?} {} {}: {} vs {}", op, x, y, got[i], want);
        }
    }

    #[test]
    fn unary_ops_match_f64(s in shape(), d in dtype(), f in form(), op in proptest::sample::select(first_unary())) {
        let t = make(&s, d, f, 3);
        let Ok(od) = op.out_dtype(d) else {
            prop_assert!(ops::unary(op, &t).is_err());
            return Ok(());
        };
        let r = ops::unary(op, &t).unwrap();
        prop_assert_eq!(r.dtype(), od);
        let xs = t.to_f64_vec().unwrap();
        for (x, g) in xs.iter().zip(r.to_f64_vec().unwrap()) {
            let x = round_to(od, *x);
            let want = match op {
                UnaryOp::Neg => -x,
                UnaryOp::Abs => x.abs(),
                UnaryOp::Relu => x.max(0.0),
                UnaryOp::Exp => x.exp(),
                UnaryOp::Log => x.ln(),
                UnaryOp::Sqrt => x.sqrt(),
                UnaryOp::Rsqrt => 1.0 / x.sqrt(),
                UnaryOp::Sin => x.sin(),
                UnaryOp::Cos => x.cos(),
                UnaryOp::Tanh => x.tanh(),
                UnaryOp::Sigmoid => 1.0 / (1.0 + (-x).exp()),
                UnaryOp::Gelu => 0.5 * x * (1.0 + libm::erf(x / 2f64.sqrt())),
                UnaryOp::Silu => x / (1.0 + (-x).exp()),
                UnaryOp::Erf => libm::erf(x),
                _ => unreachable!("{op:?} is not in first_unary"),
            };
            let want = if d == DType::Bool { round_to(od, want.abs()) } else { round_to(od, want) };
            prop_assert!(close(g, want, od), "{:?}({}) = {} vs {}", op, x, g, want);
        }
    }

    #[test]
    fn reductions_match_reference(s in proptest::collection::vec(1usize..4, 1..4), d in dtype(), f in form(), dim in 0usize..3, keep in any::<bool>()) {
        let t = make(&s, d, f, 5);
        let dim = (dim % s.len()) as isize;
        let xs = t.to_f64_vec().unwrap();
        // Reference: reduce the values along `dim` by hand.
        let (outer, n, inner) = (s[..dim as usize].iter().product::<usize>(), s[dim as usize], s[dim as usize + 1..].iter().product::<usize>());
        let lane = |o: usize, i: usize| -> Vec<f64> { (0..n).map(|j| xs[(o * n + j) * inner + i]).collect() };
        let check = |r: Tensor, f: &dyn Fn(&[f64]) -> f64| -> Result<(), TestCaseError> {
            let got = r.to_f64_vec().unwrap();
            let dt = r.dtype();
            for o in 0..outer {
                for i in 0..inner {
                    let want = round_to(dt, f(&lane(o, i)));
                    prop_assert!(close(got[o * inner + i], want, dt), "{} vs {}", got[o * inner + i], want);
                }
            }
            Ok(())
        };
        check(t.sum_dims(&[dim], keep).unwrap(), &|v| v.iter().sum())?;
        check(t.prod_dims(&[dim], keep).unwrap(), &|v| v.iter().product())?;
        check(t.max_dims(&[dim], keep).unwrap(), &|v| v.iter().cloned().fold(f64::MIN, f64::max))?;
        check(t.min_dims(&[dim], keep).unwrap(), &|v| v.iter().cloned().fold(f64::MAX, f64::min))?;
        check(t.argmax_dim(dim, keep).unwrap(), &|v| v.iter().enumerate().fold((0, v[0]), |b, (i, &x)| if x > b.1 { (i, x) } else { b }).0 as f64)?;
        check(t.argmin_dim(dim, keep).unwrap(), &|v| v.iter().enumerate().fold((0, v[0]), |b, (i, &x)| if x < b.1 { (i, x) } else { b }).0 as f64)?;
        if d != DType::Bool {
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            check(t.mean_dims(&[dim], keep).unwrap(), &mean)?;
            let var = |v: &[f64]| { let m = mean(v); v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64 };
            check(t.var_dims(&[dim], 0, keep).unwrap(), &var)?;
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "large inputs (and gemm's SIMD kernels) are too slow under Miri"
)]
fn full_reductions_of_large_strided_views_are_accurate() {
    // A pitched view (rows of 300 inside rows of 512) and its transpose: both reduce in
    // parallel over contiguous rows.
    let base = Tensor::full(&[700, 512], 0.1, DType::Float32).unwrap();
    let pitched = base.narrow(1, 0, 300).unwrap();
    let want = 700.0 * 300.0 * f64::from(0.1f32);
    for t in [pitched.clone(), pitched.t()] {
        let s = t.sum().unwrap().item::<f64>().unwrap();
        assert!((s - want).abs() / want < 1e-6, "{s} vs {want}");
        assert_eq!(t.max().unwrap().item::<f32>().unwrap(), 0.1);
    }
    let idx = Tensor::arange(0.0, 300_000.0, 1.0, DType::Float32).unwrap();
    assert_eq!(idx.argmax().unwrap().item::<i64>().unwrap(), 299_999);
    assert_eq!(idx.argmin().unwrap().item::<i64>().unwrap(), 0);
    let big = Tensor::full(&[1 << 20], 1.0, DType::Float64).unwrap();
    let b = ops::binary_scalar(BinaryOp::Add, &big, Scalar::Int(1)).unwrap();
    assert_eq!(
        b.sum().unwrap().item::<f64>().unwrap(),
        2.0 * (1 << 20) as f64
    );
}

#[test]
fn empty_reductions() {
    let e = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    assert!(e.max().is_err());
    assert!(e.argmax().is_err());
    assert_eq!(e.prod().unwrap().item::<f32>().unwrap(), 1.0);
    assert_eq!(e.max_dims(&[1], false).unwrap().shape(), &[0]);
}

#[test]
fn nan_propagates_through_max_and_maximum() {
    let t = Tensor::from_data(&[1.0f32, f32::NAN, 3.0], &[3]).unwrap();
    assert!(t.max().unwrap().item::<f32>().unwrap().is_nan());
    assert_eq!(t.argmax().unwrap().item::<i64>().unwrap(), 1);
    let z = Tensor::zeros(&[3], DType::Float32).unwrap();
    let m = ops::maximum(&z, &t).unwrap().to_vec::<f32>().unwrap();
    assert!(m[1].is_nan() && m[0] == 1.0);
}

fn naive_matmul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            out[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    out
}

#[test]
#[cfg_attr(
    miri,
    ignore = "large inputs (and gemm's SIMD kernels) are too slow under Miri"
)]
fn matmul_shapes_layouts_and_dtypes() {
    for (m, k, n) in [
        (1, 1, 1),
        (3, 5, 2),
        (17, 33, 9),
        (64, 64, 64),
        (0, 3, 2),
        (2, 0, 3),
    ] {
        for d in [DType::Float32, DType::Float64, DType::Float16, DType::Int32] {
            let a = make(&[m, k], d, Form::Contiguous, 1);
            let bt = make(&[n, k], d, Form::Contiguous, 2).t(); // a transposed view
            let r = a.matmul(&bt).unwrap();
            assert_eq!(r.shape(), &[m, n]);
            assert_eq!(r.dtype(), d);
            let want = naive_matmul(&a.to_f64_vec().unwrap(), &bt.to_f64_vec().unwrap(), m, k, n);
            for (g, w) in r.to_f64_vec().unwrap().iter().zip(&want) {
                assert!(close(*g, round_to(d, *w), d), "{m}x{k}x{n} {d}: {g} vs {w}");
            }
        }
    }
    // Batched with broadcasting, and 1-D operands.
    let a = make(&[2, 1, 3, 4], DType::Float32, Form::Contiguous, 3);
    let b = make(&[5, 4, 2], DType::Float32, Form::Contiguous, 4);
    let r = a.matmul(&b).unwrap();
    assert_eq!(r.shape(), &[2, 5, 3, 2]);
    let a1 = a.select(0, 1).unwrap().select(0, 0).unwrap();
    let b3 = b.select(0, 3).unwrap();
    let want = naive_matmul(
        &a1.to_f64_vec().unwrap(),
        &b3.to_f64_vec().unwrap(),
        3,
        4,
        2,
    );
    assert_eq!(
        r.select(0, 1)
            .unwrap()
            .select(0, 3)
            .unwrap()
            .to_f64_vec()
            .unwrap(),
        want
    );
    let v = make(&[4], DType::Float32, Form::Contiguous, 5);
    assert_eq!(v.matmul(&v).unwrap().shape(), &[] as &[usize]);
    assert_eq!(
        make(&[3, 4], DType::Float32, Form::Contiguous, 6)
            .matmul(&v)
            .unwrap()
            .shape(),
        &[3]
    );
    assert_eq!(v.matmul(&b).unwrap().shape(), &[5, 2]);
    assert!(v.matmul(&a).is_err());
}

/// Shapes on both sides of the CPU's choice to compute `(bᵀ aᵀ)ᵀ` (few rows and a long
/// `k`, or a column-major `b` with fewer rows than columns): the same exact values (small
/// integers), batched, and written into a strided and a transposed `out`.
#[test]
#[cfg_attr(
    miri,
    ignore = "large inputs (and gemm's SIMD kernels) are too slow under Miri"
)]
fn matmul_in_either_orientation() {
    for (m, k, n) in [
        (3, 300, 40),
        (20, 300, 30),
        (40, 300, 3),
        (1, 256, 9),
        (5, 255, 60),
    ] {
        for d in [DType::Float32, DType::Float64] {
            let a = make(&[2, m, k], d, Form::Contiguous, 1);
            let b = make(&[k, n], d, Form::Contiguous, 2);
            let bt = make(&[n, k], d, Form::Contiguous, 3).t();
            for b in [b, bt] {
                let want: Vec<f64> = (0..2)
                    .flat_map(|i| {
                        let ai = a.select(0, i).unwrap().to_f64_vec().unwrap();
                        naive_matmul(&ai, &b.to_f64_vec().unwrap(), m, k, n)
                    })
                    .collect();
                let r = a.matmul(&b).unwrap();
                assert_eq!(r.shape(), &[2, m, n]);
                assert_eq!(r.to_f64_vec().unwrap(), want, "{m}x{k}x{n} {d}");
                let mut out = Tensor::zeros(&[2, m, n + 3], d)
                    .unwrap()
                    .narrow(2, 1, n)
                    .unwrap();
                ops::matmul_into(&a, &b, &mut out).unwrap();
                assert_eq!(
                    out.to_f64_vec().unwrap(),
                    want,
                    "{m}x{k}x{n} {d} strided out"
                );
                let mut tout = Tensor::zeros(&[2, n, m], d)
                    .unwrap()
                    .transpose(1, 2)
                    .unwrap();
                ops::matmul_into(&a, &b, &mut tout).unwrap();
                assert_eq!(
                    tout.to_f64_vec().unwrap(),
                    want,
                    "{m}x{k}x{n} {d} transposed out"
                );
            }
        }
    }
}

#[test]
fn softmax_rows_sum_to_one_and_log_softmax_agrees() {
    let t = make(&[4, 7], DType::Float32, Form::Transposed, 9);
    let s = t.softmax(1).unwrap();
    for v in s.sum_dims(&[1], false).unwrap().to_vec::<f32>().unwrap() {
        assert!((v - 1.0).abs() < 1e-6);
    }
    let ls = t.log_softmax(1).unwrap();
    let back = ops::exp(&ls).unwrap().to_vec::<f32>().unwrap();
    for (a, b) in back
        .iter()
        .zip(s.contiguous().unwrap().to_vec::<f32>().unwrap())
    {
        assert!((a - b).abs() < 1e-6);
    }
    // Large inputs do not overflow.
    let big = Tensor::from_data(&[1000.0f32, 1000.0], &[2]).unwrap();
    assert_eq!(big.softmax(0).unwrap().to_vec::<f32>().unwrap(), [0.5, 0.5]);
}

#[test]
fn cat_stack_where_clamp() {
    let a = Tensor::arange(0.0, 6.0, 1.0, DType::Int32)
        .unwrap()
        .view(&[2, 3])
        .unwrap();
    let b = Tensor::arange(6.0, 9.0, 1.0, DType::Float32)
        .unwrap()
        .view(&[1, 3])
        .unwrap();
    let c = ops::cat(&[a.clone(), b.clone()], 0).unwrap();
    assert_eq!(c.dtype(), DType::Float32);
    assert_eq!(
        c.to_f64_vec().unwrap(),
        (0..9).map(f64::from).collect::<Vec<_>>()
    );
    let c1 = ops::cat(&[a.t(), a.t()], 1).unwrap();
    assert_eq!(c1.shape(), &[3, 4]);
    assert_eq!(
        c1.to_f64_vec().unwrap(),
        [0., 3., 0., 3., 1., 4., 1., 4., 2., 5., 2., 5.]
    );
    assert!(ops::cat(&[a.clone(), b.t()], 0).is_err());
    let s = ops::stack(&[a.clone(), a.clone()], 1).unwrap();
    assert_eq!(s.shape(), &[2, 2, 3]);
    let cond = ops::binary_scalar(BinaryOp::Gt, &a, Scalar::Int(2)).unwrap();
    let w = ops::where_(&cond, &a, &b).unwrap();
    assert_eq!(w.to_f64_vec().unwrap(), [6., 7., 8., 3., 4., 5.]);
    let cl = a.clamp(Some(Scalar::Int(1)), Some(Scalar::Int(4))).unwrap();
    assert_eq!(cl.to_vec::<i32>().unwrap(), [1, 1, 2, 3, 4, 4]);
}

#[test]
fn scalars_are_weak_and_reversible() {
    let i8t = Tensor::from_data(&[1i8, 2, 3], &[3]).unwrap();
    let r = ops::binary_scalar(BinaryOp::Mul, &i8t, Scalar::Int(2)).unwrap();
    assert_eq!(r.dtype(), DType::Int8);
    let f = ops::binary_scalar(BinaryOp::Add, &i8t, Scalar::Float(0.5)).unwrap();
    assert_eq!(f.dtype(), DType::Float32);
    assert_eq!(f.to_vec::<f32>().unwrap(), [1.5, 2.5, 3.5]);
    let rs = ops::scalar_binary(BinaryOp::Sub, Scalar::Int(10), &i8t).unwrap();
    assert_eq!(rs.to_vec::<i8>().unwrap(), [9, 8, 7]);
    let d = ops::div(&i8t, &i8t).unwrap();
    assert_eq!(d.dtype(), DType::Float32);
    let p = ops::binary_scalar(BinaryOp::Pow, &i8t, Scalar::Int(-1)).unwrap();
    assert_eq!(p.to_vec::<i8>().unwrap(), [1, 0, 0]);
    let w = Tensor::from_data(&[100i8], &[1]).unwrap();
    assert_eq!((&w + &w).to_vec::<i8>().unwrap(), [-56], "int8 wraps");
}

#[test]
fn in_place_ops_need_exclusive_memory() {
    let mut t = Tensor::zeros(&[2, 3], DType::Float32).unwrap();
    t.fill_(2.0).unwrap();
    let one = Tensor::ones(&[3], DType::Float32).unwrap();
    t.add_(&one).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [3.0; 6]);
    let view = t.clone();
    let e = t.add_(&one).unwrap_err();
    assert!(e.to_string().contains("shares its memory"), "{e}");
    // The unsafe shared form writes through a view and is visible in the other tensor.
    let row = view.select(0, 1).unwrap();
    // SAFETY: no other thread touches `t` during the call.
    unsafe { row.fill_shared(7.0).unwrap() };
    assert_eq!(t.to_vec::<f32>().unwrap(), [3., 3., 3., 7., 7., 7.]);
    // copy_ converts and broadcasts; an overlapping source is read before writing.
    drop((view, row));
    let src = Tensor::arange(0.0, 3.0, 1.0, DType::Int64).unwrap();
    t.copy_(&src).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [0., 1., 2., 0., 1., 2.]);
    let flip = t.slice(1, None, None, -1).unwrap();
    // SAFETY: single-threaded; `flip` overlaps `t`, which copy_shared must handle.
    unsafe { t.copy_shared(&flip).unwrap() };
    assert_eq!(t.to_vec::<f32>().unwrap(), [2., 1., 0., 2., 1., 0.]);
    // In place, an int tensor refuses a float result (numpy's same_kind, PyTorch's canCast)
    // and is left as it was; floor division keeps the dtype.
    let mut i = Tensor::full(&[2], 3.0, DType::Int32).unwrap();
    let two = Tensor::full(&[2], 2.0, DType::Int32).unwrap();
    let e = i.binary_(BinaryOp::Div, &two).unwrap_err();
    assert_eq!(e.kind(), clika_rt::ErrorKind::DType);
    assert_eq!(i.to_vec::<i32>().unwrap(), [3, 3]);
    i.binary_(BinaryOp::FloorDivide, &two).unwrap();
    assert_eq!(i.to_vec::<i32>().unwrap(), [1, 1]);
}

#[test]
fn owned_ops_reuse_buffers_only_when_allowed() {
    let a = Tensor::zeros(&[1024], DType::Float32).unwrap();
    let ptr = a.data_ptr();
    let one = Tensor::ones(&[1024], DType::Float32).unwrap();
    let r = a + &one;
    assert_eq!(r.data_ptr(), ptr, "a uniquely held pool tensor is reused");
    let shared = r.clone();
    let r2 = r + &one;
    assert_ne!(r2.data_ptr(), ptr, "a shared tensor is not overwritten");
    assert_eq!(shared.to_vec::<f32>().unwrap(), [1.0; 1024]);
    let mut buf = vec![5.0f32; 1024];
    // SAFETY: `buf` outlives `b`.
    let b = unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[1024], DType::Float32) }.unwrap();
    let r3 = b + &one;
    assert_ne!(
        r3.data_ptr(),
        buf.as_mut_ptr().cast(),
        "borrowed memory is never reused"
    );
    assert_eq!(buf, vec![5.0; 1024]);
    let u = ops::unary_owned(UnaryOp::Neg, r3).unwrap();
    assert_eq!(u.to_vec::<f32>().unwrap(), [-6.0; 1024]);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "large inputs (and gemm's SIMD kernels) are too slow under Miri"
)]
fn wide_outer_reductions_and_tiled_copies_match_reference() {
    // Shapes wide enough for the outer-accumulation and tiled-transpose paths.
    for d in [DType::Float32, DType::Int32, DType::Float16, DType::UInt8] {
        for form in [Form::Contiguous, Form::Transposed, Form::Strided] {
            let t = make(&[3, 70, 45], d, form, 11);
            let xs = t.to_f64_vec().unwrap();
            let at = |a: usize, i: usize, j: usize| xs[(a * 70 + i) * 45 + j];
            // Sum over dims (0, 1): each output lane is a strided column.
            let s = t.sum_dims(&[0, 1], false).unwrap().to_f64_vec().unwrap();
            let m = t.mean_dims(&[1], true).unwrap();
            assert_eq!(m.shape(), &[3, 1, 45]);
            let mv = m.to_f64_vec().unwrap();
            for j in 0..45 {
                let want: f64 = (0..3)
                    .flat_map(|a| (0..70).map(move |i| (a, i)))
                    .map(|(a, i)| at(a, i, j))
                    .sum();
                assert_eq!(s[j], round_to(d.sum_dtype(), want), "{d} {form:?}");
                for a in 0..3 {
                    let want = (0..70).map(|i| at(a, i, j)).sum::<f64>() / 70.0;
                    assert!(close(
                        mv[a * 45 + j],
                        round_to(d.mean_dtype(), want),
                        d.mean_dtype()
                    ));
                }
            }
            // Contiguous copies of transposed views (tiled) keep every value in place.
            let tt = t.permute(&[0, 2, 1]).unwrap();
            let c = tt.contiguous().unwrap();
            assert!(c.is_contiguous());
            let cv = c.to_f64_vec().unwrap();
            for a in 0..3 {
                for j in 0..45 {
                    for i in 0..70 {
                        assert_eq!(cv[(a * 45 + j) * 70 + i], at(a, i, j));
                    }
                }
            }
        }
    }
}

/// Whether `bytes` (native order) hold a NaN of the float type `d`.
fn is_nan(d: DType, bytes: &[u8]) -> bool {
    let bits = match *bytes {
        [a, b] => u64::from(u16::from_ne_bytes([a, b])),
        [a, b, c, d] => u64::from(u32::from_ne_bytes([a, b, c, d])),
        _ => u64::from_ne_bytes(bytes.try_into().unwrap_or([0; 8])),
    };
    let (exp, frac) = match d {
        DType::Float32 => (0x7f80_0000, 0x007f_ffff),
        DType::Float64 => (0x7ff0_0000_0000_0000, 0x000f_ffff_ffff_ffff),
        DType::Float16 => (0x7c00, 0x03ff),
        DType::BFloat16 => (0x7f80, 0x007f),
        _ => return false,
    };
    bits & exp == exp && bits & frac != 0
}

#[test]
fn transposed_casts_give_the_bits_of_contiguous_casts() {
    // A converting copy of a transposed view transposes tiles and converts their rows; it
    // must give, element for element, the bits the contiguous rows' conversion gives, for
    // every pair of dtypes (random bytes: NaN payloads, infinities, subnormals, values
    // that saturate), with ragged tiles in both dims.
    let (outer, rows, cols) = if cfg!(miri) { (1, 33, 34) } else { (2, 37, 70) };
    let sources: &[DType] = if cfg!(miri) {
        &[DType::Float32, DType::Float16, DType::Bool]
    } else {
        &DType::ALL
    };
    let bytes_of = |t: &Tensor| -> Vec<u8> {
        assert!(t.is_contiguous());
        // SAFETY: `t` is a contiguous host tensor of `nbytes()` initialised bytes, alive
        // for this borrow.
        unsafe { std::slice::from_raw_parts(t.data_ptr().cast_const(), t.nbytes()) }.to_vec()
    };
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for &s in sources {
        let n = outer * rows * cols * s.size();
        let raw: Vec<u8> = (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        let t = Tensor::from_bytes(&raw, &[outer, rows, cols], s).unwrap();
        for d in DType::ALL {
            let want = bytes_of(&t.to_dtype(d).unwrap().contiguous().unwrap());
            let got = t.permute(&[0, 2, 1]).unwrap().to_dtype(d).unwrap();
            let got = bytes_of(&got.contiguous().unwrap());
            let z = d.size();
            for o in 0..outer {
                for i in 0..rows {
                    for j in 0..cols {
                        let w = ((o * rows + i) * cols + j) * z;
                        let g = ((o * cols + j) * rows + i) * z;
                        let (got, want) = (&got[g..g + z], &want[w..w + z]);
                        // Miri picks a NaN's payload and sign per operation that makes one.
                        if cfg!(miri) && is_nan(d, got) && is_nan(d, want) {
                            continue;
                        }
                        assert_eq!(
                            got, want,
                            "{s} -> {d} at [{o}, {j}, {i}] of the transposed view"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn copies_keep_nan_payloads_bit_for_bit() {
    // contiguous() of strided views (the tiled transpose and the generic walk) and
    // contiguous_copy() of every float dtype move bits: a signalling NaN stays signalling.
    fn check<T: Element>(make: impl Fn(usize) -> T, to_bits: impl Fn(T) -> u64) {
        // Above the transpose's 32-element tile in both dims, with ragged edges.
        let (rows, cols) = if cfg!(miri) { (35, 34) } else { (48, 40) };
        let bits: Vec<u64> = (0..rows * cols).map(|i| to_bits(make(i))).collect();
        let t = Tensor::from_vec((0..rows * cols).map(&make).collect(), &[rows, cols]).unwrap();
        let same = |c: Tensor, want: &[u64], what: &str| {
            assert!(c.is_contiguous());
            let got: Vec<u64> = c
                .as_slice::<T>()
                .unwrap()
                .iter()
                .map(|&v| to_bits(v))
                .collect();
            let bad: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
            assert!(
                bad.is_empty(),
                "{:?} {what}: {} of {} elements changed bits, first at {} ({:#x} -> {:#x})",
                T::DTYPE,
                bad.len(),
                want.len(),
                bad[0],
                want[bad[0]],
                got[bad[0]]
            );
        };
        same(t.contiguous_copy().unwrap(), &bits, "copy");
        let transposed: Vec<u64> = (0..cols)
            .flat_map(|j| (0..rows).map(move |i| i * cols + j))
            .map(|k| bits[k])
            .collect();
        same(
            t.transpose(0, 1).unwrap().contiguous().unwrap(),
            &transposed,
            "transpose",
        );
        let narrowed: Vec<u64> = (0..rows)
            .flat_map(|i| (3..33).map(move |j| i * cols + j))
            .map(|k| bits[k])
            .collect();
        same(
            t.narrow(1, 3, 30).unwrap().contiguous().unwrap(),
            &narrowed,
            "narrow",
        );
    }
    use clika_rt::half::{bf16, f16};
    check(
        |i| f32::from_bits(0x7f80_0001 + i as u32),
        |v| u64::from(v.to_bits()),
    );
    check(
        |i| f64::from_bits(0x7ff0_0000_0000_0001 + i as u64),
        f64::to_bits,
    );
    check(
        |i| f16::from_bits(0x7c01 + (i % 0x1ff) as u16),
        |v| u64::from(v.to_bits()),
    );
    check(
        |i| bf16::from_bits(0x7f81 + (i % 0x3f) as u16),
        |v| u64::from(v.to_bits()),
    );
}

/// Element-wise ops whose inputs share a permuted dense layout (transposed, `movedim`-ed)
/// run in the inputs' memory order: a fresh result keeps that layout (as PyTorch and numpy
/// do), an `out=` row-major result is written through a scratch and a transposing copy, and
/// either way every element lands where the row-major walk over contiguous copies puts it —
/// for unary and binary ops, a scalar operand, a bool result, mixed dtypes and a half type.
#[test]
#[cfg_attr(
    miri,
    ignore = "minutes under Miri; the path adds no unsafe code (views, and kernels tested there)"
)]
fn elementwise_over_permuted_inputs_matches_contiguous_operands() {
    // 6336 elements: above the scratch path's threshold (4096), small enough for Miri.
    let (a, b, c) = (8, 24, 33);
    let n = a * b * c;
    let xs: Vec<f32> = (0..n)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.125)
        .collect();
    let ys: Vec<f32> = (0..n)
        .map(|i| ((i * 53 % 97) as f32 - 40.0) * 0.25 + 0.5)
        .collect();
    let x = Tensor::from_vec(xs, &[a, b, c]).unwrap();
    let y = Tensor::from_vec(ys, &[a, b, c]).unwrap();
    // `strides`: the layout the result must have (`None`: row-major).
    let same = |got: Tensor, want: Tensor, strides: Option<&[isize]>, what: &str| {
        match strides {
            Some(s) => assert_eq!(got.strides(), s, "{what}: the inputs' layout"),
            None => assert!(got.is_contiguous(), "{what}: a row-major result"),
        }
        assert_eq!(got.shape(), want.shape(), "{what}");
        assert_eq!(got.dtype(), want.dtype(), "{what}");
        let (g, w) = (
            got.to_dtype(DType::Float64)
                .unwrap()
                .to_vec::<f64>()
                .unwrap(),
            want.to_dtype(DType::Float64)
                .unwrap()
                .to_vec::<f64>()
                .unwrap(),
        );
        for (i, (p, q)) in g.iter().zip(&w).enumerate() {
            assert!(
                p == q || (p.is_nan() && q.is_nan()),
                "{what}[{i}]: {p} vs {q}"
            );
        }
    };
    for perm in [[2, 1, 0], [1, 0, 2], [0, 2, 1], [2, 0, 1]] {
        let (px, py) = (x.permute(&perm).unwrap(), y.permute(&perm).unwrap());
        assert!(!px.is_contiguous());
        let kept = Some(px.strides());
        let (cx, cy) = (px.contiguous().unwrap(), py.contiguous().unwrap());
        for op in [
            BinaryOp::Add,
            BinaryOp::Mul,
            BinaryOp::Div,
            BinaryOp::Lt,
            BinaryOp::Maximum,
        ] {
            let what = format!("{} {perm:?}", op.name());
            let want = ops::binary(op, &cx, &cy).unwrap();
            same(
                ops::binary(op, &px, &py).unwrap(),
                want.clone(),
                kept,
                &what,
            );
            let mut out = Tensor::zeros(px.shape(), want.dtype()).unwrap();
            ops::binary_into(op, &px, &py, &mut out).unwrap();
            same(out, want, None, &format!("{what} into row-major"));
        }
        for op in [UnaryOp::Exp, UnaryOp::Neg, UnaryOp::Abs, UnaryOp::Sin] {
            let what = format!("{} {perm:?}", op.name());
            let want = ops::unary(op, &cx).unwrap();
            same(ops::unary(op, &px).unwrap(), want.clone(), kept, &what);
            let mut out = Tensor::zeros(px.shape(), want.dtype()).unwrap();
            ops::unary_into(op, &px, &mut out).unwrap();
            same(out, want, None, &format!("{what} into row-major"));
        }
        // clamp keeps the layout, fresh and in place.
        let lim = |t: &Tensor| t.clamp(Some(Scalar::Float(-2.0)), Some(Scalar::Float(3.0)));
        let want = lim(&cx).unwrap();
        same(
            lim(&px).unwrap(),
            want.clone(),
            kept,
            &format!("clamp {perm:?}"),
        );
        let mut own = x.contiguous_copy().unwrap().permute(&perm).unwrap();
        own.clamp_(Some(Scalar::Float(-2.0)), Some(Scalar::Float(3.0)))
            .unwrap();
        same(own, want, kept, &format!("clamp_ {perm:?}"));
        // where keeps the layout of a mask and values laid out alike.
        let (m, cm) = (
            ops::binary(BinaryOp::Lt, &px, &py).unwrap(),
            ops::binary(BinaryOp::Lt, &cx, &cy).unwrap(),
        );
        same(
            ops::where_(&m, &px, &py).unwrap(),
            ops::where_(&cm, &cx, &cy).unwrap(),
            kept,
            &format!("where {perm:?}"),
        );
        // A scalar operand keeps the tensor operand's layout, on either side.
        let two = Tensor::full(&[], 2.5, DType::Float32).unwrap();
        same(
            ops::binary(BinaryOp::Sub, &two, &px).unwrap(),
            ops::binary(BinaryOp::Sub, &two, &cx).unwrap(),
            kept,
            &format!("2.5 - x {perm:?}"),
        );
        // Mixed dtypes: an int operand laid out as `px` is converted in memory order; a
        // row-major one gives a row-major result. A half type.
        let ci = cy.to_dtype(DType::Int32).unwrap();
        let want = ops::binary(BinaryOp::Sub, &cx, &ci).unwrap();
        same(
            ops::binary(BinaryOp::Sub, &px, &ci).unwrap(),
            want.clone(),
            None,
            &format!("f32 - row-major i32 {perm:?}"),
        );
        let pi = y.to_dtype(DType::Int32).unwrap().permute(&perm).unwrap();
        same(
            ops::binary(BinaryOp::Sub, &px, &pi).unwrap(),
            want,
            kept,
            &format!("f32 - i32 {perm:?}"),
        );
        let hx = x.to_dtype(DType::Float16).unwrap().permute(&perm).unwrap();
        same(
            ops::unary(UnaryOp::Exp, &hx).unwrap(),
            ops::unary(UnaryOp::Exp, &cx.to_dtype(DType::Float16).unwrap()).unwrap(),
            Some(hx.strides()),
            &format!("exp f16 {perm:?}"),
        );
    }
}
