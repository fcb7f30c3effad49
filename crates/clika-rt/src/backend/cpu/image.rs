//! The CPU's image kernels: `normalize_image` reads each uint8 frame row once, in place
//! (any strides, so pitched frames need no copy), and writes the row of every channel plane
//! through a per-channel 256-entry table; `cvt_color` reads each output row's source pixels
//! once in integer fixed point (OpenCV's rounding). Rows run in parallel on the runtime's pool.

use super::iter::{for_each_item, SendPtr};
use super::vmath::{dispatch, SimdBody};
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

/// The chroma of one row of YUV pixel pairs.
#[derive(Clone, Copy)]
enum Chroma<'a> {
    /// Interleaved U, V bytes, one pair per pixel pair (NV12's layout).
    Pairs(&'a [u8]),
    /// A U row and a V row, one byte each per pixel pair (I420's layout).
    Planes(&'a [u8], &'a [u8]),
    /// Inside the "Y" rows, which are YUYV: `Y0 U Y1 V` per pixel pair.
    Packed,
}

/// `N` output rows of a YUV conversion that share their chroma (NV12 and I420 rows go in
/// pairs, so the chroma terms are computed once for both): each `(out, ys)` is an output
/// row (3 bytes a pixel) and its Y bytes; converted in blocks of 32 pixels under AVX2, the
/// rest by [`yuv_row`].
struct YuvRows<'a, const N: usize> {
    rows: [(&'a mut [u8], &'a [u8]); N],
    chroma: Chroma<'a>,
    bgr: bool,
    coef: [i32; 5],
    y_offset: i32,
}

impl<const N: usize> YuvRows<'_, N> {
    /// The pixels every row and the chroma cover (even).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn width(&self) -> usize {
        let (pairs, bytes) = match self.chroma {
            Chroma::Pairs(uv) => (uv.len() / 2, 1),
            Chroma::Planes(u, v) => (u.len().min(v.len()), 1),
            Chroma::Packed => (usize::MAX / 2, 2),
        };
        let w = self.rows.iter();
        w.fold(2 * pairs, |w, (out, ys)| {
            w.min(out.len() / 3).min(ys.len() / bytes)
        }) & !1
    }

    /// The rows from pixel `from` (even) on, pair by pair.
    #[inline(always)]
    fn rest(self, from: usize) {
        let (bgr, coef, yoff) = (self.bgr, self.coef, self.y_offset);
        for (out, ys) in self.rows {
            let out = &mut out[3 * from..];
            if let Chroma::Packed = self.chroma {
                let q = ys[2 * from..].as_chunks::<4>().0;
                let it = q.iter().map(|&[y0, u, y1, v]| [y0, y1, u, v]);
                yuv_row(out, it, bgr, coef, yoff);
                continue;
            }
            let ys = ys[from..].as_chunks::<2>().0;
            match self.chroma {
                Chroma::Packed => {}
                Chroma::Pairs(uv) => {
                    let uv = uv[from..].as_chunks::<2>().0;
                    let it = ys.iter().zip(uv).map(|(&[y0, y1], &[u, v])| [y0, y1, u, v]);
                    yuv_row(out, it, bgr, coef, yoff);
                }
                Chroma::Planes(u, v) => {
                    let (u, v) = (&u[from / 2..], &v[from / 2..]);
                    let it = ys.iter().zip(u.iter().zip(v));
                    let it = it.map(|(&[y0, y1], (&u, &v))| [y0, y1, u, v]);
                    yuv_row(out, it, bgr, coef, yoff);
                }
            }
        }
    }
}

impl<const N: usize> SimdBody for YuvRows<'_, N> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        self.rest(0);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v3(mut self, simd: pulp::x86::V3) {
        let done = yuv_v3::blocks(simd, &mut self, 0);
        self.rest(done);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v4(mut self, simd: pulp::x86::V4) {
        let done = yuv_v4::blocks(simd, &mut self, 0);
        let done = yuv_v3::blocks(*simd, &mut self, done);
        self.rest(done);
    }
}

