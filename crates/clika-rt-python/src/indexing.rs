//! Basic indexing (`t[1:3, ::2]`, ints, `None`, `...`): every result is a view.

use clika_rt::{ErrorKind, Tensor};
use pyo3::prelude::*;
use pyo3::types::{PyEllipsis, PyInt, PySlice, PyTuple};

use crate::error::{raise, IntoPyResult};

/// Applies `key` (one index or a tuple of them) to `t`.
pub fn index(t: &Tensor, key: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let items: Vec<Bound<'_, PyAny>> = match key.cast::<PyTuple>() {
        Ok(tuple) => tuple.iter().collect(),
        Err(_) => vec![key.clone()],
    };
    let ellipses = items
        .iter()
        .filter(|k| k.is_instance_of::<PyEllipsis>())
        .count();
    if ellipses > 1 {
        return Err(raise(
            ErrorKind::Index,
            "an index can only have a single ellipsis ('...')",
        ));
    }
    // Entries that consume a dimension: ints and slices.
    let consuming = items
        .iter()
        .filter(|k| !k.is_none() && !k.is_instance_of::<PyEllipsis>())
        .count();
    if consuming > t.ndim() {
        return Err(raise(
            ErrorKind::Index,
            format!(
                "too many indices for a tensor with {} dimensions: {consuming} were given",
                t.ndim()
            ),
        ));
    }
    let mut out = t.clone();
    let mut dim: isize = 0;
    for k in &items {
        if k.is_none() {
            out = out.unsqueeze(dim).py()?;
            dim += 1;
        } else if k.is_instance_of::<PyEllipsis>() {
            dim += (t.ndim() - consuming) as isize;
        } else if let Ok(s) = k.cast::<PySlice>() {
            let start: Option<isize> = s.getattr("start")?.extract()?;
            let stop: Option<isize> = s.getattr("stop")?.extract()?;
            let step: Option<isize> = s.getattr("step")?.extract()?;
            out = out.slice(dim, start, stop, step.unwrap_or(1)).py()?;
            dim += 1;
        } else if let Ok(i) = k.extract::<isize>() {
            out = out.select(dim, i).py()?;
        } else if k.is_instance_of::<PyInt>() {
            // An int too large for any index (`t[2**70]`): out of range, as numpy says.
            let size = out.shape().get(dim as usize).copied().unwrap_or(0);
            return Err(raise(
                ErrorKind::Index,
                format!("index {k} is out of range for dimension {dim} with size {size}"),
            ));
        } else {
            let ty = k
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string());
            return Err(raise(
                ErrorKind::InvalidArgument,
                format!("unsupported index of type {ty}: only ints, slices, None and ... are supported (each gives a view)"),
            ));
        }
    }
    Ok(out)
}
