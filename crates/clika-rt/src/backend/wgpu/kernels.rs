//! The op entry points on a GPU: operands are resolved to (buffer, offset) bindings, a
//! kernel is generated and compiled once per (op, dtypes), and its dispatch is recorded in
//! the open batch. Ops or dtypes without a kernel fail with `UnsupportedOnDevice`, which
//! names the CPU fallback.

use super::launch::{bind_window, grid, launch, launch_bound, pipeline, u32_of};
use super::shaders::{self, compute_type, Ct};
use super::transfer::{alloc, words};
use super::Gpu;
use crate::backend::unsupported;
use crate::error::Result;
use crate::layout::DimVec;
use crate::ops::matmul::Plan;
use crate::ops::{BinaryOp, BinaryPlan, UnaryOp, UnaryPlan};
use crate::storage::OwnerKind;
use crate::{DType, Device, Tensor};

/// `meta` for an elementwise kernel: `[numel, ndim, shape.., (offset, strides..) per input]`
/// where every input is already broadcast to `shape`.
fn map_meta(op: &str, shape: &[usize], inputs: &[&Tensor]) -> Result<Vec<u32>> {
    let device = inputs.first().map_or(Device::cpu(), |t| t.device());
    let numel: usize = shape.iter().product();
    let mut meta = vec![u32_of(op, device, numel)?, shape.len() as u32];
    for &d in shape {
        meta.push(u32_of(op, device, d)?);
    }
    for t in inputs {
        meta.push(u32_of(op, device, t.storage_offset())?);
        for &s in t.strides() {
            let s = i32::try_from(s).map_err(|_| unsupported(op, device, "strides over 2^31"))?;
            meta.push(s as u32);
        }
    }
    Ok(meta)
}

/// Runs an elementwise kernel: `out[i] = expr(load0(in0[i]), …)` into `out` (of the inputs'
/// shape); `key` names the (op, dtypes) for the pipeline cache. The kernels store whole
/// words, so `out` must be contiguous, start on a word, and end on one — or at the end of
/// runtime pool memory, whose blocks are padded (every result the runtime allocates is);
/// anything else would overwrite bytes next to it.
fn map(
    gpu: &Gpu,
    op: &str,
    key: String,
    inputs: &[&Tensor],
    out: &Tensor,
    (ct_in, ct_out): (Ct, Ct),
    expr: &str,
) -> Result<()> {
    let (shape, od) = (out.shape(), out.dtype());
    check_out(op, out)?;
    let numel = out.numel();
    if numel == 0 {
        return Ok(());
    }
    let mut meta = map_meta(op, shape, inputs)?;
    // The output's first word in its storage (a whole word: checked above).
    meta.push(u32_of(
        op,
        out.device(),
        out.storage_offset() * od.size() / 4,
    )?);
    // Every input contiguous in the output's shape (no broadcast, no strides): a flat kernel.
    let flat = inputs
        .iter()
        .all(|t| t.is_contiguous() && t.shape() == shape);
    let key = if flat { key + "/flat" } else { key };
    let pipe = pipeline(gpu, &key, || {
        let mut loads = shaders::prelude(inputs.len());
        for (k, t) in inputs.iter().enumerate() {
            loads += &shaders::load_fn(k, t.dtype(), ct_in);
        }
        loads += &shaders::store_fn(od, ct_out);
        shaders::map_kernel(&loads, inputs.len(), od, expr, flat)
    })?;
    let limit = gpu.queue.wdev.limits().max_storage_buffer_binding_size;
    let too_big = |t: &Tensor| words(t.storage().nbytes()) > limit;
    let chunkable = inputs
        .iter()
        .all(|t| (t.is_contiguous() && t.shape() == shape) || is_broadcast_scalar(t));
    if chunkable && (too_big(out) || inputs.iter().any(|t| too_big(t))) {
        return map_chunks(gpu, op, &pipe, inputs, out);
    }
    let words = numel.div_ceil(4 / od.size());
    let (x, y) = grid(words.div_ceil(256))?;
    launch(gpu, op, &pipe, &meta, out, inputs, (x, y, 1))
}

