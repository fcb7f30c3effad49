//! Host ↔ device moves. On a unified-memory device with host import, a move to the device
//! aliases the host pages and a move back returns the host view (`import`). Otherwise
//! uploads go through a staging buffer mapped at creation and a buffer-to-buffer copy
//! recorded in the open batch, so they stay ordered with kernels — except a source pinned
//! for the device, which the GPU copies straight from the caller's imported pages;
//! read-backs copy into a mappable buffer, submit, wait and map.

use std::sync::mpsc;

use super::{import, Gpu};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::storage::{Owner, Storage};
use crate::{memory, Device, Tensor};

/// wgpu copies move whole 4-byte words.
pub(super) fn words(nbytes: usize) -> u64 {
    (nbytes as u64).next_multiple_of(4)
}

/// A new device tensor with contiguous `shape`, unspecified contents.
pub(crate) fn alloc(gpu: &Gpu, shape: &[usize], dtype: crate::DType) -> Result<Tensor> {
    let layout = Layout::contiguous(shape, dtype.size())?;
    let nbytes = layout.numel() * dtype.size();
    let block = memory::allocate(gpu.queue.device, nbytes, false)?;
    let ptr = block.as_ptr();
    // SAFETY: the pointer is a synthetic device address: the storage's `Pool` owner keeps
    // the block, and device tensors are never read or written through the pointer (host
    // reads go through `download`).
    let storage = unsafe {
        Storage::from_raw_parts(
            ptr,
            nbytes,
            gpu.queue.device,
            Owner::Pool(block),
            None,
            true,
        )
    };
    Ok(Tensor::from_parts(storage, layout, dtype))
}

/// Host tensor `src` on the device: the same pages on a unified-memory device that can
/// import them, otherwise a copy into a fresh contiguous device tensor.
pub(super) fn upload(gpu: &Gpu, src: &Tensor) -> Result<Tensor> {
    if gpu.import.as_ref().is_some_and(|i| i.aliases) {
        if let Some(t) = import::alias(gpu, src) {
            return Ok(t);
        }
    }
    upload_copy(gpu, src)
}

/// Copies host tensor `src` into a fresh contiguous device tensor.
pub(super) fn upload_copy(gpu: &Gpu, src: &Tensor) -> Result<Tensor> {
    let pinned = src.storage().pinned_for() == Some(gpu.queue.device);
    let src = if src.is_contiguous() {
        src.clone()
    } else {
        src.contiguous()?
    };
    let out = alloc(gpu, src.shape(), src.dtype())?;
    let nbytes = src.numel() * src.dtype().size();
    if nbytes == 0 {
        return Ok(out);
    }
    if pinned {
        if let Some(done) = copy_imported(gpu, &src, &out, nbytes)? {
            return Ok(done);
        }
    }
    // SAFETY: `src` is a contiguous host tensor: its `nbytes` bytes from `data_ptr` are in
    // bounds (L3) and initialised, and no runtime op writes them while we read.
    let bytes = unsafe { std::slice::from_raw_parts(src.const_data_ptr(), nbytes) };
    let (dst, offset) = gpu.queue.resolve(out.storage().as_ptr() as usize)?;
    let size = words(nbytes);
    let usage = wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC;
    let staging = staging(gpu, "clika-rt upload", size, usage, true)?;
    {
        let mut view = staging
            .get_mapped_range_mut(..)
            .map_err(|e| internal(format!("mapping the upload buffer: {e}")))?;
        let mut slice = view.slice(..nbytes);
        slice.copy_from_slice(bytes);
    }
    staging.unmap();
    // A source the caller pinned for this device takes the asynchronous path: it is held
    // until the copy's batch completes, so an adopted source's deleter cannot run early.
    let keep = pinned.then(|| src.storage().clone());
    gpu.queue.record(keep, |enc| {
        enc.copy_buffer_to_buffer(&staging, 0, &dst, offset, size);
    });
    Ok(out)
}