/// YUV → RGB in AVX2, 32 pixels a step, in the same fixed point as [`yuv_pairs`] (so the
/// results are identical): the products in 32-bit lanes, each pair's chroma terms
/// duplicated to its two pixels by a permute, the sums shifted and saturated to bytes by
/// two packs, and the three channel vectors interleaved into 96 output bytes by byte
/// shuffles. (The scalar loop, which LLVM left mostly scalar, ran 4.5× slower than
/// OpenCV's `cvtColor`.)
#[cfg(target_arch = "x86_64")]
mod yuv_v3 {
    use super::{Chroma, YuvRows};
    use pulp::x86::V3;
    use std::arch::x86_64::__m256i;

    /// `MASKS[k][c]`: the `vpshufb` control that places channel `c` (in output order) of 16
    /// pixels at its bytes of output vector `k` (bytes `16 k..16 k + 16` of their 48
    /// interleaved bytes); 0x80 writes a zero, to be or-ed with the other channels. The
    /// same in both 128-bit lanes (each lane holds 16 pixels).
    pub(super) const MASKS: [[[u8; 32]; 3]; 3] = {
        let mut m = [[[0x80u8; 32]; 3]; 3];
        let mut k = 0;
        while k < 3 {
            let mut i = 0;
            while i < 16 {
                let (px, c) = ((16 * k + i) / 3, (16 * k + i) % 3);
                m[k][c][i] = px as u8;
                m[k][c][16 + i] = px as u8;
                i += 1;
            }
            k += 1;
        }
        m
    };

