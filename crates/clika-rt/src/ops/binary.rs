//! Elementwise binary operations with numpy broadcasting and type promotion.

use std::borrow::Cow;

use super::promote::{float_type, result_type, Scalar};
use crate::backend::backend;
use crate::error::dims_i64;
use crate::layout::DimVec;
use crate::{DType, Device, Error, Result, Tensor};

/// An elementwise binary operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b` (`Bool`: logical or).
    Add,
    /// `a - b` (not defined for `Bool`).
    Sub,
    /// `a * b` (`Bool`: logical and).
    Mul,
    /// True division `a / b`: integers and bools divide as `Float32`.
    Div,
    /// `a ** b` (integers: wrapping; a negative exponent truncates `1 / a^n` toward zero).
    Pow,
    /// Elementwise maximum, NaN-propagating.
    Maximum,
    /// Elementwise minimum, NaN-propagating.
    Minimum,
    /// `a == b` → `Bool`.
    Eq,
    /// `a != b` → `Bool`.
    Ne,
    /// `a < b` → `Bool`.
    Lt,
    /// `a <= b` → `Bool`.
    Le,
    /// `a > b` → `Bool`.
    Gt,
    /// `a >= b` → `Bool`.
    Ge,
    /// `atan2(a, b)`: the angle of the point `(b, a)`; integers compute as `Float32`.
    Atan2,
    /// `sqrt(a² + b²)` without overflow; integers compute as `Float32`.
    Hypot,
    /// C's `fmod`: the remainder of truncated division, with the sign of `a` (`torch.fmod`, `np.fmod`). Integer division by zero is an error.
    Fmod,
    /// Python's `%`: the remainder of floor division, with the sign of `b` (`torch.remainder`, `np.remainder`). Integer division by zero is an error.
    Remainder,
    /// Python's `//`: `floor(a / b)` in the operands' dtype (`torch.floor_divide`, `np.floor_divide`). Integer division by zero is an error.
    FloorDivide,
    /// `a & b` for integers and `Bool`.
    BitwiseAnd,
    /// `a | b` for integers and `Bool`.
    BitwiseOr,
    /// `a ^ b` for integers and `Bool`.
    BitwiseXor,
    /// `a << b` for integers (a shift by a negative amount or by the width or more gives 0).
    BitwiseLeftShift,
    /// `a >> b` for integers, arithmetic for signed types (a shift by a negative amount or by the width or more gives 0, or -1 for negative `a`).
    BitwiseRightShift,
    /// `a != 0 and b != 0` → `Bool`, for any dtypes.
    LogicalAnd,
    /// `a != 0 or b != 0` → `Bool`, for any dtypes.
    LogicalOr,
    /// `(a != 0) != (b != 0)` → `Bool`, for any dtypes.
    LogicalXor,
}

impl BinaryOp {
    /// Every binary op.
    pub const ALL: [BinaryOp; 26] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Pow,
        BinaryOp::Maximum,
        BinaryOp::Minimum,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::Atan2,
        BinaryOp::Hypot,
        BinaryOp::Fmod,
        BinaryOp::Remainder,
        BinaryOp::FloorDivide,
        BinaryOp::BitwiseAnd,
        BinaryOp::BitwiseOr,
        BinaryOp::BitwiseXor,
        BinaryOp::BitwiseLeftShift,
        BinaryOp::BitwiseRightShift,
        BinaryOp::LogicalAnd,
        BinaryOp::LogicalOr,
        BinaryOp::LogicalXor,
    ];

    /// The op's name (`"add"`).
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::Pow => "pow",
            BinaryOp::Maximum => "maximum",
            BinaryOp::Minimum => "minimum",
            BinaryOp::Eq => "eq",
            BinaryOp::Ne => "ne",
            BinaryOp::Lt => "lt",
            BinaryOp::Le => "le",
            BinaryOp::Gt => "gt",
            BinaryOp::Ge => "ge",
            BinaryOp::Atan2 => "atan2",
            BinaryOp::Hypot => "hypot",
            BinaryOp::Fmod => "fmod",
            BinaryOp::Remainder => "remainder",
            BinaryOp::FloorDivide => "floor_divide",
            BinaryOp::BitwiseAnd => "bitwise_and",
            BinaryOp::BitwiseOr => "bitwise_or",
            BinaryOp::BitwiseXor => "bitwise_xor",
            BinaryOp::BitwiseLeftShift => "bitwise_left_shift",
            BinaryOp::BitwiseRightShift => "bitwise_right_shift",
            BinaryOp::LogicalAnd => "logical_and",
            BinaryOp::LogicalOr => "logical_or",
            BinaryOp::LogicalXor => "logical_xor",
        }
    }

    /// Whether the op compares and returns `Bool`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }

    /// The dtype the op computes in and the dtype of its result, for operand dtypes `a`, `b`.
    pub fn dtypes(self, a: DType, b: DType) -> Result<(DType, DType)> {
        let p = result_type(a, b);
        if let Some(r) = super::elementwise_more::binary_dtypes(self, p) {
            return r;
        }
        match self {
            BinaryOp::Div => Ok((float_type(p), float_type(p))),
            BinaryOp::Sub | BinaryOp::Pow if p == DType::Bool => Err(Error::UnsupportedDType {
                op: self.name(),
                dtype: DType::Bool,
            }),
            op if op.is_comparison() => Ok((p, DType::Bool)),
            _ => Ok((p, p)),
        }
    }
}

