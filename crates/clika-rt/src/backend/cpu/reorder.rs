//! Element-wise ops over permuted inputs (a transposed or `movedim`-ed tensor). Walking the
//! result's dim order strides across every input, one cache line per element once the rows
//! outgrow the cache (a 1024×976 `a.T * b.T` ran 25× slower than numpy). Instead the op runs
//! on every operand seen with its dims in memory order (row-major views of them):
//!
//! - a result laid out as the inputs (what `ops::unary`/`ops::binary` allocate, as PyTorch
//!   and numpy do, and in-place ops on such a tensor) is then row-major too: one streaming
//!   pass;
//! - a row-major result (an `out=` tensor) is written from a row-major scratch by one tiled
//!   transposing copy (`copy_cast`): two streaming passes.

use std::borrow::Cow;

use super::operand;
use crate::layout::{order_perms, shared_dense_order, DimVec};
use crate::{DType, Result, Tensor};

/// Below this many elements a strided walk into a row-major result stays in cache, cheaper
/// than the scratch and the copy.
const MIN_ELEMS: usize = 1 << 12;

/// The dim order that makes the operands' permuted dense layout row-major.
pub(super) struct Reorder {
    order: DimVec<isize>,
    back: DimVec<isize>,
    /// The op's shape.
    full: DimVec<usize>,
    /// The op's shape in memory order.
    shape: DimVec<usize>,
    /// The result shares the operands' layout (no scratch, no copy).
    pub(super) direct: bool,
}

impl Reorder {
    /// Operand `t` (of the op's shape, or a single element) in memory order, converted to
    /// `dtype` and broadcast to the reordered shape.
    pub(super) fn operand<'t>(&self, t: &'t Tensor, dtype: DType) -> Result<Cow<'t, Tensor>> {
        if t.shape() == &self.full[..] {
            Ok(Cow::Owned(
                operand(&t.permute(&self.order)?, dtype, &self.shape)?.into_owned(),
            ))
        } else {
            operand(t, dtype, &self.shape)
        }
    }

    /// The result in memory order: `out` itself when [`Reorder::direct`], else a fresh
    /// row-major scratch of `dtype` for [`Reorder::finish`] to copy out of.
    pub(super) fn target(&self, out: &Tensor) -> Result<Tensor> {
        if self.direct {
            out.permute(&self.order)
        } else {
            Tensor::empty(&self.shape, out.dtype())
        }
    }

    /// Copies a scratch [`Reorder::target`] into `out` (nothing when direct).
    ///
    /// # Safety
    /// The backend `copy` contract for `out`.
    pub(super) unsafe fn finish(
        &self,
        cpu: &super::Cpu,
        target: &Tensor,
        out: &Tensor,
    ) -> Result<()> {
        if self.direct {
            return Ok(());
        }
        // SAFETY: the caller's contract for `out`; a scratch target is fresh, so it does
        // not overlap `out`.
        unsafe { crate::backend::Backend::copy(cpu, &target.permute(&self.back)?, out) }
    }
}

/// The reordering when the operands of full shape share one dense layout other than
/// row-major (others being single elements), and `out` has that layout too or is a large
/// enough row-major tensor; `None` otherwise (row-major operands, broadcast rows, gaps,
/// overlap, or a small row-major result).
pub(super) fn reorder(inputs: &[&Tensor], out: &Tensor) -> Option<Reorder> {
    let shape = out.shape();
    let layouts: DimVec<(&[usize], &[isize])> =
        inputs.iter().map(|t| (t.shape(), t.strides())).collect();
    let order = shared_dense_order(shape, &layouts)?;
    let full = inputs.iter().find(|t| t.shape() == shape)?;
    let direct = (0..shape.len()).all(|d| shape[d] == 1 || out.strides()[d] == full.strides()[d]);
    if !direct && (out.numel() < MIN_ELEMS || !out.is_contiguous()) {
        return None;
    }
    let (perm, back) = order_perms(&order);
    Some(Reorder {
        back,
        shape: order.iter().map(|&d| shape[d]).collect(),
        full: shape.iter().copied().collect(),
        order: perm,
        direct,
    })
}
