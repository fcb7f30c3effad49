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
    /// Rounds to the nearest integer, halves to even (numpy's `round`, PyTorch's `round`); integers unchanged.
    Round,
    /// The largest integer not above `x`; integers unchanged.
    Floor,
    /// The smallest integer not below `x`; integers unchanged.
    Ceil,
    /// Rounds toward zero; integers unchanged.
    Trunc,
    /// `-1`, `0` or `1` by the sign of `x` (NaN stays NaN; `Bool` unchanged).
    Sign,
    /// Whether `x` is NaN → `Bool` (integers: all false).
    IsNan,
    /// Whether `x` is ±infinity → `Bool` (integers: all false).
    IsInf,
    /// Whether `x` is neither NaN nor infinite → `Bool` (integers: all true).
    IsFinite,
    /// `ln(1 + x)`, accurate near 0.
    Log1p,
    /// `e^x - 1`, accurate near 0.
    Expm1,
    /// Base-2 logarithm.
    Log2,
    /// Base-10 logarithm.
    Log10,
    /// `2^x`.
    Exp2,
    /// Tangent.
    Tan,
    /// Inverse tangent.
    Atan,
    /// Inverse sine (NaN outside [-1, 1]).
    Asin,
    /// Inverse cosine (NaN outside [-1, 1]).
    Acos,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// `~x`: bitwise not of integers, logical not of `Bool`; floats are refused.
    BitwiseNot,
    /// `x == 0` → `Bool`, for any dtype (NaN is true, so its negation is false).
    LogicalNot,
}

impl UnaryOp {
    /// Every unary op.
    pub const ALL: [UnaryOp; 35] = [
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
        UnaryOp::Round,
        UnaryOp::Floor,
        UnaryOp::Ceil,
        UnaryOp::Trunc,
        UnaryOp::Sign,
        UnaryOp::IsNan,
        UnaryOp::IsInf,
        UnaryOp::IsFinite,
        UnaryOp::Log1p,
        UnaryOp::Expm1,
        UnaryOp::Log2,
        UnaryOp::Log10,
        UnaryOp::Exp2,
        UnaryOp::Tan,
        UnaryOp::Atan,
        UnaryOp::Asin,
        UnaryOp::Acos,
        UnaryOp::Sinh,
        UnaryOp::Cosh,
        UnaryOp::BitwiseNot,
        UnaryOp::LogicalNot,
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
            UnaryOp::Round => "round",
            UnaryOp::Floor => "floor",
            UnaryOp::Ceil => "ceil",
            UnaryOp::Trunc => "trunc",
            UnaryOp::Sign => "sign",
            UnaryOp::IsNan => "isnan",
            UnaryOp::IsInf => "isinf",
            UnaryOp::IsFinite => "isfinite",
            UnaryOp::Log1p => "log1p",
            UnaryOp::Expm1 => "expm1",
            UnaryOp::Log2 => "log2",
            UnaryOp::Log10 => "log10",
            UnaryOp::Exp2 => "exp2",
            UnaryOp::Tan => "tan",
            UnaryOp::Atan => "atan",
            UnaryOp::Asin => "asin",
            UnaryOp::Acos => "acos",
            UnaryOp::Sinh => "sinh",
            UnaryOp::Cosh => "cosh",
            UnaryOp::BitwiseNot => "bitwise_not",
            UnaryOp::LogicalNot => "logical_not",
        }
    }

    /// Whether the op keeps integer dtypes (`neg`, `abs`, `relu`, the rounding ops, `sign`,
    /// `bitwise_not`); the others compute in floating point (`Float32` for integer and bool
    /// inputs) or return `Bool`.
    pub fn keeps_integers(self) -> bool {
        use UnaryOp as U;
        matches!(
            self,
            U::Neg | U::Abs | U::Relu | U::Round | U::Floor | U::Ceil | U::Trunc | U::Sign
        ) || self == U::BitwiseNot
    }

    /// Whether the op tests its input and returns `Bool` (`isnan`, `isinf`, `isfinite`,
    /// `logical_not`).
    pub fn is_predicate(self) -> bool {
        matches!(
            self,
            UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite | UnaryOp::LogicalNot
        )
    }

    /// The dtype of the result for an input of `d`.
    pub fn out_dtype(self, d: DType) -> Result<DType> {
        Ok(self.dtypes(d)?.1)
    }

    /// The dtype the op computes in and the dtype of its result, for an input of `d`.
    pub fn dtypes(self, d: DType) -> Result<(DType, DType)> {
        match (self, d) {
            (UnaryOp::Neg, DType::Bool) => Err(Error::UnsupportedDType {
                op: self.name(),
                dtype: d,
            }),
            (UnaryOp::BitwiseNot, d) if d.is_float() => Err(Error::DTypeRule {
                what: format!(
                    "bitwise_not needs an integer or bool tensor, not {d}; for floats use \
                     neg, or logical_not for truth values"
                ),
            }),
            (UnaryOp::LogicalNot, _) => Ok((DType::Bool, DType::Bool)),
            (op, d) if op.is_predicate() => Ok((d, DType::Bool)),
            (op, d) if op.keeps_integers() => Ok((d, d)),
            (_, d) => Ok((float_type(d), float_type(d))),
        }
    }
}

/// An elementwise unary op, planned once for every backend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UnaryPlan {
    pub(crate) op: UnaryOp,
    /// The dtype the input is converted to before the op (the result's, except for the
    /// predicates, which test the input's own values).
    pub(crate) compute: DType,
    /// The result's dtype.
    pub(crate) out: DType,
}

impl UnaryPlan {
    pub(crate) fn new(op: UnaryOp, t: &Tensor) -> Result<UnaryPlan> {
        let (compute, out) = op.dtypes(t.dtype())?;
        Ok(UnaryPlan { op, compute, out })
    }
}

/// `op(t)` into a fresh tensor.
pub fn unary(op: UnaryOp, t: &Tensor) -> Result<Tensor> {
    let plan = UnaryPlan::new(op, t)?;
    let out = Tensor::alloc_like_operands(t.shape(), plan.out, t.device(), &[t])?;
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
    silu => Silu, erf => Erf, round => Round, floor => Floor, ceil => Ceil, trunc => Trunc,
    sign => Sign, isnan => IsNan, isinf => IsInf, isfinite => IsFinite, log1p => Log1p,
    expm1 => Expm1, log2 => Log2, log10 => Log10, exp2 => Exp2, tan => Tan, atan => Atan,
    asin => Asin, acos => Acos, sinh => Sinh, cosh => Cosh, bitwise_not => BitwiseNot,
    logical_not => LogicalNot);
