//! Elementwise binary operations with numpy broadcasting and type promotion.

use super::kernel::map2;
use super::num::{dispatch_num, Num};
use super::promote::{float_type, result_type, scalar_result_type, Scalar};
use crate::error::dims_i64;
use crate::layout::DimVec;
use crate::{DType, Error, Result, Tensor};

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
}

impl BinaryOp {
    /// Every binary op.
    pub const ALL: [BinaryOp; 13] = [
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
    if a.device() != b.device() {
        return Err(Error::DeviceMismatch {
            op,
            expected: a.device(),
            got: b.device(),
        });
    }
    a.ensure_cpu(op)
}

/// `op(a, b)` into a fresh tensor.
pub fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if !a.device().is_cpu() || !b.device().is_cpu() {
        return crate::backend::kernels::binary(op, a, b);
    }
    check_devices(op.name(), a, b)?;
    let (cd, od) = op.dtypes(a.dtype(), b.dtype())?;
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    let out = Tensor::alloc(&shape, od, a.device(), false)?;
    // Operands already in the compute dtype and the result's shape (the common case: `a + b`
    // of like tensors) run as they are; only the others are converted or broadcast.
    let (a2, b2);
    let a = if a.dtype() == cd && a.shape() == &shape[..] {
        a
    } else {
        a2 = as_operand(a, cd, &shape)?;
        &a2
    };
    let b = if b.dtype() == cd && b.shape() == &shape[..] {
        b
    } else {
        b2 = as_operand(b, cd, &shape)?;
        &b2
    };
    // SAFETY: `out` is fresh, exclusively held, of the broadcast shape and dtype `od`, and
    // disjoint from both inputs.
    unsafe { run(op, a, b, &out, cd) };
    Ok(out)
}

/// `op(a, b)`, writing into `a`'s memory when `a` is the only reference to runtime-owned or
/// adopted memory of the result's shape and dtype (buffer reuse); otherwise like [`binary`].
pub fn binary_owned(op: BinaryOp, a: Tensor, b: &Tensor) -> Result<Tensor> {
    if !a.device().is_cpu() || !b.device().is_cpu() {
        return binary(op, &a, b);
    }
    check_devices(op.name(), &a, b)?;
    let (cd, od) = op.dtypes(a.dtype(), b.dtype())?;
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    let reusable = a.dtype() == od
        && od == cd
        && a.shape() == &shape[..]
        && a.is_contiguous()
        && a.may_overwrite();
    if !reusable || b.storage().same_as(a.storage()) {
        return binary(op, &a, b);
    }
    // SAFETY: `a` is the only reference to its writable, reusable storage (checked by
    // `may_overwrite`, and `b` does not share it), contiguous, of the result's shape and
    // dtype; `map2` allows the output to be the first input exactly.
    unsafe { run(op, &a, &as_operand(b, cd, &shape)?, &a, cd) };
    Ok(a)
}

/// `op(a, s)` with a weak scalar (see [`Scalar`] and [`scalar_result_type`](super::scalar_result_type)).
pub fn binary_scalar(op: BinaryOp, a: &Tensor, s: Scalar) -> Result<Tensor> {
    let st = scalar_tensor(a, s)?;
    binary(op, a, &st)
}

/// `op(s, a)` with a weak scalar on the left (`2 - a`, `1 / a`, `2 ** a`).
pub fn scalar_binary(op: BinaryOp, s: Scalar, a: &Tensor) -> Result<Tensor> {
    let st = scalar_tensor(a, s)?;
    binary(op, &st, a)
}

/// A 0-d tensor holding `s` in the dtype it promotes to against `a`.
fn scalar_tensor(a: &Tensor, s: Scalar) -> Result<Tensor> {
    let dtype = scalar_result_type(a.dtype(), s);
    // On the host: it is written below; a device op moves it over as a scalar operand.
    let t = Tensor::alloc(&[], dtype, crate::Device::cpu(), false)?;
    crate::dispatch_dtype!(dtype, T => {
        let v: T = match s {
            Scalar::Int(i) => crate::dtype::Element::from_i64(i),
            other => crate::dtype::Element::from_f64(other.to_f64()),
        };
        // SAFETY: `t` is a fresh exclusive 0-d allocation of one `T`.
        unsafe { t.data_ptr().cast::<T>().write(v) };
    });
    Ok(t)
}

/// Runs `op` with inputs of compute dtype `cd` (already broadcast to `out`'s shape).
///
/// # Safety
/// As for [`map2`]: `out` has the inputs' shape and the op's result dtype, is writable and
/// not accessed by anyone else during the call, and is either exactly `a` or disjoint from
/// both inputs.
pub(crate) unsafe fn run(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor, cd: DType) {
    dispatch_num!(cd, T => {
        // SAFETY: forwarded from this function's contract.
        unsafe { run_num::<T>(op, a, b, out) }
    }, bool => {
        // SAFETY: forwarded from this function's contract.
        unsafe { run_bool(op, a, b, out) }
    })
}

/// [`run`] for a numeric compute type.
///
/// # Safety
/// As for [`run`].
unsafe fn run_num<T: Num>(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) {
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
        }
    }
}

/// [`run`] for `Bool` operands (logical forms of the arithmetic ops).
///
/// # Safety
/// As for [`run`].
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
        B::Sub | B::Pow | B::Div => unreachable!("rejected by BinaryOp::dtypes"),
    };
    // SAFETY: forwarded from this function's contract.
    unsafe { map2::<bool, bool, bool>(a, b, out, f) }
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
    minimum => Minimum, eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge);
