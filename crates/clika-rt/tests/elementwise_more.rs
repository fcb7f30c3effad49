//! The newer elementwise ops (issue 14) against scalar references computed here, element by
//! element, over contiguous, transposed, broadcast and empty inputs: rounding, predicates,
//! transcendental functions, Python's `//` and `%`, bitwise and logical ops, `tril`/`triu`,
//! and the in-place casting rule.

use clika_rt::ops::{self, BinaryOp, Scalar, UnaryOp};
use clika_rt::{DType, ErrorKind, Tensor};

fn f64s(t: &Tensor) -> Vec<f64> {
    t.to_f64_vec().unwrap()
}

/// Values with ties, signs, zeros, infinities and NaN.
fn specials() -> Vec<f64> {
    vec![
        -2.5,
        -1.5,
        -0.5,
        0.5,
        1.5,
        2.5,
        -0.0,
        0.0,
        0.3,
        -0.7,
        3.7,
        1e10,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -3.0,
    ]
}

fn same(a: f64, b: f64, tol: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exact comparisons with std, whose float functions Miri perturbs on each call"
)]
fn unary_float_ops_match_std_on_every_layout() {
    let v = specials();
    type Reference = fn(f64) -> f64;
    let cases: [(UnaryOp, Reference); 13] = [
        (UnaryOp::Round, f64::round_ties_even),
        (UnaryOp::Floor, f64::floor),
        (UnaryOp::Ceil, f64::ceil),
        (UnaryOp::Trunc, f64::trunc),
        (UnaryOp::Log1p, f64::ln_1p),
        (UnaryOp::Expm1, f64::exp_m1),
        (UnaryOp::Log2, f64::log2),
        (UnaryOp::Log10, f64::log10),
        (UnaryOp::Exp2, f64::exp2),
        (UnaryOp::Atan, f64::atan),
        (UnaryOp::Asin, f64::asin),
        (UnaryOp::Sinh, f64::sinh),
        (UnaryOp::Cosh, f64::cosh),
    ];
    for dtype in [DType::Float64, DType::Float32] {
        let t = Tensor::from_data(&v, &[4, 4])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        // Contiguous, transposed and broadcast (a row expanded) inputs.
        let inputs = [
            t.clone(),
            t.t(),
            t.narrow(0, 1, 1).unwrap().expand(&[3, 4]).unwrap(),
        ];
        for (op, f) in cases {
            for x in &inputs {
                let r = ops::unary(op, x).unwrap();
                assert_eq!(r.dtype(), dtype);
                let tol = if dtype == DType::Float32 { 1e-6 } else { 1e-15 };
                for (got, xv) in f64s(&r).into_iter().zip(f64s(x)) {
                    let want = f(xv);
                    let want = if dtype == DType::Float32 {
                        want as f32 as f64
                    } else {
                        want
                    };
                    assert!(
                        same(got, want, tol),
                        "{} {dtype} of {xv}: {got} vs {want}",
                        op.name()
                    );
                }
            }
        }
    }
}

#[test]
fn round_is_half_to_even_and_sign_keeps_zero_and_nan() {
    let t = Tensor::from_data(&[-2.5f32, -1.5, -0.5, 0.5, 1.5, 2.5], &[6]).unwrap();
    assert_eq!(
        f64s(&ops::round(&t).unwrap()),
        [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0]
    );
    let s = Tensor::from_data(&[-3.0f64, -0.0, 0.0, 2.0, f64::NAN], &[5]).unwrap();
    let r = f64s(&ops::sign(&s).unwrap());
    assert_eq!(&r[..4], [-1.0, 0.0, 0.0, 1.0]);
    assert!(r[4].is_nan());
}

#[test]
fn rounding_and_sign_keep_integers() {
    for dtype in [DType::Int8, DType::Int32, DType::Int64, DType::UInt8] {
        let vals: Vec<f64> = if dtype == DType::UInt8 {
            vec![0.0, 1.0, 7.0, 255.0]
        } else {
            vec![-5.0, 0.0, 3.0, -1.0]
        };
        let t = Tensor::from_data(&vals, &[2, 2])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        for op in [
            UnaryOp::Round,
            UnaryOp::Floor,
            UnaryOp::Ceil,
            UnaryOp::Trunc,
        ] {
            let r = ops::unary(op, &t.t()).unwrap();
            assert_eq!(r.dtype(), dtype);
            assert_eq!(f64s(&r), f64s(&t.t()));
        }
        let s = ops::sign(&t).unwrap();
        assert_eq!(s.dtype(), dtype);
        let want: Vec<f64> = vals
            .iter()
            .map(|&v| if v == 0.0 { 0.0 } else { v.signum() })
            .collect();
        assert_eq!(f64s(&s), want);
    }
}

