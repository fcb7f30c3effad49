//! The named indexing functions PyTorch users call (`crt.gather`, `crt.scatter`,
//! `crt.scatter_add`, `crt.scatter_reduce`, `crt.index_add`, `crt.histc`, `crt.index_select`,
//! `crt.masked_select`, `crt.masked_fill`, `crt.nonzero`) and the values-only reductions
//! `crt.amax`/`crt.amin`, with their methods (`t.gather(…)`, the in-place `t.scatter_(…)`,
//! `t.scatter_add_(…)`, `t.scatter_reduce_(…)`, `t.index_add_(…)`, `t.masked_fill_(…)`).

use clika_rt::ops::{self, Operand, Scalar};
use clika_rt::{DType, ErrorKind, Tensor};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::args;
use crate::error::{raise, IntoPyResult};
use crate::ops::{fn_operand, run, tensor_arg};
use crate::tensor::PyTensor;

/// What a scatter writes: `src` (a tensor, or a number converted to `t`'s dtype, checked
/// against its range), or the keyword `value` (a number), exactly one of them.
fn scatter_src(
    t: &Tensor,
    src: Option<&Bound<'_, PyAny>>,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<Tensor> {
    let given = match (src, value) {
        (Some(s), None) | (None, Some(s)) => s,
        _ => {
            return Err(raise(
                ErrorKind::InvalidArgument,
                "pass exactly one of src (a tensor or number) and value (a number)",
            ))
        }
    };
    let operand = fn_operand(given)?;
    if let Operand::Scalar(v) = &operand {
        crate::int_range::check_operand(None, *v, t.dtype())?;
    }
    operand.to_tensor_for(t.dtype()).py()
}

/// A number, or a one-element tensor's value, as a scalar (`masked_fill`'s value).
fn fill_value(value: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    match fn_operand(value)? {
        Operand::Scalar(s) => Ok(s),
        Operand::Tensor(t) if t.numel() == 1 => {
            let t = t.reshape(&[]).py()?;
            Ok(match t.dtype() {
                DType::Bool => Scalar::Bool(t.item::<bool>().py()?),
                DType::UInt64 => Scalar::UInt(t.item::<u64>().py()?),
                d if d.is_float() => Scalar::Float(t.to_dtype(DType::Float64).py()?.item().py()?),
                _ => Scalar::Int(t.to_dtype(DType::Int64).py()?.item().py()?),
            })
        }
        Operand::Tensor(t) => Err(raise(
            ErrorKind::InvalidArgument,
            format!(
                "masked_fill takes a number or a one-element tensor, got a tensor of shape {:?}; \
                 to write a tensor's values use crt.where(mask, values, t)",
                t.shape()
            ),
        )),
    }
}

pub(crate) mod call {
    use super::*;

    /// `f(t, dim, index)`: the functions that pick along a dim (`gather`, `index_select`).
    pub fn pick(
        py: Python<'_>,
        t: &Tensor,
        dim: isize,
        index: &Bound<'_, PyAny>,
        f: fn(&Tensor, isize, &Tensor) -> clika_rt::Result<Tensor>,
    ) -> PyResult<PyTensor> {
        let index = tensor_arg(index)?;
        let inner = run(py, index.numel(), || f(t, dim, &index))?;
        Ok(PyTensor { inner })
    }

    /// `bincount(t, weights, minlength)`; a negative `minlength` is refused as PyTorch does.
    pub fn bincount(
        py: Python<'_>,
        t: &Tensor,
        weights: Option<&Bound<'_, PyAny>>,
        minlength: i64,
    ) -> PyResult<PyTensor> {
        let weights = weights.map(tensor_arg).transpose()?;
        let inner = run(py, t.numel(), || {
            let minlength =
                usize::try_from(minlength).map_err(|_| clika_rt::Error::InvalidArgument {
                    what: format!("bincount: minlength is {minlength}; it must be >= 0"),
                })?;
            ops::bincount(t, weights.as_ref(), minlength)
        })?;
        Ok(PyTensor { inner })
    }

    /// `histc(t, bins, min, max)`; a negative `bins` is refused as PyTorch does.
    pub fn histc(py: Python<'_>, t: &Tensor, bins: i64, min: f64, max: f64) -> PyResult<PyTensor> {
        let inner = run(py, t.numel(), || {
            let bins = usize::try_from(bins).map_err(|_| clika_rt::Error::InvalidArgument {
                what: format!("histc: bins is {bins}; it must be at least 1"),
            })?;
            ops::histc(t, bins, min, max)
        })?;
        Ok(PyTensor { inner })
    }

