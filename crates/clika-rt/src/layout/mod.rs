//! Strided layouts: shape, strides in elements (signed) and an element offset into storage.
//!
//! # Invariants
//!
//! A [`Layout`] paired with a storage of `storage_len` elements upholds:
//!
//! - **L1** `strides.len() == shape.len() <= MAX_DIMS`.
//! - **L2** the element count, and every partial sum `Σ |stride_k| · (shape_k − 1)`, fit in
//!   `isize`; so does the byte extent at the tensor's dtype.
//! - **L3** if the layout has elements, every reachable element index
//!   `offset + Σ i_k · stride_k` (with `0 ≤ i_k < shape_k`) lies in `0..storage_len`.
//!   Without elements, `offset ≤ storage_len`.
//! - **L4** every view operation in this module maps a layout that upholds L1–L3 to one that
//!   upholds them for the same storage: the reachable set of a view is a subset of the
//!   reachable set of its source.
//!
//! Constructors that take foreign descriptors ([`Layout::from_foreign`]) check L1–L2 and
//! return the element range the caller must provide for L3; [`Layout::check_within`] checks L3.

use smallvec::SmallVec;

use crate::error::{dims_i64, strides_i64, Error, Result};

/// The most dimensions a tensor may have.
pub const MAX_DIMS: usize = 64;

/// Inline storage for dimension lists: no heap allocation up to 6 dimensions.
pub type DimVec<T> = SmallVec<[T; 6]>;

/// Shape, strides (in elements) and offset (in elements) of a strided view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    shape: DimVec<usize>,
    strides: DimVec<isize>,
    offset: usize,
}

/// What [`Layout::from_foreign`] derives from an untrusted descriptor: the layout relative to
/// the lowest reachable element, and how many elements the memory must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignLayout {
    /// The layout, with `offset` = how many elements the first element sits above the lowest
    /// reachable one (non-zero only with negative strides).
    pub layout: Layout,
    /// Elements between the lowest and highest reachable element, inclusive (0 when empty).
    pub span: usize,
}

/// Row-major (C-order) strides for `shape`.
pub fn contiguous_strides(shape: &[usize]) -> DimVec<isize> {
    let mut strides: DimVec<isize> = SmallVec::from_elem(0, shape.len());
    let mut acc: isize = 1;
    for (s, &d) in strides.iter_mut().zip(shape).rev() {
        *s = acc;
        acc = acc.wrapping_mul(d.max(1) as isize);
    }
    strides
}

/// The permutation that sorts dimensions by decreasing absolute stride of `strides` (the
/// smallest stride innermost, ties in dim order), for reductions, copies and results whose order
/// is free: every backend lays a result out in this order where it keeps its input's.
pub(crate) fn order_by_stride(shape: &[usize], strides: &[isize]) -> DimVec<usize> {
    let mut order: DimVec<usize> = (0..shape.len()).collect();
    order.sort_by_key(|&d| std::cmp::Reverse(strides[d].unsigned_abs()));
    debug_assert!(order.len() <= MAX_DIMS);
    order
}

/// The permutation that puts `t`'s dims in memory order ([`order_by_stride`]), and its
/// inverse: `t.permute(perm)` is a view whose dense copy, permuted by `inverse`, holds `t`'s
/// values laid out in `t`'s own memory order (a channels-last input stays channels-last).
pub(crate) fn memory_order_perms(
    shape: &[usize],
    strides: &[isize],
) -> (DimVec<isize>, DimVec<isize>) {
    order_perms(&order_by_stride(shape, strides))
}

/// A dim order as the permutation `permute` takes (`t.permute(perm)` lists `t`'s dims in
/// `order`), and the inverse that puts a result of that view back in `t`'s dim order.
pub(crate) fn order_perms(order: &[usize]) -> (DimVec<isize>, DimVec<isize>) {
    (
        order.iter().map(|&d| d as isize).collect(),
        inverse_perm(order),
    )
}

