//! `matmul` through cuBLAS (`cublasGemmStridedBatchedEx`), loaded at run time like the
//! driver: float32 (FP32 compute, no TF32, as PyTorch by default), float64, and float16 /
//! bfloat16 with FP32 accumulation. Where libcublas is missing, or for other dtypes, the
//! NVRTC kernel runs instead (`kernels::matmul`).
//!
//! cuBLAS is column-major; a row-major `C = A·B` is computed as `Cᵀ = Bᵀ·Aᵀ`, which is the
//! same bytes. Operands are taken in place when each matrix is row- or column-major with a
//! stride cuBLAS accepts and the batch dims collapse to one stride (broadcast batches have
//! stride 0); any other view is made contiguous first.

use std::ffi::{c_int, c_longlong, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, OnceLock};

use cudarc::cublas::result as blas;
use cudarc::cublas::sys;

use super::driver::Cuda;
use crate::error::{Error, Result};
use crate::ops::matmul::Plan as MatmulPlan;
use crate::{DType, Tensor};

/// A cuBLAS handle bound to the device's stream. Calls on one handle are serialised.
pub(crate) struct Handle(Mutex<sys::cublasHandle_t>);

// SAFETY: the handle is used only under its mutex, with the device's context bound, which is
// how cuBLAS allows a handle to move between threads.
unsafe impl Send for Handle {}
// SAFETY: as above.
unsafe impl Sync for Handle {}

/// The device's handle, created on first use; `None` (logged once) when libcublas cannot be
/// loaded or initialised here.
fn handle(cuda: &Cuda) -> Option<&Handle> {
    cuda.blas
        .get_or_init(|| {
            let made = catch_unwind(AssertUnwindSafe(
                || -> std::result::Result<Handle, String> {
                    // SAFETY: only tries to dlopen the candidate library names.
                    if !unsafe { sys::is_culib_present() } {
                        return Err(
                            "libcublas.so was not found (add the CUDA toolkit's lib64, or \
                                the nvidia-cublas pip package's lib folder, to LD_LIBRARY_PATH)"
                                .to_string(),
                        );
                    }
                    cuda.stream.bind().map_err(|e| e.to_string())?;
                    let h = blas::create_handle().map_err(|e| format!("cublasCreate: {e}"))?;
                    // SAFETY: `h` is live; the stream is the device's, never destroyed.
                    unsafe { blas::set_stream(h, cuda.stream.raw as sys::cudaStream_t) }
                        .map_err(|e| format!("cublasSetStream: {e}"))?;
                    Ok(Handle(Mutex::new(h)))
                },
            ))
            .unwrap_or_else(|_| Err("loading libcublas failed".to_string()));
            made.map_err(|why| {
                log::warn!(
                    "clika-rt: {}: cuBLAS is unavailable ({why}); matmul uses the runtime's own \
                     CUDA kernel, which is several times slower",
                    cuda.stream.device
                );
            })
            .ok()
        })
        .as_ref()
}

/// How one operand's matrices lie for cuBLAS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Operand {
    /// The matrix is column-major (`sys::cublasOperation_t::CUBLAS_OP_T` in the swapped call).
    pub(super) column_major: bool,
    /// The leading dimension (elements).
    pub(super) ld: i64,
    /// Elements between consecutive matrices of the batch (0: broadcast).
    pub(super) batch_stride: i64,
}

/// How a `rows × cols` matrix with element strides `(sr, sc)` can be passed, if it can.
fn matrix(rows: usize, cols: usize, sr: isize, sc: isize) -> Option<(bool, i64)> {
    let (rows, cols, sr, sc) = (rows as i64, cols as i64, sr as i64, sc as i64);
    // Row-major: unit column stride, rows at least `cols` apart (or a single row).
    if cols <= 1 || sc == 1 {
        let ld = if rows <= 1 { cols.max(1) } else { sr };
        if ld >= cols.max(1) && ld <= i64::from(c_int::MAX) {
            return Some((false, ld));
        }
    }
    // Column-major: unit row stride, columns at least `rows` apart.
    if rows <= 1 || sr == 1 {
        let ld = if cols <= 1 { rows.max(1) } else { sc };
        if ld >= rows.max(1) && ld <= i64::from(c_int::MAX) {
            return Some((true, ld));
        }
    }
    None
}

