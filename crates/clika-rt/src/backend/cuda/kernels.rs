//! The op entry points on a CUDA device: the source for (op, dtypes) comes from `codegen`,
//! is compiled by NVRTC to PTX for the device's compute capability at first use, loaded as
//! a module and cached per process (keyed by the source itself); launches go on the
//! device's stream. Ops or dtypes without a kernel fail with `UnsupportedOnDevice`.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use cudarc::driver::result as cu;
use cudarc::driver::sys;

use super::codegen::{self, Meta, ReduceLaunch, THREADS};
use super::driver::{failed, Cuda};
use crate::backend::unsupported;
use crate::error::{Error, Result};
use crate::layout::DimVec;
use crate::ops::{matmul::Plan as MatmulPlan, BinaryPlan, ReduceOp, ReducePlan, UnaryPlan};
use crate::{DType, Tensor};

/// A loaded kernel (its module is never unloaded: kernels live as long as the process).
#[derive(Clone, Copy)]
pub(super) struct Func(sys::CUfunction);
// SAFETY: a CUfunction is a driver handle, valid in every thread that binds its context.
unsafe impl Send for Func {}

/// The per-device kernel cache.
#[derive(Default)]
pub(crate) struct Kernels {
    cache: Mutex<HashMap<String, Func>>,
}

/// Compiles `src` with NVRTC for `arch` to PTX, NUL-terminated.
fn compile(src: &str, arch: (i32, i32)) -> std::result::Result<CString, String> {
    // SAFETY: only tries to dlopen the candidate library names.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(
            "NVRTC (libnvrtc.so) was not found: install the CUDA toolkit's NVRTC \
                    (pip install nvidia-cuda-nvrtc-cu12, or apt-get install cuda-nvrtc-12-x) \
                    or add its directory to LD_LIBRARY_PATH"
                .to_string(),
        );
    }
    let opts = cudarc::nvrtc::CompileOptions {
        options: vec![format!("--gpu-architecture=compute_{}{}", arch.0, arch.1)],
        ..Default::default()
    };
    let ptx = catch_unwind(AssertUnwindSafe(|| {
        cudarc::nvrtc::compile_ptx_with_opts(src, opts)
    }))
    .map_err(|_| "NVRTC could not be loaded".to_string())?
    .map_err(|e| format!("NVRTC failed: {e:?}"))?;
    CString::new(ptx.to_src()).map_err(|_| "NVRTC returned PTX with a NUL byte".to_string())
}

impl Cuda {
    /// The kernel `k` of `src`, compiled and loaded on first use.
    pub(super) fn kernel(&self, op: &str, src: &str) -> Result<Func> {
        let mut cache = self.kernels.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&f) = cache.get(src) {
            return Ok(f);
        }
        let ptx = compile(src, self.arch).map_err(|why| {
            log::debug!("clika-rt: kernel for {op} failed to compile:\n{src}");
            Error::Internal {
                message: format!("compiling the CUDA kernel for {op}: {why}"),
            }
        })?;
        self.stream.bind()?;
        // SAFETY: `ptx` is a NUL-terminated PTX image; the module is kept for the process.
        let module = unsafe { cu::module::load_data(ptx.as_ptr().cast()) }
            .map_err(|e| failed("cuModuleLoadData", e))?;
        // SAFETY: the module is live and holds `k` (every generated source defines it).
        let f = unsafe { cu::module::get_function(module, CString::from(c"k")) }
            .map_err(|e| failed("cuModuleGetFunction", e))?;
        cache.insert(src.to_string(), Func(f));
        Ok(Func(f))
    }

    /// Launches `f` over `grid` blocks with `ptrs` (device addresses) and `meta`.
    pub(super) fn launch(
        &self,
        f: Func,
        grid: (u32, u32),
        ptrs: &[u64],
        meta: &[i64],
    ) -> Result<()> {
        let mut meta = Meta::new(meta).ok_or_else(|| Error::Internal {
            message: "kernel parameters over the parameter block".into(),
        })?;
        let mut ptrs = ptrs.to_vec();
        let mut params: Vec<*mut c_void> = ptrs
            .iter_mut()
            .map(|p| (p as *mut u64).cast::<c_void>())
            .collect();
        params.push((&mut meta as *mut Meta).cast());
        self.stream.bind()?;
        // SAFETY: `f` is a loaded kernel whose parameters are `ptrs.len()` pointers and a
        // `Meta` by value, matching `params` (the driver copies them before returning); the
        // pointers address live device blocks the caller keeps alive (their frees are
        // deferred behind the stream's events), with the extents `meta` describes.
        unsafe {
            cu::launch_kernel(
                f.0,
                (grid.0, grid.1, 1),
                (THREADS, 1, 1),
                0,
                self.stream.raw,
                &mut params,
            )
        }
        .map_err(|e| failed("cuLaunchKernel", e))?;
        self.stream.note_work();
        Ok(())
    }
}

