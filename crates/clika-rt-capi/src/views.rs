//! Views (metadata-only: they share the source's memory and keep it alive) and operations
//! (which return new runtime-owned tensors). Every function writes a new handle to `out`,
//! which the caller frees with `crt_tensor_free`; the source handle stays valid and owned by
//! the caller.

use clika_rt::{ops, Error, Tensor};

use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi;
use crate::tensor::{crt_tensor, derive};
use crate::types::{self, crt_dtype};

/// A C dimension, index or size as `isize`.
pub(crate) fn isz(v: i64, what: &'static str) -> Result<isize, CapiError> {
    isize::try_from(v).map_err(|_| {
        Error::OutOfRange {
            what,
            value: v.to_string(),
        }
        .into()
    })
}

/// A C list of dimensions or sizes as `isize`s.
///
/// # Safety
/// P3 for `p`/`len`.
pub(crate) unsafe fn isz_list(
    p: *const i64,
    len: usize,
    what: &'static str,
) -> Result<Vec<isize>, CapiError> {
    // SAFETY: the caller guarantees P3.
    let list = unsafe { ffi::dims(p, len, what) }?;
    list.iter().map(|&v| isz(v, what)).collect()
}

/// Writes a new handle for `f(tensor, list)` to `out`.
///
/// # Safety
/// P1 for `t`, P2 for `out`/`err`, P3 for `list`/`len`.
unsafe fn list_op(
    t: *const crt_tensor,
    list: *const i64,
    len: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    what: &'static str,
    f: impl FnOnce(&Tensor, &[isize]) -> clika_rt::Result<Tensor>,
) -> crt_status {
    // SAFETY: the caller's obligations, forwarded.
    unsafe { derive(t, out, err, |t| Ok(f(t, &isz_list(list, len, what)?)?)) }
}

/// The same elements under `shape` (one entry may be -1), sharing memory; fails with
/// `CRT_STATUS_LAYOUT` when the strides cannot express it without a copy.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_view(
    tensor: *const crt_tensor,
    shape: *const i64,
    len: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { list_op(tensor, shape, len, out, err, "shape", |t, l| t.view(l)) }
}

/// Like `crt_tensor_view`, but copies when the strides cannot express the new shape.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_reshape(
    tensor: *const crt_tensor,
    shape: *const i64,
    len: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { list_op(tensor, shape, len, out, err, "shape", |t, l| t.reshape(l)) }
}

/// Reorders the dimensions (a view); `dims` is a permutation of `0..ndim`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_permute(
    tensor: *const crt_tensor,
    dims: *const i64,
    len: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { list_op(tensor, dims, len, out, err, "dims", |t, l| t.permute(l)) }
}

/// Broadcasts to `sizes` (-1 keeps a size) with stride-0 dimensions (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_expand(
    tensor: *const crt_tensor,
    sizes: *const i64,
    len: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { list_op(tensor, sizes, len, out, err, "sizes", |t, l| t.expand(l)) }
}

/// Sum over `dims` (negative counts from the end); `keepdim` non-zero keeps them with
/// size 1.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_sum_dims(
    tensor: *const crt_tensor,
    dims: *const i64,
    len: usize,
    keepdim: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        list_op(tensor, dims, len, out, err, "dims", |t, l| {
            ops::sum_dims(t, l, keepdim != 0)
        })
    }
}

/// Mean over `dims`; see `crt_tensor_sum_dims`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_mean_dims(
    tensor: *const crt_tensor,
    dims: *const i64,
    len: usize,
    keepdim: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        list_op(tensor, dims, len, out, err, "dims", |t, l| {
            ops::mean_dims(t, l, keepdim != 0)
        })
    }
}

/// Sum of all elements as a 0-dimensional tensor (floats keep their dtype; integers and
/// bools give Int64; UInt64 gives UInt64).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_sum(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::sum(t)?)) }
}

/// Mean of all elements as a 0-dimensional tensor (integers and bools give Float64).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_mean(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::mean(t)?)) }
}

/// The same tensor when already contiguous (no copy), otherwise a compact row-major copy.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_contiguous(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::contiguous(t)?)) }
}

/// Removes every size-1 dimension (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_squeeze_all(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.squeeze(None)?)) }
}

/// Removes dimension `dim` if its size is 1 (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_squeeze(
    tensor: *const crt_tensor,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.squeeze(Some(isz(dim, "dim")?))?)) }
}

/// Inserts a size-1 dimension at `dim` (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_unsqueeze(
    tensor: *const crt_tensor,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.unsqueeze(isz(dim, "dim")?)?)) }
}

/// The tensor converted to `dtype` (a new handle to the same tensor if it already has it).
/// A dense permuted host tensor (a transpose, a channels-last image) keeps its layout, as
/// PyTorch's `to` and numpy's `astype` do; any other is converted row-major.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_to_dtype(
    tensor: *const crt_tensor,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(ops::to_dtype(t, types::dtype(dtype)?)?)
        })
    }
}

/// Swaps dimensions `dim0` and `dim1` (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_transpose(
    tensor: *const crt_tensor,
    dim0: i64,
    dim1: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(t.transpose(isz(dim0, "dim0")?, isz(dim1, "dim1")?)?)
        })
    }
}

/// `length` entries of `dim` from `start` (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_narrow(
    tensor: *const crt_tensor,
    dim: i64,
    start: i64,
    length: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let length = usize::try_from(length).map_err(|_| Error::OutOfRange {
                what: "narrow length",
                value: length.to_string(),
            })?;
            Ok(t.narrow(isz(dim, "dim")?, isz(start, "start")?, length)?)
        })
    }
}

/// Python-style `start:stop:step` along `dim` (a view). `start` and `stop` point at one
/// value each, or are NULL for "from the beginning" / "to the end"; they are read during the
/// call only. A negative `step` walks backwards; 0 is an error.
///
/// # Safety
/// `start` and `stop` are NULL or readable; the header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_slice(
    tensor: *const crt_tensor,
    dim: i64,
    start: *const i64,
    stop: *const i64,
    step: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; `start`/`stop` are NULL or readable.
    unsafe {
        derive(tensor, out, err, |t| {
            let start = ffi::opt_read(start).map(|v| isz(v, "start")).transpose()?;
            let stop = ffi::opt_read(stop).map(|v| isz(v, "stop")).transpose()?;
            Ok(t.slice(isz(dim, "dim")?, start, stop, isz(step, "step")?)?)
        })
    }
}

/// Fixes dimension `dim` at `index`, removing the dimension (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_select(
    tensor: *const crt_tensor,
    dim: i64,
    index: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(t.select(isz(dim, "dim")?, isz(index, "index")?)?)
        })
    }
}

/// Merges dimensions `start_dim..=end_dim` into one: a view when possible, else a copy.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_flatten(
    tensor: *const crt_tensor,
    start_dim: i64,
    end_dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(t.flatten(isz(start_dim, "start_dim")?, isz(end_dim, "end_dim")?)?)
        })
    }
}
