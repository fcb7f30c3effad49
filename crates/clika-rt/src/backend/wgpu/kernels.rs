//! The op entry points on a GPU: operands are resolved to (buffer, offset) bindings, a
//! kernel is generated and compiled once per (op, dtypes), and its dispatch is recorded in
//! the open batch. Ops or dtypes without a kernel fail with `UnsupportedOnDevice`, which
//! names the CPU fallback.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use wgpu::util::DeviceExt;

use super::shaders::{self, compute_type, Ct};
use super::transfer::{alloc, words};
use super::{context, Gpu};
use crate::backend::Reduction;
use crate::error::{Error, Result};
use crate::layout::{normalize_dim, DimVec};
use crate::ops::matmul::Plan;
use crate::ops::{broadcast_shapes, result_type, BinaryOp, UnaryOp};
use crate::{DType, Device, Tensor};

fn unsupported(op: &str, device: Device, what: impl Into<String>) -> Error {
    Error::UnsupportedOnDevice {
        op: op.to_string(),
        device,
        what: what.into(),
    }
}

/// A tensor's memory as a binding: the buffer, the byte range bound, the element offset.
struct Binding {
    buffer: wgpu::Buffer,
    offset: u64,
    size: u64,
}

/// Binds `t`'s whole storage (offsets in `meta` are relative to the storage start).
fn bind(gpu: &Gpu, op: &str, t: &Tensor) -> Result<Binding> {
    let (buffer, offset) = gpu.queue.resolve(t.storage().as_ptr() as usize)?;
    let size = words(t.storage().nbytes()).max(4);
    let limit = gpu.queue.wdev.limits().max_storage_buffer_binding_size;
    if size > limit {
        return Err(unsupported(
            op,
            t.device(),
            format!(
                "tensors over {} MiB here (one storage binding's limit) except in elementwise \
                 operations on contiguous operands, which run in chunks",
                limit >> 20
            ),
        ));
    }
    Ok(Binding {
        buffer,
        offset,
        size,
    })
}

/// Binds the `n` elements of the contiguous `t` from its first element, in a window that
/// starts at the binding-offset alignment at or before them: the binding and the element
/// offset of `t`'s first element within it. `None` when the window would exceed the binding
/// limit or the alignment does not divide into elements.
fn bind_window(gpu: &Gpu, t: &Tensor, n: usize) -> Result<Option<(Binding, u32)>> {
    let size = t.dtype().size() as u64;
    let limits = gpu.queue.wdev.limits();
    let align = u64::from(limits.min_storage_buffer_offset_alignment).max(4);
    if align % size != 0 {
        return Ok(None);
    }
    let (buffer, base) = gpu.queue.resolve(t.storage().as_ptr() as usize)?;
    let first = base + t.storage_offset() as u64 * size;
    let start = first - first % align;
    let len = words((first - start + n as u64 * size) as usize).max(4);
    if len > limits.max_storage_buffer_binding_size {
        return Ok(None);
    }
    let skip = u32::try_from((first - start) / size).unwrap_or(u32::MAX);
    Ok(Some((
        Binding {
            buffer,
            offset: start,
            size: len,
        },
        skip,
    )))
}

/// The compiled pipeline for `key`, generating its source on first use.
fn pipeline(
    gpu: &Gpu,
    key: &str,
    source: impl FnOnce() -> String,
) -> Result<wgpu::ComputePipeline> {
    type Cache = Mutex<HashMap<(u32, String), wgpu::ComputePipeline>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let id = (gpu.queue.device.ordinal(), key.to_string());
    if let Some(p) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return Ok(p.clone());
    }
    let src = source();
    let wdev = &gpu.queue.wdev;
    let p = gpu
        .queue
        .checked(|| {
            let module = wdev.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(key),
                source: wgpu::ShaderSource::Wgsl(src.as_str().into()),
            });
            wdev.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(key),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            })
        })
        .map_err(|e| Error::Internal {
            message: format!("compiling GPU kernel {key}: {e}"),
        })?;
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, p.clone());
    Ok(p)
}

/// Splits `groups` workgroups over x and y (each at most 65535).
fn grid(groups: usize) -> Result<(u32, u32)> {
    const MAX: usize = 65535;
    let x = groups.clamp(1, MAX);
    let y = groups.div_ceil(x);
    if y > MAX {
        return Err(Error::Internal {
            message: format!("{groups} workgroups exceed one dispatch"),
        });
    }
    Ok((x as u32, y as u32))
}