/// The shape `a` and `b` broadcast to (numpy rules: align trailing dimensions; sizes must be
/// equal or 1).
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<DimVec<usize>> {
    let n = a.len().max(b.len());
    let mut out = DimVec::with_capacity(n);
    for i in 0..n {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out.push(match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => {
                return Err(Error::ShapeMismatch {
                    op: "broadcast",
                    expected: dims_i64(a),
                    got: dims_i64(b),
                });
            }
        });
    }
    Ok(out)
}

/// `t` converted to `dtype` and broadcast to `shape` (a view when no conversion is needed).
pub(crate) fn as_operand(t: &Tensor, dtype: DType, shape: &[usize]) -> Result<Tensor> {
    let t = t.to_dtype(dtype)?;
    if t.shape() == shape {
        return Ok(t);
    }
    let sizes: DimVec<isize> = shape.iter().map(|&d| d as isize).collect();
    t.expand(&sizes)
}

/// Checks both operands are host tensors on the same device.
pub(crate) fn check_devices(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    same_device(op, a, b)?;
    a.ensure_cpu(op)
}

/// Checks both operands are on the same device.
pub(crate) fn same_device(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    if a.device() != b.device() {
        return Err(Error::DeviceMismatch {
            op,
            expected: a.device(),
            got: b.device(),
        });
    }
    Ok(())
}

/// An elementwise binary op, planned once for every backend: the device it runs on, the
/// dtype it computes in, the result's dtype and the broadcast shape.
#[derive(Debug, Clone)]
pub(crate) struct BinaryPlan {
    pub(crate) op: BinaryOp,
    pub(crate) device: Device,
    /// The dtype both operands are converted to before the op.
    pub(crate) compute: DType,
    /// The result's dtype (`Bool` for comparisons).
    pub(crate) out: DType,
    /// The broadcast shape of the result.
    pub(crate) shape: DimVec<usize>,
}

impl BinaryPlan {
    /// Plans `op(a, b)`. The operands must share a device, except that a 0-d host tensor (a
    /// scalar operand) goes with a device operand (see [`BinaryPlan::operand`]).
    pub(crate) fn new(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<BinaryPlan> {
        let device = match (a.device(), b.device()) {
            (x, y) if x == y => x,
            (x, y) if y.is_cpu() && b.ndim() == 0 => x,
            (x, y) if x.is_cpu() && a.ndim() == 0 => y,
            (x, y) => {
                return Err(Error::DeviceMismatch {
                    op: op.name(),
                    expected: x,
                    got: y,
                })
            }
        };
        let (compute, out) = op.dtypes(a.dtype(), b.dtype())?;
        let shape = broadcast_shapes(a.shape(), b.shape())?;
        Ok(BinaryPlan {
            op,
            device,
            compute,
            out,
            shape,
        })
    }

    /// `t` on the plan's device: itself, or a scalar operand moved over. Inlined so the
    /// common borrowed answer costs no copy of a `Cow<Tensor>`; the move is out of line.
    #[inline]
    pub(crate) fn operand<'t>(&self, t: &'t Tensor) -> Result<Cow<'t, Tensor>> {
        if t.device() == self.device {
            Ok(Cow::Borrowed(t))
        } else {
            moved(t, self.device).map(Cow::Owned)
        }
    }
}

/// A scalar operand moved to the plan's device (the rare path of [`BinaryPlan::operand`]).
#[cold]
#[inline(never)]
fn moved(t: &Tensor, device: Device) -> Result<Tensor> {
    t.to(device)
}

/// `op(a, b)` into a fresh tensor.
pub fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary_planned(&BinaryPlan::new(op, a, b)?, a, b)
}

/// Runs a plan made for `(a, b)` into a fresh tensor.
fn binary_planned(plan: &BinaryPlan, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = (plan.operand(a)?, plan.operand(b)?);
    let out = Tensor::alloc_like_operands(&plan.shape, plan.out, plan.device, &[&a, &b])?;
    // SAFETY: `out` is fresh, exclusively held, of the plan's shape and dtype, on its
    // device, and disjoint from both inputs.
    unsafe { backend(plan.device)?.binary(plan, &a, &b, &out)? };
    Ok(out)
}

