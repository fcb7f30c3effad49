//! `pow` of `f32` lanes (the half types run it too), computed in `f64` lanes as
//! `2^(y·log2|x|)` with two small tables, so each half is a short polynomial:
//!
//! - `log2`: `|x| = 2^k·z` with `z ∈ [OFF, 2·OFF)` (subnormals scaled up first); the top four
//!   bits of `z`'s offset pick an interval with centre `c` (exactly 1 for the interval holding
//!   1, so `log2` near 1 has no cancellation), `r = z/c - 1` (`|r| < 0.032`, one fused
//!   multiply-add from the table's `1/c`), and `log2 z = log2 c + log2(1 + r)`, the series to
//!   `r^7` (truncation below 2^-43).
//! - `exp2`: `t = y·log2|x|` is split as `n/16 + r` with `|r| ≤ 1/32`; `2^t = 2^(n div 16) ·
//!   2^((n mod 16)/16) · 2^r`, the middle factor from the table and `2^r` the series to `r^5`
//!   (truncation below 2^-42).
//!
//! Both tables have 16 entries, so under AVX-512 each is held in two registers and read with
//! one permute (`vpermi2pd`) per eight lanes ([`Permutes`]); elsewhere each lane loads its
//! entry ([`Loads`], gathers under AVX2). The gathers were half the time of the AVX-512
//! kernel (six per sixteen lanes, when the exponential's table had 32 entries).
//!
//! With the `f64` rounding the exponent `t` carries well under 2^-30 relative error, so the
//! result rounds to the nearest `f32` but in rare near-halfway cases (`tests/vmath_binary.rs`
//! measures the worst case over two million pairs). The tables are built at compile time by
//! the `const fn` series below. A negative base with an integer exponent takes the sign of
//! its parity, with any other exponent gives NaN; zero, infinite and NaN operands (C's table
//! of special cases) come from the standard library's `powf`, lane by lane, in the chunks
//! that hold one.

use super::lanes64::{fma, horner};
use super::{lanes, LANES};

/// The bits of 0.69921875: reduced bases lie in `[OFF, 2·OFF)`.
const OFF: u32 = 0x3f33_0000;
/// Intervals of the logarithm's table (the top four bits of the offset from `OFF`).
const LOG_N: usize = 16;
/// Entries of the exponential's table: `2^(j/16)`.
const EXP_N: usize = 16;
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
const LOG_TABLE: ([f64; LOG_N], [f64; LOG_N]) = {
    let mut t = ([0.0; LOG_N], [0.0; LOG_N]);
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
        t.0[i] = inv;
        t.1[i] = -ln_series(inv) * std::f64::consts::LOG2_E;
        i += 1;
    }
    t
};

/// `2^(j/16)`.
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

/// Half a chunk: one AVX-512 register of `f64`.
const HALF: usize = LANES / 2;

/// Where [`pow_chunk`] reads its tables' entries.
pub(crate) trait Tables: Copy {
    /// `(1/c, log2 c)` of each lane's logarithm interval (`i < LOG_N`).
    fn log(self, i: &[u64; LANES]) -> ([f64; LANES], [f64; LANES]);
    /// `2^(j/16)` of each lane's `j mod EXP_N`.
    fn exp(self, j: &[u64; LANES]) -> [f64; LANES];
}

/// An indexed load per lane (gathers where the vectoriser finds them worth it).
#[derive(Clone, Copy)]
pub(crate) struct Loads;

impl Tables for Loads {
    #[inline(always)]
    fn log(self, i: &[u64; LANES]) -> ([f64; LANES], [f64; LANES]) {
        let (mut inv, mut log2c) = ([0.0; LANES], [0.0; LANES]);
        for ((inv, log2c), &i) in inv.iter_mut().zip(&mut log2c).zip(i) {
            let i = i as usize & (LOG_N - 1);
            (*inv, *log2c) = (LOG_TABLE.0[i], LOG_TABLE.1[i]);
        }
        (inv, log2c)
    }
    #[inline(always)]
    fn exp(self, j: &[u64; LANES]) -> [f64; LANES] {
        let mut e = [0.0; LANES];
        for (e, &j) in e.iter_mut().zip(j) {
            *e = EXP_TABLE[j as usize & (EXP_N - 1)];
        }
        e
    }
}

/// AVX-512: each 16-entry table in two registers, read by one two-source permute per eight
/// lanes (index bit 3 picks the register, bits 0–2 the entry).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Permutes(pub(crate) pulp::x86::V4);

#[cfg(target_arch = "x86_64")]
impl Permutes {
    /// `table[idx[l] mod 16]` for each lane.
    #[inline(always)]
    fn lookup(self, table: &[f64; 16], idx: &[u64; LANES]) -> [f64; LANES] {
        use std::arch::x86_64::{__m512d, __m512i};
        let half = |v: &[f64; 16], last| {
            *if last {
                v.last_chunk()
            } else {
                v.first_chunk()
            }
            .expect("halves")
        };
        let lo: __m512d = pulp::cast::<[f64; HALF], _>(half(table, false));
        let hi: __m512d = pulp::cast::<[f64; HALF], _>(half(table, true));
        let read = |idx: [u64; HALF]| -> [f64; HALF] {
            let idx: __m512i = pulp::cast(idx);
            pulp::cast(self.0.avx512f._mm512_permutex2var_pd(lo, idx, hi))
        };
        let first: [u64; HALF] = *idx.first_chunk().expect("halves");
        let last: [u64; HALF] = *idx.last_chunk().expect("halves");
        let mut o = [0.0; LANES];
        o[..HALF].copy_from_slice(&read(first));
        o[HALF..].copy_from_slice(&read(last));
        o
    }
}

