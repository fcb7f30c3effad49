//! Vectorised transcendental functions for `f32` and `f64` lanes.
//!
//! Each function is a polynomial (or Chebyshev) kernel written branch-free per element and
//! applied to chunks of [`LANES`] elements, so the compiler turns each chunk into SIMD
//! instructions. The chunk loop is compiled three times through `pulp`'s dispatch — AVX-512,
//! AVX2+FMA, and a portable fallback — and the variant is chosen at run time. One driver,
//! [`map_lanes`], walks any layout through the shared iterator (`iter.rs`): contiguous rows
//! load whole chunks, strided and broadcast rows gather them, and a ragged end is padded.
//! `float16`/`bfloat16` run the `f32` kernels and round once.
//!
//! Coefficients are exact series terms (`1/k!`, the atanh and Taylor series of `sin`,
//! `cos`, `erf`, the asymptotic series of `erfc`) rounded to the lane type, plus Chebyshev
//! fits of `erfc(x)·e^{x²}`, of `atan` on `[0, tan(π/8)]` and, by interval, of the `f32`
//! gelu's `e^{y²/2}·Φ(-y)` (`gelu.rs`); `scripts/vmath_coeffs.py`
//! regenerates `coeffs_*.rs`. Two-operand functions (`atan2`, and Python's `//` and `%` and
//! C's `fmod`, exact: a quotient below `2^MANT` is truncated and corrected, its remainder
//! computed with one FMA; other chunks call libm's `fmod`) run through [`map2_lanes`].
//!
//! Maximum errors measured against `f64` references over dense sweeps (`tests/vmath_ulp.rs`:
//! a stride through every `f32` bit pattern, random `f64` bit patterns, dense grids, and the
//! special values, which come out exactly), in units in the last place of the lane type; the
//! test asserts bounds just above these:
//!
//! | function | f32 | f64 |
//! |---|---|---|
//! | exp | 0.87 | 1.0 |
//! | log | 0.74 | 1.0 |
//! | tanh | 2.4 | 4.0 |
//! | sigmoid | 2.3 | 3.0 |
//! | silu | 3.0 | 4.0 |
//! | sin, cos (all finite inputs) | 2.2 | 2.0 |
//! | erf | 2.4 | 2.0 |
//! | gelu | 4.3 | 9.0 |
//! | sqrt, rsqrt | 0.5, 1.5 | 0.5, 1.5 |
//! | log1p, expm1 (`log`/`exp` with Goldberg's / Kahan's correction) | 2.4 | 2.0 |
//! | tan (`sin / cos`) | 3.4 | 3.0 |
//! | atan2 (binary), atan | 2.4, 2.0 | 3.0, 2.0 |
//! | asin, acos (`atan2(x, √((1-x)(1+x)))` and its mirror) | 2.8, 2.2 | 3.0, 2.0 |
//!
//! `floor`, `ceil`, `trunc` and `round` (half to even) run through the same driver, exact:
//! under the AVX2/AVX-512 variants they are SSE4.1's rounding instructions.
//!
//! (f64 figures include the reference's own error, up to about 1 ulp. The `f64` gelu's worst
//! case is the cancellation in `1 + erf(z)` for `-0.875 < z < -0.4`, where its series branch
//! runs; the `f32` gelu has one formula for every lane, tables read by permutes, and its
//! error is the sum of that formula's roundings: see `gelu.rs`.)

use half::{bf16, f16};

use crate::ops::{BinaryOp, UnaryOp};
use crate::{DType, Tensor};

mod driver;
mod gelu;
mod pow;
mod random;

pub(crate) use driver::{
    avx2, dispatch, dispatch_avx2, load, store, Avx2, Call, Lane, LaneElem, SimdBody,
};
use driver::{map2_lanes, map_lanes};
pub(crate) use random::{map_group, normal_group, Draw, Unit, Words, BLOCKS, GROUP};

/// Elements per chunk: one AVX-512 register of `f32`, two of `f64`.
pub(crate) const LANES: usize = 16;

