//! The `f32` gelu, `x·Φ(x)`, from tables read in registers.
//!
//! With `y = |x|`, `Φ(-y) = e^{-y²/2}·m(y)` where `m(y) = e^{y²/2}·Φ(-y)` falls smoothly
//! from 1/2 to about `1/(y√2π)`. `m` is a degree-7 polynomial in `u = y - start` on one of
//! eight intervals, picked by the exponent and first mantissa bit of `1 + y` (`[0, ½)`,
//! `[½, 1)`, `[1, 2)`, `[2, 3)`, `[3, 5)`, `[5, 7)`, `[7, 11)`, `[11, 15)`), and `e^{-y²/2}`
//! is `2^(n/8)·e^{r/2}` for `-y² = n·ln2/4 + r`, with `2^(j/8)` from a table and a degree-4
//! polynomial for `|r/2| ≤ ln2/16`.
//! The nine table reads per chunk are permutes of registers under AVX2 (`vpermps`) and
//! AVX-512 (`vpermps` on 16 lanes) and plain loads elsewhere ([`Table8`]); the arithmetic is
//! one formula, so every variant gives the same bits (a test checks). The earlier form, one
//! Chebyshev polynomial of degree 10 in `2/(2 + a)` over the whole range, took 62
//! instructions per AVX-512 register, a division among them; this one takes 52 and no
//! division (1.4× faster on one thread). Sixteen intervals would allow degree 5 (four
//! instructions fewer under AVX-512) but cost AVX2 two permutes and a blend per table read;
//! Estrin's scheme for the polynomial (shallower, two instructions more) measured slower.
//!
//! Negative `x` take `x·e^{-y²/2}·m` (the tail keeps its relative precision down to the
//! subnormals), the others `x·(1 - e^{-y²/2}·m)`. `y²` is formed exactly (`hi + lo`) because
//! `e^{-y²/2}` magnifies the rounding of its argument by `y²`; `e^{-y²/2}` carries a factor
//! `2^64` so it stays normal down to `y = 15`, taken off in the last product (the one
//! rounding of a subnormal result). From `x ≤ -15` the result is `-0`, from `x ≥ 15` it is
//! `x` (which the formula gives from 8 on: `Φ(-8) < 2^-49`). Measured error: 4.3 ulp
//! (`tests/vmath_ulp.rs`); PyTorch's float32 gelu (`erf` by Abramowitz–Stegun 7.1.26) is
//! within 5 ulp for `x ≥ 0` but loses every digit in the negative tail (below `x ≈ -5`).

#![allow(
    clippy::excessive_precision,
    clippy::unreadable_literal,
    clippy::approx_constant,
    reason = "generated coefficients, 2^(1/2) among them"
)]

use super::lanes32::{fma, horner, square2};
use super::{lanes, LANES};

include!("coeffs_gelu.rs");

/// At and below this the result is `-0` (`15·Φ(-15)` is below half the smallest subnormal);
/// at and above `-LO` it is `x`.
const LO: f32 = -15.0;
/// `|x|` is clamped to this, the last `f32` below 15, so the interval index stays in the
/// table (lanes past it are replaced at the end). Past 8 the formula gives `x` exactly
/// (`Φ(-8) < 2^-49`), so no lane needs a branch of its own there.
const Y_MAX: f32 = 14.999_999;
/// The factor that keeps `e^{-y²/2}` normal (in the exponential's table).
const SCALE: f32 = 18_446_744_073_709_551_616.0; // 2^64
const UNSCALE: f32 = 1.0 / SCALE;
/// 1.5·2^23: added to a value below 2^22 in magnitude it leaves the rounded integer in the
/// low mantissa bits.
const SHIFTER: f32 = 12_582_912.0;
/// `1 + y` for `y = 0` has the bits `254·2^22`: the index `bits >> 22` of interval `j` is
/// `254 + j`, whose low three bits are `(6 + j) mod 8`. The tables are stored rotated so, and
/// the index needs no subtraction.
const ROTATE: usize = (1f32.to_bits() >> 22) as usize % 8;

/// [`GELU_M`] with each row rotated to the index's low bits (see [`ROTATE`]).
const GELU_T: [[f32; 8]; 8] = {
    let mut t = [[0.0; 8]; 8];
    let mut k = 0;
    while k < 8 {
        let mut j = 0;
        while j < 8 {
            t[k][(j + ROTATE) % 8] = GELU_M[k][j];
            j += 1;
        }
        k += 1;
    }
    t
};

