//! Every raw-pointer cast of the C ABI lives here, each with the header contract that makes
//! it sound. The exports only call these helpers.
//!
//! The header's contract for every pointer argument, relied on below:
//! - **P1** a handle (`crt_tensor *`, `crt_error *`) is NULL or a live handle returned by this
//!   library and not yet freed; a handle being freed is not used by another thread;
//! - **P2** an out-pointer is NULL or valid and aligned for writing one value of its type;
//! - **P3** an input array `(ptr, len)` is NULL only when `len` is 0, and otherwise valid for
//!   reading `len` elements, which nobody writes during the call.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::NonNull;

use clika_rt::{DType, Error, MAX_DIMS};

use crate::error::CapiError;

/// `p` as a reference, or `None` when NULL.
///
/// # Safety
/// `p` is NULL or a live handle (P1) that outlives `'a`.
pub unsafe fn opt_ref<'a, T>(p: *const T) -> Option<&'a T> {
    // SAFETY: by P1 a non-NULL `p` points at a live, initialised `T` from `Box::into_raw`.
    unsafe { p.as_ref() }
}

/// `p` as a reference; NULL is an error naming the argument.
///
/// # Safety
/// As for [`opt_ref`].
pub unsafe fn arg<'a, T>(p: *const T, name: &'static str) -> Result<&'a T, CapiError> {
    // SAFETY: the caller's obligations are `opt_ref`'s.
    unsafe { opt_ref(p) }.ok_or(CapiError::NullArgument(name))
}

/// Takes back ownership of a handle made by [`into_handle`]; `None` when NULL.
///
/// # Safety
/// `p` is NULL or a live handle (P1) that nobody uses afterwards.
pub unsafe fn take_box<T>(p: *mut T) -> Option<Box<T>> {
    // SAFETY: by P1 a non-NULL `p` came from `Box::into_raw` and is not freed twice.
    (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
}

/// Hands ownership of `value` to C as a handle.
pub fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// An out-pointer checked to be non-NULL before any work is done.
#[derive(Debug)]
pub struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    /// Checks `p`; NULL is an error naming the argument.
    ///
    /// # Safety
    /// `p` satisfies P2 until the returned value is written or dropped.
    pub unsafe fn new(p: *mut T, name: &'static str) -> Result<Out<T>, CapiError> {
        NonNull::new(p)
            .map(Out)
            .ok_or(CapiError::NullArgument(name))
    }

    /// The checked pointer.
    pub fn as_ptr(&self) -> *mut T {
        self.0.as_ptr()
    }

    /// Writes the result.
    pub fn write(self, value: T) {
        // SAFETY: non-NULL (checked in `new`) and valid for one write by `new`'s contract P2.
        unsafe { self.0.as_ptr().write(value) }
    }
}

impl<T> Out<*mut T> {
    /// Checks a handle out-pointer and sets `*p = NULL`, so a failure leaves NULL behind.
    ///
    /// # Safety
    /// As for [`Out::new`].
    pub unsafe fn handle(p: *mut *mut T, name: &'static str) -> Result<Out<*mut T>, CapiError> {
        // SAFETY: the caller's obligations are `Out::new`'s.
        let out = unsafe { Out::new(p, name) }?;
        // SAFETY: as in `write`; the slot stays valid for the later write.
        unsafe { out.0.as_ptr().write(std::ptr::null_mut()) };
        Ok(out)
    }
}

/// A dimension list `(p, len)` (a shape, strides, dims): at most `MAX_DIMS` entries.
///
/// # Safety
/// P3 for `p` and `len`, for the lifetime `'a`.
pub unsafe fn dims<'a>(
    p: *const i64,
    len: usize,
    name: &'static str,
) -> Result<&'a [i64], CapiError> {
    if len == 0 {
        return Ok(&[]);
    }
    if len > MAX_DIMS {
        return Err(Error::TooManyDims {
            ndim: len,
            max: MAX_DIMS,
        }
        .into());
    }
    if p.is_null() {
        return Err(CapiError::NullArgument(name));
    }
    if !p.is_aligned() {
        let align = std::mem::align_of::<i64>();
        return Err(Error::Misaligned {
            ptr: p as usize,
            dtype: DType::Int64,
            align,
        }
        .into());
    }
    // SAFETY: non-NULL and aligned (checked); by P3 valid for `len` reads, unwritten meanwhile.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// A byte buffer `(p, nbytes)`.