    /// Converts the rows' whole blocks of 32 pixels from pixel `from` (even) on; returns
    /// where they end. No closures or array `map`s in here: they were compiled out of line,
    /// without the dispatch's target features, every intrinsic a call (4.5× slower than the
    /// scalar loop).
    #[inline(always)]
    pub(super) fn blocks<const N: usize>(
        simd: V3,
        rows: &mut YuvRows<'_, N>,
        from: usize,
    ) -> usize {
        let (a, a2) = (simd.avx, simd.avx2);
        let n = rows.width().saturating_sub(from) / 32;
        let [cy, cvr, cug, cvg, cub] = rows.coef;
        let (cy, cvr, cug) = (
            a._mm256_set1_epi32(cy),
            a._mm256_set1_epi32(cvr),
            a._mm256_set1_epi32(cug),
        );
        let (cvg, cub) = (a._mm256_set1_epi32(cvg), a._mm256_set1_epi32(cub));
        let (half, c128) = (a._mm256_set1_epi32(1 << 19), a._mm256_set1_epi32(128));
        let (yoff, low16) = (
            a._mm256_set1_epi32(rows.y_offset),
            a._mm256_set1_epi32(0xFFFF),
        );
        let zero = a._mm256_setzero_si256();
        let dup_lo: __m256i = pulp::cast([0i32, 0, 1, 1, 2, 2, 3, 3]);
        let dup_hi: __m256i = pulp::cast([4i32, 4, 5, 5, 6, 6, 7, 7]);
        let order: __m256i = pulp::cast([0i32, 4, 1, 5, 2, 6, 3, 7]);
        // YUYV: the coefficients of U (even lanes) and V (odd lanes) for R, G and B.
        let packed = matches!(rows.chroma, Chroma::Packed);
        let alt = [
            a2._mm256_blend_epi32::<0xAA>(zero, cvr),
            a2._mm256_blend_epi32::<0xAA>(cug, cvg),
            a2._mm256_blend_epi32::<0xAA>(cub, zero),
        ];
        let mut masks = [[zero; 3]; 3];
        for (m, k) in masks.iter_mut().zip(&MASKS) {
            for (m, k) in m.iter_mut().zip(k) {
                *m = pulp::cast(*k);
            }
        }
        for b in 0..n {
            // Each channel's chroma term for pixels 32 b + 8 j..+ 8, j = 0..4.
            let mut terms = [[zero; 4]; 3];
            for h in 0..2 {
                let p = (from + 32 * b) / 2 + 8 * h;
                // SAFETY: pairs `p..p + 8` are inside the chroma (`2 p + 16 <= from + 32 n`,
                // which is at most `width()`):
                // 16 bytes from `2 p` of `uv`, 8 from `p` of `u` and of `v`.
                let (u, v) = unsafe {
                    match rows.chroma {
                        Chroma::Pairs(uv) => {
                            let x = simd.sse2._mm_loadu_si128(uv.as_ptr().add(2 * p).cast());
                            // 32-bit lanes of u | v << 16.
                            let x = a2._mm256_cvtepu8_epi16(x);
                            (a2._mm256_and_si256(x, low16), a2._mm256_srli_epi32::<16>(x))
                        }
                        Chroma::Planes(u, v) => {
                            let u = simd.sse2._mm_loadl_epi64(u.as_ptr().add(p).cast());
                            let v = simd.sse2._mm_loadl_epi64(v.as_ptr().add(p).cast());
                            (a2._mm256_cvtepu8_epi32(u), a2._mm256_cvtepu8_epi32(v))
                        }
                        // Each row's own, below.
                        Chroma::Packed => break,
                    }
                };
                let (u, v) = (a2._mm256_sub_epi32(u, c128), a2._mm256_sub_epi32(v, c128));
                let cr = a2._mm256_add_epi32(a2._mm256_mullo_epi32(v, cvr), half);
                let cg = a2
                    ._mm256_add_epi32(a2._mm256_mullo_epi32(u, cug), a2._mm256_mullo_epi32(v, cvg));
                let cg = a2._mm256_add_epi32(cg, half);
                let cb = a2._mm256_add_epi32(a2._mm256_mullo_epi32(u, cub), half);
                for (t, c) in terms.iter_mut().zip([cr, cg, cb]) {
                    t[2 * h] = a2._mm256_permutevar8x32_epi32(c, dup_lo);
                    t[2 * h + 1] = a2._mm256_permutevar8x32_epi32(c, dup_hi);
                }
            }
            for (out, ys) in &mut rows.rows {
                let (ys, out) = (ys.as_ptr(), out.as_mut_ptr());
                let mut yy = [zero; 4];
                for (j, yy) in yy.iter_mut().enumerate() {
                    let px = from + 32 * b + 8 * j;
                    let y = if packed {
                        let q = ys.wrapping_add(2 * px);
                        // SAFETY: bytes `2 px..+ 16` are inside the YUYV row (`from + 32 n <=
                        // width()`, 2 bytes a pixel).
                        let q = unsafe { simd.sse2._mm_loadu_si128(q.cast()) };
                        // 32-bit lanes of y | c << 16: c is U for even pixels, V for odd.
                        let q = a2._mm256_cvtepu8_epi16(q);
                        let c = a2._mm256_sub_epi32(a2._mm256_srli_epi32::<16>(q), c128);
                        for (t, k) in terms.iter_mut().zip(alt) {
                            // A pixel's term: its lane's product plus its pair partner's.
                            let p = a2._mm256_mullo_epi32(c, k);
                            let p = a2._mm256_add_epi32(p, a2._mm256_shuffle_epi32::<0xB1>(p));
                            t[j] = a2._mm256_add_epi32(p, half);
                        }
                        a2._mm256_and_si256(q, low16)
                    } else {
                        // SAFETY: pixels `px..+ 8` are inside `ys` (`from + 32 n <= width()`).
                        let y = unsafe { simd.sse2._mm_loadl_epi64(ys.add(px).cast()) };
                        a2._mm256_cvtepu8_epi32(y)
                    };
                    let y = a2._mm256_sub_epi32(y, yoff);
                    *yy = a2._mm256_mullo_epi32(a2._mm256_max_epi32(y, zero), cy);
                }
                let r = channel(simd, &yy, &terms[0], order);
                let g = channel(simd, &yy, &terms[1], order);
                let bl = channel(simd, &yy, &terms[2], order);
                let o = if rows.bgr { [bl, g, r] } else { [r, g, bl] };
                let mut v = [zero; 3];
                for (v, m) in v.iter_mut().zip(&masks) {
                    let x = a2._mm256_or_si256(
                        a2._mm256_shuffle_epi8(o[0], m[0]),
                        a2._mm256_shuffle_epi8(o[1], m[1]),
                    );
                    *v = a2._mm256_or_si256(x, a2._mm256_shuffle_epi8(o[2], m[2]));
                }
                // Lane 0 of each holds pixels 0..16's bytes, lane 1 pixels 16..32's.
                let s = [
                    a2._mm256_permute2x128_si256::<0x20>(v[0], v[1]),
                    a2._mm256_permute2x128_si256::<0x30>(v[2], v[0]),
                    a2._mm256_permute2x128_si256::<0x31>(v[1], v[2]),
                ];
                for (j, s) in s.into_iter().enumerate() {
                    let o = out.wrapping_add(3 * (from + 32 * b) + 32 * j);
                    // SAFETY: bytes `3 (from + 32 b) + 32 j..+ 32` are inside `out` (`from + 32 n
                    // <= width()`, 3 bytes a pixel).
                    unsafe { a._mm256_storeu_si256(o.cast(), s) };
                }
            }
        }
        from + 32 * n
    }

