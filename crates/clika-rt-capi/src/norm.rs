//! The normalization layers: `layer_norm`, `group_norm` and inference-mode `batch_norm`, with
//! PyTorch's semantics. `weight` and `bias` may be NULL (1 and 0). Results are new
//! runtime-owned tensors of the input's shape and dtype, written to `out`.

use clika_rt::{ops, Error, Tensor};

use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{arg, opt_ref};
use crate::tensor::{create, crt_tensor};

/// Writes `f(x, weight, bias)` to `out`; `weight` and `bias` may be NULL.
///
/// # Safety
/// P1 for `x`, NULL or P1 for `weight`/`bias`, P2 for `out`/`err`.
unsafe fn with_affine(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor, Option<&Tensor>, Option<&Tensor>) -> Result<Tensor, CapiError>,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s, and P1 (or NULL) for the handles.
    unsafe {
        create(out, err, || {
            let x = arg(x, "x")?;
            let w = opt_ref(weight).map(|t| &t.tensor);
            let b = opt_ref(bias).map(|t| &t.tensor);
            f(&x.tensor, w, b)
        })
    }
}

/// PyTorch's `layer_norm`: normalizes the last `ndims` dims of `x` (whose sizes are
/// `normalized_shape`), then scales by `weight` and shifts by `bias` (each of
/// `normalized_shape`, or NULL).
///
/// # Safety
/// The header's pointer contract; `normalized_shape` readable for `ndims` values.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_layer_norm(
    x: *const crt_tensor,
    normalized_shape: *const i64,
    ndims: usize,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    eps: f64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; P3 for `normalized_shape`/`ndims`.
    unsafe {
        with_affine(x, weight, bias, out, err, |x, w, b| {
            let shape = crate::ffi::dims(normalized_shape, ndims, "normalized_shape")?
                .iter()
                .map(|&v| {
                    usize::try_from(v).map_err(|_| {
                        CapiError::from(Error::OutOfRange {
                            what: "normalized_shape",
                            value: v.to_string(),
                        })
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ops::layer_norm(x, &shape, w, b, eps)?)
        })
    }
}

/// PyTorch's `group_norm`: the channels of `x` (`[N, C, *]`) in `num_groups` groups, each
/// normalized per image, then scaled and shifted per channel (`weight`, `bias`: `[C]` or NULL).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_group_norm(
    x: *const crt_tensor,
    num_groups: i64,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    eps: f64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_affine(x, weight, bias, out, err, |x, w, b| {
            let groups = usize::try_from(num_groups).map_err(|_| Error::OutOfRange {
                what: "num_groups",
                value: num_groups.to_string(),
            })?;
            Ok(ops::group_norm(x, groups, w, b, eps)?)
        })
    }
}

/// PyTorch's `batch_norm` in inference mode: each channel of `x` (`[N, C, *]`) normalized
/// with `running_mean` and `running_var` (`[C]`, read and not updated), then scaled and
/// shifted (`weight`, `bias`: `[C]` or NULL).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_batch_norm(
    x: *const crt_tensor,
    running_mean: *const crt_tensor,
    running_var: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    eps: f64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_affine(x, weight, bias, out, err, |x, w, b| {
            let (m, v) = (
                arg(running_mean, "running_mean")?,
                arg(running_var, "running_var")?,
            );
            Ok(ops::batch_norm(x, &m.tensor, &v.tensor, w, b, eps)?)
        })
    }
}
