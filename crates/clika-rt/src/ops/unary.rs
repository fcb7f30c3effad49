//! Elementwise unary operations.

use super::promote::float_type;
use crate::backend::backend;
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

/// An elementwise unary op, planned once for every backend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UnaryPlan {
    pub(crate) op: UnaryOp,
    /// The result's dtype (the input is converted to it before the op).
    pub(crate) out: DType,
}

impl UnaryPlan {
    pub(crate) fn new(op: UnaryOp, t: &Tensor) -> Result<UnaryPlan> {
        Ok(UnaryPlan {
            op,
            out: op.out_dtype(t.dtype())?,
        })
    }
}

/// `op(t)` into a fresh tensor.
pub fn unary(op: UnaryOp, t: &Tensor) -> Result<Tensor> {
    let plan = UnaryPlan::new(op, t)?;
    let out = Tensor::alloc(t.shape(), plan.out, t.device(), false)?;
    // SAFETY: `out` is fresh, exclusively held, of `t`'s shape and the plan's dtype.
    unsafe { backend(t.device())?.unary(&plan, t, &out)? };
    Ok(out)
}

/// `op(t)`, writing into `t`'s memory when it is the only reference to reusable memory of
/// the result's dtype (buffer reuse); otherwise like [`unary`].
pub fn unary_owned(op: UnaryOp, t: Tensor) -> Result<Tensor> {
    let plan = UnaryPlan::new(op, &t)?;
    if !t.may_hold_result(plan.out, t.shape()) {
        return unary(op, &t);
    }
    // SAFETY: `t` is the only reference to its writable reusable storage, of the result's
    // dtype; kernels may write their input exactly.
    match unsafe { backend(t.device())?.unary(&plan, &t, &t) } {
        Ok(()) => Ok(t),
        // As in `binary_owned`: a backend that cannot write this view computes afresh.
        Err(Error::UnsupportedOnDevice { .. }) => unary(op, &t),
        Err(e) => Err(e),
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
