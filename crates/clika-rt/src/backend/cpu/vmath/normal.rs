//! Normal random values in lanes: Box–Muller over uniform pairs, in the output's lane type.

use super::driver::{dispatch, Lane, LaneElem, SimdBody};
use super::{lanes32, lanes64, LaneFn, LANES};

/// Elements one [`normal_group`] makes: [`LANES`] pairs.
pub(crate) const NORMAL_GROUP: usize = 2 * LANES;

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

/// One group's work, compiled per instruction set.
struct Group<'a, E, W> {
    words: &'a W,
    mean: f64,
    std: f64,
    out: &'a mut [E; NORMAL_GROUP],
}

impl<E: LaneElem, W: Fn(usize) -> [u64; 2]> SimdBody for Group<'_, E, W>
where
    E::L: Unit,
{
    #[inline(always)]
    fn run<const F: bool>(self) {
        let (mut u1, mut u2) = ([E::L::default(); LANES], [E::L::default(); LANES]);
        for k in 0..LANES {
            let [a, b] = (self.words)(k);
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

/// [`NORMAL_GROUP`] normal values from [`LANES`] pairs of random words `words(k)`:
/// elements `2k` and `2k + 1` are `mean + std·r·cos θ` and `mean + std·r·sin θ`, with
/// `r = √(−2·ln(1 − u₁))`, `θ = 2π·u₂` and `u₁`, `u₂` uniform in `[0, 1)` with as many bits
/// as the lane type's significand (24 for `f32`, `Float16` and `BFloat16`; 53 for `f64`).
/// The logarithm, square root and trigonometric functions run as lane kernels (within
/// about 2 ulp of the lane type).
#[inline]
pub(crate) fn normal_group<E: LaneElem>(
    arch: pulp::Arch,
    words: impl Fn(usize) -> [u64; 2],
    mean: f64,
    std: f64,
) -> [E; NORMAL_GROUP]
where
    E::L: Unit,
{
    let mut out = [E::from_f64(0.0); NORMAL_GROUP];
    dispatch(
        arch,
        Group {
            words: &words,
            mean,
            std,
            out: &mut out,
        },
    );
    out
}