/// The buffer-reuse rule for a plan made for `(a, b)`: see [`can_reuse`].
fn reusable(plan: &BinaryPlan, a: &Tensor, b: &Tensor) -> bool {
    plan.compute == plan.out
        && a.may_hold_result(plan.out, &plan.shape)
        && !b.storage().same_as(a.storage())
}

/// Runs a plan made for `(a, b)` into `a`'s own memory.
///
/// # Safety
/// [`reusable`] holds for the plan, and nothing else reads or writes `a`'s memory during the
/// call.
unsafe fn binary_reusing(plan: &BinaryPlan, a: &Tensor, b: &Tensor) -> Result<()> {
    let b = plan.operand(b)?;
    // SAFETY: `a` is the only reference to its writable, reusable storage (`reusable`, and
    // the caller), contiguous, of the result's shape and dtype; kernels allow the output to
    // be an input exactly.
    unsafe { backend(plan.device)?.binary(plan, a, &b, a) }
}

/// `op(a, b)`, writing into `a`'s memory when `a` is the only reference to runtime-owned or
/// adopted memory of the result's shape and dtype (buffer reuse); otherwise like [`binary`].
/// The op is planned once either way.
pub fn binary_owned(op: BinaryOp, a: Tensor, b: &Tensor) -> Result<Tensor> {
    let plan = BinaryPlan::new(op, &a, b)?;
    if !reusable(&plan, &a, b) {
        return binary_planned(&plan, &a, b);
    }
    // SAFETY: `reusable` holds, and `a` is owned here: its storage has no other reference.
    match unsafe { binary_reusing(&plan, &a, b) } {
        Ok(()) => Ok(a),
        // A backend that cannot write this view in place (a device kernel writes whole
        // words from the storage's start) computes a fresh result instead.
        Err(Error::UnsupportedOnDevice { .. }) => binary_planned(&plan, &a, b),
        Err(e) => Err(e),
    }
}

/// `op(a, b)` written into `a`'s memory if the buffer-reuse rule allows it ([`can_reuse`]),
/// planning the op once; returns whether it did (`false`: nothing was written, and the
/// caller computes a fresh result). Bindings use it for operators on temporaries.
///
/// # Safety
/// Nothing else may read or write `a`'s memory during the call (`a` is a temporary that
/// only the caller can see).
pub unsafe fn binary_into_temporary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<bool> {
    let plan = BinaryPlan::new(op, a, b)?;
    if !reusable(&plan, a, b) {
        return Ok(false);
    }
    // SAFETY: `reusable` holds; exclusive access is the caller's promise.
    match unsafe { binary_reusing(&plan, a, b) } {
        Ok(()) => Ok(true),
        Err(Error::UnsupportedOnDevice { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// `op(a, s)` with a weak scalar (see [`Scalar`] and [`scalar_result_type`](super::scalar_result_type)).
pub fn binary_scalar(op: BinaryOp, a: &Tensor, s: Scalar) -> Result<Tensor> {
    binary(op, a, &s.to_tensor_for(a.dtype())?)
}

/// `op(s, a)` with a weak scalar on the left (`2 - a`, `1 / a`, `2 ** a`).
pub fn scalar_binary(op: BinaryOp, s: Scalar, a: &Tensor) -> Result<Tensor> {
    binary(op, &s.to_tensor_for(a.dtype())?, a)
}

/// Whether [`binary_owned`]`(op, a, b)` writes its result into `a`'s memory (the
/// buffer-reuse rule: see [`Tensor::may_hold_result`]).
pub fn can_reuse(op: BinaryOp, a: &Tensor, b: &Tensor) -> bool {
    BinaryPlan::new(op, a, b).is_ok_and(|plan| reusable(&plan, a, b))
}

macro_rules! named_binary {
    ($($name:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("Elementwise `", stringify!($name), "` with broadcasting; see [`BinaryOp::", stringify!($op), "`].")]
            pub fn $name(a: &Tensor, b: &Tensor) -> Result<Tensor> {
                binary(BinaryOp::$op, a, b)
            }
        )*
    };
}

named_binary!(add => Add, sub => Sub, mul => Mul, div => Div, pow => Pow, maximum => Maximum,
    minimum => Minimum, eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge,
    atan2 => Atan2, hypot => Hypot, fmod => Fmod, remainder => Remainder,
    floor_divide => FloorDivide, bitwise_and => BitwiseAnd, bitwise_or => BitwiseOr,
    bitwise_xor => BitwiseXor, bitwise_left_shift => BitwiseLeftShift,
    bitwise_right_shift => BitwiseRightShift, logical_and => LogicalAnd,
    logical_or => LogicalOr, logical_xor => LogicalXor);
