//! Creating tensors: from Rust values that own bytes (zero-copy), by copying, and filled.

use std::sync::Arc;

use super::Tensor;
use crate::dtype::Element;
use crate::error::{dims_i64, Error, Result};
use crate::layout::Layout;
use crate::storage::{Owner, Storage};
use crate::{memory, DType, Device};

/// A value that owns a run of initialised bytes at an address that does not change when the
/// value is moved (a heap buffer, a memory map), so a tensor can view them while keeping the
/// value alive.
///
/// # Safety
/// Implementors guarantee that `bytes_ptr()` and `bytes_len()` return the same values for
/// the whole life of the value, moves included; that the bytes are initialised and readable
/// for that long; and, if `writable()` is true, that the value grants exclusive write access
/// to them (nothing else reads or writes them except through the tensor).
pub unsafe trait StableBytes: Send + 'static {
    /// Start of the bytes.
    fn bytes_ptr(&self) -> *mut u8;
    /// Length in bytes.
    fn bytes_len(&self) -> usize;
    /// Whether the runtime may write the bytes.
    fn writable(&self) -> bool;
}

// SAFETY: a `Vec`'s heap buffer does not move when the `Vec` does, and the `Vec` is owned
// exclusively by the storage, so writing is allowed. Its elements are initialised.
unsafe impl<T: Element> StableBytes for Vec<T> {
    fn bytes_ptr(&self) -> *mut u8 {
        self.as_ptr().cast_mut().cast()
    }
    fn bytes_len(&self) -> usize {
        std::mem::size_of_val(self.as_slice())
    }
    fn writable(&self) -> bool {
        true
    }
}

// No impl for `Box<[T]>`: moving a `Box` into the storage asserts it is unique, which
// invalidates the pointer taken from it first (a Stacked Borrows violation Miri reports).
// `From<Box<[T]>>` goes through `into_vec()` instead, which keeps the buffer.

// SAFETY: an `Arc`'s allocation is stable; other clones may read it, so it is read-only.
unsafe impl<T: Element> StableBytes for Arc<[T]> {
    fn bytes_ptr(&self) -> *mut u8 {
        self.as_ptr().cast_mut().cast()
    }
    fn bytes_len(&self) -> usize {
        std::mem::size_of_val(&**self)
    }
    fn writable(&self) -> bool {
        false
    }
}

impl Tensor {
    /// Takes a `Vec` without copying; the tensor drops it when the last reference goes.
    pub fn from_vec<T: Element>(data: Vec<T>, shape: &[usize]) -> Result<Tensor> {
        Tensor::from_owner(data, shape, T::DTYPE)
    }

    /// Views the bytes of any [`StableBytes`] owner as a row-major tensor without copying;
    /// the owner is dropped exactly once, when the last tensor or view over it drops. On
    /// error the owner is dropped at once (nothing else holds it).
    pub fn from_owner<O: StableBytes>(owner: O, shape: &[usize], dtype: DType) -> Result<Tensor> {
        let layout = Layout::contiguous(shape, dtype.size())?;
        let needed = layout.numel() * dtype.size();
        let (ptr, nbytes, writable) = (owner.bytes_ptr(), owner.bytes_len(), owner.writable());
        if nbytes != needed {
            return Err(Error::DataLength {
                len: nbytes / dtype.size(),
                shape: dims_i64(shape),
                numel: layout.numel(),
            });
        }
        // SAFETY: `StableBytes` guarantees `ptr..ptr + nbytes` stays valid, initialised and
        // (if `writable`) exclusively writable for as long as `owner` lives; the storage owns
        // `owner` and drops it last.
        let storage = unsafe {
            Storage::from_raw_parts(
                ptr,
                nbytes,
                Device::cpu(),
                Owner::keepalive(owner),
                None,
                writable,
            )
        };
        Tensor::from_storage(storage, layout, dtype)
    }

