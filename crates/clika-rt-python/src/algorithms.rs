//! Sorting, selection, scans and the composed reductions (`crt.sort`, `t.topk`, `crt.cumsum`,
//! `crt.unique`, `t.roll`, …) and `ValuesIndices`, the named pair PyTorch returns from
//! `max(dim)`, `sort`, `topk`, `kthvalue` and `median(dim)`.

use clika_rt::ops::{self, ValuesIndices};
use clika_rt::{DType, ErrorKind, Tensor};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::args;
use crate::error::raise;
use crate::ops::{run, tensor_arg, write_out};
use crate::tensor::PyTensor;

/// Values and the indices they came from along a dim (PyTorch's `torch.return_types.*`):
/// `r.values`, `r.indices`, `r[0]`, `r[1]`, and `values, indices = r`.
#[pyclass(name = "ValuesIndices", module = "clika_runtime", frozen, sequence)]
pub struct PyValuesIndices {
    /// The values (a tensor), as `r[0]`.
    #[pyo3(get)]
    values: Py<PyTensor>,
    /// Where each value came from along the dim (an int64 tensor), as `r[1]`.
    #[pyo3(get)]
    indices: Py<PyTensor>,
}

#[pymethods]
impl PyValuesIndices {
    fn __len__(&self) -> usize {
        2
    }

    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<Py<PyTensor>> {
        match i {
            0 | -2 => Ok(self.values.clone_ref(py)),
            1 | -1 => Ok(self.indices.clone_ref(py)),
            _ => Err(PyIndexError::new_err(
                "ValuesIndices has two items: values, indices",
            )),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = PyTuple::new(py, [self.values.clone_ref(py), self.indices.clone_ref(py)])?;
        Ok(t.as_any().try_iter()?.into_any())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let v = self.values.bind(py).repr()?;
        let i = self.indices.bind(py).repr()?;
        Ok(format!("ValuesIndices(\nvalues={v},\nindices={i})"))
    }
}

/// The Python pair of a core result.
pub fn pair(py: Python<'_>, r: ValuesIndices) -> PyResult<PyValuesIndices> {
    Ok(PyValuesIndices {
        values: Py::new(py, PyTensor { inner: r.values })?,
        indices: Py::new(py, PyTensor { inner: r.indices })?,
    })
}

/// `r` written into the pair `out = (values, indices)` of PyTorch's `max(dim, out=...)`,
/// returned as a pair of those tensors. Both shapes, and the indices' int64 dtype, are
/// checked before either is written, so a refused `out` is left as it was.
pub fn pair_into<'py>(
    py: Python<'py>,
    op: &str,
    r: ValuesIndices,
    out: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let (v, i) = out
        .extract::<(Bound<'py, PyTensor>, Bound<'py, PyTensor>)>()
        .map_err(|_| {
            raise(
                ErrorKind::InvalidArgument,
                format!(
                    "{op} along one dim takes out=(values, indices), a tuple of two tensors; got {}",
                    out.get_type()
                        .name()
                        .map_or_else(|_| "?".to_string(), |n| n.to_string())
                ),
            )
        })?;
    let (vo, io) = (&v.get().inner, &i.get().inner);
    for (o, want, name) in [(vo, &r.values, "values"), (io, &r.indices, "indices")] {
        if o.shape() != want.shape() {
            return Err(raise(
                ErrorKind::InvalidShape,
                format!(
                    "{op}: out {name} has shape {:?} but the result has shape {:?}; pass tensors of the result's shape",
                    o.shape(),
                    want.shape()
                ),
            ));
        }
    }
    if io.dtype() != DType::Int64 {
        return Err(raise(
            ErrorKind::DType,
            format!(
                "{op}: out indices must be int64, got {}; pass crt.empty(shape, dtype=crt.int64)",
                io.dtype()
            ),
        ));
    }
    write_out(py, r.values, Some(v.clone()))?;
    write_out(py, r.indices, Some(i.clone()))?;
    let pair = PyValuesIndices {
        values: v.unbind(),
        indices: i.unbind(),
    };
    Ok(Bound::new(py, pair)?.into_any())
}

/// `p` of `norm`: a number, `inf`/`-inf` as floats, or `"fro"` (2).
fn norm_order(p: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
    match p {
        None => Ok(2.0),
        Some(p) if p.is_none() => Ok(2.0),
        Some(p) if p.is_instance_of::<PyString>() => match p.extract::<String>()?.as_str() {
            "fro" => Ok(2.0),
            "inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            other => Err(PyValueError::new_err(format!(
                "norm: p={other:?} is not supported; pass a number, float('inf'), or 'fro'"
            ))),
        },
        Some(p) => p.extract::<f64>(),
    }
}

/// `shifts` or `dims` of `roll`: an int or a sequence of ints.
fn int_seq(obj: &Bound<'_, PyAny>) -> PyResult<Vec<isize>> {
    Ok(args::dims(Some(obj))?.unwrap_or_default())
}

