//! Vision and inference operations: `conv1d`/`conv2d`, `conv_transpose1d`/`conv_transpose2d`,
//! `max_pool2d`/`avg_pool2d`,
//! `adaptive_avg_pool2d`, `linear` and `pad`, with PyTorch's semantics (NCHW inputs; an
//! unbatched CHW input is accepted). Sizes are `int64_t` (negative is refused); a `bias` may
//! be NULL. Results are new runtime-owned tensors written to `out`. `interpolate` and the
//! image entry points are in [`crate::image`].

use clika_rt::ops::{self, ConvOptions, ConvTransposeOptions, PadMode, Padding, PoolOptions};
use clika_rt::{Error, Tensor};

use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{arg, opt_ref};
use crate::tensor::{create, crt_tensor};

/// How a convolution pads: one of the `CRT_CONV_PADDING_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_conv_padding = u32;
/// The explicit zero padding given per spatial dim.
pub const CRT_CONV_PADDING_EXPLICIT: crt_conv_padding = 0;
/// No padding (PyTorch's `"valid"`; the explicit values are ignored).
pub const CRT_CONV_PADDING_VALID: crt_conv_padding = 1;
/// Output size = input size (PyTorch's `"same"`, stride 1 only; extra element at the end).
pub const CRT_CONV_PADDING_SAME: crt_conv_padding = 2;

/// How `crt_tensor_pad` fills: one of the `CRT_PAD_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_pad_mode = u32;
/// A constant `value`; negative pads crop.
pub const CRT_PAD_CONSTANT: crt_pad_mode = 0;
/// The mirror image without the edge; pads below the size.
pub const CRT_PAD_REFLECT: crt_pad_mode = 1;
/// The edge repeated.
pub const CRT_PAD_REPLICATE: crt_pad_mode = 2;
/// The other end (wrap around); pads at most the size.
pub const CRT_PAD_CIRCULAR: crt_pad_mode = 3;

/// A non-negative size from C.
pub(crate) fn size(v: i64, what: &'static str) -> Result<usize, CapiError> {
    usize::try_from(v).map_err(|_| {
        Error::OutOfRange {
            what,
            value: v.to_string(),
        }
        .into()
    })
}

fn sizes<const N: usize>(v: [i64; N], what: &'static str) -> Result<Vec<usize>, CapiError> {
    v.iter().map(|&x| size(x, what)).collect()
}

fn padding(mode: crt_conv_padding, explicit: Vec<usize>) -> Result<Padding, CapiError> {
    Ok(match mode {
        CRT_CONV_PADDING_EXPLICIT => Padding::Explicit(explicit),
        CRT_CONV_PADDING_VALID => Padding::Valid,
        CRT_CONV_PADDING_SAME => Padding::Same,
        m => {
            return Err(Error::InvalidArgument {
                what: format!("unknown padding mode {m}; use a CRT_CONV_PADDING_* constant"),
            }
            .into())
        }
    })
}

/// Writes `f(x, weight, bias)` to `out`.
///
/// # Safety
/// P1 for `x` and `weight`, NULL or P1 for `bias`, P2 for `out`/`err`.
unsafe fn with_weights(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor, &Tensor, Option<&Tensor>) -> Result<Tensor, CapiError>,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s, and P1 (or NULL) for the handles.
    unsafe {
        create(out, err, || {
            let (x, w) = (arg(x, "x")?, arg(weight, "weight")?);
            let b = opt_ref(bias).map(|b| &b.tensor);
            f(&x.tensor, &w.tensor, b)
        })
    }
}

