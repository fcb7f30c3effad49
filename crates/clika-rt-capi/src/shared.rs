//! Tensors over shared memory another process (or this one) made: `crt_tensor_from_fd` (a
//! file descriptor: a `memfd`, a POSIX shared-memory object, a file) and `crt_tensor_from_shm`
//! (a POSIX shared-memory object by name, as `shm_open` names it). The whole object is mapped
//! shared, so writes through the tensor reach every process that maps it, and the mapping
//! lives until the last tensor over it is freed.
//!
//! The mapping contract: nobody truncates the object while a tensor over it lives (reading
//! past its end raises `SIGBUS`), and nobody writes the elements while an operation reads
//! them.

use std::ffi::{c_char, c_int};
use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd};

use clika_rt::{Error, Tensor};

use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi;
use crate::tensor::{create, crt_tensor};
use crate::types::{self, crt_dtype};

/// The descriptor of a tensor over `fd`: checked dims and strides, then the core's `from_fd`.
///
/// # Safety
/// `fd` is open for the duration of the call; the mapping contract; `shape`/`strides` as the
/// header's pointer contract says.
unsafe fn map_fd(
    fd: BorrowedFd<'_>,
    offset: u64,
    dtype: crt_dtype,
    shape: *const i64,
    ndim: usize,
    strides: *const i64,
    read_only: c_int,
) -> Result<Tensor, CapiError> {
    // SAFETY: forwarded pointer contract.
    let shape = unsafe { ffi::dims(shape, ndim, "shape") }?;
    let strides = if strides.is_null() {
        None
    } else {
        // SAFETY: forwarded pointer contract.
        Some(unsafe { ffi::dims(strides, ndim, "strides") }?)
    };
    let dtype = types::dtype(dtype)?;
    // SAFETY: the caller accepted the mapping contract.
    Ok(unsafe { Tensor::from_fd(fd, offset, dtype, shape, strides, read_only != 0) }?)
}

/// Maps the whole object behind `fd` (shared) and views `shape` elements of `dtype` whose
/// element `[0, ..., 0]` lies at byte `offset`; `strides` is NULL for row-major or `ndim`
/// strides in elements (may be negative). The descriptor is duplicated: the caller keeps
/// theirs and may close it at once. `read_only` non-zero maps it read-only (needed for a
/// descriptor opened `O_RDONLY`; writes through the tensor then give
/// `CRT_STATUS_READ_ONLY`). A range outside the object gives `CRT_STATUS_INVALID_SHAPE`; a
/// misaligned one, `CRT_STATUS_MISALIGNED`; a descriptor that is not open or cannot be
/// mapped, `CRT_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// The mapping contract (module docs); the header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_fd(
    fd: c_int,
    offset: u64,
    dtype: crt_dtype,
    shape: *const i64,
    ndim: usize,
    strides: *const i64,
    read_only: c_int,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            // SAFETY: F_GETFD only inspects the descriptor table; a closed fd gives -1.
            if fd < 0 || libc::fcntl(fd, libc::F_GETFD) < 0 {
                return Err(Error::InvalidArgument {
                    what: format!("crt_tensor_from_fd: {fd} is not an open file descriptor"),
                }
                .into());
            }
            // SAFETY: open (checked above) and only borrowed during this call.
            let fd = BorrowedFd::borrow_raw(fd);
            map_fd(fd, offset, dtype, shape, ndim, strides, read_only)
        })
    }
}

/// `crt_tensor_from_fd` over the POSIX shared-memory object `name` (as given to
/// `shm_open`, e.g. "/frames"), opened read-write, or read-only when `read_only` is
/// non-zero. The object may be unlinked by its producer while tensors map it: the pages
/// stay until the last mapping goes.
///
/// # Safety
/// The mapping contract (module docs); the header's pointer contract; `name` is a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_shm(
    name: *const c_char,
    offset: u64,
    dtype: crt_dtype,
    shape: *const i64,
    ndim: usize,
    strides: *const i64,
    read_only: c_int,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let name = ffi::c_str(name, "name")?;
            let flags = if read_only != 0 {
                libc::O_RDONLY
            } else {
                libc::O_RDWR
            };
            // SAFETY: `name` is NUL-terminated; shm_open reports failure with -1.
            let raw = libc::shm_open(name.as_ptr(), flags | libc::O_CLOEXEC, 0);
            if raw < 0 {
                return Err(Error::File {
                    path: name.to_string_lossy().into_owned(),
                    action: "open the shared-memory object",
                    message: std::io::Error::last_os_error().to_string(),
                }
                .into());
            }
            // SAFETY: a descriptor shm_open just opened, owned here and closed on return
            // (the mapping keeps its own duplicate).
            let owned = OwnedFd::from_raw_fd(raw);
            use std::os::fd::AsFd;
            map_fd(
                owned.as_fd(),
                offset,
                dtype,
                shape,
                ndim,
                strides,
                read_only,
            )
        })
    }
}
