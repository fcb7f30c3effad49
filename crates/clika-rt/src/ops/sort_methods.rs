//! `Tensor` methods for the sorting, scan and composed reductions (see the free functions).

use super::ValuesIndices;
use crate::{DType, Result, Tensor};

impl Tensor {
    /// See [`ops::sort`](crate::ops::sort).
    pub fn sort(&self, dim: isize, descending: bool) -> Result<ValuesIndices> {
        super::sort(self, dim, descending, true)
    }

    /// See [`ops::argsort`](crate::ops::argsort).
    pub fn argsort(&self, dim: isize, descending: bool) -> Result<Tensor> {
        super::argsort(self, dim, descending, true)
    }

    /// See [`ops::topk`](crate::ops::topk).
    pub fn topk(&self, k: usize, dim: isize, largest: bool, sorted: bool) -> Result<ValuesIndices> {
        super::topk(self, k, dim, largest, sorted)
    }

    /// See [`ops::kthvalue`](crate::ops::kthvalue).
    pub fn kthvalue(&self, k: usize, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
        super::kthvalue(self, k, dim, keepdim)
    }

    /// See [`ops::median`](crate::ops::median).
    pub fn median(&self) -> Result<Tensor> {
        super::median(self)
    }

    /// See [`ops::max_dim`](crate::ops::max_dim).
    pub fn max_dim(&self, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
        super::max_dim(self, dim, keepdim)
    }

    /// See [`ops::min_dim`](crate::ops::min_dim).
    pub fn min_dim(&self, dim: isize, keepdim: bool) -> Result<ValuesIndices> {
        super::min_dim(self, dim, keepdim)
    }

    /// See [`ops::cumsum`](crate::ops::cumsum).
    pub fn cumsum(&self, dim: isize, dtype: Option<DType>) -> Result<Tensor> {
        super::cumsum(self, dim, dtype)
    }

    /// See [`ops::cumprod`](crate::ops::cumprod).
    pub fn cumprod(&self, dim: isize, dtype: Option<DType>) -> Result<Tensor> {
        super::cumprod(self, dim, dtype)
    }

    /// See [`ops::roll`](crate::ops::roll).
    pub fn roll(&self, shifts: &[isize], dims: &[isize]) -> Result<Tensor> {
        super::roll(self, shifts, dims)
    }

    /// See [`ops::any`](crate::ops::any).
    pub fn any(&self, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
        super::any(self, dims, keepdim)
    }

    /// See [`ops::all`](crate::ops::all).
    pub fn all(&self, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
        super::all(self, dims, keepdim)
    }

    /// See [`ops::logsumexp`](crate::ops::logsumexp).
    pub fn logsumexp(&self, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
        super::logsumexp(self, dims, keepdim)
    }

    /// See [`ops::norm`](crate::ops::norm).
    pub fn norm(&self, p: f64, dims: Option<&[isize]>, keepdim: bool) -> Result<Tensor> {
        super::norm(self, p, dims, keepdim)
    }
}
