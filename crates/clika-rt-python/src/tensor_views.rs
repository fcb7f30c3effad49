//! `clika_runtime.Tensor`'s view methods beyond reshape/permute/transpose (a third
//! `#[pymethods]` block): PyTorch's and numpy's names, each a view of the same memory unless
//! its doc says it copies.

use clika_rt::Tensor;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::args;
use crate::error::IntoPyResult;
use crate::ops::run;
use crate::tensor::PyTensor;

fn wrap(t: clika_rt::Result<Tensor>) -> PyResult<PyTensor> {
    Ok(PyTensor { inner: t.py()? })
}

fn wrap_all<'py>(
    py: Python<'py>,
    ts: clika_rt::Result<Vec<Tensor>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<PyTensor> = ts
        .py()?
        .into_iter()
        .map(|inner| PyTensor { inner })
        .collect();
    PyTuple::new(py, items)
}

fn sizes(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&d| d as isize).collect()
}

#[pymethods]
impl PyTensor {
    #[doc = include_str!("../pydoc/Tensor.squeeze.md")]
    #[pyo3(signature = (dim=None))]
    fn squeeze(&self, dim: Option<isize>) -> PyResult<PyTensor> {
        wrap(self.inner.squeeze(dim))
    }

    #[doc = include_str!("../pydoc/Tensor.unsqueeze.md")]
    fn unsqueeze(&self, dim: isize) -> PyResult<PyTensor> {
        wrap(self.inner.unsqueeze(dim))
    }

    #[doc = include_str!("../pydoc/Tensor.expand.md")]
    #[pyo3(signature = (*sizes))]
    fn expand(&self, sizes: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        wrap(self.inner.expand(&args::int_list(sizes)?))
    }

    #[doc = include_str!("../pydoc/Tensor.broadcast_to.md")]
    fn broadcast_to(&self, shape: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        wrap(self.inner.expand(&sizes(&args::shape_of(shape)?)))
    }

    #[doc = include_str!("../pydoc/Tensor.flatten.md")]
    #[pyo3(signature = (start_dim=0, end_dim=-1), text_signature = "(self, start_dim=0, end_dim=-1)")]
    fn flatten(&self, start_dim: isize, end_dim: isize) -> PyResult<PyTensor> {
        wrap(self.inner.flatten(start_dim, end_dim))
    }

    #[doc = include_str!("../pydoc/Tensor.unflatten.md")]
    fn unflatten(&self, dim: isize, sizes: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let t = &self.inner;
        let d = clika_rt::layout::normalize_dim(dim, t.ndim()).py()?;
        let inner: Vec<isize> = sizes.extract()?;
        let mut shape: Vec<isize> = t.shape()[..d].iter().map(|&s| s as isize).collect();
        shape.extend(inner);
        shape.extend(t.shape()[d + 1..].iter().map(|&s| s as isize));
        wrap(t.reshape(&shape))
    }

    #[doc = include_str!("../pydoc/Tensor.narrow.md")]
    fn narrow(&self, dim: isize, start: isize, length: usize) -> PyResult<PyTensor> {
        wrap(self.inner.narrow(dim, start, length))
    }

    #[doc = include_str!("../pydoc/Tensor.select.md")]
    fn select(&self, dim: isize, index: isize) -> PyResult<PyTensor> {
        wrap(self.inner.select(dim, index))
    }

    #[doc = include_str!("../pydoc/Tensor.flip.md")]
    #[pyo3(signature = (*dims))]
    fn flip(&self, dims: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        wrap(self.inner.flip(&args::int_list(dims)?))
    }

    #[doc = include_str!("../pydoc/Tensor.movedim.md")]
    fn movedim(&self, source: isize, destination: isize) -> PyResult<PyTensor> {
        wrap(self.inner.movedim(source, destination))
    }

    #[doc = include_str!("../pydoc/Tensor.swapaxes.md")]
    fn swapaxes(&self, axis0: isize, axis1: isize) -> PyResult<PyTensor> {
        wrap(self.inner.transpose(axis0, axis1))
    }

