//! The CPU's image kernels: `normalize_image` reads each uint8 frame row once, in place
//! (any strides, so pitched frames need no copy), and writes the row of every channel plane
//! through a per-channel 256-entry table; `cvt_color` reads each output row's source pixels
//! once in integer fixed point (OpenCV's rounding). Rows run in parallel on the runtime's pool.

use super::iter::{for_each_item, SendPtr};
use crate::ops::vision::{ColorConversion, ColorPlan, NormalizePlan};
use crate::{DType, Device, Result, Tensor};

/// A planned `normalize_image` into a fresh float32 `[N, C, H, W]` tensor.
pub(crate) fn normalize(p: &NormalizePlan) -> Result<Tensor> {
    let x = &p.x;
    let (n, h, w, c) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let out = Tensor::alloc(&[n, c, h, w], DType::Float32, Device::cpu(), false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let [sn, sh, sw, sc] = [
        x.strides()[0],
        x.strides()[1],
        x.strides()[2],
        x.strides()[3],
    ];
    let src = SendPtr(x.const_data_ptr().cast_mut());
    let dst = SendPtr(out.data_ptr().cast::<f32>());
    let lut = &p.lut[..];
    let row = |r: usize| {
        let (ni, y) = (r / h, r % h);
        let base = ni as isize * sn + y as isize * sh;
        // SAFETY: `(ni, y)` is inside the shape, so `base + xi * sw + ci * sc` for
        // `xi < w`, `ci < c` is the offset of an element of `x`, whose storage (held by the
        // plan) outlives the call and which nobody writes meanwhile (the op's contract).
        let at = |xi: usize, ci: usize| unsafe {
            *src.get()
                .cast_const()
                .offset(base + xi as isize * sw + ci as isize * sc)
        };
        for ci in 0..c {
            // SAFETY: `out` is fresh, contiguous `[n, c, h, w]` float32; this row of plane
            // `(ni, ci)` is written by this call of `row` alone (each `r` runs once), and
            // `out` outlives the loop.
            let plane_row = unsafe {
                std::slice::from_raw_parts_mut(dst.get().add(((ni * c + ci) * h + y) * w), w)
            };
            let table = &lut[ci * 256..][..256];
            for (xi, o) in plane_row.iter_mut().enumerate() {
                *o = table[usize::from(at(xi, ci))];
            }
        }
    };
    for_each_item(n * h, w * c, row);
    Ok(out)
}

/// A planned `cvt_color` into a fresh contiguous uint8 tensor.
pub(crate) fn cvt_color(p: &ColorPlan) -> Result<Tensor> {
    use ColorConversion as C;
    let [h, w] = p.hw;
    let gray = matches!(p.conversion, C::RgbToGray | C::BgrToGray);
    let shape: &[usize] = if gray { &[h, w] } else { &[h, w, 3] };
    let out = Tensor::alloc(shape, DType::UInt8, Device::cpu(), false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let st = p.x.strides();
    let (s0, s1, s2) = (st[0], st[1], st.get(2).copied().unwrap_or(0));
    let src = SendPtr(p.x.const_data_ptr().cast_mut());
    let dst = SendPtr(out.data_ptr());
    let oc = if gray { 1 } else { 3 };
    let [cy, cvr, cug, cvg, cub] = p.coef;
    let yoff = p.y_offset;
    let bgr = matches!(p.conversion, C::Nv12ToBgr | C::I420ToBgr | C::YuyvToBgr);
    let row = |y: usize| {
        // SAFETY: every (r, c, k) passed below is inside the input's shape (the plan checked
        // the shape against the conversion), so the offset names an element of the input,
        // whose storage the plan holds and nobody writes during the call.
        let at = |r: usize, c: usize, k: usize| unsafe {
            *src.get()
                .cast_const()
                .offset(r as isize * s0 + c as isize * s1 + k as isize * s2)
        };
        // SAFETY: `out` is fresh and contiguous; row `y` (`w * oc` bytes) is written by this
        // call of `row` alone, and `out` outlives the loop.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.get().add(y * w * oc), w * oc) };
        let rgb = |yv: u8, u: u8, v: u8| -> [u8; 3] {
            let yy = (i32::from(yv) - yoff).max(0) * cy;
            let (u, v) = (i32::from(u) - 128, i32::from(v) - 128);
            let f = |t: i32| ((t + (1 << 19)) >> 20).clamp(0, 255) as u8;
            let (r, g, b) = (f(yy + cvr * v), f(yy + cug * u + cvg * v), f(yy + cub * u));
            if bgr {
                [b, g, r]
            } else {
                [r, g, b]
            }
        };
        for x in 0..w {
            match p.conversion {
                C::RgbToBgr => {
                    for k in 0..3 {
                        o[x * 3 + k] = at(y, x, 2 - k);
                    }
                }
                C::RgbToGray | C::BgrToGray => {
                    let (r, b) = if p.conversion == C::RgbToGray {
                        (0, 2)
                    } else {
                        (2, 0)
                    };
                    let v = u32::from(at(y, x, r)) * 4899
                        + u32::from(at(y, x, 1)) * 9617
                        + u32::from(at(y, x, b)) * 1868;
                    o[x] = ((v + (1 << 13)) >> 14) as u8;
                }
                C::Nv12ToRgb | C::Nv12ToBgr => {
                    let (cr, cc) = (h + y / 2, x / 2 * 2);
                    let px = rgb(at(y, x, 0), at(cr, cc, 0), at(cr, cc + 1, 0));
                    o[x * 3..x * 3 + 3].copy_from_slice(&px);
                }
                C::I420ToRgb | C::I420ToBgr => {
                    // The chroma planes as half-rows of w / 2: U's k-th is half-row k, V's
                    // half-row h / 2 + k (OpenCV's reading of a pitched I420 plane).
                    let half = |k: usize| (h + k / 2, (k % 2) * (w / 2) + x / 2);
                    let ((ur, uc), (vr, vc)) = (half(y / 2), half(h / 2 + y / 2));
                    let px = rgb(at(y, x, 0), at(ur, uc, 0), at(vr, vc, 0));
                    o[x * 3..x * 3 + 3].copy_from_slice(&px);
                }
                C::YuyvToRgb | C::YuyvToBgr => {
                    let c0 = x / 2 * 2;
                    let px = rgb(at(y, x, 0), at(y, c0, 1), at(y, c0 + 1, 1));
                    o[x * 3..x * 3 + 3].copy_from_slice(&px);
                }
            }
        }
    };
    for_each_item(h, w * 3, row);
    Ok(out)
}
