//! The `clika_runtime._native` extension module: a translation layer over the `clika_rt`
//! core. One file per Python class (`tensor`, `dtype`, `device`, `memory_stats`), one
//! error table (`error`), and the numpy / DLPack bridges.
//!
//! The layer only translates: argument parsing, the core call (with the GIL released
//! around compute), result conversion, and error mapping.
//!
//! The doc comments of the `#[pyfunction]`/`#[pyclass]`/`#[pymethods]` items are the Python
//! docstrings (numpy-doc, with `>>>` doctest examples; long ones in `pydoc/*.md`), not
//! Markdown for rustdoc: an example's output line after a `>>>` line is not a lazy quote.
#![allow(clippy::doc_lazy_continuation)]

mod algorithm_methods;
mod algorithms;
mod args;
mod buffer;
mod buffer_export;
mod creation;
mod cuda_interface;
mod custom_ops;
mod device;
mod dlpack;
mod dtype;
mod error;
mod files;
mod functions;
mod gather;
mod indexing;
mod int_range;
mod memory_stats;
mod native_registry;
mod norm;
mod numpy_export;
mod numpy_import;
mod op_functions;
mod op_functions_more;
mod ops;
mod pickle;
mod pinned;
mod printing;
mod random;
mod shared;
mod tensor;
mod tensor_elementwise;
mod tensor_ops;
mod tensor_ops_more;
mod tensor_views;
mod vision;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    error::register(m)?;
    dtype::register(m)?;
    // The package version is the workspace version in Cargo.toml (maturin takes the wheel's
    // version from the same place).
    m.add("__version__", clika_rt::VERSION)?;
    m.add_class::<tensor::PyTensor>()?;
    m.add_class::<device::PyDevice>()?;
    m.add_class::<memory_stats::PyMemoryStats>()?;
    use functions as f;
    m.add_function(wrap_pyfunction!(f::zeros, m)?)?;
    m.add_function(wrap_pyfunction!(f::ones, m)?)?;
    m.add_function(wrap_pyfunction!(f::empty, m)?)?;
    m.add_function(wrap_pyfunction!(f::full, m)?)?;
    m.add_function(wrap_pyfunction!(f::arange, m)?)?;
    m.add_function(wrap_pyfunction!(f::tensor, m)?)?;
    m.add_function(wrap_pyfunction!(f::from_numpy, m)?)?;
    m.add_function(wrap_pyfunction!(f::from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(f::memory_stats, m)?)?;
    m.add_function(wrap_pyfunction!(f::release_cached_memory, m)?)?;
    m.add_function(wrap_pyfunction!(pinned::pinned_memory_stats, m)?)?;
    m.add_function(wrap_pyfunction!(pinned::release_cached_pinned_memory, m)?)?;
    m.add_function(wrap_pyfunction!(f::set_memory_limit, m)?)?;
    m.add_function(wrap_pyfunction!(f::reset_peak_stats, m)?)?;
    m.add_function(wrap_pyfunction!(f::_dlpack_live_exports, m)?)?;
    op_functions::register(m)?;
    vision::register(m)?;
    norm::register(m)?;
    algorithms::register(m)?;
    gather::register(m)?;
    creation::register(m)?;
    random::register(m)?;
    printing::register(m)?;
    custom_ops::register(m)?;
    m.add_function(wrap_pyfunction!(files::load_safetensors, m)?)?;
    m.add_function(wrap_pyfunction!(files::from_file, m)?)?;
    m.add_function(wrap_pyfunction!(buffer::from_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::rebuild_tensor, m)?)?;
    m.add_function(wrap_pyfunction!(shared::from_fd, m)?)?;
    Ok(())
}