/// A source pinned for the device, copied by the GPU straight from its imported pages into
/// `out` (no staging buffer); the import is held until the copy completes. `None` where the
/// pages cannot be imported or the copy cannot start at a whole word.
fn copy_imported(gpu: &Gpu, src: &Tensor, out: &Tensor, nbytes: usize) -> Result<Option<Tensor>> {
    let Some(imported) = import::alias(gpu, src) else {
        return Ok(None);
    };
    let (buffer, first) = gpu.queue.resolve(imported.storage().as_ptr() as usize)?;
    let from = first + (imported.storage_offset() * src.dtype().size()) as u64;
    let (dst, offset) = gpu.queue.resolve(out.storage().as_ptr() as usize)?;
    let keep = imported.storage().clone();
    gpu.queue.record(Some(keep), |enc| {
        enc.copy_buffer_to_buffer(&buffer, from, &dst, offset, words(nbytes));
    });
    Ok(Some(out.clone()))
}

/// Device tensor `src` on the host: the host view for a tensor over imported host memory
/// (once queued work is done), otherwise a read-back into a fresh contiguous host tensor.
pub(super) fn download(gpu: &Gpu, src: &Tensor) -> Result<Tensor> {
    if let Some(view) = import::host_view(gpu, src) {
        return view;
    }
    read_back(gpu, src)
}

/// Reads device tensor `src` back into a fresh contiguous host tensor.
pub(super) fn read_back(gpu: &Gpu, src: &Tensor) -> Result<Tensor> {
    let itemsize = src.dtype().size();
    let Some((lo, hi)) = src.layout().element_range() else {
        return Tensor::alloc(src.shape(), src.dtype(), Device::cpu(), false);
    };
    // The span of storage the view reaches, rounded out to whole words.
    let first = (lo * itemsize) as u64 / 4 * 4;
    let end = words((hi + 1) * itemsize);
    let (buffer, base) = gpu.queue.resolve(src.storage().as_ptr() as usize)?;
    let size = end - first;
    let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
    let read = staging(gpu, "clika-rt read-back", size, usage, false)?;
    gpu.queue.record(None, |enc| {
        enc.copy_buffer_to_buffer(&buffer, base + first, &read, 0, size);
    });
    gpu.queue.synchronize()?;
    let (tx, rx) = mpsc::channel();
    read.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    let _ = gpu.queue.wdev.poll(wgpu::PollType::wait_indefinitely());
    rx.recv()
        .map_err(|_| internal("the read-back mapping was dropped".into()))?
        .map_err(|e| internal(format!("mapping the read-back buffer: {e}")))?;
    let span = Tensor::alloc(&[size as usize], crate::DType::UInt8, Device::cpu(), false)?;
    {
        let view = read
            .get_mapped_range(..)
            .map_err(|e| internal(format!("reading the read-back buffer: {e}")))?;
        // SAFETY: `span` is a fresh, exclusively owned host tensor of `size` bytes, and
        // `view` is `size` bytes long.
        unsafe { std::ptr::copy_nonoverlapping(view.as_ptr(), span.data_ptr(), size as usize) };
    }
    read.unmap();
    // The view's layout, shifted to the start of the copied span.
    let shift = (first as usize) / itemsize;
    let layout = src.layout().with_offset(src.storage_offset() - shift);
    let storage = span.storage().clone();
    let host = Tensor::from_storage(storage, layout, src.dtype())?;
    if host.is_contiguous() && host.storage_offset() == 0 {
        Ok(host)
    } else {
        host.contiguous()
    }
}

fn internal(message: String) -> Error {
    Error::Internal { message }
}

/// A mappable staging buffer; failure to create one is reported as out of device memory.
fn staging(
    gpu: &Gpu,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
    mapped_at_creation: bool,
) -> Result<wgpu::Buffer> {
    let made = gpu.queue.checked(|| {
        gpu.queue.wdev.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation,
        })
    });
    made.map_err(|why| {
        log::debug!("clika-rt: {label} buffer of {size} bytes failed: {why}");
        let s = gpu.pool.stats();
        Error::OutOfMemory {
            device: gpu.queue.device,
            requested: size as usize,
            limit: s.limit_bytes,
            active: s.active_bytes,
            cached: s.cached_bytes,
            largest_free: s.largest_free_block,
        }
    })
}