    /// `scatter` (`add == false`) or `scatter_add` into `t` itself: its memory, which may be
    /// shared (a numpy array it borrows).
    pub fn scatter_(
        py: Python<'_>,
        t: &Tensor,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: Option<&Bound<'_, PyAny>>,
        value: Option<&Bound<'_, PyAny>>,
        add: bool,
    ) -> PyResult<()> {
        let index = tensor_arg(index)?;
        let src = scatter_src(t, src, value)?;
        // SAFETY: the numpy/PyTorch contract for in-place writes (as `binary_inplace`): no
        // other thread touches the elements during the call.
        run(py, index.numel(), || unsafe {
            if add {
                ops::scatter_add_shared(t, dim, &index, &src)
            } else {
                ops::scatter_shared(t, dim, &index, &src)
            }
        })
    }

    /// [`scatter_`] into a copy of `t`.
    pub fn scatter(
        py: Python<'_>,
        t: &Tensor,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: Option<&Bound<'_, PyAny>>,
        value: Option<&Bound<'_, PyAny>>,
        add: bool,
    ) -> PyResult<PyTensor> {
        let index = tensor_arg(index)?;
        let src = scatter_src(t, src, value)?;
        let f = if add { ops::scatter_add } else { ops::scatter };
        let inner = run(py, t.numel().max(index.numel()), || f(t, dim, &index, &src))?;
        Ok(PyTensor { inner })
    }

    /// `index_add` into a copy of `t` (returned), or into `t` itself (`in_place`; `t` is
    /// returned).
    pub fn index_add(
        py: Python<'_>,
        t: &Tensor,
        dim: isize,
        index: &Bound<'_, PyAny>,
        source: &Bound<'_, PyAny>,
        alpha: Option<&Bound<'_, PyAny>>,
        in_place: bool,
    ) -> PyResult<PyTensor> {
        let index = tensor_arg(index)?;
        let source = tensor_arg(source)?;
        let alpha = match alpha.map(fn_operand).transpose()? {
            None => Scalar::Int(1),
            Some(Operand::Scalar(a)) => a,
            Some(Operand::Tensor(_)) => {
                return Err(raise(
                    ErrorKind::InvalidArgument,
                    "index_add: alpha is a number (a bool, int or float), not a tensor",
                ))
            }
        };
        crate::int_range::check_operand(None, alpha, t.dtype())?;
        let inner = run(py, t.numel().max(source.numel()), || {
            if in_place {
                // SAFETY: as in `scatter_`.
                unsafe { ops::index_add_shared(t, dim, &index, &source, alpha) }.map(|()| t.clone())
            } else {
                ops::index_add(t, dim, &index, &source, alpha)
            }
        })?;
        Ok(PyTensor { inner })
    }

    /// The arguments of `scatter_reduce`: the reduction, the index and the values.
    fn reduce_args(
        t: &Tensor,
        index: &Bound<'_, PyAny>,
        src: &Bound<'_, PyAny>,
        reduce: &str,
    ) -> PyResult<(ops::ScatterReduce, Tensor, Tensor)> {
        let reduce = ops::ScatterReduce::parse(reduce).py()?;
        Ok((reduce, tensor_arg(index)?, scatter_src(t, Some(src), None)?))
    }

    /// `scatter_reduce` into a copy of `t`.
    pub fn scatter_reduce(
        py: Python<'_>,
        t: &Tensor,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: &Bound<'_, PyAny>,
        reduce: &str,
        include_self: bool,
    ) -> PyResult<PyTensor> {
        let (reduce, index, src) = reduce_args(t, index, src, reduce)?;
        let inner = run(py, t.numel().max(index.numel()), || {
            ops::scatter_reduce(t, dim, &index, &src, reduce, include_self)
        })?;
        Ok(PyTensor { inner })
    }

    /// `scatter_reduce` into `t` itself (its memory, which may be shared).
    pub fn scatter_reduce_(
        py: Python<'_>,
        t: &Tensor,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: &Bound<'_, PyAny>,
        reduce: &str,
        include_self: bool,
    ) -> PyResult<()> {
        let (reduce, index, src) = reduce_args(t, index, src, reduce)?;
        // SAFETY: the numpy/PyTorch contract for in-place writes (as `scatter_`).
        run(py, t.numel().max(index.numel()), || unsafe {
            ops::scatter_reduce_shared(t, dim, &index, &src, reduce, include_self)
        })
    }

