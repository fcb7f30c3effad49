//! Host ↔ device copies on the device's stream.
//!
//! Host → device is `cuMemcpyHtoDAsync`. From pageable memory of at least 1 MiB the bytes
//! are staged through two pinned 8 MiB buffers of the device's pinned pool, filled by the
//! runtime's threads while the copy engine reads the other (`staged_upload`); smaller ones
//! (or when no pinned memory can be had) go through the driver, which stages them itself.
//! Either way the call returns once the source has been read, so the source may go right
//! after. From memory the caller pinned for this device (`pinned_for`, checked with the
//! driver), the copy is a true DMA that runs after the call returns: the source's storage is
//! kept alive until the copy's event completes, so an adopted source's deleter cannot run
//! early. Device → host copies the span the view
//! reaches into a fresh host tensor and waits for the stream.

use super::driver::{failed, Cuda};
use crate::error::Result;
use crate::{Device, Tensor};

/// Copies host tensor `src` into a fresh contiguous device tensor.
pub(super) fn upload(cuda: &Cuda, src: &Tensor) -> Result<Tensor> {
    let device = cuda.stream.device;
    cuda.stream.bind()?;
    // A `pinned_for` tag is the caller's word; the driver confirms it (memory it does not
    // know as page-locked is copied as pageable, which is always safe).
    let pinned = src.storage().pinned_for() == Some(device)
        && src.is_contiguous()
        && super::interop::is_page_locked(src.const_data_ptr() as usize);
    let src = if src.is_contiguous() {
        src.clone()
    } else {
        src.contiguous()?
    };
    let out = Tensor::alloc(src.shape(), src.dtype(), device, false)?;
    let nbytes = src.numel() * src.dtype().size();
    if nbytes == 0 {
        return Ok(out);
    }
    cuda.stream.bind()?;
    let dst = out.storage().as_ptr() as usize as u64;
    // SAFETY: `src` is a contiguous host tensor: its `nbytes` bytes from `const_data_ptr`
    // are in bounds (L3) and initialised; `dst` is a fresh device block of `nbytes` bytes.
    // From pageable memory the call returns after reading the source; from pinned memory
    // the source is kept alive below until the copy completes.
    let bytes = unsafe { std::slice::from_raw_parts(src.const_data_ptr(), nbytes) };
    if !pinned && nbytes >= STAGE_MIN && staged_upload(cuda, bytes, dst)? {
        return Ok(out);
    }
    // SAFETY: see above; the destination is ours alone.
    unsafe { cudarc::driver::result::memcpy_htod_async(dst, bytes, cuda.stream.raw) }
        .map_err(|e| failed("cuMemcpyHtoDAsync", e))?;
    cuda.stream.note_work();
    if pinned {
        cuda.stream.keep_until_done(src.storage().clone())?;
    }
    Ok(out)
}

/// Pageable uploads of at least this many bytes are staged through pinned buffers.
const STAGE_MIN: usize = 1 << 20;
/// Bytes per staging buffer. Two alternate: the CPU fills one (with the runtime's threads)
/// while the copy engine reads the other.
const STAGE_CHUNK: usize = 8 << 20;

/// Copies pageable `bytes` to device address `dst` through two pinned buffers from the
/// device's pinned pool, so the CPU's copies and the DMA overlap; `Ok(false)` (nothing done)
/// when the pool cannot lend the buffers. Returns once every byte of `bytes` was read; the
/// last DMAs may still run, and the buffers go back to the pool, whose frees wait for the
/// stream.
fn staged_upload(cuda: &Cuda, bytes: &[u8], dst: u64) -> Result<bool> {
    use crate::memory::Event;
    use rayon::prelude::*;
    let chunk = STAGE_CHUNK.min(bytes.len());
    let (Ok(a), Ok(b)) = (
        cuda.pinned.allocate(chunk, false),
        cuda.pinned.allocate(chunk, false),
    ) else {
        return Ok(false);
    };
    let bufs = [a, b];
    let mut in_flight: [Option<std::sync::Arc<super::driver::CudaEvent>>; 2] = [None, None];
    for (i, piece) in bytes.chunks(chunk).enumerate() {
        let k = i % 2;
        if let Some(done) = in_flight[k].take() {
            done.wait();
        }
        // SAFETY: buffer `k` holds `chunk` >= `piece.len()` bytes of page-locked host memory,
        // exclusively ours (a pool block), and no copy reads it any more: the event of its
        // last copy completed above.
        let stage = unsafe { std::slice::from_raw_parts_mut(bufs[k].as_ptr(), piece.len()) };
        crate::threads::install(|| {
            stage
                .par_chunks_mut(1 << 20)
                .zip(piece.par_chunks(1 << 20))
                .for_each(|(d, s)| d.copy_from_slice(s));
        });
        let to = dst + (i * chunk) as u64;
        // SAFETY: `to..to + piece.len()` lies inside the fresh device block; the pinned
        // source is not written again until this copy's event completes (above), and the
        // block outlives the copy (its free waits for the stream).
        unsafe { cudarc::driver::result::memcpy_htod_async(to, &*stage, cuda.stream.raw) }
            .map_err(|e| failed("cuMemcpyHtoDAsync", e))?;
        cuda.stream.note_work();
        in_flight[k] = cuda.stream.event();
    }
    Ok(true)
}

/// Reads device tensor `src` back into a fresh contiguous host tensor.
pub(super) fn download(cuda: &Cuda, src: &Tensor) -> Result<Tensor> {
    let itemsize = src.dtype().size();
    let Some((lo, hi)) = src.layout().element_range() else {
        return Tensor::alloc(src.shape(), src.dtype(), Device::cpu(), false);
    };
    let (first, size) = (lo * itemsize, (hi + 1 - lo) * itemsize);
    let span = Tensor::alloc(&[size], crate::DType::UInt8, Device::cpu(), false)?;
    cuda.stream.bind()?;
    let from = src.storage().as_ptr() as usize as u64 + first as u64;
    {
        // SAFETY: `span` is a fresh, exclusively owned host tensor of `size` bytes.
        let dst = unsafe { std::slice::from_raw_parts_mut(span.data_ptr(), size) };
        // SAFETY: `from..from + size` is the span of the view inside its device storage
        // (L3); the stream is synchronised below before `dst` is read or dropped.
        unsafe { cudarc::driver::result::memcpy_dtoh_async(dst, from, cuda.stream.raw) }
            .map_err(|e| failed("cuMemcpyDtoHAsync", e))?;
    }
    cuda.stream.note_work();
    cuda.stream.synchronize()?;
    // The view's layout, shifted to the start of the copied span.
    let layout = src.layout().with_offset(src.storage_offset() - lo);
    let host = Tensor::from_storage(span.storage().clone(), layout, src.dtype())?;
    if host.is_contiguous() && host.storage_offset() == 0 {
        Ok(host)
    } else {
        host.contiguous()
    }
}
