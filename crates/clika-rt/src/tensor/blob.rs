//! Wrapping memory the runtime did not allocate: `from_blob` and its variants.

use super::Tensor;
use crate::error::{dims_i64, strides_i64, Error, Result};
use crate::layout::Layout;
use crate::storage::{Deleter, Owner, Storage};
use crate::{DType, Device};

/// Options for [`Tensor::from_blob_with`].
#[derive(Debug, Default)]
pub struct BlobOptions {
    /// Where the memory lives (default: CPU).
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
    /// `strides` (elements, row-major when `None`) are validated; negative sizes, overflow,
    /// a null pointer with elements, misalignment, address wrap-around and more than 64
    /// dimensions are errors. On error no ownership is taken (the deleter is not called).
    ///
    /// # Safety
    /// As for [`Tensor::from_blob`] (no deleter) or [`Tensor::from_blob_adopted`] (with one),
    /// for every element reachable through `shape` and `strides` from `data`. With
    /// `read_only`, the memory need only be readable. A device other than the CPU must have
    /// been allocated by that device's API.
    pub unsafe fn from_blob_with(
        data: *mut u8,
        shape: &[i64],
        strides: Option<&[i64]>,
        dtype: DType,
        options: BlobOptions,
    ) -> Result<Tensor> {
        if !options.device.is_cpu() {
            return Err(Error::UnsupportedOnDevice {
                op: "from_blob".to_string(),
                device: options.device,
                what: "wrapping device memory (device tensors are runtime-owned); wrap host \
                       memory and move it with .to(device)"
                    .to_string(),
            });
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
        if addr % dtype.size() != 0 {
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
        let owner = match options.deleter {
            Some(d) => Owner::adopted(data, d),
            None => Owner::Borrowed,
        };
        // SAFETY: the caller guarantees every reachable element is valid (and initialised)
        // for as long as the storage lives; `base..base + nbytes` is exactly the reachable
        // range (from `from_foreign`), checked above not to wrap.
        let storage = unsafe {
            Storage::from_raw_parts(
                base,
                nbytes,
                options.device,
                owner,
                options.pinned_for,
                !options.read_only,
            )
        };
        Ok(Tensor::from_parts(storage, foreign.layout, dtype))
    }
}
