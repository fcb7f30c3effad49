//! `ndarray` interop (feature `ndarray`): owned arrays become tensors without a copy, tensors
//! lend typed `ArrayView`s whose lifetime is the tensor borrow's, and copies both ways.
//!
//! ```
//! use clika_rt::Tensor;
//! use ndarray::{array, ArrayD};
//!
//! let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let p = a.as_ptr();
//! let t = Tensor::try_from(a)?; // moved: the array's buffer is the tensor's storage
//! assert_eq!(t.const_data_ptr(), p.cast());
//! let v = t.as_array_view::<f32>()?; // borrowed: `v` cannot outlive `t`
//! assert_eq!(v.as_ptr(), p);
//! assert_eq!(v[[1, 2]], 6.0);
//! let back = ArrayD::<f32>::try_from(&t.t())?; // a copy, in the view's logical order
//! assert_eq!(back.shape(), &[3, 2]);
//! assert_eq!(back[[2, 0]], 3.0);
//! # Ok::<(), clika_rt::Error>(())
//! ```

use ndarray::{Array, ArrayBase, ArrayD, ArrayViewD, ArrayViewMutD, Axis, Data, Dimension, IxDyn};
use ndarray::{ShapeBuilder, ViewRepr};

use super::Tensor;
use crate::dtype::Element;
use crate::layout::Layout;
use crate::{Error, Result};

/// Moves an owned array into a tensor **without copying**, whatever its layout (row- or
/// column-major, sliced, negative strides): the array's buffer becomes the storage and is
/// dropped with the last tensor over it. Fails only for a layout the runtime cannot describe
/// (more than 64 dimensions).
impl<T: Element, D: Dimension> TryFrom<Array<T, D>> for Tensor {
    type Error = Error;
    fn try_from(a: Array<T, D>) -> Result<Tensor> {
        let shape: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
        let strides: Vec<i64> = a.strides().iter().map(|&s| s as i64).collect();
        let foreign = Layout::from_foreign(&shape, Some(&strides), T::DTYPE)?;
        let (buffer, first) = a.into_raw_vec_and_offset();
        let layout = foreign.layout.with_offset(first.unwrap_or(0));
        let owner = Tensor::from(buffer);
        // `from_storage` checks L3 against the whole buffer.
        Tensor::from_storage(owner.storage().clone(), layout, T::DTYPE)
    }
}

/// Copies an array view (any layout) into a new row-major tensor: a tensor has no lifetime,
/// so it cannot borrow the view's memory.
impl<T: Element, D: Dimension> TryFrom<ArrayBase<ViewRepr<&T>, D>> for Tensor {
    type Error = Error;
    fn try_from(a: ArrayBase<ViewRepr<&T>, D>) -> Result<Tensor> {
        copy_array(&a)
    }
}

fn copy_array<S: Data, D: Dimension>(a: &ArrayBase<S, D>) -> Result<Tensor>
where
    S::Elem: Element,
{
    let data: Vec<S::Elem> = a.iter().copied().collect();
    Tensor::from_vec(data, a.shape())
}

/// Copies the tensor's elements (any layout or device) into a row-major array.
impl<T: Element> TryFrom<&Tensor> for ArrayD<T> {
    type Error = Error;
    fn try_from(t: &Tensor) -> Result<ArrayD<T>> {
        let data = t.to_vec::<T>()?;
        Array::from_shape_vec(IxDyn(t.shape()), data).map_err(|e| Error::Internal {
            message: format!("ndarray refused a row-major shape: {e}"),
        })
    }
}