/// PyTorch's `conv2d` of `x` (`[N, C, H, W]` or `[C, H, W]`) with `weight`
/// (`[O, C / groups, KH, KW]`) plus `bias` (`[O]`, or NULL): strides, explicit paddings and
/// dilations per spatial dim (height, width), `padding_mode` a `CRT_CONV_PADDING_*`. The
/// result has the inputs' promoted floating dtype.
///
/// # Safety
/// The header's pointer contract; `bias` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_conv2d(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    stride_h: i64,
    stride_w: i64,
    pad_h: i64,
    pad_w: i64,
    dilation_h: i64,
    dilation_w: i64,
    groups: i64,
    padding_mode: crt_conv_padding,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_weights(x, weight, bias, out, err, |x, w, b| {
            let opts = ConvOptions {
                stride: sizes([stride_h, stride_w], "stride")?,
                padding: padding(padding_mode, sizes([pad_h, pad_w], "padding")?)?,
                dilation: sizes([dilation_h, dilation_w], "dilation")?,
                groups: size(groups, "groups")?,
            };
            Ok(ops::conv2d(x, w, b, &opts)?)
        })
    }
}

/// PyTorch's `conv1d` of `x` (`[N, C, L]` or `[C, L]`) with `weight` (`[O, C / groups, K]`)
/// plus `bias` (or NULL); as `crt_tensor_conv2d` with one spatial dim.
///
/// # Safety
/// The header's pointer contract; `bias` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_conv1d(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    stride: i64,
    pad: i64,
    dilation: i64,
    groups: i64,
    padding_mode: crt_conv_padding,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_weights(x, weight, bias, out, err, |x, w, b| {
            let opts = ConvOptions {
                stride: sizes([stride], "stride")?,
                padding: padding(padding_mode, sizes([pad], "padding")?)?,
                dilation: sizes([dilation], "dilation")?,
                groups: size(groups, "groups")?,
            };
            Ok(ops::conv1d(x, w, b, &opts)?)
        })
    }
}

/// PyTorch's `conv_transpose2d` of `x` (`[N, C, H, W]` or `[C, H, W]`) with `weight`
/// (`[C, O / groups, KH, KW]`) plus `bias` (`[O]`, or NULL): strides, paddings (cropped from
/// each side of the full result), output paddings (added on the far side; each smaller than
/// the stride or the dilation) and dilations per spatial dim (height, width). The output is
/// `(H − 1)·stride − 2·pad + dilation·(KH − 1) + out_pad + 1` high (likewise wide).
///
/// # Safety
/// The header's pointer contract; `bias` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_conv_transpose2d(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    stride_h: i64,
    stride_w: i64,
    pad_h: i64,
    pad_w: i64,
    out_pad_h: i64,
    out_pad_w: i64,
    dilation_h: i64,
    dilation_w: i64,
    groups: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_weights(x, weight, bias, out, err, |x, w, b| {
            let opts = ConvTransposeOptions {
                stride: sizes([stride_h, stride_w], "stride")?,
                padding: sizes([pad_h, pad_w], "padding")?,
                output_padding: sizes([out_pad_h, out_pad_w], "output_padding")?,
                dilation: sizes([dilation_h, dilation_w], "dilation")?,
                groups: size(groups, "groups")?,
            };
            Ok(ops::conv_transpose2d(x, w, b, &opts)?)
        })
    }
}

/// PyTorch's `conv_transpose1d` of `x` (`[N, C, L]` or `[C, L]`) with `weight`
/// (`[C, O / groups, K]`) plus `bias` (or NULL); as `crt_tensor_conv_transpose2d` with one
/// spatial dim.
///
/// # Safety
/// The header's pointer contract; `bias` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_conv_transpose1d(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    stride: i64,
    pad: i64,
    out_pad: i64,
    dilation: i64,
    groups: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_weights(x, weight, bias, out, err, |x, w, b| {
            let opts = ConvTransposeOptions {
                stride: sizes([stride], "stride")?,
                padding: sizes([pad], "padding")?,
                output_padding: sizes([out_pad], "output_padding")?,
                dilation: sizes([dilation], "dilation")?,
                groups: size(groups, "groups")?,
            };
            Ok(ops::conv_transpose1d(x, w, b, &opts)?)
        })
    }
}