#[test]
fn predicates_give_bool() {
    let t = Tensor::from_data(&specials(), &[16]).unwrap();
    for (op, f) in [
        (UnaryOp::IsNan, f64::is_nan as fn(f64) -> bool),
        (UnaryOp::IsInf, f64::is_infinite),
        (UnaryOp::IsFinite, f64::is_finite),
    ] {
        for dtype in [
            DType::Float32,
            DType::Float64,
            DType::Float16,
            DType::BFloat16,
        ] {
            let x = t.to_dtype(dtype).unwrap();
            let r = ops::unary(op, &x).unwrap();
            assert_eq!(r.dtype(), DType::Bool);
            let want: Vec<f64> = f64s(&x)
                .into_iter()
                .map(|v| f64::from(u8::from(f(v))))
                .collect();
            assert_eq!(f64s(&r), want, "{} {dtype}", op.name());
        }
    }
    let i = Tensor::from_data(&[1i32, 0, -4], &[3]).unwrap();
    assert_eq!(f64s(&ops::isnan(&i).unwrap()), [0.0; 3]);
    assert_eq!(f64s(&ops::isfinite(&i).unwrap()), [1.0; 3]);
    assert_eq!(f64s(&ops::logical_not(&i).unwrap()), [0.0, 1.0, 0.0]);
    let n = ops::logical_not(&Tensor::from_data(&[f64::NAN, 0.0], &[2]).unwrap()).unwrap();
    assert_eq!(f64s(&n), [0.0, 1.0]);
}

/// Python's floor division and modulo, on `i64`.
fn py_div_mod(a: i64, b: i64) -> (i64, i64) {
    let (q, r) = (a / b, a % b);
    if r != 0 && ((r < 0) != (b < 0)) {
        (q - 1, r + b)
    } else {
        (q, r)
    }
}

#[test]
fn integer_floor_divide_and_remainder_follow_python() {
    let a: Vec<i64> = vec![7, -7, 7, -7, 0, 5, -128, 127];
    let b: Vec<i64> = vec![2, 2, -2, -2, 3, 7, -1, -3];
    for dtype in [DType::Int8, DType::Int16, DType::Int32, DType::Int64] {
        let ta = Tensor::from_data(&a, &[8])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let tb = Tensor::from_data(&b, &[8])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let q = ops::floor_divide(&ta, &tb).unwrap();
        let r = ops::remainder(&ta, &tb).unwrap();
        let m = ops::fmod(&ta, &tb).unwrap();
        assert_eq!(q.dtype(), dtype);
        for i in 0..8 {
            let (wq, wr) = py_div_mod(a[i], b[i]);
            // -128 // -1 wraps in Int8 (as PyTorch).
            let wq = match dtype {
                DType::Int8 => wq as i8 as i64,
                _ => wq,
            };
            assert_eq!(f64s(&q)[i] as i64, wq, "{dtype} {} // {}", a[i], b[i]);
            assert_eq!(f64s(&r)[i] as i64, wr, "{dtype} {} % {}", a[i], b[i]);
            assert_eq!(f64s(&m)[i] as i64, a[i].wrapping_rem(b[i]), "{dtype} fmod");
        }
    }
}

