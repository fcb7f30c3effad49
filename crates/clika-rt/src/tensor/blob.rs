//! Wrapping memory the runtime did not allocate: `from_blob` and its variants.

use super::Tensor;
use crate::error::{dims_i64, strides_i64, Error, Result};
use crate::layout::Layout;
use crate::storage::{Deleter, Owner, Storage};
use crate::{DType, Device};

/// Options for [`Tensor::from_blob_with`].
#[derive(Debug, Default)]
pub struct BlobOptions {
    /// Where the memory lives (default: CPU). `Device::cuda(n)` wraps a CUDA device pointer
    /// another library allocated (`cudaMalloc`, a decoder's output, PyTorch's allocator):
    /// the driver is asked that both ends of the reachable range are memory of device `n`
    /// (or managed memory), and an adopted deleter (or a kept producer) is released only
    /// after the runtime's work queued on the device so far has completed. Other devices
    /// take no foreign memory.
    pub device: Device,
    /// Asserts the pages are already page-locked for this device (a tag only; it pins
    /// nothing).
    pub pinned_for: Option<Device>,
    /// `None`: borrowed. `Some`: adopted; runs exactly once on the last drop.
    pub deleter: Option<Deleter>,
    /// The runtime must never write this memory, even at the caller's request.
    pub read_only: bool,
}

impl Tensor {
    /// Borrows `shape` elements of `dtype` at `data`, row-major, without copying.
    ///
    /// The returned tensor's [`data_ptr`](Tensor::data_ptr) is `data`. The runtime never
    /// frees, reuses or writes scratch into borrowed memory.
    ///
    /// # Safety
    /// For as long as this tensor, or any clone or view of it, exists:
    /// - `data` must be valid for reads of every element the shape reaches (and for writes,
    ///   if an in-place operation is asked of the tensor);
    /// - the memory must stay allocated and its contents initialised;
    /// - nobody may write the memory while a runtime operation reads it (a data race).
    ///
    /// Pointer, shape, overflow and alignment are validated; a failure returns an error.
    pub unsafe fn from_blob(data: *mut u8, shape: &[usize], dtype: DType) -> Result<Tensor> {
        // SAFETY: the caller's obligations are this function's obligations.
        unsafe {
            Tensor::from_blob_with(data, &dims_i64(shape), None, dtype, BlobOptions::default())
        }
    }

    /// Borrows strided memory: `strides` (in elements, may be negative) describe how far
    /// apart consecutive entries of each dimension lie. `data` points at element `[0, …, 0]`.
    ///
    /// # Safety
    /// As for [`Tensor::from_blob`], for every element reachable through `shape` and
    /// `strides` from `data`.
    pub unsafe fn from_blob_strided(
        data: *mut u8,
        shape: &[usize],
        strides: &[isize],
        dtype: DType,
    ) -> Result<Tensor> {
        let (shape, strides) = (dims_i64(shape), strides_i64(strides));
        // SAFETY: the caller's obligations are this function's obligations.
        unsafe {
            Tensor::from_blob_with(data, &shape, Some(&strides), dtype, BlobOptions::default())
        }
    }

    /// Adopts row-major memory at `data`: the tensor owns it and calls `deleter(data)` exactly
    /// once, when the last tensor or view over it drops. If this returns an error, ownership
    /// was not taken: `deleter` is dropped without being called.
    ///
    /// # Safety
    /// - `data` must be valid for reads and writes of every element the shape reaches until
    ///   the deleter runs, and nobody else may free it;
    /// - the contents must be initialised;
    /// - nobody may write the memory while a runtime operation reads it.
    pub unsafe fn from_blob_adopted(
        data: *mut u8,
        shape: &[usize],
        dtype: DType,
        deleter: impl FnOnce(*mut u8) + Send + 'static,
    ) -> Result<Tensor> {
        let options = BlobOptions {
            deleter: Some(Deleter::new(deleter)),
            ..BlobOptions::default()
        };
        // SAFETY: the caller's obligations are this function's obligations.
        unsafe { Tensor::from_blob_with(data, &dims_i64(shape), None, dtype, options) }
    }

    /// The general entry for untrusted descriptors (C, Python, DLPack): `shape` and optional
    /// `strides` (elements, row-major when `None`) are validated by [`ForeignMemory::check`];
    /// on error no ownership is taken (the deleter is not called).
    ///
    /// # Safety
    /// As for [`Tensor::from_blob`] (no deleter) or [`Tensor::from_blob_adopted`] (with one),
    /// for every element reachable through `shape` and `strides` from `data`. With
    /// `read_only`, the memory need only be readable.
    pub unsafe fn from_blob_with(
        data: *mut u8,
        shape: &[i64],
        strides: Option<&[i64]>,
        dtype: DType,
        options: BlobOptions,
    ) -> Result<Tensor> {
        let memory = ForeignMemory::check(data, shape, strides, dtype, options.device)?;
        let owner = match options.deleter {
            Some(d) => Owner::adopted(data, d),
            None => Owner::Borrowed,
        };
        // SAFETY: the caller's obligations are `wrap`'s.
        Ok(unsafe { memory.wrap(owner, options.pinned_for, options.read_only) })
    }
}

