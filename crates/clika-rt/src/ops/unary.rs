//! Elementwise unary operations.

use super::kernel::map1;
use super::num::{dispatch_num, Num};
use super::promote::float_type;
use crate::{DType, Error, Result, Tensor};

/// An elementwise unary operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x` (integers wrap; not defined for `Bool`).
    Neg,
    /// `|x|`.
    Abs,
    /// `max(x, 0)`.
    Relu,
    /// `e^x`.
    Exp,
    /// Natural logarithm.
    Log,
    /// Square root.
    Sqrt,
    /// `1 / sqrt(x)`.
    Rsqrt,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Hyperbolic tangent.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// Gaussian error linear unit, exact form `x · Φ(x)`.
    Gelu,
    /// `x · sigmoid(x)`.
    Silu,
    /// The error function.
    Erf,
}

impl UnaryOp {
    /// Every unary op.
    pub const ALL: [UnaryOp; 14] = [
        UnaryOp::Neg,
        UnaryOp::Abs,
        UnaryOp::Relu,
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Sqrt,
        UnaryOp::Rsqrt,
        UnaryOp::Sin,
        UnaryOp::Cos,
        UnaryOp::Tanh,
        UnaryOp::Sigmoid,
        UnaryOp::Gelu,
        UnaryOp::Silu,
        UnaryOp::Erf,
    ];

    /// The op's name (`"exp"`).
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Abs => "abs",
            UnaryOp::Relu => "relu",
            UnaryOp::Exp => "exp",
            UnaryOp::Log => "log",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Rsqrt => "rsqrt",
            UnaryOp::Sin => "sin",
            UnaryOp::Cos => "cos",
            UnaryOp::Tanh => "tanh",
            UnaryOp::Sigmoid => "sigmoid",
            UnaryOp::Gelu => "gelu",
            UnaryOp::Silu => "silu",
            UnaryOp::Erf => "erf",
        }
    }

    /// Whether the op keeps integer dtypes (`neg`, `abs`, `relu`); the others compute in
    /// floating point (`Float32` for integer and bool inputs).
    pub fn keeps_integers(self) -> bool {
        matches!(self, UnaryOp::Neg | UnaryOp::Abs | UnaryOp::Relu)
    }

    /// The dtype of the result for an input of `d`.
    pub fn out_dtype(self, d: DType) -> Result<DType> {
        match (self, d) {
            (UnaryOp::Neg, DType::Bool) => Err(Error::UnsupportedDType {
                op: self.name(),
                dtype: d,
            }),
            (op, d) if op.keeps_integers() => Ok(d),
            (_, d) => Ok(float_type(d)),
        }
    }
}

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
        };
        f
    }};
}

/// `op(t)` into a fresh tensor.
pub fn unary(op: UnaryOp, t: &Tensor) -> Result<Tensor> {
    if !t.device().is_cpu() {
        return crate::backend::kernels::unary(op, t);
    }
    let od = op.out_dtype(t.dtype())?;
    let src = t.to_dtype(od)?;
    let out = Tensor::alloc(t.shape(), od, t.device(), false)?;
    // SAFETY: `out` is fresh, exclusively held, of `src`'s shape and dtype `od`.
    unsafe { run(op, &src, &out) };
    Ok(out)
}

/// `op(t)`, writing into `t`'s memory when it is the only reference to reusable memory of
/// the result's dtype (buffer reuse); otherwise like [`unary`].
pub fn unary_owned(op: UnaryOp, t: Tensor) -> Result<Tensor> {
    if !t.device().is_cpu() {
        return unary(op, &t);
    }
    let od = op.out_dtype(t.dtype())?;
    if od != t.dtype() || !t.may_overwrite() || !t.is_contiguous() {
        return unary(op, &t);
    }
    // SAFETY: `t` is the only reference to its writable reusable storage; the kernel may
    // write its input exactly.
    unsafe { run(op, &t, &t) };
    Ok(t)
}

/// Runs `op` from `src` (already of the result dtype) into `out`.
///
/// # Safety
/// As for [`map1`].
pub(crate) unsafe fn run(op: UnaryOp, src: &Tensor, out: &Tensor) {
    dispatch_num!(out.dtype(), T => {
        // SAFETY: forwarded from this function's contract.
        unsafe { run_num::<T>(op, src, out) }
    }, bool => {
        // Only `abs` and `relu` keep `Bool`; both are the identity on booleans.
        // SAFETY: forwarded from this function's contract.
        unsafe { map1::<bool, bool>(src, out, |x| x) }
    })
}

/// [`run`] for a numeric type.
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

macro_rules! named_unary {
    ($($name:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("Elementwise `", stringify!($name), "`; see [`UnaryOp::", stringify!($op), "`].")]
            pub fn $name(t: &Tensor) -> Result<Tensor> {
                unary(UnaryOp::$op, t)
            }
        )*
    };
}

named_unary!(neg => Neg, abs => Abs, relu => Relu, exp => Exp, log => Log, sqrt => Sqrt,
    rsqrt => Rsqrt, sin => Sin, cos => Cos, tanh => Tanh, sigmoid => Sigmoid, gelu => Gelu,
    silu => Silu, erf => Erf);