#[test]
fn integer_division_by_zero_is_an_error() {
    let a = Tensor::from_data(&[1i32, 2, 3], &[3]).unwrap();
    let b = Tensor::from_data(&[1i32, 0, 3], &[3]).unwrap();
    for op in [BinaryOp::FloorDivide, BinaryOp::Remainder, BinaryOp::Fmod] {
        let e = ops::binary(op, &a, &b).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.to_string().contains("division by zero"), "{e}");
        let e = ops::binary_scalar(op, &a, Scalar::Int(0)).unwrap_err();
        assert!(e.to_string().contains("division by zero"), "{e}");
    }
    // In place: refused before anything is written.
    let mut c = Tensor::from_data(&[5i64, 6], &[2])
        .unwrap()
        .contiguous_copy()
        .unwrap();
    let z = Tensor::from_data(&[2i64, 0], &[2]).unwrap();
    assert!(c.binary_(BinaryOp::FloorDivide, &z).is_err());
    assert_eq!(c.to_vec::<i64>().unwrap(), [5, 6]);
    // Floats divide by zero as IEEE does.
    let f = Tensor::from_data(&[1.0f32, -1.0, 0.0], &[3]).unwrap();
    let q = f64s(&ops::binary_scalar(BinaryOp::FloorDivide, &f, Scalar::Float(0.0)).unwrap());
    assert_eq!(&q[..2], [f64::INFINITY, f64::NEG_INFINITY]);
    assert!(q[2].is_nan());
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exact comparisons with std, whose float functions Miri perturbs on each call"
)]
fn float_floor_divide_remainder_fmod_atan2_hypot() {
    let a: Vec<f64> = vec![7.5, -7.5, 7.5, -7.5, 0.0, 1.0, -0.0, 5.0];
    let b: Vec<f64> = vec![2.0, 2.0, -2.0, -2.0, 3.0, 0.1, 2.0, f64::INFINITY];
    let ta = Tensor::from_data(&a, &[2, 4]).unwrap();
    let tb = Tensor::from_data(&b, &[2, 4]).unwrap();
    let q = f64s(&ops::floor_divide(&ta, &tb).unwrap());
    let r = f64s(&ops::remainder(&ta, &tb).unwrap());
    let m = f64s(&ops::fmod(&ta, &tb).unwrap());
    let at = f64s(&ops::atan2(&ta, &tb).unwrap());
    let h = f64s(&ops::hypot(&ta, &tb).unwrap());
    for i in 0..8 {
        let (x, y) = (a[i], b[i]);
        // Python's float // and % (the reference values, written out).
        let rr = {
            let m = x % y;
            if m != 0.0 && ((m < 0.0) != (y < 0.0)) {
                m + y
            } else {
                m
            }
        };
        assert!(same(r[i], rr, 1e-15), "{x} % {y}: {} vs {rr}", r[i]);
        if y.is_finite() {
            assert_eq!(q[i], ((x - rr) / y).round(), "{x} // {y}");
        }
        assert_eq!(m[i], x % y);
        // A lane kernel within a few ulps (tests/vmath_ulp.rs bounds it over sweeps).
        assert!(
            same(at[i], x.atan2(y), 1e-15),
            "atan2({x}, {y}) = {}",
            at[i]
        );
        assert_eq!(h[i], x.hypot(y));
    }
    // 1 // 0.1 is 9 in Python (0.1 is slightly above one tenth).
    assert_eq!(q[5], 9.0);
}

#[test]
fn bitwise_and_shifts() {
    let a: Vec<i64> = vec![12, -1, 5, 0, 255, -128];
    let b: Vec<i64> = vec![10, 3, 1, 7, 4, 70];
    let ta = Tensor::from_data(&a, &[6]).unwrap();
    let tb = Tensor::from_data(&b, &[6]).unwrap();
    let v = |op| ops::binary(op, &ta, &tb).unwrap().to_vec::<i64>().unwrap();
    let and = v(BinaryOp::BitwiseAnd);
    let or = v(BinaryOp::BitwiseOr);
    let xor = v(BinaryOp::BitwiseXor);
    let shl = v(BinaryOp::BitwiseLeftShift);
    let shr = v(BinaryOp::BitwiseRightShift);
    for i in 0..6 {
        assert_eq!(and[i], a[i] & b[i]);
        assert_eq!(or[i], a[i] | b[i]);
        assert_eq!(xor[i], a[i] ^ b[i]);
        let (wl, wr) = if b[i] >= 64 {
            (0, if a[i] < 0 { -1 } else { 0 })
        } else {
            (a[i] << b[i], a[i] >> b[i])
        };
        assert_eq!(shl[i], wl);
        assert_eq!(shr[i], wr);
    }
    let not = ops::bitwise_not(&ta).unwrap().to_vec::<i64>().unwrap();
    assert_eq!(not, a.iter().map(|x| !x).collect::<Vec<_>>());
    // Bool: logical forms; floats refused with the fix named.
    let p = Tensor::from_data(&[true, true, false, false], &[4]).unwrap();
    let q = Tensor::from_data(&[true, false, true, false], &[4]).unwrap();
    assert_eq!(
        f64s(&ops::bitwise_xor(&p, &q).unwrap()),
        [0.0, 1.0, 1.0, 0.0]
    );
    assert_eq!(f64s(&ops::bitwise_not(&p).unwrap()), [0.0, 0.0, 1.0, 1.0]);
    let f = Tensor::from_data(&[1.0f32], &[1]).unwrap();
    let e = ops::bitwise_and(&f, &f).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DType);
    assert!(e.to_string().contains("logical_and"), "{e}");
    assert!(ops::bitwise_left_shift(&p, &q).is_err());
    assert!(ops::bitwise_not(&f).is_err());
}