    /// One channel's 32 bytes in pixel order: `(yy + t) >> 20` saturated by the packs (32
    /// → 16 bits signed, 16 → 8 unsigned), whose lane interleaving `order` undoes.
    #[inline(always)]
    fn channel(simd: V3, yy: &[__m256i; 4], t: &[__m256i; 4], order: __m256i) -> __m256i {
        let a2 = simd.avx2;
        let s0 = a2._mm256_srai_epi32::<20>(a2._mm256_add_epi32(yy[0], t[0]));
        let s1 = a2._mm256_srai_epi32::<20>(a2._mm256_add_epi32(yy[1], t[1]));
        let s2 = a2._mm256_srai_epi32::<20>(a2._mm256_add_epi32(yy[2], t[2]));
        let s3 = a2._mm256_srai_epi32::<20>(a2._mm256_add_epi32(yy[3], t[3]));
        let lo = a2._mm256_packs_epi32(s0, s1);
        let hi = a2._mm256_packs_epi32(s2, s3);
        a2._mm256_permutevar8x32_epi32(a2._mm256_packus_epi16(lo, hi), order)
    }
}

/// [`yuv_v3`] in AVX-512, 64 pixels a step: the same steps on vectors twice as wide (the
/// 128-bit lanes of the packs and byte shuffles hold 16 pixels each, as there), and the
/// 48-byte groups of the four lanes put in order by two-source qword permutes.
#[cfg(target_arch = "x86_64")]
mod yuv_v4 {
    use super::{Chroma, YuvRows};
    use pulp::x86::V4;
    use std::arch::x86_64::__m512i;

    /// [`yuv_v3::MASKS`](super::yuv_v3::MASKS) in all four 128-bit lanes.
    const MASKS: [[[u8; 64]; 3]; 3] = {
        let m3 = super::yuv_v3::MASKS;
        let mut m = [[[0u8; 64]; 3]; 3];
        let mut k = 0;
        while k < 9 {
            let mut i = 0;
            while i < 64 {
                m[k / 3][k % 3][i] = m3[k / 3][k % 3][i % 16];
                i += 1;
            }
            k += 1;
        }
        m
    };