/// The dims in memory order when the operands of an element-wise op that have its full
/// `shape` share one dense layout (no gaps, no overlap) other than row-major, and every
/// other operand is a single element (a scalar broadcast): the layout the op's result keeps,
/// as PyTorch's and numpy's do, so `a.T * b.T` is one streaming pass. Dims of size 1 come
/// last (their strides mean nothing and are not compared). `None` for row-major operands,
/// operands of different layouts, broadcast rows, gaps, overlap or negative steps.
pub(crate) fn shared_dense_order(
    shape: &[usize],
    operands: &[(&[usize], &[isize])],
) -> Option<DimVec<usize>> {
    let full: DimVec<&[isize]> = operands
        .iter()
        .filter(|(s, _)| *s == shape)
        .map(|&(_, st)| st)
        .collect();
    let strides = *full.first()?;
    let single = |s: &[usize]| s.iter().product::<usize>() == 1;
    let alike = |st: &[isize]| (0..shape.len()).all(|d| shape[d] == 1 || st[d] == strides[d]);
    if !full.iter().all(|st| alike(st)) || !operands.iter().all(|(s, _)| *s == shape || single(s)) {
        return None;
    }
    let mut order: DimVec<usize> = (0..shape.len()).collect();
    order.sort_by_key(|&d| (shape[d] == 1, std::cmp::Reverse(strides[d])));
    let mut step = 1isize;
    for &d in order.iter().rev().filter(|&&d| shape[d] > 1) {
        if strides[d] != step {
            return None;
        }
        step *= shape[d] as isize;
    }
    let moved = order.iter().filter(|&&d| shape[d] > 1);
    if moved.clone().zip(moved.skip(1)).all(|(a, b)| a < b) {
        return None; // row-major but for the strides of size-1 dims
    }
    Some(order)
}

/// The inverse of a permutation, as `permute` takes it.
pub(crate) fn inverse_perm(order: &[usize]) -> DimVec<isize> {
    let mut back: DimVec<isize> = SmallVec::from_elem(0, order.len());
    for (i, &d) in order.iter().enumerate() {
        back[d] = i as isize;
    }
    back
}

/// Checked element count of `shape`.
pub fn checked_numel(shape: &[usize]) -> Option<usize> {
    shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= isize::MAX as usize)
}

/// Normalises a possibly negative dimension index against `ndim`.
pub fn normalize_dim(dim: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    let d = if dim < 0 { dim + n } else { dim };
    if (0..n).contains(&d) {
        Ok(d as usize)
    } else {
        Err(Error::DimOutOfRange {
            dim: dim as i64,
            ndim,
        })
    }
}

pub(crate) fn too_many_dims(ndim: usize) -> Result<()> {
    if ndim > MAX_DIMS {
        Err(Error::TooManyDims {
            ndim,
            max: MAX_DIMS,
        })
    } else {
        Ok(())
    }
}

impl Layout {
    /// A row-major layout of `shape` at offset 0, checking L1–L2 for elements of `itemsize`
    /// bytes.
    pub fn contiguous(shape: &[usize], itemsize: usize) -> Result<Layout> {
        too_many_dims(shape.len())?;
        let overflow = || Error::ShapeOverflow {
            shape: dims_i64(shape),
            strides: vec![],
            dtype: crate::DType::UInt8,
        };
        let numel = checked_numel(shape).ok_or_else(overflow)?;
        numel
            .checked_mul(itemsize)
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(overflow)?;
        Ok(Layout {
            shape: shape.into(),
            strides: contiguous_strides(shape),
            offset: 0,
        })
    }

