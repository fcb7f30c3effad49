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
//! fits of `erfc(x)·e^{x²}` and of `atan` on `[0, tan(π/8)]`; `scripts/vmath_coeffs.py`
//! regenerates `coeffs_*.rs`. Two-operand functions (`atan2`) run through [`map2_lanes`].
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
//! | gelu | 5.8 | 9.0 |
//! | sqrt, rsqrt | 0.5, 1.5 | 0.5, 1.5 |
//! | log1p, expm1 (`log`/`exp` with Goldberg's / Kahan's correction) | 2.4 | 2.0 |
//! | tan (`sin / cos`) | 3.4 | 3.0 |
//! | atan2 (binary), atan | 2.4, 2.0 | 3.0, 2.0 |
//! | asin, acos (`atan2(x, √((1-x)(1+x)))` and its mirror) | 2.8, 2.2 | 3.0, 2.0 |
//!
//! `floor`, `ceil`, `trunc` and `round` (half to even) run through the same driver, exact:
//! under the AVX2/AVX-512 variants they are SSE4.1's rounding instructions.
//!
//! (f64 figures include the reference's own error, up to about 1 ulp. gelu's worst case is
//! the cancellation in `1 + erf(z)` for `-0.875 < z < -0.4`, where the series branch runs.)

use std::marker::PhantomData;

use half::{bf16, f16};
use pulp::{Simd, WithSimd};

use super::iter::{for_each_piece, Coalesced, SendPtr};
use crate::dtype::Element;
use crate::ops::{BinaryOp, UnaryOp};
use crate::{DType, Tensor};

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
    Cos => cos_chunk, Erf => erf_chunk, Gelu => gelu_chunk, Log1p => log1p_chunk,
    Expm1 => expm1_chunk, Tan => tan_chunk, Atan => atan_chunk, Asin => asin_chunk,
    Acos => acos_chunk,
}

/// A chunk function of two operands in both lane types; `F` says whether FMA is available.
pub(crate) trait LaneFn2: Copy + Send + Sync {
    /// The `f32` chunk.
    fn f32<const F: bool>(a: &[f32; LANES], b: &[f32; LANES]) -> [f32; LANES];
    /// The `f64` chunk.
    fn f64<const F: bool>(a: &[f64; LANES], b: &[f64; LANES]) -> [f64; LANES];
}