/// See [`map`]: whether the kernels' whole-word stores fit `out` exactly.
fn check_out(op: &str, out: &Tensor) -> Result<()> {
    let refuse = |what: &str| Err(unsupported(op, out.device(), what));
    if !out.is_contiguous() {
        return refuse("results written into a strided view");
    }
    let start = out.storage_offset() * out.dtype().size();
    let end = start + out.numel() * out.dtype().size();
    if !start.is_multiple_of(4) {
        return refuse("results written into a view that starts inside a 4-byte word");
    }
    let padded = end == out.storage().nbytes() && out.storage().owner_kind() == OwnerKind::Pool;
    if !end.is_multiple_of(4) && !padded && out.numel() > 0 {
        return refuse(
            "results written into a view that ends inside a 4-byte word (the kernels store \
             whole words and would overwrite the bytes after it); write into a new tensor, \
             or run the in-place operation on the CPU",
        );
    }
    Ok(())
}

/// An operand expanded from one element (every stride 0), like a scalar broadcast.
fn is_broadcast_scalar(t: &Tensor) -> bool {
    t.strides().iter().all(|&s| s == 0)
}

/// An elementwise kernel over operands larger than one storage binding: dispatched per
/// chunk of the output, each operand bound through a window over just that chunk's elements
/// (the chunk's element offset inside its window goes into `meta`).
fn map_chunks(
    gpu: &Gpu,
    op: &str,
    pipe: &wgpu::ComputePipeline,
    inputs: &[&Tensor],
    out: &Tensor,
) -> Result<()> {
    let limits = gpu.queue.wdev.limits();
    let widest = inputs
        .iter()
        .map(|t| t.dtype().size())
        .chain([out.dtype().size()])
        .max()
        .unwrap_or(4) as u64;
    let align = u64::from(limits.min_storage_buffer_offset_alignment).max(4);
    // Whole alignment units per chunk (so every output window starts aligned), leaving room
    // for an input window's leading slack.
    let chunk = ((limits.max_storage_buffer_binding_size - align) / widest / align * align)
        .min(1 << 30) as usize;
    let numel = out.numel();
    let refuse = || {
        unsupported(
            op,
            out.device(),
            "this operand layout in chunks (the device's binding alignment does not fit it)",
        )
    };
    if chunk == 0 {
        return Err(refuse());
    }
    let per_word = 4 / out.dtype().size();
    let mut e0 = 0;
    while e0 < numel {
        let n = chunk.min(numel - e0);
        let o = out.reshape(&[-1])?.narrow(0, e0 as isize, n)?;
        let (ob, skip) = bind_window(gpu, &o, n)?.ok_or_else(refuse)?;
        if !(skip as usize).is_multiple_of(per_word) {
            return Err(refuse()); // the kernel writes whole words of the output binding
        }
        let n32 = u32_of(op, out.device(), n)?;
        let mut meta = vec![n32, 1, n32];
        let mut bindings = vec![ob];
        for t in inputs {
            // A broadcast scalar is one element read at stride 0 (the general kernel honours
            // the stride; the flat one, used when there is none, reads along).
            let (v, len, stride) = if is_broadcast_scalar(t) {
                ((*t).clone(), 1, 0)
            } else {
                (t.reshape(&[-1])?.narrow(0, e0 as isize, n)?, n, 1)
            };
            let (b, skip) = bind_window(gpu, &v, len)?.ok_or_else(refuse)?;
            meta.extend([skip, stride]);
            bindings.push(b);
        }
        meta.push(skip / per_word as u32);
        let (x, y) = grid(n.div_ceil(per_word).div_ceil(256))?;
        launch_bound(gpu, pipe, &meta, &bindings, (x, y, 1))?;
        e0 += n;
    }
    Ok(())
}

/// `out = t` converted to `out`'s dtype (a copy when the dtypes match).
pub(super) fn copy(gpu: &Gpu, t: &Tensor, out: &Tensor) -> Result<()> {
    let op = "contiguous/to_dtype";
    let dtype = out.dtype();
    if t.dtype() == dtype {
        if dtype.size() == 8 {
            return gather64(gpu, t, out);
        }
        let key = format!("copy/{dtype}");
        return map(gpu, op, key, &[t], out, (Ct::Raw, Ct::Raw), "x0");
    }
    let (Some(a), Some(b)) = (compute_type(t.dtype()), compute_type(dtype)) else {
        return Err(unsupported(
            "to_dtype",
            t.device(),
            format!(
                "{} -> {dtype} (no 64-bit or UInt32 conversions on this device)",
                t.dtype()
            ),
        ));
    };
    let ct = if a == Ct::F32 || b == Ct::F32 {
        Ct::F32
    } else {
        Ct::I32
    };
    let key = format!("cast/{}/{dtype}", t.dtype());
    map(gpu, op, key, &[t], out, (ct, ct), "x0")
}