    /// Copies `data` into a new runtime-owned tensor, so the source's lifetime stops
    /// mattering.
    pub fn from_data<T: Element>(data: &[T], shape: &[usize]) -> Result<Tensor> {
        let out = Tensor::alloc(shape, T::DTYPE, Device::cpu(), false)?;
        if data.len() != out.numel() {
            return Err(Error::DataLength {
                len: data.len(),
                shape: dims_i64(shape),
                numel: out.numel(),
            });
        }
        // SAFETY: `out` is a fresh, exclusively held, contiguous allocation of exactly
        // `data.len()` elements of `T`, aligned for `T`, that cannot overlap `data`.
        unsafe {
            std::ptr::copy_nonoverlapping(data.as_ptr(), out.data_ptr().cast::<T>(), data.len())
        };
        Ok(out)
    }

    /// Copies raw bytes (native byte order) into a new tensor of `dtype`.
    pub fn from_bytes(bytes: &[u8], shape: &[usize], dtype: DType) -> Result<Tensor> {
        let out = Tensor::alloc(shape, dtype, Device::cpu(), false)?;
        if bytes.len() != out.numel() * dtype.size() {
            return Err(Error::DataLength {
                len: bytes.len() / dtype.size(),
                shape: dims_i64(shape),
                numel: out.numel(),
            });
        }
        // SAFETY: `out` is a fresh exclusive allocation of exactly `bytes.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.data_ptr(), bytes.len()) };
        if dtype == DType::Bool {
            // Normalise from the caller's bytes (the copy above was of them too).
            // SAFETY: `out` is fresh, exclusively held and holds `numel` bytes.
            unsafe { write_each(out.data_ptr(), out.numel(), |i| u8::from(bytes[i] != 0)) };
        }
        Ok(out)
    }

    /// A fresh result of an element-wise op over `operands`: laid out as they are when the
    /// host operands of full `shape` share one dense permuted layout (a transposed or
    /// channels-last input, as PyTorch and numpy keep it), row-major otherwise. Device
    /// results stay row-major (their kernels write row-major outputs).
    pub(crate) fn alloc_like_operands(
        shape: &[usize],
        dtype: DType,
        device: Device,
        operands: &[&Tensor],
    ) -> Result<Tensor> {
        let layouts: crate::layout::DimVec<(&[usize], &[isize])> =
            operands.iter().map(|t| (t.shape(), t.strides())).collect();
        match crate::layout::shared_dense_order(shape, &layouts).filter(|_| device.is_cpu()) {
            Some(order) => {
                let in_memory: crate::layout::DimVec<usize> =
                    order.iter().map(|&d| shape[d]).collect();
                Tensor::alloc(&in_memory, dtype, device, false)?
                    .permute(&crate::layout::inverse_perm(&order))
            }
            None => Tensor::alloc(shape, dtype, device, false),
        }
    }

    /// A fresh contiguous runtime-owned tensor on `device` from its pool; zeroed when
    /// `zeroed` (host only), otherwise holding unspecified (initialised) bytes. On an
    /// accelerator the pointer is a device address: only that device's backend may write
    /// it, so host code that writes through the pointer allocates on `Device::cpu()` or
    /// after `ensure_cpu`.
    pub(crate) fn alloc(
        shape: &[usize],
        dtype: DType,
        device: Device,
        zeroed: bool,
    ) -> Result<Tensor> {
        if zeroed && !device.is_cpu() {
            // A device pool hands out addresses the host cannot write.
            return Err(crate::Error::UnsupportedOnDevice {
                op: "zeros".to_string(),
                device,
                what: "zero-filled allocation yet (create on the CPU and move it)".to_string(),
            });
        }
        // `Layout::contiguous` knows only the element size: name the real dtype and strides.
        let layout = Layout::contiguous(shape, dtype.size()).map_err(|e| match e {
            crate::Error::ShapeOverflow { shape: dims, .. } => crate::Error::ShapeOverflow {
                shape: dims,
                strides: crate::layout::contiguous_strides(shape)
                    .iter()
                    .map(|&s| s as i64)
                    .collect(),
                dtype,
            },
            e => e,
        })?;
        let nbytes = layout.numel() * dtype.size();
        let block = memory::allocate(device, nbytes, zeroed)?;
        let ptr = block.as_ptr();
        // SAFETY: the pool hands out `nbytes` initialised, writable bytes at `ptr`, aligned to
        // at least 64, owned by `block` until it returns to the pool.
        let storage =
            unsafe { Storage::from_raw_parts(ptr, nbytes, device, Owner::Pool(block), None, true) };
        Ok(Tensor::from_parts(storage, layout, dtype))
    }

