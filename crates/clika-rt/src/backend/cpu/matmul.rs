//! The CPU's matrix product through the `gemm` crate (packed, SIMD, multithreaded kernels),
//! reading strided operands in place: a transposed view is multiplied without being copied.

use crate::ops::matmul::Plan;
use crate::{DType, Result, Tensor};

/// The dtype the CPU multiplies in: `Float64` in `Float64`, everything else in `Float32`.
fn compute_dtype(dtype: DType) -> DType {
    match dtype {
        DType::Float64 => DType::Float64,
        _ => DType::Float32,
    }
}

/// The unsqueezed product `[batch.., m, n]` of the planned operands, in the plan's dtype.
pub(crate) fn matmul(plan: &Plan) -> Result<Tensor> {
    let cd = compute_dtype(plan.dtype);
    let out = Tensor::alloc(&plan.out_shape(), cd, plan.a.device(), false)?;
    // SAFETY: `out` is fresh and exclusive, of the plan's full shape, in the compute dtype,
    // and shares no memory with the operands.
    unsafe { products_into(plan, &plan.a, &plan.b, &out, cd)? };
    if plan.dtype != cd {
        return out.to_dtype(plan.dtype);
    }
    Ok(out)
}

/// The product written into `out` (the plan's full shape, any dtype): straight into `out`
/// when it has the result's dtype (which is the compute dtype); otherwise computed fresh
/// and converted in.
///
/// # Safety
/// `out` is a writable host tensor that nobody else reads or writes during the call, and
/// no stride of a dimension of size > 1 is 0 (`ops::matmul_into_shared` refuses those).
pub(crate) unsafe fn matmul_into(plan: &Plan, out: &Tensor) -> Result<()> {
    let cd = compute_dtype(plan.dtype);
    if out.dtype() != plan.dtype || plan.dtype != cd {
        let r = matmul(plan)?;
        // SAFETY: forwarded from the caller; `r` is fresh.
        return unsafe { out.copy_shared(&r) };
    }
    // gemm reads the operands while it writes `out`: one sharing `out`'s memory is copied.
    let private = |t: &Tensor| {
        if t.storage().same_as(out.storage()) {
            t.contiguous_copy()
        } else {
            Ok(t.clone())
        }
    };
    let (a, b) = (private(&plan.a)?, private(&plan.b)?);
    // SAFETY: forwarded from the caller; `out` has the plan's shape and the compute dtype,
    // each of its elements is reached once, and neither operand shares its memory.
    unsafe { products_into(plan, &a, &b, out, cd) }
}

/// `out[i] = a[i] × b[i]` for every matrix `i` of the batch, in `cd`.
///
/// # Safety
/// `out` is a host tensor of the plan's full shape and dtype `cd`, writable, reaching each
/// element once, not accessed by anyone else during the call and disjoint from `a` and `b`
/// (the plan's operands or private copies of them).
unsafe fn products_into(
    plan: &Plan,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    cd: DType,
) -> Result<()> {
    let (m, k, n) = (plan.m, plan.k, plan.n);
    let (ae, be) = (
        plan.expand(&a.to_dtype(cd)?, m, k)?,
        plan.expand(&b.to_dtype(cd)?, k, n)?,
    );
    for i in 0..plan.batch_count() {
        let (ai, bi, oi) = (
            batch_item(&ae, i)?,
            batch_item(&be, i)?,
            batch_item(out, i)?,
        );
        // The transposed orientation (below) computes `bᵀ aᵀ` into a fresh n×m matrix and
        // copies its transpose into `oi`.
        let (ai, bi, oi, dst) = if transposed_is_faster(&ai, &bi) {
            let t = Tensor::alloc(&[plan.n, plan.m], cd, out.device(), false)?;
            (bi.t(), ai.t(), t.clone(), Some((t, oi)))
        } else {
            (ai, bi, oi, None)
        };
        match cd {
            // SAFETY: `ai`, `bi` are m×k and k×n views inside their storages (L3), `oi` an
            // m×n block of `out` (or a fresh matrix), which the caller guarantees is
            // exclusive and disjoint; f32.
            DType::Float32 => unsafe { gemm_into::<f32>(&ai, &bi, &oi) },
            // SAFETY: as above, f64.
            _ => unsafe { gemm_into::<f64>(&ai, &bi, &oi) },
        }
        if let Some((t, oi)) = dst {
            // SAFETY: `oi` is the caller's exclusive block of `out`; `t` is fresh.
            unsafe { oi.copy_shared(&t.t())? };
        }
    }
    Ok(())
}

/// Whether `gemm` computes `a × b` faster as `(bᵀ aᵀ)ᵀ`, through a fresh row-major n×m
/// result. Its kernels are much slower on a row-major result with few rows and a long `k`,
/// and when `b` is column-major (a `linear` weight, `w.t()`) with fewer rows than columns
/// (2 threads, float32, ms: ours as called → transposed, PyTorch):
///
/// | m × k × n | `a @ b` | `a @ w.t()` |
/// |---|---|---|
/// | 32 × 2048 × 1000 | 2.56 → 0.95 (0.48) | 2.50 → 0.67 (0.62) |
/// | 8 × 2048 × 1000 | 1.55 → 0.71 (0.29) | 2.26 → 0.54 (0.41) |
/// | 128 × 512 × 512 | 0.29 → 0.35 (0.18) | 0.53 → 0.31 (0.18) |
/// | 256 × 1024 × 1024 | 1.63 → 2.37 (1.84) | 2.57 → 1.79 (1.68) |
/// | 1000 × 2048 × 32 | 0.61 → 2.56 (0.60) | 0.77 → 2.49 (0.40) |
///
/// The copy of the transpose costs `m·n` elements, small beside `m·n·k` when `k ≥ 256`.
fn transposed_is_faster(a: &Tensor, b: &Tensor) -> bool {
    let (m, k, n) = (a.shape()[0], a.shape()[1], b.shape()[1]);
    let b_column_major = b.strides()[0] == 1 && b.strides()[1] != 1;
    k >= 256 && (m * 8 < n || (b_column_major && m < n))
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
