//! Mapped files: `crt.load_safetensors(path)` and `crt.from_file(path, dtype, shape, offset)`
//! (also `Tensor.from_file`). The file is mapped read-only and read lazily; the tensors keep
//! the mapping alive. The file must not be truncated or rewritten while they live.

use std::path::PathBuf;

use clika_rt::{io, Tensor};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::dtype as dt;
use crate::error::IntoPyResult;
use crate::tensor::PyTensor;

#[doc = include_str!("../pydoc/load_safetensors.md")]
#[pyfunction]
#[pyo3(signature = (path, *, copy=false))]
pub fn load_safetensors<'py>(
    py: Python<'py>,
    path: PathBuf,
    copy: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let loaded = py
        .detach(|| {
            if copy {
                io::load_safetensors_copied(&path)
            } else {
                // SAFETY: the mapping contract is documented at every door: the caller does
                // not modify the file while its tensors live.
                unsafe { io::load_safetensors(&path) }
            }
        })
        .py()?;
    let dict = PyDict::new(py);
    for (name, inner) in loaded {
        dict.set_item(name, PyTensor { inner })?;
    }
    Ok(dict)
}

#[doc = include_str!("../pydoc/from_file.md")]
#[pyfunction]
#[pyo3(signature = (path, dtype, shape, offset=0, *, copy=false))]
pub fn from_file(
    py: Python<'_>,
    path: PathBuf,
    dtype: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    offset: u64,
    copy: bool,
) -> PyResult<PyTensor> {
    let dtype = dt::resolve(dtype)?;
    let shape = crate::args::shape_of(shape)?;
    let inner: Tensor = py
        .detach(|| {
            if copy {
                Tensor::from_file_copied(&path, dtype, &shape, offset)
            } else {
                // SAFETY: as in `load_safetensors`.
                unsafe { Tensor::from_file(&path, dtype, &shape, offset) }
            }
        })
        .py()?;
    Ok(PyTensor { inner })
}
