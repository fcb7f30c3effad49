//! Rust conversions: `From<Vec<T>>`, `TryFrom` slices and arrays, typed slices over a
//! contiguous host tensor (`as_slice` / `as_mut_slice`), a typed indexable view
//! ([`TypedView`]) and an element iterator ([`Elements`]).
//!
//! Typed borrows are checked at run time: the element type must be the tensor's dtype, the
//! memory must be host memory, and (for slices) row-major without gaps; a mutable borrow
//! also needs [`Tensor::is_exclusive`]. `Bool` tensors are never borrowed as `&[bool]`: a
//! foreign buffer may hold bytes other than 0 and 1, which are not valid `bool`s; read them
//! with [`Tensor::to_vec`] or [`Tensor::iter`], which normalise.

use std::marker::PhantomData;
use std::ops::Index;

use super::Tensor;
use crate::dtype::Element;
use crate::error::{dims_i64, strides_i64};
use crate::layout::MAX_DIMS;
use crate::{DType, Error, Result};

/// A 1-D tensor that owns the `Vec` without copying it.
///
/// ```
/// use clika_rt::Tensor;
/// let v = vec![1.0f32, 2.0, 3.0];
/// let p = v.as_ptr();
/// let t = Tensor::from(v);
/// assert_eq!(t.shape(), &[3]);
/// assert_eq!(t.const_data_ptr(), p.cast());
/// ```
impl<T: Element> From<Vec<T>> for Tensor {
    fn from(v: Vec<T>) -> Tensor {
        let n = v.len();
        // A `Vec<T>` never holds more than `isize::MAX` bytes, so a 1-D shape of its length
        // always fits (L2) and `from_vec` cannot fail.
        Tensor::from_vec(v, &[n]).expect("a Vec's length is always a valid 1-D shape")
    }
}

/// A 1-D tensor that owns the boxed slice without copying it.
impl<T: Element> From<Box<[T]>> for Tensor {
    fn from(v: Box<[T]>) -> Tensor {
        // `into_vec` reuses the buffer (no copy); a `Vec` may move after its pointer is
        // taken, a `Box` may not (see `StableBytes`).
        let v = v.into_vec();
        let n = v.len();
        Tensor::from_owner(v, &[n], T::DTYPE).expect("a slice's length is a valid 1-D shape")
    }
}

/// A 1-D runtime-owned copy of the slice (fails only when the pool cannot allocate).
///
/// ```
/// use clika_rt::Tensor;
/// let t = Tensor::try_from(&[1i32, 2, 3][..])?;
/// assert_eq!(t.to_vec::<i32>()?, [1, 2, 3]);
/// # Ok::<(), clika_rt::Error>(())
/// ```
impl<T: Element> TryFrom<&[T]> for Tensor {
    type Error = Error;
    fn try_from(v: &[T]) -> Result<Tensor> {
        Tensor::from_data(v, &[v.len()])
    }
}

/// A 1-D runtime-owned copy of the array.
impl<T: Element, const N: usize> TryFrom<[T; N]> for Tensor {
    type Error = Error;
    fn try_from(v: [T; N]) -> Result<Tensor> {
        Tensor::from_data(&v, &[N])
    }
}

/// A 2-D (`R × C`) runtime-owned copy of the nested array.
///
/// ```
/// use clika_rt::Tensor;
/// let t = Tensor::try_from([[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0]])?;
/// assert_eq!(t.shape(), &[3, 2]);
/// assert_eq!(t.as_slice::<f64>()?, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// # Ok::<(), clika_rt::Error>(())
/// ```
impl<T: Element, const R: usize, const C: usize> TryFrom<[[T; C]; R]> for Tensor {
    type Error = Error;
    fn try_from(v: [[T; C]; R]) -> Result<Tensor> {
        Tensor::from_data(v.as_flattened(), &[R, C])
    }
}

/// The elements in row-major order (see [`Tensor::to_vec`]: `T` must be the dtype).
impl<T: Element> TryFrom<&Tensor> for Vec<T> {
    type Error = Error;
    fn try_from(t: &Tensor) -> Result<Vec<T>> {
        t.to_vec()
    }
}

