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

/// Input row `r` of the uint8 frame `x` (`[rows, cols]` or `[rows, cols, k]`) as contiguous
/// bytes: the row itself when its pixels are packed, else gathered into `buf`. Nobody writes
/// `x` during a kernel (the ops' contract).
fn input_row<'a>(x: &'a Tensor, r: usize, buf: &'a mut Vec<u8>) -> &'a [u8] {
    assert!(r < x.shape()[0], "cvt_color: row {r} outside the frame");
    let (cols, k) = (x.shape()[1], x.shape().get(2).copied().unwrap_or(1));
    let st = x.strides();
    let (s0, s1, s2) = (st[0], st[1], st.get(2).copied().unwrap_or(1));
    let base = x.const_data_ptr().wrapping_offset(r as isize * s0);
    if s1 == k as isize && (k == 1 || s2 == 1) {
        // SAFETY: row `r` is inside the shape (checked), so its `cols * k` bytes, packed
        // from `base`, are elements of `x` (L3).
        return unsafe { std::slice::from_raw_parts(base, cols * k) };
    }
    buf.clear();
    buf.extend(
        (0..cols)
            .flat_map(|c| (0..k).map(move |j| (c, j)))
            .map(|(c, j)| {
                // SAFETY: `(r, c, j)` is inside `x`'s shape, so the offset names one of its bytes (L3).
                unsafe { *base.offset(c as isize * s1 + j as isize * s2) }
            }),
    );
    buf
}

/// YUV → RGB (`BGR`: blue first) of one row's pixel pairs, which share their chroma: each
/// `[y0, y1, u, v]` fills 6 output bytes, in OpenCV's 2^20 fixed point. The pairs come from
/// fixed-size chunks (`as_chunks`), so the loop has no bounds checks and vectorises.
#[inline(always)]
fn yuv_pairs<const BGR: bool>(
    out: &mut [u8],
    pairs: impl Iterator<Item = [u8; 4]>,
    coef: [i32; 5],
    y_offset: i32,
) {
    let [cy, cvr, cug, cvg, cub] = coef;
    const HALF: i32 = 1 << 19;
    let (ri, bi) = if BGR { (2, 0) } else { (0, 2) };
    let (out, _) = out.as_chunks_mut::<6>();
    for (o, [y0, y1, u, v]) in out.iter_mut().zip(pairs) {
        let (u, v) = (i32::from(u) - 128, i32::from(v) - 128);
        let (cr, cg, cb) = (cvr * v + HALF, cug * u + cvg * v + HALF, cub * u + HALF);
        let f = |t: i32| (t >> 20).clamp(0, 255) as u8;
        for (k, yv) in [y0, y1].into_iter().enumerate() {
            let yy = (i32::from(yv) - y_offset).max(0) * cy;
            o[3 * k + ri] = f(yy + cr);
            o[3 * k + 1] = f(yy + cg);
            o[3 * k + bi] = f(yy + cb);
        }
    }
}

/// [`yuv_pairs`] with the channel order chosen once per row.
#[inline(always)]
fn yuv_row(
    out: &mut [u8],
    pairs: impl Iterator<Item = [u8; 4]>,
    bgr: bool,
    coef: [i32; 5],
    y_offset: i32,
) {
    if bgr {
        yuv_pairs::<true>(out, pairs, coef, y_offset)
    } else {
        yuv_pairs::<false>(out, pairs, coef, y_offset)
    }
}

/// One row from a Y row and an interleaved UV row (NV12's chroma layout).
#[inline(always)]
fn nv12_row(out: &mut [u8], ys: &[u8], uv: &[u8], bgr: bool, coef: [i32; 5], y_offset: i32) {
    let (ys, uv) = (ys.as_chunks::<2>().0, uv.as_chunks::<2>().0);
    let it = ys.iter().zip(uv).map(|(&[y0, y1], &[u, v])| [y0, y1, u, v]);
    yuv_row(out, it, bgr, coef, y_offset);
}

