//! The operation numbers of the C ABI (`CRT_BINARY_*`, `CRT_UNARY_*`, `CRT_REDUCE_*`) and the
//! weak scalar operand (`crt_scalar`), with their translation to the core's enums. The
//! numbers are stable: a new operation takes a new number; a unit test pins each to the
//! core's op.

use clika_rt::ops::{BinaryOp, ReduceOp, Scalar, UnaryOp};
use clika_rt::Error;

use crate::error::CapiError;

/// An elementwise binary operation: one of the `CRT_BINARY_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_binary_op = u32;

/// `a + b` (Bool: logical or).
pub const CRT_BINARY_ADD: crt_binary_op = 0;
/// `a - b` (not defined for Bool).
pub const CRT_BINARY_SUB: crt_binary_op = 1;
/// `a * b` (Bool: logical and).
pub const CRT_BINARY_MUL: crt_binary_op = 2;
/// True division: integers and bools divide as Float32.
pub const CRT_BINARY_DIV: crt_binary_op = 3;
/// `a ** b` (integers wrap).
pub const CRT_BINARY_POW: crt_binary_op = 4;
/// Elementwise maximum, NaN-propagating.
pub const CRT_BINARY_MAXIMUM: crt_binary_op = 5;
/// Elementwise minimum, NaN-propagating.
pub const CRT_BINARY_MINIMUM: crt_binary_op = 6;
/// `a == b` → Bool.
pub const CRT_BINARY_EQ: crt_binary_op = 7;
/// `a != b` → Bool.
pub const CRT_BINARY_NE: crt_binary_op = 8;
/// `a < b` → Bool.
pub const CRT_BINARY_LT: crt_binary_op = 9;
/// `a <= b` → Bool.
pub const CRT_BINARY_LE: crt_binary_op = 10;
/// `a > b` → Bool.
pub const CRT_BINARY_GT: crt_binary_op = 11;
/// `a >= b` → Bool.
pub const CRT_BINARY_GE: crt_binary_op = 12;
/// `atan2(a, b)` (integers compute as Float32).
pub const CRT_BINARY_ATAN2: crt_binary_op = 13;
/// `sqrt(a^2 + b^2)` (integers compute as Float32).
pub const CRT_BINARY_HYPOT: crt_binary_op = 14;
/// C's fmod: remainder with the sign of `a`; integer division by zero is an error.
pub const CRT_BINARY_FMOD: crt_binary_op = 15;
/// Python's `%`: remainder with the sign of `b`; integer division by zero is an error.
pub const CRT_BINARY_REMAINDER: crt_binary_op = 16;
/// Python's `//`: floor(a / b) in the operands' dtype; integer division by zero is an error.
pub const CRT_BINARY_FLOOR_DIVIDE: crt_binary_op = 17;
/// `a & b` (integers and Bool).
pub const CRT_BINARY_BITWISE_AND: crt_binary_op = 18;
/// `a | b` (integers and Bool).
pub const CRT_BINARY_BITWISE_OR: crt_binary_op = 19;
/// `a ^ b` (integers and Bool).
pub const CRT_BINARY_BITWISE_XOR: crt_binary_op = 20;
/// `a << b` (integers; out-of-range shifts give 0).
pub const CRT_BINARY_BITWISE_LEFT_SHIFT: crt_binary_op = 21;
/// `a >> b` (integers, arithmetic; out-of-range shifts give 0 or -1).
pub const CRT_BINARY_BITWISE_RIGHT_SHIFT: crt_binary_op = 22;
/// `a != 0 && b != 0` → Bool.
pub const CRT_BINARY_LOGICAL_AND: crt_binary_op = 23;
/// `a != 0 || b != 0` → Bool.
pub const CRT_BINARY_LOGICAL_OR: crt_binary_op = 24;
/// `(a != 0) != (b != 0)` → Bool.
pub const CRT_BINARY_LOGICAL_XOR: crt_binary_op = 25;

/// An elementwise unary operation: one of the `CRT_UNARY_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_unary_op = u32;