/// The one int `dim` of PyTorch's `max(dim)`/`min(dim)` form, which returns values and
/// indices; `None` for every other form (no dim, a tuple of dims, or numpy's keywords,
/// which return values only, like numpy's `max` and PyTorch's `amax`).
pub fn single_dim(
    dim: Option<&Bound<'_, PyAny>>,
    axis: Option<&Bound<'_, PyAny>>,
    keepdims: Option<bool>,
    dtype: Option<&Bound<'_, PyAny>>,
    out: &Option<Bound<'_, PyTensor>>,
) -> Option<isize> {
    let given = |o: Option<&Bound<'_, PyAny>>| o.is_some_and(|o| !o.is_none());
    if given(axis) || keepdims.is_some() || given(dtype) || out.is_some() {
        return None;
    }
    dim.filter(|d| !d.is_none() && !d.is_instance_of::<pyo3::types::PyTuple>())?
        .extract::<isize>()
        .ok()
}

/// PyTorch's `dim`/`keepdim` or numpy's `axis`/`keepdims` (not both of a pair).
pub(crate) fn numpy_keywords<'a, 'py>(
    dim: Option<&'a Bound<'py, PyAny>>,
    keepdim: Option<bool>,
    axis: Option<&'a Bound<'py, PyAny>>,
    keepdims: Option<bool>,
) -> PyResult<(Option<&'a Bound<'py, PyAny>>, bool)> {
    let given = |o: Option<&Bound<'py, PyAny>>| o.is_some_and(|o| !o.is_none());
    if (given(dim) && given(axis)) || (keepdim.is_some() && keepdims.is_some()) {
        return Err(PyValueError::new_err(
            "dim/axis and keepdim/keepdims name the same arguments; pass one of each pair",
        ));
    }
    let dims = if given(dim) { dim } else { axis };
    Ok((dims, keepdim.or(keepdims).unwrap_or(false)))
}

/// What the module functions and the methods share, by name.
pub mod call {
    use super::*;

    pub fn sort(py: Python<'_>, t: &Tensor, dim: isize, desc: bool) -> PyResult<PyValuesIndices> {
        pair(py, run(py, t.numel(), || ops::sort(t, dim, desc, true))?)
    }

    pub fn argsort(py: Python<'_>, t: &Tensor, dim: isize, desc: bool) -> PyResult<PyTensor> {
        let inner = run(py, t.numel(), || ops::argsort(t, dim, desc, true))?;
        Ok(PyTensor { inner })
    }

    pub fn topk(
        py: Python<'_>,
        t: &Tensor,
        k: usize,
        dim: isize,
        largest: bool,
        sorted: bool,
    ) -> PyResult<PyValuesIndices> {
        pair(
            py,
            run(py, t.numel(), || ops::topk(t, k, dim, largest, sorted))?,
        )
    }

    pub fn kthvalue(
        py: Python<'_>,
        t: &Tensor,
        k: usize,
        dim: isize,
        keepdim: bool,
    ) -> PyResult<PyValuesIndices> {
        pair(
            py,
            run(py, t.numel(), || ops::kthvalue(t, k, dim, keepdim))?,
        )
    }

    pub fn median<'py>(
        py: Python<'py>,
        t: &Tensor,
        dim: Option<isize>,
        keepdim: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        match dim {
            None => {
                let inner = run(py, t.numel(), || ops::median(t))?;
                Ok(Bound::new(py, PyTensor { inner })?.into_any())
            }
            Some(d) => {
                let r = run(py, t.numel(), || ops::median_dim(t, d, keepdim))?;
                Ok(Bound::new(py, pair(py, r)?)?.into_any())
            }
        }
    }

    pub fn any_all(
        py: Python<'_>,
        all: bool,
        t: &Tensor,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        let dims = args::dims(dim)?;
        let inner = run(py, t.numel(), || match all {
            true => ops::all(t, dims.as_deref(), keepdim),
            false => ops::any(t, dims.as_deref(), keepdim),
        })?;
        Ok(PyTensor { inner })
    }

    pub fn scan(
        py: Python<'_>,
        op: ops::ScanOp,
        t: &Tensor,
        dim: isize,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        let dtype: Option<DType> = dtype
            .filter(|d| !d.is_none())
            .map(crate::dtype::resolve)
            .transpose()?;
        let inner = run(py, t.numel(), || ops::scan(op, t, dim, dtype))?;
        Ok(PyTensor { inner })
    }

    pub fn logsumexp(
        py: Python<'_>,
        t: &Tensor,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        let dims = args::dims(dim)?;
        let inner = run(py, t.numel(), || {
            ops::logsumexp(t, dims.as_deref(), keepdim)
        })?;
        Ok(PyTensor { inner })
    }

    pub fn norm(
        py: Python<'_>,
        t: &Tensor,
        p: Option<&Bound<'_, PyAny>>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        let (p, dims) = (norm_order(p)?, args::dims(dim)?);
        let inner = run(py, t.numel(), || ops::norm(t, p, dims.as_deref(), keepdim))?;
        Ok(PyTensor { inner })
    }

    pub fn unique<'py>(
        py: Python<'py>,
        t: &Tensor,
        return_inverse: bool,
        return_counts: bool,
        dim: Option<isize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let u = run(py, t.numel(), || match dim {
            Some(d) => ops::unique_dim(t, d, return_inverse, return_counts),
            None => ops::unique(t, true, return_inverse, return_counts),
        })?;
        let values = Bound::new(py, PyTensor { inner: u.values })?.into_any();
        if !return_inverse && !return_counts {
            return Ok(values);
        }
        let mut items = vec![values];
        for extra in [u.inverse, u.counts].into_iter().flatten() {
            items.push(Bound::new(py, PyTensor { inner: extra })?.into_any());
        }
        Ok(PyTuple::new(py, items)?.into_any())
    }

    pub fn roll(
        py: Python<'_>,
        t: &Tensor,
        shifts: &Bound<'_, PyAny>,
        dims: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        let shifts = int_seq(shifts)?;
        let dims = match dims.filter(|d| !d.is_none()) {
            Some(d) => int_seq(d)?,
            None => Vec::new(),
        };
        let inner = run(py, t.numel(), || ops::roll(t, &shifts, &dims))?;
        Ok(PyTensor { inner })
    }
}