#[test]
fn logical_ops_take_any_dtype() {
    let a = Tensor::from_data(&[0.0f32, 2.0, f64::NAN as f32, 0.0], &[4]).unwrap();
    let b = Tensor::from_data(&[0i32, 0, 1, 5], &[4]).unwrap();
    assert_eq!(
        f64s(&ops::logical_and(&a, &b).unwrap()),
        [0.0, 0.0, 1.0, 0.0]
    );
    assert_eq!(
        f64s(&ops::logical_or(&a, &b).unwrap()),
        [0.0, 1.0, 1.0, 1.0]
    );
    assert_eq!(
        f64s(&ops::logical_xor(&a, &b).unwrap()),
        [0.0, 1.0, 0.0, 1.0]
    );
    assert_eq!(ops::logical_or(&a, &b).unwrap().dtype(), DType::Bool);
}

#[test]
fn tril_and_triu_with_offsets_on_batches_and_views() {
    let t = Tensor::arange(1.0, 25.0, 1.0, DType::Int32)
        .unwrap()
        .view(&[2, 3, 4])
        .unwrap();
    for k in -4..=4i64 {
        for x in [t.clone(), t.transpose(1, 2).unwrap()] {
            let (m, n) = (x.shape()[1], x.shape()[2]);
            let lo = ops::tril(&x, k).unwrap();
            let up = ops::triu(&x, k).unwrap();
            let (xv, lv, uv) = (f64s(&x), f64s(&lo), f64s(&up));
            for (idx, &v) in xv.iter().enumerate() {
                let (i, j) = ((idx / n % m) as i64, (idx % n) as i64);
                assert_eq!(lv[idx], if j - i <= k { v } else { 0.0 }, "tril k={k}");
                assert_eq!(uv[idx], if j - i >= k { v } else { 0.0 }, "triu k={k}");
            }
        }
    }
    assert!(ops::tril(&Tensor::zeros(&[3], DType::Float32).unwrap(), 0).is_err());
    let e = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    assert_eq!(ops::triu(&e, 0).unwrap().shape(), &[0, 3]);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "exact comparisons with std, whose float functions Miri perturbs on each call"
)]
fn round_with_decimals() {
    let t = Tensor::from_data(&[1.2345f64, -2.675, 1234.5, 0.125], &[4]).unwrap();
    let r = f64s(&ops::round_decimals(&t, 2).unwrap());
    let want: Vec<f64> = [1.2345f64, -2.675, 1234.5, 0.125]
        .iter()
        .map(|x| (x * 100.0).round_ties_even() / 100.0)
        .collect();
    assert_eq!(r, want);
    let r = f64s(&ops::round_decimals(&t, -2).unwrap());
    assert_eq!(r, [0.0, -0.0, 1200.0, 0.0]);
    let i = Tensor::from_data(&[15i32], &[1]).unwrap();
    assert_eq!(f64s(&ops::round_decimals(&i, 1).unwrap()), [15.0]);
    assert_eq!(
        ops::round_decimals(&i, -1).unwrap_err().kind(),
        ErrorKind::DType
    );
}