    /// Converts the rows' whole blocks of 64 pixels from pixel `from` (even) on; returns
    /// where they end.
    #[inline(always)]
    pub(super) fn blocks<const N: usize>(
        simd: V4,
        rows: &mut YuvRows<'_, N>,
        from: usize,
    ) -> usize {
        let (f, bw) = (simd.avx512f, simd.avx512bw);
        let n = rows.width().saturating_sub(from) / 64;
        let [cy, cvr, cug, cvg, cub] = rows.coef;
        let (cy, cvr, cug) = (
            f._mm512_set1_epi32(cy),
            f._mm512_set1_epi32(cvr),
            f._mm512_set1_epi32(cug),
        );
        let (cvg, cub) = (f._mm512_set1_epi32(cvg), f._mm512_set1_epi32(cub));
        let (half, c128) = (f._mm512_set1_epi32(1 << 19), f._mm512_set1_epi32(128));
        let (yoff, low16) = (
            f._mm512_set1_epi32(rows.y_offset),
            f._mm512_set1_epi32(0xFFFF),
        );
        let zero = f._mm512_setzero_si512();
        let dup_lo: __m512i = pulp::cast([0i32, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
        let dup_hi: __m512i = pulp::cast([
            8i32, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15,
        ]);
        // After the packs, dword `4 l + m` holds pixels `16 m + 4 l..+ 4`.
        let order: __m512i = pulp::cast([0i32, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
        // YUYV: the coefficients of U (even lanes) and V (odd lanes) for R, G and B.
        let packed = matches!(rows.chroma, Chroma::Packed);
        let alt = [
            f._mm512_mask_blend_epi32(0xAAAA, zero, cvr),
            f._mm512_mask_blend_epi32(0xAAAA, cug, cvg),
            f._mm512_mask_blend_epi32(0xAAAA, cub, zero),
        ];
        let mut masks = [[zero; 3]; 3];
        for (m, k) in masks.iter_mut().zip(&MASKS) {
            for (m, k) in m.iter_mut().zip(k) {
                *m = pulp::cast(*k);
            }
        }
        // Qword indices (8 + i: the second operand's) that gather the 12 lanes `v[k].l[g]`
        // (output chunk 3 g + k) into three stores: two permutes each.
        let t0 = (
            pulp::cast::<[i64; 8], __m512i>([0, 1, 8, 9, 0, 1, 2, 3]),
            pulp::cast::<[i64; 8], __m512i>([0, 1, 2, 3, 8, 9, 6, 7]),
        );
        let t1 = (
            pulp::cast::<[i64; 8], __m512i>([2, 3, 2, 3, 12, 13, 4, 5]),
            pulp::cast::<[i64; 8], __m512i>([0, 1, 10, 11, 4, 5, 6, 7]),
        );
        let t2 = (
            pulp::cast::<[i64; 8], __m512i>([4, 5, 14, 15, 6, 7, 6, 7]),
            pulp::cast::<[i64; 8], __m512i>([0, 1, 2, 3, 14, 15, 6, 7]),
        );
        for b in 0..n {
            let px = from + 64 * b;
            // Each channel's chroma term for pixels px + 16 j..+ 16, j = 0..4.
            let mut terms = [[zero; 4]; 3];
            for h in 0..2 {
                let p = px / 2 + 16 * h;
                // SAFETY: pairs `p..p + 16` are inside the chroma (`2 p + 32 <= from + 64 n`,
                // at most `width()`): 32 bytes from `2 p` of `uv`, 16 from `p` of `u`, `v`.
                let (u, v) = unsafe {
                    match rows.chroma {
                        Chroma::Pairs(uv) => {
                            let x = simd.avx._mm256_loadu_si256(uv.as_ptr().add(2 * p).cast());
                            // 32-bit lanes of u | v << 16.
                            let x = bw._mm512_cvtepu8_epi16(x);
                            (f._mm512_and_si512(x, low16), f._mm512_srli_epi32::<16>(x))
                        }
                        Chroma::Planes(u, v) => {
                            let u = simd.sse2._mm_loadu_si128(u.as_ptr().add(p).cast());
                            let v = simd.sse2._mm_loadu_si128(v.as_ptr().add(p).cast());
                            (f._mm512_cvtepu8_epi32(u), f._mm512_cvtepu8_epi32(v))
                        }
                        // Each row's own, below.
                        Chroma::Packed => break,
                    }
                };
                let (u, v) = (f._mm512_sub_epi32(u, c128), f._mm512_sub_epi32(v, c128));
                let cr = f._mm512_add_epi32(f._mm512_mullo_epi32(v, cvr), half);
                let cg =
                    f._mm512_add_epi32(f._mm512_mullo_epi32(u, cug), f._mm512_mullo_epi32(v, cvg));
                let cg = f._mm512_add_epi32(cg, half);
                let cb = f._mm512_add_epi32(f._mm512_mullo_epi32(u, cub), half);
                for (t, c) in terms.iter_mut().zip([cr, cg, cb]) {
                    t[2 * h] = f._mm512_permutexvar_epi32(dup_lo, c);
                    t[2 * h + 1] = f._mm512_permutexvar_epi32(dup_hi, c);
                }
            }
            for (out, ys) in &mut rows.rows {
                let (ys, out) = (ys.as_ptr(), out.as_mut_ptr());
                let mut yy = [zero; 4];
                for (j, yy) in yy.iter_mut().enumerate() {
                    let pj = px + 16 * j;
                    let y = if packed {
                        let q = ys.wrapping_add(2 * pj);
                        // SAFETY: bytes `2 pj..+ 32` are inside the YUYV row (`from + 64 n <=
                        // width()`, 2 bytes a pixel).
                        let q = unsafe { simd.avx._mm256_loadu_si256(q.cast()) };
                        // 32-bit lanes of y | c << 16: c is U for even pixels, V for odd.
                        let q = bw._mm512_cvtepu8_epi16(q);
                        let c = f._mm512_sub_epi32(f._mm512_srli_epi32::<16>(q), c128);
                        for (t, k) in terms.iter_mut().zip(alt) {
                            // A pixel's term: its lane's product plus its pair partner's.
                            let p = f._mm512_mullo_epi32(c, k);
                            let p = f._mm512_add_epi32(p, f._mm512_shuffle_epi32::<0xB1>(p));
                            t[j] = f._mm512_add_epi32(p, half);
                        }
                        f._mm512_and_si512(q, low16)
                    } else {
                        // SAFETY: pixels `pj..+ 16` are inside `ys` (`from + 64 n <= width()`).
                        let y = unsafe { simd.sse2._mm_loadu_si128(ys.add(pj).cast()) };
                        f._mm512_cvtepu8_epi32(y)
                    };
                    let y = f._mm512_sub_epi32(y, yoff);
                    *yy = f._mm512_mullo_epi32(f._mm512_max_epi32(y, zero), cy);
                }
                let r = channel(simd, &yy, &terms[0], order);
                let g = channel(simd, &yy, &terms[1], order);
                let bl = channel(simd, &yy, &terms[2], order);
                let o = if rows.bgr { [bl, g, r] } else { [r, g, bl] };
                let mut v = [zero; 3];
                for (v, m) in v.iter_mut().zip(&masks) {
                    let x = f._mm512_or_si512(
                        bw._mm512_shuffle_epi8(o[0], m[0]),
                        bw._mm512_shuffle_epi8(o[1], m[1]),
                    );
                    *v = f._mm512_or_si512(x, bw._mm512_shuffle_epi8(o[2], m[2]));
                }
                let s = [
                    f._mm512_permutex2var_epi64(
                        f._mm512_permutex2var_epi64(v[0], t0.0, v[1]),
                        t0.1,
                        v[2],
                    ),
                    f._mm512_permutex2var_epi64(
                        f._mm512_permutex2var_epi64(v[1], t1.0, v[0]),
                        t1.1,
                        v[2],
                    ),
                    f._mm512_permutex2var_epi64(
                        f._mm512_permutex2var_epi64(v[2], t2.0, v[0]),
                        t2.1,
                        v[1],
                    ),
                ];
                for (j, s) in s.into_iter().enumerate() {
                    let o = out.wrapping_add(3 * px + 64 * j);
                    // SAFETY: bytes `3 px + 64 j..+ 64` are inside `out` (`from + 64 n <=
                    // width()`, 3 bytes a pixel).
                    unsafe { f._mm512_storeu_si512(o.cast(), s) };
                }
            }
        }
        from + 64 * n
    }

    /// One channel's 64 bytes in pixel order, as `yuv_v3`'s.
    #[inline(always)]
    fn channel(simd: V4, yy: &[__m512i; 4], t: &[__m512i; 4], order: __m512i) -> __m512i {
        let (f, bw) = (simd.avx512f, simd.avx512bw);
        let s0 = f._mm512_srai_epi32::<20>(f._mm512_add_epi32(yy[0], t[0]));
        let s1 = f._mm512_srai_epi32::<20>(f._mm512_add_epi32(yy[1], t[1]));
        let s2 = f._mm512_srai_epi32::<20>(f._mm512_add_epi32(yy[2], t[2]));
        let s3 = f._mm512_srai_epi32::<20>(f._mm512_add_epi32(yy[3], t[3]));
        let lo = bw._mm512_packs_epi32(s0, s1);
        let hi = bw._mm512_packs_epi32(s2, s3);
        f._mm512_permutexvar_epi32(order, bw._mm512_packus_epi16(lo, hi))
    }
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
    let arch = pulp::Arch::new();
    // NV12 and I420: output rows 2 k and 2 k + 1 share chroma row k, converted together.
    let row_pair = |k: usize| {
        let y = 2 * k;
        // SAFETY: `out` is fresh and contiguous; rows `y` and `y + 1` (`2 w * 3` bytes; `h`
        // is even) are written by this call alone, and `out` outlives the loop.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.get().add(y * w * 3), 2 * w * 3) };
        let (o0, o1) = o.split_at_mut(w * 3);
        let (mut b0, mut b1, mut b2, mut b3) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        // The rows read are inside the input's shape: the plan checked it.
        let (ys0, ys1) = (input_row(x, y, &mut b0), input_row(x, y + 1, &mut b1));
        let chroma = if matches!(p.conversion, C::Nv12ToRgb | C::Nv12ToBgr) {
            Chroma::Pairs(input_row(x, h + k, &mut b2))
        } else {
            // The chroma planes as half-rows of w / 2: U's k-th is half-row k, V's
            // half-row h / 2 + k (OpenCV's reading of a pitched I420 plane).
            let half = |k: usize| (h + k / 2, (k % 2) * (w / 2));
            let ((ur, uc), (vr, vc)) = (half(k), half(h / 2 + k));
            let u = &input_row(x, ur, &mut b2)[uc..uc + w / 2];
            let v = &input_row(x, vr, &mut b3)[vc..vc + w / 2];
            Chroma::Planes(u, v)
        };
        let rows = [(o0, ys0), (o1, ys1)];
        dispatch(
            arch,
            YuvRows {
                rows,
                chroma,
                bgr,
                coef,
                y_offset: yoff,
            },
        );
    };
    let row = |y: usize| {
        // SAFETY: `out` is fresh and contiguous; row `y` (`w * oc` bytes) is written by this
        // call of `row` alone, and `out` outlives the loop.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.get().add(y * w * oc), w * oc) };
        let mut b0 = Vec::new();
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
            C::Nv12ToRgb | C::Nv12ToBgr | C::I420ToRgb | C::I420ToBgr => {
                unreachable!("NV12 and I420 rows are converted in pairs (`row_pair`)")
            }
            C::YuyvToRgb | C::YuyvToBgr => {
                let q = input_row(x, y, &mut b0);
                let (rows, chroma) = ([(o, q)], Chroma::Packed);
                dispatch(
                    arch,
                    YuvRows {
                        rows,
                        chroma,
                        bgr,
                        coef,
                        y_offset: yoff,
                    },
                );
            }
        }
    };
    if matches!(
        p.conversion,
        C::Nv12ToRgb | C::Nv12ToBgr | C::I420ToRgb | C::I420ToBgr
    ) {
        for_each_item(h / 2, w * 6, row_pair);
    } else {
        for_each_item(h, w * 3, row);
    }
    Ok(out)
}