/// The device address of `t`'s storage.
fn addr(t: &Tensor) -> u64 {
    t.storage().as_ptr() as usize as u64
}

fn no_kernel(op: &str, t: &Tensor, what: String) -> Error {
    unsupported(op, t.device(), what)
}

/// `out = expr(inputs)` elementwise; every input already has `out`'s shape (broadcast).
fn map(
    cuda: &Cuda,
    op: &str,
    inputs: &[&Tensor],
    ct: DType,
    expr: (&str, DType),
    out: &Tensor,
) -> Result<()> {
    let n = out.numel();
    if n == 0 {
        return Ok(());
    }
    let shape = out.shape();
    let flat = std::iter::once(out)
        .chain(inputs.iter().copied())
        .all(|t| t.is_contiguous());
    let dtypes: Vec<DType> = inputs.iter().map(|t| t.dtype()).collect();
    let src = codegen::map_source(&dtypes, ct, expr, out.dtype(), flat)
        .ok_or_else(|| no_kernel(op, out, format!("{:?} -> {} yet", dtypes, out.dtype())))?;
    let f = cuda.kernel(op, &src)?;
    let mut operands: Vec<(usize, &[isize])> = vec![(out.storage_offset(), out.strides())];
    operands.extend(inputs.iter().map(|t| (t.storage_offset(), t.strides())));
    let meta = if flat {
        // Offsets only: element i of each operand is at its offset + i.
        let mut m = vec![n as i64, 0];
        m.extend(operands.iter().map(|(o, _)| *o as i64));
        m
    } else {
        codegen::map_meta(shape, &operands)
    };
    let mut ptrs = vec![addr(out)];
    ptrs.extend(inputs.iter().map(|t| addr(t)));
    cuda.launch(f, (codegen::map_blocks(n), 1), &ptrs, &meta)
}

pub(super) fn unary(cuda: &Cuda, plan: &UnaryPlan, src: &Tensor, out: &Tensor) -> Result<()> {
    let expr = codegen::unary_expr(plan.op, plan.out)
        .ok_or_else(|| no_kernel(plan.op.name(), src, format!("{} results yet", plan.out)))?;
    map(
        cuda,
        plan.op.name(),
        &[src],
        plan.out,
        (&expr, plan.out),
        out,
    )
}

pub(super) fn binary(
    cuda: &Cuda,
    plan: &BinaryPlan,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
) -> Result<()> {
    let (e, rt) = codegen::binary_expr(plan.op, plan.compute).ok_or_else(|| {
        no_kernel(
            plan.op.name(),
            out,
            format!("{} operands yet", plan.compute),
        )
    })?;
    let sizes: DimVec<isize> = plan.shape.iter().map(|&d| d as isize).collect();
    let (ae, be) = (a.expand(&sizes)?, b.expand(&sizes)?);
    map(
        cuda,
        plan.op.name(),
        &[&ae, &be],
        plan.compute,
        (&e, rt),
        out,
    )
}

pub(super) fn copy(cuda: &Cuda, src: &Tensor, out: &Tensor) -> Result<()> {
    let d = src.dtype();
    map(cuda, "contiguous/to_dtype", &[src], d, ("x0", d), out)
}