/// Foreign memory described by an untrusted descriptor, checked once: every door that wraps
/// memory it did not allocate (`from_blob*`, the C ABI, numpy, DLPack, mapped files) goes
/// through [`ForeignMemory::check`] and then [`ForeignMemory::wrap`] with its owner. The
/// check can fail; the wrap cannot, so an owner is never taken by a failed construction.
#[derive(Debug)]
pub struct ForeignMemory {
    /// The pointer the descriptor gave: element `[0, …, 0]`.
    data: *mut u8,
    /// The lowest reachable byte.
    base: *mut u8,
    /// Bytes from `base` to past the highest reachable element.
    nbytes: usize,
    layout: Layout,
    dtype: DType,
    device: Device,
}

impl ForeignMemory {
    /// Checks a descriptor: shape and strides (negative sizes, overflow, more than 64
    /// dimensions: [`Layout::from_foreign`]), a null pointer with elements, alignment for
    /// `dtype`, and address wrap-around. `data` points at element `[0, …, 0]`; `strides` are
    /// in elements, row-major when `None`.
    pub fn check(
        data: *mut u8,
        shape: &[i64],
        strides: Option<&[i64]>,
        dtype: DType,
        device: Device,
    ) -> Result<ForeignMemory> {
        match device.kind() {
            crate::DeviceKind::Cpu | crate::DeviceKind::Cuda => {}
            crate::DeviceKind::Auto => {
                return Err(Error::InvalidArgument {
                    what: "from_blob: name the device the memory is on (\"cpu\" or \"cuda:N\"), \
                           not \"auto\""
                        .to_string(),
                });
            }
            // Refused without starting the backend: wgpu buffers are not addresses.
            crate::DeviceKind::Gpu => {
                return Err(Error::UnsupportedOnDevice {
                    op: "from_blob".to_string(),
                    device,
                    what: "wrapping memory another library allocated (wgpu buffers have no \
                           address to wrap); wrap host memory and move it with .to(device)"
                        .to_string(),
                })
            }
        }
        let foreign = Layout::from_foreign(shape, strides, dtype)?;
        let numel = foreign.layout.numel();
        if data.is_null() && numel > 0 {
            return Err(Error::NullPointer {
                shape: shape.to_vec(),
                numel,
            });
        }
        let addr = data as usize;
        if !addr.is_multiple_of(dtype.size()) {
            return Err(Error::Misaligned {
                ptr: addr,
                dtype,
                align: dtype.size(),
            });
        }
        let below = foreign.layout.offset() * dtype.size();
        let nbytes = foreign.span * dtype.size();
        let wraps = addr
            .checked_sub(below)
            .and_then(|b| b.checked_add(nbytes))
            .is_none();
        if numel > 0 && wraps {
            return Err(Error::AddressWrap {
                ptr: addr,
                shape: shape.to_vec(),
                strides: strides.map(<[i64]>::to_vec).unwrap_or_default(),
            });
        }
        let base = data.wrapping_sub(below);
        if !device.is_cpu() && numel > 0 {
            // Device memory cannot be read here; its backend asks the driver whose it is.
            crate::backend::backend(device)?.check_foreign(base, nbytes)?;
        }
        Ok(ForeignMemory {
            data,
            base,
            nbytes,
            layout: foreign.layout,
            dtype,
            device,
        })
    }

    /// [`ForeignMemory::check`] for a row-major region of `shape`.
    pub fn contiguous(
        data: *mut u8,
        shape: &[usize],
        dtype: DType,
        device: Device,
    ) -> Result<ForeignMemory> {
        ForeignMemory::check(data, &dims_i64(shape), None, dtype, device)
    }

    /// The pointer the descriptor gave (element `[0, …, 0]`), as an adopting owner's
    /// deleter receives it.
    pub fn data(&self) -> *mut u8 {
        self.data
    }

    /// Number of elements the descriptor has.
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The reachable bytes: the lowest reachable address and the byte count from it to past
    /// the highest reachable element.
    pub fn reach(&self) -> (*mut u8, usize) {
        (self.base, self.nbytes)
    }

    /// The checked memory as a tensor whose storage holds `owner` (`Borrowed`, `Adopted` or
    /// `Keepalive`; pool blocks are the runtime's own and never wrapped here), tagged
    /// `pinned_for`, and writable unless `read_only`.
    ///
    /// # Safety
    /// Every element the descriptor reaches must stay valid for reads (and, unless
    /// `read_only`, for writes the caller asks for), allocated and initialised until the
    /// last tensor over the storage drops and `owner` is released; nobody may write it
    /// while a runtime operation reads it.
    pub unsafe fn wrap(self, owner: Owner, pinned_for: Option<Device>, read_only: bool) -> Tensor {
        debug_assert!(
            !matches!(owner, Owner::Pool(_)),
            "pool blocks are not foreign memory"
        );
        // SAFETY: the caller guarantees every reachable element for as long as the storage
        // lives; `base..base + nbytes` is exactly the reachable range (from `from_foreign`),
        // checked not to wrap, and aligned for the dtype.
        let storage = unsafe {
            Storage::from_raw_parts(
                self.base,
                self.nbytes,
                self.device,
                owner,
                pinned_for,
                !read_only,
            )
        };
        Tensor::from_parts(storage, self.layout, self.dtype)
    }
}
