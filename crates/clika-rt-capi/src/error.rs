//! Status codes and the error object handed to C.

use std::ffi::{c_char, CString};

use clika_rt::Error;

pub use crate::abi::{
    crt_status, CRT_STATUS_DEVICE, CRT_STATUS_DTYPE, CRT_STATUS_INDEX, CRT_STATUS_INTERNAL,
    CRT_STATUS_INVALID_ARGUMENT, CRT_STATUS_INVALID_SHAPE, CRT_STATUS_LAYOUT,
    CRT_STATUS_MISALIGNED, CRT_STATUS_NULL_POINTER, CRT_STATUS_OK, CRT_STATUS_OUT_OF_MEMORY,
    CRT_STATUS_READ_ONLY,
};

/// An error: a status and a message that names the fix. Created by the runtime, owned by the
/// caller, freed with `crt_error_free`.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
#[derive(Debug)]
pub struct crt_error {
    status: crt_status,
    message: CString,
}

impl crt_error {
    /// An error object with a status and message chosen by the caller (a C callback).
    pub(crate) fn new(status: crt_status, message: &str) -> crt_error {
        crt_error {
            status,
            message: CString::new(message.replace('\0', "\u{FFFD}")).unwrap_or_default(),
        }
    }

    /// The message, as text.
    pub(crate) fn text(&self) -> String {
        self.message.to_string_lossy().into_owned()
    }
}

/// Everything that can go wrong at the C boundary.
#[derive(Debug)]
pub enum CapiError {
    /// An error of the core runtime.
    Core(Error),
    /// A NULL pointer passed for the named argument.
    NullArgument(&'static str),
    /// A Rust panic caught at the boundary, with its message.
    Panic(String),
}

impl From<Error> for CapiError {
    fn from(e: Error) -> Self {
        CapiError::Core(e)
    }
}

impl CapiError {
    /// The stable status number.
    pub fn status(&self) -> crt_status {
        match self {
            CapiError::Core(e) => e.kind() as crt_status,
            CapiError::NullArgument(_) => CRT_STATUS_NULL_POINTER,
            CapiError::Panic(_) => CRT_STATUS_INTERNAL,
        }
    }

    /// The message handed to C.
    pub fn message(&self) -> String {
        match self {
            CapiError::Core(e) => e.to_string(),
            CapiError::NullArgument(name) => {
                format!("argument `{name}` is NULL; pass a valid pointer")
            }
            CapiError::Panic(m) => {
                format!("internal error: a Rust panic was caught at the C boundary: {m}")
            }
        }
    }

    /// The error object handed to C.
    pub fn into_object(self) -> crt_error {
        // Interior NULs cannot appear in a C string; the message stays readable without them.
        let text = self.message().replace('\0', "\u{FFFD}");
        crt_error {
            status: self.status(),
            message: CString::new(text).unwrap_or_default(),
        }
    }
}

/// The status of `err`; `CRT_STATUS_NULL_POINTER` when `err` is NULL.
///
/// # Safety
/// `err` is NULL or a live error returned by this library.
#[no_mangle]
pub unsafe extern "C" fn crt_error_status(err: *const crt_error) -> crt_status {
    // SAFETY: the caller passes NULL or a live error.
    match unsafe { crate::ffi::opt_ref(err) } {
        Some(e) => e.status,
        None => CRT_STATUS_NULL_POINTER,
    }
}

/// The message of `err`, NUL-terminated. The string is owned by `err` and valid until
/// `err` is freed. Returns a static message when `err` is NULL.
///
/// # Safety
/// `err` is NULL or a live error returned by this library.
#[no_mangle]
pub unsafe extern "C" fn crt_error_message(err: *const crt_error) -> *const c_char {
    // SAFETY: the caller passes NULL or a live error.
    match unsafe { crate::ffi::opt_ref(err) } {
        Some(e) => e.message.as_ptr(),
        None => c"crt_error_message: the error is NULL".as_ptr(),
    }
}

/// Frees an error. NULL is allowed and ignored.
///
/// # Safety
/// `err` is NULL or an error returned by this library, not yet freed; it must not be used
/// afterwards.
#[no_mangle]
pub unsafe extern "C" fn crt_error_free(err: *mut crt_error) {
    crate::boundary::quietly(|| {
        // SAFETY: the caller passes NULL or an unfreed error from `Box::into_raw`.
        drop(unsafe { crate::ffi::take_box(err) });
    });
}

/// The symbolic name of a status (`"CRT_STATUS_OUT_OF_MEMORY"`), or `"CRT_STATUS_UNKNOWN"`.
/// The string is static: never free it.
#[no_mangle]
pub extern "C" fn crt_status_name(status: crt_status) -> *const c_char {
    let name = match status {
        CRT_STATUS_OK => c"CRT_STATUS_OK",
        CRT_STATUS_NULL_POINTER => c"CRT_STATUS_NULL_POINTER",
        CRT_STATUS_INVALID_SHAPE => c"CRT_STATUS_INVALID_SHAPE",
        CRT_STATUS_MISALIGNED => c"CRT_STATUS_MISALIGNED",
        CRT_STATUS_DTYPE => c"CRT_STATUS_DTYPE",
        CRT_STATUS_LAYOUT => c"CRT_STATUS_LAYOUT",
        CRT_STATUS_INDEX => c"CRT_STATUS_INDEX",
        CRT_STATUS_OUT_OF_MEMORY => c"CRT_STATUS_OUT_OF_MEMORY",
        CRT_STATUS_DEVICE => c"CRT_STATUS_DEVICE",
        CRT_STATUS_READ_ONLY => c"CRT_STATUS_READ_ONLY",
        CRT_STATUS_INVALID_ARGUMENT => c"CRT_STATUS_INVALID_ARGUMENT",
        CRT_STATUS_INTERNAL => c"CRT_STATUS_INTERNAL",
        _ => c"CRT_STATUS_UNKNOWN",
    };
    name.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clika_rt::ErrorKind;

    #[test]
    fn status_numbers_are_the_core_kinds() {
        let pairs = [
            (CRT_STATUS_NULL_POINTER, ErrorKind::NullPointer),
            (CRT_STATUS_INVALID_SHAPE, ErrorKind::InvalidShape),
            (CRT_STATUS_MISALIGNED, ErrorKind::Misaligned),
            (CRT_STATUS_DTYPE, ErrorKind::DType),
            (CRT_STATUS_LAYOUT, ErrorKind::Layout),
            (CRT_STATUS_INDEX, ErrorKind::Index),
            (CRT_STATUS_OUT_OF_MEMORY, ErrorKind::OutOfMemory),
            (CRT_STATUS_DEVICE, ErrorKind::Device),
            (CRT_STATUS_READ_ONLY, ErrorKind::ReadOnly),
            (CRT_STATUS_INVALID_ARGUMENT, ErrorKind::InvalidArgument),
            (CRT_STATUS_INTERNAL, ErrorKind::Internal),
        ];
        for (status, kind) in pairs {
            assert_eq!(status, kind as u32, "{kind:?}");
        }
    }
}
