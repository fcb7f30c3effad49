//! Random values in lanes: the generator's Philox blocks drawn [`LANES`] at a time inside the
//! SIMD dispatch (so the rounds' 32×32-bit products vectorise), mapped to two elements each,
//! and Box–Muller for normal values in the output's lane type.

use super::driver::{dispatch, Lane, LaneElem, SimdBody};
use super::{lanes32, lanes64, LaneFn, LANES};

/// Philox blocks one group draws: one per lane.
pub(crate) const BLOCKS: usize = LANES;

/// Elements one group makes: two per block.
pub(crate) const GROUP: usize = 2 * BLOCKS;

/// The four 32-bit words of [`BLOCKS`] Philox blocks, word-major (lane `l` is block `l`).
pub(crate) type Words = [[u32; BLOCKS]; 4];

/// A source of [`BLOCKS`] blocks at a time. A trait (not a closure) so the draw is marked
/// `#[inline(always)]` and compiles inside the dispatched code: as a closure LLVM kept
/// the ten unrolled rounds out of line, in the baseline instruction set.
pub(crate) trait Draw {
    /// The next group's blocks.
    fn draw(&self) -> Words;
}

/// One block's words, lane `l` of `w`.
#[inline(always)]
fn block(w: &Words, l: usize) -> [u32; 4] {
    [w[0][l], w[1][l], w[2][l], w[3][l]]
}

/// A block as two 64-bit words.
#[inline(always)]
fn words64(w: [u32; 4]) -> [u64; 2] {
    [
        (u64::from(w[0]) << 32) | u64::from(w[1]),
        (u64::from(w[2]) << 32) | u64::from(w[3]),
    ]
}

/// A group mapping each block to two elements, compiled per instruction set.
struct Pairs<'a, T, B, M> {
    blocks: &'a B,
    map: &'a M,
    out: &'a mut [T; GROUP],
}

impl<T, B: Draw, M: Fn([u32; 4]) -> [T; 2]> SimdBody for Pairs<'_, T, B, M> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let w = self.blocks.draw();
        for l in 0..BLOCKS {
            let [a, b] = (self.map)(block(&w, l));
            self.out[2 * l] = a;
            self.out[2 * l + 1] = b;
        }
    }
}

/// [`GROUP`] elements from the blocks `blocks` draws: elements `2l` and `2l + 1` are
/// `map` of block `l`. `blocks` and `map` are inlined into the dispatched code.
#[inline]
pub(crate) fn map_group<T: Copy + Default>(
    arch: pulp::Arch,
    blocks: impl Draw,
    map: impl Fn([u32; 4]) -> [T; 2],
) -> [T; GROUP] {
    let mut out = [T::default(); GROUP];
    dispatch(
        arch,
        Pairs {
            blocks: &blocks,
            map: &map,
            out: &mut out,
        },
    );
    out
}

/// A lane type's uniform value from 64 random bits.
pub(crate) trait Unit: Lane {
    /// A uniform value in `[0, 1)` from the high bits of `w` (as many as the significand holds).
    fn unit(w: u64) -> Self;
    /// Widens to `f64`, exactly.
    fn wide(self) -> f64;
}

impl Unit for f32 {
    #[inline(always)]
    fn unit(w: u64) -> f32 {
        (w >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }
}

impl Unit for f64 {
    #[inline(always)]
    fn unit(w: u64) -> f64 {
        (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
}

/// The Box–Muller radius `√(−2·ln(1 − u))` (`1 − u ∈ (0, 1]`, so the logarithm is finite).
#[derive(Clone, Copy)]
struct Radius;

impl LaneFn for Radius {
    #[inline(always)]
    fn f32<const F: bool>(x: &[f32; LANES]) -> [f32; LANES] {
        let l = lanes32::log_chunk::<F>(&lanes32::each(x, |u| 1.0 - u));
        lanes32::each(&l, |l| (-2.0 * l).sqrt())
    }
    #[inline(always)]
    fn f64<const F: bool>(x: &[f64; LANES]) -> [f64; LANES] {
        let l = lanes64::log_chunk::<F>(&lanes64::each(x, |u| 1.0 - u));
        lanes64::each(&l, |l| (-2.0 * l).sqrt())
    }
}

macro_rules! turn {
    ($name:ident, $chunk:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy)]
        struct $name;

        impl LaneFn for $name {
            #[inline(always)]
            fn f32<const F: bool>(x: &[f32; LANES]) -> [f32; LANES] {
                lanes32::$chunk::<F>(&lanes32::each(x, |u| std::f32::consts::TAU * u))
            }
            #[inline(always)]
            fn f64<const F: bool>(x: &[f64; LANES]) -> [f64; LANES] {
                lanes64::$chunk::<F>(&lanes64::each(x, |u| std::f64::consts::TAU * u))
            }
        }
    };
}

turn!(CosTurn, cos_chunk, "`cos 2πu`.");
turn!(SinTurn, sin_chunk, "`sin 2πu`.");

/// One group of normal values, compiled per instruction set.
struct Normal<'a, E, B> {
    blocks: &'a B,
    mean: f64,
    std: f64,
    out: &'a mut [E; GROUP],
}

impl<E: LaneElem, B: Draw> SimdBody for Normal<'_, E, B>
where
    E::L: Unit,
{
    #[inline(always)]
    fn run<const F: bool>(self) {
        let w = self.blocks.draw();
        let (mut u1, mut u2) = ([E::L::default(); LANES], [E::L::default(); LANES]);
        for k in 0..LANES {
            let [a, b] = words64(block(&w, k));
            (u1[k], u2[k]) = (E::L::unit(a), E::L::unit(b));
        }
        let r = E::L::apply::<Radius, F>(&u1);
        let (c, s) = (
            E::L::apply::<CosTurn, F>(&u2),
            E::L::apply::<SinTurn, F>(&u2),
        );
        for k in 0..LANES {
            let r = self.std * r[k].wide();
            self.out[2 * k] = E::from_f64(self.mean + r * c[k].wide());
            self.out[2 * k + 1] = E::from_f64(self.mean + r * s[k].wide());
        }
    }
}

/// [`GROUP`] normal values from the blocks `blocks` draws: elements `2k` and `2k + 1` are `mean + std·r·cos θ` and `mean + std·r·sin θ`, with
/// `r = √(−2·ln(1 − u₁))`, `θ = 2π·u₂` and `u₁`, `u₂` uniform in `[0, 1)` from the high bits
/// of block `k`'s two 64-bit halves, as many as the lane type's significand (24 for `f32`, `Float16` and `BFloat16`; 53 for `f64`).
/// The logarithm, square root and trigonometric functions run as lane kernels (within
/// about 2 ulp of the lane type).
#[inline]
pub(crate) fn normal_group<E: LaneElem>(
    arch: pulp::Arch,
    blocks: impl Draw,
    mean: f64,
    std: f64,
) -> [E; GROUP]
where
    E::L: Unit,
{
    let mut out = [E::from_f64(0.0); GROUP];
    dispatch(
        arch,
        Normal {
            blocks: &blocks,
            mean,
            std,
            out: &mut out,
        },
    );
    out
}
