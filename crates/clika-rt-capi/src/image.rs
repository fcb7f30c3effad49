//! `interpolate` and the image entry points: `crt_tensor_interpolate` (PyTorch's semantics,
//! float or uint8), `crt_tensor_normalize_image` and `crt_tensor_cvt_color` (uint8 frames).
//! Results are new runtime-owned tensors written to `out`.

use clika_rt::ops::{self, InterpolateMode, InterpolateOptions};
use clika_rt::Error;

use crate::error::{crt_error, crt_status, CapiError};
use crate::tensor::crt_tensor;
use crate::vision;

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
                .map(|&v| vision::size(v, "size"))
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
