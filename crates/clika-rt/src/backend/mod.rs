//! Backends: one trait (`Backend`) that every device implements — its pool, copies in and
//! out, completion events, and the kernels for the plans `ops/` makes — and `backend()`,
//! which dispatches on the device kind. Backends are peers:
//!
//! - `cpu`: host pages, kernels over raw pointers, rayon threads;
//! - `wgpu`: Vulkan (Mesa's lavapipe where there is no GPU), behind the default-on `gpu`
//!   cargo feature and never compiled under Miri;
//! - `cuda`: NVIDIA GPUs through the driver API and NVRTC-compiled kernels (`cudarc`,
//!   loaded at run time), behind the default-on `cuda` feature; without a driver `"cuda:N"`
//!   reports itself unavailable with the reason.
//!
//! Adding a backend is a folder here plus one arm in `backend()`; nothing in `ops/` changes.
//! A kernel a backend lacks answers `unsupported`, which names the move that works.

pub(crate) mod auto;
mod cpu;
mod cuda;
#[cfg(all(feature = "gpu", not(miri)))]
mod wgpu;

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::memory::{Event, Pool};
use crate::ops::vision::{PadPlan, VisionPlan};
use crate::ops::{
    matmul::Plan as MatmulPlan, AlongPlan, BinaryPlan, IndexPlan, ReducePlan, RowSelect, ScanOp,
    ScatterMode, UnaryPlan,
};
use crate::{Device, DeviceKind, Tensor};

pub(crate) use auto::fall_back;
pub use auto::{auto_device, take_fallback_warning, AUTO_PREFERENCE, GPU_DISABLE_ENV};
pub(crate) use cpu::kernel;
pub(crate) use cpu::random;

