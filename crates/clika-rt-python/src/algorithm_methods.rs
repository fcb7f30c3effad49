//! `clika_runtime.Tensor`'s methods for the algorithms of `algorithms.rs` (`t.sort`,
//! `t.topk`, `t.cumsum`, `t.unique`, `t.roll`, …): a further `#[pymethods]` block of the
//! class in `tensor.rs`, each method the function of the same name with `self` first.

use clika_rt::ops;
use pyo3::prelude::*;

use crate::algorithms::{call, numpy_keywords, PyValuesIndices};
use crate::tensor::PyTensor;

#[pymethods]
impl PyTensor {
    #[doc = include_str!("../pydoc/Tensor.sort.md")]
    #[pyo3(name = "sort", signature = (dim=-1, descending=false, stable=false), text_signature = "(self, dim=-1, descending=False, stable=False)")]
    fn sort_m(
        &self,
        py: Python<'_>,
        dim: isize,
        descending: bool,
        stable: bool,
    ) -> PyResult<PyValuesIndices> {
        let _ = stable;
        call::sort(py, &self.inner, dim, descending)
    }

    #[doc = include_str!("../pydoc/Tensor.argsort.md")]
    #[pyo3(name = "argsort", signature = (dim=-1, descending=false, stable=false), text_signature = "(self, dim=-1, descending=False, stable=False)")]
    fn argsort_m(
        &self,
        py: Python<'_>,
        dim: isize,
        descending: bool,
        stable: bool,
    ) -> PyResult<PyTensor> {
        let _ = stable;
        call::argsort(py, &self.inner, dim, descending)
    }

    #[doc = include_str!("../pydoc/Tensor.topk.md")]
    #[pyo3(name = "topk", signature = (k, dim=-1, largest=true, sorted=true), text_signature = "(self, k, dim=-1, largest=True, sorted=True)")]
    fn topk_m(
        &self,
        py: Python<'_>,
        k: usize,
        dim: isize,
        largest: bool,
        sorted: bool,
    ) -> PyResult<PyValuesIndices> {
        call::topk(py, &self.inner, k, dim, largest, sorted)
    }

    #[doc = include_str!("../pydoc/Tensor.kthvalue.md")]
    #[pyo3(name = "kthvalue", signature = (k, dim=-1, keepdim=false), text_signature = "(self, k, dim=-1, keepdim=False)")]
    fn kthvalue_m(
        &self,
        py: Python<'_>,
        k: usize,
        dim: isize,
        keepdim: bool,
    ) -> PyResult<PyValuesIndices> {
        call::kthvalue(py, &self.inner, k, dim, keepdim)
    }

    #[doc = include_str!("../pydoc/Tensor.median.md")]
    #[pyo3(name = "median", signature = (dim=None, keepdim=false))]
    fn median_m<'py>(
        &self,
        py: Python<'py>,
        dim: Option<isize>,
        keepdim: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        call::median(py, &self.inner, dim, keepdim)
    }

    #[doc = include_str!("../pydoc/Tensor.any.md")]
    #[pyo3(name = "any", signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, out=None))]
    fn any_m<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (dims, keep) = numpy_keywords(dim, keepdim, axis, keepdims)?;
        let r = call::any_all(py, false, &self.inner, dims, keep)?;
        crate::ops::write_out(py, r.inner, out)
    }

    #[doc = include_str!("../pydoc/Tensor.all.md")]
    #[pyo3(name = "all", signature = (dim=None, keepdim=None, *, axis=None, keepdims=None, out=None))]
    fn all_m<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        out: Option<Bound<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (dims, keep) = numpy_keywords(dim, keepdim, axis, keepdims)?;
        let r = call::any_all(py, true, &self.inner, dims, keep)?;
        crate::ops::write_out(py, r.inner, out)
    }

    #[doc = include_str!("../pydoc/Tensor.cumsum.md")]
    #[pyo3(name = "cumsum", signature = (dim, *, dtype=None))]
    fn cumsum_m(
        &self,
        py: Python<'_>,
        dim: isize,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        call::scan(py, ops::ScanOp::Sum, &self.inner, dim, dtype)
    }

    #[doc = include_str!("../pydoc/Tensor.cumprod.md")]
    #[pyo3(name = "cumprod", signature = (dim, *, dtype=None))]
    fn cumprod_m(
        &self,
        py: Python<'_>,
        dim: isize,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        call::scan(py, ops::ScanOp::Prod, &self.inner, dim, dtype)
    }

    #[doc = include_str!("../pydoc/Tensor.logsumexp.md")]
    #[pyo3(name = "logsumexp", signature = (dim=None, keepdim=false))]
    fn logsumexp_m(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        call::logsumexp(py, &self.inner, dim, keepdim)
    }

    #[doc = include_str!("../pydoc/Tensor.norm.md")]
    #[pyo3(name = "norm", signature = (p=None, dim=None, keepdim=false))]
    fn norm_m(
        &self,
        py: Python<'_>,
        p: Option<&Bound<'_, PyAny>>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        call::norm(py, &self.inner, p, dim, keepdim)
    }

    #[doc = include_str!("../pydoc/Tensor.unique.md")]
    #[pyo3(name = "unique", signature = (sorted=true, return_inverse=false, return_counts=false, dim=None))]
    fn unique_m<'py>(
        &self,
        py: Python<'py>,
        sorted: bool,
        return_inverse: bool,
        return_counts: bool,
        dim: Option<isize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = sorted;
        call::unique(py, &self.inner, return_inverse, return_counts, dim)
    }

    #[doc = include_str!("../pydoc/Tensor.roll.md")]
    #[pyo3(name = "roll", signature = (shifts, dims=None))]
    fn roll_m(
        &self,
        py: Python<'_>,
        shifts: &Bound<'_, PyAny>,
        dims: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        call::roll(py, &self.inner, shifts, dims)
    }
}
