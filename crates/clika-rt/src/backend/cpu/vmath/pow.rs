//! `pow` of `f32` lanes (the half types run it too), computed in `f64` lanes as
//! `2^(y·log2|x|)` with two small tables, so each half is a short polynomial:
//!
//! - `log2`: `|x| = 2^k·z` with `z ∈ [OFF, 2·OFF)` (subnormals scaled up first); the top four
//!   bits of `z`'s offset pick an interval with centre `c` (exactly 1 for the interval holding
//!   1, so `log2` near 1 has no cancellation), `r = z/c - 1` (`|r| < 0.032`, one fused
//!   multiply-add from the table's `1/c`), and `log2 z = log2 c + log2(1 + r)`, the series to
//!   `r^7` (truncation below 2^-43).
//! - `exp2`: `t = y·log2|x|` is split as `n/32 + r` with `|r| ≤ 1/64`; `2^t = 2^(n div 32) ·
//!   2^((n mod 32)/32) · 2^r`, the middle factor from the table and `2^r` the series to `r^5`
//!   (truncation below 2^-40).
//!
//! With the `f64` rounding the exponent `t` carries well under 2^-30 relative error, so the
//! result rounds to the nearest `f32` but in rare near-halfway cases (`tests/vmath_binary.rs`
//! measures the worst case over two million pairs). The tables are built at compile time by
//! the `const fn` series below. A negative base with an integer exponent takes the sign of
//! its parity, with any other exponent gives NaN; zero, infinite and NaN operands (C's table
//! of special cases) come from the standard library's `powf`, lane by lane, in the chunks
//! that hold one.

use super::lanes64::{fma, horner};
use super::LANES;

/// The bits of 0.69921875: reduced bases lie in `[OFF, 2·OFF)`.
const OFF: u32 = 0x3f33_0000;
/// Intervals of the logarithm's table (the top four bits of the offset from `OFF`).
const LOG_N: usize = 16;
/// Entries of the exponential's table: `2^(j/32)`.
const EXP_N: usize = 32;
/// `1.5·2^52`: adding it leaves an integer in the low mantissa bits.
const SHIFTER: f64 = 6_755_399_441_055_744.0;

/// `ln v` for `v` near 1 (`0.5 < v < 2`) by the atanh series, for the tables.
const fn ln_series(v: f64) -> f64 {
    let s = (v - 1.0) / (v + 1.0);
    let z = s * s;
    // Smallest terms first.
    let mut k = 40;
    let mut sum = 0.0;
    while k > 0 {
        k -= 1;
        let mut p = s;
        let mut j = 0;
        while j < k {
            p *= z;
            j += 1;
        }
        sum += p / (2 * k + 1) as f64;
    }
    2.0 * sum
}

/// `e^x` for `|x| < 1` by the Taylor series, for the tables.
const fn exp_series(x: f64) -> f64 {
    let mut terms = [0.0; 30];
    let mut t = 1.0;
    let mut n = 0;
    while n < 30 {
        terms[n] = t;
        t = t * x / (n + 1) as f64;
        n += 1;
    }
    let mut sum = 0.0;
    while n > 0 {
        n -= 1;
        sum += terms[n];
    }
    sum
}

/// Per interval: `1/c` and `log2 c`.
const LOG_TABLE: [(f64, f64); LOG_N] = {
    let mut t = [(0.0, 0.0); LOG_N];
    let mut i = 0;
    while i < LOG_N {
        let z0 = f32::from_bits(OFF + ((i as u32) << 19)) as f64;
        let z1 = f32::from_bits(OFF + ((i as u32 + 1) << 19)) as f64;
        let c = if z0 <= 1.0 && 1.0 < z1 {
            1.0
        } else {
            0.5 * (z0 + z1)
        };
        let inv = 1.0 / c;
        t[i] = (inv, -ln_series(inv) * std::f64::consts::LOG2_E);
        i += 1;
    }
    t
};

/// `2^(j/32)`.
const EXP_TABLE: [f64; EXP_N] = {
    let mut t = [0.0; EXP_N];
    let mut j = 0;
    while j < EXP_N {
        t[j] = exp_series(j as f64 / EXP_N as f64 * std::f64::consts::LN_2);
        j += 1;
    }
    t
};