#[test]
fn in_place_ops_refuse_results_the_dtype_cannot_hold() {
    let mut t = Tensor::from_data(&[1i32, 2], &[2])
        .unwrap()
        .contiguous_copy()
        .unwrap();
    let half = Tensor::from_data(&[1.5f32], &[1]).unwrap();
    for op in [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Sub] {
        let e = t.binary_(op, &half).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DType);
        assert!(e.to_string().contains("to_dtype"), "{e}");
    }
    // True division of integers gives floats: refused in place too (numpy, PyTorch).
    assert!(t.div_(&Tensor::from_data(&[2i32], &[1]).unwrap()).is_err());
    assert_eq!(t.to_vec::<i32>().unwrap(), [1, 2]);
    // Integer results into an integer tensor, and anything into a float one, are fine.
    t.sub_(&Tensor::from_data(&[1i64], &[1]).unwrap()).unwrap();
    assert_eq!(t.to_vec::<i32>().unwrap(), [0, 1]);
    let mut f = Tensor::from_data(&[1.0f32, 2.0], &[2])
        .unwrap()
        .contiguous_copy()
        .unwrap();
    f.add_(&Tensor::from_data(&[3i64], &[1]).unwrap()).unwrap();
    assert_eq!(f64s(&f), [4.0, 5.0]);
    // A bool tensor takes only bools.
    let mut b = Tensor::from_data(&[true], &[1])
        .unwrap()
        .contiguous_copy()
        .unwrap();
    assert!(b.add_(&Tensor::from_data(&[1i32], &[1]).unwrap()).is_err());
    // clamp_ and zero_.
    let mut c = Tensor::from_data(&[-5i32, 0, 9], &[3])
        .unwrap()
        .contiguous_copy()
        .unwrap();
    c.clamp_(Some(Scalar::Int(-1)), Some(Scalar::Int(3)))
        .unwrap();
    assert_eq!(c.to_vec::<i32>().unwrap(), [-1, 0, 3]);
    assert!(c.clamp_(Some(Scalar::Float(0.5)), None).is_err());
    c.zero_().unwrap();
    assert_eq!(c.to_vec::<i32>().unwrap(), [0, 0, 0]);
}

#[test]
fn empty_inputs_give_empty_results() {
    let e = Tensor::zeros(&[0, 4], DType::Float32).unwrap();
    for op in UnaryOp::ALL {
        if let Ok(r) = ops::unary(op, &e) {
            assert_eq!(r.shape(), &[0, 4], "{}", op.name());
        }
    }
    let ei = Tensor::zeros(&[0], DType::Int64).unwrap();
    for op in BinaryOp::ALL {
        let r = ops::binary(op, &ei, &ei).unwrap();
        assert_eq!(r.numel(), 0, "{}", op.name());
    }
}

/// The rounding functions run as lane kernels (SSE4.1's rounding instructions under the
/// AVX2/AVX-512 dispatch): bit-exact with `std` — signed zeros, halves, values beyond 2^23
/// and 2^52, NaN and infinities — over a sweep long enough for whole chunks and a ragged end.
#[test]
#[cfg_attr(
    miri,
    ignore = "a sweep of a thousand values, compared with std bit for bit"
)]
fn rounding_is_bit_exact_over_a_sweep() {
    let mut bits = 0x9e37_79b9_7f4a_7c15_u64;
    let mut v: Vec<f64> = specials();
    v.extend([
        -0.4,
        0.4,
        -0.5,
        8388607.5,
        -8388608.5,
        4503599627370495.5,
        1e300,
        -1e-300,
    ]);
    for _ in 0..1003 {
        bits ^= bits << 13;
        bits ^= bits >> 7;
        bits ^= bits << 17;
        // Spread over magnitudes 2^-8 .. 2^60, both signs.
        let mag = ((bits >> 11) as f64 / (1u64 << 53) as f64) * 2f64.powi((bits % 69) as i32 - 8);
        v.push(if bits & 1 == 0 { mag } else { -mag });
    }
    type Reference = fn(f64) -> f64;
    let cases: [(UnaryOp, Reference); 4] = [
        (UnaryOp::Round, f64::round_ties_even),
        (UnaryOp::Floor, f64::floor),
        (UnaryOp::Ceil, f64::ceil),
        (UnaryOp::Trunc, f64::trunc),
    ];
    let t64 = Tensor::from_data(&v, &[v.len()]).unwrap();
    for (op, f) in cases {
        let got = ops::unary(op, &t64).unwrap().to_vec::<f64>().unwrap();
        for (g, x) in got.iter().zip(&v) {
            assert_eq!(g.to_bits(), f(*x).to_bits(), "{} f64 of {x}", op.name());
        }
        let t32 = t64.to_dtype(DType::Float32).unwrap();
        let x32 = t32.to_vec::<f32>().unwrap();
        let got = ops::unary(op, &t32).unwrap().to_vec::<f32>().unwrap();
        for (g, x) in got.iter().zip(&x32) {
            let want = f(f64::from(*x)) as f32;
            assert_eq!(g.to_bits(), want.to_bits(), "{} f32 of {x}", op.name());
        }
        // Strided (every third element, reversed) reads the same values in place.
        let view = t32.flip(&[0]).unwrap().slice(0, None, None, 3).unwrap();
        let xs = view.contiguous().unwrap().to_vec::<f32>().unwrap();
        let got = ops::unary(op, &view).unwrap().to_vec::<f32>().unwrap();
        for (g, x) in got.iter().zip(&xs) {
            assert_eq!(g.to_bits(), (f(f64::from(*x)) as f32).to_bits());
        }
    }
}

