//! `out=` forms: an op's result written straight into a tensor the caller provides, with no
//! intermediate allocation (PyTorch's `out=` / numpy's `out`).
//!
//! The result must have `out`'s shape exactly (no broadcasting into `out`). When `out` has
//! the op's result dtype the kernel writes it directly; otherwise the result is computed and
//! converted into `out` with the runtime's cast rules. An input that shares `out`'s memory
//! under another layout is read in full before anything is written, so `a` may be `out`
//! itself (`add(a, b, out=a)`), and a view overlapping `out` never sees half-written values.
//! The safe forms need `out` to be the only reference to its storage (see
//! [`Tensor::is_exclusive`]); the `unsafe …_shared` forms write through shared views.

use super::binary::{same_device, BinaryOp, BinaryPlan};
use super::reduce::ReduceOp;
use super::unary::{UnaryOp, UnaryPlan};
use crate::backend::backend;
use crate::error::dims_i64;
use crate::{Error, Result, Tensor};

fn check_shape(op: &'static str, out: &Tensor, shape: &[usize]) -> Result<()> {
    if out.shape() == shape {
        Ok(())
    } else {
        Err(Error::ShapeMismatch {
            op,
            expected: dims_i64(shape),
            got: dims_i64(out.shape()),
        })
    }
}

/// `op(a, b)` into `out`: `out` must have the broadcast shape; it receives the result in its
/// own dtype; inputs may alias or overlap it (they are read first).
pub fn binary_into(op: BinaryOp, a: &Tensor, b: &Tensor, out: &mut Tensor) -> Result<()> {
    out.ensure_exclusive(op.name())?;
    // SAFETY: `out` is the only reference to its writable storage (checked), so nothing
    // else can read or write it during the call.
    unsafe { binary_into_shared(op, a, b, out) }
}

/// [`binary_into`] through a possibly shared `out`.
///
/// # Safety
/// `out`'s memory must be writable, and no other thread may read or write the elements it
/// reaches during the call.
pub unsafe fn binary_into_shared(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
    same_device(op.name(), a, b)?;
    same_device(op.name(), a, out)?;
    out.ensure_writable()?;
    let plan = BinaryPlan::new(op, a, b)?;
    check_shape(op.name(), out, &plan.shape)?;
    if plan.out != out.dtype() || plan.compute != plan.out {
        let r = super::binary::binary(op, a, b)?;
        // SAFETY: forwarded from the caller; `r` is fresh, so it does not overlap `out`.
        return unsafe { out.copy_shared(&r) };
    }
    let (a, b) = (out.detach_overlap(a)?, out.detach_overlap(b)?);
    // SAFETY: forwarded from the caller; `out` has the result's shape and dtype, and each
    // input is either `out` exactly or no longer shares its memory.
    unsafe { backend(plan.device)?.binary(&plan, &a, &b, out) }
}

/// `op(t)` into `out`, which must have `t`'s shape; as for [`binary_into`].
pub fn unary_into(op: UnaryOp, t: &Tensor, out: &mut Tensor) -> Result<()> {
    out.ensure_exclusive(op.name())?;
    // SAFETY: as in `binary_into`.
    unsafe { unary_into_shared(op, t, out) }
}

/// [`unary_into`] through a possibly shared `out`.
///
/// # Safety
/// As for [`binary_into_shared`].
pub unsafe fn unary_into_shared(op: UnaryOp, t: &Tensor, out: &Tensor) -> Result<()> {
    same_device(op.name(), t, out)?;
    out.ensure_writable()?;
    let plan = UnaryPlan::new(op, t)?;
    check_shape(op.name(), out, t.shape())?;
    if plan.out != out.dtype() {
        let r = super::unary::unary(op, t)?;
        // SAFETY: forwarded from the caller; `r` is fresh.
        return unsafe { out.copy_shared(&r) };
    }
    let src = out.detach_overlap(t)?;
    // SAFETY: forwarded from the caller; `src` is `out` exactly or disjoint from it.
    unsafe { backend(out.device())?.unary(&plan, &src, out) }
}

/// `op` over `dims` (every element when `None`) into `out` (PyTorch's `sum(…, out=)`,
/// libtorch's `at::sum_out`): `out` must have the reduction's shape and receives it in its
/// own dtype. The reduction is computed first, so `t` may overlap `out`.
pub fn reduce_into(
    op: ReduceOp,
    t: &Tensor,
    dims: Option<&[isize]>,
    keepdim: bool,
    out: &mut Tensor,
) -> Result<()> {
    out.ensure_exclusive(op.name())?;
    // SAFETY: `out` is the only reference to its writable storage (checked).
    unsafe { reduce_into_shared(op, t, dims, keepdim, out) }
}

/// [`reduce_into`] through a possibly shared `out`.
///
/// # Safety
/// As for [`binary_into_shared`].
pub unsafe fn reduce_into_shared(
    op: ReduceOp,
    t: &Tensor,
    dims: Option<&[isize]>,
    keepdim: bool,
    out: &Tensor,
) -> Result<()> {
    same_device(op.name(), t, out)?;
    out.ensure_writable()?;
    let r = super::reduce::reduce(op, t, dims, keepdim)?;
    check_shape(op.name(), out, r.shape())?;
    // SAFETY: forwarded from the caller; `r` is fresh, so it does not overlap `out`.
    unsafe { out.copy_shared(&r) }
}
