//! Launching WGSL kernels: binding tensors' memory (whole storages, or windows over huge
//! ones), the pipeline cache, workgroup grids and recording dispatches in the open batch.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use wgpu::util::DeviceExt;

use super::transfer::words;
use super::Gpu;
use crate::backend::unsupported;
use crate::error::{Error, Result};
use crate::{Device, Tensor};

/// A tensor's memory as a binding: the buffer, the byte range bound, the element offset.
pub(super) struct Binding {
    pub(super) buffer: wgpu::Buffer,
    pub(super) offset: u64,
    pub(super) size: u64,
}

/// Binds `t`'s whole storage (offsets in `meta` are relative to the storage start).
pub(super) fn bind(gpu: &Gpu, op: &str, t: &Tensor) -> Result<Binding> {
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
pub(super) fn bind_window(gpu: &Gpu, t: &Tensor, n: usize) -> Result<Option<(Binding, u32)>> {
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
pub(super) fn pipeline(
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
pub(super) fn grid(groups: usize) -> Result<(u32, u32)> {
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
pub(super) fn launch(
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
pub(super) fn launch_bound(
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
pub(super) fn u32_of(op: &str, device: Device, v: usize) -> Result<u32> {
    u32::try_from(v).map_err(|_| unsupported(op, device, "more than 2^32 elements"))
}
