//! `float16` ↔ `f32` as integer and float arithmetic that inlines and vectorises.
//!
//! `half`'s `f16::to_f32`/`from_f32` pick F16C at run time unless the crate is compiled for
//! it: per element that is a feature check and a call the kernels cannot inline, so every
//! loop that widened `float16` element by element ran at a few ns per element (f16 `add`
//! 7.4 ns against `f32`'s 0.3). These are the same conversions written with selects only:
//! inside a SIMD-dispatched function they compile to a few vector instructions, and they
//! give the bits F16C gives (round to nearest even; NaN quieted with its payload's top bits,
//! the sign kept). Slices still convert through `half`'s slice functions (one feature check
//! per slice).

use half::f16;

/// Bits of an f32 exponent field: `e << 23`.
const fn exp(e: u32) -> u32 {
    e << 23
}

/// Widens exactly (every `float16` is an `f32`).
#[inline(always)]
pub(crate) fn f16_to_f32(h: f16) -> f32 {
    let h = u32::from(h.to_bits());
    let sign = (h & 0x8000) << 16;
    // Exponent and mantissa moved to f32's positions; the exponent still biased by 15.
    let mag = (h & 0x7fff) << 13;
    let e = mag & exp(31);
    let normal = mag + exp(127 - 15);
    // All-ones exponent (infinity, NaN): all ones again in f32, the payload kept and a NaN
    // quieted (as F16C does).
    let quiet = u32::from(mag & 0x007f_e000 != 0) << 22;
    let special = (normal + exp(128 - 16)) | quiet;
    // Subnormals and zeros: m·2^-24, exactly (2^-14 + m·2^-24) - 2^-14 in f32.
    let tiny = (f32::from_bits(mag + exp(113)) - f32::from_bits(exp(113))).to_bits();
    let bits = if e == exp(31) {
        special
    } else if e == 0 {
        tiny
    } else {
        normal
    };
    f32::from_bits(bits | sign)
}

/// Rounds to nearest, ties to even; past the largest finite `float16` (65504, up to the
/// rounding boundary 65520) to infinity.
#[inline(always)]
pub(crate) fn f32_to_f16(v: f32) -> f16 {
    let x = v.to_bits();
    let sign = (x >> 16) & 0x8000;
    let a = x & 0x7fff_ffff;
    // NaN: quiet, with the payload's top ten bits.
    let nan = 0x7e00 | ((a >> 13) & 0x3ff);
    // Normal results: rebias, add half an ulp less one plus the kept lowest bit (ties to
    // even), drop the 13 extra bits; a carry into the exponent rounds up correctly, to
    // infinity past 65504.
    let normal = a
        .wrapping_sub(exp(127 - 15))
        .wrapping_add(0xfff + ((a >> 13) & 1))
        >> 13;
    // Below 2^-14 (subnormal or zero results): adding 0.5, whose ulp is 2^-24 (the
    // subnormal step), rounds |v| to that step in the FPU's nearest-even mode.
    let tiny = (f32::from_bits(a) + 0.5)
        .to_bits()
        .wrapping_sub(0x3f00_0000);
    let h = if a > exp(255) {
        nan
    } else if a >= exp(127 + 16) {
        0x7c00
    } else if a < exp(113) {
        tiny
    } else {
        normal
    };
    f16::from_bits((h | sign) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_matches_half_on_every_float16() {
        let step = if cfg!(miri) { 257 } else { 1 };
        for bits in (0..=u16::MAX).step_by(step) {
            let h = f16::from_bits(bits);
            assert_eq!(f16_to_f32(h).to_bits(), h.to_f32().to_bits(), "{bits:#06x}");
        }
    }

    #[test]
    fn rounding_matches_half_on_f32_patterns() {
        // A stride through all f32 bit patterns (odd, so the low bits vary), plus every
        // pattern near the rounding boundaries: ties, the subnormal threshold, 65504..65520,
        // infinity and NaNs.
        let step: usize = if cfg!(miri) { 40_000_003 } else { 4099 };
        let mut pats: Vec<u32> = (0..=u32::MAX).step_by(step).collect();
        for base in [
            0x3380_0000u32, // 2^-24, half the smallest subnormal step above
            0x3880_0000,    // 2^-14, the smallest normal
            0x477f_e000,    // 65504
            0x477f_f000,    // 65520
            0x3f80_1000,    // 1 + 2^-11: a tie
            0x3f80_3000,    // 1 + 3·2^-11: a tie rounding up
            0x7f80_0000,    // infinity
            0x7f80_0001,    // a signalling NaN
            0x7fc0_0000,    // the quiet NaN
        ] {
            let near = if cfg!(miri) { 3 } else { 64 };
            for d in 0..=2 * near {
                pats.push(base.wrapping_add(d).wrapping_sub(near));
            }
        }
        for p in pats {
            for x in [p, p | 0x8000_0000] {
                let v = f32::from_bits(x);
                let (got, want) = (f32_to_f16(v), f16::from_f32(v));
                assert_eq!(got.to_bits(), want.to_bits(), "{x:#010x}");
            }
        }
    }
}
