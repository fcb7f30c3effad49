//! The one error → exception table.
//!
//! Every core [`ErrorKind`] maps to one `clika_runtime` exception class. Each class derives
//! from `ClikaError` *and* from the builtin a Python user would catch (`TypeError`,
//! `ValueError`, `IndexError`, `MemoryError`, `RuntimeError`), so `except ValueError:` keeps
//! working; integer division by zero raises `DivisionByZeroError`, a `ClikaError` and a
//! `ZeroDivisionError` (Python's own exception for `1 // 0`). The classes are created once,
//! when the module is imported.

use clika_rt::{Error, ErrorKind};
use pyo3::exceptions::{
    PyException, PyIndexError, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
    PyZeroDivisionError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// The builtin each class also derives from.
#[derive(Clone, Copy)]
enum Builtin {
    Type,
    Value,
    Index,
    Memory,
    Runtime,
}

/// `(kind, class name, builtin base, docstring)`: the table.
const TABLE: [(ErrorKind, &str, Builtin, &str); 11] = [
    (
        ErrorKind::NullPointer,
        "NullPointerError",
        Builtin::Value,
        "A null data pointer where data was required.",
    ),
    (
        ErrorKind::InvalidShape,
        "ShapeError",
        Builtin::Value,
        "A shape, stride or size that is out of range, overflows or does not match.",
    ),
    (
        ErrorKind::Misaligned,
        "AlignmentError",
        Builtin::Value,
        "Memory that is not aligned for its dtype.",
    ),
    (
        ErrorKind::DType,
        "DTypeError",
        Builtin::Type,
        "A dtype that does not fit the operation.",
    ),
    (
        ErrorKind::Layout,
        "LayoutError",
        Builtin::Type,
        "A memory layout the operation cannot take as is (e.g. non-contiguous).",
    ),
    (
        ErrorKind::Index,
        "IndexOutOfRangeError",
        Builtin::Index,
        "A dimension or element index out of range.",
    ),
    (
        ErrorKind::OutOfMemory,
        "OutOfMemoryError",
        Builtin::Memory,
        "The device could not satisfy an allocation.",
    ),
    (
        ErrorKind::Device,
        "DeviceError",
        Builtin::Runtime,
        "A device that is absent, failed, or does not match.",
    ),
    (
        ErrorKind::ReadOnly,
        "ReadOnlyError",
        Builtin::Value,
        "Memory that must not be written.",
    ),
    (
        ErrorKind::InvalidArgument,
        "InvalidArgumentError",
        Builtin::Value,
        "An invalid argument.",
    ),
    (
        ErrorKind::Internal,
        "InternalError",
        Builtin::Runtime,
        "A bug in the runtime (please report it).",
    ),
];

/// The class integer division by zero raises (`ClikaError` and `ZeroDivisionError`).
const DIVISION_BY_ZERO: (&str, &str) = (
    "DivisionByZeroError",
    "Integer division or remainder by zero (floats give inf/nan instead, as in numpy).",
);

/// `ClikaError`, one class per table row in table order, then `DivisionByZeroError`.
static CLASSES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

fn builtin(py: Python<'_>, b: Builtin) -> Bound<'_, PyType> {
    match b {
        Builtin::Type => py.get_type::<PyTypeError>(),
        Builtin::Value => py.get_type::<PyValueError>(),
        Builtin::Index => py.get_type::<PyIndexError>(),
        Builtin::Memory => py.get_type::<PyMemoryError>(),
        Builtin::Runtime => py.get_type::<PyRuntimeError>(),
    }
}

/// `type(name, bases, {"__module__": "clika_runtime", "__doc__": doc})`.
fn new_class<'py>(
    py: Python<'py>,
    name: &str,
    bases: Bound<'py, PyTuple>,
    doc: &str,
) -> PyResult<Py<PyType>> {
    let ns = PyDict::new(py);
    ns.set_item("__module__", "clika_runtime")?;
    ns.set_item("__doc__", doc)?;
    let class = py.get_type::<PyType>().call1((name, bases, ns))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

fn build(py: Python<'_>) -> PyResult<Vec<Py<PyType>>> {
    let root = new_class(
        py,
        "ClikaError",
        PyTuple::new(py, [py.get_type::<PyException>()])?,
        "Base class of every error the runtime raises.",
    )?;
    let mut classes = vec![root.clone_ref(py)];
    for (_, name, base, doc) in TABLE {
        let bases = PyTuple::new(py, [root.bind(py).clone(), builtin(py, base)])?;
        classes.push(new_class(py, name, bases, doc)?);
    }
    let (name, doc) = DIVISION_BY_ZERO;
    let zero = py.get_type::<PyZeroDivisionError>();
    let bases = PyTuple::new(py, [root.bind(py).clone(), zero])?;
    classes.push(new_class(py, name, bases, doc)?);
    Ok(classes)
}

fn classes(py: Python<'_>) -> &Vec<Py<PyType>> {
    CLASSES
        .get_or_try_init(py, || build(py))
        .expect("creating the exception classes cannot fail on a working interpreter")
}

/// Adds `ClikaError` and every subclass to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let all = CLASSES.get_or_try_init(py, || build(py))?;
    m.add("ClikaError", all[0].bind(py))?;
    for (i, (_, name, _, _)) in TABLE.iter().enumerate() {
        m.add(*name, all[i + 1].bind(py))?;
    }
    m.add(DIVISION_BY_ZERO.0, all[TABLE.len() + 1].bind(py))?;
    Ok(())
}

/// The exception class for `kind`.
fn class_for(py: Python<'_>, kind: ErrorKind) -> Bound<'_, PyType> {
    let all = classes(py);
    let row = TABLE.iter().position(|(k, ..)| *k == kind);
    // A kind added to the core after this table was written maps to InternalError's row.
    let i = row.unwrap_or(TABLE.len() - 1) + 1;
    all[i].bind(py).clone()
}

/// An exception of the class for `kind` with `message` (also for refusals the binding
/// itself makes, e.g. `from_numpy` on a non-contiguous array).
pub fn raise(kind: ErrorKind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| PyErr::from_type(class_for(py, kind), message))
}

/// Converts a core error to its exception.
pub fn to_py(err: Error) -> PyErr {
    if let Error::IntegerDivisionByZero { .. } = err {
        // A ZeroDivisionError (Python's own exception for `1 // 0`, as PyTorch raises for
        // integer tensors) that is also a ClikaError.
        return Python::attach(|py| {
            let all = classes(py);
            PyErr::from_type(all[TABLE.len() + 1].bind(py).clone(), err.to_string())
        });
    }
    raise(err.kind(), pythonize(err.to_string()))
}

/// The core's messages name Rust fixes (`contiguous_copy()`, `from_data`); Python users get
/// the Python spelling of the same fix.
fn pythonize(message: String) -> String {
    const FIXES: [(&str, &str); 3] = [
        (
            "make a writable copy with contiguous_copy() or from_data()",
            "make a writable copy with crt.tensor(t) (or t.numpy().copy())",
        ),
        (
            "use from_data, which copies",
            "use crt.tensor(a), which copies",
        ),
        (
            "write into contiguous_copy()",
            "write into a copy, crt.tensor(t)",
        ),
    ];
    FIXES
        .iter()
        .fold(message, |m, (rust, python)| m.replace(rust, python))
}

/// `result.map_err(to_py)` as a method.
pub trait IntoPyResult<T> {
    /// Maps the core error to its Python exception.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for clika_rt::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

/// The kind a Python exception maps back to: its `ClikaError` subclass's kind, otherwise
/// `Internal` (so it surfaces as a `RuntimeError` subclass).
pub fn kind_of(py: Python<'_>, err: &PyErr) -> ErrorKind {
    let all = classes(py);
    TABLE
        .iter()
        .enumerate()
        .find(|(i, _)| err.is_instance(py, all[i + 1].bind(py)))
        .map_or(ErrorKind::Internal, |(_, (kind, ..))| *kind)
}
