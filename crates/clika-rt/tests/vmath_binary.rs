//! The two-operand lane kernels: `atan2` within its ulp bound and exact on C's special
//! values, and Python's `//` and `%` and C's `fmod` bit for bit against numpy's formulas,
//! on every layout and in the half types.

use clika_rt::ops::BinaryOp;
use clika_rt::{DType, Tensor};
#[path = "support/vmath_inputs.rs"]
mod vmath_inputs;
use vmath_inputs::{inputs_f32, inputs_f64, same_bits, ulps, xorshift};

/// `atan2(y, x)` over pairs of `f32`/`f64` inputs against the `f64` reference: the sweep's
/// inputs against a shuffled copy of themselves, and every pair of specials (signed zeros,
/// infinities, NaN, subnormals, ±1), which must come out exactly (C's table: `atan2(±0, -0)
/// = ±π`, `atan2(±∞, ±∞) = ±π/4, ±3π/4`, ...). Then strided and broadcast operands and the
/// half types, bit for bit against the contiguous `f32` run.
fn atan2_sweep<T: clika_rt::Element + Copy + Into<f64>>(
    xs: Vec<T>,
    round: fn(f64) -> f64,
    mant: i32,
    emin: i32,
    bound: f64,
) {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut ys = xs.clone();
    for i in (1..ys.len()).rev() {
        ys.swap(i, (xorshift(&mut s) % (i as u64 + 1)) as usize);
    }
    let n = xs.len();
    let (y, x) = (
        Tensor::from_vec(ys.clone(), &[n]).unwrap(),
        Tensor::from_vec(xs.clone(), &[n]).unwrap(),
    );
    let got = y
        .binary(BinaryOp::Atan2, &x)
        .unwrap()
        .to_vec::<T>()
        .unwrap();
    let (mut worst, mut at) = (0f64, (0f64, 0f64));
    for ((&yv, &xv), &g) in ys.iter().zip(&xs).zip(&got) {
        let (yv, xv, g): (f64, f64, f64) = (yv.into(), xv.into(), g.into());
        let want = round(yv.atan2(xv));
        let u = if want.is_nan() || g.is_nan() || want == 0.0 || want.is_infinite() {
            // NaN for NaN; a zero result (a zero or infinite operand) carries its sign.
            if want.to_bits() == g.to_bits() || want.is_nan() && g.is_nan() {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            ulps(g, want, mant, emin)
        };
        if u > worst {
            (worst, at) = (u, (yv, xv));
        }
    }
    eprintln!("atan2 {mant}: max {worst:.3} ulp over {n} pairs (at y, x = {at:?})");
    assert!(worst <= bound, "atan2 {mant}: {worst} ulp at {at:?}");
}

#[test]
#[cfg_attr(miri, ignore = "millions of elements")]
fn atan2_is_within_its_ulp_bound_and_exact_on_specials() {
    let round32 = |w: f64| {
        if w != 0.0 && w as f32 == 0.0 {
            f64::from(w as f32)
        } else {
            w
        }
    };
    atan2_sweep(inputs_f32(), round32, 23, -126, 3.0);
    atan2_sweep(inputs_f64(), |w| w, 52, -1022, 3.5);
    // Every pair of specials, exactly.
    let sp: Vec<f64> = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        5e-324,
        -1e-300,
        1e300,
    ]
    .into();
    let (mut ys, mut xs) = (Vec::new(), Vec::new());
    for &a in &sp {
        for &b in &sp {
            ys.push(a);
            xs.push(b);
        }
    }
    let n = ys.len();
    let got = Tensor::from_vec(ys.clone(), &[n])
        .unwrap()
        .binary(
            BinaryOp::Atan2,
            &Tensor::from_vec(xs.clone(), &[n]).unwrap(),
        )
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for i in 0..n {
        let want = ys[i].atan2(xs[i]);
        let exact = got[i].to_bits() == want.to_bits() || got[i].is_nan() && want.is_nan();
        let close = ulps(got[i], want, 52, -1022) <= 1.0 && !want.is_nan();
        assert!(
            exact || close && want != 0.0,
            "atan2({}, {}) = {} want {want}",
            ys[i],
            xs[i],
            got[i]
        );
    }
}