impl Tensor {
    /// Checks that `T` is this tensor's dtype, that the memory is host memory and that `T` is
    /// not `bool` (see the module docs).
    pub(super) fn check_typed<T: Element>(&self, op: &'static str) -> Result<()> {
        if T::DTYPE != self.dtype() {
            return Err(Error::DTypeMismatch {
                expected: T::DTYPE,
                actual: self.dtype(),
            });
        }
        if T::DTYPE == DType::Bool {
            return Err(Error::UnsupportedDType {
                op: "a typed borrow (a foreign bool buffer may hold bytes other than 0/1; read it with to_vec::<bool>() or iter::<bool>(), which normalise)",
                dtype: DType::Bool,
            });
        }
        self.ensure_cpu(op)
    }

    fn check_slice<T: Element>(&self, op: &'static str) -> Result<()> {
        self.check_typed::<T>(op)?;
        if !self.is_contiguous() {
            return Err(Error::NotContiguous {
                op,
                shape: dims_i64(self.shape()),
                strides: strides_i64(self.strides()),
            });
        }
        Ok(())
    }

    /// The elements of a contiguous host tensor as a slice, without copying.
    ///
    /// Fails with [`Error::DTypeMismatch`] unless `T` is the dtype, [`Error::NotContiguous`]
    /// for a strided view (call [`contiguous`](Tensor::contiguous) first),
    /// [`Error::UnsupportedOnDevice`] for device memory (move it with `.to(Device::cpu())`),
    /// and [`Error::UnsupportedDType`] for `bool`.
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let t = Tensor::from(vec![1u8, 2, 3, 4]).reshape(&[2, 2])?;
    /// assert_eq!(t.as_slice::<u8>()?, &[1, 2, 3, 4]);
    /// assert!(t.t().as_slice::<u8>().is_err()); // a transposed view is not contiguous
    /// assert!(t.as_slice::<i8>().is_err()); // wrong element type
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        self.check_slice::<T>("as_slice")?;
        if self.numel() == 0 {
            return Ok(&[]);
        }
        // SAFETY: host memory (checked) of dtype `T` (checked, not bool, so every bit
        // pattern is valid); contiguous (checked), so the `numel` elements from `data_ptr`
        // are exactly the reachable ones, in bounds by L3 and aligned (checked at
        // construction). Safe code cannot write them while `&self` is borrowed: safe writes
        // need an exclusive storage and this tensor holds a reference to it; unsafe writers
        // (`*_shared`, borrowed buffers) promised no concurrent access.
        Ok(unsafe { std::slice::from_raw_parts(self.data_ptr().cast::<T>(), self.numel()) })
    }

    /// The elements of a contiguous host tensor as a mutable slice, without copying.
    ///
    /// Fails as [`as_slice`](Tensor::as_slice) does, and also with [`Error::ReadOnly`] for
    /// memory lent read-only and [`Error::SharedWrite`] when another tensor or view shares
    /// the storage.
    ///
    /// ```
    /// use clika_rt::{DType, Tensor};
    /// let mut t = Tensor::zeros(&[3], DType::Int32)?;
    /// t.as_mut_slice::<i32>()?.copy_from_slice(&[7, 8, 9]);
    /// assert_eq!(t.to_vec::<i32>()?, [7, 8, 9]);
    /// let view = t.clone();
    /// assert!(t.as_mut_slice::<i32>().is_err()); // shared with `view`
    /// # drop(view);
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        self.check_slice::<T>("as_mut_slice")?;
        self.ensure_exclusive("as_mut_slice")?;
        if self.numel() == 0 {
            return Ok(&mut []);
        }
        // SAFETY: as in `as_slice`; in addition the storage is writable and referenced by this
        // tensor alone (checked), and `&mut self` keeps it so for the slice's lifetime.
        Ok(unsafe { std::slice::from_raw_parts_mut(self.data_ptr().cast::<T>(), self.numel()) })
    }

    /// A typed, indexable view of a host tensor of any layout (strided, broadcast, empty):
    /// `view[[i, j]]` reads one element by reference.
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let t = Tensor::try_from([[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]])?;
    /// let tt = t.t(); // a transposed, non-contiguous view
    /// let v = tt.typed_view::<f32>()?;
    /// assert_eq!(v[[2, 1]], 6.0);
    /// assert_eq!(v.get(&[3, 0]), None);
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn typed_view<T: Element>(&self) -> Result<TypedView<'_, T>> {
        self.check_typed::<T>("typed_view")?;
        Ok(TypedView {
            tensor: self,
            _t: PhantomData,
        })
    }

    /// The elements in row-major order, read one at a time (any layout; a device tensor is
    /// copied to the host first). `T` must be the dtype; `bool` elements are normalised.
    ///
    /// ```
    /// use clika_rt::Tensor;
    /// let t = Tensor::try_from([[1i64, 2], [3, 4]])?;
    /// let col_major: Vec<i64> = t.t().iter::<i64>()?.collect();
    /// assert_eq!(col_major, [1, 3, 2, 4]);
    /// # Ok::<(), clika_rt::Error>(())
    /// ```
    pub fn iter<T: Element>(&self) -> Result<Elements<T>> {
        if T::DTYPE != self.dtype() {
            return Err(Error::DTypeMismatch {
                expected: T::DTYPE,
                actual: self.dtype(),
            });
        }
        let tensor = if self.device().is_cpu() {
            self.clone()
        } else {
            crate::backend::host(self)?
        };
        let remaining = tensor.numel();
        let offset = tensor.storage_offset() as isize;
        Ok(Elements {
            tensor,
            index: [0; MAX_DIMS],
            offset,
            remaining,
            _t: PhantomData,
        })
    }
}