/// The `f32` lane functions.
#[allow(
    clippy::excessive_precision,
    clippy::unreadable_literal,
    clippy::approx_constant,
    reason = "series coefficients, some equal to named constants (2/√π)"
)]
pub(crate) mod lanes32 {
    use super::LANES;
    type T = f32;
    type U = u32;
    type I = i32;
    const MANT: u32 = 23;
    const BIAS: I = 127;
    const SHIFTER: T = 12_582_912.0; // 1.5 · 2^23
    const LN2_HI: T = f32::from_bits(0x3f31_7200);
    const LN2_LO: T = (std::f64::consts::LN_2 - 0.693_145_751_953_125) as f32;
    const EXP_LO: T = -104.0;
    const EXP_HI: T = 89.0;
    const TANH_CLAMP: T = 10.0;
    /// sigmoid/silu scale `e^-|x|` by `2^SIG_K` and follow it `SIG_LO_EXTRA` below `EXP_LO`
    /// (where `x·e^x` is still above the smallest subnormal).
    const SIG_K: I = 64;
    const SIG_LO_EXTRA: T = 6.0;
    const DENORM_SCALE: T = 33_554_432.0; // 2^25
    const DENORM_SCALE_EXP: I = 25;
    const SPLIT: T = 4097.0;
    /// π/2 in parts of 12, 12, 12 and 24 significant bits.
    const PIO2: [T; 4] = [
        f32::from_bits(0x3fc9_1000),
        f32::from_bits(0xb695_7000),
        f32::from_bits(0xb06f_5000),
        f32::from_bits(0x298c_234c),
    ];
    /// Below 2^12 · π/2 the products `n · PIO2[0..3]` are exact.
    const TRIG_LIMIT: T = 6000.0;
    const ERF_SPLIT: T = 0.875;
    const ERF_ONE: T = 4.0;
    const ERFCX_B: T = 6.0;
    const GELU_HI: T = 8.0;
    const GELU_LO: T = -15.0;
    /// π as the nearest `T` plus the rest.
    const PI_HI: T = std::f32::consts::PI;
    const PI_LO: T = -8.742_278e-8;
    const TAN_PI_8: T = 0.414_213_57;
    include!("coeffs_f32.rs");
    include!("body.rs");
}

/// The `f64` lane functions.
#[allow(
    clippy::excessive_precision,
    clippy::unreadable_literal,
    clippy::approx_constant,
    reason = "series coefficients, some equal to named constants (2/√π)"
)]
pub(crate) mod lanes64 {
    use super::LANES;
    type T = f64;
    type U = u64;
    type I = i64;
    const MANT: u32 = 52;
    const BIAS: I = 1023;
    const SHIFTER: T = 6_755_399_441_055_744.0; // 1.5 · 2^52
    const LN2_HI: T = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: T = 1.908_214_929_270_587_7e-10;
    const EXP_LO: T = -746.0;
    const EXP_HI: T = 710.0;
    const TANH_CLAMP: T = 20.0;
    const SIG_K: I = 128;
    const SIG_LO_EXTRA: T = 7.0;
    const DENORM_SCALE: T = 18_014_398_509_481_984.0; // 2^54
    const DENORM_SCALE_EXP: I = 54;
    const SPLIT: T = 134_217_729.0;
    /// π/2 in parts of 33, 33, 33 and 53 significant bits.
    const PIO2: [T; 4] = [
        f64::from_bits(0x3ff9_21fb_5440_0000),
        f64::from_bits(0x3dd0_b461_1a60_0000),
        f64::from_bits(0x3ba3_198a_2e00_0000),
        f64::from_bits(0x397b_839a_2520_49c1),
    ];
    /// Below 2^20 · π/2 the products `n · PIO2[0..3]` are exact.
    const TRIG_LIMIT: T = 1.6e6;
    const ERF_SPLIT: T = 0.875;
    const ERF_ONE: T = 6.0;
    const ERFCX_B: T = 8.0;
    const GELU_HI: T = 9.0;
    const GELU_LO: T = -40.0;
    const PI_HI: T = std::f64::consts::PI;
    const PI_LO: T = 1.224_646_799_147_353_2e-16;
    const TAN_PI_8: T = 0.414_213_562_373_095_03;
    include!("coeffs_f64.rs");
    include!("body.rs");
}