/// What a device provides to the rest of the runtime. Kernels take a plan made once in `ops/`
/// (shapes broadcast, dtypes promoted, dims normalised); the default of each answers
/// [`unsupported`].
///
/// Elementwise kernels write a result the caller allocated (so the `out=`, in-place and
/// buffer-reuse forms share them); reductions and matmul return a fresh tensor. Inputs are
/// on the backend's device, except that a 0-d host tensor may be a binary op's scalar
/// operand only after [`BinaryPlan::operand`] moved it.
pub(crate) trait Backend: Send + Sync {
    /// The device this backend serves.
    fn device(&self) -> Device;
    /// A human-readable name of the hardware.
    fn name(&self) -> String;
    /// The device's caching pool (its raw allocator reserves device memory).
    fn pool(&self) -> &Arc<Pool>;
    /// A host tensor on this device: a copy into fresh device memory (a source pinned for
    /// this device is kept alive until the copy completes instead of being waited for), or,
    /// where the device uses host memory in place, a device tensor over the same pages.
    fn upload(&self, src: &Tensor) -> Result<Tensor>;
    /// A device tensor on the host: a read-back into a fresh contiguous host tensor (waits
    /// for the queue), or the host tensor itself for one over host memory used in place.
    fn download(&self, src: &Tensor) -> Result<Tensor>;
    /// [`upload`](Backend::upload) that always copies into fresh device memory.
    fn upload_copy(&self, src: &Tensor) -> Result<Tensor> {
        self.upload(src)
    }
    /// [`download`](Backend::download) that always copies into fresh host memory.
    fn download_copy(&self, src: &Tensor) -> Result<Tensor> {
        self.download(src)
    }
    /// An event that completes once all work queued so far has completed.
    #[allow(
        dead_code,
        reason = "part of the interface; the pool gets it through pending_work"
    )]
    fn record_event(&self) -> Arc<dyn Event>;
    /// Waits for all queued work.
    fn synchronize(&self) -> Result<()>;
    /// The page-locked host pool for this device (`pin_memory`, `empty_pinned`): host
    /// memory its copies reach by DMA. The default: this device has none.
    fn pinned_pool(&self) -> Result<&Arc<Pool>> {
        Err(unsupported(
            "pin_memory",
            self.device(),
            "page-locked host memory (only CUDA devices have a pinned pool; host tensors move \
             to other devices without it)",
        ))
    }
    /// Checks that `base..base + nbytes` is memory this device's kernels can address, for
    /// wrapping memory another library allocated (`from_blob` with this device, DLPack,
    /// `__cuda_array_interface__`). The default: this device takes no foreign memory.
    fn check_foreign(&self, base: *mut u8, nbytes: usize) -> Result<()> {
        let _ = (base, nbytes);
        Err(unsupported(
            "from_blob",
            self.device(),
            "wrapping memory another library allocated; wrap host memory and move it with \
             .to(device)",
        ))
    }
    /// Called before foreign memory on this device is released (a deleter runs, a
    /// producer is let go): waits until the work queued so far, which may still read or
    /// write it, has completed.
    fn before_foreign_release(&self) {}
    /// The handle of the runtime's queue on this device (a `CUstream` on CUDA), for
    /// protocols that exchange streams; the default: this device has none to share.
    fn stream_handle(&self) -> Result<usize> {
        Err(unsupported(
            "stream_handle",
            self.device(),
            "sharing a stream (only CUDA devices have one)",
        ))
    }
    /// Orders streams with another library: `ours_waits` makes the runtime's later work
    /// wait for the work queued so far on `external`; otherwise `external`'s later work
    /// waits for the runtime's work queued so far. Neither blocks the host.
    fn order_with_stream(&self, external: usize, ours_waits: bool) -> Result<()> {
        let _ = (external, ours_waits);
        Err(unsupported(
            "stream ordering",
            self.device(),
            "sharing a stream (only CUDA devices have one)",
        ))
    }

    /// `out = plan.op(src)`, `src` converted to `plan.out` first.
    ///
    /// # Safety
    /// `out` has `src`'s shape and dtype `plan.out`, lives on this device, is writable and
    /// not read or written by anyone else during the call, and is either `src` exactly
    /// (same storage, layout and dtype) or disjoint from it.
    unsafe fn unary(&self, plan: &UnaryPlan, src: &Tensor, out: &Tensor) -> Result<()> {
        let _ = (src, out);
        Err(unsupported(plan.op.name(), self.device(), "any dtype yet"))
    }

    /// `out = plan.op(a, b)` with broadcasting to `plan.shape`, computing in `plan.compute`.
    ///
    /// # Safety
    /// As for [`Backend::unary`], for both inputs; `out` has `plan.shape` and `plan.out`.
    unsafe fn binary(&self, plan: &BinaryPlan, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
        let _ = (a, b, out);
        Err(unsupported(plan.op.name(), self.device(), "any dtype yet"))
    }

    /// `out = minimum(maximum(t, lo), hi)` in one pass (either bound optional; NaN as in
    /// those ops), when the backend has a kernel for `t`'s dtype; `Ok(false)` (the default),
    /// with nothing written, has `clamp` composed from the two binary ops. `lo` and `hi` are
    /// one-element host tensors of `t`'s dtype.
    ///
    /// # Safety
    /// As for [`Backend::unary`], with `out` of `t`'s shape and dtype.
    unsafe fn clamp(
        &self,
        t: &Tensor,
        lo: Option<&Tensor>,
        hi: Option<&Tensor>,
        out: &Tensor,
    ) -> Result<bool> {
        let _ = (t, lo, hi, out);
        Ok(false)
    }

    /// `out = src` converted to `out`'s dtype (a copy when the dtypes match).
    ///
    /// # Safety
    /// As for [`Backend::unary`]; `out` has `src`'s shape and any dtype.
    unsafe fn copy(&self, src: &Tensor, out: &Tensor) -> Result<()> {
        let _ = out;
        Err(unsupported(
            "contiguous/to_dtype",
            src.device(),
            "any dtype yet",
        ))
    }

    /// The primitive reduction `plan` of `t` into a fresh tensor.
    fn reduce(&self, plan: &ReducePlan, t: &Tensor) -> Result<Tensor> {
        Err(unsupported(plan.op.name(), t.device(), "any dtype yet"))
    }

    /// `Var`/`Std` (`plan.op`) of `t` in one fused pass into a fresh tensor, when the backend
    /// has a kernel for it; `None` (the default) has the op composed from mean, subtract,
    /// multiply and sum.
    fn moments(&self, plan: &ReducePlan, t: &Tensor) -> Option<Result<Tensor>> {
        let _ = (plan, t);
        None
    }

    /// The `p`-norm of the float tensor `t` over the dims of `plan` (a `Sum` plan) in one
    /// fused pass, when the backend has a kernel for this `p` and layout; `None` (the
    /// default) has it composed from `abs` or a product, the sum and a square root.
    fn vector_norm(&self, plan: &ReducePlan, p: f64, t: &Tensor) -> Option<Result<Tensor>> {
        let _ = (plan, p, t);
        None
    }

    /// `logsumexp` of the float tensor `t` over the dims of `plan` (a `Sum` plan over at
    /// least one element) in one fused pass per output, when the backend has a kernel for
    /// `t`'s dtype; `None` (the default) has it composed from max, subtract, exp, sum, log.
    fn logsumexp(&self, plan: &ReducePlan, t: &Tensor) -> Option<Result<Tensor>> {
        let _ = (plan, t);
        None
    }

    /// `softmax` (or `log_softmax` when `log`) of the float tensor `t` along `dim` (already
    /// normalised) in one fused kernel, when the backend has one for `t`'s dtype; `None`
    /// (the default) has the op composed from primitive ones.
    fn softmax(&self, t: &Tensor, dim: usize, log: bool) -> Option<Result<Tensor>> {
        let _ = (t, dim, log);
        None
    }

    /// `pad` in one pass into a fresh tensor, when the backend has a kernel for it; `None`
    /// (the default) has the op composed from `index_select` and `cat`.
    fn pad(&self, plan: &PadPlan) -> Option<Result<Tensor>> {
        let _ = plan;
        None
    }

    /// The unsqueezed product `[batch.., m, n]` of the planned operands, in `plan.dtype`.
    fn matmul(&self, plan: &MatmulPlan) -> Result<Tensor> {
        Err(unsupported("matmul", plan.a.device(), "any dtype yet"))
    }

    /// The product of the planned operands written into `out`, a view of the caller's tensor
    /// of the plan's full shape `[batch.., m, n]` in any dtype (converted). The default
    /// computes [`matmul`](Backend::matmul) and copies the result in.
    ///
    /// # Safety
    /// `out` is on this device and writable, and nobody else reads or writes the elements it
    /// reaches during the call.
    unsafe fn matmul_into(&self, plan: &MatmulPlan, out: &Tensor) -> Result<()> {
        let r = self.matmul(plan)?;
        // SAFETY: forwarded from the caller; `r` is fresh, so it does not overlap `out`.
        unsafe { out.copy_shared(&r) }
    }

    /// A convolution or pooling (`ops::vision`) into a fresh tensor of the plan's dtype.
    fn vision(&self, plan: &VisionPlan) -> Result<Tensor> {
        Err(unsupported(plan.name(), plan.device(), "any dtype yet"))
    }

    /// Advanced indexing: `out[p.., b, q..] = plan.src[offsets[b] + (p, q)]` for every
    /// position `b` of the index shape and `(p, q)` of the dims not indexed (`p` the
    /// `plan.place` dims that numpy's placement puts before the index dims), so the result
    /// comes out in its final layout.
    ///
    /// # Safety
    /// `out` is contiguous, of `plan.placed_shape()` and `plan.src`'s dtype, on this device,
    /// writable and not accessed by anyone else during the call, and disjoint from the source.
    unsafe fn gather(&self, plan: &IndexPlan, out: &Tensor) -> Result<()> {
        let _ = out;
        Err(unsupported(
            "index (advanced)",
            plan.src.device(),
            "any dtype yet",
        ))
    }

    /// The inverse of [`Backend::gather`]: `plan.src[offsets[b] + r..] = value[b, r..]`
    /// (`value` of `plan.gathered_shape()` and the source's dtype, any strides).
    ///
    /// # Safety
    /// The source's memory is writable and nobody else reads or writes the elements the plan
    /// reaches during the call; `value` does not share the source's memory.
    unsafe fn scatter(&self, plan: &IndexPlan, value: &Tensor) -> Result<()> {
        let _ = value;
        Err(unsupported(
            "index_put (advanced)",
            plan.src.device(),
            "any dtype yet",
        ))
    }

    /// A gather along one dim: `out[p] = plan.t[p with p[dim] = index[p]]` for every position
    /// `p` of the index (a negative value counting from the end), or
    /// [`Error::IndexOutOfRange`] for a value outside `-size..size`.
    ///
    /// # Safety
    /// `out` is of the index's shape and `plan.t`'s dtype, on this device, writable, not
    /// accessed by anyone else during the call, and disjoint from `plan.t`.
    unsafe fn gather_along(&self, plan: &AlongPlan, out: &Tensor) -> Result<()> {
        let _ = out;
        Err(unsupported("gather", plan.t.device(), "any dtype yet"))
    }

    /// A scatter along one dim: `plan.t[p with p[dim] = index[p]] (=, +=) value[p]` for every
    /// position `p` of the index, in row-major order (so a repeated target ends with the
    /// last write, or the sum in that order; a sum may instead add fixed blocks of positions
    /// in order, as [`Tensor::scatter_add_`] documents, never in an order that depends on
    /// the thread count); [`Error::IndexOutOfRange`] with nothing written when a value is
    /// outside `-size..size`.
    ///
    /// # Safety
    /// `plan.t`'s memory is writable and nobody else reads or writes the elements the plan
    /// reaches during the call; `value`, of the index's shape and `plan.t`'s dtype on this
    /// device, does not share `plan.t`'s memory.
    unsafe fn scatter_along(
        &self,
        plan: &AlongPlan,
        value: &Tensor,
        mode: ScatterMode,
    ) -> Result<()> {
        let _ = (value, mode);
        Err(unsupported("scatter", plan.t.device(), "any dtype yet"))
    }

    /// How often each value occurs in `values`, a 1-D tensor of an unsigned integer dtype on
    /// this device whose every value is below `bins`: a fresh `Int64` tensor `[bins]` on this
    /// device, or `None` where the backend has no counting kernel (`bincount` then
    /// scatter-adds ones, through [`Backend::scatter_along`]).
    fn count_values(&self, values: &Tensor, bins: usize) -> Result<Option<Tensor>> {
        let _ = (values, bins);
        Ok(None)
    }

    /// `histc`'s counts: how many elements of `values`, a 1-D tensor of a float dtype on this
    /// device, fall in each of `bins` equal bins over the finite `range` (`lo < hi`), as
    /// `backend/cpu/count.rs` defines them: a fresh `Int64` tensor `[bins]` on this device.
    fn histogram_values(&self, values: &Tensor, bins: usize, range: (f64, f64)) -> Result<Tensor> {
        let _ = (bins, range);
        Err(unsupported("histc", values.device(), "any dtype yet"))
    }

    /// The coordinates of the set elements of `mask`, a contiguous `Bool` tensor on this
    /// device: a fresh `Int64` tensor `[count, ndim]` on this device, rows in row-major order.
    fn nonzero(&self, mask: &Tensor) -> Result<Tensor> {
        Err(unsupported("nonzero", mask.device(), "any dtype yet"))
    }

    /// Sorting or selection `op` along each row of `rows`, a contiguous `[r, n]` tensor of
    /// any dtype but `Bool` on this device: values (`rows`' dtype) and `Int64` indices into
    /// the row, both `[r, m]`.
    fn select_rows(&self, op: RowSelect, rows: &Tensor) -> Result<(Tensor, Tensor)> {
        Err(unsupported(op.name(), rows.device(), "any dtype yet"))
    }

    /// The inclusive scan `op` along each row of `rows`, a contiguous `[r, n]` tensor of
    /// `Float32`, `Float64` or `Int64` on this device, into a fresh tensor like it.
    fn scan_rows(&self, op: ScanOp, rows: &Tensor) -> Result<Tensor> {
        Err(unsupported(op.name(), rows.device(), "any dtype yet"))
    }
}