    /// A host tensor of `shape` in page-locked memory for `device` (from that device's
    /// pinned pool, tagged [`pinned_for`](Storage::pinned_for) it): `.to(device)` from it is
    /// an asynchronous DMA, the fast path for uploads. The bytes are unspecified (but
    /// initialised). Only CUDA devices have a pinned pool; others answer
    /// [`UnsupportedOnDevice`](crate::Error::UnsupportedOnDevice).
    pub fn empty_pinned(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
        let pool = crate::backend::backend(device)?.pinned_pool()?;
        let layout = Layout::contiguous(shape, dtype.size())?;
        let nbytes = layout.numel() * dtype.size();
        let block = pool.allocate(nbytes, false)?;
        let ptr = block.as_ptr();
        // SAFETY: the pool hands out `nbytes` initialised, writable host bytes at `ptr`,
        // owned by `block` until it returns to the pool; they are page-locked for `device`.
        let storage = unsafe {
            Storage::from_raw_parts(
                ptr,
                nbytes,
                Device::cpu(),
                Owner::Pool(block),
                Some(device),
                true,
            )
        };
        Ok(Tensor::from_parts(storage, layout, dtype))
    }

    /// This host tensor in page-locked memory for `device` (PyTorch's `pin_memory()`): itself
    /// when it is already pinned for `device` and contiguous, else a contiguous copy into
    /// [`empty_pinned`](Tensor::empty_pinned) memory.
    pub fn pin_memory(&self, device: Device) -> Result<Tensor> {
        if !self.device().is_cpu() {
            return Err(crate::Error::InvalidArgument {
                what: format!(
                    "pin_memory: the tensor is on {}; only host tensors are pinned (move it \
                     with .to(cpu) first)",
                    self.device()
                ),
            });
        }
        if self.storage().pinned_for() == Some(device) && self.is_contiguous() {
            return Ok(self.clone());
        }
        let mut out = Tensor::empty_pinned(self.shape(), self.dtype(), device)?;
        out.copy_(self)?;
        Ok(out)
    }

    /// A tensor of zeros.
    pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::alloc(shape, dtype, Device::cpu(), true)
    }

    /// A tensor of ones.
    pub fn ones(shape: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::full(shape, 1.0, dtype)
    }

    /// A tensor with unspecified contents (initialised memory, values not promised).
    pub fn empty(shape: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::alloc(shape, dtype, Device::cpu(), false)
    }

    /// A tensor filled with `value` (converted with the runtime's cast rules).
    pub fn full(shape: &[usize], value: f64, dtype: DType) -> Result<Tensor> {
        let out = Tensor::alloc(shape, dtype, Device::cpu(), false)?;
        crate::dispatch_dtype!(dtype, T => {
            let v = T::from_f64(value);
            // SAFETY: `out` is a fresh, exclusively held, contiguous allocation of `numel`
            // elements of `T`, aligned for `T`.
            unsafe { write_each(out.data_ptr().cast::<T>(), out.numel(), |_| v) };
        });
        Ok(out)
    }

    /// `start, start + step, …` up to (excluding) `end`, as a 1-D tensor of `dtype`.
    pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
        let bad = || Error::OutOfRange {
            what: "arange(start, end, step)",
            value: format!("({start}, {end}, {step})"),
        };
        if step == 0.0 || !step.is_finite() || !start.is_finite() || !end.is_finite() {
            return Err(bad());
        }
        let count = ((end - start) / step).ceil().max(0.0);
        if count > (isize::MAX as usize / dtype.size()) as f64 {
            return Err(bad());
        }
        let n = count as usize;
        let out = Tensor::alloc(&[n], dtype, Device::cpu(), false)?;
        // SAFETY: as in `full`: a fresh exclusive contiguous allocation of `n` elements.
        unsafe { fill_affine(&out, start, step) };
        Ok(out)
    }
}