/// Records one dispatch of `pipeline` over `groups` (x, y, z) with `meta`, output `out` and
/// `inputs` bound in order.
fn launch(
    gpu: &Gpu,
    op: &str,
    pipeline: &wgpu::ComputePipeline,
    meta: &[u32],
    out: &Tensor,
    inputs: &[&Tensor],
    groups: (u32, u32, u32),
) -> Result<()> {
    let mut bindings = vec![bind(gpu, op, out)?];
    for t in inputs {
        bindings.push(bind(gpu, op, t)?);
    }
    launch_bound(gpu, pipeline, meta, &bindings, groups)
}

/// [`launch`] with the output and inputs already bound (in that order).
fn launch_bound(
    gpu: &Gpu,
    pipeline: &wgpu::ComputePipeline,
    meta: &[u32],
    bindings: &[Binding],
    groups: (u32, u32, u32),
) -> Result<()> {
    let meta_buf = gpu
        .queue
        .wdev
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("clika-rt meta"),
            contents: bytemuck::cast_slice(meta),
            usage: wgpu::BufferUsages::STORAGE,
        });
    let mut entries = vec![wgpu::BindGroupEntry {
        binding: 0,
        resource: meta_buf.as_entire_binding(),
    }];
    for (i, b) in bindings.iter().enumerate() {
        entries.push(wgpu::BindGroupEntry {
            binding: i as u32 + 1,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &b.buffer,
                offset: b.offset,
                size: std::num::NonZeroU64::new(b.size),
            }),
        });
    }
    let layout = pipeline.get_bind_group_layout(0);
    let group = gpu
        .queue
        .wdev
        .create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &entries,
        });
    gpu.queue.record(None, |enc| {
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(groups.0, groups.1, groups.2);
    });
    Ok(())
}

/// Values that must fit the kernels' 32-bit index arithmetic.
fn u32_of(op: &str, device: Device, v: usize) -> Result<u32> {
    u32::try_from(v).map_err(|_| unsupported(op, device, "more than 2^32 elements"))
}

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

/// Runs an elementwise kernel: `out[i] = expr(load0(in0[i]), …)` into a fresh tensor of
/// `shape` and dtype `od`; `key` names the (op, dtypes) for the pipeline cache.
fn map(
    op: &str,
    key: String,
    inputs: &[&Tensor],
    shape: &[usize],
    od: DType,
    (ct_in, ct_out): (Ct, Ct),
    expr: &str,
) -> Result<Tensor> {
    let device = inputs[0].device();
    let gpu = context(device)?;
    let out = alloc(gpu, shape, od)?;
    let numel = out.numel();
    if numel == 0 {
        return Ok(out);
    }
    let meta = map_meta(op, shape, inputs)?;
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
    if chunkable && (too_big(&out) || inputs.iter().any(|t| too_big(t))) {
        return map_chunks(gpu, op, &pipe, inputs, out);
    }
    let words = numel.div_ceil(4 / od.size());
    let (x, y) = grid(words.div_ceil(256))?;
    launch(gpu, op, &pipe, &meta, &out, inputs, (x, y, 1))?;
    Ok(out)
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
    out: Tensor,
) -> Result<Tensor> {
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
        if skip != 0 {
            return Err(refuse()); // the kernel writes from word 0 of the output binding
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
        let (x, y) = grid(n.div_ceil(per_word).div_ceil(256))?;
        launch_bound(gpu, pipe, &meta, &bindings, (x, y, 1))?;
        e0 += n;
    }
    Ok(out)
}

