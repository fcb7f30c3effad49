//! [`Tensor`]: storage + layout + dtype. Cloning bumps a reference count; views change only
//! the layout.

mod access;
mod blob;
mod convert;
mod create;
mod create_more;
mod format;
#[cfg(feature = "ndarray")]
mod ndarray_interop;
mod pretty;
pub mod random;
#[cfg(feature = "serde")]
mod serde_impl;
mod shared;
mod view;
mod view_more;

pub use blob::{BlobOptions, ForeignMemory};
pub use convert::{Elements, TypedView};
pub use create::StableBytes;
pub use format::format_g;
pub use pretty::PrintOptions;
pub use shared::{SharedRegion, SharedSegment};

use crate::layout::Layout;
use crate::storage::{OwnerKind, Storage};
use crate::{DType, Device, Error, Result};

/// An n-dimensional strided view of typed memory.
///
/// Upholds the [`Layout`] invariants L1–L3 against its storage (in elements of `dtype`).
/// Every tensor and view of the same storage sees the same bytes: writes through a borrowed
/// buffer are visible through the tensor and the other way round.
#[derive(Clone)]
pub struct Tensor {
    storage: Storage,
    layout: Layout,
    dtype: DType,
}

impl Tensor {
    /// Pairs storage with a layout after checking L3 and alignment.
    pub fn from_storage(storage: Storage, layout: Layout, dtype: DType) -> Result<Tensor> {
        let elems = storage.nbytes() / dtype.size();
        if !layout.check_within(elems) {
            return Err(Error::BufferTooSmall {
                nbytes: storage.nbytes(),
                shape: layout.shape().iter().map(|&d| d as i64).collect(),
                dtype,
                offset_bytes: layout.offset() * dtype.size(),
                needed: layout
                    .element_range()
                    .map_or(0, |(_, hi)| (hi + 1) * dtype.size()),
            });
        }
        if layout.numel() > 0 && !(storage.as_ptr() as usize).is_multiple_of(dtype.size()) {
            return Err(Error::Misaligned {
                ptr: storage.as_ptr() as usize,
                dtype,
                align: dtype.size(),
            });
        }
        Ok(Tensor {
            storage,
            layout,
            dtype,
        })
    }

    /// Pairs storage with a layout the caller has proven valid (L1–L3, alignment).
    pub(crate) fn from_parts(storage: Storage, layout: Layout, dtype: DType) -> Tensor {
        debug_assert!(layout.check_within(storage.nbytes() / dtype.size()));
        Tensor {
            storage,
            layout,
            dtype,
        }
    }

    /// The same storage under another layout (a view). L4 holds for every caller in this
    /// crate: view layouts are derived from `self.layout` by `Layout`'s view operations.
    pub(crate) fn with_layout(&self, layout: Layout) -> Tensor {
        Tensor::from_parts(self.storage.clone(), layout, self.dtype)
    }

    /// The same elements read as the unsigned integer dtype of their size (a view; numpy's
    /// `view(np.uint…)`): every bit pattern of an integer is one of the unsigned dtype, so
    /// nothing read through it is invalid. `None` for a dtype that is not an integer.
    pub(crate) fn as_unsigned_bits(&self) -> Option<Tensor> {
        let dtype = match self.dtype {
            DType::Int8 | DType::UInt8 => DType::UInt8,
            DType::Int16 | DType::UInt16 => DType::UInt16,
            DType::Int32 | DType::UInt32 => DType::UInt32,
            DType::Int64 | DType::UInt64 => DType::UInt64,
            _ => return None,
        };
        Some(Tensor::from_parts(
            self.storage.clone(),
            self.layout.clone(),
            dtype,
        ))
    }

    /// Sizes of each dimension.
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// Strides of each dimension, in elements.
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// Offset of the first element from the storage start, in elements.
    pub fn storage_offset(&self) -> usize {
        self.layout.offset()
    }

    /// The layout (shape, strides, offset).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// Bytes of one element (PyTorch's `element_size()`, numpy's `itemsize`).
    pub fn element_size(&self) -> usize {
        self.dtype.size()
    }