/// The `atan2(a, b)` kernel.
#[derive(Clone, Copy)]
pub(crate) struct Atan2;
impl LaneFn2 for Atan2 {
    #[inline(always)]
    fn f32<const F: bool>(a: &[f32; LANES], b: &[f32; LANES]) -> [f32; LANES] {
        lanes32::atan2_chunk::<F>(a, b)
    }
    #[inline(always)]
    fn f64<const F: bool>(a: &[f64; LANES], b: &[f64; LANES]) -> [f64; LANES] {
        lanes64::atan2_chunk::<F>(a, b)
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

/// A lane type: `f32` or `f64`.
pub(crate) trait Lane: Copy + Default {
    /// `K` on a chunk of this type.
    fn apply<K: LaneFn, const F: bool>(x: &[Self; LANES]) -> [Self; LANES];
    /// `K` on two chunks of this type.
    fn apply2<K: LaneFn2, const F: bool>(a: &[Self; LANES], b: &[Self; LANES]) -> [Self; LANES];
}

macro_rules! lane {
    ($($t:ident),*) => {$(
        impl Lane for $t {
            #[inline(always)]
            fn apply<K: LaneFn, const F: bool>(x: &[$t; LANES]) -> [$t; LANES] {
                K::$t::<F>(x)
            }
            #[inline(always)]
            fn apply2<K: LaneFn2, const F: bool>(a: &[$t; LANES], b: &[$t; LANES]) -> [$t; LANES] {
                K::$t::<F>(a, b)
            }
        }
    )*};
}

lane!(f32, f64);

/// An element type computed in lanes of type `L`.
pub(crate) trait LaneElem: Element {
    /// The lane type it computes in.
    type L: Lane;
    /// Widens to the lane type.
    fn to_lane(self) -> Self::L;
    /// Rounds back from the lane type.
    fn from_lane(v: Self::L) -> Self;
}

macro_rules! lane_elem {
    ($($t:ty => $l:ty, $to:expr, $from:expr;)*) => {$(
        impl LaneElem for $t {
            type L = $l;
            #[inline(always)]
            fn to_lane(self) -> $l {
                $to(self)
            }
            #[inline(always)]
            fn from_lane(v: $l) -> Self {
                $from(v)
            }
        }
    )*};
}

lane_elem! {
    f32 => f32, |v| v, |v| v;
    f64 => f64, |v| v, |v| v;
    f16 => f32, f16::to_f32, f16::from_f32;
    bf16 => f32, bf16::to_f32, bf16::from_f32;
}

/// One piece of a row: `len` elements from `a0` (stride `sa`) to `o0` (stride `so`).
struct Piece<E, K> {
    a0: *const E,
    sa: isize,
    o0: *mut E,
    so: isize,
    len: usize,
    k: PhantomData<K>,
}

/// One piece of a row of a two-operand op: [`Piece`] with `b0` (stride `sb`) as well.
struct Piece2<E, K> {
    a0: *const E,
    sa: isize,
    b0: *const E,
    sb: isize,
    o0: *mut E,
    so: isize,
    len: usize,
    k: PhantomData<K>,
}

/// Loads elements `i..i + n` (`n ≤ LANES`) of the row at `p` (stride `s`) into lanes, the
/// rest zero.
///
/// # Safety
/// The `n` elements are in bounds.
#[inline(always)]
unsafe fn load<E: LaneElem>(p: *const E, s: isize, i: usize, n: usize) -> [E::L; LANES] {
    let mut x = [E::L::default(); LANES];
    // SAFETY: `i + j < i + n` is in bounds by the caller's guarantee.
    unsafe {
        if s == 1 && n == LANES {
            for (j, v) in x.iter_mut().enumerate() {
                *v = E::load(p.add(i + j)).to_lane();
            }
        } else {
            for (j, v) in x.iter_mut().enumerate().take(n) {
                *v = E::load(p.offset((i + j) as isize * s)).to_lane();
            }
        }
    }
    x
}

/// Stores the first `n` lanes of `y` to elements `i..i + n` of the row at `p` (stride `s`).
///
/// # Safety
/// The `n` elements are in bounds and writable.
#[inline(always)]
unsafe fn store<E: LaneElem>(y: &[E::L; LANES], p: *mut E, s: isize, i: usize, n: usize) {
    // SAFETY: as `load`.
    unsafe {
        if s == 1 && n == LANES {
            for (j, &v) in y.iter().enumerate() {
                p.add(i + j).write(E::from_lane(v));
            }
        } else {
            for (j, &v) in y.iter().enumerate().take(n) {
                p.offset((i + j) as isize * s).write(E::from_lane(v));
            }
        }
    }
}

/// Work compiled once with FMA (`F = true`, in the AVX2/AVX-512 dispatches) and once
/// without (the portable fallback); [`dispatch`] runs the best this CPU has.
pub(crate) trait SimdBody {
    /// The work; implementations are `#[inline(always)]` so they compile inside the
    /// dispatcher's target-feature function.
    fn run<const F: bool>(self);
}

/// A [`SimdBody`] as `pulp` calls it.
struct Wrap<B, const F: bool>(B);

impl<B: SimdBody, const F: bool> WithSimd for Wrap<B, F> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        self.0.run::<F>();
    }
}

impl<E: LaneElem, K: LaneFn> SimdBody for Piece<E, K> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Piece {
            a0,
            sa,
            o0,
            so,
            len,
            ..
        } = self;
        let mut i = 0;
        while i < len {
            let n = LANES.min(len - i);
            // SAFETY: a `Piece` is only built (in `map_lanes`) for `len` elements that are in
            // bounds for both tensors at these strides, and `i + n <= len`. The whole chunk is
            // read before any of it is written, so an output that is the input itself (same
            // layout) reads its old values.
            unsafe {
                let x = load(a0, sa, i, n);
                store::<E>(&E::L::apply::<K, F>(&x), o0, so, i, n);
            }
            i += n;
        }
    }
}

