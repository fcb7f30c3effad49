//! The view operations on [`Layout`]: each maps a layout that upholds L1–L3 to one that
//! upholds them for the same storage (L4).

use super::{
    checked_numel, contiguous_strides, normalize_dim, too_many_dims, DimVec, Layout, MAX_DIMS,
};
use smallvec::SmallVec;

use crate::error::{dims_i64, Error, Result};

impl Layout {
    /// Reorders dimensions: dimension `i` of the result is dimension `dims[i]` of `self`.
    pub fn permute(&self, dims: &[isize]) -> Result<Layout> {
        let n = self.ndim();
        if dims.len() != n {
            return Err(Error::ShapeMismatch {
                op: "permute",
                expected: vec![n as i64],
                got: vec![dims.len() as i64],
            });
        }
        let mut seen = [false; MAX_DIMS];
        let mut out = self.clone();
        for (i, &d) in dims.iter().enumerate() {
            let d = normalize_dim(d, n)?;
            if std::mem::replace(&mut seen[d], true) {
                return Err(Error::DuplicateDim {
                    dim: d,
                    dims: dims.iter().map(|&v| v as i64).collect(),
                });
            }
            out.shape[i] = self.shape[d];
            out.strides[i] = self.strides[d];
        }
        Ok(out)
    }

    /// Moves the first element by `delta` elements, if there is a first element: a view
    /// without elements keeps its offset, so L3's `offset ≤ storage_len` still holds.
    fn shifted(mut self, delta: isize) -> Layout {
        if self.numel() > 0 {
            self.offset = (self.offset as isize + delta) as usize;
        }
        self
    }

    /// Swaps two dimensions.
    pub fn transpose(&self, dim0: isize, dim1: isize) -> Result<Layout> {
        let (a, b) = (
            normalize_dim(dim0, self.ndim())?,
            normalize_dim(dim1, self.ndim())?,
        );
        let mut out = self.clone();
        out.shape.swap(a, b);
        out.strides.swap(a, b);
        Ok(out)
    }

    /// Keeps `length` entries of dimension `dim` starting at `start` (negative counts from the
    /// end).
    pub fn narrow(&self, dim: isize, start: isize, length: usize) -> Result<Layout> {
        let d = normalize_dim(dim, self.ndim())?;
        let size = self.shape[d];
        let s = if start < 0 {
            start + size as isize
        } else {
            start
        };
        if s < 0 || s as usize > size || length > size - s as usize {
            return Err(Error::IndexOutOfRange {
                index: start as i64,
                dim: d,
                size,
            });
        }
        let mut out = self.clone();
        out.shape[d] = length;
        Ok(out.shifted(s * self.strides[d]))
    }

    /// Python-style slice `start:stop:step` of dimension `dim`; bounds clamp as in Python and
    /// a negative step walks backwards (a negative stride).
    pub fn slice(
        &self,
        dim: isize,
        start: Option<isize>,
        stop: Option<isize>,
        step: isize,
    ) -> Result<Layout> {
        let d = normalize_dim(dim, self.ndim())?;
        if step == 0 {
            return Err(Error::ZeroStep);
        }
        let (first, len) = slice_indices(self.shape[d], start, stop, step);
        let mut out = self.clone();
        out.shape[d] = len;
        if len > 1 {
            // Only a stride that is stepped gets multiplied: `len > 1` bounds it by L2.
            out.strides[d] = self.strides[d] * step;
        }
        Ok(out.shifted(first * self.strides[d]))
    }

    /// Removes dimension `dim`, fixing it at `index` (negative counts from the end).
    pub fn select(&self, dim: isize, index: isize) -> Result<Layout> {
        let d = normalize_dim(dim, self.ndim())?;
        let size = self.shape[d];
        let i = if index < 0 {
            index + size as isize
        } else {
            index
        };
        if i < 0 || i as usize >= size {
            return Err(Error::IndexOutOfRange {
                index: index as i64,
                dim: d,
                size,
            });
        }
        let mut out = self.clone();
        out.shape.remove(d);
        out.strides.remove(d);
        Ok(out.shifted(i * self.strides[d]))
    }