/// A planned `cvt_color` into a fresh contiguous uint8 tensor. Each output row reads its
/// input rows as contiguous bytes (in place when packed, else gathered once), so the loops
/// below run over slices whatever the input's strides; YUV pixels go in pairs that share
/// their chroma.
pub(crate) fn cvt_color(p: &ColorPlan) -> Result<Tensor> {
    use ColorConversion as C;
    let [h, w] = p.hw;
    let gray = matches!(p.conversion, C::RgbToGray | C::BgrToGray);
    let shape: &[usize] = if gray { &[h, w] } else { &[h, w, 3] };
    let out = Tensor::alloc(shape, DType::UInt8, Device::cpu(), false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let x = &p.x;
    let dst = SendPtr(out.data_ptr());
    let oc = if gray { 1 } else { 3 };
    let (coef, yoff) = (p.coef, p.y_offset);
    let bgr = matches!(p.conversion, C::Nv12ToBgr | C::I420ToBgr | C::YuyvToBgr);
    let row = |y: usize| {
        // SAFETY: `out` is fresh and contiguous; row `y` (`w * oc` bytes) is written by this
        // call of `row` alone, and `out` outlives the loop.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.get().add(y * w * oc), w * oc) };
        let (mut b0, mut b1, mut b2) = (Vec::new(), Vec::new(), Vec::new());
        // The rows read below are inside the input's shape: the plan checked it against the
        // conversion.
        match p.conversion {
            C::RgbToBgr => {
                let i = input_row(x, y, &mut b0);
                for (o, &[r, g, b]) in o
                    .as_chunks_mut::<3>()
                    .0
                    .iter_mut()
                    .zip(i.as_chunks::<3>().0)
                {
                    *o = [b, g, r];
                }
            }
            C::RgbToGray | C::BgrToGray => {
                let (r, b) = if p.conversion == C::RgbToGray {
                    (0, 2)
                } else {
                    (2, 0)
                };
                let i = input_row(x, y, &mut b0);
                for (o, i) in o.iter_mut().zip(i.as_chunks::<3>().0) {
                    let v =
                        u32::from(i[r]) * 4899 + u32::from(i[1]) * 9617 + u32::from(i[b]) * 1868;
                    *o = ((v + (1 << 13)) >> 14) as u8;
                }
            }
            C::Nv12ToRgb | C::Nv12ToBgr => {
                let ys = input_row(x, y, &mut b0);
                let uv = input_row(x, h + y / 2, &mut b1);
                nv12_row(o, ys, uv, bgr, coef, yoff);
            }
            C::I420ToRgb | C::I420ToBgr => {
                // The chroma planes as half-rows of w / 2: U's k-th is half-row k, V's
                // half-row h / 2 + k (OpenCV's reading of a pitched I420 plane).
                let half = |k: usize| (h + k / 2, (k % 2) * (w / 2));
                let ((ur, uc), (vr, vc)) = (half(y / 2), half(h / 2 + y / 2));
                let ys = input_row(x, y, &mut b0);
                let u = &input_row(x, ur, &mut b1)[uc..uc + w / 2];
                let v = &input_row(x, vr, &mut b2)[vc..vc + w / 2];
                let it = ys.as_chunks::<2>().0.iter().zip(u.iter().zip(v));
                let it = it.map(|(&[y0, y1], (&u, &v))| [y0, y1, u, v]);
                yuv_row(o, it, bgr, coef, yoff);
            }
            C::YuyvToRgb | C::YuyvToBgr => {
                let q = input_row(x, y, &mut b0);
                // Split into a Y row and an interleaved UV row (NV12's layout), so the
                // conversion runs the loop that vectorises.
                b1.resize(w, 0);
                b2.resize(w, 0);
                let planes = b1.iter_mut().zip(b2.iter_mut());
                for ((yd, cd), &[yv, c]) in planes.zip(q.as_chunks::<2>().0) {
                    (*yd, *cd) = (yv, c);
                }
                nv12_row(o, &b1, &b2, bgr, coef, yoff);
            }
        }
    };
    for_each_item(h, w * 3, row);
    Ok(out)
}