    pub fn masked_select(
        py: Python<'_>,
        t: &Tensor,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<PyTensor> {
        let mask = tensor_arg(mask)?;
        let inner = run(py, t.numel(), || ops::masked_select(t, &mask))?;
        Ok(PyTensor { inner })
    }

    /// `masked_fill` into a copy of `t` (returned), or into `t` itself (`in_place`; `t`
    /// is returned).
    pub fn masked_fill(
        py: Python<'_>,
        t: &Tensor,
        mask: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        in_place: bool,
    ) -> PyResult<PyTensor> {
        let mask = tensor_arg(mask)?;
        let v = fill_value(value)?;
        crate::int_range::check_operand(None, v, t.dtype())?;
        let inner = run(py, t.numel(), || {
            if in_place {
                // SAFETY: as in `scatter_`.
                unsafe { t.masked_fill_shared(&mask, v) }.map(|()| t.clone())
            } else {
                ops::masked_fill(t, &mask, v)
            }
        })?;
        Ok(PyTensor { inner })
    }

    pub fn nonzero<'py>(
        py: Python<'py>,
        t: &Tensor,
        as_tuple: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let hits = run(py, t.numel(), || ops::nonzero(t))?;
        if !as_tuple {
            return Ok(Bound::new(py, PyTensor { inner: hits })?.into_any());
        }
        // numpy's `nonzero` form: one index vector per dim (a 0-d input counts as 1-d).
        let hits = if t.ndim() == 0 {
            ops::nonzero(&t.reshape(&[1]).py()?).py()?
        } else {
            hits
        };
        let cols = (0..hits.shape()[1])
            .map(|d| {
                let inner = hits.select(1, d as isize).py()?.contiguous().py()?;
                Ok(PyTensor { inner })
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, cols)?.into_any())
    }

    /// `amax` (`max == true`) or `amin` over `dim` (all dims when it is `None` or `()`).
    pub fn extreme(
        py: Python<'_>,
        t: &Tensor,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
        max: bool,
    ) -> PyResult<PyTensor> {
        let dims = args::dims(dim)?.unwrap_or_default();
        let inner = run(py, t.numel(), || {
            let all: Vec<isize> = (0..t.ndim() as isize).collect();
            let dims = if dims.is_empty() { &all } else { &dims };
            if max {
                ops::max_dims(t, dims, keepdim)
            } else {
                ops::min_dims(t, dims, keepdim)
            }
        })?;
        Ok(PyTensor { inner })
    }
}

#[doc = include_str!("../pydoc/gather.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, index))]
pub fn gather(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    index: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    call::pick(py, &tensor_arg(input)?, dim, index, ops::gather)
}

#[doc = include_str!("../pydoc/scatter.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, index, src=None, *, value=None))]
pub fn scatter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    index: &Bound<'_, PyAny>,
    src: Option<&Bound<'_, PyAny>>,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    call::scatter(py, &tensor_arg(input)?, dim, index, src, value, false)
}

#[doc = include_str!("../pydoc/scatter_add.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, index, src))]
pub fn scatter_add(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    index: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    call::scatter(py, &tensor_arg(input)?, dim, index, Some(src), None, true)
}

#[doc = include_str!("../pydoc/scatter_reduce.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, index, src, reduce, *, include_self=true))]
pub fn scatter_reduce(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    index: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    reduce: &str,
    include_self: bool,
) -> PyResult<PyTensor> {
    let t = tensor_arg(input)?;
    call::scatter_reduce(py, &t, dim, index, src, reduce, include_self)
}

#[doc = include_str!("../pydoc/index_add.md")]
#[pyfunction]
#[pyo3(
    signature = (input, dim, index, source, *, alpha=None),
    text_signature = "(input, dim, index, source, *, alpha=1)"
)]
pub fn index_add(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    index: &Bound<'_, PyAny>,
    source: &Bound<'_, PyAny>,
    alpha: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    call::index_add(py, &tensor_arg(input)?, dim, index, source, alpha, false)
}

#[doc = include_str!("../pydoc/bincount.md")]
#[pyfunction]
#[pyo3(signature = (input, weights = None, minlength = 0))]
pub fn bincount(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: Option<&Bound<'_, PyAny>>,
    minlength: i64,
) -> PyResult<PyTensor> {
    call::bincount(py, &tensor_arg(input)?, weights, minlength)
}