/// A typed view of a host tensor (see [`Tensor::typed_view`]); indexing panics when an index
/// is out of range or has the wrong length, like slice indexing ([`get`](TypedView::get)
/// returns `None` instead).
pub struct TypedView<'a, T: Element> {
    tensor: &'a Tensor,
    _t: PhantomData<&'a [T]>,
}

impl<T: Element> std::fmt::Debug for TypedView<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedView")
            .field("shape", &self.tensor.shape())
            .field("dtype", &T::DTYPE)
            .finish()
    }
}

impl<'a, T: Element> TypedView<'a, T> {
    /// Sizes of each dimension.
    pub fn shape(&self) -> &'a [usize] {
        self.tensor.shape()
    }

    /// The element at `index` (one index per dimension), or `None` when out of range.
    pub fn get(&self, index: &[usize]) -> Option<&'a T> {
        let t = self.tensor;
        if index.len() != t.ndim() || index.iter().zip(t.shape()).any(|(&i, &n)| i >= n) {
            return None;
        }
        let off = index
            .iter()
            .zip(t.strides())
            .fold(t.storage_offset() as isize, |o, (&i, &s)| {
                o + i as isize * s
            });
        // SAFETY: `index` is in range, so `off` is a reachable element, in bounds by L3 and
        // aligned; host memory of dtype `T`, not bool (checked when the view was made); no
        // safe write can happen while the tensor is borrowed (see `Tensor::as_slice`).
        Some(unsafe { &*t.storage().as_ptr().cast::<T>().offset(off) })
    }
}

impl<T: Element> Index<&[usize]> for TypedView<'_, T> {
    type Output = T;
    fn index(&self, index: &[usize]) -> &T {
        self.get(index).unwrap_or_else(|| {
            panic!(
                "index {index:?} is out of range for a tensor of shape {:?}",
                self.shape()
            )
        })
    }
}

impl<T: Element, const N: usize> Index<[usize; N]> for TypedView<'_, T> {
    type Output = T;
    fn index(&self, index: [usize; N]) -> &T {
        &self[&index[..]]
    }
}

/// Iterator over a tensor's elements in row-major order (see [`Tensor::iter`]). It holds a
/// reference to the storage, so the tensor may be dropped while iterating.
pub struct Elements<T: Element> {
    tensor: Tensor,
    index: [usize; MAX_DIMS],
    offset: isize,
    remaining: usize,
    _t: PhantomData<T>,
}

impl<T: Element> std::fmt::Debug for Elements<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Elements")
            .field("remaining", &self.remaining)
            .finish()
    }
}

impl<T: Element> Iterator for Elements<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.remaining == 0 {
            return None;
        }
        // SAFETY: `offset` is the offset of the element at `index`, which is in range while
        // elements remain, so it is reachable and in bounds by L3; host memory of dtype `T`
        // (checked in `Tensor::iter`).
        let v = unsafe { self.tensor.load::<T>(self.offset as usize) };
        self.remaining -= 1;
        let (shape, strides) = (self.tensor.shape(), self.tensor.strides());
        for d in (0..shape.len()).rev() {
            self.index[d] += 1;
            self.offset += strides[d];
            if self.index[d] < shape[d] {
                break;
            }
            self.offset -= strides[d] * shape[d] as isize;
            self.index[d] = 0;
        }
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T: Element> ExactSizeIterator for Elements<T> {}
