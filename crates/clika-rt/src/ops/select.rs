//! Selection: `where` and `clamp`.

use super::binary::{as_operand, binary_scalar, broadcast_shapes, check_devices, BinaryOp};
use super::promote::{result_type, scalar_result_type, Scalar};
use crate::backend::backend;
use crate::backend::kernel::map3;
use crate::{DType, Result, Tensor};

/// The bounds as one-element tensors of `dtype` when at least one is given and neither
/// promotes `dtype` (a float bound of an integer tensor does), so one fused pass in `dtype`
/// gives `clamp`'s result; `None` otherwise.
pub(crate) fn same_type_bounds(
    dtype: DType,
    min: Option<Scalar>,
    max: Option<Scalar>,
) -> Result<Option<(Option<Tensor>, Option<Tensor>)>> {
    let fits = |s: Option<Scalar>| s.is_none_or(|s| scalar_result_type(dtype, s) == dtype);
    if (min.is_none() && max.is_none()) || !fits(min) || !fits(max) {
        return Ok(None);
    }
    let bound = |s: Option<Scalar>| s.map(|s| s.to_tensor(dtype)).transpose();
    Ok(Some((bound(min)?, bound(max)?)))
}

/// `cond ? a : b` elementwise, broadcasting all three; the result has `a` and `b`'s promoted
/// dtype. `cond` is read as booleans (non-zero is true).
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    check_devices("where", cond, a)?;
    check_devices("where", a, b)?;
    let dtype = result_type(a.dtype(), b.dtype());
    let shape = broadcast_shapes(&broadcast_shapes(cond.shape(), a.shape())?, b.shape())?;
    let layouts = [cond, a, b].map(|t| (t.shape(), t.strides()));
    if let Some(order) = crate::layout::shared_dense_order(&shape, &layouts) {
        // Operands sharing one permuted dense layout (a transposed mask and values): the
        // op runs on their row-major views in memory order, and the result keeps their
        // layout, as the element-wise ops' results do (1024×976 transposed: 2.2 ms striding
        // across all four, 0.09–0.18 ms so; PyTorch 1.8).
        let (perm, inverse) = crate::layout::order_perms(&order);
        let view = |t: &Tensor| as_operand(t, t.dtype(), &shape)?.permute(&perm);
        return where_(&view(cond)?, &view(a)?, &view(b)?)?.permute(&inverse);
    }
    let c = as_operand(cond, DType::Bool, &shape)?;
    let (a, b) = (as_operand(a, dtype, &shape)?, as_operand(b, dtype, &shape)?);
    let out = Tensor::alloc(&shape, dtype, c.device(), false)?;
    crate::dispatch_dtype!(dtype, T => {
        // SAFETY: `out` is fresh, exclusively held and of the common shape and dtype; the
        // inputs are broadcast views of that shape.
        unsafe { map3::<bool, T, T, T>(&c, &a, &b, &out, |c, x, y| if c { x } else { y }) }
    });
    Ok(out)
}

/// Limits every element to `[min, max]` (either bound optional). NaN stays NaN.
pub fn clamp(t: &Tensor, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
    if let Some((lo, hi)) = same_type_bounds(t.dtype(), min, max)? {
        let out = Tensor::alloc_like_operands(t.shape(), t.dtype(), t.device(), &[t])?;
        // SAFETY: `out` is fresh, exclusive, and of `t`'s shape and dtype on its device.
        let done = unsafe { backend(t.device())?.clamp(t, lo.as_ref(), hi.as_ref(), &out)? };
        if done {
            return Ok(out);
        }
    }
    let lo = match min {
        Some(m) => binary_scalar(BinaryOp::Maximum, t, m)?,
        None => t.clone(),
    };
    match max {
        // After a lower bound, the upper one writes into that fresh result (one allocation,
        // the second pass over memory still in cache).
        Some(m) if min.is_some() => {
            let hi = m.to_tensor_for(lo.dtype())?;
            super::binary::binary_owned(BinaryOp::Minimum, lo, &hi)
        }
        Some(m) => binary_scalar(BinaryOp::Minimum, &lo, m),
        None if min.is_some() => Ok(lo),
        None => t.contiguous_copy(),
    }
}