/// Writes `start + i·step` (computed in `f64`, then cast) to element `i` of the contiguous
/// host tensor `out`, eight elements per step so the arithmetic vectorises (one integer to
/// float conversion per eight elements; a per-element `i as f64` does not vectorise).
///
/// # Safety
/// `out` must be a fresh, exclusively held, contiguous host allocation.
pub(crate) unsafe fn fill_affine(out: &Tensor, start: f64, step: f64) {
    const K: usize = 8;
    crate::dispatch_dtype!(out.dtype(), T => {
        // SAFETY: forwarded: `numel` elements of `T` at `data_ptr`, exclusive.
        unsafe {
            write_groups::<T, K>(out.data_ptr().cast::<T>(), out.numel(), |j| {
                let base = (j * K) as f64;
                std::array::from_fn(|k| T::from_f64(start + (base + k as f64) * step))
            })
        };
    });
}

/// Writes `f(i)` to element `i` of `dst` for `i < n`, through raw pointers (no reference to
/// possibly invalid values, e.g. `bool` bytes, is ever formed). Large fills are split across
/// the runtime's threads in disjoint chunks (a fresh allocation's first touch is most of the
/// cost, and it scales with cores).
///
/// # Safety
/// `dst` must be valid for writes of `n` elements of `T`, aligned, and not aliased by any
/// live reference; `f(i)` may read element `i` of `dst` only.
pub(crate) unsafe fn write_each<T: Send>(dst: *mut T, n: usize, f: impl Fn(usize) -> T + Sync) {
    // SAFETY: forwarded; group `i` of one element is element `i`.
    unsafe { write_groups::<T, 1>(dst, n, |i| [f(i)]) }
}

/// Writes `f(j)` to elements `K·j .. K·j + K` of `dst` (the last group cut at `n`), as
/// [`write_each`] does one element at a time: for generators whose one step makes `K`
/// values.
///
/// # Safety
/// As for [`write_each`]; `f(j)` may read elements of group `j` only.
pub(crate) unsafe fn write_groups<T: Send, const K: usize>(
    dst: *mut T,
    n: usize,
    f: impl Fn(usize) -> [T; K] + Sync,
) {
    /// Elements one thread takes at a time, and the size below which one thread does all.
    const CHUNK: usize = 1 << 15;
    const PARALLEL_MIN: usize = 1 << 17;
    struct Dst<T>(*mut T);
    // SAFETY: each thread writes a disjoint chunk of `dst`, which outlives the loop.
    unsafe impl<T> Sync for Dst<T> {}
    // SAFETY: as above.
    unsafe impl<T> Send for Dst<T> {}
    impl<T> Dst<T> {
        /// Writes groups `lo..hi`, elements from `K·lo` up to `min(K·hi, n)`.
        ///
        /// # Safety
        /// No other call writes these groups; `n` is `write_groups`'s.
        unsafe fn fill<const K: usize>(
            &self,
            lo: usize,
            hi: usize,
            n: usize,
            f: &impl Fn(usize) -> [T; K],
        ) {
            // Whole groups as one array write each (vector stores), the cut one by element.
            let whole = hi.min(n / K.max(1));
            for j in lo..whole {
                // SAFETY: `K·j + K ≤ n`, so the group is in bounds by the caller's guarantee;
                // `[T; K]` has `T`'s alignment, which `dst` has.
                unsafe { self.0.add(j * K).cast::<[T; K]>().write(f(j)) };
            }
            for j in whole.max(lo)..hi {
                for (k, v) in f(j).into_iter().enumerate() {
                    let i = j * K + k;
                    if i < n {
                        // SAFETY: `i < n`, so `dst + i` is in bounds by the caller's
                        // guarantee.
                        unsafe { self.0.add(i).write(v) };
                    }
                }
            }
        }
    }
    let d = Dst(dst);
    let groups = n.div_ceil(K.max(1));
    // One thread under Miri (its strict provenance rejects the pool's tagged pointers) and on
    // a one-thread pool.
    if n < PARALLEL_MIN || cfg!(miri) || crate::threads::current_num_threads() < 2 {
        // SAFETY: every group, on this thread.
        unsafe { d.fill(0, groups, n, &f) };
        return;
    }
    let per_chunk = (CHUNK / K.max(1)).max(1);
    crate::threads::for_each_index(groups.div_ceil(per_chunk), &|c| {
        let (lo, hi) = (c * per_chunk, ((c + 1) * per_chunk).min(groups));
        // SAFETY: chunks of groups are disjoint.
        unsafe { d.fill(lo, hi, n, &f) }
    });
}