/// `-x` (integers wrap; not defined for Bool).
pub const CRT_UNARY_NEG: crt_unary_op = 0;
/// `|x|`.
pub const CRT_UNARY_ABS: crt_unary_op = 1;
/// `max(x, 0)`.
pub const CRT_UNARY_RELU: crt_unary_op = 2;
/// `e^x`.
pub const CRT_UNARY_EXP: crt_unary_op = 3;
/// Natural logarithm.
pub const CRT_UNARY_LOG: crt_unary_op = 4;
/// Square root.
pub const CRT_UNARY_SQRT: crt_unary_op = 5;
/// `1 / sqrt(x)`.
pub const CRT_UNARY_RSQRT: crt_unary_op = 6;
/// Sine.
pub const CRT_UNARY_SIN: crt_unary_op = 7;
/// Cosine.
pub const CRT_UNARY_COS: crt_unary_op = 8;
/// Hyperbolic tangent.
pub const CRT_UNARY_TANH: crt_unary_op = 9;
/// `1 / (1 + e^-x)`.
pub const CRT_UNARY_SIGMOID: crt_unary_op = 10;
/// Gaussian error linear unit, exact form `x * Phi(x)`.
pub const CRT_UNARY_GELU: crt_unary_op = 11;
/// `x * sigmoid(x)`.
pub const CRT_UNARY_SILU: crt_unary_op = 12;
/// The error function.
pub const CRT_UNARY_ERF: crt_unary_op = 13;
/// Rounds half to even; integers unchanged.
pub const CRT_UNARY_ROUND: crt_unary_op = 14;
/// Floor; integers unchanged.
pub const CRT_UNARY_FLOOR: crt_unary_op = 15;
/// Ceiling; integers unchanged.
pub const CRT_UNARY_CEIL: crt_unary_op = 16;
/// Rounds toward zero; integers unchanged.
pub const CRT_UNARY_TRUNC: crt_unary_op = 17;
/// -1, 0 or 1 by sign (NaN stays NaN); keeps the dtype.
pub const CRT_UNARY_SIGN: crt_unary_op = 18;
/// Whether NaN → Bool.
pub const CRT_UNARY_ISNAN: crt_unary_op = 19;
/// Whether infinite → Bool.
pub const CRT_UNARY_ISINF: crt_unary_op = 20;
/// Whether finite → Bool.
pub const CRT_UNARY_ISFINITE: crt_unary_op = 21;
/// `ln(1 + x)`.
pub const CRT_UNARY_LOG1P: crt_unary_op = 22;
/// `e^x - 1`.
pub const CRT_UNARY_EXPM1: crt_unary_op = 23;
/// Base-2 logarithm.
pub const CRT_UNARY_LOG2: crt_unary_op = 24;
/// Base-10 logarithm.
pub const CRT_UNARY_LOG10: crt_unary_op = 25;
/// `2^x`.
pub const CRT_UNARY_EXP2: crt_unary_op = 26;
/// Tangent.
pub const CRT_UNARY_TAN: crt_unary_op = 27;
/// Inverse tangent.
pub const CRT_UNARY_ATAN: crt_unary_op = 28;
/// Inverse sine.
pub const CRT_UNARY_ASIN: crt_unary_op = 29;
/// Inverse cosine.
pub const CRT_UNARY_ACOS: crt_unary_op = 30;
/// Hyperbolic sine.
pub const CRT_UNARY_SINH: crt_unary_op = 31;
/// Hyperbolic cosine.
pub const CRT_UNARY_COSH: crt_unary_op = 32;
/// `~x` for integers and Bool (floats are refused).
pub const CRT_UNARY_BITWISE_NOT: crt_unary_op = 33;
/// `x == 0` → Bool, any dtype.
pub const CRT_UNARY_LOGICAL_NOT: crt_unary_op = 34;

/// A reduction: one of the `CRT_REDUCE_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_reduce_op = u32;

/// Sum (floats keep their dtype; integers and bools give Int64, wrapping; UInt64 gives
/// UInt64, wrapping modulo 2^64).
pub const CRT_REDUCE_SUM: crt_reduce_op = 0;
/// Mean (floats keep their dtype; integers and bools give Float64; no elements give NaN).
pub const CRT_REDUCE_MEAN: crt_reduce_op = 1;
/// Product (dtypes as for the sum).
pub const CRT_REDUCE_PROD: crt_reduce_op = 2;
/// Maximum (NaN-propagating; an error on no elements).
pub const CRT_REDUCE_MAX: crt_reduce_op = 3;
/// Minimum (NaN-propagating; an error on no elements).
pub const CRT_REDUCE_MIN: crt_reduce_op = 4;
/// Index (Int64) of the first maximum: over the flattened tensor, or along exactly one dim.
pub const CRT_REDUCE_ARGMAX: crt_reduce_op = 5;
/// Index (Int64) of the first minimum: over the flattened tensor, or along exactly one dim.
pub const CRT_REDUCE_ARGMIN: crt_reduce_op = 6;
/// Variance with `correction` subtracted from the count (1: unbiased, PyTorch's default;
/// 0: numpy's). Floats keep their dtype; integers give Float64.
pub const CRT_REDUCE_VAR: crt_reduce_op = 7;
/// Standard deviation: the square root of the variance (see `CRT_REDUCE_VAR`).
pub const CRT_REDUCE_STD: crt_reduce_op = 8;

