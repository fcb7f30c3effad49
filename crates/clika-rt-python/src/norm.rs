//! The normalization layers (`crt.layer_norm`, `crt.group_norm`, `crt.batch_norm`), with
//! `torch.nn.functional`'s names, argument names and defaults.

use clika_rt::ops;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::ops::{run, tensor_arg};
use crate::tensor::PyTensor;
use crate::vision::opt_tensor;

#[doc = include_str!("../pydoc/layer_norm.md")]
#[pyfunction]
#[pyo3(signature = (input, normalized_shape, weight=None, bias=None, eps=1e-5))]
pub fn layer_norm(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    normalized_shape: &Bound<'_, PyAny>,
    weight: Option<&Bound<'_, PyAny>>,
    bias: Option<&Bound<'_, PyAny>>,
    eps: f64,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let shape: Vec<usize> = match normalized_shape.extract::<usize>() {
        Ok(v) => vec![v],
        Err(_) => normalized_shape.extract::<Vec<usize>>().map_err(|_| {
            PyTypeError::new_err("normalized_shape must be an int or a sequence of ints")
        })?,
    };
    let (w, b) = (opt_tensor(weight)?, opt_tensor(bias)?);
    let inner = run(py, x.numel(), || {
        ops::layer_norm(&x, &shape, w.as_ref(), b.as_ref(), eps)
    })?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/group_norm.md")]
#[pyfunction]
#[pyo3(signature = (input, num_groups, weight=None, bias=None, eps=1e-5))]
pub fn group_norm(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    num_groups: usize,
    weight: Option<&Bound<'_, PyAny>>,
    bias: Option<&Bound<'_, PyAny>>,
    eps: f64,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let (w, b) = (opt_tensor(weight)?, opt_tensor(bias)?);
    let inner = run(py, x.numel(), || {
        ops::group_norm(&x, num_groups, w.as_ref(), b.as_ref(), eps)
    })?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/batch_norm.md")]
#[pyfunction]
#[pyo3(signature = (input, running_mean, running_var, weight=None, bias=None, training=false,
                    momentum=0.1, eps=1e-5))]
#[expect(
    clippy::too_many_arguments,
    reason = "torch.nn.functional.batch_norm's signature"
)]
pub fn batch_norm(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    running_mean: &Bound<'_, PyAny>,
    running_var: &Bound<'_, PyAny>,
    weight: Option<&Bound<'_, PyAny>>,
    bias: Option<&Bound<'_, PyAny>>,
    training: bool,
    momentum: f64,
    eps: f64,
) -> PyResult<PyTensor> {
    let _ = momentum; // only training mode updates the running statistics
    if training {
        return Err(pyo3::exceptions::PyNotImplementedError::new_err(
            "batch_norm: training mode (batch statistics, running-statistics update) is not \
             supported; this runtime runs inference: pass training=False",
        ));
    }
    let x = tensor_arg(input)?;
    let (m, v) = (tensor_arg(running_mean)?, tensor_arg(running_var)?);
    let (w, b) = (opt_tensor(weight)?, opt_tensor(bias)?);
    let inner = run(py, x.numel(), || {
        ops::batch_norm(&x, &m, &v, w.as_ref(), b.as_ref(), eps)
    })?;
    Ok(PyTensor { inner })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(group_norm, m)?)?;
    m.add_function(wrap_pyfunction!(batch_norm, m)?)?;
    Ok(())
}
