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

/// `matmul(a, b)` written into `out` (the `out=` form): `out` must have the result's shape;
/// it receives the values in its own dtype. With the result's dtype and a layout that
/// reaches each element once, the CPU writes the product straight into `out` (no
/// intermediate); an operand sharing `out`'s memory is copied first, so `out` may be `a`.
pub fn matmul_into(a: &Tensor, b: &Tensor, out: &mut Tensor) -> Result<()> {
    out.ensure_exclusive("matmul")?;
    // SAFETY: `out` is the only reference to its writable storage (checked).
    unsafe { matmul_into_shared(a, b, out) }
}

/// [`matmul_into`] through a possibly shared `out`.
///
/// # Safety
/// `out`'s memory must be writable, and no other thread may read or write the elements it
/// reaches during the call.
pub unsafe fn matmul_into_shared(a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
    super::binary::same_device("matmul", a, b)?;
    super::binary::same_device("matmul", a, out)?;
    out.ensure_writable()?;
    let plan = Plan::new(a, b)?;
    let expected = plan.result_shape();
    if out.shape() != expected.as_slice() {
        return Err(Error::ShapeMismatch {
            op: "matmul (out= must have the result's shape)",
            expected: crate::error::dims_i64(&expected),
            got: crate::error::dims_i64(out.shape()),
        });
    }
    // PyTorch refuses these too: a kernel writing in parallel would race on the element.
    let repeats = out
        .shape()
        .iter()
        .zip(out.strides())
        .any(|(&d, &s)| d > 1 && s == 0);
    if repeats {
        return Err(Error::InvalidArgument {
            what: format!(
                "matmul's out= has elements that share memory (shape {:?}, strides {:?}: a \
                 stride of 0, as expand() makes); pass a tensor whose elements are distinct, \
                 e.g. one from empty()",
                out.shape(),
                out.strides()
            ),
        });
    }
    let o = plan.unsqueeze(out)?;
    // SAFETY: forwarded from the caller; `o` is a view of `out` of the plan's full shape.
    unsafe { backend(a.device())?.matmul_into(&plan, &o) }
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

    /// The shape of the result as returned: [`Plan::out_shape`] without the dimensions added
    /// for 1-D operands.
    pub(crate) fn result_shape(&self) -> DimVec<usize> {
        let mut s = self.batch.clone();
        if !self.squeeze_a {
            s.push(self.m);
        }
        if !self.squeeze_b {
            s.push(self.n);
        }
        s
    }

    /// `out` (of the squeezed result's shape) viewed with the dimensions added for 1-D
    /// operands put back: the plan's full `[batch.., m, n]`.
    pub(crate) fn unsqueeze(&self, out: &Tensor) -> Result<Tensor> {
        let mut o = out.clone();
        if self.squeeze_a {
            let at = o.ndim() as isize - if self.squeeze_b { 0 } else { 1 };
            o = o.unsqueeze(at)?;
        }
        if self.squeeze_b {
            o = o.unsqueeze(-1)?;
        }
        Ok(o)
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