/// The kind of a `crt_scalar`: one of the `CRT_SCALAR_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_scalar_kind = u32;

/// A boolean: `int_value != 0`.
pub const CRT_SCALAR_BOOL: crt_scalar_kind = 0;
/// An integer: `int_value`.
pub const CRT_SCALAR_INT: crt_scalar_kind = 1;
/// A float: `float_value`.
pub const CRT_SCALAR_FLOAT: crt_scalar_kind = 2;

/// A "weak" scalar operand, as a Python number is: its kind (bool < int < float) decides the
/// result's dtype only when it is of a higher kind than the tensor's dtype, and then the
/// result is that kind's default (Int64 for an int with a Bool tensor; Float32 for a float
/// with an integer or Bool tensor). So an Int8 tensor plus an int stays Int8, and an Int8
/// tensor times 0.5 is Float32. Read `int_value` for `CRT_SCALAR_BOOL` and `CRT_SCALAR_INT`,
/// `float_value` for `CRT_SCALAR_FLOAT`; the other field is ignored.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct crt_scalar {
    /// One of `CRT_SCALAR_*`.
    pub kind: crt_scalar_kind,
    /// The value of a bool (non-zero is true) or int scalar.
    pub int_value: i64,
    /// The value of a float scalar.
    pub float_value: f64,
}

pub(crate) fn out_of_range(what: &'static str, v: u32) -> CapiError {
    Error::OutOfRange {
        what,
        value: v.to_string(),
    }
    .into()
}

/// The core op for a `CRT_BINARY_*` number (the numbers are `BinaryOp::ALL`'s indices).
pub(crate) fn binary_op(op: crt_binary_op) -> Result<BinaryOp, CapiError> {
    BinaryOp::ALL
        .get(op as usize)
        .copied()
        .ok_or_else(|| out_of_range("binary op (CRT_BINARY_*)", op))
}

/// The core op for a `CRT_UNARY_*` number (the numbers are `UnaryOp::ALL`'s indices).
pub(crate) fn unary_op(op: crt_unary_op) -> Result<UnaryOp, CapiError> {
    UnaryOp::ALL
        .get(op as usize)
        .copied()
        .ok_or_else(|| out_of_range("unary op (CRT_UNARY_*)", op))
}

impl crt_scalar {
    /// The core scalar; an unknown kind is rejected.
    pub fn to_core(self) -> Result<Scalar, CapiError> {
        match self.kind {
            CRT_SCALAR_BOOL => Ok(Scalar::Bool(self.int_value != 0)),
            CRT_SCALAR_INT => Ok(Scalar::Int(self.int_value)),
            CRT_SCALAR_FLOAT => Ok(Scalar::Float(self.float_value)),
            k => Err(out_of_range("scalar kind (CRT_SCALAR_*)", k)),
        }
    }
}