/// The one stride that steps through every matrix of the batch dims `shape`/`strides` in
/// row-major order, if there is one.
fn batch_stride(shape: &[usize], strides: &[isize]) -> Option<i64> {
    let mut step: Option<(i64, i64)> = None; // (stride, matrices it spans so far)
    for (&d, &s) in shape.iter().zip(strides).rev() {
        if d == 1 {
            continue;
        }
        let s = s as i64;
        step = match step {
            None => Some((s, d as i64)),
            Some((inner, count)) if s == inner * count => Some((inner, count * d as i64)),
            Some(_) => return None,
        };
    }
    Some(step.map_or(0, |(s, _)| s))
}

/// The operand description of `t` (batch dims then a `rows × cols` matrix), if cuBLAS can
/// read it in place.
pub(super) fn operand(t: &Tensor) -> Option<Operand> {
    let nb = t.ndim() - 2;
    let (shape, strides) = (t.shape(), t.strides());
    if strides.iter().any(|&s| s < 0) {
        return None;
    }
    let (column_major, ld) = matrix(shape[nb], shape[nb + 1], strides[nb], strides[nb + 1])?;
    let batch_stride = batch_stride(&shape[..nb], &strides[..nb])?;
    Some(Operand {
        column_major,
        ld,
        batch_stride,
    })
}

/// `t` as cuBLAS can read it: itself, or a contiguous copy.
fn readable(t: Tensor) -> Result<(Tensor, Operand)> {
    if let Some(op) = operand(&t) {
        return Ok((t, op));
    }
    let t = t.contiguous()?;
    let op = operand(&t).ok_or_else(|| Error::Internal {
        message: "a contiguous matrix is not a cuBLAS operand".to_string(),
    })?;
    Ok((t, op))
}

