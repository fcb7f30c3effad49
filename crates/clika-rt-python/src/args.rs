//! Translating Python arguments: shapes given as `*shape` or one sequence, dimension lists,
//! and equality results.

use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// `f(2, 3)` and `f((2, 3))` / `f([2, 3])` both mean the shape `[2, 3]`.
pub fn int_list(args: &Bound<'_, PyTuple>) -> PyResult<Vec<isize>> {
    if args.len() == 1 {
        let first = args.get_item(0)?;
        if first.is_instance_of::<PyTuple>() || first.is_instance_of::<PyList>() {
            return first.extract();
        }
    }
    args.extract()
}

/// A shape from `*shape` arguments; sizes must not be negative.
pub fn shape(args: &Bound<'_, PyTuple>) -> PyResult<Vec<usize>> {
    to_shape(&int_list(args)?)
}

/// A shape from an int or a sequence of ints.
pub fn shape_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    if let Ok(n) = obj.extract::<isize>() {
        return to_shape(&[n]);
    }
    to_shape(&obj.extract::<Vec<isize>>()?)
}

fn to_shape(dims: &[isize]) -> PyResult<Vec<usize>> {
    dims.iter()
        .enumerate()
        .map(|(i, &d)| {
            usize::try_from(d).map_err(|_| {
                crate::error::to_py(clika_rt::Error::NegativeDim {
                    shape: dims.iter().map(|&v| v as i64).collect(),
                    dim: i,
                })
            })
        })
        .collect()
}

/// `dim=None`, `dim=1` or `dim=(0, 2)`: `None` when all dimensions are meant.
pub fn dims(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<isize>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => match o.extract::<isize>() {
            Ok(d) => Ok(Some(vec![d])),
            Err(_) => Ok(Some(o.extract::<Vec<isize>>()?)),
        },
    }
}

/// The result of `==`/`!=` given whether the operands are the same (`None`: not comparable).
pub fn compare(py: Python<'_>, op: CompareOp, same: Option<bool>) -> Py<PyAny> {
    let answer = match (op, same) {
        (CompareOp::Eq, Some(s)) => s,
        (CompareOp::Ne, Some(s)) => !s,
        _ => return py.NotImplemented(),
    };
    pyo3::types::PyBool::new(py, answer)
        .to_owned()
        .into_any()
        .unbind()
}