#[test]
fn atan2_on_every_layout_and_half_type_runs_the_same_kernel() {
    let vals: Vec<f32> = (0..7 * 37).map(|i| (i as f32 - 130.0) * 0.173).collect();
    let a = Tensor::from_vec(vals.clone(), &[7, 37]).unwrap();
    let b = Tensor::from_vec(vals.iter().rev().copied().collect(), &[7, 37]).unwrap();
    let want_of = |y: &Tensor, x: &Tensor| {
        let (y, x) = (
            y.contiguous().unwrap(),
            x.expand(&dims(y)).unwrap().contiguous().unwrap(),
        );
        y.binary(BinaryOp::Atan2, &x)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    };
    let row = b.narrow(0, 3, 1).unwrap();
    let col = b.narrow(1, 5, 1).unwrap();
    for (what, y, x) in [
        ("contiguous", &a, &b),
        ("transposed", &a.t(), &b.t()),
        ("row broadcast", &a, &row),
        ("column broadcast", &a, &col),
        (
            "sliced",
            &a.slice(1, Some(1), None, 3).unwrap(),
            &b.slice(1, Some(0), Some(36), 3).unwrap(),
        ),
    ] {
        let x = &x.expand(&dims(y)).unwrap_or_else(|_| x.clone());
        let got = y
            .binary(BinaryOp::Atan2, x)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert!(same_bits(&got, &want_of(y, x)), "atan2 on {what} operands");
    }
    let e = Tensor::zeros(&[3, 0], DType::Float32).unwrap();
    assert_eq!(e.binary(BinaryOp::Atan2, &e).unwrap().shape(), &[3, 0]);
    for dt in [DType::Float16, DType::BFloat16] {
        let (ah, bh) = (a.to_dtype(dt).unwrap(), b.to_dtype(dt).unwrap());
        let got = ah.binary(BinaryOp::Atan2, &bh).unwrap();
        assert_eq!(got.dtype(), dt);
        let want = ah
            .to_dtype(DType::Float32)
            .unwrap()
            .binary(BinaryOp::Atan2, &bh.to_dtype(DType::Float32).unwrap())
            .unwrap()
            .to_dtype(dt)
            .unwrap();
        assert!(
            same_bits(&got.to_f64_vec().unwrap(), &want.to_f64_vec().unwrap()),
            "atan2 {dt}"
        );
    }
}

/// A tensor's shape as `expand`'s sizes.
fn dims(t: &Tensor) -> Vec<isize> {
    t.shape().iter().map(|&d| d as isize).collect()
}

/// Python's floor division (numpy's `npy_floor_divide`) and `%` of one pair in the float
/// type `$t`, from `fmod`: the reference, rounding at each step as numpy does in that type.
macro_rules! py_division {
    ($floor_divide:ident, $remainder:ident, $t:ty) => {
        fn $floor_divide(a: $t, b: $t) -> $t {
            if b == 0.0 {
                return a / b;
            }
            let m = a % b;
            let mut div = (a - m) / b;
            if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                div -= 1.0;
            }
            if div == 0.0 {
                return (0.0 as $t).copysign(a / b);
            }
            let f = div.floor();
            if div - f > 0.5 {
                f + 1.0
            } else {
                f
            }
        }

        fn $remainder(a: $t, b: $t) -> $t {
            let m = a % b;
            if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                m + b
            } else if m == 0.0 {
                (0.0 as $t).copysign(b)
            } else {
                m
            }
        }
    };
}

py_division!(floor_divide32, remainder32, f32);
py_division!(floor_divide64, remainder64, f64);