impl Tensor {
    /// A borrowed `ndarray` view of a host tensor of any layout (strided, broadcast,
    /// negative strides), without copying; its lifetime is this borrow's. Fails as
    /// [`typed_view`](Tensor::typed_view) does (dtype, device, `bool`).
    pub fn as_array_view<T: Element>(&self) -> Result<ArrayViewD<'_, T>> {
        self.check_typed::<T>("as_array_view")?;
        let (ptr, strides, flipped) = self.lowest_element::<T>();
        if self.numel() == 0 {
            return Ok(ArrayViewD::from_shape(IxDyn(self.shape()), &[]).expect("empty shape"));
        }
        // SAFETY: `ptr` is the lowest reachable element and `strides` are the absolute
        // strides, so every pointer the view forms is a reachable element of this tensor: in
        // bounds by L3, aligned, host memory of dtype `T` (not bool, so any bytes are valid);
        // L2 bounds the extent by `isize::MAX`. Safe code cannot write these elements while
        // `&self` is borrowed (see `Tensor::as_slice`).
        let mut v =
            unsafe { ArrayViewD::from_shape_ptr(IxDyn(self.shape()).strides(strides), ptr) };
        for d in flipped {
            v.invert_axis(Axis(d));
        }
        Ok(v)
    }

    /// A mutable `ndarray` view of a host tensor whose elements do not overlap (no
    /// broadcast dimension), without copying. Fails as [`as_array_view`] does, with
    /// [`Error::ReadOnly`] / [`Error::SharedWrite`] unless the tensor is the only reference
    /// to writable memory, and with [`Error::InvalidArgument`] for overlapping layouts.
    ///
    /// [`as_array_view`]: Tensor::as_array_view
    pub fn as_array_view_mut<T: Element>(&mut self) -> Result<ArrayViewMutD<'_, T>> {
        self.check_typed::<T>("as_array_view_mut")?;
        self.ensure_exclusive("as_array_view_mut")?;
        if self.numel() == 0 {
            return Ok(
                ArrayViewMutD::from_shape(IxDyn(self.shape()), &mut []).expect("empty shape")
            );
        }
        if self.overlaps_itself() {
            return Err(Error::InvalidArgument {
                what: format!(
                    "as_array_view_mut: shape {:?} with strides {:?} reaches some elements more than once (a broadcast view); write into contiguous() instead",
                    self.shape(),
                    self.strides()
                ),
            });
        }
        let (ptr, strides, flipped) = self.lowest_element::<T>();
        // SAFETY: as in `as_array_view`; in addition the storage is writable and referenced
        // by this tensor alone (checked), `&mut self` keeps it so, and no element is reached
        // twice (checked), so the view's `&mut` elements do not alias.
        let mut v = unsafe {
            ArrayViewMutD::from_shape_ptr(IxDyn(self.shape()).strides(strides), ptr.cast_mut())
        };
        for d in flipped {
            v.invert_axis(Axis(d));
        }
        Ok(v)
    }

    /// The lowest reachable element, the absolute strides, and the dimensions whose stride
    /// is negative (to flip back after viewing with absolute strides).
    fn lowest_element<T: Element>(&self) -> (*const T, IxDyn, Vec<usize>) {
        let mut lowest = self.storage_offset() as isize;
        let mut flipped = Vec::new();
        let mut abs = Vec::with_capacity(self.ndim());
        for (d, (&n, &s)) in self.shape().iter().zip(self.strides()).enumerate() {
            if s < 0 && n > 0 {
                lowest += s * (n as isize - 1);
                flipped.push(d);
            }
            abs.push(s.unsigned_abs());
        }
        let ptr = self
            .storage()
            .as_ptr()
            .cast::<T>()
            .wrapping_offset(lowest)
            .cast_const();
        (ptr, IxDyn(&abs), flipped)
    }

    /// Whether some element is reachable through two indices: sorted by stride, each
    /// dimension's stride must clear the extent of the ones below it (a sufficient test).
    fn overlaps_itself(&self) -> bool {
        let mut dims: Vec<(usize, usize)> = self
            .shape()
            .iter()
            .zip(self.strides())
            .filter(|(&n, _)| n > 1)
            .map(|(&n, &s)| (s.unsigned_abs(), n))
            .collect();
        dims.sort_unstable();
        let mut extent = 0usize;
        for (s, n) in dims {
            if s <= extent {
                return true;
            }
            extent += s * (n - 1);
        }
        false
    }
}
