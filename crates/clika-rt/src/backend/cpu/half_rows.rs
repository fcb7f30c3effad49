//! Row conversions between `f32` and the half types, the kernels of `to(float16)`,
//! `to(bfloat16)` and back for contiguous rows.
//!
//! `half`'s slice functions take F16C, but eight elements per call through a function that
//! cannot inline into the loop (its target features differ), with the chunk copied in and
//! out of arrays: 0.11 ms for 1M `f32 → f16`, where PyTorch's vector loop takes 0.04.
//! `bfloat16` went element by element through a branch per NaN test. Here the loops are
//! whole rows inside one target-feature function: `vcvtps2ph`/`vcvtph2ps` sixteen lanes a
//! step where the CPU has F16C, and the branch-free bit formulas (`half_bits` for
//! `float16`, the rounding below for `bfloat16`) vectorised by AVX2 elsewhere. Every path
//! gives the same bits as `half`'s scalar conversions (round to nearest even, NaN quieted
//! with its payload's top bits), which the tests check.

use half::{bf16, f16};

use super::vmath::{avx2, dispatch_avx2, Call};
use crate::half_bits;
use crate::DType;

/// Converts `n` contiguous elements from `src` into `dst`: the row kernel of a cast.
pub(super) type RowConvert = unsafe fn(*const u8, *mut u8, usize);

/// The row conversion for `s → d` if it is one between `f32` and a half type.
pub(super) fn half_row(s: DType, d: DType) -> Option<RowConvert> {
    macro_rules! row {
        ($from:ty => $to:ty, $f:path) => {{
            /// # Safety
            /// `src` / `dst` valid for `n` reads / writes of the named types, aligned,
            /// not overlapping.
            unsafe fn convert(src: *const u8, dst: *mut u8, n: usize) {
                // SAFETY: the caller's contract.
                let (x, y) = unsafe {
                    (
                        std::slice::from_raw_parts(src.cast::<$from>(), n),
                        std::slice::from_raw_parts_mut(dst.cast::<$to>(), n),
                    )
                };
                $f(x, y)
            }
            Some(convert as RowConvert)
        }};
    }
    match (s, d) {
        (DType::Float32, DType::Float16) => row!(f32 => f16, f32_to_f16),
        (DType::Float32, DType::BFloat16) => row!(f32 => bf16, f32_to_bf16),
        (DType::Float16, DType::Float32) => row!(f16 => f32, f16_to_f32),
        (DType::BFloat16, DType::Float32) => row!(bf16 => f32, bf16_to_f32),
        _ => None,
    }
}

/// Whether this CPU converts with F16C (256-bit, so AVX too).
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn f16c() -> bool {
    std::arch::is_x86_feature_detected!("f16c") && std::arch::is_x86_feature_detected!("avx")
}

/// `dst[i] = f(src[i])` over whole slices inside one AVX2 dispatch, where the loop
/// vectorises with `f` inlined (a function item, a type of its own, not a pointer).
#[inline(always)]
fn convert_all<S: Copy, D>(src: &[S], dst: &mut [D], f: impl Fn(S) -> D) {
    assert_eq!(src.len(), dst.len());
    dispatch_avx2(
        avx2(),
        Call(|| {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = f(s);
            }
        }),
    );
}

/// `dst[i] = float16(src[i])`, rounding to nearest even.
pub(super) fn f32_to_f16(src: &[f32], dst: &mut [f16]) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if f16c() && src.len() == dst.len() {
        // SAFETY: F16C and AVX are available (checked); the slices have one length.
        return unsafe { x86::f32_to_f16(src, dst) };
    }
    convert_all(src, dst, half_bits::f32_to_f16);
}

/// How [`f32_to_f16_by`] maps each value before it rounds: softmax's last pass.
#[derive(Clone, Copy, Debug)]
pub(super) enum Finish {
    /// `v · s`.
    Scale(f32),
    /// `(v - a) - b`, in that order.
    Shift(f32, f32),
}

impl Finish {
    #[inline(always)]
    fn apply(self, v: f32) -> f32 {
        match self {
            Finish::Scale(s) => v * s,
            Finish::Shift(a, b) => (v - a) - b,
        }
    }
}

/// `dst[i] = float16(how(src[i]))`: the map and the rounding in one pass over the row.
pub(super) fn f32_to_f16_by(src: &[f32], dst: &mut [f16], how: Finish) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if f16c() && src.len() == dst.len() {
        // SAFETY: F16C and AVX are available (checked); the slices have one length.
        return unsafe { x86::f32_to_f16_by(src, dst, how) };
    }
    convert_all(src, dst, |v| half_bits::f32_to_f16(how.apply(v)));
}

