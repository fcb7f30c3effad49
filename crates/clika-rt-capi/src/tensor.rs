//! The tensor handle and the functions that create and free it.

use std::ffi::c_void;

use clika_rt::{BlobOptions, Deleter, Error, Tensor};

use crate::boundary::{guard, quietly};
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{self, arg, into_handle, Out};
use crate::types::{self, crt_blob_options, crt_dtype, CRT_BLOB_READ_ONLY};

/// An opaque tensor handle. Each handle owns one reference to the tensor's memory: copies
/// (`crt_tensor_clone`) and views share the memory and bump its reference count; the memory
/// is released (a borrowed buffer is left alone; an adopted one's deleter runs once) when the
/// last handle over it is freed with `crt_tensor_free`.
///
/// Handles may be read from several threads at once; freeing one must not race with its use.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
#[derive(Debug)]
pub struct crt_tensor {
    pub(crate) tensor: Tensor,
    /// The shape as `int64_t`, so `crt_tensor_shape` can lend it.
    pub(crate) shape: Vec<i64>,
    /// The strides (in elements) as `int64_t`, so `crt_tensor_strides` can lend them.
    pub(crate) strides: Vec<i64>,
}

impl crt_tensor {
    /// Wraps a core tensor.
    pub fn new(tensor: Tensor) -> crt_tensor {
        let shape = tensor.shape().iter().map(|&d| d as i64).collect();
        let strides = tensor.strides().iter().map(|&s| s as i64).collect();
        crt_tensor {
            tensor,
            shape,
            strides,
        }
    }
}

/// Converts a C shape to sizes; negative entries are rejected.
pub(crate) fn sizes(shape: &[i64]) -> Result<Vec<usize>, CapiError> {
    shape
        .iter()
        .enumerate()
        .map(|(dim, &d)| {
            usize::try_from(d).map_err(|_| {
                Error::NegativeDim {
                    shape: shape.to_vec(),
                    dim,
                }
                .into()
            })
        })
        .collect()
}

/// Writes a new handle for the result of `make` to `out`.
///
/// # Safety
/// `out` and `err` satisfy the header's pointer contract (P2).
pub(crate) unsafe fn create(
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    make: impl FnOnce() -> Result<Tensor, CapiError>,
) -> crt_status {
    guard(err, || {
        // SAFETY: the caller guarantees P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        out.write(into_handle(crt_tensor::new(make()?)));
        Ok(())
    })
}

/// Writes a new handle for `f(tensor)` to `out`.
///
/// # Safety
/// `t` satisfies P1; `out` and `err` satisfy P2.
pub(crate) unsafe fn derive(
    t: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor) -> Result<Tensor, CapiError>,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s, and P1 for `t`.
    unsafe {
        create(out, err, || {
            let t = arg(t, "tensor")?;
            f(&t.tensor)
        })
    }
}

/// A deleter from C: the function and its context, called once by the core.
struct ForeignDeleter {
    f: unsafe extern "C" fn(*mut c_void, *mut c_void),
    ctx: *mut c_void,
}

// SAFETY: the header requires a deleter to be callable from any thread with its context
// (`crt_deleter_fn`); the context is only passed back to it.
unsafe impl Send for ForeignDeleter {}

impl ForeignDeleter {
    fn into_deleter(self) -> Deleter {
        Deleter::new(move |data| {
            let this = self;
            // SAFETY: the caller of `crt_tensor_from_blob` handed over `data` with this
            // deleter and context; the core calls this exactly once, on the last drop.
            unsafe { crate::deleters::call_deleter(this.f, data.cast(), this.ctx) }
        })
    }
}

/// Wraps memory the runtime did not allocate, without copying. The new tensor's data pointer
/// is `data`.
///
/// - `shape`: `ndim` sizes (NULL when `ndim` is 0; at most 64).
/// - `strides`: NULL for row-major, or `ndim` strides **in elements** (may be negative);
///   `data` points at element `[0, ..., 0]`.
/// - `options`: NULL for the defaults (CPU, not pinned, borrowed, writable). With no deleter
///   the memory is **borrowed**: the caller keeps ownership and must keep it alive, and its
///   layout unchanged, for as long as any tensor over it exists. With a deleter it is
///   **adopted**: the tensors own it and call `deleter(data, deleter_ctx)` exactly once when
///   the last of them is freed. With `device` `cuda:N`, `data` is a CUDA device pointer
///   (from `cudaMalloc`, a decoder, another framework): the driver is asked that the first
///   and last reachable bytes are memory of that device, and the deleter runs only after
///   the runtime's work queued on the device has completed.
/// - On failure (NULL or misaligned `data`, bad shape or strides, overflow, wrap-around,
///   unknown dtype or device) **no ownership is taken**: the deleter is not called and the
///   caller still owns `data` and `deleter_ctx`.
///
/// The descriptor is validated; the memory itself cannot be: it must be valid for every
/// element the shape and strides reach, and nobody may write it while an operation reads it.
///
/// # Safety
/// The memory contract above, and the header's pointer contract for the other arguments.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_blob(
    data: *mut c_void,
    shape: *const i64,
    ndim: usize,
    strides: *const i64,
    dtype: crt_dtype,
    options: *const crt_blob_options,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s; the memory contract is forwarded.
    unsafe {
        create(out, err, || {
            let shape = ffi::dims(shape, ndim, "shape")?;
            let strides = if strides.is_null() {
                None
            } else {
                Some(ffi::dims(strides, ndim, "strides")?)
            };
            let o = ffi::opt_read(options).unwrap_or_default();
            let opts = blob_options(&o)?;
            let dtype = types::dtype(dtype)?;
            Ok(Tensor::from_blob_with(
                data.cast(),
                shape,
                strides,
                dtype,
                opts,
            )?)
        })
    }
}