/// A contiguous copy of `t` converted to `dtype` (`contiguous` when the dtypes match).
pub(crate) fn convert(t: &Tensor, dtype: DType) -> Result<Tensor> {
    let op = "contiguous/to_dtype";
    if t.dtype() == dtype {
        if dtype.size() == 8 {
            return gather64(t);
        }
        let key = format!("copy/{dtype}");
        return map(op, key, &[t], t.shape(), dtype, (Ct::Raw, Ct::Raw), "x0");
    }
    let (Some(a), Some(b)) = (compute_type(t.dtype()), compute_type(dtype)) else {
        return Err(unsupported(
            "to_dtype",
            t.device(),
            format!(
                "{} -> {dtype} (no 64-bit conversions on this device)",
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
    map(op, key, &[t], t.shape(), dtype, (ct, ct), "x0")
}

/// Contiguous copy of an 8-byte-element tensor.
fn gather64(t: &Tensor) -> Result<Tensor> {
    let gpu = context(t.device())?;
    let out = alloc(gpu, t.shape(), t.dtype())?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let meta = map_meta("contiguous", t.shape(), &[t])?;
    let pipe = pipeline(gpu, "gather64", || shaders::prelude(1) + shaders::GATHER64)?;
    let (x, y) = grid(out.numel().div_ceil(256))?;
    launch(gpu, "contiguous", &pipe, &meta, &out, &[t], (x, y, 1))?;
    Ok(out)
}

/// `t` on `device` when it is a 0-d host tensor (a scalar operand), else `t`.
fn scalar_to(t: &Tensor, device: Device) -> Result<Tensor> {
    if t.device() != device && t.device().is_cpu() && t.ndim() == 0 {
        t.to(device)
    } else {
        Ok(t.clone())
    }
}

/// `op(a, b)` on the GPU, with broadcasting and strided operands. A 0-d host operand is
/// moved over (a scalar); other mixed devices are refused with the fix.
pub(crate) fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let device = if a.device().is_cpu() {
        b.device()
    } else {
        a.device()
    };
    let (a, b) = (scalar_to(a, device)?, scalar_to(b, device)?);
    if a.device() != b.device() {
        return Err(Error::DeviceMismatch {
            op: op.name(),
            expected: a.device(),
            got: b.device(),
        });
    }
    let (cd, od) = op.dtypes(a.dtype(), b.dtype())?;
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    let ct = compute_type(cd).filter(|_| compute_type(od).is_some());
    let expr = ct.and_then(|ct| binary_expr(op, ct));
    let (Some(ct), Some(expr)) = (ct, expr) else {
        return Err(unsupported(op.name(), device, format!("{cd} operands")));
    };
    let sizes: DimVec<isize> = shape.iter().map(|&d| d as isize).collect();
    let (ae, be) = (a.expand(&sizes)?, b.expand(&sizes)?);
    let ct_out = if op.is_comparison() { Ct::Bool } else { ct };
    let key = format!("binary/{}/{}/{}/{od}", op.name(), a.dtype(), b.dtype());
    map(op.name(), key, &[&ae, &be], &shape, od, (ct, ct_out), &expr)
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
            _ => return None,
        }
        .to_string(),
    )
}

/// `op(t)` on the GPU.
pub(crate) fn unary(op: UnaryOp, t: &Tensor) -> Result<Tensor> {
    let od = op.out_dtype(t.dtype())?;
    let ct = compute_type(od);
    let expr = ct.and_then(|ct| unary_expr(op, ct));
    let (Some(ct), Some(expr)) = (ct, expr) else {
        return Err(unsupported(op.name(), t.device(), format!("{od} results")));
    };
    let key = format!("unary/{}/{}/{od}", op.name(), t.dtype());
    map(op.name(), key, &[t], t.shape(), od, (ct, ct), expr)
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
        _ => return None,
    })
}