/// The core reduction numbered `op` (`CRT_REDUCE_*`), with `correction` for var/std.
pub(crate) fn reduce_op(op: crt_reduce_op, correction: usize) -> Result<ReduceOp, CapiError> {
    ReduceOp::from_code(op, correction).ok_or_else(|| out_of_range("reduction (CRT_REDUCE_*)", op))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_numbers_are_stable() {
        let binary = [
            (CRT_BINARY_ADD, BinaryOp::Add),
            (CRT_BINARY_SUB, BinaryOp::Sub),
            (CRT_BINARY_MUL, BinaryOp::Mul),
            (CRT_BINARY_DIV, BinaryOp::Div),
            (CRT_BINARY_POW, BinaryOp::Pow),
            (CRT_BINARY_MAXIMUM, BinaryOp::Maximum),
            (CRT_BINARY_MINIMUM, BinaryOp::Minimum),
            (CRT_BINARY_EQ, BinaryOp::Eq),
            (CRT_BINARY_NE, BinaryOp::Ne),
            (CRT_BINARY_LT, BinaryOp::Lt),
            (CRT_BINARY_LE, BinaryOp::Le),
            (CRT_BINARY_GT, BinaryOp::Gt),
            (CRT_BINARY_GE, BinaryOp::Ge),
            (CRT_BINARY_ATAN2, BinaryOp::Atan2),
            (CRT_BINARY_HYPOT, BinaryOp::Hypot),
            (CRT_BINARY_FMOD, BinaryOp::Fmod),
            (CRT_BINARY_REMAINDER, BinaryOp::Remainder),
            (CRT_BINARY_FLOOR_DIVIDE, BinaryOp::FloorDivide),
            (CRT_BINARY_BITWISE_AND, BinaryOp::BitwiseAnd),
            (CRT_BINARY_BITWISE_OR, BinaryOp::BitwiseOr),
            (CRT_BINARY_BITWISE_XOR, BinaryOp::BitwiseXor),
            (CRT_BINARY_BITWISE_LEFT_SHIFT, BinaryOp::BitwiseLeftShift),
            (CRT_BINARY_BITWISE_RIGHT_SHIFT, BinaryOp::BitwiseRightShift),
            (CRT_BINARY_LOGICAL_AND, BinaryOp::LogicalAnd),
            (CRT_BINARY_LOGICAL_OR, BinaryOp::LogicalOr),
            (CRT_BINARY_LOGICAL_XOR, BinaryOp::LogicalXor),
        ];
        assert_eq!(binary.len(), BinaryOp::ALL.len());
        for (n, op) in binary {
            assert_eq!(binary_op(n).unwrap(), op);
        }
        assert!(binary_op(26).is_err());
        let unary = [
            (CRT_UNARY_NEG, UnaryOp::Neg),
            (CRT_UNARY_ABS, UnaryOp::Abs),
            (CRT_UNARY_RELU, UnaryOp::Relu),
            (CRT_UNARY_EXP, UnaryOp::Exp),
            (CRT_UNARY_LOG, UnaryOp::Log),
            (CRT_UNARY_SQRT, UnaryOp::Sqrt),
            (CRT_UNARY_RSQRT, UnaryOp::Rsqrt),
            (CRT_UNARY_SIN, UnaryOp::Sin),
            (CRT_UNARY_COS, UnaryOp::Cos),
            (CRT_UNARY_TANH, UnaryOp::Tanh),
            (CRT_UNARY_SIGMOID, UnaryOp::Sigmoid),
            (CRT_UNARY_GELU, UnaryOp::Gelu),
            (CRT_UNARY_SILU, UnaryOp::Silu),
            (CRT_UNARY_ERF, UnaryOp::Erf),
            (CRT_UNARY_ROUND, UnaryOp::Round),
            (CRT_UNARY_FLOOR, UnaryOp::Floor),
            (CRT_UNARY_CEIL, UnaryOp::Ceil),
            (CRT_UNARY_TRUNC, UnaryOp::Trunc),
            (CRT_UNARY_SIGN, UnaryOp::Sign),
            (CRT_UNARY_ISNAN, UnaryOp::IsNan),
            (CRT_UNARY_ISINF, UnaryOp::IsInf),
            (CRT_UNARY_ISFINITE, UnaryOp::IsFinite),
            (CRT_UNARY_LOG1P, UnaryOp::Log1p),
            (CRT_UNARY_EXPM1, UnaryOp::Expm1),
            (CRT_UNARY_LOG2, UnaryOp::Log2),
            (CRT_UNARY_LOG10, UnaryOp::Log10),
            (CRT_UNARY_EXP2, UnaryOp::Exp2),
            (CRT_UNARY_TAN, UnaryOp::Tan),
            (CRT_UNARY_ATAN, UnaryOp::Atan),
            (CRT_UNARY_ASIN, UnaryOp::Asin),
            (CRT_UNARY_ACOS, UnaryOp::Acos),
            (CRT_UNARY_SINH, UnaryOp::Sinh),
            (CRT_UNARY_COSH, UnaryOp::Cosh),
            (CRT_UNARY_BITWISE_NOT, UnaryOp::BitwiseNot),
            (CRT_UNARY_LOGICAL_NOT, UnaryOp::LogicalNot),
        ];
        assert_eq!(unary.len(), UnaryOp::ALL.len());
        for (n, op) in unary {
            assert_eq!(unary_op(n).unwrap(), op);
        }
        assert!(unary_op(35).is_err());
        let reduce = [
            (CRT_REDUCE_SUM, ReduceOp::Sum),
            (CRT_REDUCE_MEAN, ReduceOp::Mean),
            (CRT_REDUCE_PROD, ReduceOp::Prod),
            (CRT_REDUCE_MAX, ReduceOp::Max),
            (CRT_REDUCE_MIN, ReduceOp::Min),
            (CRT_REDUCE_ARGMAX, ReduceOp::ArgMax),
            (CRT_REDUCE_ARGMIN, ReduceOp::ArgMin),
            (CRT_REDUCE_VAR, ReduceOp::Var { correction: 1 }),
            (CRT_REDUCE_STD, ReduceOp::Std { correction: 1 }),
        ];
        assert_eq!(reduce.len(), ReduceOp::ALL.len());
        for (n, op) in reduce {
            assert_eq!(reduce_op(n, 1).unwrap(), op);
            assert_eq!(op.code(), n);
        }
        assert!(reduce_op(9, 0).is_err());
    }
}
