//! `linspace`, `logspace`, `eye` and the `*_like` constructors.

use clika_rt::{DType, Tensor};
use pyo3::prelude::*;

use crate::dtype as dt;
use crate::error::IntoPyResult;
use crate::functions::placed;
use crate::ops::tensor_arg;
use crate::tensor::PyTensor;

#[doc = include_str!("../pydoc/linspace.md")]
#[pyfunction]
#[pyo3(signature = (start, end, steps, *, dtype=None, device=None))]
pub fn linspace(
    start: f64,
    end: f64,
    steps: usize,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let dtype = dt::resolve_or(dtype, DType::Float32)?;
    placed(Tensor::linspace(start, end, steps, dtype), device)
}

#[doc = include_str!("../pydoc/logspace.md")]
#[pyfunction]
#[pyo3(signature = (start, end, steps, base=10.0, *, dtype=None, device=None))]
pub fn logspace(
    start: f64,
    end: f64,
    steps: usize,
    base: f64,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let dtype = dt::resolve_or(dtype, DType::Float32)?;
    placed(Tensor::logspace(start, end, steps, base, dtype), device)
}

#[doc = include_str!("../pydoc/eye.md")]
#[pyfunction]
#[pyo3(signature = (n, m=None, *, dtype=None, device=None))]
pub fn eye(
    n: usize,
    m: Option<usize>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let dtype = dt::resolve_or(dtype, DType::Float32)?;
    placed(Tensor::eye(n, m, dtype), device)
}

#[doc = include_str!("../pydoc/full_like.md")]
#[pyfunction]
#[pyo3(signature = (input, fill_value, *, dtype=None, device=None))]
pub fn full_like(
    input: &Bound<'_, PyAny>,
    fill_value: f64,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    like(input, Some(fill_value), dtype, device)
}

fn like(
    input: &Bound<'_, PyAny>,
    value: Option<f64>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let t = tensor_arg(input)?;
    let dtype = dt::resolve_or(dtype, t.dtype())?;
    let device = match device.filter(|d| !d.is_none()) {
        Some(d) => crate::device::resolve(d)?,
        None => t.device(),
    };
    device.ensure_available().py()?;
    let made = match value {
        Some(v) => Tensor::full(t.shape(), v, dtype),
        None => Tensor::empty(t.shape(), dtype),
    };
    Ok(PyTensor {
        inner: if device.is_cpu() {
            made.py()?
        } else {
            made.py()?.copy_to(device).py()?
        },
    })
}

macro_rules! like_fns {
    ($($name:ident => $value:expr, $doc:expr;)*) => {$(
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (input, *, dtype=None, device=None))]
        pub fn $name(
            input: &Bound<'_, PyAny>,
            dtype: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyTensor> {
            like(input, $value, dtype, device)
        }
    )*};
}

like_fns! {
    zeros_like => Some(0.0), include_str!("../pydoc/zeros_like.md");
    ones_like => Some(1.0), include_str!("../pydoc/ones_like.md");
    empty_like => None, include_str!("../pydoc/empty_like.md");
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(linspace, logspace, eye, full_like, zeros_like, ones_like, empty_like);
    Ok(())
}
