//! Custom operators from Python: `clika_runtime.ops.register(name, rule, kernel)` and
//! `clika_runtime.ops.call(name, *tensors)` (the Python-facing wrappers are in
//! `python/clika_runtime/ops.py`).
//!
//! A Python rule receives `[(shape, dtype), ...]` and returns `(shape, dtype)`; a Python
//! kernel receives read-only numpy views of the inputs and returns a numpy array (or a
//! tensor), which becomes the output without a copy when the runtime can view it (the
//! tensor keeps the array alive and releases it exactly once). Either may run on any thread
//! that calls the operator (a Rust or C++ thread too): they take the GIL themselves, and a
//! Python exception becomes the call's error (a `ClikaError` keeps its kind; any other is an
//! `InternalError`, a `RuntimeError`), never a crash.

use clika_rt::ops::{self, Output, TensorSpec};
use clika_rt::{Error, ErrorKind, Tensor};
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::cell::RefCell;

use crate::dtype::{self as dt, PyDType};
use crate::error::{kind_of, IntoPyResult};
use crate::numpy_import::adopt_result;
use crate::ops::tensor_arg;
use crate::tensor::PyTensor;
use crate::{args, native_registry, numpy_export};

thread_local! {
    /// A `BaseException` that is not an `Exception` (KeyboardInterrupt, SystemExit) raised
    /// by a rule or kernel on this thread, for `_op_call` to re-raise unchanged.
    static INTERRUPT: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

fn take_interrupt() -> Option<PyErr> {
    INTERRUPT.try_with(|p| p.borrow_mut().take()).ok().flatten()
}

/// A Python rule and kernel, called with the GIL taken on whichever thread runs the call.
struct PyOperator {
    name: String,
    rule: Py<PyAny>,
    kernel: Py<PyAny>,
}

impl PyOperator {
    /// Runs `f` with the interpreter attached; a Python exception becomes the call's error.
    fn attached<T>(&self, f: impl FnOnce(Python<'_>) -> PyResult<T>) -> clika_rt::Result<T> {
        let result = Python::try_attach(|py| f(py).map_err(|e| self.error(py, &e)));
        result.unwrap_or_else(|| {
            Err(Error::Operator {
                op: self.name.clone(),
                kind: ErrorKind::Internal,
                message: "the Python interpreter is not available (shutting down?)".into(),
            })
        })
    }

    fn error(&self, py: Python<'_>, e: &PyErr) -> Error {
        // KeyboardInterrupt, SystemExit and the like are not failures of the operator: the
        // Python caller re-raises them as they are (`_op_call`), so Ctrl-C works.
        if !e.is_instance_of::<PyException>(py) {
            let _ = INTERRUPT.try_with(|p| *p.borrow_mut() = Some(e.clone_ref(py)));
        }
        let ty = e.get_type(py);
        let ty = ty
            .name()
            .map_or_else(|_| "Exception".into(), |n| n.to_string());
        Error::Operator {
            op: self.name.clone(),
            kind: kind_of(py, e),
            message: format!("{ty}: {}", e.value(py)),
        }
    }

    fn rule(&self, inputs: &[TensorSpec]) -> clika_rt::Result<TensorSpec> {
        self.attached(|py| {
            let specs = inputs
                .iter()
                .map(|s| (PyTuple::new(py, &s.shape)?, PyDType(s.dtype)).into_pyobject(py))
                .collect::<PyResult<Vec<_>>>()?;
            let out = self.rule.bind(py).call1((PyList::new(py, specs)?,))?;
            let (shape, dtype): (Bound<'_, PyAny>, Bound<'_, PyAny>) = out.extract()?;
            Ok(TensorSpec {
                shape: args::shape_of(&shape)?,
                dtype: dt::resolve(&dtype)?,
            })
        })
    }

    fn kernel(&self, inputs: &[Tensor], out: &mut Output) -> clika_rt::Result<()> {
        let result = self.attached(|py| {
            let views = inputs
                .iter()
                .map(|t| numpy_export::view(&Bound::new(py, PyTensor { inner: t.clone() })?))
                .collect::<PyResult<Vec<_>>>()?;
            let returned = self.kernel.bind(py).call1(PyTuple::new(py, views)?)?;
            adopt_result(&returned)
        })?;
        out.set(result);
        Ok(())
    }
}

/// `_native._op_register(name, rule, kernel)`.
#[pyfunction]
pub fn _op_register(
    py: Python<'_>,
    name: &str,
    rule: Py<PyAny>,
    kernel: Py<PyAny>,
) -> PyResult<()> {
    for (what, f) in [("rule", &rule), ("kernel", &kernel)] {
        if !f.bind(py).is_callable() {
            let ty = f
                .bind(py)
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string());
            return Err(PyTypeError::new_err(format!(
                "ops.register({name:?}, ...): the {what} must be callable, got {ty}; pass a \
                 function (rule(specs) -> (shape, dtype), kernel(*arrays) -> array)"
            )));
        }
    }
    let op = std::sync::Arc::new(PyOperator {
        name: name.to_string(),
        rule,
        kernel,
    });
    let for_kernel = std::sync::Arc::clone(&op);
    ops::register(
        name,
        move |specs| op.rule(specs),
        move |inputs, out| for_kernel.kernel(inputs, out),
    )
    .py()?;
    // One registry per process: also callable from C++ when libclika_rt is loaded.
    native_registry::after_register(name).py()
}

/// `_native._op_call(name, *tensors)`: runs with the GIL released (a Python kernel takes it
/// back).
#[pyfunction]
#[pyo3(signature = (name, *tensors))]
pub fn _op_call(py: Python<'_>, name: &str, tensors: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
    let inputs = tensors
        .iter()
        .map(|t| tensor_arg(&t))
        .collect::<PyResult<Vec<Tensor>>>()?;
    let refs: Vec<&Tensor> = inputs.iter().collect();
    take_interrupt();
    let result = py.detach(|| match ops::call(name, &refs) {
        // Not registered here: an operator of libclika_rt (from C or C++), if loaded.
        Err(Error::UnknownOperator {
            name: n,
            registered,
        }) => native_registry::call(name, &refs).unwrap_or_else(|| {
            let mut all = registered;
            all.extend(native_registry::registered());
            all.sort();
            all.dedup();
            Err(Error::UnknownOperator {
                name: n,
                registered: all,
            })
        }),
        other => other,
    });
    if let Some(interrupt) = take_interrupt() {
        return Err(interrupt);
    }
    Ok(PyTensor {
        inner: result.py()?,
    })
}

/// `_native._op_unregister(name)`: whether it was registered.
#[pyfunction]
pub fn _op_unregister(py: Python<'_>, name: &str) -> bool {
    // The operator's Python callables are released with the GIL (pyo3 defers otherwise).
    py.detach(|| {
        let here = ops::unregister(name);
        native_registry::unregister(name) || here
    })
}

/// `_native._op_registered()`: the registered names, sorted (with libclika_rt's, if loaded).
#[pyfunction]
pub fn _op_registered(py: Python<'_>) -> Vec<String> {
    py.detach(|| {
        let mut all = ops::registered();
        all.extend(native_registry::registered());
        all.sort();
        all.dedup();
        all
    })
}

/// `_native._op_link_native(path)`: shares this process's operators with libclika_rt
/// (already loaded, or loaded from `path`); the names newly registered there.
#[pyfunction]
#[pyo3(signature = (path=None))]
pub fn _op_link_native(py: Python<'_>, path: Option<String>) -> PyResult<Vec<String>> {
    py.detach(|| native_registry::link(path.as_deref())).py()
}

/// Test hook: registers the core's Rust operators `rust.iota` (adopted output with a
/// counting deleter) and `rust.double` (pooled output) in this module's copy of the core.
#[pyfunction]
pub fn _testing_register_rust_ops() -> PyResult<()> {
    ops::test_ops::register_test_ops().py()
}

/// Test hook: how many `rust.iota` outputs have been released.
#[pyfunction]
pub fn _testing_rust_iota_released() -> u64 {
    ops::test_ops::IOTA_RELEASED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Test hook: calls `name` from a new Rust thread (`ops::call` in Rust, no GIL held), as a
/// Rust or C++ host would.
#[pyfunction]
#[pyo3(signature = (name, *tensors))]
pub fn _testing_call_on_rust_thread(
    py: Python<'_>,
    name: String,
    tensors: &Bound<'_, PyTuple>,
) -> PyResult<PyTensor> {
    let inputs = tensors
        .iter()
        .map(|t| tensor_arg(&t))
        .collect::<PyResult<Vec<Tensor>>>()?;
    let joined = py.detach(move || {
        std::thread::spawn(move || {
            let refs: Vec<&Tensor> = inputs.iter().collect();
            ops::call(&name, &refs)
        })
        .join()
    });
    let inner = joined
        .map_err(|_| crate::error::raise(ErrorKind::Internal, "the Rust thread panicked"))?
        .py()?;
    Ok(PyTensor { inner })
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_op_register, m)?)?;
    m.add_function(wrap_pyfunction!(_op_call, m)?)?;
    m.add_function(wrap_pyfunction!(_op_unregister, m)?)?;
    m.add_function(wrap_pyfunction!(_op_registered, m)?)?;
    m.add_function(wrap_pyfunction!(_op_link_native, m)?)?;
    m.add_function(wrap_pyfunction!(_testing_register_rust_ops, m)?)?;
    m.add_function(wrap_pyfunction!(_testing_rust_iota_released, m)?)?;
    m.add_function(wrap_pyfunction!(_testing_call_on_rust_thread, m)?)?;
    Ok(())
}