/// `dst[i] = f32(src[i])`, and the largest value of the row (its first NaN when it has
/// one; negative infinity when empty): the widening and softmax's first pass in one.
pub(super) fn f16_to_f32_max(src: &[f16], dst: &mut [f32]) -> f32 {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if f16c() && src.len() == dst.len() {
        // SAFETY: F16C and AVX are available (checked); the slices have one length.
        let m = unsafe { x86::f16_to_f32_max(src, dst) };
        return if m.is_nan() { first_nan(dst) } else { m };
    }
    f16_to_f32(src, dst);
    let m = dst.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    if dst.iter().any(|v| v.is_nan()) {
        first_nan(dst)
    } else {
        m
    }
}

/// The first NaN of a row that has one.
fn first_nan(xs: &[f32]) -> f32 {
    xs.iter().copied().find(|v| v.is_nan()).unwrap_or(f32::NAN)
}

/// `dst[i] = f32(src[i])`, exactly.
pub(super) fn f16_to_f32(src: &[f16], dst: &mut [f32]) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    if f16c() && src.len() == dst.len() {
        // SAFETY: F16C and AVX are available (checked); the slices have one length.
        return unsafe { x86::f16_to_f32(src, dst) };
    }
    convert_all(src, dst, half_bits::f16_to_f32);
}

/// `bfloat16` of `v`: the top half of its bits rounded to nearest even; a NaN keeps its
/// top payload bits and is quieted.
#[inline(always)]
fn to_bf16(v: f32) -> bf16 {
    let x = v.to_bits();
    let rounded = x.wrapping_add(0x7fff + ((x >> 16) & 1)) >> 16;
    let nan = (x >> 16) | 0x40;
    bf16::from_bits(
        (if x & 0x7fff_ffff > 0x7f80_0000 {
            nan
        } else {
            rounded
        }) as u16,
    )
}

/// `f32` of `h`: the bits moved up, a NaN quieted.
#[inline(always)]
fn from_bf16(h: bf16) -> f32 {
    let h = h.to_bits();
    let w = u32::from(h) << 16;
    f32::from_bits(if h & 0x7fff > 0x7f80 {
        w | 0x0040_0000
    } else {
        w
    })
}

/// `dst[i] = bfloat16(src[i])`, rounding to nearest even.
pub(super) fn f32_to_bf16(src: &[f32], dst: &mut [bf16]) {
    convert_all(src, dst, to_bf16);
}