/// The core options for C options; the deleter is wrapped last, once nothing else can fail.
///
/// # Safety
/// `o.pinned_for` is NULL or readable.
unsafe fn blob_options(o: &crt_blob_options) -> Result<BlobOptions, CapiError> {
    if o.flags & !CRT_BLOB_READ_ONLY != 0 {
        let value = format!("{:#x}", o.flags);
        return Err(Error::OutOfRange {
            what: "crt_blob_options.flags",
            value,
        }
        .into());
    }
    // SAFETY: the caller guarantees `pinned_for` is NULL or readable.
    let pinned_for = match unsafe { ffi::opt_read(o.pinned_for) } {
        Some(d) => Some(d.to_core()?),
        None => None,
    };
    Ok(BlobOptions {
        device: o.device.to_core()?,
        pinned_for,
        deleter: o.deleter.map(|f| {
            ForeignDeleter {
                f,
                ctx: o.deleter_ctx,
            }
            .into_deleter()
        }),
        read_only: o.flags & CRT_BLOB_READ_ONLY != 0,
    })
}

/// Copies `nbytes` bytes at `data` (native byte order, row-major) into a new runtime-owned
/// tensor, so the source's lifetime stops mattering. `nbytes` must equal the shape's element
/// count times the dtype's size. `data` is only read during the call.
///
/// # Safety
/// `data` is readable for `nbytes` bytes; the header's pointer contract for the rest.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_from_data(
    data: *const c_void,
    nbytes: usize,
    shape: *const i64,
    ndim: usize,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s and P3 for the two arrays.
    unsafe {
        create(out, err, || {
            let bytes = ffi::bytes(data, nbytes, "data")?;
            let shape = sizes(ffi::dims(shape, ndim, "shape")?)?;
            Ok(Tensor::from_bytes(bytes, &shape, types::dtype(dtype)?)?)
        })
    }
}

/// A new tensor of `shape` filled by `fill` (for the creation functions below).
///
/// # Safety
/// P3 for `shape`/`ndim`, P2 for `out` and `err`.
unsafe fn filled(
    shape: *const i64,
    ndim: usize,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    fill: impl FnOnce(&[usize], clika_rt::DType) -> clika_rt::Result<Tensor>,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s and P3 for `shape`.
    unsafe {
        create(out, err, || {
            let shape = sizes(ffi::dims(shape, ndim, "shape")?)?;
            Ok(fill(&shape, types::dtype(dtype)?)?)
        })
    }
}

/// A new CPU tensor of zeros. `shape` holds `ndim` sizes (NULL when `ndim` is 0: a scalar).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_zeros(
    shape: *const i64,
    ndim: usize,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { filled(shape, ndim, dtype, out, err, Tensor::zeros) }
}

/// A new CPU tensor of ones; see `crt_tensor_zeros`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_ones(
    shape: *const i64,
    ndim: usize,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { filled(shape, ndim, dtype, out, err, Tensor::ones) }
}

/// A new CPU tensor with unspecified (but initialised) contents; see `crt_tensor_zeros`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_empty(
    shape: *const i64,
    ndim: usize,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { filled(shape, ndim, dtype, out, err, Tensor::empty) }
}

/// A new CPU tensor filled with `value` (converted to `dtype`); see `crt_tensor_zeros`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_full(
    shape: *const i64,
    ndim: usize,
    value: f64,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        filled(shape, ndim, dtype, out, err, |s, d| {
            Tensor::full(s, value, d)
        })
    }
}

/// A new 1-D CPU tensor `start, start + step, ...` up to (excluding) `end`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_arange(
    start: f64,
    end: f64,
    step: f64,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            Ok(Tensor::arange(start, end, step, types::dtype(dtype)?)?)
        })
    }
}

/// A new handle to the same tensor (a reference-count bump: no copy). Free both.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_clone(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(t.clone())) }
}

/// Frees a handle. NULL is allowed and ignored. When it was the last handle over its memory,
/// the memory is released: pool memory returns to the pool, adopted memory's deleter runs (on
/// this thread, before this returns), borrowed memory is left to its owner.
///
/// # Safety
/// `tensor` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_free(tensor: *mut crt_tensor) {
    quietly(|| {
        // SAFETY: P1, and the caller does not use the handle again.
        drop(unsafe { ffi::take_box(tensor) });
    });
}
