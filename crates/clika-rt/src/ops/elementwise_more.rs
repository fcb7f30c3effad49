//! The rules of the integer operators and the newer elementwise ops (issue 14): dtypes of
//! `fmod`/`remainder`/`floor_divide`, the bitwise and logical ops, the in-place casting rule
//! (`int += float` is refused, as numpy and PyTorch refuse it), `round` with `decimals`,
//! `tril`/`triu`, and the in-place methods `sub_`, `div_`, `clamp_`, `zero_`.

use super::binary::{binary_scalar, BinaryOp};
use super::promote::{float_type, Scalar};
use super::unary::{unary, UnaryOp};
use crate::backend::backend;
use crate::error::dims_i64;
use crate::{DType, Error, Result, Tensor};

/// The (compute, result) dtypes of the ops this file owns, for promoted operand dtype `p`;
/// `None` for the other ops.
pub(crate) fn binary_dtypes(op: BinaryOp, p: DType) -> Option<Result<(DType, DType)>> {
    use BinaryOp as B;
    let refuse = |needs: &str, fix: &str| {
        Some(Err(Error::DTypeRule {
            what: format!("{} needs {needs} tensors, not {p}; {fix}", op.name()),
        }))
    };
    match op {
        B::Atan2 | B::Hypot => Some(Ok((float_type(p), float_type(p)))),
        B::Fmod | B::Remainder | B::FloorDivide if p == DType::Bool => refuse(
            "integer or float",
            "convert bool tensors first, e.g. t.to_dtype(int64)",
        ),
        B::BitwiseAnd | B::BitwiseOr | B::BitwiseXor if p.is_float() => refuse(
            "integer or bool",
            "convert with to_dtype(int64), or use logical_and/or/xor for truth values",
        ),
        B::BitwiseLeftShift | B::BitwiseRightShift if !p.is_integer() => refuse(
            "integer",
            "convert with to_dtype(int64) (multiply by a power of two for floats)",
        ),
        B::LogicalAnd | B::LogicalOr | B::LogicalXor => Some(Ok((DType::Bool, DType::Bool))),
        B::Fmod
        | B::Remainder
        | B::FloorDivide
        | B::BitwiseAnd
        | B::BitwiseOr
        | B::BitwiseXor
        | B::BitwiseLeftShift
        | B::BitwiseRightShift => Some(Ok((p, p))),
        _ => None,
    }
}

/// Whether `op` is one of the binary ops this file gives dtype rules (and the CPU backend's
/// `elementwise_more` its kernels).
pub(crate) fn binary_dtypes_owned(op: BinaryOp) -> bool {
    binary_dtypes(op, DType::Int32).is_some()
}

/// Whether integer `op` divides by its second operand (so a zero there is an error).
pub(crate) fn divides(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Fmod | BinaryOp::Remainder | BinaryOp::FloorDivide
    )
}

/// Whether a result of dtype `from` may be written back into a tensor of dtype `to` by an
/// in-place op (PyTorch's `canCast`, numpy's `same_kind`): never a float into an integer or
/// bool tensor, nor a number into a bool tensor.
pub fn can_cast_in_place(from: DType, to: DType) -> bool {
    !((from.is_float() && !to.is_float()) || (from != DType::Bool && to == DType::Bool))
}

/// The in-place casting rule: `Err` naming the fix when `op`'s result of dtype `result`
/// cannot be written into `target`'s dtype.
pub fn check_in_place(op: BinaryOp, result: DType, target: DType) -> Result<()> {
    if can_cast_in_place(result, target) {
        return Ok(());
    }
    Err(Error::DTypeRule {
        what: format!(
            "in-place {}: the result has dtype {result}, which cannot be stored in this {target} \
             tensor without losing values (numpy and PyTorch refuse too); use the out-of-place \
             form (t = t.{}(x)), or convert first with t.to_dtype({result})",
            op.name(),
            op.name()
        ),
    })
}

/// Rounds to `decimals` decimal places, halves to even (numpy's `round(x, decimals)`,
/// PyTorch's `round(x, decimals=)`): `round(x · 10^d) / 10^d` in the tensor's float dtype,
/// so results carry the same representation error as numpy's. Integer and bool tensors are
/// returned unchanged for `decimals >= 0`; negative decimals on integers are refused.
pub fn round_decimals(t: &Tensor, decimals: i32) -> Result<Tensor> {
    if decimals == 0 {
        return unary(UnaryOp::Round, t);
    }
    if !t.dtype().is_float() {
        if decimals > 0 {
            return t.contiguous_copy();
        }
        return Err(Error::DTypeRule {
            what: format!(
                "round with negative decimals ({decimals}) needs a float tensor, not {}; \
                 convert with to_dtype(float64) first",
                t.dtype()
            ),
        });
    }
    let scale = 10f64.powi(decimals.unsigned_abs() as i32);
    let (up, down) = if decimals > 0 {
        (BinaryOp::Mul, BinaryOp::Div)
    } else {
        (BinaryOp::Div, BinaryOp::Mul)
    };
    let y = binary_scalar(up, t, Scalar::Float(scale))?;
    let y = unary(UnaryOp::Round, &y)?;
    binary_scalar(down, &y, Scalar::Float(scale))
}