/// Pairs for the division ops: the sweep's inputs against a shuffle of themselves, quotients
/// within an ulp of an integer (where a rounded quotient truncates the wrong way), huge
/// quotients (libm's path), and zeros, infinities and NaN on either side.
fn division_pairs(xs: &[f64], ulp: impl Fn(f64) -> f64) -> (Vec<f64>, Vec<f64>) {
    let mut s = 0x5851_F42D_4C95_7F2Du64;
    let (mut a, mut b) = (xs.to_vec(), xs.to_vec());
    for i in (1..b.len()).rev() {
        b.swap(i, (xorshift(&mut s) % (i as u64 + 1)) as usize);
    }
    for _ in 0..200_000 {
        let d = (xorshift(&mut s) >> 40) as f64 / (1u64 << 24) as f64 * 7.0 + 0.01;
        let k = (xorshift(&mut s) % 4_000_000) as f64 - 2_000_000.0;
        let nudge = (xorshift(&mut s) % 5) as f64 - 2.0;
        let d = if xorshift(&mut s).is_multiple_of(2) {
            d
        } else {
            -d
        };
        let x = k * d;
        a.push(x + nudge * ulp(x));
        b.push(d);
    }
    for &x in &[
        0.0,
        -0.0,
        1.5,
        -7.25,
        1e30,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ] {
        for &y in &[
            0.0,
            -0.0,
            2.0,
            -0.5,
            1e-30,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ] {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

/// `//`, `%` and `fmod` of floats are exactly Python's/numpy's and C's, bit for bit
/// (signed zeros and NaN included), in both lane types and on a broadcast divisor.
#[test]
#[cfg_attr(miri, ignore = "hundreds of thousands of elements")]
fn float_floor_divide_remainder_fmod_are_exact() {
    let f32_ulp =
        |x: f64| f64::from(f32::from_bits((x as f32).abs().to_bits() + 1) - (x as f32).abs());
    let f64_ulp = |x: f64| f64::from_bits(x.abs().to_bits() + 1) - x.abs();
    let xs32: Vec<f64> = inputs_f32().into_iter().step_by(3).map(f64::from).collect();
    let xs64: Vec<f64> = inputs_f64().into_iter().step_by(3).collect();
    for (dtype, (a, b)) in [
        (DType::Float32, division_pairs(&xs32, f32_ulp)),
        (DType::Float64, division_pairs(&xs64, f64_ulp)),
    ] {
        let a: Vec<f64> = if dtype == DType::Float32 {
            a.iter().map(|&v| f64::from(v as f32)).collect()
        } else {
            a
        };
        let b: Vec<f64> = if dtype == DType::Float32 {
            b.iter().map(|&v| f64::from(v as f32)).collect()
        } else {
            b
        };
        let n = a.len();
        let ta = Tensor::from_vec(a.clone(), &[n])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        let tb = Tensor::from_vec(b.clone(), &[n])
            .unwrap()
            .to_dtype(dtype)
            .unwrap();
        for op in [BinaryOp::FloorDivide, BinaryOp::Remainder, BinaryOp::Fmod] {
            let reference = |x: f64, y: f64| -> f64 {
                if dtype == DType::Float32 {
                    let (x, y) = (x as f32, y as f32);
                    f64::from(match op {
                        BinaryOp::FloorDivide => floor_divide32(x, y),
                        BinaryOp::Remainder => remainder32(x, y),
                        _ => x % y,
                    })
                } else {
                    match op {
                        BinaryOp::FloorDivide => floor_divide64(x, y),
                        BinaryOp::Remainder => remainder64(x, y),
                        _ => x % y,
                    }
                }
            };
            let got = ta.binary(op, &tb).unwrap().to_f64_vec().unwrap();
            for i in 0..n {
                let want = reference(a[i], b[i]);
                let same = got[i].to_bits() == want.to_bits() || got[i].is_nan() && want.is_nan();
                assert!(
                    same,
                    "{dtype} {op:?}({}, {}) = {} want {want}",
                    a[i], b[i], got[i]
                );
            }
            // A broadcast divisor runs the same kernel.
            let d = Tensor::from_vec(vec![b[7]], &[1])
                .unwrap()
                .to_dtype(dtype)
                .unwrap();
            let bd = ta
                .binary(op, &d.expand(&[n as isize]).unwrap())
                .unwrap()
                .to_f64_vec()
                .unwrap();
            let full = ta
                .binary(op, &d.expand(&[n as isize]).unwrap().contiguous().unwrap())
                .unwrap()
                .to_f64_vec()
                .unwrap();
            assert!(same_bits(&bd, &full), "{dtype} {op:?} broadcast");
        }
    }
}

/// `pow` of `f32` (the `f64`-lane kernel) against the `f64` reference rounded to `f32`: every
/// `f32` bit pattern of the sweep as a base against exponents that keep most results in range
/// (dense reals in ±40, every integer in ±64, halves, and the shuffled sweep itself, which
/// mostly overflows or underflows), within 1 ulp with underflow and overflow exact; then every
/// pair of C's special operands (zeros, infinities, NaN, ±1, negative bases with integer and
/// non-integer exponents) exactly as the standard library's `powf`; then the half types and a
/// transposed, a broadcast and an empty operand against the contiguous run.
#[test]
#[cfg_attr(miri, ignore = "millions of elements")]
fn pow_float32_is_within_one_ulp_and_exact_on_specials() {
    let xs = inputs_f32();
    let mut s = 0x51_7CC1_B727_220Au64;
    let mut shuffled = xs.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, (xorshift(&mut s) % (i as u64 + 1)) as usize);
    }
    let ys: Vec<f32> = (0..xs.len())
        .map(|i| match i % 4 {
            0 => (xorshift(&mut s) >> 40) as f32 / (1u64 << 24) as f32 * 80.0 - 40.0,
            1 => ((xorshift(&mut s) % 129) as f32) - 64.0,
            2 => ((xorshift(&mut s) % 41) as f32) * 0.5 - 10.0,
            _ => shuffled[i],
        })
        .collect();
    let n = xs.len();
    let got = Tensor::from_vec(xs.clone(), &[n])
        .unwrap()
        .binary(BinaryOp::Pow, &Tensor::from_vec(ys.clone(), &[n]).unwrap())
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let (mut worst, mut at) = (0f64, (0f32, 0f32));
    for ((&x, &y), &g) in xs.iter().zip(&ys).zip(&got) {
        // A NaN operand as the standard library's `powf` of `f32` (`pow(sNaN, 0)` is NaN
        // there, where widening to `f64` quiets the NaN first and gives 1).
        let want = if x.is_nan() || y.is_nan() {
            f64::from(x.powf(y))
        } else {
            f64::from(x).powf(f64::from(y))
        };
        let w32 = want as f32;
        let u = if w32.is_nan() || g.is_nan() || w32 == 0.0 || w32.is_infinite() {
            if w32.to_bits() == g.to_bits() || w32.is_nan() && g.is_nan() {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            ulps(f64::from(g), want, 23, -126)
        };
        if u > worst {
            (worst, at) = (u, (x, y));
        }
    }
    eprintln!("pow f32: max {worst:.3} ulp over {n} pairs (at x, y = {at:?})");
    assert!(worst <= 1.0, "pow f32: {worst} ulp at {at:?}");

    let sp = [
        0.0f32,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        2.5,
        -2.5,
        1e-45,
        -1e-45,
        3e38,
        16_777_217.0,
    ];
    let (mut bases, mut exps) = (Vec::new(), Vec::new());
    for &a in &sp {
        for &b in &sp {
            bases.push(a);
            exps.push(b);
        }
    }
    let n = bases.len();
    let got = Tensor::from_vec(bases.clone(), &[n])
        .unwrap()
        .binary(
            BinaryOp::Pow,
            &Tensor::from_vec(exps.clone(), &[n]).unwrap(),
        )
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for i in 0..n {
        let want = f64::from(bases[i]).powf(f64::from(exps[i])) as f32;
        let exact = got[i].to_bits() == want.to_bits() || got[i].is_nan() && want.is_nan();
        assert!(
            exact,
            "pow({}, {}) = {} want {want}",
            bases[i], exps[i], got[i]
        );
    }

    // Layouts and half types: the same kernel.
    let vals: Vec<f32> = (0..7 * 37).map(|i| (i as f32 - 130.0) * 0.0173).collect();
    let a = Tensor::from_vec(vals.clone(), &[7, 37]).unwrap();
    let b = Tensor::from_vec(vals.iter().rev().map(|v| v * 3.0).collect(), &[7, 37]).unwrap();
    let plain = |y: &Tensor, x: &Tensor| {
        let x = x.expand(&dims(y)).unwrap().contiguous().unwrap();
        y.contiguous()
            .unwrap()
            .binary(BinaryOp::Pow, &x)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    };
    let row = b.narrow(0, 3, 1).unwrap();
    for (what, x, y) in [
        ("transposed", a.t(), b.t()),
        ("row broadcast", a.clone(), row.expand(&[7, 37]).unwrap()),
        (
            "empty",
            a.narrow(0, 0, 0).unwrap(),
            b.narrow(0, 0, 0).unwrap(),
        ),
    ] {
        let got = x
            .binary(BinaryOp::Pow, &y)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert!(same_bits(&got, &plain(&x, &y)), "{what}");
    }
    for dtype in [DType::Float16, DType::BFloat16] {
        let (h, e) = (a.to_dtype(dtype).unwrap(), b.to_dtype(dtype).unwrap());
        let got = h.binary(BinaryOp::Pow, &e).unwrap().to_f64_vec().unwrap();
        let want = plain(
            &h.to_dtype(DType::Float32).unwrap(),
            &e.to_dtype(DType::Float32).unwrap(),
        );
        let want = Tensor::from_vec(want, &[7, 37])
            .unwrap()
            .to_dtype(dtype)
            .unwrap()
            .to_f64_vec()
            .unwrap();
        assert!(same_bits(&got, &want), "{dtype:?}");
    }
}