/// A fresh contiguous copy of `t` in `dtype`.
fn converted(gpu: &Gpu, t: &Tensor, dtype: DType) -> Result<Tensor> {
    let out = alloc(gpu, t.shape(), dtype)?;
    copy(gpu, t, &out)?;
    Ok(out)
}

/// Contiguous copy of an 8-byte-element tensor into `out`.
fn gather64(gpu: &Gpu, t: &Tensor, out: &Tensor) -> Result<()> {
    if !out.is_contiguous() {
        return Err(unsupported(
            "contiguous",
            out.device(),
            "copies into a strided view",
        ));
    }
    if out.numel() == 0 {
        return Ok(());
    }
    let mut meta = map_meta("contiguous", t.shape(), &[t])?;
    meta.push(u32_of(
        "contiguous",
        out.device(),
        2 * out.storage_offset(),
    )?);
    let pipe = pipeline(gpu, "gather64", || shaders::prelude(1) + shaders::GATHER64)?;
    let (x, y) = grid(out.numel().div_ceil(256))?;
    launch(gpu, "contiguous", &pipe, &meta, out, &[t], (x, y, 1))
}

/// `out = op(a, b)` on the GPU, with broadcasting and strided operands (a scalar operand
/// was moved over by the plan).
pub(super) fn binary(
    gpu: &Gpu,
    plan: &BinaryPlan,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
) -> Result<()> {
    let (op, cd, od) = (plan.op, plan.compute, plan.out);
    let ct = compute_type(cd).filter(|_| compute_type(od).is_some());
    let expr = ct.and_then(|ct| binary_expr(op, ct));
    let (Some(ct), Some(expr)) = (ct, expr) else {
        return Err(unsupported(
            op.name(),
            plan.device,
            format!("{cd} operands"),
        ));
    };
    let sizes: DimVec<isize> = plan.shape.iter().map(|&d| d as isize).collect();
    let (ae, be) = (a.expand(&sizes)?, b.expand(&sizes)?);
    let ct_out = if op.is_comparison() { Ct::Bool } else { ct };
    let key = format!("binary/{}/{}/{}/{od}", op.name(), a.dtype(), b.dtype());
    map(gpu, op.name(), key, &[&ae, &be], out, (ct, ct_out), &expr)
}

fn binary_expr(op: BinaryOp, ct: Ct) -> Option<String> {
    let float = ct == Ct::F32;
    Some(
        match op {
            BinaryOp::Add => "x0 + x1",
            BinaryOp::Sub => "x0 - x1",
            BinaryOp::Mul => "x0 * x1",
            BinaryOp::Div if float => "x0 / x1",
            // pow of a negative base with an integral exponent, like C's powf.
            BinaryOp::Pow if float => {
                "select(pow(abs(x0), x1) * select(1.0, -1.0, x0 < 0.0 && \
                 abs(x1 % 2.0) == 1.0), pow(x0, x1), x0 >= 0.0 || x1 != floor(x1))"
            }
            BinaryOp::Maximum => "max(x0, x1)",
            BinaryOp::Minimum => "min(x0, x1)",
            BinaryOp::Eq => "x0 == x1",
            BinaryOp::Ne => "x0 != x1",
            BinaryOp::Lt => "x0 < x1",
            BinaryOp::Le => "x0 <= x1",
            BinaryOp::Gt => "x0 > x1",
            BinaryOp::Ge => "x0 >= x1",
            BinaryOp::Atan2 if float => "atan2(x0, x1)",
            BinaryOp::Fmod if float => "x0 - x1 * trunc(x0 / x1)",
            _ => return None,
        }
        .to_string(),
    )
}

/// `out = op(t)` on the GPU.
pub(super) fn unary(gpu: &Gpu, plan: &UnaryPlan, t: &Tensor, out: &Tensor) -> Result<()> {
    let (op, od) = (plan.op, plan.out);
    // The predicates (`isnan`, `logical_not`, …) compute in another dtype than their result.
    let ct = compute_type(od).filter(|_| plan.compute == od);
    let expr = ct.and_then(|ct| unary_expr(op, ct));
    let (Some(ct), Some(expr)) = (ct, expr) else {
        return Err(unsupported(op.name(), t.device(), format!("{od} results")));
    };
    let key = format!("unary/{}/{}/{od}", op.name(), t.dtype());
    map(gpu, op.name(), key, &[t], out, (ct, ct), expr)
}

