//! Tensors over mapped files: `crt_load_safetensors` (a list of named tensors) and
//! `crt_tensor_from_file`.
//!
//! The mapping contract: a file is mapped read-only, and the tensors read it lazily for as
//! long as they live; nobody may truncate or rewrite the file meanwhile (that would show the
//! tensors new bytes or raise `SIGBUS`). The tensors are read-only.

use std::ffi::{c_char, CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use clika_rt::{io, Error, Tensor};

use crate::boundary::{guard, quietly};
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{self, arg, into_handle, Out};
use crate::tensor::{create, crt_tensor, sizes};
use crate::types::{self, crt_dtype};

/// A list of tensors: a safetensors file's, in file order, each with its name, or the pieces
/// of a split (each named ""). Owned by the caller and freed with `crt_tensor_list_free`;
/// the tensors taken from it (`crt_tensor_list_get`) are separate handles that stay valid
/// after the list is freed.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
#[derive(Debug)]
pub struct crt_tensor_list {
    entries: Vec<(CString, Tensor)>,
}

impl crt_tensor_list {
    /// A list of unnamed tensors (the pieces of a split): every name is "".
    pub(crate) fn unnamed(tensors: Vec<Tensor>) -> crt_tensor_list {
        crt_tensor_list {
            entries: tensors
                .into_iter()
                .map(|t| (CString::default(), t))
                .collect(),
        }
    }
}

/// A path argument as a `Path` (bytes, as the OS takes them).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string, unwritten during `'a`.
unsafe fn path<'a>(p: *const c_char) -> Result<&'a Path, CapiError> {
    // SAFETY: forwarded.
    let s = unsafe { ffi::c_str(p, "path") }?;
    Ok(Path::new(OsStr::from_bytes(s.to_bytes())))
}

/// Loads every tensor of the safetensors file `path` without copying: the file is mapped
/// read-only once, and each tensor is a view into that mapping, which stays mapped until the
/// last tensor over it is freed (the list may be freed first). Supported dtypes: F32 F64 F16
/// BF16 I8 I16 I32 I64 U8 U16 U32 U64 BOOL (others: `CRT_STATUS_DTYPE`). A tensor the file stores
/// unaligned for its dtype is copied into runtime memory. A file that cannot be opened, or
/// whose header is invalid or truncated, gives `CRT_STATUS_INVALID_ARGUMENT` with a message.
///
/// # Safety
/// The mapping contract (module docs: the file is not modified while mapped); the header's
/// pointer contract; `path` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn crt_load_safetensors(
    path: *const c_char,
    out: *mut *mut crt_tensor_list,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        // SAFETY: `path` is a NUL-terminated string.
        let path = unsafe { self::path(path) }?;
        // SAFETY: the caller accepted the mapping contract.
        let loaded = unsafe { io::load_safetensors(path) }?;
        let entries = loaded
            .into_iter()
            .map(|(name, t)| {
                (
                    CString::new(name.replace('\0', "\u{FFFD}")).unwrap_or_default(),
                    t,
                )
            })
            .collect();
        out.write(into_handle(crt_tensor_list { entries }));
        Ok(())
    })
}

/// The number of tensors in `list` (0 for NULL).
///
/// # Safety
/// `list` is NULL or a live list.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_list_len(list: *const crt_tensor_list) -> usize {
    // SAFETY: P1.
    unsafe { ffi::opt_ref(list) }.map_or(0, |l| l.entries.len())
}

fn entry(list: &crt_tensor_list, index: usize) -> Result<&(CString, Tensor), CapiError> {
    list.entries.get(index).ok_or_else(|| {
        Error::IndexOutOfRange {
            index: index as i64,
            dim: 0,
            size: list.entries.len(),
        }
        .into()
    })
}

/// The name of tensor `index` of `list`, written to `*out`: a NUL-terminated string owned by
/// the list (valid until the list is freed; do not free it). An index past the end gives
/// `CRT_STATUS_INDEX`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_list_name(
    list: *const crt_tensor_list,
    index: usize,
    out: *mut *const c_char,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`, P1 for `list`.
        let (out, list) = unsafe { (Out::new(out, "out")?, arg(list, "list")?) };
        out.write(entry(list, index)?.0.as_ptr());
        Ok(())
    })
}

/// A new handle to tensor `index` of `list` (free it with `crt_tensor_free`; it stays valid
/// after the list is freed). An index past the end gives `CRT_STATUS_INDEX`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_list_get(
    list: *const crt_tensor_list,
    index: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; P1 for `list`.
    unsafe { create(out, err, || Ok(entry(arg(list, "list")?, index)?.1.clone())) }
}

/// A new handle to the tensor named `name` in `list`; a name not in the list gives
/// `CRT_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// The header's pointer contract; `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_list_find(
    list: *const crt_tensor_list,
    name: *const c_char,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; P1 for `list`; `name` is NUL-terminated.
    unsafe {
        create(out, err, || {
            let (list, name) = (arg(list, "list")?, ffi::c_str(name, "name")?);
            let found = list.entries.iter().find(|(n, _)| n.as_c_str() == name);
            found.map(|(_, t)| t.clone()).ok_or_else(|| {
                Error::OutOfRange {
                    what: "tensor name (not in the file)",
                    value: format!("{name:?}"),
                }
                .into()
            })
        })
    }
}

/// Frees a list (not the tensors already taken from it). NULL is allowed and ignored.
///
/// # Safety
/// `list` is NULL or a live list, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_list_free(list: *mut crt_tensor_list) {
    quietly(|| {
        // SAFETY: P1; freed once.
        drop(unsafe { ffi::take_box(list) });
    });
}

/// Maps `shape` elements of `dtype`, stored row-major at byte `offset` of the raw binary
/// file `path`, read-only and without copying. A range past the end of the file gives
/// `CRT_STATUS_INVALID_SHAPE`; an offset that is not a multiple of the dtype's size,
/// `CRT_STATUS_INVALID_ARGUMENT`; a file that cannot be opened, likewise.
///
/// # Safety
/// The mapping contract (module docs); the header's pointer contract; `path` is a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_file(
    path: *const c_char,
    dtype: crt_dtype,
    shape: *const i64,
    ndim: usize,
    offset: u64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let path = self::path(path)?;
            let shape = sizes(ffi::dims(shape, ndim, "shape")?)?;
            let dtype = types::dtype(dtype)?;
            // SAFETY: the caller accepted the mapping contract.
            Ok(Tensor::from_file(path, dtype, &shape, offset)?)
        })
    }
}