/// The error of an op without a kernel on `device` for `what`: it names the move that works.
pub(crate) fn unsupported(op: &str, device: Device, what: impl Into<String>) -> Error {
    Error::UnsupportedOnDevice {
        op: op.to_string(),
        device,
        what: what.into(),
    }
}

/// The backend of `device`, started on first use; an accelerator that is absent, not built
/// in, or failed to start gives [`Error::DeviceUnavailable`] with the reason.
pub(crate) fn backend(device: Device) -> Result<&'static dyn Backend> {
    match device.kind() {
        DeviceKind::Cpu => Ok(cpu::context()),
        DeviceKind::Gpu => gpu(device),
        DeviceKind::Cuda => cuda::context(device),
        DeviceKind::Auto => backend(device.resolve()),
    }
}

#[cfg(all(feature = "gpu", not(miri)))]
fn gpu(device: Device) -> Result<&'static dyn Backend> {
    Ok(wgpu::context(device)?)
}

#[cfg(not(all(feature = "gpu", not(miri))))]
fn gpu(device: Device) -> Result<&'static dyn Backend> {
    Err(Error::DeviceUnavailable {
        device,
        reason: "this build of clika-rt has no GPU backend (built without the `gpu` cargo \
                 feature); rebuild with default features or use Device::cpu()"
            .to_string(),
    })
}