    /// Validates an untrusted descriptor (shape, optional strides in elements) for elements of
    /// `itemsize` bytes: L1 and L2, negative sizes, overflow. `strides = None` means row-major.
    pub fn from_foreign(
        shape: &[i64],
        strides: Option<&[i64]>,
        dtype: crate::DType,
    ) -> Result<ForeignLayout> {
        too_many_dims(shape.len())?;
        if let Some(s) = strides {
            if s.len() != shape.len() {
                return Err(Error::StridesMismatch {
                    shape_len: shape.len(),
                    strides_len: s.len(),
                });
            }
        }
        if let Some(dim) = shape.iter().position(|&d| d < 0) {
            return Err(Error::NegativeDim {
                shape: shape.to_vec(),
                dim,
            });
        }
        let overflow = || Error::ShapeOverflow {
            shape: shape.to_vec(),
            strides: strides.map(<[i64]>::to_vec).unwrap_or_default(),
            dtype,
        };
        let ushape: DimVec<usize> = shape
            .iter()
            .map(|&d| {
                usize::try_from(d)
                    .ok()
                    .filter(|&d| d <= isize::MAX as usize)
            })
            .collect::<Option<_>>()
            .ok_or_else(overflow)?;
        let numel = checked_numel(&ushape).ok_or_else(overflow)?;
        numel
            .checked_mul(dtype.size())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(overflow)?;
        let istrides: DimVec<isize> = match strides {
            None => contiguous_strides(&ushape),
            Some(s) => s
                .iter()
                .map(|&v| isize::try_from(v).ok())
                .collect::<Option<_>>()
                .ok_or_else(overflow)?,
        };
        if numel == 0 {
            let layout = Layout {
                shape: ushape,
                strides: istrides,
                offset: 0,
            };
            return Ok(ForeignLayout { layout, span: 0 });
        }
        let (lo, hi) = extent(&ushape, &istrides).ok_or_else(overflow)?;
        let span = usize::try_from(hi - lo)
            .ok()
            .and_then(|n| n.checked_add(1))
            .filter(|&n| {
                n.checked_mul(dtype.size())
                    .is_some_and(|b| b <= isize::MAX as usize)
            })
            .ok_or_else(overflow)?;
        let layout = Layout {
            shape: ushape,
            strides: istrides,
            offset: (-lo) as usize,
        };
        Ok(ForeignLayout { layout, span })
    }

    /// Checks L3: every reachable element lies in `0..storage_len` (in elements).
    pub fn check_within(&self, storage_len: usize) -> bool {
        if self.numel() == 0 {
            return self.offset <= storage_len;
        }
        match extent(&self.shape, &self.strides) {
            Some((lo, hi)) => {
                let off = self.offset as isize;
                off.checked_add(lo).is_some_and(|v| v >= 0)
                    && off
                        .checked_add(hi)
                        .is_some_and(|v| (v as usize) < storage_len)
            }
            None => false,
        }
    }

    /// Sizes of each dimension.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Strides of each dimension, in elements (may be negative or zero).
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// Offset of the first element from the storage start, in elements.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements (fits `isize` by L2).
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the layout is row-major contiguous, judged as numpy judges it: size-1
    /// dimensions' strides do not matter and a layout without elements is contiguous.
    pub fn is_contiguous(&self) -> bool {
        if self.shape.contains(&0) {
            return true;
        }
        let mut expected: isize = 1;
        for (&d, &s) in self.shape.iter().zip(&self.strides).rev() {
            if d != 1 {
                if s != expected {
                    return false;
                }
                expected *= d as isize;
            }
        }
        true
    }

    /// The same shape and strides at another offset (for a copy of the storage that starts
    /// elsewhere). The caller checks L3 against the new storage.
    pub(crate) fn with_offset(&self, offset: usize) -> Layout {
        Layout {
            offset,
            ..self.clone()
        }
    }

    /// Lowest and highest reachable element index (absolute, in elements); `None` when empty.
    pub fn element_range(&self) -> Option<(usize, usize)> {
        if self.numel() == 0 {
            return None;
        }
        let (lo, hi) = extent(&self.shape, &self.strides)?;
        Some((
            (self.offset as isize + lo) as usize,
            (self.offset as isize + hi) as usize,
        ))
    }
}

