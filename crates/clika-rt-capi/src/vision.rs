//! Vision and inference operations: `conv1d`/`conv2d`, `conv_transpose1d`/`conv_transpose2d`,
//! `max_pool2d`/`avg_pool2d`,
//! `adaptive_avg_pool2d`, `linear`, `pad` and `interpolate`, with PyTorch's semantics (NCHW inputs; an
//! unbatched CHW input is accepted). Sizes are `int64_t` (negative is refused); a `bias` may
//! be NULL. Results are new runtime-owned tensors written to `out`. The image entry points
//! `crt_tensor_normalize_image` and `crt_tensor_cvt_color` take uint8 frames.

use clika_rt::ops::{
    self, ConvOptions, ConvTransposeOptions, InterpolateMode, InterpolateOptions, PadMode, Padding,
    PoolOptions,
};
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
fn size(v: i64, what: &'static str) -> Result<usize, CapiError> {
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

/// A list of `len` values from C (NULL only when `len` is 0).
///
/// # Safety
/// P3 for `p`/`len`, for the lifetime `'a`.
unsafe fn floats<'a, T: clika_rt::Element>(
    p: *const T,
    len: usize,
    name: &'static str,
) -> Result<&'a [T], CapiError> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(CapiError::NullArgument(name));
    }
    if !p.is_aligned() {
        return Err(Error::Misaligned {
            ptr: p as usize,
            dtype: T::DTYPE,
            align: std::mem::align_of::<T>(),
        }
        .into());
    }
    // SAFETY: non-NULL and aligned (checked); by P3 valid for `len` reads, unwritten meanwhile.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// How `crt_tensor_interpolate` computes each output value: one of the
/// `CRT_INTERPOLATE_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_interpolate_mode = u32;
/// The element at `floor(dst * scale)` (PyTorch's `"nearest"`).
pub const CRT_INTERPOLATE_NEAREST: crt_interpolate_mode = 0;
/// The element whose centre is nearest (PyTorch's `"nearest-exact"`).
pub const CRT_INTERPOLATE_NEAREST_EXACT: crt_interpolate_mode = 1;
/// Linear along each spatial dim (PyTorch's `"linear"`, `"bilinear"`, `"trilinear"`).
pub const CRT_INTERPOLATE_LINEAR: crt_interpolate_mode = 2;
/// Cubic convolution (PyTorch's `"bicubic"`).
pub const CRT_INTERPOLATE_BICUBIC: crt_interpolate_mode = 3;
/// The mean of each output element's window (PyTorch's `"area"`).
pub const CRT_INTERPOLATE_AREA: crt_interpolate_mode = 4;

/// PyTorch's `interpolate` of the spatial dims of `x` (`[N, C, L]`, `[N, C, H, W]` or
/// `[N, C, D, H, W]`; float or uint8): give `size` (`nsize` values: one for every spatial
/// dim or one per dim) or `scale_factor` (`nscale` values), the other NULL with 0. `mode` a
/// `CRT_INTERPOLATE_*`; the flags (non-zero is true): `align_corners` and `antialias` for the
/// linear and bicubic modes only, `recompute_scale_factor` derives the step from the sizes
/// instead of the factor.
///
/// # Safety
/// The header's pointer contract; `size`/`scale_factor` readable for `nsize`/`nscale` values.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_interpolate(
    x: *const crt_tensor,
    size: *const i64,
    nsize: usize,
    scale_factor: *const f64,
    nscale: usize,
    mode: crt_interpolate_mode,
    align_corners: u8,
    antialias: u8,
    recompute_scale_factor: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; P3 for `size`/`nsize` and `scale_factor`/`nscale`.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            let size = floats(size, nsize, "size")?
                .iter()
                .map(|&v| self::size(v, "size"))
                .collect::<Result<Vec<_>, _>>()?;
            let mode = match mode {
                CRT_INTERPOLATE_NEAREST => InterpolateMode::Nearest,
                CRT_INTERPOLATE_NEAREST_EXACT => InterpolateMode::NearestExact,
                CRT_INTERPOLATE_LINEAR => InterpolateMode::Linear,
                CRT_INTERPOLATE_BICUBIC => InterpolateMode::Bicubic,
                CRT_INTERPOLATE_AREA => InterpolateMode::Area,
                m => {
                    return Err(Error::InvalidArgument {
                        what: format!(
                            "unknown interpolate mode {m}; use a CRT_INTERPOLATE_* constant"
                        ),
                    }
                    .into())
                }
            };
            let opts = InterpolateOptions {
                size,
                scale_factor: floats(scale_factor, nscale, "scale_factor")?.to_vec(),
                mode,
                align_corners: align_corners != 0,
                antialias: antialias != 0,
                recompute_scale_factor: recompute_scale_factor != 0,
            };
            Ok(ops::interpolate(x, &opts)?)
        })
    }
}

