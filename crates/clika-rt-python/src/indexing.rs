//! `t[key]` and `t[key] = value` with numpy's rules: the key's entries (ints, slices, `None`,
//! `...`, and integer or boolean tensors, numpy arrays or lists) translate to the core's
//! `TensorIndex`; basic keys give views, index arrays gather copies (`ops::index`), and
//! assignment writes through either (`ops::index_put_shared`).

use clika_rt::ops::{self, TensorIndex};
use clika_rt::{ErrorKind, Tensor};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyEllipsis, PyInt, PyList, PySlice, PyTuple};

use crate::error::{raise, IntoPyResult};
use crate::numpy_import;
use crate::ops::{fn_operand, run};
use crate::tensor::PyTensor;

/// One key entry.
fn entry(k: &Bound<'_, PyAny>) -> PyResult<TensorIndex> {
    if k.is_none() {
        return Ok(TensorIndex::NewAxis);
    }
    if k.is_instance_of::<PyEllipsis>() {
        return Ok(TensorIndex::Ellipsis);
    }
    if let Ok(s) = k.cast::<PySlice>() {
        let part = |name: &str| -> PyResult<Option<isize>> {
            let v = s.getattr(name)?;
            if v.is_none() {
                return Ok(None);
            }
            v.extract::<isize>().map(Some).map_err(|_| {
                PyIndexError::new_err(format!(
                    "slice {name} {v} is not an integer within the index range"
                ))
            })
        };
        let step = part("step")?.unwrap_or(1);
        if step == 0 {
            return Err(raise(
                ErrorKind::InvalidArgument,
                "slice step cannot be zero",
            ));
        }
        return Ok(TensorIndex::Slice {
            start: part("start")?,
            stop: part("stop")?,
            step,
        });
    }
    if k.is_instance_of::<PyBool>() {
        return Err(raise(
            ErrorKind::InvalidArgument,
            "a bare True/False index is not supported; use t[None] or a boolean tensor",
        ));
    }
    if let Ok(t) = k.cast::<PyTensor>() {
        return Ok(TensorIndex::Tensor(t.get().inner.clone()));
    }
    let array = k.cast::<numpy::PyUntypedArray>().ok();
    let zero_d_int = array.is_some_and(|a| {
        use numpy::{PyArrayDescrMethods, PyUntypedArrayMethods};
        a.ndim() == 0 && matches!(a.dtype().kind(), b'i' | b'u')
    });
    if array.is_some() && !zero_d_int
        || k.is_instance_of::<PyList>()
        || k.is_instance_of::<PyTuple>()
    {
        // Index arrays: numpy arrays and nested lists, copied as `crt.tensor` would (an
        // empty list indexes nothing: int64; an empty boolean array stays a mask).
        let t = numpy_import::copy_from_python(k)?;
        let keep = t.dtype().is_integer() || t.dtype() == clika_rt::DType::Bool;
        let t = if t.numel() == 0 && !keep {
            t.to_dtype(clika_rt::DType::Int64).py()?
        } else {
            t
        };
        return Ok(TensorIndex::Tensor(t));
    }
    if k.is_instance_of::<PyInt>() || k.hasattr("__index__")? {
        // Python and numpy integers (and 0-d integer arrays, as numpy treats them).
        let i: isize = k.call_method0("__index__")?.extract().map_err(|_| {
            PyIndexError::new_err(format!("index {k} is out of range for any dimension"))
        })?;
        return Ok(TensorIndex::Int(i));
    }
    let ty = k
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    Err(raise(
        ErrorKind::InvalidArgument,
        format!(
            "unsupported index of type {ty}: use ints, slices, None, ..., or integer/boolean \
             tensors, arrays or lists"
        ),
    ))
}

/// The key as entries: a tuple is a list of entries; anything else is one.
fn entries(key: &Bound<'_, PyAny>) -> PyResult<Vec<TensorIndex>> {
    match key.cast::<PyTuple>() {
        Ok(tuple) => tuple.iter().map(|k| entry(&k)).collect(),
        Err(_) => Ok(vec![entry(key)?]),
    }
}

/// `t[key]`.
pub fn index(py: Python<'_>, t: &Tensor, key: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let idx = entries(key)?;
    run(py, t.numel(), || ops::index(t, &idx))
}

/// `t[key] = value`: writes through `t`'s memory (numpy's contract: no other thread may
/// touch those elements during the call); `value` is a number, tensor, array or list,
/// broadcast to the indexed shape and converted to `t`'s dtype.
pub fn assign(
    py: Python<'_>,
    t: &Tensor,
    key: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let idx = entries(key)?;
    let v = fn_operand(value)?;
    if let ops::Operand::Scalar(s) = &v {
        crate::int_range::check_operand(None, *s, t.dtype())?;
    }
    let v = v.to_tensor_for(t.dtype()).py()?;
    // SAFETY: the contract above, as for every in-place write from Python.
    run(py, t.numel(), || unsafe {
        ops::index_put_shared(t, &idx, &v)
    })
}