/// The CPU pool, started on first use.
pub(crate) fn cpu_pool() -> &'static Arc<Pool> {
    cpu::pool()
}

/// The pool of `device`.
pub(crate) fn pool(device: Device) -> Result<&'static Arc<Pool>> {
    match device.kind() {
        // Every host allocation comes through here: the CPU's pool without a virtual call.
        DeviceKind::Cpu => Ok(cpu::pool()),
        _ => Ok(backend(device)?.pool()),
    }
}

/// Whether `device` can be used, with the reason when not. Starts its backend if needed.
pub(crate) fn ensure_available(device: Device) -> Result<()> {
    backend(device).map(|_| ())
}

/// Waits for `device`'s queued work.
pub(crate) fn synchronize(device: Device) -> Result<()> {
    backend(device)?.synchronize()
}

/// The handle of the runtime's stream on `device` (a `CUstream` on `cuda:N`), for a
/// library that exchanges streams with this runtime (DLPack's `stream` argument,
/// `__cuda_array_interface__`'s `stream` entry).
pub fn stream_handle(device: Device) -> Result<usize> {
    backend(device)?.stream_handle()
}

/// Makes the runtime's work on `device` queued after this call wait for the work queued so
/// far on another library's stream `external` (a `CUstream`; `1` is CUDA's legacy default
/// stream, `2` its per-thread default stream). Does not block the host.
pub fn wait_for_external_stream(device: Device, external: usize) -> Result<()> {
    backend(device)?.order_with_stream(external, true)
}