/// `dst[i] = f32(src[i])`.
pub(super) fn bf16_to_f32(src: &[bf16], dst: &mut [f32]) {
    convert_all(src, dst, from_bf16);
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use super::Finish;
    use half::f16;
    use std::arch::x86_64::*;

    /// Sixteen lanes a step with `vcvtps2ph` (round to nearest even), then eight, then the
    /// tail through one zero-padded vector.
    ///
    /// # Safety
    /// The CPU has F16C and AVX; `src` and `dst` have one length.
    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn f32_to_f16(src: &[f32], dst: &mut [f16]) {
        // SAFETY: the caller's contract.
        unsafe { narrow_map(src, dst, |v| v) }
    }

    /// [`f32_to_f16`] of `how` applied to each lane (the same operations in the same
    /// order as [`Finish::apply`], so the same values).
    ///
    /// # Safety
    /// The CPU has F16C and AVX; `src` and `dst` have one length.
    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn f32_to_f16_by(src: &[f32], dst: &mut [f16], how: Finish) {
        // SAFETY: the caller's contract (for both).
        unsafe {
            match how {
                Finish::Scale(s) => {
                    let s = _mm256_set1_ps(s);
                    narrow_map(src, dst, |v| _mm256_mul_ps(v, s))
                }
                Finish::Shift(a, b) => {
                    let (a, b) = (_mm256_set1_ps(a), _mm256_set1_ps(b));
                    narrow_map(src, dst, |v| _mm256_sub_ps(_mm256_sub_ps(v, a), b))
                }
            }
        }
    }

    /// `dst[i] = float16(f(src[i]))`, eight lanes at a time (`f` inlined into the caller's
    /// target features).
    ///
    /// # Safety
    /// The CPU has F16C and AVX; `src` and `dst` have one length.
    #[inline(always)]
    unsafe fn narrow_map(src: &[f32], dst: &mut [f16], f: impl Fn(__m256) -> __m256) {
        let n = src.len();
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr().cast::<__m128i>());
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: lanes `i..i + 16` are in bounds of both slices; unaligned accesses.
            unsafe {
                let a = f(_mm256_loadu_ps(s.add(i)));
                let b = f(_mm256_loadu_ps(s.add(i + 8)));
                _mm_storeu_si128(
                    d.byte_add(i * 2),
                    _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(a),
                );
                _mm_storeu_si128(
                    d.byte_add(i * 2 + 16),
                    _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(b),
                );
            }
            i += 16;
        }
        if i + 8 <= n {
            // SAFETY: lanes `i..i + 8` are in bounds of both slices.
            unsafe {
                let a = f(_mm256_loadu_ps(s.add(i)));
                _mm_storeu_si128(
                    d.byte_add(i * 2),
                    _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(a),
                );
            }
            i += 8;
        }
        if i < n {
            let mut a = [0f32; 8];
            let mut h = [f16::ZERO; 8];
            a[..n - i].copy_from_slice(&src[i..]);
            // SAFETY: the local arrays hold eight lanes each.
            unsafe {
                let v = f(_mm256_loadu_ps(a.as_ptr()));
                _mm_storeu_si128(
                    h.as_mut_ptr().cast(),
                    _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v),
                );
            }
            dst[i..].copy_from_slice(&h[..n - i]);
        }
    }

    /// [`f16_to_f32`] that also keeps the row's maximum in two registers of lanes (a
    /// `vmaxps` each, with the lanes' NaN tests OR-ed aside): the maximum, or NaN when the
    /// row has one (the caller finds which), or negative infinity when empty.
    ///
    /// # Safety
    /// The CPU has F16C and AVX; `src` and `dst` have one length.
    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn f16_to_f32_max(src: &[f16], dst: &mut [f32]) -> f32 {
        let mut m = [_mm256_set1_ps(f32::NEG_INFINITY); 2];
        let mut nan = _mm256_setzero_ps();
        // SAFETY: the caller's contract.
        let i = unsafe {
            widen_pairs(src, dst, |a, b| {
                m[0] = _mm256_max_ps(m[0], a);
                m[1] = _mm256_max_ps(m[1], b);
                nan = _mm256_or_ps(nan, _mm256_cmp_ps::<_CMP_UNORD_Q>(a, b));
            })
        };
        let mut best = [0f32; 16];
        // SAFETY: `best` holds sixteen lanes.
        unsafe {
            _mm256_storeu_ps(best.as_mut_ptr(), m[0]);
            _mm256_storeu_ps(best.as_mut_ptr().add(8), m[1]);
        }
        let any_nan = _mm256_movemask_ps(nan) != 0;
        // The tail (fewer than sixteen) through the exact element conversion.
        let mut mx = best.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        let mut tail_nan = false;
        for (y, x) in dst[i..].iter_mut().zip(&src[i..]) {
            *y = x.to_f32();
            mx = mx.max(*y);
            tail_nan |= y.is_nan();
        }
        if any_nan | tail_nan {
            f32::NAN
        } else {
            mx
        }
    }

    /// The whole steps of sixteen lanes of [`f16_to_f32`], each pair of widened vectors
    /// also given to `seen`; returns how many lanes that covered.
    ///
    /// # Safety
    /// The CPU has F16C and AVX; `src` and `dst` have one length.
    #[inline(always)]
    unsafe fn widen_pairs(
        src: &[f16],
        dst: &mut [f32],
        mut seen: impl FnMut(__m256, __m256),
    ) -> usize {
        let n = src.len();
        let (s, d) = (src.as_ptr().cast::<__m128i>(), dst.as_mut_ptr());
        let mut i = 0;
        while i + 16 <= n {
            // SAFETY: lanes `i..i + 16` are in bounds of both slices; unaligned accesses.
            unsafe {
                let a = _mm256_cvtph_ps(_mm_loadu_si128(s.byte_add(i * 2)));
                let b = _mm256_cvtph_ps(_mm_loadu_si128(s.byte_add(i * 2 + 16)));
                _mm256_storeu_ps(d.add(i), a);
                _mm256_storeu_ps(d.add(i + 8), b);
                seen(a, b);
            }
            i += 16;
        }
        i
    }

    /// Sixteen lanes a step with `vcvtph2ps`, then eight, then the tail.
    ///
    /// # Safety
    /// The CPU has F16C and AVX; `src` and `dst` have one length.
    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn f16_to_f32(src: &[f16], dst: &mut [f32]) {
        // SAFETY: the caller's contract.
        let mut i = unsafe { widen_pairs(src, dst, |_, _| {}) };
        let n = src.len();
        let (s, d) = (src.as_ptr().cast::<__m128i>(), dst.as_mut_ptr());
        if i + 8 <= n {
            // SAFETY: lanes `i..i + 8` are in bounds of both slices.
            unsafe {
                _mm256_storeu_ps(
                    d.add(i),
                    _mm256_cvtph_ps(_mm_loadu_si128(s.byte_add(i * 2))),
                )
            };
            i += 8;
        }
        if i < n {
            let mut h = [f16::ZERO; 8];
            let mut a = [0f32; 8];
            h[..n - i].copy_from_slice(&src[i..]);
            // SAFETY: the local arrays hold eight lanes each.
            unsafe {
                _mm256_storeu_ps(
                    a.as_mut_ptr(),
                    _mm256_cvtph_ps(_mm_loadu_si128(h.as_ptr().cast())),
                )
            };
            dst[i..].copy_from_slice(&a[..n - i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every f32 pattern near the half types' edges plus a stride through all of them.
    fn patterns() -> Vec<f32> {
        let step: usize = if cfg!(miri) { 40_000_003 } else { 65_537 };
        let mut pats: Vec<u32> = (0..=u32::MAX).step_by(step).collect();
        for base in [
            0x3380_0000u32, // 2^-24
            0x3880_0000,    // 2^-14
            0x477f_e000,    // 65504
            0x477f_f000,    // 65520
            0x3f80_1000,    // a float16 tie
            0x3f80_8000,    // a bfloat16 tie
            0x3f81_8000,    // a bfloat16 tie rounding up
            0x7f7f_ffff,    // the largest f32
            0x7f80_0000,    // infinity
            0x7f80_0001,    // a signalling NaN
            0x7fc0_0000,    // the quiet NaN
        ] {
            let near = if cfg!(miri) { 2 } else { 40 };
            for d in 0..=2 * near {
                pats.push(base.wrapping_add(d).wrapping_sub(near));
            }
        }
        pats.iter()
            .flat_map(|&p| [p, p | 0x8000_0000])
            .map(f32::from_bits)
            .collect()
    }

    #[test]
    fn rows_give_the_bits_of_halfs_scalar_conversions_at_every_length() {
        let all = patterns();
        // Lengths around the 16- and 8-lane steps, at an odd start (unaligned).
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, all.len() - 1] {
            let src = &all[1..=len];
            let mut h = vec![f16::ZERO; len];
            f32_to_f16(src, &mut h);
            let mut b = vec![bf16::ZERO; len];
            f32_to_bf16(src, &mut b);
            for (i, &v) in src.iter().enumerate() {
                assert_eq!(h[i].to_bits(), f16::from_f32(v).to_bits(), "f16 {v:e}");
                assert_eq!(b[i].to_bits(), bf16::from_f32(v).to_bits(), "bf16 {v:e}");
            }
        }
    }

    #[test]
    fn fused_max_and_mapped_rounding_match_the_element_loops() {
        let all = patterns();
        for len in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 47] {
            // Finite rows, then a NaN at each place of the row (in the 16-lane steps and in
            // the tail).
            for nan_at in std::iter::once(None).chain((0..len).map(Some)) {
                let mut src: Vec<f16> = (0..len)
                    .map(|i| f16::from_f32(((i * 37 % 23) as f32 - 11.0) * 0.75))
                    .collect();
                if let Some(k) = nan_at {
                    src[k] = f16::NAN;
                }
                let mut wide = vec![0f32; len];
                let m = f16_to_f32_max(&src, &mut wide);
                let want: Vec<f32> = src.iter().map(|h| h.to_f32()).collect();
                for (a, b) in wide.iter().zip(&want) {
                    assert_eq!(a.to_bits(), b.to_bits());
                }
                match nan_at {
                    Some(_) => assert!(m.is_nan(), "len {len}"),
                    None => assert_eq!(
                        m,
                        want.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b)),
                        "len {len}"
                    ),
                }
            }
            let src = &all[1..=len.min(all.len() - 1)];
            for how in [Finish::Scale(0.37), Finish::Shift(1.5, -0.25)] {
                let mut h = vec![f16::ZERO; src.len()];
                f32_to_f16_by(src, &mut h, how);
                for (i, &v) in src.iter().enumerate() {
                    let want = f16::from_f32(how.apply(v));
                    assert!(
                        h[i].to_bits() == want.to_bits() || (h[i].is_nan() && want.is_nan()),
                        "{how:?} {v:e}"
                    );
                }
            }
        }
    }

    #[test]
    fn widening_gives_the_bits_of_halfs_scalar_conversions_for_every_half() {
        let step = if cfg!(miri) { 251 } else { 1 };
        let bits: Vec<u16> = (0..=u16::MAX).step_by(step).collect();
        let hs: Vec<f16> = bits.iter().map(|&b| f16::from_bits(b)).collect();
        let bs: Vec<bf16> = bits.iter().map(|&b| bf16::from_bits(b)).collect();
        let (mut a, mut b) = (vec![0f32; bits.len()], vec![0f32; bits.len()]);
        f16_to_f32(&hs, &mut a);
        bf16_to_f32(&bs, &mut b);
        for i in 0..bits.len() {
            assert_eq!(a[i].to_bits(), hs[i].to_f32().to_bits(), "{:#06x}", bits[i]);
            assert_eq!(b[i].to_bits(), bs[i].to_f32().to_bits(), "{:#06x}", bits[i]);
        }
    }
}