/// Fused image normalization: a uint8 frame `x`, `(H, W, C)` or `(N, H, W, C)` in any
/// strides (a pitched frame is read in place), to a new float32 `(C, H, W)` /
/// `(N, C, H, W)` tensor of `(x / 255 - mean[c]) / stddev[c]`, in one pass. `mean` holds
/// `nmean` values and `stddev` `nstd`: one per channel, or one for all; every `stddev`
/// finite and non-zero.
///
/// # Safety
/// The header's pointer contract; `mean`/`stddev` are readable for `nmean`/`nstd` floats.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_normalize_image(
    x: *const crt_tensor,
    mean: *const f32,
    nmean: usize,
    stddev: *const f32,
    nstd: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; P3 for `mean`/`nmean` and `stddev`/`nstd`.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            let mean = floats(mean, nmean, "mean")?;
            let std = floats(stddev, nstd, "stddev")?;
            Ok(ops::normalize_image(x, mean, std)?)
        })
    }
}

/// Which conversion `crt_tensor_cvt_color` does: one of the `CRT_COLOR_*` numbers (stable),
/// named as OpenCV's `COLOR_*` codes.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_color_conversion = u32;
/// `(H, W, 3)` → `(H, W, 3)`, channels reversed (also BGR → RGB).
pub const CRT_COLOR_RGB2BGR: crt_color_conversion = 0;
/// `(H, W, 3)` RGB → `(H, W)` gray (0.299 R + 0.587 G + 0.114 B, OpenCV's rounding).
pub const CRT_COLOR_RGB2GRAY: crt_color_conversion = 1;
/// `(H, W, 3)` BGR → `(H, W)` gray.
pub const CRT_COLOR_BGR2GRAY: crt_color_conversion = 2;
/// `(H * 3 / 2, W)` NV12 → `(H, W, 3)` RGB.
pub const CRT_COLOR_YUV2RGB_NV12: crt_color_conversion = 3;
/// `(H * 3 / 2, W)` NV12 → `(H, W, 3)` BGR.
pub const CRT_COLOR_YUV2BGR_NV12: crt_color_conversion = 4;
/// `(H * 3 / 2, W)` I420 → `(H, W, 3)` RGB.
pub const CRT_COLOR_YUV2RGB_I420: crt_color_conversion = 5;
/// `(H * 3 / 2, W)` I420 → `(H, W, 3)` BGR.
pub const CRT_COLOR_YUV2BGR_I420: crt_color_conversion = 6;
/// `(H, W, 2)` YUYV → `(H, W, 3)` RGB.
pub const CRT_COLOR_YUV2RGB_YUYV: crt_color_conversion = 7;
/// `(H, W, 2)` YUYV → `(H, W, 3)` BGR.
pub const CRT_COLOR_YUV2BGR_YUYV: crt_color_conversion = 8;

/// The YUV matrix of `crt_tensor_cvt_color`: one of the `CRT_YUV_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_yuv_matrix = u32;
/// ITU-R BT.601 (OpenCV's).
pub const CRT_YUV_BT601: crt_yuv_matrix = 0;
/// ITU-R BT.709.
pub const CRT_YUV_BT709: crt_yuv_matrix = 1;

/// Colour conversion of a uint8 frame like OpenCV's `cvtColor` (rounded to nearest,
/// saturated): `code` a `CRT_COLOR_*`, `matrix` a `CRT_YUV_*`, `full_range` non-zero for YUV
/// in 0..255 instead of the limited 16..235 (OpenCV's `COLOR_YUV2*` are BT.601 limited).
/// The frame may be pitched (read in place); the result is a new contiguous uint8 tensor.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_cvt_color(
    x: *const crt_tensor,
    code: crt_color_conversion,
    matrix: crt_yuv_matrix,
    full_range: i32,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    use ops::ColorConversion as C;
    // SAFETY: forwarded contract.
    unsafe {
        crate::tensor::derive(x, out, err, |x| {
            let conv = match code {
                CRT_COLOR_RGB2BGR => C::RgbToBgr,
                CRT_COLOR_RGB2GRAY => C::RgbToGray,
                CRT_COLOR_BGR2GRAY => C::BgrToGray,
                CRT_COLOR_YUV2RGB_NV12 => C::Nv12ToRgb,
                CRT_COLOR_YUV2BGR_NV12 => C::Nv12ToBgr,
                CRT_COLOR_YUV2RGB_I420 => C::I420ToRgb,
                CRT_COLOR_YUV2BGR_I420 => C::I420ToBgr,
                CRT_COLOR_YUV2RGB_YUYV => C::YuyvToRgb,
                CRT_COLOR_YUV2BGR_YUYV => C::YuyvToBgr,
                c => {
                    return Err(Error::InvalidArgument {
                        what: format!("unknown colour conversion {c}; use a CRT_COLOR_* constant"),
                    }
                    .into())
                }
            };
            let m = match matrix {
                CRT_YUV_BT601 => ops::YuvMatrix::Bt601,
                CRT_YUV_BT709 => ops::YuvMatrix::Bt709,
                m => {
                    return Err(Error::InvalidArgument {
                        what: format!("unknown YUV matrix {m}; use CRT_YUV_BT601 or CRT_YUV_BT709"),
                    }
                    .into())
                }
            };
            let r = if full_range != 0 {
                ops::YuvRange::Full
            } else {
                ops::YuvRange::Limited
            };
            Ok(ops::cvt_color(x, conv, m, r)?)
        })
    }
}
