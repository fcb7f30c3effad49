//! Matrix products through the `gemm` crate (packed, SIMD, multithreaded kernels), reading
//! strided operands in place: a transposed view is multiplied without being copied.

use super::binary::{broadcast_shapes, check_devices};
use super::promote::result_type;
use crate::layout::DimVec;
use crate::{DType, Error, Result, Tensor};

/// Matrix product with numpy's `matmul` semantics: 1-D operands are promoted to a row
/// (left) or column (right) and the added dimension removed afterwards; leading (batch)
/// dimensions broadcast. Floats compute in their own precision (`Float16`/`BFloat16` and
/// integers in `Float32`, integers converted back).
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if !a.device().is_cpu() || !b.device().is_cpu() {
        return crate::backend::kernels::matmul(a, b);
    }
    check_devices("matmul", a, b)?;
    let plan = Plan::new(a, b)?;
    let (a2, b2, m, k, n) = (&plan.a, &plan.b, plan.m, plan.k, plan.n);
    let dtype = result_type(a.dtype(), b.dtype());
    let cd = match dtype {
        DType::Float64 => DType::Float64,
        _ => DType::Float32,
    };
    let (ae, be) = (
        plan.expand(&a2.to_dtype(cd)?, m, k)?,
        plan.expand(&b2.to_dtype(cd)?, k, n)?,
    );
    let out = Tensor::alloc(&plan.out_shape(), cd, a.device(), false)?;
    let nb = plan.batch_count();
    for i in 0..nb {
        let (ai, bi, oi) = (
            batch_item(&ae, i)?,
            batch_item(&be, i)?,
            batch_item(&out, i)?,
        );
        match cd {
            // SAFETY: `ai`, `bi` are m×k and k×n views inside their storages (L3), `oi` an
            // m×n block of the fresh, exclusive `out`; all f32.
            DType::Float32 => unsafe { gemm_into::<f32>(&ai, &bi, &oi) },
            // SAFETY: as above, f64.
            _ => unsafe { gemm_into::<f64>(&ai, &bi, &oi) },
        }
    }
    let out = if dtype == cd {
        out
    } else {
        out.to_dtype(dtype)?
    };
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

/// The `i`-th matrix of a batch (row-major over the batch dimensions).
fn batch_item(t: &Tensor, mut i: usize) -> Result<Tensor> {
    let mut v = t.clone();
    let nb = t.ndim() - 2;
    for d in (0..nb).rev() {
        let size = t.shape()[d];
        v = v.select(d as isize, (i % size) as isize)?;
        i /= size;
    }
    // `select` removes dims from the front as we go from the back; indices stay valid since
    // only dims at positions < d remain before each step.
    Ok(v)
}

/// `out = a × b` for 2-D views.
///
/// # Safety
/// `a` (m×k), `b` (k×n), `out` (m×n) are host tensors of `T` whose views lie inside their
/// storages; `out` is exclusively held and does not overlap `a` or `b`.
unsafe fn gemm_into<T: 'static + Copy + Default + num_one::One>(
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
) {
    let (m, k, n) = (a.shape()[0], a.shape()[1], b.shape()[1]);
    if m == 0 || n == 0 {
        return;
    }
    let threads = if m * n * k >= 1 << 18 && super::iter::threads_available() {
        crate::threads::current_num_threads()
    } else {
        1
    };
    let par = if threads > 1 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: pointers and strides describe the three views exactly (column stride = stride
    // of dim 1, row stride = stride of dim 0); `read_dst = false` means `out` is only
    // written, and `k == 0` writes zeros.
    let run = || unsafe {
        gemm::gemm::<T>(
            m,
            n,
            k,
            out.data_ptr().cast::<T>(),
            out.strides()[1],
            out.strides()[0],
            false,
            a.data_ptr().cast::<T>().cast_const(),
            a.strides()[1],
            a.strides()[0],
            b.data_ptr().cast::<T>().cast_const(),
            b.strides()[1],
            b.strides()[0],
            T::default(),
            T::ONE,
            false,
            false,
            false,
            par,
        );
    };
    // gemm's `Parallelism::Rayon` runs on the pool of the current `install` scope.
    if threads > 1 {
        crate::threads::install(run);
    } else {
        run();
    }
}

mod num_one {
    /// The multiplicative identity, for gemm's `beta`.
    pub trait One {
        const ONE: Self;
    }
    impl One for f32 {
        const ONE: Self = 1.0;
    }
    impl One for f64 {
        const ONE: Self = 1.0;
    }
}