/// A chunk function in both lane types; `F` says whether FMA is available.
pub(crate) trait LaneFn: Copy + Send + Sync {
    /// The `f32` chunk.
    fn f32<const F: bool>(x: &[f32; LANES]) -> [f32; LANES];
    /// The `f64` chunk.
    fn f64<const F: bool>(x: &[f64; LANES]) -> [f64; LANES];
    /// The `f32` chunk under AVX2: [`f32`](Self::f32) unless the kernel has a form of its
    /// own there (tables read by permutes of registers, which the vectoriser does not pick
    /// from plain code).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f32_v3(_simd: pulp::x86::V3, x: &[f32; LANES]) -> [f32; LANES] {
        Self::f32::<true>(x)
    }
    /// The `f32` chunk under AVX-512 (as [`f32_v3`](Self::f32_v3)).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f32_v4(_simd: pulp::x86::V4, x: &[f32; LANES]) -> [f32; LANES] {
        Self::f32::<true>(x)
    }
}

/// `gelu x = x·Φ(x)`: `f32` (and the half types) through the tables of `gelu.rs`, `f64` by
/// ranges (`gelu_ranges_chunk` in `body.rs`).
#[derive(Clone, Copy)]
pub(crate) struct Gelu;

impl LaneFn for Gelu {
    #[inline(always)]
    fn f32<const F: bool>(x: &[f32; LANES]) -> [f32; LANES] {
        gelu::gelu_chunk::<F, _>(gelu::Loads, x)
    }
    #[inline(always)]
    fn f64<const F: bool>(x: &[f64; LANES]) -> [f64; LANES] {
        lanes64::gelu_ranges_chunk::<F>(x)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f32_v3(simd: pulp::x86::V3, x: &[f32; LANES]) -> [f32; LANES] {
        gelu::gelu_chunk::<true, _>(gelu::Permutes8(simd), x)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f32_v4(simd: pulp::x86::V4, x: &[f32; LANES]) -> [f32; LANES] {
        gelu::gelu_chunk::<true, _>(gelu::Permutes16(simd), x)
    }
}

/// `[f(0), …, f(LANES - 1)]`: one stage of a chunk kernel written lane by lane.
#[inline(always)]
pub(crate) fn lanes<V: Copy + Default>(f: impl Fn(usize) -> V) -> [V; LANES] {
    let mut o = [V::default(); LANES];
    for (l, o) in o.iter_mut().enumerate() {
        *o = f(l);
    }
    o
}

macro_rules! lane_fns {
    ($($name:ident => $chunk:ident),* $(,)?) => {$(
        #[doc = concat!("The `", stringify!($chunk), "` kernel.")]
        #[derive(Clone, Copy)]
        pub(crate) struct $name;
        impl LaneFn for $name {
            #[inline(always)]
            fn f32<const F: bool>(x: &[f32; LANES]) -> [f32; LANES] {
                lanes32::$chunk::<F>(x)
            }
            #[inline(always)]
            fn f64<const F: bool>(x: &[f64; LANES]) -> [f64; LANES] {
                lanes64::$chunk::<F>(x)
            }
        }
    )*};
}

lane_fns! {
    Exp => exp_chunk, Log => log_chunk, Tanh => tanh_chunk, Sigmoid => sigmoid_chunk,
    Silu => silu_chunk, Sqrt => sqrt_chunk, Rsqrt => rsqrt_chunk, Sin => sin_chunk,
    Cos => cos_chunk, Erf => erf_chunk, Log1p => log1p_chunk,
    Expm1 => expm1_chunk, Tan => tan_chunk, Atan => atan_chunk, Asin => asin_chunk,
    Acos => acos_chunk,
}

/// A chunk function of two operands in both lane types; `F` says whether FMA is available.
pub(crate) trait LaneFn2: Copy + Send + Sync {
    /// The `f32` chunk.
    fn f32<const F: bool>(a: &[f32; LANES], b: &[f32; LANES]) -> [f32; LANES];
    /// The `f64` chunk.
    fn f64<const F: bool>(a: &[f64; LANES], b: &[f64; LANES]) -> [f64; LANES];
    /// The `f32` chunk under AVX-512: [`f32`](Self::f32) unless the kernel has a form of
    /// its own there.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f32_v4(_simd: pulp::x86::V4, a: &[f32; LANES], b: &[f32; LANES]) -> [f32; LANES] {
        Self::f32::<true>(a, b)
    }
    /// The `f64` chunk under AVX-512 (as [`f32_v4`](Self::f32_v4)).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f64_v4(_simd: pulp::x86::V4, a: &[f64; LANES], b: &[f64; LANES]) -> [f64; LANES] {
        Self::f64::<true>(a, b)
    }
}

