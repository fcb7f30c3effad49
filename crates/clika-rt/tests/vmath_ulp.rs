//! Accuracy of the vectorised transcendental kernels, in units in the last place, against
//! `f64` references (the standard library's and `libm`'s functions) over dense sweeps: every
//! binade of `f32` (a stride through all bit patterns), random `f64` bit patterns, dense
//! grids over the interesting ranges, and the special values (±0, subnormals, ±inf, NaN,
//! the overflow and underflow edges), which must come out exactly. Then the same kernel on
//! strided, broadcast, in-place-shaped and empty layouts, and in `float16`/`bfloat16`.
//! (The two-operand kernels are in `vmath_binary.rs`.)

use clika_rt::ops::UnaryOp;
use clika_rt::{DType, Tensor};
#[path = "support/vmath_inputs.rs"]
mod vmath_inputs;
use vmath_inputs::{inputs_f32, inputs_f64, same_bits, ulps};

/// The reference in `f64`, and the bound in ulps for `f32` and for `f64` results.
struct Case {
    op: UnaryOp,
    reference: fn(f64) -> f64,
    max_ulp_f32: f64,
    max_ulp_f64: f64,
    /// Inputs below this are checked with a relative bound instead (the `f64` reference
    /// itself is not ulp-accurate there; see `gelu`).
    ulp_from: f64,
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

fn gelu(x: f64) -> f64 {
    if x.is_infinite() {
        return if x > 0.0 { x } else { -0.0 };
    }
    // 1/√2 = H + H_LO exactly enough; z = -x/√2 = zh + dz.
    const H: f64 = std::f64::consts::FRAC_1_SQRT_2;
    const H_LO: f64 = -4.833_646_656_726_457e-17;
    let zh = -x * H;
    let dz = (-x).mul_add(H, -zh) - x * H_LO;
    let two_over_sqrt_pi = std::f64::consts::FRAC_2_SQRT_PI;
    0.5 * x * (libm::erfc(zh) - dz * two_over_sqrt_pi * (-zh * zh).exp())
}

fn cases() -> Vec<Case> {
    let c = |op, reference: fn(f64) -> f64, f32u, f64u| Case {
        op,
        reference,
        max_ulp_f32: f32u,
        max_ulp_f64: f64u,
        ulp_from: f64::NEG_INFINITY,
    };
    vec![
        c(UnaryOp::Exp, f64::exp, 1.5, 2.0),
        c(UnaryOp::Log, f64::ln, 1.5, 2.0),
        c(UnaryOp::Tanh, f64::tanh, 2.5, 4.5),
        c(UnaryOp::Sigmoid, sigmoid, 2.5, 4.0),
        c(
            UnaryOp::Silu,
            |x| {
                if x == f64::NEG_INFINITY {
                    -0.0
                } else if x < -700.0 {
                    // x·e^x where e^x alone is subnormal: (e^(x/2)·x)·e^(x/2).
                    let h = (x / 2.0).exp();
                    (h * x) * h
                } else {
                    x * sigmoid(x)
                }
            },
            3.5,
            5.0,
        ),
        c(UnaryOp::Sin, f64::sin, 2.5, 2.0),
        c(UnaryOp::Cos, f64::cos, 2.5, 2.0),
        c(UnaryOp::Erf, libm::erf, 2.5, 3.0),
        Case {
            // x·erfc(-x/√2)/2, with the rounding of z = -x/√2 corrected to first order
            // (erfc' = -2/√π·e^{-z²}); below -37 erfc(z) is subnormal in f64, so that tail
            // is checked to a relative bound plus the reference's own rounding.
            ulp_from: -37.0,
            ..c(UnaryOp::Gelu, gelu, 5.0, 10.0)
        },
        c(UnaryOp::Sqrt, f64::sqrt, 0.5, 0.5),
        c(UnaryOp::Log1p, f64::ln_1p, 2.5, 2.5),
        c(UnaryOp::Expm1, f64::exp_m1, 2.5, 2.5),
        c(UnaryOp::Tan, f64::tan, 3.5, 3.5),
        c(UnaryOp::Rsqrt, |x| 1.0 / x.sqrt(), 1.5, 1.5),
        c(UnaryOp::Atan, f64::atan, 2.5, 2.5),
        c(UnaryOp::Asin, f64::asin, 3.5, 3.5),
        c(UnaryOp::Acos, f64::acos, 2.5, 2.5),
    ]
}

/// The error of one result in ulps: specials must match exactly (NaN for NaN, infinities
/// and signed zeros as they are; a mismatch is an infinite error), everything else is
/// measured in ulps of `want` (for `f64`, a relative bound below `case.ulp_from`).
fn error(case: &Case, x: f64, got: f64, want: f64, mant: i32, emin: i32) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want.is_infinite() || got.is_infinite() || (want == 0.0 && x.is_infinite()) {
        return if got.to_bits() == want.to_bits() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x == 0.0 && got.is_sign_negative() != want.is_sign_negative() {
        return f64::INFINITY;
    }
    if mant == 52 && x < case.ulp_from {
        // The reference's erfc is subnormal in the deepest tail: its rounding there, scaled
        // by x/2, is the absolute slack.
        let ok = (got - want).abs() <= 1e-12 * want.abs() + x.abs() * f64::from_bits(1);
        return if ok { 0.0 } else { f64::INFINITY };
    }
    ulps(got, want, mant, emin)
}

/// Runs every case over `xs` in the float type `T` and asserts the bounds, after printing
/// each case's worst input.
fn sweep<T: clika_rt::Element + Copy + Into<f64>>(
    xs: Vec<T>,
    round: fn(f64) -> f64,
    mant: i32,
    emin: i32,
    bound: fn(&Case) -> f64,
) {
    let t = Tensor::from_vec(xs.clone(), &[xs.len()]).unwrap();
    let mut failures = Vec::new();
    for case in cases() {
        let got = t.unary(case.op).unwrap().to_vec::<T>().unwrap();
        let (mut worst, mut at, mut worst_got) = (0f64, 0f64, 0f64);
        for (&x, &g) in xs.iter().zip(&got) {
            let (x, g) = (x.into(), g.into());
            let want = round((case.reference)(x));
            let u = error(&case, x, g, want, mant, emin);
            if u > worst || u.is_nan() {
                (worst, at, worst_got) = (u, x, g);
            }
        }
        let line = format!(
            "{:?} {}: max {worst:.3} ulp over {} inputs (at x = {at:e}: got {worst_got:e}, want {:e})",
            case.op,
            mant,
            xs.len(),
            round((case.reference)(at))
        );
        eprintln!("{line}");
        if worst.is_nan() || worst > bound(&case) {
            failures.push(line);
        }
    }
    assert!(
        failures.is_empty(),
        "over the bound:\n{}",
        failures.join("\n")
    );
}

#[test]
#[cfg_attr(miri, ignore = "millions of elements")]
fn float32_kernels_are_within_their_ulp_bounds() {
    // The reference rounded to f32 decides overflow, and underflow to zero.
    let round = |w: f64| {
        if (w as f32).is_infinite() || (w != 0.0 && w as f32 == 0.0) {
            f64::from(w as f32)
        } else {
            w
        }
    };
    sweep(inputs_f32(), round, 23, -126, |c| c.max_ulp_f32);
}

#[test]
#[cfg_attr(miri, ignore = "millions of elements")]
fn float64_kernels_are_within_their_ulp_bounds() {
    sweep(inputs_f64(), |w| w, 52, -1022, |c| c.max_ulp_f64);
}

#[test]
fn every_layout_runs_the_same_kernel() {
    // 7 × 37 values spanning the kernels' ranges (37 is not a multiple of the lane count);
    // under Miri, which checks the strided drivers rather than the arithmetic, 3 × 19.
    let (rows, cols) = if cfg!(miri) { (3, 19) } else { (7, 37) };
    let step = 45.0 / (rows * cols) as f32;
    let vals: Vec<f32> = (0..rows * cols)
        .map(|i| (i as f32 - (rows * cols / 2) as f32) * step)
        .collect();
    let base = Tensor::from_vec(vals, &[rows, cols]).unwrap();
    // Under Miri every other op: the strided drivers are the same for all of them.
    for case in cases().into_iter().step_by(if cfg!(miri) { 2 } else { 1 }) {
        let op = case.op;
        let want_of = |t: &Tensor| {
            t.contiguous()
                .unwrap()
                .unary(op)
                .unwrap()
                .to_vec::<f32>()
                .unwrap()
        };
        // Transposed (inner stride `rows`), sliced with a step, and broadcast operands.
        let transposed = base.t();
        let sliced = base.slice(1, Some(1), None, 3).unwrap();
        let broadcast = base
            .narrow(0, 2, 1)
            .unwrap()
            .expand(&[5, cols as isize])
            .unwrap();
        for (what, view) in [
            ("transposed", &transposed),
            ("sliced", &sliced),
            ("broadcast", &broadcast),
        ] {
            let got = view.unary(op).unwrap().to_vec::<f32>().unwrap();
            assert!(same_bits(&got, &want_of(view)), "{op:?} on a {what} view");
        }
        // Empty tensors, of several shapes, give empty results.
        for shape in [&[0usize][..], &[3, 0], &[0, 5]] {
            let e = Tensor::zeros(shape, DType::Float32).unwrap();
            let r = e.unary(op).unwrap();
            assert_eq!(r.shape(), shape);
            assert_eq!(r.numel(), 0);
        }
        // f64 agrees with its own contiguous run on a transposed view too.
        let b64 = base.to_dtype(DType::Float64).unwrap();
        let got = b64.t().unary(op).unwrap().to_vec::<f64>().unwrap();
        let want = b64
            .t()
            .contiguous()
            .unwrap()
            .unary(op)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        assert!(same_bits(&got, &want), "{op:?} f64 transposed");
    }
}

#[test]
fn half_types_round_the_float32_kernel_once() {
    let n = if cfg!(miri) { 45 } else { 300 };
    let vals: Vec<f32> = (0..n)
        .map(|i| (i as f32 - (n / 2) as f32) * 27.0 / n as f32)
        .collect();
    let t32 = Tensor::from_vec(vals, &[n]).unwrap();
    for case in cases() {
        for dt in [DType::Float16, DType::BFloat16] {
            let got = t32.to_dtype(dt).unwrap().unary(case.op).unwrap();
            assert_eq!(got.dtype(), dt);
            // The half input is the rounded f32 input, so compare against the f32 kernel
            // on the rounded input, rounded once.
            let rounded_in = t32.to_dtype(dt).unwrap().to_dtype(DType::Float32).unwrap();
            let want = rounded_in.unary(case.op).unwrap().to_dtype(dt).unwrap();
            assert!(
                same_bits(&got.to_f64_vec().unwrap(), &want.to_f64_vec().unwrap()),
                "{:?} {dt}",
                case.op
            );
        }
    }
}
