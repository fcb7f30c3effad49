//! In-place operations: `fill_`, `copy_` and `op_` (e.g. `add_`).
//!
//! Writing memory that another tensor can see would let safe code race with itself, so the
//! safe methods require the tensor to be the only reference to its storage
//! ([`Tensor::is_exclusive`]); the `unsafe …_shared` forms write through views of shared
//! storage and make the caller promise no concurrent access (the C ABI and Python use them,
//! with the same contract as PyTorch and numpy).

use super::binary::{as_operand, broadcast_shapes, same_device, BinaryOp, BinaryPlan};
use crate::backend::{backend, kernel::map1};
use crate::dtype::Element;
use crate::error::dims_i64;
use crate::{Error, Result, Tensor};

impl Tensor {
    /// Whether this tensor may be written through safe methods: its storage is writable and
    /// no other tensor or view shares it.
    pub fn is_exclusive(&self) -> bool {
        self.storage().is_writable() && self.storage().is_unique()
    }

    /// Whether the runtime may overwrite this tensor's memory with a result: exclusive, and
    /// runtime-owned or adopted (never borrowed or kept-alive foreign memory).
    pub(crate) fn may_overwrite(&self) -> bool {
        self.is_exclusive() && self.owner_kind().runtime_may_reuse()
    }

    /// The buffer-reuse rule: whether an op may write its result (of `dtype` and `shape`)
    /// into this tensor's memory instead of allocating — the tensor is the only reference to
    /// writable runtime-owned or adopted memory, contiguous, of that dtype and shape. The
    /// `*_owned` ops and the bindings' operators on temporaries follow it.
    pub fn may_hold_result(&self, dtype: crate::DType, shape: &[usize]) -> bool {
        self.dtype() == dtype
            && self.shape() == shape
            && self.is_contiguous()
            && self.may_overwrite()
    }

    pub(crate) fn ensure_exclusive(&self, op: &'static str) -> Result<()> {
        if !self.storage().is_writable() {
            return Err(Error::ReadOnly {
                reason: "its owner only grants read access",
            });
        }
        if !self.storage().is_unique() {
            return Err(Error::SharedWrite { op });
        }
        Ok(())
    }

    /// Sets every element to `value` (converted to the dtype).
    pub fn fill_(&mut self, value: f64) -> Result<()> {
        self.ensure_exclusive("fill_")?;
        // SAFETY: exclusive (checked): nobody else can read or write this storage.
        unsafe { self.fill_shared(value) }
    }

    /// Copies `src` (broadcast to this shape, converted to this dtype) into this tensor.
    pub fn copy_(&mut self, src: &Tensor) -> Result<()> {
        self.ensure_exclusive("copy_")?;
        // SAFETY: exclusive (checked).
        unsafe { self.copy_shared(src) }
    }

    /// `self = op(self, other)` in place; the result is converted to this tensor's dtype
    /// and must broadcast to its shape.
    pub fn binary_(&mut self, op: BinaryOp, other: &Tensor) -> Result<()> {
        self.ensure_exclusive(op.name())?;
        // SAFETY: exclusive (checked).
        unsafe { self.binary_shared(op, other) }
    }

    /// `self += other`.
    pub fn add_(&mut self, other: &Tensor) -> Result<()> {
        self.binary_(BinaryOp::Add, other)
    }

    /// `self *= other`.
    pub fn mul_(&mut self, other: &Tensor) -> Result<()> {
        self.binary_(BinaryOp::Mul, other)
    }

    /// [`fill_`](Tensor::fill_) through a possibly shared view.
    ///
    /// # Safety
    /// The memory must be writable (a borrowed buffer must permit writes), and no other
    /// thread may read or write the elements this view reaches during the call.
    pub unsafe fn fill_shared(&self, value: f64) -> Result<()> {
        self.ensure_writable()?;
        if !self.device().is_cpu() {
            // A device fills through its copy kernel from a broadcast one-element tensor.
            let v = Tensor::full(&[], value, self.dtype())?.to(self.device())?;
            // SAFETY: forwarded from the caller; `v` is fresh, so it does not overlap.
            return unsafe { self.copy_shared(&v) };
        }
        crate::dispatch_dtype!(self.dtype(), T => {
            let v = T::from_f64(value);
            // SAFETY: the caller excludes concurrent access; input and output are this
            // tensor exactly.
            unsafe { map1::<T, T>(self, self, move |_| v) };
        });
        Ok(())
    }

    /// [`copy_`](Tensor::copy_) through a possibly shared view. A source that overlaps this
    /// tensor's memory is read in full before anything is written.
    ///
    /// # Safety
    /// As for [`fill_shared`](Tensor::fill_shared).
    pub unsafe fn copy_shared(&self, src: &Tensor) -> Result<()> {
        self.ensure_writable()?;
        // A source on another device is moved here first (PyTorch's `copy_` crosses devices).
        let src = &if src.device() == self.device() {
            src.clone()
        } else {
            src.to(self.device())?
        };
        let shape = broadcast_shapes(src.shape(), self.shape())?;
        if shape.as_slice() != self.shape() {
            return Err(Error::ShapeMismatch {
                op: "copy_",
                expected: dims_i64(self.shape()),
                got: dims_i64(src.shape()),
            });
        }
        let src = self.detach_overlap(src)?;
        let src = as_operand(&src, src.dtype(), self.shape())?;
        // SAFETY: the caller excludes concurrent access; `src` has this shape and no longer
        // shares memory with `self` unless it is `self` exactly.
        unsafe { backend(self.device())?.copy(&src, self) }
    }

    /// `op_` through a possibly shared view.
    ///
    /// # Safety
    /// As for [`fill_shared`](Tensor::fill_shared).
    pub unsafe fn binary_shared(&self, op: BinaryOp, other: &Tensor) -> Result<()> {
        // A 0-d host tensor (a scalar) combines with a tensor on any device, as out of place.
        let other =
            &if other.device() != self.device() && other.ndim() == 0 && other.device().is_cpu() {
                other.to(self.device())?
            } else {
                same_device(op.name(), self, other)?;
                other.clone()
            };
        self.ensure_writable()?;
        let plan = BinaryPlan::new(op, self, other)?;
        super::elementwise_more::check_in_place(op, plan.out, self.dtype())?;
        if plan.out != self.dtype()
            || plan.compute != plan.out
            || plan.shape.as_slice() != self.shape()
        {
            let r = super::binary::binary(op, self, other)?;
            // SAFETY: forwarded from the caller.
            return unsafe { self.copy_shared(&r) };
        }
        let other = self.detach_overlap(other)?;
        // SAFETY: the caller excludes concurrent access; the output is `self` exactly, and
        // `other` no longer overlaps it.
        unsafe { backend(self.device())?.binary(&plan, self, &other, self) }
    }

    pub(crate) fn ensure_writable(&self) -> Result<()> {
        if self.storage().is_writable() {
            Ok(())
        } else {
            Err(Error::ReadOnly {
                reason: "its owner only grants read access",
            })
        }
    }

    /// `src`, or a private copy of it when it shares this tensor's storage under another
    /// layout (so reading it while writing `self` cannot see half-written values).
    pub(crate) fn detach_overlap(&self, src: &Tensor) -> Result<Tensor> {
        let same = src.layout() == self.layout() && src.dtype() == self.dtype();
        if src.storage().same_as(self.storage()) && !same {
            src.contiguous_copy()
        } else {
            Ok(src.clone())
        }
    }
}
