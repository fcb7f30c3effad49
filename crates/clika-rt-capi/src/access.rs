//! Reading a tensor: metadata, data pointers, elements, printing, device moves.

use std::ffi::{c_char, c_void, CString};

use clika_rt::{Element, Tensor};

use crate::boundary::{guard, quietly};
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{self, arg, Out};
use crate::tensor::{crt_tensor, derive};
use crate::types::{self, crt_device, crt_dtype};

/// Writes `f(handle)` to `out`.
///
/// # Safety
/// P1 for `t`, P2 for `out` and `err`.
unsafe fn get<T>(
    t: *const crt_tensor,
    out: *mut T,
    err: *mut *mut crt_error,
    f: impl FnOnce(&crt_tensor) -> Result<T, CapiError>,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`, P1 for `t` (the caller's obligations).
        let (out, t) = unsafe { (Out::new(out, "out")?, arg(t, "tensor")?) };
        out.write(f(t)?);
        Ok(())
    })
}

/// Lends the shape: `*shape_out` receives `*ndim_out` sizes, owned by the handle and valid
/// until it is freed (NULL-free even for a scalar, whose `*ndim_out` is 0).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_shape(
    tensor: *const crt_tensor,
    shape_out: *mut *const i64,
    ndim_out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for both out-pointers, P1 for `tensor`.
        let (s, n, t) = unsafe {
            (
                Out::new(shape_out, "shape_out")?,
                Out::new(ndim_out, "ndim_out")?,
                arg(tensor, "tensor")?,
            )
        };
        s.write(t.shape.as_ptr());
        n.write(t.shape.len());
        Ok(())
    })
}

/// Lends the strides (in elements): `*strides_out` receives `*ndim_out` entries, owned by
/// the handle and valid until it is freed.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_strides(
    tensor: *const crt_tensor,
    strides_out: *mut *const i64,
    ndim_out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for both out-pointers, P1 for `tensor`.
        let (s, n, t) = unsafe {
            (
                Out::new(strides_out, "strides_out")?,
                Out::new(ndim_out, "ndim_out")?,
                arg(tensor, "tensor")?,
            )
        };
        s.write(t.strides.as_ptr());
        n.write(t.strides.len());
        Ok(())
    })
}

/// The number of elements.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_numel(
    tensor: *const crt_tensor,
    out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { get(tensor, out, err, |t| Ok(t.tensor.numel())) }
}

/// Bytes the elements take: the number of elements times the dtype's size (numpy's and
/// PyTorch's `nbytes`; a view counts its own elements, not its storage).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_nbytes(
    tensor: *const crt_tensor,
    out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { get(tensor, out, err, |t| Ok(t.tensor.nbytes())) }
}

/// Bytes of one element (the dtype's size; PyTorch's `element_size()`).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_element_size(
    tensor: *const crt_tensor,
    out: *mut usize,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { get(tensor, out, err, |t| Ok(t.tensor.element_size())) }
}

/// The element type (`CRT_DTYPE_*`).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_dtype(
    tensor: *const crt_tensor,
    out: *mut crt_dtype,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        get(tensor, out, err, |t| {
            Ok(types::dtype_code(t.tensor.dtype()))
        })
    }
}

/// Where the memory lives.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_device(
    tensor: *const crt_tensor,
    out: *mut crt_device,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        get(tensor, out, err, |t| {
            Ok(crt_device::from_core(t.tensor.device()))
        })
    }
}

/// 1 when the elements are row-major without gaps (numpy's rule), else 0.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_is_contiguous(
    tensor: *const crt_tensor,
    out: *mut u8,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { get(tensor, out, err, |t| Ok(u8::from(t.tensor.is_contiguous()))) }
}

/// 1 when the runtime may write the tensor's memory at a caller's request, 0 when it is
/// read-only (a source marked `CRT_BLOB_READ_ONLY`, a read-only mapping, an operator's
/// input view). A bridge that re-wraps the memory keeps the flag with this.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_is_writable(
    tensor: *const crt_tensor,
    out: *mut u8,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        get(tensor, out, err, |t| {
            Ok(u8::from(t.tensor.storage().is_writable()))
        })
    }
}

/// Pointer to the first element (for a borrowed or adopted tensor: the caller's pointer).
/// The memory stays owned by the tensor. Writing through it is the caller's responsibility:
/// no operation may be reading those elements at the time, and read-only memory must not be
/// written. A tensor on a GPU has no host pointer: that fails with `CRT_STATUS_DEVICE`
/// (move it with `crt_tensor_to` to the CPU first).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_data_ptr(
    tensor: *const crt_tensor,
    out: *mut *mut c_void,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        get(tensor, out, err, |t| {
            if !t.tensor.device().is_cpu() {
                return Err(clika_rt::Error::UnsupportedOnDevice {
                    op: "data_ptr".to_string(),
                    device: t.tensor.device(),
                    what: "host pointers (device memory has none)".to_string(),
                }
                .into());
            }
            Ok(t.tensor.data_ptr().cast())
        })
    }
}

/// The single element of a one-element tensor, converted to `dtype` with the runtime's cast
/// rules and written to `out`, which must hold one element of `dtype` (`uint16_t` bits for
/// the 16-bit floats, one byte 0/1 for bool; no alignment needed).
///
/// # Safety
/// `out` is NULL or writable for one element of `dtype`; the header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_item(
    tensor: *const crt_tensor,
    dtype: crt_dtype,
    out: *mut c_void,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out` (one element of `dtype`), P1 for `tensor`.
        let (out, t) = unsafe { (Out::new(out, "out")?, arg(tensor, "tensor")?) };
        let dtype = types::dtype(dtype)?;
        clika_rt::dispatch_dtype!(dtype, T => write_item::<T>(&t.tensor, out))
    })
}