    /// Broadcasts to `sizes` (−1 keeps a size): size-1 dimensions and new leading dimensions
    /// get stride 0.
    pub fn expand(&self, sizes: &[isize]) -> Result<Layout> {
        too_many_dims(sizes.len())?;
        let n = self.ndim();
        let mismatch = || Error::ShapeMismatch {
            op: "expand",
            expected: sizes.iter().map(|&v| v as i64).collect(),
            got: dims_i64(&self.shape),
        };
        if sizes.len() < n {
            return Err(mismatch());
        }
        let lead = sizes.len() - n;
        let mut shape = DimVec::with_capacity(sizes.len());
        let mut strides = DimVec::with_capacity(sizes.len());
        for (i, &want) in sizes.iter().enumerate() {
            let (cur, stride) = if i < lead {
                (1, 0)
            } else {
                (self.shape[i - lead], self.strides[i - lead])
            };
            if want == -1 && i >= lead {
                shape.push(cur);
                strides.push(stride);
            } else if want < 0 {
                return Err(mismatch());
            } else if want as usize == cur {
                shape.push(cur);
                strides.push(stride);
            } else if cur == 1 {
                shape.push(want as usize);
                strides.push(0);
            } else {
                return Err(mismatch());
            }
        }
        if checked_numel(&shape).is_none() {
            return Err(mismatch());
        }
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
        })
    }

    /// The diagonal of dims `dim1`/`dim2` (offset 0: main; positive: above; negative:
    /// below), as a new last dim; the two dims are removed.
    pub fn diagonal(&self, offset: isize, dim1: isize, dim2: isize) -> Result<Layout> {
        let nd = self.ndim();
        let (a, b) = (normalize_dim(dim1, nd)?, normalize_dim(dim2, nd)?);
        if a == b {
            return Err(Error::DuplicateDim {
                dim: a,
                dims: vec![dim1 as i64, dim2 as i64],
            });
        }
        let (na, nb) = (self.shape[a] as isize, self.shape[b] as isize);
        // Rows start at max(0, -offset), columns at max(0, offset).
        let (r0, c0) = (0isize.max(-offset), 0isize.max(offset));
        let len = (na - r0).min(nb - c0).max(0) as usize;
        let mut shape: DimVec<usize> = DimVec::new();
        let mut strides: DimVec<isize> = DimVec::new();
        for d in (0..nd).filter(|&d| d != a && d != b) {
            shape.push(self.shape[d]);
            strides.push(self.strides[d]);
        }
        shape.push(len);
        strides.push(self.strides[a] + self.strides[b]);
        // An empty diagonal keeps the offset (L3 for empty layouts: offset <= storage).
        let offset = if len == 0 {
            self.offset
        } else {
            (self.offset as isize + r0 * self.strides[a] + c0 * self.strides[b]) as usize
        };
        // L4: each element (i of the diagonal, j of the rest) is element
        // (r0 + i, c0 + i, j) of `self`, which is reachable; the strides' sum and extent fit
        // `isize` because both index ranges lie inside `self`'s (L2).
        Ok(Layout {
            shape,
            strides,
            offset,
        })
    }

    /// Removes size-1 dimensions: all of them, or only `dim` (a no-op if its size is not 1).
    pub fn squeeze(&self, dim: Option<isize>) -> Result<Layout> {
        let mut out = self.clone();
        match dim {
            Some(d) => {
                let d = normalize_dim(d, self.ndim())?;
                if self.shape[d] == 1 {
                    out.shape.remove(d);
                    out.strides.remove(d);
                }
            }
            None => {
                let keep: Vec<bool> = self.shape.iter().map(|&s| s != 1).collect();
                out.shape = self
                    .shape
                    .iter()
                    .zip(&keep)
                    .filter(|p| *p.1)
                    .map(|p| *p.0)
                    .collect();
                out.strides = self
                    .strides
                    .iter()
                    .zip(&keep)
                    .filter(|p| *p.1)
                    .map(|p| *p.0)
                    .collect();
            }
        }
        Ok(out)
    }

    /// Inserts a size-1 dimension at `dim` (`-(ndim+1) ..= ndim`).
    pub fn unsqueeze(&self, dim: isize) -> Result<Layout> {
        too_many_dims(self.ndim() + 1)?;
        let d = normalize_dim(dim, self.ndim() + 1)?;
        let stride = if d < self.ndim() {
            self.strides[d] * self.shape[d].max(1) as isize
        } else {
            1
        };
        let mut out = self.clone();
        out.shape.insert(d, 1);
        out.strides.insert(d, stride);
        Ok(out)
    }

    /// The same elements in row-major order under a new shape, without copying; `None` when
    /// the strides cannot express it (the caller copies, or reports
    /// [`Error::NotViewable`]). `new_shape` must have the same element count.
    pub fn view_as(&self, new_shape: &[usize]) -> Option<Layout> {
        let strides = view_strides(&self.shape, &self.strides, new_shape)?;
        Some(Layout {
            shape: new_shape.into(),
            strides,
            offset: self.offset,
        })
    }

    /// Resolves a requested shape with at most one `-1` against this layout's element count.
    pub fn infer_shape(&self, shape: &[isize]) -> Result<DimVec<usize>> {
        too_many_dims(shape.len())?;
        let numel = self.numel();
        let bad = || Error::ReshapeNumel {
            from: dims_i64(&self.shape),
            numel,
            to: shape.iter().map(|&v| v as i64).collect(),
        };
        let mut infer = None;
        let mut known: usize = 1;
        for (i, &d) in shape.iter().enumerate() {
            match d {
                -1 if infer.is_none() => infer = Some(i),
                d if d >= 0 => known = known.checked_mul(d as usize).ok_or_else(bad)?,
                _ => return Err(bad()),
            }
        }
        let mut out: DimVec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
        match infer {
            Some(i) if known != 0 && numel.is_multiple_of(known) => out[i] = numel / known,
            Some(_) => return Err(bad()),
            None if known != numel => return Err(bad()),
            None => {}
        }
        Ok(out)
    }
}