#[cfg(target_arch = "x86_64")]
impl Tables for Permutes {
    #[inline(always)]
    fn log(self, i: &[u64; LANES]) -> ([f64; LANES], [f64; LANES]) {
        (self.lookup(&LOG_TABLE.0, i), self.lookup(&LOG_TABLE.1, i))
    }
    #[inline(always)]
    fn exp(self, j: &[u64; LANES]) -> [f64; LANES] {
        self.lookup(&EXP_TABLE, j)
    }
}

/// `x^y` of lanes whose operands are finite, the base nonzero (others are patched by
/// [`pow_chunk`]): `2^(y·log2|x|)` in stages — indices, table reads, polynomials — so the
/// reads can be permutes.
#[inline(always)]
fn pow_regular<const F: bool, L: Tables>(
    tables: L,
    x: &[f32; LANES],
    y: &[f32; LANES],
) -> [f32; LANES] {
    // log2 |x|: |x| = 2^k·z (subnormals scaled up first), z's interval i. One output per
    // loop: loops filling several arrays at once were partly scalarised by the vectoriser.
    let bits = lanes(|l| {
        let a = x[l].abs();
        if a < f32::MIN_POSITIVE {
            a * 8_388_608.0 // 2^23
        } else {
            a
        }
        .to_bits()
    });
    let i = lanes(|l| u64::from((bits[l].wrapping_sub(OFF) >> 19) & (LOG_N as u32 - 1)));
    let (inv, log2c) = tables.log(&i);
    // t = y·log2|x|, clamped to where 2^t saturates either way.
    let t = lanes(|l| {
        let tmp = bits[l].wrapping_sub(OFF);
        let tiny = x[l].abs() < f32::MIN_POSITIVE;
        let k = f64::from(((tmp as i32) >> 23) - if tiny { 23 } else { 0 });
        let z = f64::from(f32::from_bits(bits[l].wrapping_sub(tmp & 0xff80_0000)));
        let r = fma::<F>(z, inv[l], -1.0);
        let lg = fma::<F>(r, horner::<F>(r, &LOG2_POLY), log2c[l] + k);
        (f64::from(y[l]) * lg).clamp(-200.0, 200.0)
    });
    // t = n/16 + r: n in the low bits of s.
    let s = lanes(|l| fma::<F>(t[l], EXP_N as f64, SHIFTER));
    let ni = lanes(|l| s[l].to_bits().wrapping_sub(SHIFTER.to_bits()));
    let e = tables.exp(&ni);
    lanes(|l| {
        let j = ni[l] & (EXP_N as u64 - 1);
        // 2^(n div 16) joined to the table's 2^(j/16) by adding to its exponent bits.
        let scale = f64::from_bits(e[l].to_bits().wrapping_add(ni[l].wrapping_sub(j) << 48));
        let r = fma::<F>(s[l] - SHIFTER, -1.0 / EXP_N as f64, t[l]);
        (scale * horner::<F>(r, &EXP2_POLY)) as f32
    })
}

/// Whether a lane is in the vector path's domain (finite nonzero base, finite exponent).
#[inline(always)]
fn regular(a: f32, b: f32) -> bool {
    a.is_finite() & (a != 0.0) & b.is_finite()
}

/// `x^y` of two `f32` chunks, the tables read through `tables`.
#[inline(always)]
pub(crate) fn pow_chunk<const F: bool, L: Tables>(
    tables: L,
    x: &[f32; LANES],
    y: &[f32; LANES],
) -> [f32; LANES] {
    let mut o = pow_regular::<F, L>(tables, x, y);
    for ((o, &a), &b) in o.iter_mut().zip(x).zip(y) {
        let bd = f64::from(b);
        let int = bd == bd.trunc();
        let odd = int & ((bd * 0.5).trunc() != bd * 0.5);
        let r = if odd & (a < 0.0) { -*o } else { *o };
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

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// The AVX-512 permutes read the same entries as the per-lane loads, so both forms give
    /// the same bits (over ordinary, subnormal, negative and special operands).
    #[test]
    fn permuted_tables_give_the_loaded_tables_bits() {
        let Some(simd) = pulp::x86::V4::try_new() else {
            eprintln!("no AVX-512 here: the permute form cannot run");
            return;
        };
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.0,
            0.5,
            f32::INFINITY,
            f32::NAN,
            1e-40,
            -3.0,
        ];
        for round in 0..20_000 {
            let mut x = [0f32; LANES];
            let mut y = [0f32; LANES];
            for (l, (a, b)) in x.iter_mut().zip(&mut y).enumerate() {
                let (u, v) = (next(), next());
                *a = if round % 7 == 0 && l % 3 == 0 {
                    specials[(u % 10) as usize]
                } else {
                    f32::from_bits(u as u32 & 0x7fff_ffff) * if v & 1 == 0 { 1.0 } else { -1.0 }
                };
                // Exponents from -40 to 40, integers in every fourth lane.
                let e = (v >> 8) as u32 as f32 / u32::MAX as f32 * 80.0 - 40.0;
                *b = if l % 4 == 0 { e.round() } else { e };
            }
            let loaded = pow_chunk::<true, Loads>(Loads, &x, &y);
            let permuted = pow_chunk::<true, Permutes>(Permutes(simd), &x, &y);
            for l in 0..LANES {
                assert_eq!(
                    loaded[l].to_bits(),
                    permuted[l].to_bits(),
                    "pow({:e}, {:e})",
                    x[l],
                    y[l]
                );
            }
        }
    }
}
