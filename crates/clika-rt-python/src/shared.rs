//! Shared-memory tensors for `multiprocessing`: `t.share_memory_()`, `t.is_shared()`,
//! `crt.from_fd`, and the segment description the package's `multiprocessing` reducer
//! (`clika_runtime/_processes.py`) sends instead of the bytes.

use std::os::fd::BorrowedFd;

use pyo3::prelude::*;

use crate::error::IntoPyResult;
use crate::ops::run;
use crate::tensor::PyTensor;

#[pymethods]
impl PyTensor {
    #[doc = include_str!("../pydoc/Tensor.share_memory_.md")]
    fn share_memory_(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let t = &self.inner;
        Ok(PyTensor {
            inner: run(py, t.numel(), || t.share_memory())?,
        })
    }

    #[doc = include_str!("../pydoc/Tensor.is_shared.md")]
    fn is_shared(&self) -> bool {
        self.inner.is_shared()
    }

    /// `(fd, segment_len, byte_offset, read_only)` of a shared tensor's segment, else `None`;
    /// the descriptor stays owned by the tensor.
    fn _shared_region(&self) -> Option<(i32, usize, usize, bool)> {
        self.inner
            .shared_region()
            .map(|r| (r.fd, r.segment_len, r.offset, r.read_only))
    }
}

#[doc = include_str!("../pydoc/from_fd.md")]
#[pyfunction]
#[pyo3(signature = (fd, dtype, shape, offset=0, *, strides=None, read_only=false))]
pub fn from_fd(
    py: Python<'_>,
    fd: i32,
    dtype: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    offset: u64,
    strides: Option<Vec<i64>>,
    read_only: bool,
) -> PyResult<PyTensor> {
    let dtype = crate::dtype::resolve(dtype)?;
    let shape: Vec<i64> = crate::args::shape_of(shape)?
        .iter()
        .map(|&d| d as i64)
        .collect();
    // SAFETY: F_GETFD only inspects the descriptor table; a closed fd gives -1.
    if fd < 0 || unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
        return Err(crate::error::raise(
            clika_rt::ErrorKind::InvalidArgument,
            format!(
                "from_fd: {fd} is not an open file descriptor; pass one from os.open, \
                 os.memfd_create or SharedMemory._fd"
            ),
        ));
    }
    // SAFETY: `fd` is open (checked above) and only borrowed for the duration of the call
    // (it is duplicated inside).
    let fd = unsafe { BorrowedFd::borrow_raw(fd) };
    let map = || {
        // SAFETY: the mapping contract (no truncation while mapped) is the caller's, as for
        // `crt.from_file`, and documented above.
        unsafe {
            clika_rt::Tensor::from_fd(fd, offset, dtype, &shape, strides.as_deref(), read_only)
        }
    };
    let inner = py.detach(map).py()?;
    Ok(PyTensor { inner })
}