/// Python's slice index rules: returns the first index and the count.
pub(super) fn slice_indices(
    size: usize,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
) -> (isize, usize) {
    let n = size as isize;
    let fix = |v: isize, lo: isize, hi: isize| {
        let v = if v < 0 { v + n } else { v };
        v.clamp(lo, hi)
    };
    if step > 0 {
        let b = start.map_or(0, |v| fix(v, 0, n));
        let e = stop.map_or(n, |v| fix(v, 0, n));
        let len = if e > b { (e - b + step - 1) / step } else { 0 };
        (b, len as usize)
    } else {
        let b = start.map_or(n - 1, |v| fix(v, -1, n - 1));
        let e = stop.map_or(-1, |v| fix(v, -1, n - 1));
        let len = if b > e {
            (b - e + (-step) - 1) / (-step)
        } else {
            0
        };
        (b, len as usize)
    }
}

/// Strides that view `old` (with `old_strides`) as `new` without copying, if any exist.
///
/// Walks both shapes from the innermost dimension, grouping the old dimensions into runs
/// that are contiguous with one another; each run must be split exactly into consecutive new
/// dimensions, whose strides then follow from the run's innermost stride.
fn view_strides(old: &[usize], old_strides: &[isize], new: &[usize]) -> Option<DimVec<isize>> {
    let numel: usize = old.iter().product();
    if numel != new.iter().product::<usize>() {
        return None;
    }
    if numel == 0 || old.is_empty() {
        return Some(contiguous_strides(new));
    }
    let mut out: DimVec<isize> = SmallVec::from_elem(0, new.len());
    let mut nd = new.len() as isize - 1;
    let mut base = *old_strides.last()?;
    let (mut run_numel, mut view_numel) = (1usize, 1usize);
    for od in (0..old.len()).rev() {
        run_numel *= old[od];
        let run_ends =
            od == 0 || (old[od - 1] != 1 && old_strides[od - 1] != run_numel as isize * base);
        if !run_ends {
            continue;
        }
        while nd >= 0 && (view_numel < run_numel || new[nd as usize] == 1) {
            out[nd as usize] = view_numel as isize * base;
            view_numel *= new[nd as usize];
            nd -= 1;
        }
        if view_numel != run_numel {
            return None;
        }
        if od > 0 {
            base = old_strides[od - 1];
            run_numel = 1;
            view_numel = 1;
        }
    }
    (nd == -1).then_some(out)
}
