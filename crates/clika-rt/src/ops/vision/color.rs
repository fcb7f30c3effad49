//! Colour conversion of uint8 frames (`cvt_color`, OpenCV's `cvtColor`): RGB↔BGR,
//! RGB/BGR→gray, and NV12/I420/YUYV→RGB/BGR with the BT.601 or BT.709 matrix, full or
//! limited range.

use super::{run, VisionPlan};
use crate::{DType, Error, Result, Tensor};

/// Which conversion [`cvt_color`] does (OpenCV's `COLOR_*` codes of the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorConversion {
    /// `(H, W, 3)` → `(H, W, 3)`, channels reversed (also BGR → RGB).
    RgbToBgr,
    /// `(H, W, 3)` RGB → `(H, W)` gray: `0.299 R + 0.587 G + 0.114 B` (OpenCV's fixed point).
    RgbToGray,
    /// `(H, W, 3)` BGR → `(H, W)` gray.
    BgrToGray,
    /// `(H * 3 / 2, W)` NV12 (Y plane, then interleaved U,V rows) → `(H, W, 3)` RGB.
    Nv12ToRgb,
    /// As `Nv12ToRgb`, to BGR.
    Nv12ToBgr,
    /// `(H * 3 / 2, W)` I420 (Y plane, then the U and the V plane) → `(H, W, 3)` RGB.
    I420ToRgb,
    /// As `I420ToRgb`, to BGR.
    I420ToBgr,
    /// `(H, W, 2)` YUYV (Y0 U Y1 V per pixel pair) → `(H, W, 3)` RGB.
    YuyvToRgb,
    /// As `YuyvToRgb`, to BGR.
    YuyvToBgr,
}

/// The YUV → RGB matrix of a YUV conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YuvMatrix {
    /// ITU-R BT.601 (SD video, JPEG; OpenCV's only matrix).
    Bt601,
    /// ITU-R BT.709 (HD video).
    Bt709,
}

/// The code range of a YUV conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YuvRange {
    /// Y in 16..=235, U/V in 16..=240 ("TV" range; OpenCV's).
    Limited,
    /// Y, U, V in 0..=255 ("PC"/JPEG range).
    Full,
}

/// A planned [`cvt_color`].
pub(crate) struct ColorPlan {
    /// The uint8 input, any strides.
    pub(crate) x: Tensor,
    pub(crate) conversion: ColorConversion,
    /// The output's height and width.
    pub(crate) hw: [usize; 2],
    /// Fixed-point (2^20) `[y, v→r, u→g, v→g, u→b]` coefficients and the Y offset.
    pub(crate) coef: [i32; 5],
    pub(crate) y_offset: i32,
}

/// Converts a uint8 frame between colour spaces like OpenCV's `cvtColor` (results rounded to
/// nearest, saturated; within 1 of OpenCV's). `matrix` and `range` matter only for the YUV
/// conversions: OpenCV's `COLOR_YUV2RGB_NV12`/`_I420`/`_YUYV` are `Bt601` + `Limited`. The
/// input may have any strides (a pitched frame is read in place); the result is a fresh
/// contiguous uint8 tensor.
pub fn cvt_color(
    x: &Tensor,
    conversion: ColorConversion,
    matrix: YuvMatrix,
    range: YuvRange,
) -> Result<Tensor> {
    use ColorConversion as C;
    const OP: &str = "cvt_color";
    let bad = |what: String| {
        Err(Error::InvalidArgument {
            what: format!("{OP}: {what}"),
        })
    };
    if x.dtype() != DType::UInt8 {
        return bad(format!(
            "the input must be uint8, got {}; convert it first (to_dtype(UInt8))",
            x.dtype()
        ));
    }
    let s = x.shape();
    let hw = match conversion {
        C::RgbToBgr | C::RgbToGray | C::BgrToGray => {
            if s.len() != 3 || s[2] != 3 {
                return bad(format!(
                    "{conversion:?} takes an (H, W, 3) frame, got shape {s:?}"
                ));
            }
            [s[0], s[1]]
        }
        C::Nv12ToRgb | C::Nv12ToBgr | C::I420ToRgb | C::I420ToBgr => {
            if s.len() != 2 || !s[0].is_multiple_of(3) || !s[1].is_multiple_of(2) {
                return bad(format!(
                    "{conversion:?} takes one (H * 3 / 2, W) plane with H and W even (as \
                     OpenCV), got shape {s:?}"
                ));
            }
            [s[0] / 3 * 2, s[1]]
        }
        C::YuyvToRgb | C::YuyvToBgr => {
            if s.len() != 3 || s[2] != 2 || !s[1].is_multiple_of(2) {
                return bad(format!(
                    "{conversion:?} takes an (H, W, 2) frame with W even, got shape {s:?}"
                ));
            }
            [s[0], s[1]]
        }
    };
    let (coef, y_offset) = coefficients(matrix, range);
    let plan = ColorPlan {
        x: x.clone(),
        conversion,
        hw,
        coef,
        y_offset,
    };
    run(&VisionPlan::Color(Box::new(plan)))
}

/// The fixed-point (2^20) YUV → RGB coefficients `[y, v→r, u→g, v→g, u→b]` and Y offset.
fn coefficients(matrix: YuvMatrix, range: YuvRange) -> ([i32; 5], i32) {
    if (matrix, range) == (YuvMatrix::Bt601, YuvRange::Limited) {
        // OpenCV's own constants (ITUR_BT_601_*), so its conversions are matched exactly.
        return ([1220542, 1673527, -409993, -852492, 2116026], 16);
    }
    let (kr, kb) = match matrix {
        YuvMatrix::Bt601 => (0.299f64, 0.114f64),
        YuvMatrix::Bt709 => (0.2126, 0.0722),
    };
    let kg = 1.0 - kr - kb;
    let (ys, cs, off) = match range {
        YuvRange::Limited => (255.0 / 219.0, 255.0 / 224.0, 16),
        YuvRange::Full => (1.0, 1.0, 0),
    };
    let fx = |v: f64| (v * f64::from(1 << 20)).round() as i32;
    (
        [
            fx(ys),
            fx(2.0 * (1.0 - kr) * cs),
            fx(-2.0 * kb * (1.0 - kb) / kg * cs),
            fx(-2.0 * kr * (1.0 - kr) / kg * cs),
            fx(2.0 * (1.0 - kb) * cs),
        ],
        off,
    )
}
