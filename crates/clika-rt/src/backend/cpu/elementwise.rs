//! The CPU's elementwise kernels: unary and binary ops over any layout (operands are
//! coalesced and walked row by row by [`map1`]/[`map2`]).

use super::kernel::{map1, map2};
use super::num::{dispatch_num, Num};
use crate::ops::{BinaryOp, UnaryOp};
use crate::{DType, Tensor};

/// The float kernels, in `f64` or `f32` precision.
macro_rules! float_fn {
    ($op:expr, $t:ty, $erf:path) => {{
        const SQRT_HALF: $t = std::f64::consts::FRAC_1_SQRT_2 as $t;
        let f: fn($t) -> $t = match $op {
            UnaryOp::Exp => |x| x.exp(),
            UnaryOp::Log => |x| x.ln(),
            UnaryOp::Sqrt => |x| x.sqrt(),
            UnaryOp::Rsqrt => |x| 1.0 / x.sqrt(),
            UnaryOp::Sin => |x| x.sin(),
            UnaryOp::Cos => |x| x.cos(),
            UnaryOp::Tanh => |x| x.tanh(),
            UnaryOp::Sigmoid => |x| 1.0 / (1.0 + (-x).exp()),
            UnaryOp::Gelu => |x| 0.5 * x * (1.0 + $erf(x * SQRT_HALF)),
            UnaryOp::Silu => |x| x / (1.0 + (-x).exp()),
            UnaryOp::Erf => |x| $erf(x),
            UnaryOp::Neg => |x| -x,
            UnaryOp::Abs => |x| x.abs(),
            UnaryOp::Relu => |x| if x > 0.0 || x.is_nan() { x } else { 0.0 },
            _ => unreachable!("elementwise_more runs {}", $op.name()),
        };
        f
    }};
}

/// Runs `op` from `src` (already of the result dtype) into `out`.
///
/// # Safety
/// As for [`map1`].
pub(crate) unsafe fn run_unary(op: UnaryOp, src: &Tensor, out: &Tensor) {
    // The lane kernels first: they take the float forms of some ops `elementwise_more` owns
    // (the rounding functions), which keeps the integer and bool forms.
    // SAFETY: forwarded from this function's contract.
    if unsafe { super::vmath::run_unary(op, src, out) } {
        return;
    }
    if super::elementwise_more::owns_unary(op) {
        // SAFETY: forwarded from this function's contract.
        return unsafe { super::elementwise_more::run_unary(op, src, out) };
    }
    dispatch_num!(out.dtype(), T => {
        // SAFETY: forwarded from this function's contract.
        unsafe { run_num::<T>(op, src, out) }
    }, bool => {
        // Only `abs` and `relu` keep `Bool`; both are the identity on booleans.
        // SAFETY: forwarded from this function's contract.
        unsafe { map1::<bool, bool>(src, out, |x| x) }
    })
}

/// [`run_unary`] for a numeric type.
///
/// # Safety
/// As for [`map1`].
unsafe fn run_num<T: Num>(op: UnaryOp, src: &Tensor, out: &Tensor) {
    // SAFETY: every `map1` below is forwarded this function's contract.
    unsafe {
        match op {
            UnaryOp::Neg => map1::<T, T>(src, out, Num::neg),
            UnaryOp::Abs => map1::<T, T>(src, out, Num::abs),
            UnaryOp::Relu => map1::<T, T>(src, out, |x| {
                if x > T::ZERO || Num::is_nan(x) {
                    x
                } else {
                    T::ZERO
                }
            }),
            _ if T::DTYPE == DType::Float64 => {
                let f = float_fn!(op, f64, libm::erf);
                map1::<T, T>(src, out, move |x| T::from_f64(f(x.to_f64())))
            }
            _ => {
                let f = float_fn!(op, f32, libm::erff);
                map1::<T, T>(src, out, move |x| T::from_f64(f(x.to_f64() as f32) as f64))
            }
        }
    }
}