///
/// # Safety
/// P3 for `p` and `nbytes`, for the lifetime `'a`.
pub unsafe fn bytes<'a>(
    p: *const c_void,
    nbytes: usize,
    name: &'static str,
) -> Result<&'a [u8], CapiError> {
    if nbytes == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(CapiError::NullArgument(name));
    }
    if nbytes > isize::MAX as usize {
        return Err(Error::OutOfRange {
            what: name,
            value: nbytes.to_string(),
        }
        .into());
    }
    // SAFETY: non-NULL, `u8` needs no alignment, the length fits `isize` (checked); by P3 the
    // bytes are readable and unwritten during the call.
    Ok(unsafe { std::slice::from_raw_parts(p.cast::<u8>(), nbytes) })
}

/// A copy of one value the caller points at, or `None` when NULL.
///
/// # Safety
/// `p` is NULL or valid and aligned for reading one `T`.
pub unsafe fn opt_read<T: Copy>(p: *const T) -> Option<T> {
    // SAFETY: the caller guarantees a non-NULL `p` is readable and aligned.
    (!p.is_null()).then(|| unsafe { p.read() })
}

/// Writes one element of `T` to a caller buffer that need not be aligned.
///
/// # Safety
/// `p` is non-NULL and valid for writing `size_of::<T>()` bytes.
pub unsafe fn write_unaligned<T>(p: *mut c_void, value: T) {
    // SAFETY: the caller guarantees `p` is valid for the write; no alignment is assumed.
    unsafe { p.cast::<T>().write_unaligned(value) }
}

/// Copies `len` bytes from `src` to a caller buffer of `dst_nbytes` bytes.
///
/// # Safety
/// `src` is valid for reading `len` bytes; `dst` is non-NULL and valid for writing
/// `dst_nbytes` bytes that do not overlap `src`.
pub unsafe fn copy_to(
    dst: *mut c_void,
    dst_nbytes: usize,
    src: *const u8,
    len: usize,
) -> Result<(), CapiError> {
    if len > dst_nbytes {
        let value = format!("{dst_nbytes} bytes, but the tensor holds {len}");
        return Err(Error::OutOfRange {
            what: "destination buffer size",
            value,
        }
        .into());
    }
    // SAFETY: `len <= dst_nbytes` (checked); the caller guarantees `src` is readable for
    // `len` bytes and `dst` writable for `dst_nbytes` bytes, without overlap.
    unsafe { std::ptr::copy_nonoverlapping(src, dst.cast::<u8>(), len) };
    Ok(())
}

/// An array of `len` handles `(p, len)`, each non-NULL.
///
/// # Safety
/// P3 for `p` and `len`, and P1 for every handle in the array, for the lifetime `'a`.
pub unsafe fn handles<'a, T>(
    p: *const *const T,
    len: usize,
    name: &'static str,
) -> Result<Vec<&'a T>, CapiError> {
    if len == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(CapiError::NullArgument(name));
    }
    if !p.is_aligned() || len > isize::MAX as usize / std::mem::size_of::<*const T>() {
        return Err(Error::OutOfRange {
            what: name,
            value: format!("{len} handles at {:#x}", p as usize),
        }
        .into());
    }
    // SAFETY: non-NULL, aligned, and the byte length fits `isize` (checked); by P3 valid for
    // `len` reads, unwritten during the call.
    let list = unsafe { std::slice::from_raw_parts(p, len) };
    // SAFETY: P1 for every handle in the array.
    list.iter().map(|&h| unsafe { arg(h, name) }).collect()
}

/// A NUL-terminated string argument (a path, a name), borrowed for the call.
///
/// # Safety
/// `p` is NULL or points at a NUL-terminated string that nobody writes during `'a`.
pub unsafe fn c_str<'a>(p: *const c_char, name: &'static str) -> Result<&'a CStr, CapiError> {
    if p.is_null() {
        return Err(CapiError::NullArgument(name));
    }
    // SAFETY: non-NULL (checked); the caller guarantees NUL termination and no writes.
    Ok(unsafe { CStr::from_ptr(p) })
}

/// A NUL-terminated UTF-8 string argument (a name).
///
/// # Safety
/// As for [`c_str`].
pub unsafe fn utf8<'a>(p: *const c_char, name: &'static str) -> Result<&'a str, CapiError> {
    // SAFETY: the caller's obligations are `c_str`'s.
    let s = unsafe { c_str(p, name) }?;
    s.to_str().map_err(|_| {
        Error::OutOfRange {
            what: name,
            value: format!("{s:?} (not UTF-8)"),
        }
        .into()
    })
}