#[doc = include_str!("../pydoc/histc.md")]
#[pyfunction]
#[pyo3(signature = (input, bins = 100, min = 0.0, max = 0.0))]
pub fn histc(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    bins: i64,
    min: f64,
    max: f64,
) -> PyResult<PyTensor> {
    call::histc(py, &tensor_arg(input)?, bins, min, max)
}

#[doc = include_str!("../pydoc/index_select.md")]
#[pyfunction]
#[pyo3(signature = (input, dim, index))]
pub fn index_select(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: isize,
    index: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    call::pick(py, &tensor_arg(input)?, dim, index, ops::index_select)
}

#[doc = include_str!("../pydoc/masked_select.md")]
#[pyfunction]
#[pyo3(signature = (input, mask))]
pub fn masked_select(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    mask: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    call::masked_select(py, &tensor_arg(input)?, mask)
}

#[doc = include_str!("../pydoc/masked_fill.md")]
#[pyfunction]
#[pyo3(signature = (input, mask, value))]
pub fn masked_fill(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    mask: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    call::masked_fill(py, &tensor_arg(input)?, mask, value, false)
}

#[doc = include_str!("../pydoc/nonzero.md")]
#[pyfunction]
#[pyo3(signature = (input, *, as_tuple=false))]
pub fn nonzero<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    as_tuple: bool,
) -> PyResult<Bound<'py, PyAny>> {
    call::nonzero(py, &tensor_arg(input)?, as_tuple)
}

#[doc = include_str!("../pydoc/amax.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn amax(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    call::extreme(py, &tensor_arg(input)?, dim, keepdim, true)
}

#[doc = include_str!("../pydoc/amin.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn amin(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    call::extreme(py, &tensor_arg(input)?, dim, keepdim, false)
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(
        gather,
        scatter,
        scatter_add,
        scatter_reduce,
        index_add,
        bincount,
        histc,
        index_select,
        masked_select,
        masked_fill,
        nonzero
    );
    add!(amax, amin);
    Ok(())
}

#[pymethods]
impl PyTensor {
    #[doc = include_str!("../pydoc/Tensor.gather.md")]
    #[pyo3(name = "gather", signature = (dim, index))]
    fn gather_m(&self, py: Python<'_>, dim: isize, index: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        call::pick(py, &self.inner, dim, index, ops::gather)
    }

    #[doc = include_str!("../pydoc/Tensor.scatter.md")]
    #[pyo3(name = "scatter", signature = (dim, index, src=None, *, value=None))]
    fn scatter_m(
        &self,
        py: Python<'_>,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: Option<&Bound<'_, PyAny>>,
        value: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        call::scatter(py, &self.inner, dim, index, src, value, false)
    }

    #[doc = include_str!("../pydoc/Tensor.scatter_.md")]
    #[pyo3(signature = (dim, index, src=None, *, value=None))]
    fn scatter_<'py>(
        slf: &Bound<'py, Self>,
        dim: isize,
        index: &Bound<'py, PyAny>,
        src: Option<&Bound<'py, PyAny>>,
        value: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        call::scatter_(slf.py(), &slf.get().inner, dim, index, src, value, false)?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.scatter_add.md")]
    #[pyo3(name = "scatter_add", signature = (dim, index, src))]
    fn scatter_add_m(
        &self,
        py: Python<'_>,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: &Bound<'_, PyAny>,
    ) -> PyResult<PyTensor> {
        call::scatter(py, &self.inner, dim, index, Some(src), None, true)
    }