/// `clamp` (one fused pass when the bounds keep the dtype) equals `minimum(maximum(t, lo),
/// hi)` bit for bit (a NaN as any NaN: Miri, like the hardware, may give a NaN result either
/// sign), NaN inputs and bounds, a lower bound above the upper one, one bound,
/// integer and half dtypes, a transposed, a broadcast and an empty input, and `clamp_` in
/// place on a strided view.
#[test]
fn clamp_equals_maximum_then_minimum() {
    let n = specials().len();
    let base = Tensor::from_data(&specials(), &[4, n / 4]).unwrap();
    let bits = |t: &Tensor| {
        f64s(t)
            .iter()
            .map(|v| if v.is_nan() { f64::NAN } else { *v }.to_bits())
            .collect::<Vec<_>>()
    };
    let bounds = [
        (Some(-1.0), Some(2.0)),
        (Some(3.0), Some(-1.0)),
        (Some(0.0), None),
        (None, Some(-0.5)),
        (Some(f64::NAN), Some(1.0)),
        (Some(-1e30), Some(f64::INFINITY)),
    ];
    for dtype in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
    ] {
        let t = base.to_dtype(dtype).unwrap();
        let views = [
            t.clone(),
            t.transpose(0, 1).unwrap(),
            t.narrow(1, 0, 1).unwrap().expand(&[4, 6]).unwrap(),
            t.narrow(0, 0, 0).unwrap(),
        ];
        for v in &views {
            for (lo, hi) in bounds {
                let (lo, hi) = (lo.map(Scalar::Float), hi.map(Scalar::Float));
                let got = ops::clamp(v, lo, hi).unwrap();
                let mut want = v.clone();
                if let Some(l) = lo {
                    want = ops::binary_scalar(BinaryOp::Maximum, &want, l).unwrap();
                }
                if let Some(h) = hi {
                    want = ops::binary_scalar(BinaryOp::Minimum, &want, h).unwrap();
                }
                assert_eq!(got.dtype(), dtype);
                assert_eq!(got.shape(), v.shape());
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{dtype:?} {lo:?} {hi:?} {:?}",
                    v.strides()
                );
                // In place on a strided copy of the view.
                let m = v.transpose(0, 1).unwrap().contiguous_copy().unwrap();
                let mut mt = m.transpose(0, 1).unwrap();
                drop(m);
                mt.clamp_(lo, hi).unwrap();
                assert_eq!(bits(&mt), bits(&want), "clamp_ {dtype:?} {lo:?} {hi:?}");
            }
        }
    }
    // Integers: every bound order and width, including unsigned 64-bit extremes.
    let i = Tensor::from_data(&[-128i8, -3, 0, 5, 127, 7], &[2, 3]).unwrap();
    let r = ops::clamp(
        &i.transpose(0, 1).unwrap(),
        Some(Scalar::Int(-4)),
        Some(Scalar::Int(6)),
    );
    assert_eq!(r.unwrap().to_vec::<i8>().unwrap(), [-4, 5, -3, 6, 0, 6]);
    let r = ops::clamp(&i, Some(Scalar::Int(9)), Some(Scalar::Int(2))).unwrap();
    assert_eq!(r.to_vec::<i8>().unwrap(), [2; 6]);
    let u = Tensor::from_data(&[0u64, u64::MAX, 1 << 40], &[3]).unwrap();
    let r = ops::clamp(&u, Some(Scalar::Int(1)), Some(Scalar::UInt(u64::MAX - 1))).unwrap();
    assert_eq!(r.to_vec::<u64>().unwrap(), [1, u64::MAX - 1, 1 << 40]);
    // A float bound promotes an integer tensor (the composed path), as PyTorch.
    let r = ops::clamp(&i, Some(Scalar::Float(0.5)), None).unwrap();
    assert_eq!(r.dtype(), DType::Float32);
    assert_eq!(f64s(&r), [0.5, 0.5, 0.5, 5.0, 127.0, 7.0]);
}