pub(super) fn reduce(cuda: &Cuda, plan: &ReducePlan, t: &Tensor) -> Result<Tensor> {
    let (op, od) = (plan.op, plan.out_dtype);
    let out = Tensor::alloc(&plan.out_shape, od, t.device(), false)?;
    let n_out = out.numel();
    if n_out == 0 {
        return Ok(out);
    }
    // Accumulate in the result's type (sums of Float32 in float, as PyTorch on CUDA; of
    // integers in Int64; means of integers in Float64).
    let acc = od;
    let launch = codegen::reduce_launch(n_out, plan.count, cuda.sms);
    // Partials of a split reduction keep half results in Float32 until the end.
    let part = match od {
        DType::Float16 | DType::BFloat16 if launch.slices > 1 => DType::Float32,
        d => d,
    };
    let src = codegen::reduce_source(op, t.dtype(), acc, part)
        .ok_or_else(|| no_kernel(op.name(), t, format!("{} input yet", t.dtype())))?;
    let (shape, strides) = (t.shape(), t.strides());
    let pick = |red: bool| -> (Vec<usize>, Vec<isize>) {
        let dims: Vec<usize> = plan.dims(red).collect();
        let sh: Vec<usize> = dims.iter().map(|&d| shape[d]).collect();
        let st: Vec<isize> = dims.iter().map(|&d| strides[d]).collect();
        if red {
            codegen::coalesce(&sh, &st)
        } else {
            (sh, st)
        }
    };
    let (kept, red) = (pick(false), pick(true));
    let count = plan.count;
    let mean = op == ReduceOp::Mean;
    let den = |last: bool| if mean && last { count as i64 } else { -1 };
    let grid_x = n_out.min(65535) as u32;
    let f = cuda.kernel(op.name(), &src)?;
    if launch.slices == 1 {
        let meta = codegen::reduce_meta(
            (&kept.0, &kept.1),
            (&red.0, &red.1),
            t.storage_offset(),
            launch,
            den(true),
        );
        cuda.launch(f, (grid_x, 1), &[addr(&out), addr(t)], &meta)?;
        return Ok(out);
    }
    // Two passes: partials [n_out, slices] in the output dtype (a mean's are sums), then
    // each output's slices reduced by the same op (sums for a mean).
    let partial = Tensor::alloc(&[n_out, launch.slices], part, t.device(), false)?;
    let meta = codegen::reduce_meta(
        (&kept.0, &kept.1),
        (&red.0, &red.1),
        t.storage_offset(),
        launch,
        den(false),
    );
    cuda.launch(
        f,
        (grid_x, launch.slices as u32),
        &[addr(&partial), addr(t)],
        &meta,
    )?;
    let second_op = if mean { ReduceOp::Sum } else { op };
    let src2 = codegen::reduce_source(second_op, part, part, od)
        .ok_or_else(|| no_kernel(op.name(), t, format!("{od} partials yet")))?;
    let f2 = cuda.kernel(op.name(), &src2)?;
    let whole = ReduceLaunch {
        slices: 1,
        chunk: launch.slices,
    };
    let meta2 = codegen::reduce_meta(
        (&[n_out], &[launch.slices as isize]),
        (&[launch.slices], &[1]),
        0,
        whole,
        den(true),
    );
    cuda.launch(f2, (grid_x, 1), &[addr(&out), addr(&partial)], &meta2)?;
    Ok(out)
}