/// Runs `op` with inputs of compute dtype `cd` (already broadcast to `out`'s shape).
///
/// # Safety
/// As for [`map2`]: `out` has the inputs' shape and the op's result dtype, is writable and
/// not accessed by anyone else during the call, and is either exactly `a` or disjoint from
/// both inputs.
pub(crate) unsafe fn run_binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor, cd: DType) {
    // SAFETY: forwarded from this function's contract.
    if cd == out.dtype() && unsafe { super::vmath::run_binary(op, a, b, out) } {
        return;
    }
    if super::elementwise_more::owns_binary(op) {
        // SAFETY: forwarded from this function's contract.
        return unsafe { super::elementwise_more::run_binary(op, a, b, out, cd) };
    }
    dispatch_num!(cd, T => {
        // SAFETY: forwarded from this function's contract.
        unsafe { run_binary_num::<T>(op, a, b, out) }
    }, bool => {
        // SAFETY: forwarded from this function's contract.
        unsafe { run_bool(op, a, b, out) }
    })
}

/// `out = min(max(t, lo), hi)` (either bound optional) in one pass for numeric dtypes, with
/// `maximum`/`minimum`'s NaN rule, so it equals the composed form bit for bit; `false` for
/// `Bool`.
///
/// # Safety
/// As for [`map1`], with `t` and `out` of one dtype; `lo`/`hi` hold one element of it.
pub(crate) unsafe fn clamp(
    t: &Tensor,
    lo: Option<&Tensor>,
    hi: Option<&Tensor>,
    out: &Tensor,
) -> crate::Result<bool> {
    dispatch_num!(t.dtype(), T => {
        let (lo, hi) = (lo.map(Tensor::item::<T>).transpose()?, hi.map(Tensor::item::<T>).transpose()?);
        // SAFETY: forwarded from this function's contract.
        unsafe {
            match (lo, hi) {
                (Some(l), Some(h)) => map1::<T, T>(t, out, move |x| Num::min(Num::max(x, l), h)),
                (Some(l), None) => map1::<T, T>(t, out, move |x| Num::max(x, l)),
                (None, Some(h)) => map1::<T, T>(t, out, move |x| Num::min(x, h)),
                // No bound: nothing to fuse (`ops::clamp` copies).
                (None, None) => return Ok(false),
            }
        }
        Ok(true)
    }, bool => Ok(false))
}

/// [`run_binary`] for a numeric compute type.
///
/// # Safety
/// As for [`run_binary`].
unsafe fn run_binary_num<T: Num>(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) {
    use BinaryOp as B;
    // SAFETY: forwarded from this function's contract.
    unsafe {
        match op {
            B::Add => map2::<T, T, T>(a, b, out, Num::add),
            B::Sub => map2::<T, T, T>(a, b, out, Num::sub),
            B::Mul => map2::<T, T, T>(a, b, out, Num::mul),
            B::Div => map2::<T, T, T>(a, b, out, Num::div),
            B::Pow => map2::<T, T, T>(a, b, out, Num::pow),
            B::Maximum => map2::<T, T, T>(a, b, out, Num::max),
            B::Minimum => map2::<T, T, T>(a, b, out, Num::min),
            B::Eq => map2::<T, T, bool>(a, b, out, |x, y| x == y),
            B::Ne => map2::<T, T, bool>(a, b, out, |x, y| x != y),
            B::Lt => map2::<T, T, bool>(a, b, out, |x, y| x < y),
            B::Le => map2::<T, T, bool>(a, b, out, |x, y| x <= y),
            B::Gt => map2::<T, T, bool>(a, b, out, |x, y| x > y),
            B::Ge => map2::<T, T, bool>(a, b, out, |x, y| x >= y),
            _ => unreachable!("elementwise_more runs {}", op.name()),
        }
    }
}

/// [`run_binary`] for `Bool` operands (logical forms of the arithmetic ops).
///
/// # Safety
/// As for [`run_binary`].
unsafe fn run_bool(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) {
    use BinaryOp as B;
    let f: fn(bool, bool) -> bool = match op {
        B::Add | B::Maximum => |x, y| x | y,
        B::Mul | B::Minimum => |x, y| x & y,
        B::Eq => |x, y| x == y,
        B::Ne => |x, y| x != y,
        B::Lt => |x, y| !x & y,
        B::Le => |x, y| !x | y,
        B::Gt => |x, y| x & !y,
        B::Ge => |x, y| x | !y,
        _ => unreachable!("rejected by BinaryOp::dtypes or run by elementwise_more"),
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { map2::<bool, bool, bool>(a, b, out, f) }
}