    #[doc = include_str!("../pydoc/Tensor.scatter_add_.md")]
    #[pyo3(signature = (dim, index, src))]
    fn scatter_add_<'py>(
        slf: &Bound<'py, Self>,
        dim: isize,
        index: &Bound<'py, PyAny>,
        src: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        call::scatter_(
            slf.py(),
            &slf.get().inner,
            dim,
            index,
            Some(src),
            None,
            true,
        )?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.index_add.md")]
    #[pyo3(
        name = "index_add",
        signature = (dim, index, source, *, alpha=None),
        text_signature = "(self, dim, index, source, *, alpha=1)"
    )]
    fn index_add_m(
        &self,
        py: Python<'_>,
        dim: isize,
        index: &Bound<'_, PyAny>,
        source: &Bound<'_, PyAny>,
        alpha: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        call::index_add(py, &self.inner, dim, index, source, alpha, false)
    }

    #[doc = include_str!("../pydoc/Tensor.index_add_.md")]
    #[pyo3(
        signature = (dim, index, source, *, alpha=None),
        text_signature = "(self, dim, index, source, *, alpha=1)"
    )]
    fn index_add_<'py>(
        slf: &Bound<'py, Self>,
        dim: isize,
        index: &Bound<'py, PyAny>,
        source: &Bound<'py, PyAny>,
        alpha: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        call::index_add(slf.py(), &slf.get().inner, dim, index, source, alpha, true)?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.scatter_reduce.md")]
    #[pyo3(name = "scatter_reduce", signature = (dim, index, src, reduce, *, include_self=true))]
    fn scatter_reduce_m(
        &self,
        py: Python<'_>,
        dim: isize,
        index: &Bound<'_, PyAny>,
        src: &Bound<'_, PyAny>,
        reduce: &str,
        include_self: bool,
    ) -> PyResult<PyTensor> {
        call::scatter_reduce(py, &self.inner, dim, index, src, reduce, include_self)
    }

    #[doc = include_str!("../pydoc/Tensor.scatter_reduce_.md")]
    #[pyo3(signature = (dim, index, src, reduce, *, include_self=true))]
    fn scatter_reduce_<'py>(
        slf: &Bound<'py, Self>,
        dim: isize,
        index: &Bound<'py, PyAny>,
        src: &Bound<'py, PyAny>,
        reduce: &str,
        include_self: bool,
    ) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().inner;
        call::scatter_reduce_(slf.py(), t, dim, index, src, reduce, include_self)?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.bincount.md")]
    #[pyo3(name = "bincount", signature = (weights = None, minlength = 0))]
    fn bincount_m(
        &self,
        py: Python<'_>,
        weights: Option<&Bound<'_, PyAny>>,
        minlength: i64,
    ) -> PyResult<PyTensor> {
        call::bincount(py, &self.inner, weights, minlength)
    }

    #[doc = include_str!("../pydoc/Tensor.histc.md")]
    #[pyo3(name = "histc", signature = (bins = 100, min = 0.0, max = 0.0))]
    fn histc_m(&self, py: Python<'_>, bins: i64, min: f64, max: f64) -> PyResult<PyTensor> {
        call::histc(py, &self.inner, bins, min, max)
    }

    #[doc = include_str!("../pydoc/Tensor.index_select.md")]
    #[pyo3(name = "index_select", signature = (dim, index))]
    fn index_select_m(
        &self,
        py: Python<'_>,
        dim: isize,
        index: &Bound<'_, PyAny>,
    ) -> PyResult<PyTensor> {
        call::pick(py, &self.inner, dim, index, ops::index_select)
    }

    #[doc = include_str!("../pydoc/Tensor.masked_select.md")]
    #[pyo3(name = "masked_select", signature = (mask))]
    fn masked_select_m(&self, py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        call::masked_select(py, &self.inner, mask)
    }

    #[doc = include_str!("../pydoc/Tensor.masked_fill.md")]
    #[pyo3(name = "masked_fill", signature = (mask, value))]
    fn masked_fill_m(
        &self,
        py: Python<'_>,
        mask: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyTensor> {
        call::masked_fill(py, &self.inner, mask, value, false)
    }

    #[doc = include_str!("../pydoc/Tensor.masked_fill_.md")]
    #[pyo3(signature = (mask, value))]
    fn masked_fill_<'py>(
        slf: &Bound<'py, Self>,
        mask: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        call::masked_fill(slf.py(), &slf.get().inner, mask, value, true)?;
        Ok(slf.clone())
    }

    #[doc = include_str!("../pydoc/Tensor.nonzero.md")]
    #[pyo3(name = "nonzero", signature = (*, as_tuple=false))]
    fn nonzero_m<'py>(&self, py: Python<'py>, as_tuple: bool) -> PyResult<Bound<'py, PyAny>> {
        call::nonzero(py, &self.inner, as_tuple)
    }

    #[doc = include_str!("../pydoc/Tensor.amax.md")]
    #[pyo3(name = "amax", signature = (dim=None, keepdim=false))]
    fn amax_m(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        call::extreme(py, &self.inner, dim, keepdim, true)
    }

    #[doc = include_str!("../pydoc/Tensor.amin.md")]
    #[pyo3(name = "amin", signature = (dim=None, keepdim=false))]
    fn amin_m(
        &self,
        py: Python<'_>,
        dim: Option<&Bound<'_, PyAny>>,
        keepdim: bool,
    ) -> PyResult<PyTensor> {
        call::extreme(py, &self.inner, dim, keepdim, false)
    }
}