/// A reduction over `dims` (all when `None`) on the GPU.
pub(crate) fn reduce(
    kind: Reduction,
    t: &Tensor,
    dims: Option<&[isize]>,
    keepdim: bool,
    od: DType,
) -> Result<Tensor> {
    let name = kind.name();
    let ct = compute_type(od)
        .filter(|&c| c != Ct::Bool && od.size() == 4 && compute_type(t.dtype()).is_some());
    let Some(ct) = ct else {
        return Err(unsupported(
            name,
            t.device(),
            format!("{} input ({od} result)", t.dtype()),
        ));
    };
    let nd = t.ndim();
    let mut reduced = vec![dims.is_none(); nd];
    for &d in dims.unwrap_or(&[]) {
        if nd == 0 {
            normalize_dim(d, 1)?;
            continue;
        }
        let d = normalize_dim(d, nd)?;
        if std::mem::replace(&mut reduced[d], true) {
            return Err(Error::DuplicateDim {
                dim: d,
                dims: dims.unwrap_or(&[]).iter().map(|&v| v as i64).collect(),
            });
        }
    }
    let pick = |want: bool| -> (Vec<usize>, Vec<isize>) {
        (0..nd)
            .filter(|&d| reduced[d] == want)
            .map(|d| (t.shape()[d], t.strides()[d]))
            .unzip()
    };
    let (ks, kst) = pick(false);
    let (rs, rst) = pick(true);
    let out_shape: Vec<usize> = if keepdim {
        (0..nd)
            .map(|d| if reduced[d] { 1 } else { t.shape()[d] })
            .collect()
    } else {
        ks.clone()
    };
    let n_red: usize = rs.iter().product();
    let n_out: usize = ks.iter().product();
    if n_red == 0 && matches!(kind, Reduction::Max | Reduction::Min) && n_out > 0 {
        return Err(Error::EmptyReduction { op: name });
    }
    let gpu = context(t.device())?;
    if n_out == 0 {
        return alloc(gpu, &out_shape, od);
    }
    let dev = t.device();
    // Elements one workgroup reduces: each of its 64 threads then runs at most ~16 Ki loop
    // iterations (index arithmetic included), inside lavapipe's per-invocation loop budget.
    let slice_len = (64 * 16384 / (rs.len() + 1)).max(64);
    let n_slices = n_red.div_ceil(slice_len).max(1);
    let mut meta = vec![
        u32_of(name, dev, n_out)?,
        u32_of(name, dev, n_red)?,
        ks.len() as u32,
        rs.len() as u32,
        u32_of(name, dev, t.storage_offset())?,
        u32_of(name, dev, n_slices)?,
        u32_of(name, dev, slice_len)?,
        0,
    ];
    for (shape, strides) in [(&ks, &kst), (&rs, &rst)] {
        for &d in shape {
            meta.push(u32_of(name, dev, d)?);
        }
        for &s in strides {
            meta.push(
                i32::try_from(s).map_err(|_| unsupported(name, dev, "strides over 2^31"))? as u32,
            );
        }
    }
    let limit = gpu.queue.wdev.limits().max_storage_buffer_binding_size;
    if n_out == 1 && t.is_contiguous() && words(t.storage().nbytes()) > limit {
        return reduce_chunks(gpu, kind, t, (od, &out_shape), ct, slice_len);
    }
    if n_slices == 1 {
        let out = alloc(gpu, &out_shape, od)?;
        let pipe = reduce_pipeline(gpu, kind, t.dtype(), od, ct)?;
        let (x, y) = grid(n_out)?;
        launch(gpu, name, &pipe, &meta, &out, &[t], (x, y, 1))?;
        return Ok(out);
    }
    // Two passes: partials [n_out, n_slices], then their reduction along the last dim.
    let part_kind = partial_kind(kind);
    let parts = alloc(gpu, &[n_out, n_slices], od)?;
    let pipe = reduce_pipeline(gpu, part_kind, t.dtype(), od, ct)?;
    let (x, y) = grid(n_out * n_slices)?;
    launch(gpu, name, &pipe, &meta, &parts, &[t], (x, y, 1))?;
    finish_partials(kind, &parts, n_red, &out_shape)
}

/// The reduction that combines partial results of `kind` (a mean's partials are sums).
fn partial_kind(kind: Reduction) -> Reduction {
    if kind == Reduction::Mean {
        Reduction::Sum
    } else {
        kind
    }
}

/// Reduces `parts` (`[n_out, n_slices]` partials of `kind`) along its last dim to the result
/// of shape `shape`: a mean divides the sum by the `n_red` elements reduced.
fn finish_partials(
    kind: Reduction,
    parts: &Tensor,
    n_red: usize,
    shape: &[usize],
) -> Result<Tensor> {
    let od = parts.dtype();
    let total = reduce(partial_kind(kind), parts, Some(&[-1]), false, od)?;
    let total = if kind == Reduction::Mean {
        let count = Tensor::full(&[], n_red as f64, od)?;
        crate::ops::binary(BinaryOp::Div, &total, &count)?
    } else {
        total
    };
    let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    total.reshape(&shape)
}

