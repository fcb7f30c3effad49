//! The CPU's matrix product through the `gemm` crate (packed, SIMD, multithreaded kernels),
//! reading strided operands in place: a transposed view is multiplied without being copied.

use crate::ops::matmul::Plan;
use crate::{DType, Result, Tensor};

/// The unsqueezed product `[batch.., m, n]` of the planned operands, in the plan's dtype.
pub(crate) fn matmul(plan: &Plan) -> Result<Tensor> {
    let (a2, b2, m, k, n) = (&plan.a, &plan.b, plan.m, plan.k, plan.n);
    let dtype = plan.dtype;
    let cd = match dtype {
        DType::Float64 => DType::Float64,
        _ => DType::Float32,
    };
    let (ae, be) = (
        plan.expand(&a2.to_dtype(cd)?, m, k)?,
        plan.expand(&b2.to_dtype(cd)?, k, n)?,
    );
    let out = Tensor::alloc(&plan.out_shape(), cd, a2.device(), false)?;
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
    if dtype != cd {
        return out.to_dtype(dtype);
    }
    Ok(out)
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