macro_rules! lane_fns2 {
    ($($name:ident => $chunk:ident),* $(,)?) => {$(
        #[doc = concat!("The `", stringify!($chunk), "` kernel.")]
        #[derive(Clone, Copy)]
        pub(crate) struct $name;
        impl LaneFn2 for $name {
            #[inline(always)]
            fn f32<const F: bool>(a: &[f32; LANES], b: &[f32; LANES]) -> [f32; LANES] {
                lanes32::$chunk::<F>(a, b)
            }
            #[inline(always)]
            fn f64<const F: bool>(a: &[f64; LANES], b: &[f64; LANES]) -> [f64; LANES] {
                lanes64::$chunk::<F>(a, b)
            }
        }
    )*};
}

lane_fns2! {
    Atan2 => atan2_chunk, FloorDivide => floor_divide_chunk, Remainder => remainder_chunk,
    Fmod => fmod_chunk,
}

/// `x^y`: `f32` (and the half types, which run it) through the table-driven `f64` lanes of
/// `pow.rs`; a chunk whose exponents are all 2 is squared (the correctly rounded `x²` the
/// general path gives too, in one product). `f64` calls the standard library's `pow` per
/// lane (an `f64` kernel needs a double-`f64` logarithm; not written yet).
#[derive(Clone, Copy)]
pub(crate) struct Pow;

impl Pow {
    /// `x^y` of `f32` chunks with the tables read through `tables`.
    #[inline(always)]
    fn chunk32<const F: bool, L: pow::Tables>(
        tables: L,
        x: &[f32; LANES],
        y: &[f32; LANES],
    ) -> [f32; LANES] {
        // Every exponent's bits equal to 2.0's (an OR of integer lanes, which vectorises).
        let other = y
            .iter()
            .fold(0, |acc, &b| acc | (b.to_bits() ^ 2f32.to_bits()));
        if other == 0 {
            let mut o = [0f32; LANES];
            for (o, &a) in o.iter_mut().zip(x) {
                *o = a * a;
            }
            return o;
        }
        pow::pow_chunk::<F, L>(tables, x, y)
    }
}

impl LaneFn2 for Pow {
    #[inline(always)]
    fn f32<const F: bool>(x: &[f32; LANES], y: &[f32; LANES]) -> [f32; LANES] {
        Self::chunk32::<F, _>(pow::Loads, x, y)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn f32_v4(simd: pulp::x86::V4, x: &[f32; LANES], y: &[f32; LANES]) -> [f32; LANES] {
        Self::chunk32::<true, _>(pow::Permutes(simd), x, y)
    }
    #[inline(always)]
    fn f64<const F: bool>(x: &[f64; LANES], y: &[f64; LANES]) -> [f64; LANES] {
        let mut o = [0f64; LANES];
        for ((o, &a), &b) in o.iter_mut().zip(x).zip(y) {
            *o = a.powf(b);
        }
        o
    }
}

/// The exact rounding functions, written per element: inside the AVX2 and AVX-512 variants
/// of the dispatch each compiles to one `vroundps`/`vroundpd` per register (SSE4.1's
/// rounding instructions), where the baseline x86-64 target calls libm per element.
macro_rules! exact_lane_fns {
    ($($name:ident => $f:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($f), "` per element (exact).")]
        #[derive(Clone, Copy)]
        pub(crate) struct $name;
        impl LaneFn for $name {
            #[inline(always)]
            fn f32<const F: bool>(x: &[f32; LANES]) -> [f32; LANES] {
                lanes32::each(x, f32::$f)
            }
            #[inline(always)]
            fn f64<const F: bool>(x: &[f64; LANES]) -> [f64; LANES] {
                lanes64::each(x, f64::$f)
            }
        }
    )*};
}

