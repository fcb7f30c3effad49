//! Joining tensors: `cat` and `stack`.

use super::promote::result_type;
use crate::error::dims_i64;
use crate::layout::{normalize_dim, DimVec};
use crate::{Error, Result, Tensor};

/// Concatenates `tensors` along `dim`; all other dimensions must match. The result has the
/// promoted dtype of all inputs.
pub fn cat(tensors: &[Tensor], dim: isize) -> Result<Tensor> {
    let first = tensors.first().ok_or(Error::EmptyReduction { op: "cat" })?;
    let nd = first.ndim();
    let d = normalize_dim(dim, nd)?;
    let mut dtype = first.dtype();
    let mut total = 0usize;
    for t in tensors {
        super::binary::same_device("cat", first, t)?;
        let same = t.ndim() == nd && (0..nd).all(|i| i == d || t.shape()[i] == first.shape()[i]);
        if !same {
            return Err(Error::ShapeMismatch {
                op: "cat",
                expected: dims_i64(first.shape()),
                got: dims_i64(t.shape()),
            });
        }
        dtype = result_type(dtype, t.dtype());
        total += t.shape()[d];
    }
    let mut shape: DimVec<usize> = first.shape().into();
    shape[d] = total;
    let out = Tensor::alloc(&shape, dtype, first.device(), false)?;
    let mut at = 0isize;
    for t in tensors {
        let len = t.shape()[d];
        let dst = out.narrow(d as isize, at, len)?;
        // SAFETY: `out` is fresh and only this loop writes it, one disjoint slab per input;
        // no other reference reads it until it is returned.
        unsafe { dst.copy_shared(t)? };
        at += len as isize;
    }
    Ok(out)
}

/// Stacks equally shaped `tensors` along a new dimension `dim`.
pub fn stack(tensors: &[Tensor], dim: isize) -> Result<Tensor> {
    let first = tensors
        .first()
        .ok_or(Error::EmptyReduction { op: "stack" })?;
    let d = normalize_dim(dim, first.ndim() + 1)? as isize;
    let views = tensors
        .iter()
        .map(|t| t.unsqueeze(d))
        .collect::<Result<Vec<_>>>()?;
    cat(&views, d)
}