/// `2^(j/8 + 64)` (exact scalings of [`EXP2_8`]).
const EXP_T: [f32; 8] = {
    let mut t = [0.0; 8];
    let mut j = 0;
    while j < 8 {
        t[j] = EXP2_8[j] * SCALE;
        j += 1;
    }
    t
};

/// A table of eight `f32`s read at one index per lane (its low three bits).
pub(crate) trait Table8: Copy {
    /// `t[idx[l] mod 8]` for each lane.
    fn read(self, t: &[f32; 8], idx: &[u32; LANES]) -> [f32; LANES];
}

/// A load per lane (the portable variant; gathers where the vectoriser chooses them).
#[derive(Clone, Copy)]
pub(crate) struct Loads;

impl Table8 for Loads {
    #[inline(always)]
    fn read(self, t: &[f32; 8], idx: &[u32; LANES]) -> [f32; LANES] {
        lanes(|l| t[(idx[l] & 7) as usize])
    }
}

/// `vpermps` on 8 lanes: two per chunk.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Permutes8(pub(crate) pulp::x86::V3);

#[cfg(target_arch = "x86_64")]
impl Table8 for Permutes8 {
    #[inline(always)]
    fn read(self, t: &[f32; 8], idx: &[u32; LANES]) -> [f32; LANES] {
        use std::arch::x86_64::{__m256, __m256i};
        let table: __m256 = pulp::cast(*t);
        let half = |i: &[u32; 8]| -> [f32; 8] {
            let i: __m256i = pulp::cast(*i);
            pulp::cast(self.0.avx2._mm256_permutevar8x32_ps(table, i))
        };
        let (a, b) = idx.split_at(8);
        let mut o = [0.0; LANES];
        o[..8].copy_from_slice(&half(a.try_into().expect("8 lanes")));
        o[8..].copy_from_slice(&half(b.try_into().expect("8 lanes")));
        o
    }
}

/// `vpermps` on 16 lanes (the table twice over, so the fourth index bit does not matter).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Permutes16(pub(crate) pulp::x86::V4);

#[cfg(target_arch = "x86_64")]
impl Table8 for Permutes16 {
    #[inline(always)]
    fn read(self, t: &[f32; 8], idx: &[u32; LANES]) -> [f32; LANES] {
        use std::arch::x86_64::{__m512, __m512i};
        let table: __m512 = pulp::cast([*t, *t]);
        let i: __m512i = pulp::cast(*idx);
        pulp::cast(self.0.avx512f._mm512_permutexvar_ps(i, table))
    }
}

