//! Matrix products: numpy's shape rules, planned once ([`Plan`]) and run by the backend of the
//! operands' device (on the CPU through the `gemm` crate, reading strided operands in place).

use super::binary::broadcast_shapes;
use super::promote::result_type;
use crate::backend::backend;
use crate::layout::DimVec;
use crate::{DType, Error, Result, Tensor};

/// Matrix product with numpy's `matmul` semantics: 1-D operands are promoted to a row
/// (left) or column (right) and the added dimension removed afterwards; leading (batch)
/// dimensions broadcast. Floats compute in their own precision (`Float16`/`BFloat16` and
/// integers in `Float32`, integers converted back).
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    super::binary::same_device("matmul", a, b)?;
    let plan = Plan::new(a, b)?;
    let out = backend(a.device())?.matmul(&plan)?;
    plan.squeeze(out)
}

/// numpy's `matmul` shape rules, shared by every device: 1-D operands promoted to a row
/// (left) or column (right), matrix sizes checked, batch dimensions broadcast.
pub(crate) struct Plan {
    /// The left operand, at least 2-D.
    pub(crate) a: Tensor,
    /// The right operand, at least 2-D.
    pub(crate) b: Tensor,
    pub(crate) m: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
    /// The result's dtype: the operands' promoted dtype.
    pub(crate) dtype: DType,
    batch: DimVec<usize>,
    squeeze_a: bool,
    squeeze_b: bool,
}

impl Plan {
    pub(crate) fn new(a: &Tensor, b: &Tensor) -> Result<Plan> {
        if a.ndim() == 0 || b.ndim() == 0 {
            return Err(Error::ShapeMismatch {
                op: "matmul (operands need at least 1 dimension)",
                expected: vec![1],
                got: vec![0],
            });
        }
        let a2 = if a.ndim() == 1 {
            a.unsqueeze(0)?
        } else {
            a.clone()
        };
        let b2 = if b.ndim() == 1 {
            b.unsqueeze(1)?
        } else {
            b.clone()
        };
        let (m, k) = (a2.shape()[a2.ndim() - 2], a2.shape()[a2.ndim() - 1]);
        let (k2, n) = (b2.shape()[b2.ndim() - 2], b2.shape()[b2.ndim() - 1]);
        if k != k2 {
            return Err(Error::MatmulInner {
                a: a.shape().to_vec(),
                b: b.shape().to_vec(),
                k,
                k2,
            });
        }
        let batch = broadcast_shapes(&a2.shape()[..a2.ndim() - 2], &b2.shape()[..b2.ndim() - 2])?;
        Ok(Plan {
            a: a2,
            b: b2,
            m,
            k,
            n,
            dtype: result_type(a.dtype(), b.dtype()),
            batch,
            squeeze_a: a.ndim() == 1,
            squeeze_b: b.ndim() == 1,
        })
    }

    /// `t` (an `r`×`c` matrix or batch of them) broadcast over the batch dimensions.
    pub(crate) fn expand(&self, t: &Tensor, r: usize, c: usize) -> Result<Tensor> {
        let mut sizes: DimVec<isize> = self.batch.iter().map(|&d| d as isize).collect();
        sizes.extend([r as isize, c as isize]);
        t.expand(&sizes)
    }

    /// The shape of the (unsqueezed) result: batch, m, n.
    pub(crate) fn out_shape(&self) -> DimVec<usize> {
        let mut s = self.batch.clone();
        s.extend([self.m, self.n]);
        s
    }

    /// The number of matrices in the batch.
    pub(crate) fn batch_count(&self) -> usize {
        self.batch.iter().product()
    }

    /// Removes the dimensions added for 1-D operands.
    pub(crate) fn squeeze(&self, mut out: Tensor) -> Result<Tensor> {
        if self.squeeze_b {
            out = out.squeeze(Some(-1))?;
        }
        if self.squeeze_a {
            out = out.squeeze(Some(if self.squeeze_b { -1 } else { -2 }))?;
        }
        Ok(out)
    }
}
