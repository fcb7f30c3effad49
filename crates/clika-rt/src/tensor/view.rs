//! Views: operations that change only the layout, never the bytes.

use super::Tensor;
use crate::error::{dims_i64, Error, Result};
use crate::layout::layout_strides_i64;

impl Tensor {
    /// The same elements under `shape` (one entry may be −1), sharing memory; fails with
    /// [`Error::NotViewable`] when the strides cannot express it.
    pub fn view(&self, shape: &[isize]) -> Result<Tensor> {
        let new_shape = self.layout.infer_shape(shape)?;
        match self.layout.view_as(&new_shape) {
            Some(l) => Ok(self.with_layout(l)),
            None => Err(Error::NotViewable {
                from: dims_i64(self.shape()),
                strides: layout_strides_i64(&self.layout),
                to: dims_i64(&new_shape),
            }),
        }
    }

    /// Like [`view`](Tensor::view), but copies into a contiguous tensor when the strides
    /// cannot express the new shape.
    pub fn reshape(&self, shape: &[isize]) -> Result<Tensor> {
        let new_shape = self.layout.infer_shape(shape)?;
        match self.layout.view_as(&new_shape) {
            Some(l) => Ok(self.with_layout(l)),
            None => self.contiguous()?.view(shape),
        }
    }

    /// Reorders dimensions (a view).
    pub fn permute(&self, dims: &[isize]) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.permute(dims)?))
    }

    /// Swaps two dimensions (a view).
    pub fn transpose(&self, dim0: isize, dim1: isize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.transpose(dim0, dim1)?))
    }

    /// Reverses the order of all dimensions (a view), like numpy's `.T`.
    pub fn t(&self) -> Tensor {
        let dims: Vec<isize> = (0..self.ndim() as isize).rev().collect();
        self.permute(&dims)
            .expect("a reversal is always a valid permutation")
    }

    /// `length` entries of `dim` from `start` (a view).
    pub fn narrow(&self, dim: isize, start: isize, length: usize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.narrow(dim, start, length)?))
    }

    /// Python-style `start:stop:step` along `dim` (a view; negative steps walk backwards).
    pub fn slice(
        &self,
        dim: isize,
        start: Option<isize>,
        stop: Option<isize>,
        step: isize,
    ) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.slice(dim, start, stop, step)?))
    }

    /// Fixes `dim` at `index`, removing the dimension (a view).
    pub fn select(&self, dim: isize, index: isize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.select(dim, index)?))
    }

    /// Broadcasts to `sizes` (−1 keeps a size) with stride-0 dimensions (a view).
    pub fn expand(&self, sizes: &[isize]) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.expand(sizes)?))
    }

    /// Removes size-1 dimensions: all, or only `dim` (a view).
    pub fn squeeze(&self, dim: Option<isize>) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.squeeze(dim)?))
    }

    /// Inserts a size-1 dimension at `dim` (a view).
    pub fn unsqueeze(&self, dim: isize) -> Result<Tensor> {
        Ok(self.with_layout(self.layout.unsqueeze(dim)?))
    }

    /// Merges dimensions `start..=end` into one: a view when possible, else a copy (like
    /// [`reshape`](Tensor::reshape)).
    pub fn flatten(&self, start: isize, end: isize) -> Result<Tensor> {
        if self.ndim() == 0 {
            return self.reshape(&[1]);
        }
        let s = crate::layout::normalize_dim(start, self.ndim())?;
        let e = crate::layout::normalize_dim(end, self.ndim())?;
        if s > e {
            return Err(Error::DimOutOfRange {
                dim: start as i64,
                ndim: self.ndim(),
            });
        }
        let sh = self.shape();
        let mut shape: Vec<isize> = sh[..s].iter().map(|&d| d as isize).collect();
        shape.push(sh[s..=e].iter().product::<usize>() as isize);
        shape.extend(sh[e + 1..].iter().map(|&d| d as isize));
        self.reshape(&shape)
    }
}