/// `plan` through cuBLAS, or `None` when cuBLAS does not take it here (then the NVRTC kernel
/// runs).
pub(super) fn matmul(cuda: &Cuda, plan: &MatmulPlan) -> Option<Result<Tensor>> {
    use sys::cublasComputeType_t as C;
    use sys::cudaDataType as T;
    let (m, k, n, od) = (plan.m, plan.k, plan.n, plan.dtype);
    let (ty, compute) = match od {
        DType::Float32 => (T::CUDA_R_32F, C::CUBLAS_COMPUTE_32F),
        DType::Float64 => (T::CUDA_R_64F, C::CUBLAS_COMPUTE_64F),
        DType::Float16 => (T::CUDA_R_16F, C::CUBLAS_COMPUTE_32F),
        DType::BFloat16 => (T::CUDA_R_16BF, C::CUBLAS_COMPUTE_32F),
        _ => return None,
    };
    let fits = |v: usize| v <= c_int::MAX as usize;
    if k == 0 || !(fits(m) && fits(n) && fits(k)) {
        return None;
    }
    let h = handle(cuda)?;
    Some((|| {
        let a = plan.expand(&plan.a, m, k)?.to_dtype(od)?;
        let b = plan.expand(&plan.b, k, n)?.to_dtype(od)?;
        let nb = a.ndim() - 2;
        let mut shape: Vec<usize> = a.shape()[..nb].to_vec();
        let batch: usize = shape.iter().product();
        shape.extend([m, n]);
        let out = Tensor::alloc(&shape, od, a.device(), false)?;
        if out.numel() == 0 {
            return Ok(out);
        }
        if !fits(batch) {
            return Err(Error::InvalidArgument {
                what: format!(
                    "matmul on CUDA: {batch} matrices in one batch is more than cuBLAS takes"
                ),
            });
        }
        let (a, oa) = readable(a)?;
        let (b, ob) = readable(b)?;
        let size = od.size() as u64;
        let at = |t: &Tensor| {
            (t.storage().as_ptr() as usize as u64 + t.storage_offset() as u64 * size)
                as *const c_void
        };
        let op = |column_major| {
            if column_major {
                sys::cublasOperation_t::CUBLAS_OP_T
            } else {
                sys::cublasOperation_t::CUBLAS_OP_N
            }
        };
        let (one32, zero32, one64, zero64) = (1.0f32, 0.0f32, 1.0f64, 0.0f64);
        let (alpha, beta): (*const c_void, *const c_void) = if od == DType::Float64 {
            ((&raw const one64).cast(), (&raw const zero64).cast())
        } else {
            ((&raw const one32).cast(), (&raw const zero32).cast())
        };
        cuda.stream.bind()?;
        let guard = h.0.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the handle is live and serialised by the mutex; the operands' matrices lie
        // within their device storages as `operand` described them (checked leading
        // dimensions and batch strides over views of `batch` matrices, L3); `out` is a fresh
        // contiguous `batch × m × n` device tensor; alpha/beta are host scalars of the
        // compute type, read before the call returns. Row-major C = A·B is column-major
        // Cᵀ = Bᵀ·Aᵀ: B's matrices come first.
        let done = unsafe {
            blas::gemm_strided_batched_ex(
                *guard,
                op(ob.column_major),
                op(oa.column_major),
                n as c_int,
                m as c_int,
                k as c_int,
                alpha,
                at(&b),
                ty,
                ob.ld as c_int,
                ob.batch_stride as c_longlong,
                at(&a),
                ty,
                oa.ld as c_int,
                oa.batch_stride as c_longlong,
                beta,
                at(&out) as *mut c_void,
                ty,
                n as c_int,
                (m * n) as c_longlong,
                batch as c_int,
                compute,
                sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        };
        drop(guard);
        cuda.stream.note_work();
        done.map_err(|e| Error::Internal {
            message: format!("cublasGemmStridedBatchedEx failed: {e}"),
        })?;
        // Temporaries (casts, copies) go back to the pool, whose frees wait for the stream.
        Ok(out)
    })())
}

/// A device's handle slot, filled on first use (`None`: cuBLAS is unavailable).
pub(crate) type Slot = OnceLock<Option<Handle>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_and_column_major_matrices_are_read_in_place() {
        assert_eq!(matrix(3, 5, 5, 1), Some((false, 5)));
        assert_eq!(matrix(3, 5, 8, 1), Some((false, 8)));
        assert_eq!(matrix(3, 5, 1, 3), Some((true, 3)));
        // A single row or column takes any stride for the unit dimension.
        assert_eq!(matrix(1, 5, 999, 1), Some((false, 5)));
        assert_eq!(matrix(5, 1, 1, 999), Some((false, 1)));
        assert_eq!(matrix(5, 1, 7, 999), Some((false, 7)));
        // Neither dimension unit-strided, or rows overlapping: copied first.
        assert_eq!(matrix(3, 5, 10, 2), None);
        assert_eq!(matrix(3, 5, 2, 1), None);
    }

    #[test]
    fn batch_dims_collapse_to_one_stride_or_are_copied() {
        assert_eq!(batch_stride(&[2, 3], &[60, 20]), Some(20));
        assert_eq!(batch_stride(&[2, 3], &[0, 0]), Some(0));
        assert_eq!(batch_stride(&[1, 3, 1], &[7, 20, 9]), Some(20));
        assert_eq!(batch_stride(&[], &[]), Some(0));
        assert_eq!(batch_stride(&[2, 3], &[0, 20]), None);
        assert_eq!(batch_stride(&[2, 3], &[100, 20]), None);
    }
}