/// PyTorch's `max_pool2d` (values only) over the last two dims of `x` (`[N, C, H, W]` or
/// `[C, H, W]`): window, stride (0 = the window), padding (at most half the window, `-inf`)
/// and dilation per dim (height, width); `ceil_mode` non-zero rounds the output size up.
/// The result keeps `x`'s dtype.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_max_pool2d(
    x: *const crt_tensor,
    kernel_h: i64,
    kernel_w: i64,
    stride_h: i64,
    stride_w: i64,
    pad_h: i64,
    pad_w: i64,
    dilation_h: i64,
    dilation_w: i64,
    ceil_mode: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            let opts = pool_options(
                [kernel_h, kernel_w],
                [stride_h, stride_w],
                [pad_h, pad_w],
                [dilation_h, dilation_w],
                ceil_mode,
                1,
            )?;
            Ok(ops::max_pool2d(x, &opts)?)
        })
    }
}

/// PyTorch's `avg_pool2d`: as `crt_tensor_max_pool2d` without dilation, zero padding, and
/// `count_include_pad` non-zero to count padded zeros in the divisor (PyTorch's default).
/// The result has `x`'s floating dtype (integers give Float32).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_avg_pool2d(
    x: *const crt_tensor,
    kernel_h: i64,
    kernel_w: i64,
    stride_h: i64,
    stride_w: i64,
    pad_h: i64,
    pad_w: i64,
    ceil_mode: u8,
    count_include_pad: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            let opts = pool_options(
                [kernel_h, kernel_w],
                [stride_h, stride_w],
                [pad_h, pad_w],
                [1, 1],
                ceil_mode,
                count_include_pad,
            )?;
            Ok(ops::avg_pool2d(x, &opts)?)
        })
    }
}

fn pool_options(
    kernel: [i64; 2],
    stride: [i64; 2],
    pad: [i64; 2],
    dilation: [i64; 2],
    ceil_mode: u8,
    count_include_pad: u8,
) -> Result<PoolOptions, CapiError> {
    let stride = sizes(stride, "stride")?;
    Ok(PoolOptions {
        kernel: sizes(kernel, "kernel")?,
        stride: if stride == [0, 0] { Vec::new() } else { stride },
        padding: sizes(pad, "padding")?,
        dilation: sizes(dilation, "dilation")?,
        ceil_mode: ceil_mode != 0,
        count_include_pad: count_include_pad != 0,
    })
}

/// PyTorch's `adaptive_avg_pool2d` of the last two dims of `x` to `out_h`×`out_w`; the
/// result has `x`'s floating dtype.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_adaptive_avg_pool2d(
    x: *const crt_tensor,
    out_h: i64,
    out_w: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            Ok(ops::adaptive_avg_pool2d(
                x,
                &sizes([out_h, out_w], "output size")?,
            )?)
        })
    }
}

/// `x @ weight^T + bias` (PyTorch's `linear`): `weight` `[out, in]`, `bias` `[out]` or NULL.
///
/// # Safety
/// The header's pointer contract; `bias` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_linear(
    x: *const crt_tensor,
    weight: *const crt_tensor,
    bias: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_weights(x, weight, bias, out, err, |x, w, b| {
            Ok(ops::linear(x, w, b)?)
        })
    }
}

/// PyTorch's `pad`: `pads` holds `npads` values, (before, after) pairs from the last dim
/// (`left, right, top, bottom, ..`); `mode` a `CRT_PAD_*`; `value` fills `CRT_PAD_CONSTANT`.
///
/// # Safety
/// The header's pointer contract; `pads` is readable for `npads` values.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_pad(
    x: *const crt_tensor,
    pads: *const i64,
    npads: usize,
    mode: crt_pad_mode,
    value: f64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; P3 for `pads`/`npads`.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            let pads = crate::views::isz_list(pads, npads, "pads")?;
            let mode = match mode {
                CRT_PAD_CONSTANT => PadMode::Constant,
                CRT_PAD_REFLECT => PadMode::Reflect,
                CRT_PAD_REPLICATE => PadMode::Replicate,
                CRT_PAD_CIRCULAR => PadMode::Circular,
                m => {
                    return Err(Error::InvalidArgument {
                        what: format!("unknown pad mode {m}; use a CRT_PAD_* constant"),
                    }
                    .into())
                }
            };
            Ok(ops::pad(x, &pads, mode, value)?)
        })
    }
}