/// `log2(1 + r) / r` as a polynomial in `r`, highest power first: `(-1)^(k+1)/(k·ln2)`.
const LOG2_POLY: [f64; 7] = {
    let mut c = [0.0; 7];
    let mut k = 1;
    while k <= 7 {
        let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
        c[7 - k] = sign / (k as f64 * std::f64::consts::LN_2);
        k += 1;
    }
    c
};

/// `2^r` as a polynomial in `r`, highest power first: `ln2^k/k!`.
const EXP2_POLY: [f64; 6] = {
    let mut c = [0.0; 6];
    let mut t = 1.0;
    let mut k = 0;
    while k < 6 {
        c[5 - k] = t;
        t = t * std::f64::consts::LN_2 / (k + 1) as f64;
        k += 1;
    }
    c
};

/// `log2 |x|` for finite nonzero `x`.
#[inline(always)]
fn log2_abs<const F: bool>(x: f32) -> f64 {
    let a = x.abs();
    let tiny = a < f32::MIN_POSITIVE;
    let ix = if tiny { a * 8_388_608.0 } else { a }.to_bits(); // 2^23
    let tmp = ix.wrapping_sub(OFF);
    let i = ((tmp >> 19) as usize) & (LOG_N - 1);
    let k = ((tmp as i32) >> 23) - if tiny { 23 } else { 0 };
    let z = f64::from(f32::from_bits(ix.wrapping_sub(tmp & 0xff80_0000)));
    let (inv, log2c) = LOG_TABLE[i];
    let r = fma::<F>(z, inv, -1.0);
    fma::<F>(r, horner::<F>(r, &LOG2_POLY), log2c + f64::from(k))
}

/// `2^t` for `t` in `f64`, saturating to 0 and to values that round to `f32` infinity.
#[inline(always)]
fn exp2<const F: bool>(t: f64) -> f64 {
    let t = t.clamp(-200.0, 200.0);
    let s = fma::<F>(t, EXP_N as f64, SHIFTER);
    let n = s - SHIFTER;
    let ni = s.to_bits().wrapping_sub(SHIFTER.to_bits());
    let j = (ni as usize) & (EXP_N - 1);
    // 2^(n div 32) joined to the table's 2^(j/32) by adding to its exponent bits.
    let scale = f64::from_bits(
        EXP_TABLE[j]
            .to_bits()
            .wrapping_add(ni.wrapping_sub(j as u64) << 47),
    );
    let r = fma::<F>(n, -1.0 / EXP_N as f64, t);
    scale * horner::<F>(r, &EXP2_POLY)
}

/// Whether a lane is in the vector path's domain (finite nonzero base, finite exponent).
#[inline(always)]
fn regular(a: f32, b: f32) -> bool {
    a.is_finite() & (a != 0.0) & b.is_finite()
}

/// `x^y` of two `f32` chunks.
#[inline(always)]
pub(crate) fn pow_chunk<const F: bool>(x: &[f32; LANES], y: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0f32; LANES];
    for ((o, &a), &b) in o.iter_mut().zip(x).zip(y) {
        let bd = f64::from(b);
        let int = bd == bd.trunc();
        let odd = int & ((bd * 0.5).trunc() != bd * 0.5);
        let r = exp2::<F>(bd * log2_abs::<F>(a)) as f32;
        let r = if odd & (a < 0.0) { -r } else { r };
        *o = if (a < 0.0) & !int { f32::NAN } else { r };
    }
    // Integer maxima of the magnitudes' bits (they vectorise; a count of booleans moved each
    // mask bit out one by one): a zero base wraps to the top, infinities and NaN sit above
    // the largest finite value.
    let base = x
        .iter()
        .map(|a| (a.to_bits() & 0x7fff_ffff).wrapping_sub(1))
        .fold(0, u32::max);
    let exponent = y
        .iter()
        .map(|b| b.to_bits() & 0x7fff_ffff)
        .fold(0, u32::max);
    if (base >= 0x7f7f_ffff) | (exponent >= 0x7f80_0000) {
        for ((o, &a), &b) in o.iter_mut().zip(x).zip(y) {
            if !regular(a, b) {
                *o = a.powf(b);
            }
        }
    }
    o
}
