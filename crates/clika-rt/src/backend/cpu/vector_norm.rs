//! The vector norms `Σ|x|` (`p = 1`) and `√Σx²` (`p = 2`) as one reduction pass: each chunk
//! maps and sums in the type's lanes (`f32` for `f32` and the half types, added into `f64`
//! per chunk, as the sum), so no `|x|` or `x²` tensor is written and read back.

use super::fold::{RedElem, Tree};
use super::reduce::{plan, reduce_inner, use_outer, Fold};
use crate::dtype::Element;
use crate::ops::{ReduceOp, ReducePlan};
use crate::{Result, Tensor};

/// `Σx²` (`SQ`, finished with a square root) or `Σ|x|`, chunk sums in `f64`.
#[derive(Clone, Copy)]
struct Norm<const SQ: bool>(f64);

impl<S: RedElem, const SQ: bool> Fold<S> for Norm<SQ> {
    #[inline(always)]
    fn chunk(&mut self, tree: Tree, xs: &[S], _: i64) {
        self.0 += S::norm_f::<SQ>(tree, xs);
    }
    fn merge(self, later: Self) -> Self {
        Norm(self.0 + later.0)
    }
    fn finish<D: Element>(self, _: usize) -> Result<D> {
        Ok(D::from_f64(if SQ { self.0.sqrt() } else { self.0 }))
    }
}

/// The `p`-norm over the reduced dims of `rp` (a `Sum` plan of the float tensor `t`), for
/// `p` = 1 or 2 when each output's elements are walked as rows (`None` otherwise: column
/// layouts, where the plain sum streams kept rows into accumulators, and other `p`, are
/// composed by the caller).
pub(crate) fn vector_norm(rp: &ReducePlan, p: f64, t: &Tensor) -> Option<Result<Tensor>> {
    if rp.op != ReduceOp::Sum || !t.dtype().is_float() || rp.out_dtype != t.dtype() {
        return None;
    }
    let sq = if p == 2.0 {
        true
    } else if p == 1.0 {
        false
    } else {
        return None;
    };
    let plan = plan(rp, t);
    if use_outer(&plan) {
        return None;
    }
    Some((|| {
        let out = Tensor::alloc(&rp.out_shape, rp.out_dtype, t.device(), false)?;
        if out.numel() == 0 {
            return Ok(out);
        }
        super::num::dispatch_num!(t.dtype(), S => {
            if sq {
                reduce_inner::<S, S, _>(Norm::<true>(0.0), t, &plan, &out)?;
            } else {
                reduce_inner::<S, S, _>(Norm::<false>(0.0), t, &plan, &out)?;
            }
        }, bool => unreachable!("norms take float tensors"));
        Ok(out)
    })())
}
