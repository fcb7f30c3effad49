//! Reductions on the GPU: one workgroup per output (or per slice of a long reduction, whose
//! partials are reduced again), and huge contiguous operands reduced chunk by chunk.

use super::kernels::binary;
use super::launch::{bind, bind_window, grid, launch, launch_bound, pipeline, u32_of};
use super::shaders::{self, compute_type, Ct};
use super::transfer::{alloc, words};
use super::Gpu;
use crate::backend::unsupported;
use crate::error::Result;
use crate::ops::{BinaryOp, BinaryPlan, ReduceOp, ReducePlan};
use crate::{DType, Tensor};

/// The primitive reduction `plan` of `t` on the GPU (sum, mean, max, min).
pub(super) fn reduce(gpu: &Gpu, plan: &ReducePlan, t: &Tensor) -> Result<Tensor> {
    let (kind, od) = (plan.op, plan.out_dtype);
    let name = kind.name();
    let supported = matches!(
        kind,
        ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Max | ReduceOp::Min
    );
    let ct = compute_type(od)
        .filter(|&c| c != Ct::Bool && od.size() == 4 && compute_type(t.dtype()).is_some())
        .filter(|_| supported);
    let Some(ct) = ct else {
        return Err(unsupported(
            name,
            t.device(),
            format!("{} input ({od} result)", t.dtype()),
        ));
    };
    let pick = |reduced: bool| -> (Vec<usize>, Vec<isize>) {
        plan.dims(reduced)
            .map(|d| (t.shape()[d], t.strides()[d]))
            .unzip()
    };
    let (ks, kst) = pick(false);
    let (rs, rst) = pick(true);
    let out_shape = &plan.out_shape[..];
    let n_red = plan.count;
    let n_out: usize = ks.iter().product();
    if n_out == 0 {
        return alloc(gpu, out_shape, od);
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
        return reduce_chunks(gpu, kind, t, (od, out_shape), ct, slice_len);
    }
    if n_slices == 1 {
        let out = alloc(gpu, out_shape, od)?;
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
    finish_partials(gpu, kind, &parts, n_red, out_shape)
}

/// The reduction that combines partial results of `kind` (a mean's partials are sums).
fn partial_kind(kind: ReduceOp) -> ReduceOp {
    if kind == ReduceOp::Mean {
        ReduceOp::Sum
    } else {
        kind
    }
}

/// Reduces `parts` (`[n_out, n_slices]` partials of `kind`) along its last dim to the result
/// of shape `shape`: a mean divides the sum by the `n_red` elements reduced.
fn finish_partials(
    gpu: &Gpu,
    kind: ReduceOp,
    parts: &Tensor,
    n_red: usize,
    shape: &[usize],
) -> Result<Tensor> {
    let plan = ReducePlan::new(partial_kind(kind), parts, Some(&[-1]), false)?;
    let total = reduce(gpu, &plan, parts)?;
    let total = if kind == ReduceOp::Mean {
        let count = Tensor::full(&[], n_red as f64, parts.dtype())?.to(gpu.queue.device)?;
        let plan = BinaryPlan::new(BinaryOp::Div, &total, &count)?;
        let mean = alloc(gpu, &plan.shape, plan.out)?;
        binary(gpu, &plan, &total, &count, &mean)?;
        mean
    } else {
        total
    };
    let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    total.reshape(&shape)
}

/// The reduction kernel for `kind` over `input` elements, producing `od` (compute type `ct`).
fn reduce_pipeline(
    gpu: &Gpu,
    kind: ReduceOp,
    input: DType,
    od: DType,
    ct: Ct,
) -> Result<wgpu::ComputePipeline> {
    let float = ct == Ct::F32;
    let (init, combine) = match (kind, float) {
        (ReduceOp::Max, true) => ("bitcast<f32>(0xff800000u)", "select(max(a, b), a, a != a)"),
        (ReduceOp::Max, false) => ("-2147483647 - 1", "max(a, b)"),
        (ReduceOp::Min, true) => ("bitcast<f32>(0x7f800000u)", "select(min(a, b), a, a != a)"),
        (ReduceOp::Min, false) => ("2147483647", "min(a, b)"),
        // Sum and mean (the only others `reduce` lets through).
        (_, true) => ("0.0", "a + b"),
        (_, false) => ("0", "a + b"),
    };
    let finish = match kind {
        ReduceOp::Mean => format!("v / {}", if float { "f32(n_red)" } else { "i32(n_red)" }),
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
    kind: ReduceOp,
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
    finish_partials(gpu, kind, &parts, numel, shape)
}
