//! More views (`flip`, `movedim`, `diagonal`), pieces (`split`, `chunk`, `unbind`, returned
//! as a `crt_tensor_list`) and the copying `repeat`/`tile`.

use clika_rt::Tensor;

use crate::boundary::guard;
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{self, arg, into_handle, Out};
use crate::io::crt_tensor_list;
use crate::tensor::{crt_tensor, derive, sizes};
use crate::views::{isz, isz_list};

/// Reverses the entries along the `ndims` dims in `dims` (a view with negative strides).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_flip(
    tensor: *const crt_tensor,
    dims: *const i64,
    ndims: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let dims = isz_list(dims, ndims, "dims")?;
            Ok(t.flip(&dims)?)
        })
    }
}

/// Moves dim `source` to `destination`, the others keeping their order (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_movedim(
    tensor: *const crt_tensor,
    source: i64,
    destination: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(t.movedim(isz(source, "source")?, isz(destination, "destination")?)?)
        })
    }
}

/// The diagonal of dims `dim1`/`dim2` (offset 0: main; positive: above), as the last dim
/// (a view).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_diagonal(
    tensor: *const crt_tensor,
    offset: i64,
    dim1: i64,
    dim2: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let (o, a, b) = (
                isz(offset, "offset")?,
                isz(dim1, "dim1")?,
                isz(dim2, "dim2")?,
            );
            Ok(t.diagonal(o, a, b)?)
        })
    }
}

/// The tensor repeated `reps[i]` times along each dim (at least `ndim` counts; extra leading
/// counts add dims): PyTorch's `repeat`. With `numpy_rule` non-zero, numpy's `tile` (fewer
/// counts than dims repeat the trailing dims). A copy.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_repeat(
    tensor: *const crt_tensor,
    reps: *const i64,
    nreps: usize,
    numpy_rule: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let reps = sizes(ffi::dims(reps, nreps, "reps")?)?;
            Ok(if numpy_rule != 0 {
                t.tile(&reps)?
            } else {
                t.repeat(&reps)?
            })
        })
    }
}

/// What a split makes.
#[repr(u32)]
enum Pieces {
    Split = 0,
    Chunk = 1,
    Unbind = 2,
}

/// Splits `tensor` along `dim` into views returned as a list (names ""): `how` 0 (split)
/// makes pieces of `n` entries (the last may be shorter), 1 (chunk) makes `n` pieces of
/// equal size (fewer when the dim is short), 2 (unbind) makes every entry with `dim`
/// removed (`n` is ignored).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_split(
    tensor: *const crt_tensor,
    how: u32,
    n: usize,
    dim: i64,
    out: *mut *mut crt_tensor_list,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        let d = isz(dim, "dim")?;
        let pieces: Vec<Tensor> = match how {
            h if h == Pieces::Split as u32 => t.tensor.split(n, d)?,
            h if h == Pieces::Chunk as u32 => t.tensor.chunk(n, d)?,
            h if h == Pieces::Unbind as u32 => t.tensor.unbind(d)?,
            other => {
                return Err(CapiError::from(clika_rt::Error::OutOfRange {
                    what: "split kind (0 split, 1 chunk, 2 unbind)",
                    value: other.to_string(),
                }))
            }
        };
        out.write(into_handle(crt_tensor_list::unnamed(pieces)));
        Ok(())
    })
}