impl<E: LaneElem, K: LaneFn2> SimdBody for Piece2<E, K> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Piece2 {
            a0,
            sa,
            b0,
            sb,
            o0,
            so,
            len,
            ..
        } = self;
        let mut i = 0;
        while i < len {
            let n = LANES.min(len - i);
            // SAFETY: as for `Piece`, built by `map2_lanes` for three in-bounds rows.
            unsafe {
                let (x, y) = (load(a0, sa, i, n), load(b0, sb, i, n));
                store::<E>(&E::L::apply2::<K, F>(&x, &y), o0, so, i, n);
            }
            i += n;
        }
    }
}

/// Runs `body` with the best instruction set this CPU has (`arch` from `pulp::Arch::new`,
/// taken once per operation).
#[inline(always)]
pub(crate) fn dispatch<B: SimdBody>(arch: pulp::Arch, body: B) {
    #[cfg(target_arch = "x86_64")]
    match arch {
        pulp::Arch::V4(simd) => Simd::vectorize(simd, Wrap::<B, true>(body)),
        pulp::Arch::V3(simd) => Simd::vectorize(simd, Wrap::<B, true>(body)),
        _ => Wrap::<B, false>(body).with_simd(pulp::Scalar),
    }
    #[cfg(not(target_arch = "x86_64"))]
    arch.dispatch(Wrap::<B, { cfg!(target_arch = "aarch64") }>(body));
}

/// `out[i] = K(src[i])` over any layout (`src` broadcast views included).
///
/// # Safety
/// As for `kernel::map1`: host tensors of element type `E` with `out`'s shape, `out`
/// writable and not otherwise accessed during the call, and either `src` itself or
/// disjoint from it.
pub(crate) unsafe fn map_lanes<E: LaneElem, K: LaneFn>(src: &Tensor, out: &Tensor) {
    debug_assert_eq!(src.shape(), out.shape());
    let co = Coalesced::<2>::new(out.shape(), [src.strides(), out.strides()]);
    let pa = SendPtr(src.data_ptr().cast::<E>());
    let po = SendPtr(out.data_ptr().cast::<E>());
    let [sa, so] = co.inner_strides();
    let arch = pulp::Arch::new();
    for_each_piece(co.rows(), co.inner(), |row, start, len| {
        let [oa, oo] = co.row_offsets(row);
        let s = start as isize;
        // SAFETY: row `row`, elements `start..start + len`, of both tensors are in bounds
        // (L3 for each layout, which the coalesced strides walk exactly); pieces are
        // disjoint, so no two threads write one output element.
        let p = unsafe {
            Piece::<E, K> {
                a0: pa.get().offset(oa + s * sa),
                sa,
                o0: po.get().offset(oo + s * so),
                so,
                len,
                k: PhantomData,
            }
        };
        dispatch(arch, p);
    });
}

/// `out[i] = K(a[i], b[i])` over any layout (broadcast views included).
///
/// # Safety
/// As for [`map_lanes`], for both inputs.
pub(crate) unsafe fn map2_lanes<E: LaneElem, K: LaneFn2>(a: &Tensor, b: &Tensor, out: &Tensor) {
    debug_assert_eq!(a.shape(), out.shape());
    debug_assert_eq!(b.shape(), out.shape());
    let co = Coalesced::<3>::new(out.shape(), [a.strides(), b.strides(), out.strides()]);
    let pa = SendPtr(a.data_ptr().cast::<E>());
    let pb = SendPtr(b.data_ptr().cast::<E>());
    let po = SendPtr(out.data_ptr().cast::<E>());
    let [sa, sb, so] = co.inner_strides();
    let arch = pulp::Arch::new();
    for_each_piece(co.rows(), co.inner(), |row, start, len| {
        let [oa, ob, oo] = co.row_offsets(row);
        let s = start as isize;
        // SAFETY: as in `map_lanes`, for three operands.
        let p = unsafe {
            Piece2::<E, K> {
                a0: pa.get().offset(oa + s * sa),
                sa,
                b0: pb.get().offset(ob + s * sb),
                sb,
                o0: po.get().offset(oo + s * so),
                so,
                len,
                k: PhantomData,
            }
        };
        dispatch(arch, p);
    });
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