exact_lane_fns! {
    Floor => floor, Ceil => ceil, Trunc => trunc, RoundEven => round_ties_even,
}

/// Runs `op` from `src` into `out` (both of `out`'s float dtype) with a lane kernel, if
/// `op` has one for that dtype; `false` leaves the work to the caller.
///
/// # Safety
/// As for [`map_lanes`].
pub(crate) unsafe fn run_unary(op: UnaryOp, src: &Tensor, out: &Tensor) -> bool {
    fn with<K: LaneFn>(dtype: DType) -> Option<unsafe fn(&Tensor, &Tensor)> {
        Some(match dtype {
            DType::Float32 => map_lanes::<f32, K>,
            DType::Float64 => map_lanes::<f64, K>,
            DType::Float16 => map_lanes::<f16, K>,
            DType::BFloat16 => map_lanes::<bf16, K>,
            _ => return None,
        })
    }
    let d = out.dtype();
    let kernel = match op {
        UnaryOp::Exp => with::<Exp>(d),
        UnaryOp::Log => with::<Log>(d),
        UnaryOp::Sqrt => with::<Sqrt>(d),
        UnaryOp::Rsqrt => with::<Rsqrt>(d),
        UnaryOp::Sin => with::<Sin>(d),
        UnaryOp::Cos => with::<Cos>(d),
        UnaryOp::Tanh => with::<Tanh>(d),
        UnaryOp::Sigmoid => with::<Sigmoid>(d),
        UnaryOp::Gelu => with::<Gelu>(d),
        UnaryOp::Silu => with::<Silu>(d),
        UnaryOp::Erf => with::<Erf>(d),
        UnaryOp::Log1p => with::<Log1p>(d),
        UnaryOp::Expm1 => with::<Expm1>(d),
        UnaryOp::Tan => with::<Tan>(d),
        UnaryOp::Atan => with::<Atan>(d),
        UnaryOp::Asin => with::<Asin>(d),
        UnaryOp::Acos => with::<Acos>(d),
        UnaryOp::Floor => with::<Floor>(d),
        UnaryOp::Ceil => with::<Ceil>(d),
        UnaryOp::Trunc => with::<Trunc>(d),
        UnaryOp::Round => with::<RoundEven>(d),
        // The other exact ops and the rest of what `elementwise_more` owns.
        _ => None,
    };
    match kernel {
        Some(k) => {
            // SAFETY: forwarded from this function's contract.
            unsafe { k(src, out) };
            true
        }
        None => false,
    }
}

/// Runs `op` on `a` and `b` into `out` (all three of `out`'s float dtype, the inputs
/// broadcast to its shape) with a lane kernel, if `op` has one for that dtype; `false` leaves
/// the work to the caller.
///
/// # Safety
/// As for [`map2_lanes`].
pub(crate) unsafe fn run_binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) -> bool {
    fn with<K: LaneFn2>(dtype: DType) -> Option<unsafe fn(&Tensor, &Tensor, &Tensor)> {
        Some(match dtype {
            DType::Float32 => map2_lanes::<f32, K>,
            DType::Float64 => map2_lanes::<f64, K>,
            DType::Float16 => map2_lanes::<f16, K>,
            DType::BFloat16 => map2_lanes::<bf16, K>,
            _ => return None,
        })
    }
    let kernel = match op {
        BinaryOp::Atan2 => with::<Atan2>(out.dtype()),
        BinaryOp::FloorDivide => with::<FloorDivide>(out.dtype()),
        BinaryOp::Remainder => with::<Remainder>(out.dtype()),
        BinaryOp::Fmod => with::<Fmod>(out.dtype()),
        BinaryOp::Pow => with::<Pow>(out.dtype()),
        _ => None,
    };
    match kernel {
        Some(k) => {
            // SAFETY: forwarded from this function's contract.
            unsafe { k(a, b, out) };
            true
        }
        None => false,
    }
}