fn unary_expr(op: UnaryOp, ct: Ct) -> Option<&'static str> {
    let float = ct == Ct::F32;
    Some(match op {
        UnaryOp::Neg => "-x0",
        UnaryOp::Abs => "abs(x0)",
        UnaryOp::Relu if float => "select(0.0, x0, x0 > 0.0 || x0 != x0)",
        UnaryOp::Relu => "max(x0, 0)",
        UnaryOp::Exp if float => "exp(x0)",
        UnaryOp::Log if float => "log(x0)",
        UnaryOp::Sqrt if float => "sqrt(x0)",
        UnaryOp::Rsqrt if float => "inverseSqrt(x0)",
        UnaryOp::Sin if float => "sin(x0)",
        UnaryOp::Cos if float => "cos(x0)",
        UnaryOp::Tanh if float => "tanh(clamp(x0, -20.0, 20.0))",
        UnaryOp::Sigmoid if float => "1.0 / (1.0 + exp(-x0))",
        UnaryOp::Silu if float => "x0 / (1.0 + exp(-x0))",
        // WGSL's round is half to even, as numpy's.
        UnaryOp::Round if float => "round(x0)",
        UnaryOp::Floor if float => "floor(x0)",
        UnaryOp::Ceil if float => "ceil(x0)",
        UnaryOp::Trunc if float => "trunc(x0)",
        UnaryOp::Round | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc => "x0",
        UnaryOp::Sign if float => "select(sign(x0), x0, x0 != x0)",
        UnaryOp::Sign => "sign(x0)",
        UnaryOp::Log2 if float => "log2(x0)",
        UnaryOp::Exp2 if float => "exp2(x0)",
        UnaryOp::Tan if float => "tan(x0)",
        UnaryOp::Atan if float => "atan(x0)",
        // WGSL defines asin/acos by these atan2 forms; spelled out inside [-1, 1], because
        // some drivers' built-ins (lavapipe's) are off by ~4e-4 relative near |x| = 0.5 while
        // their atan2 is exact to a few ulp. Outside it (and for NaN) the built-in gives the
        // NaN of the domain error, which atan2 of a NaN need not (lavapipe returns -0).
        UnaryOp::Asin if float => {
            "select(asin(x0), atan2(x0, sqrt((1.0 - x0) * (1.0 + x0))), abs(x0) <= 1.0)"
        }
        UnaryOp::Acos if float => {
            "select(acos(x0), atan2(sqrt((1.0 - x0) * (1.0 + x0)), x0), abs(x0) <= 1.0)"
        }
        UnaryOp::Sinh if float => "sinh(x0)",
        UnaryOp::Cosh if float => "cosh(x0)",
        _ => return None,
    })
}

/// Matrix product on the GPU (`Float32` results; numpy's batching and 1-D rules).
pub(super) fn matmul(gpu: &Gpu, plan: &Plan) -> Result<Tensor> {
    let dev = plan.a.device();
    if plan.dtype != DType::Float32 {
        return Err(unsupported(
            "matmul",
            dev,
            format!("{} results (Float32 only)", plan.dtype),
        ));
    }
    let (m, k, n) = (plan.m, plan.k, plan.n);
    let ae = converted(gpu, &plan.expand(&plan.a, m, k)?, DType::Float32)?;
    let be = converted(gpu, &plan.expand(&plan.b, k, n)?, DType::Float32)?;
    let out = alloc(gpu, &plan.out_shape(), DType::Float32)?;
    let nb = plan.batch_count();
    if out.numel() > 0 {
        let meta = [
            u32_of("matmul", dev, m)?,
            u32_of("matmul", dev, n)?,
            u32_of("matmul", dev, k)?,
        ];
        let pipe = pipeline(gpu, "matmul/f32", || shaders::prelude(2) + shaders::MATMUL)?;
        let gx = u32_of("matmul", dev, n.div_ceil(16))?;
        let gy = u32_of("matmul", dev, m.div_ceil(16))?;
        let gz = u32_of("matmul", dev, nb)?;
        if gx > 65535 || gy > 65535 || gz > 65535 {
            return Err(unsupported("matmul", dev, "matrices or batches this large"));
        }
        launch(gpu, "matmul", &pipe, &meta, &out, &[&ae, &be], (gx, gy, gz))?;
    }
    Ok(out)
}