fn write_item<T: Element>(t: &Tensor, out: Out<c_void>) -> Result<(), CapiError> {
    let v = t.item::<T>()?;
    // SAFETY: `Out` is non-NULL and, by the header, writable for one element of `T`'s dtype.
    unsafe { ffi::write_unaligned(out.as_ptr(), v) };
    Ok(())
}

/// Copies the elements, row-major and in the tensor's dtype, to `dst`, which holds
/// `dst_nbytes` bytes (at least numel times the dtype's size).
///
/// # Safety
/// `dst` is writable for `dst_nbytes` bytes and does not overlap the tensor; the header's
/// pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_copy_to(
    tensor: *const crt_tensor,
    dst: *mut c_void,
    dst_nbytes: usize,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        // A device tensor is read back first (synchronising its queue).
        let c = t.tensor.to(clika_rt::Device::cpu())?.contiguous()?;
        let len = c.numel() * c.dtype().size();
        if len > 0 && dst.is_null() {
            return Err(CapiError::NullArgument("dst"));
        }
        // SAFETY: `c` is contiguous, so its `len` bytes start at `const_data_ptr` (L3); the
        // caller guarantees `dst` is writable for `dst_nbytes` bytes without overlap.
        unsafe { ffi::copy_to(dst, dst_nbytes, c.const_data_ptr(), len) }
    })
}

/// The tensor printed as the specification prints it:
/// `Tensor(shape=[2, 3], dtype=Float32, device=CPU, numel=6, data=[...])`. `*out` receives a
/// new NUL-terminated string the caller frees with `crt_string_free`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_to_string(
    tensor: *const crt_tensor,
    out: *mut *mut c_char,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        get(tensor, out, err, |t| {
            let text = t.tensor.to_string().replace('\0', "\u{FFFD}");
            Ok(CString::new(text).unwrap_or_default().into_raw())
        })
    }
}

/// The tensor in the nested, multi-line form numpy and PyTorch print
/// (`Tensor([[ 1,  2],\n        [ 3, 40]], dtype=Int32, device=CPU)`, columns aligned): floats with `precision` digits after the point, and tensors of more than
/// `threshold` elements summarised with `...`, keeping `edgeitems` items at each end of every
/// dimension (numpy's defaults: 4, 1000, 3). A device tensor is read back first. `*out`
/// receives a new string the caller frees with `crt_string_free`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_format(
    tensor: *const crt_tensor,
    precision: usize,
    threshold: usize,
    edgeitems: usize,
    out: *mut *mut c_char,
    err: *mut *mut crt_error,
) -> crt_status {
    let options = clika_rt::PrintOptions {
        precision,
        threshold,
        edgeitems,
    };
    // SAFETY: forwarded contract.
    unsafe {
        get(tensor, out, err, |t| {
            let text = t
                .tensor
                .to_pretty_string(&options)
                .replace('\0', "\u{FFFD}");
            Ok(CString::new(text).unwrap_or_default().into_raw())
        })
    }
}

/// Frees a string returned by this library. NULL is allowed and ignored.
///
/// # Safety
/// `s` is NULL or a string from this library, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn crt_string_free(s: *mut c_char) {
    quietly(|| {
        if !s.is_null() {
            // SAFETY: `s` came from `CString::into_raw` in this library and is freed once.
            drop(unsafe { CString::from_raw(s) });
        }
    });
}

/// Waits until all work queued on the tensor's device has completed (cheap when none is).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_synchronize(
    tensor: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        Ok(t.tensor.synchronize()?)
    })
}

/// The tensor on `device`: a new handle to the same tensor when it is already there (or the
/// memory is reachable from it), otherwise a transfer.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_to(
    tensor: *const crt_tensor,
    device: crt_device,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.to(device.to_core()?)?)) }
}

/// This host tensor in page-locked memory for `device` (PyTorch's `pin_memory()`): the
/// same tensor when it already is, else a contiguous copy from `device`'s pinned host pool.
/// Moving a pinned tensor to `device` with `crt_tensor_to` is an asynchronous DMA. Only CUDA
/// devices have a pinned pool.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_pin_memory(
    tensor: *const crt_tensor,
    device: crt_device,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.pin_memory(device.to_core()?)?)) }
}

/// The tensor on `device` in new memory the runtime owns: always a copy, even where
/// `crt_tensor_to` would return the same memory (same device, or a unified-memory GPU that
/// uses host memory in place). On the same device it is a contiguous clone.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_to_copy(
    tensor: *const crt_tensor,
    device: crt_device,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.copy_to(device.to_core()?)?)) }
}