    /// Bytes the elements take: `numel() * element_size()`, as numpy's and PyTorch's
    /// `nbytes` (a view counts its own elements, not its storage; a broadcast view counts
    /// every element it shows).
    pub fn nbytes(&self) -> usize {
        self.numel() * self.dtype.size()
    }

    /// Size of dimension `dim` (negative counts from the end).
    pub fn size(&self, dim: isize) -> Result<usize> {
        Ok(self.shape()[crate::layout::normalize_dim(dim, self.ndim())?])
    }

    /// Element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Where the memory lives.
    pub fn device(&self) -> Device {
        self.storage.device()
    }

    /// The underlying storage.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The ownership contract of the memory.
    pub fn owner_kind(&self) -> OwnerKind {
        self.storage.owner_kind()
    }

    /// Whether the elements are laid out row-major without gaps (numpy's rule).
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// Pointer to the first element. For a borrowed tensor this is the caller's pointer.
    ///
    /// Writing through it is the caller's responsibility: no runtime operation may be reading
    /// the same elements at the time.
    pub fn data_ptr(&self) -> *mut u8 {
        self.storage
            .as_ptr()
            .wrapping_add(self.layout.offset() * self.dtype.size())
    }

    /// Pointer to the first element, for reading.
    pub fn const_data_ptr(&self) -> *const u8 {
        self.data_ptr()
    }

    /// Waits until all work queued on this tensor's device has completed. Cheap when there is
    /// none (always, on the CPU, whose ops run eagerly).
    pub fn synchronize(&self) -> Result<()> {
        crate::backend::synchronize(self.device())
    }

    /// This tensor on `device`: the same tensor when it is already there, otherwise a copy
    /// (non-contiguous sources are gathered; the result is contiguous) — except between the
    /// host and a unified-memory GPU that can use host memory in place (an integrated GPU,
    /// lavapipe): there the result is a tensor over the same memory, with the same layout
    /// (see `docs/devices.md`, "When a move aliases"). [`copy_to`](Tensor::copy_to) always
    /// copies.
    ///
    /// A host source is fully read before this returns, unless its storage is tagged
    /// `pinned_for == device`: then the copy is queued and the source's storage is kept
    /// alive until the copy completes. [`Device::auto()`] resolves to the accelerator and
    /// falls back to the CPU (with one warning) when the accelerator fails, including when
    /// it runs out of memory for this tensor.
    pub fn to(&self, device: Device) -> Result<Tensor> {
        self.move_to(device, false)
    }

    /// This tensor on `device` in new memory the runtime owns: always a copy, even where
    /// [`to`](Tensor::to) would return the same tensor or use the memory in place (PyTorch's
    /// `.to(device, copy=True)`). On the same device it is a contiguous clone. Automatic
    /// placement falls back as in [`to`](Tensor::to).
    pub fn copy_to(&self, device: Device) -> Result<Tensor> {
        self.move_to(device, true)
    }

    fn move_to(&self, device: Device, copy: bool) -> Result<Tensor> {
        if device.kind() == crate::DeviceKind::Auto {
            let target = device.resolve();
            return match self.move_to(target, copy) {
                Err(e @ (Error::OutOfMemory { .. } | Error::DeviceUnavailable { .. }))
                    if !target.is_cpu() =>
                {
                    self.move_to(crate::backend::fall_back(target, &e), copy)
                }
                other => other,
            };
        }
        if device == self.device() {
            return if copy {
                self.contiguous_copy()
            } else {
                Ok(self.clone())
            };
        }
        device.ensure_available()?;
        if copy {
            crate::backend::transfer_copy(self, device)
        } else {
            crate::backend::transfer(self, device)
        }
    }

    /// Fails unless the tensor's memory is host-readable now: ops without a device kernel
    /// refuse device tensors with an error naming the CPU fallback.
    pub(crate) fn ensure_cpu(&self, op: &'static str) -> Result<()> {
        if self.device().is_cpu() {
            Ok(())
        } else {
            Err(Error::UnsupportedOnDevice {
                op: op.to_string(),
                device: self.device(),
                what: "any dtype yet".to_string(),
            })
        }
    }
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tensor")
            .field("shape", &self.shape())
            .field("strides", &self.strides())
            .field("offset", &self.layout.offset())
            .field("dtype", &self.dtype)
            .field("storage", &self.storage)
            .finish()
    }
}