/// Makes the work another library queues on its stream `external` after this call wait for
/// the runtime's work queued so far on `device`. Does not block the host.
pub fn order_external_stream_after(device: Device, external: usize) -> Result<()> {
    backend(device)?.order_with_stream(external, false)
}

/// The CUDA device whose memory `ptr` is (asked of the driver), for protocols that pass a
/// bare device pointer (`__cuda_array_interface__`). Managed memory answers the device it
/// was allocated for.
pub fn cuda_device_of(ptr: usize) -> Result<Device> {
    cuda::device_of_pointer(ptr)
}

/// Moves `t` to `device` (different from its own), through the host between accelerators.
pub(crate) fn transfer(t: &Tensor, device: Device) -> Result<Tensor> {
    match (t.device().is_cpu(), device.is_cpu()) {
        (true, false) => backend(device)?.upload(t),
        (false, true) => backend(t.device())?.download(t),
        (false, false) => backend(device)?.upload(&backend(t.device())?.download(t)?),
        (true, true) => Ok(t.clone()),
    }
}

/// [`transfer`] into new memory of `device` in every case (never the source's memory).
pub(crate) fn transfer_copy(t: &Tensor, device: Device) -> Result<Tensor> {
    match (t.device().is_cpu(), device.is_cpu()) {
        (true, false) => backend(device)?.upload_copy(t),
        (false, true) => backend(t.device())?.download_copy(t),
        (false, false) => backend(device)?.upload_copy(&backend(t.device())?.download(t)?),
        (true, true) => Ok(t.clone()),
    }
}

/// The host copy of `t` for reading its values (the same tensor on the CPU).
pub(crate) fn host(t: &Tensor) -> Result<Tensor> {
    transfer(t, Device::cpu())
}

/// The name of the hardware behind `device` (for logs and benchmarks), starting its backend
/// if needed.
pub fn device_name(device: Device) -> Result<String> {
    Ok(backend(device)?.name())
}