/// The reduction kernel for `kind` over `input` elements, producing `od` (compute type `ct`).
fn reduce_pipeline(
    gpu: &Gpu,
    kind: Reduction,
    input: DType,
    od: DType,
    ct: Ct,
) -> Result<wgpu::ComputePipeline> {
    let float = ct == Ct::F32;
    let (init, combine) = match (kind, float) {
        (Reduction::Sum | Reduction::Mean, true) => ("0.0", "a + b"),
        (Reduction::Sum | Reduction::Mean, false) => ("0", "a + b"),
        (Reduction::Max, true) => ("bitcast<f32>(0xff800000u)", "select(max(a, b), a, a != a)"),
        (Reduction::Max, false) => ("-2147483647 - 1", "max(a, b)"),
        (Reduction::Min, true) => ("bitcast<f32>(0x7f800000u)", "select(min(a, b), a, a != a)"),
        (Reduction::Min, false) => ("2147483647", "min(a, b)"),
    };
    let finish = match kind {
        Reduction::Mean => format!("v / {}", if float { "f32(n_red)" } else { "i32(n_red)" }),
        _ => "v".to_string(),
    };
    let key = format!("reduce/{}/{input}/{od}", kind.name());
    pipeline(gpu, &key, || {
        let loads =
            shaders::prelude(1) + &shaders::load_fn(0, input, ct) + &shaders::store_fn(od, ct);
        shaders::reduce_kernel(&loads, ct, init, combine, &finish)
    })
}

/// A reduction of every element of the contiguous `t`, larger than one storage binding:
/// each chunk, bound through its own window, is reduced in slices into its part of one
/// partials tensor, which is then reduced.
fn reduce_chunks(
    gpu: &Gpu,
    kind: Reduction,
    t: &Tensor,
    (od, shape): (DType, &[usize]),
    ct: Ct,
    slice_len: usize,
) -> Result<Tensor> {
    let (name, dev) = (kind.name(), t.device());
    let limits = gpu.queue.wdev.limits();
    let align = u64::from(limits.min_storage_buffer_offset_alignment).max(4);
    let size = t.dtype().size() as u64;
    let chunk = ((limits.max_storage_buffer_binding_size - align) / size).min(1 << 30) as usize;
    let chunk = chunk / slice_len * slice_len;
    if chunk == 0 {
        return Err(unsupported(name, dev, "this operand in chunks"));
    }
    let refuse = || unsupported(name, dev, "this operand layout in chunks");
    let part_kind = partial_kind(kind);
    let pipe = reduce_pipeline(gpu, part_kind, t.dtype(), od, ct)?;
    let flat = t.reshape(&[-1])?;
    let numel = flat.numel();
    let per_chunk = chunk / slice_len;
    let parts = alloc(gpu, &[1, numel.div_ceil(slice_len)], od)?;
    for (c, e0) in (0..numel).step_by(chunk).enumerate() {
        let n = chunk.min(numel - e0);
        let view = flat.narrow(0, e0 as isize, n)?;
        let (b, skip) = bind_window(gpu, &view, n)?.ok_or_else(refuse)?;
        let slices = n.div_ceil(slice_len);
        let (n32, s32) = (u32_of(name, dev, n)?, u32_of(name, dev, slices)?);
        let base = u32_of(name, dev, c * per_chunk)?;
        // One output; no kept dims; one reduced dim of `n` elements at stride 1; the
        // chunk's slices land at `base` in the partials.
        let meta = [1, n32, 0, 1, skip, s32, slice_len as u32, base, n32, 1];
        let (x, y) = grid(slices)?;
        launch_bound(gpu, &pipe, &meta, &[bind(gpu, name, &parts)?, b], (x, y, 1))?;
    }
    finish_partials(kind, &parts, numel, shape)
}

/// Matrix product on the GPU (`Float32` results; numpy's batching and 1-D rules).
pub(crate) fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let dev = a.device();
    if a.device() != b.device() {
        return Err(Error::DeviceMismatch {
            op: "matmul",
            expected: a.device(),
            got: b.device(),
        });
    }
    let dtype = result_type(a.dtype(), b.dtype());
    if dtype != DType::Float32 {
        return Err(unsupported(
            "matmul",
            dev,
            format!("{dtype} results (Float32 only)"),
        ));
    }
    let plan = Plan::new(a, b)?;
    let (m, k, n) = (plan.m, plan.k, plan.n);
    let ae = convert(&plan.expand(&plan.a, m, k)?, DType::Float32)?;
    let be = convert(&plan.expand(&plan.b, k, n)?, DType::Float32)?;
    let gpu = context(dev)?;
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
    plan.squeeze(out)
}