pub(super) fn matmul(cuda: &Cuda, plan: &MatmulPlan) -> Result<Tensor> {
    if let Some(done) = super::blas::matmul(cuda, plan) {
        return done;
    }
    let (m, k, n, od) = (plan.m, plan.k, plan.n, plan.dtype);
    let a = plan.expand(&plan.a, m, k)?.to_dtype(od)?;
    let b = plan.expand(&plan.b, k, n)?.to_dtype(od)?;
    let mut shape: Vec<usize> = a.shape()[..a.ndim() - 2].to_vec();
    shape.extend([m, n]);
    let out = Tensor::alloc(&shape, od, a.device(), false)?;
    let total = out.numel();
    if total == 0 {
        return Ok(out);
    }
    let acc = if od == DType::Float64 {
        DType::Float64
    } else {
        DType::Float32
    };
    let src = codegen::matmul_source(od, acc, od)
        .ok_or_else(|| no_kernel("matmul", &a, format!("{od} operands yet")))?;
    let f = cuda.kernel("matmul", &src)?;
    let nb = a.ndim() - 2;
    let (sa, sb) = (a.strides(), b.strides());
    let mut meta = vec![
        total as i64,
        m as i64,
        n as i64,
        k as i64,
        nb as i64,
        a.storage_offset() as i64,
        b.storage_offset() as i64,
        sa[nb] as i64,
        sa[nb + 1] as i64,
        sb[nb] as i64,
        sb[nb + 1] as i64,
    ];
    meta.extend(shape[..nb].iter().map(|&d| d as i64));
    meta.extend(sa[..nb].iter().map(|&s| s as i64));
    meta.extend(sb[..nb].iter().map(|&s| s as i64));
    let ptrs = [addr(&out), addr(&a), addr(&b)];
    cuda.launch(f, (codegen::map_blocks(total), 1), &ptrs, &meta)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{BinaryOp, UnaryOp};
    use rayon::prelude::*;

    /// Every kernel the backend can generate, compiled by NVRTC for sm_90 (the H200), when
    /// NVRTC is loadable here (it needs no GPU: `pip install nvidia-cuda-nvrtc-cu12` and its
    /// `lib` on `LD_LIBRARY_PATH`); otherwise the test says so and returns.
    #[test]
    fn every_generated_kernel_compiles_with_nvrtc() {
        // SAFETY: only tries to dlopen the candidate library names.
        if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
            eprintln!("skipping: NVRTC (libnvrtc.so.12) is not loadable here");
            return;
        }
        let mut sources: Vec<(String, String)> = Vec::new();
        for op in UnaryOp::ALL {
            for d in DType::ALL {
                let Ok(out) = op.out_dtype(d) else { continue };
                if let Some(e) = codegen::unary_expr(op, out) {
                    let src = codegen::map_source(&[d], out, (&e, out), out, false).unwrap();
                    sources.push((format!("{} {d}", op.name()), src));
                }
            }
        }
        for op in BinaryOp::ALL {
            for ct in DType::ALL {
                if let Some((e, rt)) = codegen::binary_expr(op, ct) {
                    let out = if op.is_comparison() { DType::Bool } else { ct };
                    let src =
                        codegen::map_source(&[ct, DType::Int32], ct, (&e, rt), out, true).unwrap();
                    sources.push((format!("{} {ct}", op.name()), src));
                }
            }
        }
        for from in DType::ALL {
            for to in DType::ALL {
                let src = codegen::map_source(&[from], from, ("x0", from), to, false).unwrap();
                sources.push((format!("copy {from} -> {to}"), src));
            }
        }
        for op in [
            ReduceOp::Sum,
            ReduceOp::Mean,
            ReduceOp::Prod,
            ReduceOp::Max,
            ReduceOp::Min,
        ] {
            for d in DType::ALL {
                let out = op.out_dtype(d);
                if let Some(src) = codegen::reduce_source(op, d, out, out) {
                    sources.push((format!("{} {d}", op.name()), src));
                }
            }
        }
        for d in DType::ALL {
            let acc = if d == DType::Float64 {
                d
            } else {
                DType::Float32
            };
            sources.push((
                format!("matmul {d}"),
                codegen::matmul_source(d, acc, d).unwrap(),
            ));
        }
        use super::super::vision;
        sources.push(("normalize_image".into(), vision::normalize_source()));
        sources.push(("cvt_color".into(), vision::color_source()));
        for d in DType::ALL {
            for nearest in [true, false] {
                let outs: &[DType] = if nearest { &[d] } else { &[d, DType::Float32] };
                for &od in outs {
                    if let Some(src) = vision::resize_source(d, od, nearest) {
                        sources.push((format!("interpolate {d} -> {od} {nearest}"), src));
                    }
                }
            }
        }
        assert!(sources.len() > 250, "{}", sources.len());
        // The check can fail: a broken source is reported.
        assert!(compile("this is not CUDA C", (9, 0)).is_err());
        let failures: Vec<String> = sources
            .par_iter()
            .filter_map(|(what, src)| {
                compile(src, (9, 0))
                    .err()
                    .map(|e| format!("{what}: {e}\n{src}"))
            })
            .collect();
        assert!(
            failures.is_empty(),
            "{} failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}
