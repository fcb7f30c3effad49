//! How tensors print in Python: `str(t)` (and `print(t)`) keeps the specification's one-line
//! form; `repr(t)` is the nested, summarised form (`{:#}` in Rust) under process-wide print
//! options like numpy's `set_printoptions`; notebooks get `_repr_pretty_` / `_repr_html_`.

use std::sync::Mutex;

use clika_rt::PrintOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::tensor::PyTensor;

static OPTIONS: Mutex<PrintOptions> = Mutex::new(PrintOptions {
    precision: 4,
    threshold: 1000,
    edgeitems: 3,
});

fn options() -> PrintOptions {
    *OPTIONS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The nested form under the current print options.
pub fn repr(t: &clika_rt::Tensor) -> String {
    t.to_pretty_string(&options())
}

#[doc = include_str!("../pydoc/set_printoptions.md")]
#[pyfunction]
#[pyo3(signature = (precision=None, threshold=None, edgeitems=None))]
fn set_printoptions(
    precision: Option<usize>,
    threshold: Option<usize>,
    edgeitems: Option<usize>,
) -> PyResult<()> {
    if precision.is_some_and(|p| p > 30) {
        return Err(PyValueError::new_err(
            "set_printoptions: precision must be at most 30 digits",
        ));
    }
    let mut o = OPTIONS.lock().unwrap_or_else(|e| e.into_inner());
    o.precision = precision.unwrap_or(o.precision);
    o.threshold = threshold.unwrap_or(o.threshold);
    o.edgeitems = edgeitems.unwrap_or(o.edgeitems);
    Ok(())
}

#[doc = include_str!("../pydoc/get_printoptions.md")]
#[pyfunction]
fn get_printoptions(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let o = options();
    let d = PyDict::new(py);
    d.set_item("precision", o.precision)?;
    d.set_item("threshold", o.threshold)?;
    d.set_item("edgeitems", o.edgeitems)?;
    Ok(d)
}

/// Escapes text for HTML.
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[pymethods]
impl PyTensor {
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    /// IPython's pretty printer hook: the nested form.
    fn _repr_pretty_(&self, p: &Bound<'_, PyAny>, cycle: bool) -> PyResult<()> {
        let text = if cycle {
            "Tensor(...)".to_string()
        } else {
            repr(&self.inner)
        };
        p.call_method1("text", (text,))?;
        Ok(())
    }

    /// Jupyter's rich display: the nested form in a `<pre>` block.
    fn _repr_html_(&self) -> String {
        format!("<pre>{}</pre>", escape_html(&repr(&self.inner)))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(set_printoptions, m)?)?;
    m.add_function(wrap_pyfunction!(get_printoptions, m)?)?;
    Ok(())
}