/// `gelu` of a chunk of `f32`s, the tables read through `tab`. One output array per stage:
/// loops filling several arrays at once were partly scalarised by the vectoriser.
#[inline(always)]
pub(crate) fn gelu_chunk<const F: bool, T: Table8>(tab: T, x: &[f32; LANES]) -> [f32; LANES] {
    let y = lanes(|l| {
        let y = x[l].abs();
        if y < Y_MAX {
            y
        } else {
            Y_MAX
        }
    });
    // The interval of y and the offset in it. `1 + y` may round up into the next interval,
    // leaving `u` a rounding below 0, where the polynomial is as good.
    let one_y = lanes(|l| (y[l] + 1.0).to_bits());
    let idx = lanes(|l| one_y[l] >> 22);
    let u = lanes(|l| {
        // The interval's start: exact, and so is the difference (Sterbenz).
        let start = f32::from_bits(one_y[l] & 0xffc0_0000) - 1.0;
        y[l] - start
    });
    let mut m = tab.read(&GELU_T[0], &idx);
    for row in &GELU_T[1..] {
        let c = tab.read(row, &idx);
        m = lanes(|l| fma::<F>(m[l], u[l], c[l]));
    }
    // e^{-y²/2} = 2^(n/8)·e^{r/2} with -y² = n·ln2/4 + r: n in the low bits of s.
    let s = lanes(|l| {
        let hi = y[l] * y[l];
        fma::<F>(hi, (-4.0 * std::f64::consts::LOG2_E) as f32, SHIFTER)
    });
    let n = lanes(|l| s[l].to_bits().wrapping_sub(SHIFTER.to_bits()));
    let p = tab.read(&EXP_T, &n);
    let h = lanes(|l| {
        let nf = s[l] - SHIFTER;
        // y² = hi + lo exactly; n·LN2_4[0] is exact (|n| < 2^11), so r carries only the
        // last rounding.
        let (hi, lo) = square2::<F>(y[l]);
        let r = fma::<F>(-nf, LN2_4[0], -hi) - lo;
        let r = fma::<F>(-nf, LN2_4[1], r);
        let e = fma::<F>(p[l], r * horner::<F>(r, &EXP_HALF), p[l]);
        // 2^(n div 8) joined to 2^(j/8 + 64)·e^{r/2} by adding to its exponent bits.
        let k = ((n[l] as i32) >> 3) as u32;
        f32::from_bits(e.to_bits().wrapping_add(k << 23)) * m[l]
    });
    lanes(|l| {
        let x = x[l];
        let w = if x.is_sign_negative() {
            h[l]
        } else {
            SCALE - h[l]
        };
        // Past |x| = 15 the result is x or -0 (and x·w could overflow there).
        if x.abs() >= -LO {
            x.max(-0.0)
        } else {
            (x * w) * UNSCALE
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs across every interval and both tails, the interval edges and special values.
    fn inputs() -> Vec<f32> {
        let mut v: Vec<f32> = (-1700..=1000).map(|i| i as f32 * 0.01).collect();
        for e in [0.5f32, 1.0, 2.0, 3.0, 5.0, 7.0, 11.0, 8.0, 15.0] {
            for d in [-2.0f32, -1.0, 0.0, 1.0, 2.0] {
                let y = f32::from_bits((e.to_bits() as i32 + d as i32) as u32);
                v.extend([y, -y]);
            }
        }
        v.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-30,
            -1e-30,
        ]);
        v.resize(v.len().next_multiple_of(LANES), 0.0);
        v
    }

    /// The error of `got` in `f32` ulps of `want` (subnormal ulps below the normal range).
    fn ulps(got: f32, want: f64) -> f64 {
        let e = ((want.abs().to_bits() >> 52) as i32 - 1023).max(-126);
        (f64::from(got) - want).abs() / 2f64.powi(e - 23)
    }

    /// Both compilations, with and without FMA (the portable fallback), against an `f64`
    /// reference; the dense sweep of every dispatch is in `tests/vmath_ulp.rs`.
    #[test]
    fn with_and_without_fma_within_five_ulps() {
        for c in inputs().chunks_exact(LANES) {
            let c: &[f32; LANES] = c.try_into().expect("a chunk");
            let (fused, plain) = (
                gelu_chunk::<true, _>(Loads, c),
                gelu_chunk::<false, _>(Loads, c),
            );
            for l in 0..LANES {
                let x = f64::from(c[l]);
                let want = if x.is_infinite() {
                    x.max(-0.0)
                } else {
                    0.5 * x * libm::erfc(-x * std::f64::consts::FRAC_1_SQRT_2)
                };
                for got in [fused[l], plain[l]] {
                    // A NaN's sign and payload are not specified (Miri picks them at
                    // random), only that it is one.
                    if want.is_nan() {
                        assert!(got.is_nan(), "gelu({x:e}) = {got:e}, want NaN");
                    } else if want.is_infinite() {
                        assert_eq!(got.to_bits(), (want as f32).to_bits(), "gelu({x:e})");
                    } else {
                        assert!(
                            ulps(got, want) <= 5.0,
                            "gelu({x:e}) = {got:e}, want {want:e}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_table_reader_gives_the_same_bits() {
        let xs = inputs();
        for c in xs.chunks_exact(LANES) {
            let c: &[f32; LANES] = c.try_into().expect("a chunk");
            let plain = gelu_chunk::<true, _>(Loads, c);
            #[cfg(target_arch = "x86_64")]
            {
                if let Some(v3) = pulp::x86::V3::try_new() {
                    let wide = gelu_chunk::<true, _>(Permutes8(v3), c);
                    for l in 0..LANES {
                        assert_eq!(plain[l].to_bits(), wide[l].to_bits(), "gelu({:e})", c[l]);
                    }
                }
                if let Some(v4) = pulp::x86::V4::try_new() {
                    let wide = gelu_chunk::<true, _>(Permutes16(v4), c);
                    for l in 0..LANES {
                        assert_eq!(plain[l].to_bits(), wide[l].to_bits(), "gelu({:e})", c[l]);
                    }
                }
            }
        }
    }
}