    #[doc = include_str!("../pydoc/Tensor.t.md")]
    #[pyo3(name = "t")]
    fn t_2d(&self) -> PyResult<PyTensor> {
        let t = &self.inner;
        wrap(match t.ndim() {
            0 | 1 => Ok(t.clone()),
            2 => t.transpose(0, 1),
            n => Err(clika_rt::Error::InvalidArgument {
                what: format!(
                    "t() expects a tensor with at most 2 dimensions, this one has {n}; \
                     use .mT (the last two swapped), .T (all reversed), transpose or permute"
                ),
            }),
        })
    }

    /// The last two dims swapped (a view).
    #[getter(mT)]
    fn m_t(&self) -> PyResult<PyTensor> {
        wrap(self.inner.mt())
    }

    #[doc = include_str!("../pydoc/Tensor.diagonal.md")]
    #[pyo3(signature = (offset=0, dim1=0, dim2=1))]
    fn diagonal(&self, offset: isize, dim1: isize, dim2: isize) -> PyResult<PyTensor> {
        wrap(self.inner.diagonal(offset, dim1, dim2))
    }

    #[doc = include_str!("../pydoc/Tensor.split.md")]
    #[pyo3(signature = (split_size_or_sections, dim=0))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        split_size_or_sections: &Bound<'py, PyAny>,
        dim: isize,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if let Ok(size) = split_size_or_sections.extract::<usize>() {
            return wrap_all(py, self.inner.split(size, dim));
        }
        let sizes: Vec<usize> = split_size_or_sections.extract()?;
        let total: usize = sizes.iter().sum();
        let d = clika_rt::layout::normalize_dim(dim, self.inner.ndim()).py()?;
        if total != self.inner.shape()[d] {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "split sizes {sizes:?} add up to {total}, but dim {dim} has {} entries",
                self.inner.shape()[d]
            )));
        }
        let mut at = 0;
        let pieces = sizes.iter().map(|&n| {
            let v = self.inner.narrow(d as isize, at as isize, n);
            at += n;
            v
        });
        wrap_all(py, pieces.collect())
    }

    #[doc = include_str!("../pydoc/Tensor.chunk.md")]
    #[pyo3(signature = (chunks, dim=0))]
    fn chunk<'py>(
        &self,
        py: Python<'py>,
        chunks: usize,
        dim: isize,
    ) -> PyResult<Bound<'py, PyTuple>> {
        wrap_all(py, self.inner.chunk(chunks, dim))
    }

    #[doc = include_str!("../pydoc/Tensor.unbind.md")]
    #[pyo3(signature = (dim=0))]
    fn unbind<'py>(&self, py: Python<'py>, dim: isize) -> PyResult<Bound<'py, PyTuple>> {
        wrap_all(py, self.inner.unbind(dim))
    }

    #[doc = include_str!("../pydoc/Tensor.clone.md")]
    fn clone(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let t = &self.inner;
        Ok(PyTensor {
            inner: run(py, t.numel(), || t.contiguous_copy())?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.repeat.md")]
    #[pyo3(signature = (*reps))]
    fn repeat(&self, py: Python<'_>, reps: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let reps = reps_of(reps)?;
        let t = &self.inner;
        Ok(PyTensor {
            inner: run(py, t.numel(), || t.repeat(&reps))?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.tile.md")]
    fn tile(&self, py: Python<'_>, reps: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let reps = args::shape_of(reps)?;
        let t = &self.inner;
        Ok(PyTensor {
            inner: run(py, t.numel(), || t.tile(&reps))?,
        })
    }
}

/// Repeat counts given as `t.repeat(2, 3)` or `t.repeat((2, 3))`.
fn reps_of(reps: &Bound<'_, PyTuple>) -> PyResult<Vec<usize>> {
    if reps.len() == 1 {
        let first = reps.get_item(0)?;
        if first.is_instance_of::<PyTuple>() || first.is_instance_of::<PyList>() {
            return args::shape_of(&first);
        }
    }
    args::shape(reps)
}
