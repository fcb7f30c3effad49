//! Reading elements out of a tensor.

use super::Tensor;
use crate::dtype::{cast, Element};
use crate::ops::strided::for_each_offset;
use crate::{Error, Result};

impl Tensor {
    /// The single element, converted to `T` with the runtime's cast rules (like C++
    /// `item<T>()`). A device tensor is synchronised and read back. Fails unless the tensor has exactly one element.
    pub fn item<T: Element>(&self) -> Result<T> {
        if !self.device().is_cpu() {
            return crate::backend::host(self)?.item();
        }
        if self.numel() != 1 {
            return Err(Error::NotScalar {
                numel: self.numel(),
            });
        }
        let off = self.layout.offset();
        Ok(crate::dispatch_dtype!(self.dtype, S => {
            // SAFETY: by L3 the tensor's single element lies at `offset` inside the storage,
            // which is host memory (checked) aligned for `S`.
            cast::<S, T>(unsafe { self.load::<S>(off) })
        }))
    }

    /// The elements in row-major order. `T` must be the tensor's dtype (convert first with
    /// [`to_dtype`](Tensor::to_dtype) otherwise).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if !self.device().is_cpu() {
            return crate::backend::host(self)?.to_vec();
        }
        if T::DTYPE != self.dtype {
            return Err(Error::DTypeMismatch {
                expected: T::DTYPE,
                actual: self.dtype,
            });
        }
        let mut out = Vec::with_capacity(self.numel());
        // SAFETY: every offset `for_each_offset` yields is reachable, so in bounds by L3.
        for_each_offset(&self.layout, |off| out.push(unsafe { self.load::<T>(off) }));
        Ok(out)
    }

    /// Every element converted to `f64`, row-major (for printing and tests).
    pub fn to_f64_vec(&self) -> Result<Vec<f64>> {
        if !self.device().is_cpu() {
            return crate::backend::host(self)?.to_f64_vec();
        }
        let mut out = Vec::with_capacity(self.numel());
        crate::dispatch_dtype!(self.dtype, S => {
            // SAFETY: every offset yielded is reachable, so in bounds by L3.
            for_each_offset(&self.layout, |off| out.push(unsafe { self.load::<S>(off) }.to_f64()));
        });
        Ok(out)
    }

    /// Reads the element at absolute element offset `off` of the storage.
    ///
    /// # Safety
    /// `off` must be a reachable element of this tensor's layout (so in bounds by L3), `S`
    /// must be the element type of `self.dtype`, and the storage must be host memory.
    pub(crate) unsafe fn load<S: Element>(&self, off: usize) -> S {
        debug_assert_eq!(S::DTYPE, self.dtype);
        let p = self.storage.as_ptr().cast::<S>();
        // SAFETY: the caller guarantees `off` is in bounds and `S` matches; storage of this
        // dtype is aligned for it (checked at construction).
        unsafe { S::load(p.add(off)) }
    }
}