#[doc = include_str!("../pydoc/sort.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=-1, descending=false, stable=false), text_signature = "(input, dim=-1, descending=False, stable=False)")]
pub fn sort(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    descending: bool,
    stable: bool,
) -> PyResult<PyValuesIndices> {
    let _ = stable;
    call::sort(py, &tensor_arg(input)?, dim, descending)
}

#[doc = include_str!("../pydoc/argsort.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=-1, descending=false, stable=false), text_signature = "(input, dim=-1, descending=False, stable=False)")]
pub fn argsort(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    descending: bool,
    stable: bool,
) -> PyResult<PyTensor> {
    let _ = stable;
    call::argsort(py, &tensor_arg(input)?, dim, descending)
}

#[doc = include_str!("../pydoc/topk.md")]
#[pyfunction]
#[pyo3(signature = (input, k, dim=-1, largest=true, sorted=true), text_signature = "(input, k, dim=-1, largest=True, sorted=True)")]
pub fn topk(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    k: usize,
    dim: isize,
    largest: bool,
    sorted: bool,
) -> PyResult<PyValuesIndices> {
    call::topk(py, &tensor_arg(input)?, k, dim, largest, sorted)
}

#[doc = include_str!("../pydoc/kthvalue.md")]
#[pyfunction]
#[pyo3(signature = (input, k, dim=-1, keepdim=false), text_signature = "(input, k, dim=-1, keepdim=False)")]
pub fn kthvalue(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    k: usize,
    dim: isize,
    keepdim: bool,
) -> PyResult<PyValuesIndices> {
    call::kthvalue(py, &tensor_arg(input)?, k, dim, keepdim)
}

#[doc = include_str!("../pydoc/median.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn median<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    dim: Option<isize>,
    keepdim: bool,
) -> PyResult<Bound<'py, PyAny>> {
    call::median(py, &tensor_arg(input)?, dim, keepdim)
}

#[doc = include_str!("../pydoc/any.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn any(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    call::any_all(py, false, &tensor_arg(input)?, dim, keepdim)
}

#[doc = include_str!("../pydoc/all.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn all(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    call::any_all(py, true, &tensor_arg(input)?, dim, keepdim)
}

#[doc = include_str!("../pydoc/cumsum.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, *, dtype=None))]
pub fn cumsum(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    dtype: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    call::scan(py, ops::ScanOp::Sum, &tensor_arg(input)?, dim, dtype)
}

#[doc = include_str!("../pydoc/cumprod.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, *, dtype=None))]
pub fn cumprod(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    dtype: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    call::scan(py, ops::ScanOp::Prod, &tensor_arg(input)?, dim, dtype)
}

#[doc = include_str!("../pydoc/logsumexp.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn logsumexp(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    call::logsumexp(py, &tensor_arg(input)?, dim, keepdim)
}

#[doc = include_str!("../pydoc/norm.md")]
#[pyfunction]
#[pyo3(signature = (input, p=None, dim=None, keepdim=false))]
pub fn norm(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    p: Option<&Bound<'_, PyAny>>,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    call::norm(py, &tensor_arg(input)?, p, dim, keepdim)
}

#[doc = include_str!("../pydoc/unique.md")]
#[pyfunction]
#[pyo3(signature = (input, sorted=true, return_inverse=false, return_counts=false, dim=None))]
pub fn unique<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    sorted: bool,
    return_inverse: bool,
    return_counts: bool,
    dim: Option<isize>,
) -> PyResult<Bound<'py, PyAny>> {
    let _ = sorted;
    call::unique(py, &tensor_arg(input)?, return_inverse, return_counts, dim)
}

#[doc = include_str!("../pydoc/roll.md")]
#[pyfunction]
#[pyo3(signature = (input, shifts, dims=None))]
pub fn roll(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    shifts: &Bound<'_, PyAny>,
    dims: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    call::roll(py, &tensor_arg(input)?, shifts, dims)
}

/// Adds the functions and `ValuesIndices` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyValuesIndices>()?;
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(sort, argsort, topk, kthvalue, median, any, all, cumsum, cumprod);
    add!(logsumexp, norm, unique, roll);
    Ok(())
}