/// The lower triangle of the last two dimensions: elements with `col - row <= diagonal`
/// kept, the others zero (`torch.tril`, `np.tril`).
pub fn tril(t: &Tensor, diagonal: i64) -> Result<Tensor> {
    triangle("tril", t, diagonal, true)
}

/// The upper triangle of the last two dimensions: elements with `col - row >= diagonal`
/// kept, the others zero (`torch.triu`, `np.triu`).
pub fn triu(t: &Tensor, diagonal: i64) -> Result<Tensor> {
    triangle("triu", t, diagonal, false)
}

fn triangle(op: &'static str, t: &Tensor, k: i64, lower: bool) -> Result<Tensor> {
    t.ensure_cpu(op)?;
    let nd = t.ndim();
    if nd < 2 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op} needs a tensor of at least 2 dimensions (got shape {:?}); reshape a \
                 vector to a matrix first",
                dims_i64(t.shape())
            ),
        });
    }
    let out = t.contiguous_copy()?;
    let (m, n) = (t.shape()[nd - 2], t.shape()[nd - 1]);
    if m == 0 || n == 0 {
        return Ok(out);
    }
    let size = t.dtype().size();
    let base = out.data_ptr();
    let ni = n as i64;
    for row in 0..out.numel() / n {
        let i = (row % m) as i64;
        // The zeroed columns of this row: tril zeroes `j > i + k`, triu zeroes `j < i + k`.
        let (j0, j1) = if lower {
            ((i + k + 1).clamp(0, ni), ni)
        } else {
            (0, (i + k).clamp(0, ni))
        };
        if j1 > j0 {
            // SAFETY: `out` is a fresh contiguous tensor this function holds exclusively;
            // row `row` spans bytes `row·n·size ..` and columns `j0..j1 <= n` lie inside it.
            // All-zero bytes are zero in every dtype (0, 0.0, false).
            unsafe {
                base.add((row * n + j0 as usize) * size)
                    .write_bytes(0, (j1 - j0) as usize * size)
            };
        }
    }
    Ok(out)
}

impl Tensor {
    /// `self -= other` (same rules as [`add_`](Tensor::add_)).
    pub fn sub_(&mut self, other: &Tensor) -> Result<()> {
        self.binary_(BinaryOp::Sub, other)
    }

    /// `self /= other`: true division, so only float tensors can hold the result.
    pub fn div_(&mut self, other: &Tensor) -> Result<()> {
        self.binary_(BinaryOp::Div, other)
    }

    /// Sets every element to zero.
    pub fn zero_(&mut self) -> Result<()> {
        self.fill_(0.0)
    }

    /// Limits every element to `[min, max]` in place (either bound optional); a float bound
    /// on an integer tensor is refused as for the other in-place ops.
    pub fn clamp_(&mut self, min: Option<Scalar>, max: Option<Scalar>) -> Result<()> {
        self.ensure_exclusive("clamp_")?;
        // SAFETY: exclusive (checked).
        unsafe { self.clamp_shared(min, max) }
    }

    /// [`clamp_`](Tensor::clamp_) through a possibly shared view.
    ///
    /// # Safety
    /// As for [`fill_shared`](Tensor::fill_shared).
    pub unsafe fn clamp_shared(&self, min: Option<Scalar>, max: Option<Scalar>) -> Result<()> {
        for (op, s) in [(BinaryOp::Maximum, min), (BinaryOp::Minimum, max)] {
            if let Some(s) = s {
                let r = super::promote::scalar_result_type(self.dtype(), s);
                check_in_place(op, r, self.dtype())?;
            }
        }
        if let Some((lo, hi)) = super::select::same_type_bounds(self.dtype(), min, max)? {
            self.ensure_writable()?;
            // SAFETY: the caller excludes concurrent access; the output is `self` exactly.
            let done =
                unsafe { backend(self.device())?.clamp(self, lo.as_ref(), hi.as_ref(), self)? };
            if done {
                return Ok(());
            }
        }
        let r = super::select::clamp(self, min, max)?;
        // SAFETY: forwarded from the caller; `r` is fresh.
        unsafe { self.copy_shared(&r) }
    }
}