/// Lowest and highest element offset reachable from the first element (relative), with
/// checked arithmetic; `None` on overflow (L2 violated). Shape must have no zero.
fn extent(shape: &[usize], strides: &[isize]) -> Option<(isize, isize)> {
    let (mut lo, mut hi) = (0isize, 0isize);
    for (&d, &s) in shape.iter().zip(strides) {
        let reach = s.checked_mul(isize::try_from(d.checked_sub(1)?).ok()?)?;
        if reach < 0 {
            lo = lo.checked_add(reach)?;
        } else {
            hi = hi.checked_add(reach)?;
        }
    }
    hi.checked_sub(lo)?;
    Some((lo, hi))
}

mod views;

/// Strides as `i64`, for error messages and the boundaries.
pub(crate) fn layout_strides_i64(l: &Layout) -> Vec<i64> {
    strides_i64(&l.strides)
}

#[cfg(test)]
mod tests {
    use super::views::slice_indices;
    use super::*;

    #[test]
    fn views_of_empty_layouts_stay_within_empty_storage() {
        // Shape [1, 3, 0, 5] over zero elements of storage (L4 for empty tensors).
        let l = Layout::contiguous(&[1, 3, 0, 5], 4).unwrap();
        assert!(l.check_within(0));
        assert!(l.select(1, 2).unwrap().check_within(0));
        assert!(l.slice(1, Some(2), None, 1).unwrap().check_within(0));
        assert!(l.narrow(1, 1, 2).unwrap().check_within(0));
    }

    fn l(shape: &[usize]) -> Layout {
        Layout::contiguous(shape, 4).unwrap()
    }

    #[test]
    fn contiguity_as_numpy_judges_it() {
        assert!(l(&[2, 3]).is_contiguous());
        assert!(!l(&[2, 3]).transpose(0, 1).unwrap().is_contiguous());
        assert!(l(&[1, 3]).transpose(0, 1).unwrap().is_contiguous());
        assert!(l(&[0, 3]).transpose(0, 1).unwrap().is_contiguous());
        let s = l(&[4, 6]).slice(1, Some(0), None, 2).unwrap();
        assert!(!s.is_contiguous());
    }

    #[test]
    fn view_strides_cases() {
        let t = l(&[2, 3, 4]).transpose(0, 1).unwrap(); // shape 3,2,4 strides 4,12,1
        assert!(t.view_as(&[3, 8]).is_none());
        assert_eq!(t.view_as(&[3, 2, 2, 2]).unwrap().strides(), &[4, 12, 2, 1]);
        assert_eq!(l(&[6]).view_as(&[2, 3]).unwrap().strides(), &[3, 1]);
        assert_eq!(l(&[]).view_as(&[1, 1]).unwrap().shape(), &[1, 1]);
    }

    #[test]
    fn slice_indices_like_python() {
        assert_eq!(slice_indices(10, None, None, 1), (0, 10));
        assert_eq!(slice_indices(10, Some(-3), None, 1), (7, 3));
        assert_eq!(slice_indices(10, None, None, -1), (9, 10));
        assert_eq!(slice_indices(10, None, None, 3), (0, 4));
        assert_eq!(slice_indices(10, Some(8), Some(2), -2), (8, 3));
        assert_eq!(slice_indices(10, Some(20), None, 1), (10, 0));
        assert_eq!(slice_indices(0, None, None, -1), (-1, 0));
    }

    #[test]
    fn foreign_negative_strides_shift_offset() {
        let f = Layout::from_foreign(&[3, 2], Some(&[-2, 1]), crate::DType::Float32).unwrap();
        assert_eq!(f.layout.offset(), 4);
        assert_eq!(f.span, 6);
        assert!(f.layout.check_within(6));
        assert!(!f.layout.check_within(5));
    }

    #[test]
    fn infer_shape_rules() {
        let t = l(&[2, 6]);
        assert_eq!(t.infer_shape(&[3, -1]).unwrap().as_slice(), &[3, 4]);
        assert!(t.infer_shape(&[5, -1]).is_err());
        assert!(t.infer_shape(&[-1, -1]).is_err());
        assert!(t.infer_shape(&[-2, 6]).is_err());
        assert!(l(&[0, 3]).infer_shape(&[-1, 0]).is_err());
    }
}
