//! Per-type reduction kernels over contiguous chunks: the inner loops of the reduction
//! engine (`reduce.rs`).
//!
//! Every kernel is a plain loop over a slice of at most [`CHUNK`] elements that accumulates
//! in a fixed number of independent lanes of the element's natural type (`f32` max in `f32`
//! lanes, `i8` sums in `i64` lanes), so the compiler vectorises it; the lanes are combined
//! once per chunk (float lanes by a fixed halving [`Tree`], in AVX2 instructions where the
//! dispatch has them). `Float16`/`BFloat16` chunks are first widened to `f32` with the `half`
//! crate's slice conversion. No per-element enum and no `f64` round trip: `f64` appears only
//! once per chunk, to add a chunk's `f32` sum to the running total.

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use super::num::Num;
use crate::dtype::Element;

/// Elements per chunk: the unit of the f32 sum's blocked summation, and the size of the
/// stack buffers that strided rows are gathered into.
pub(crate) const CHUNK: usize = 1024;

/// The reduction kernels of one element type.
pub(crate) trait RedElem: Element + Num {
    /// The type max/min compare in: `f32` for the half types, the type itself otherwise.
    type W: Copy + PartialOrd + Send + Sync + Default + std::fmt::Debug;
    /// The accumulator of outer (column) sums: `f32` for `f32` and the half types (added
    /// into `f64` every [`OUTER_BLOCK`] steps), `f64` for `f64`, `i64` for integers.
    type A: Copy + Send + Sync + Default;
    /// What a sum or product returns ([`DType::sum_dtype`](crate::DType::sum_dtype)): the
    /// type itself for floats, `u64` for `u64`, `i64` for the other integers.
    type Sum: Element;
    /// What a mean returns ([`DType::mean_dtype`](crate::DType::mean_dtype)): the type itself
    /// for floats, `f64` for integers.
    type Mean: Element;
    /// Sum of a chunk as `f64` (floats; integer means use an exact `i64` sum per chunk).
    fn sum_f(tree: Tree, xs: &[Self]) -> f64;
    /// Wrapping `i64` sum of a chunk (integers).
    fn sum_i(xs: &[Self]) -> i64;
    /// `Σx²` (`SQ`) or `Σ|x|` of a chunk as `f64`, in the lanes of [`RedElem::sum_f`]
    /// (floats; integers convert each element).
    fn norm_f<const SQ: bool>(tree: Tree, xs: &[Self]) -> f64;
    /// NaN-propagating maximum (`MAX`) or minimum of a non-empty slice.
    fn best<const MAX: bool>(tree: Tree, xs: &[Self]) -> Self::W;
    /// Index of the first element equal to `m` (the first NaN when `m` is NaN), or `xs.len()`.
    fn first_eq(xs: &[Self], m: Self::W) -> usize;
    /// `acc[i] = keep(acc[i], xs[i])`: running column maxima (`MAX`) or minima.
    fn keep_into<const MAX: bool>(acc: &mut [Self::W], xs: &[Self]);
    /// Running column arg-maxima (`MAX`) or arg-minima: where `xs[i]` is strictly better
    /// than `acc[i]`, `acc[i]` takes it and `to[i] = step`, elsewhere `to[i] = from[i]` (see
    /// [`arg_into_w`]).
    fn arg_into<const MAX: bool>(
        acc: &mut [Self::W],
        from: &[u32],
        to: &mut [u32],
        xs: &[Self],
        step: u32,
    );
    /// `acc[i] += xs[i]` in the accumulator type.
    fn acc_add(acc: &mut [Self::A], xs: &[Self]);
    /// `acc[i] *= xs[i]` in `f64`: running column products of floats.
    #[inline(always)]
    fn acc_mul_f(acc: &mut [f64], xs: &[Self]) {
        acc.iter_mut().zip(xs).for_each(|(a, &x)| *a *= x.to_f64());
    }
    /// `acc[i] *= xs[i]` wrapping in `i64`: running column products of integers.
    #[inline(always)]
    fn acc_mul_i(acc: &mut [i64], xs: &[Self]) {
        acc.iter_mut()
            .zip(xs)
            .for_each(|(a, &x)| *a = a.wrapping_mul(x.to_i64()));
    }
    /// The mean and the sum of squared deviations from it of a chunk whose mean is about
    /// `m` (the variance's second pass, over a chunk still in cache): `Σ(x − c)` and
    /// `Σ(x − c)²` in the type's lanes (`f32` for `f32` and the half types, `f64`
    /// otherwise) about `c`, `m` rounded to that type, give `mean = c + Σ(x − c)/n` and
    /// `m2 = Σ(x − c)² − (Σ(x − c))²/n` without the first pass's rounding error.
    fn moments(tree: Tree, xs: &[Self], m: f64) -> (f64, f64);
    /// An accumulator as `f64` / as wrapping `i64`.
    fn a_f64(a: Self::A) -> f64;
    /// An accumulator as `i64`.
    fn a_i64(a: Self::A) -> i64;
    /// One element as the compared type.
    fn w_of(x: Self) -> Self::W;
    /// A compared value as the output type.
    fn w_out<D: Element>(w: Self::W) -> D;
}

/// Outer sums add this many reduced steps into their narrow accumulator before adding it
/// into `f64`: each `f32` lane sums at most 64 elements, as in the inner blocked sum.
pub(crate) const OUTER_BLOCK: usize = 64;

/// Keeps `a` unless `v` is strictly better; a NaN `a` stays, a NaN `v` wins. Written with
/// non-short-circuit operators so it compiles to compare-and-blend.
#[inline(always)]
pub(crate) fn keep<T: PartialOrd + Copy, const MAX: bool>(a: T, v: T) -> T {
    #[allow(clippy::eq_op, reason = "x != x is the NaN test for a generic T")]
    let a_nan = a != a;
    let keep_a = if MAX { a >= v } else { a <= v };
    if a_nan | keep_a {
        a
    } else {
        v
    }
}

/// Whether `b` is strictly better than `a` (so a later `b` replaces an earlier `a`): NaN beats
/// every number and the first NaN stays. Non-short-circuit operators, so it compiles to
/// compares and a blend.
#[inline(always)]
pub(crate) fn better<T: PartialOrd + Copy, const MAX: bool>(a: T, b: T) -> bool {
    #[allow(clippy::eq_op, reason = "x != x is the NaN test for a generic T")]
    let (a_nan, b_nan) = (a != a, b != b);
    let wins = if MAX { b > a } else { b < a };
    !a_nan & (b_nan | wins)
}

/// `l = v` when `v` is strictly better (NaN never is).
#[inline(always)]
fn take_better<T: PartialOrd + Copy, const MAX: bool>(l: &mut T, v: T) {
    let better = if MAX { v > *l } else { v < *l };
    *l = if better { v } else { *l };
}

/// `keep` across `L` lanes of a non-empty slice. Each lane takes `v` only when it is
/// strictly better (a `maxps`/`minps`: a chain of one instruction), and NaNs are caught in
/// a second set of lanes of `T` off that chain (`bool` lanes cost packing; for integers
/// `v != v` is false and folds away); a NaN found is then looked up in the slice, so the
/// first NaN is the result. The lanes become one value by [`BestLane`] (floats: [`Tree`];
/// a tree written over the lane arrays here kept them in memory and turned the loop's
/// selects into masked stores, 4× slower). A slice shorter than `L` skips the lanes.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x != x is the NaN test for a generic T")]
fn lane_best<T: BestLane, const L: usize, const MAX: bool>(tree: Tree, w: &[T]) -> T {
    let mut b = w[0];
    let mut nan = false;
    let mut it = w.chunks_exact(L);
    if w.len() >= L {
        let (mut lanes, mut nans) = ([w[0]; L], [T::default(); L]);
        for c in &mut it {
            for ((l, n), &v) in lanes.iter_mut().zip(nans.iter_mut()).zip(c) {
                take_better::<T, MAX>(l, v);
                *n = if v != v { v } else { *n };
            }
        }
        b = T::tree_best::<MAX, L>(tree, &lanes);
        nan = nans.iter().fold(false, |a, &n| a | (n != n));
    }
    for &v in it.remainder() {
        take_better::<T, MAX>(&mut b, v);
        nan |= v != v;
    }
    if nan {
        *w.iter().find(|&&v| v != v).unwrap_or(&b)
    } else {
        b
    }
}

/// Index of the first `x == m` (first NaN when `m` is NaN), or `w.len()`: blocks of 16 are
/// tested with a branch-free OR (vectorised) before the hit is located inside one.
#[inline(always)]
fn first_eq_w<T: PartialOrd + Copy>(w: &[T], m: T) -> usize {
    #[allow(clippy::eq_op, reason = "x != x is the NaN test for a generic T")]
    let m_nan = m != m;
    #[allow(clippy::eq_op, reason = "x != x is the NaN test for a generic T")]
    let hit = |x: T| (x == m) | (m_nan & (x != x));
    let mut base = 0;
    for c in w.chunks(16) {
        if c.iter().fold(false, |a, &x| a | hit(x)) {
            return base + c.iter().position(|&x| hit(x)).unwrap_or(c.len());
        }
        base += c.len();
    }
    w.len()
}

/// `acc[i] = keep(acc[i], w[i])`.
#[inline(always)]
pub(crate) fn keep_into_w<T: PartialOrd + Copy, const MAX: bool>(acc: &mut [T], w: &[T]) {
    for (a, &v) in acc.iter_mut().zip(w) {
        *a = keep::<T, MAX>(*a, v);
    }
}

/// [`keep_into_w`] for a float type: the maximum (`MAX`) or minimum by `max`/`min`, and
/// `a + v` where either is NaN (the NaN `a` when both are, as [`keep`]). The stored value is
/// never `acc[i]` itself, so this compiles to compares, blends and a full store; `keep`'s
/// select of `acc[i]` or `v` became a masked store (`vmaskmovps`), and a column max of 2048
/// rows of 2048 f32 ran 6x slower than the column sum.
macro_rules! keep_into_float {
    ($($name:ident, $one:ident: $t:ty),*) => {$(
        #[doc = concat!("[`keep_into_float`] over `", stringify!($t), "`.")]
        #[inline(always)]
        pub(crate) fn $name<const MAX: bool>(acc: &mut [$t], w: &[$t]) {
            for (a, &v) in acc.iter_mut().zip(w) {
                *a = $one::<MAX>(*a, v);
            }
        }

        #[doc = concat!("[`keep_into_float`]'s value for one `", stringify!($t), "`.")]
        #[inline(always)]
        pub(crate) fn $one<const MAX: bool>(a: $t, v: $t) -> $t {
            let best = if MAX { a.max(v) } else { a.min(v) };
            if a.is_nan() | v.is_nan() { a + v } else { best }
        }
    )*};
}
keep_into_float!(keep_into_f32, keep_f32: f32, keep_into_f64, keep_f64: f64);

/// Running column arg-maxima: where `w[i]` is strictly better than `acc[i]`
/// ([`better`]), `to[i] = step`, elsewhere `to[i] = from[i]`; `acc[i] = keep(acc[i], w[i])`,
/// a value that compares as the better of the two (NaN once either is). The indices
/// alternate between two arrays, and `keep` is the type's blend-free keep
/// ([`keep_into_float`]): a select between `step` and the index already in place (or
/// between `w[i]` and `acc[i]`) compiles to a masked store (`vpmaskmovq`, microcoded on
/// AMD), 4 lanes at a time, and a column argmax of 1024×976 `f32` ran 7× slower than the
/// column sum. Indices are `u32` steps (spans are cut below 2^31 steps), so they fill
/// lanes as the `f32` values do.
#[inline(always)]
pub(crate) fn arg_into_w<T: PartialOrd + Copy, const MAX: bool>(
    acc: &mut [T],
    from: &[u32],
    to: &mut [u32],
    w: &[T],
    step: u32,
    keep: impl Fn(T, T) -> T,
) {
    let n = acc.len().min(from.len()).min(to.len()).min(w.len());
    let (acc, from, to, w) = (&mut acc[..n], &from[..n], &mut to[..n], &w[..n]);
    for j in 0..n {
        let (a, v, old) = (acc[j], w[j], from[j]);
        to[j] = if better::<T, MAX>(a, v) { step } else { old };
        acc[j] = keep(a, v);
    }
}

/// Sum in `L` lanes.
#[inline(always)]
fn lane_sum<T: TreeLane, const L: usize>(tree: Tree, xs: &[T]) -> T {
    lane_sum_of::<T, L>(tree, xs, |v| v)
}

/// `Σ f(x)` in `L` lanes. The remainder's whole registers are added into the first lanes
/// and its last few elements after the lanes' tree. A slice shorter than `2 L` is added in
/// order: lanes holding one element each would combine in that same order, after the cost
/// of filling them.
#[inline(always)]
fn lane_sum_of<T: TreeLane, const L: usize>(tree: Tree, xs: &[T], f: impl Fn(T) -> T) -> T {
    if xs.len() < 2 * L {
        return xs.iter().fold(T::default(), |a, &v| a + f(v));
    }
    let mut it = xs.chunks_exact(L);
    let mut lanes = [T::default(); L];
    for c in &mut it {
        for (l, &v) in lanes.iter_mut().zip(c) {
            *l = *l + f(v);
        }
    }
    let rest = it.remainder();
    let (whole, tail) = rest.split_at(rest.len() - rest.len() % T::W);
    for g in whole.chunks_exact(T::W) {
        for (l, &v) in lanes.iter_mut().zip(g) {
            *l = *l + f(v);
        }
    }
    tail.iter()
        .fold(T::tree_sum(tree, &lanes), |a, &v| a + f(v))
}

/// `Σ(x − c)` and `Σ(x − c)²` in `L` lanes each.
#[inline(always)]
fn lane_dev_sums<T, const L: usize>(tree: Tree, xs: &[T], c: T) -> (T, T)
where
    T: TreeLane + std::ops::Sub<Output = T> + std::ops::Mul<Output = T>,
{
    let (mut s1, mut s2) = ([T::default(); L], [T::default(); L]);
    let mut it = xs.chunks_exact(L);
    for ch in &mut it {
        for ((a, q), &v) in s1.iter_mut().zip(s2.iter_mut()).zip(ch) {
            let d = v - c;
            *a = *a + d;
            *q = *q + d * d;
        }
    }
    let (mut t1, mut t2) = (T::default(), T::default());
    for &v in it.remainder() {
        let d = v - c;
        t1 = t1 + d;
        t2 = t2 + d * d;
    }
    (T::tree_sum(tree, &s1) + t1, T::tree_sum(tree, &s2) + t2)
}

/// How a chunk's lanes become one value: always the same halving tree, lane `i` taking
/// lane `i + L/2`, then `i + L/4`, and so on, so every path gives the same bits. Under AVX2
/// (`Tree::v3`, from the dispatch's token) the tree is written with the vector
/// instructions themselves; otherwise it is plain code behind an optimisation barrier.
/// Written as plain code in view of the lane loop, any regrouping of the lanes made LLVM's
/// SLP vectoriser re-pack the loop itself into 2-lane pieces (8 `vaddps xmm` per 16
/// elements), and the in-order chain it replaces (31 dependent adds per chunk) took as
/// long as the chunk's loop on data in cache: `sum(dim=1)` of 128×2441 `f32` on one
/// thread, 17.4 → 13.6 µs in a scratch benchmark of the two loops.
#[derive(Clone, Copy)]
pub(crate) struct Tree {
    #[cfg(target_arch = "x86_64")]
    v3: Option<pulp::x86::V3>,
}

impl Tree {
    /// The plain tree (the baseline target's code).
    pub(crate) const PLAIN: Tree = Tree {
        #[cfg(target_arch = "x86_64")]
        v3: None,
    };

    /// The tree in AVX2 instructions.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn v3(simd: pulp::x86::V3) -> Tree {
        Tree { v3: Some(simd) }
    }

    /// `O` over `f32` lanes.
    #[inline(always)]
    fn f32s<O: Op, const L: usize>(self, lanes: &[f32; L]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if let (Some(simd), true) = (self.v3, v3::fits::<L, 8>()) {
            return v3::f32s::<O, L>(simd, lanes);
        }
        plain(lanes, O::f32)
    }

    /// `O` over `f64` lanes.
    #[inline(always)]
    fn f64s<O: Op, const L: usize>(self, lanes: &[f64; L]) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if let (Some(simd), true) = (self.v3, v3::fits::<L, 4>()) {
            return v3::f64s::<O, L>(simd, lanes);
        }
        plain(lanes, O::f64)
    }
}

/// `op` over the lanes by the halving tree, in plain code.
#[inline(always)]
fn plain<T: Copy, const L: usize>(lanes: &[T; L], op: fn(T, T) -> T) -> T {
    const { assert!(L.is_power_of_two()) };
    // The barrier keeps the tree out of the SLP vectoriser's view of the lane loop.
    let mut a = std::hint::black_box(*lanes);
    let mut n = L;
    while n > 1 {
        n /= 2;
        for i in 0..n {
            a[i] = op(a[i], a[i + n]);
        }
    }
    a[0]
}

/// An operation [`Tree`] applies to pairs of lanes, as plain code and on AVX2 registers.
/// Types, not closures: a closure is not `#[inline(always)]`, and out of line it lost the
/// dispatch's target features (each AVX2 instruction became a call; `prod(dim=1)` ran 4×
/// slower).
trait Op: Op256 {
    fn f32(a: f32, b: f32) -> f32;
    fn f64(a: f64, b: f64) -> f64;
}

/// [`Op`] on AVX2 registers (`ps`: 8 or 4 `f32`, `pd`: 4 or 2 `f64`).
#[cfg(target_arch = "x86_64")]
trait Op256 {
    fn ps(simd: V3, a: __m256, b: __m256) -> __m256;
    fn ps4(simd: V3, a: __m128, b: __m128) -> __m128;
    fn pd(simd: V3, a: __m256d, b: __m256d) -> __m256d;
    fn pd2(simd: V3, a: __m128d, b: __m128d) -> __m128d;
}

/// No registers to name off x86-64.
#[cfg(not(target_arch = "x86_64"))]
trait Op256 {}

/// `a + b`.
struct AddOp;
/// `a · b`.
struct MulOp;
/// The better of `a` and `b` (`MAX`: the larger), `a` on a tie (`take_better`'s rule;
/// `maxps(b, a)` returns `a` unless `b > a`). The lanes hold no NaN.
struct KeepOp<const MAX: bool>;

impl Op for AddOp {
    #[inline(always)]
    fn f32(a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline(always)]
    fn f64(a: f64, b: f64) -> f64 {
        a + b
    }
}

impl Op for MulOp {
    #[inline(always)]
    fn f32(a: f32, b: f32) -> f32 {
        a * b
    }
    #[inline(always)]
    fn f64(a: f64, b: f64) -> f64 {
        a * b
    }
}

impl<const MAX: bool> Op for KeepOp<MAX> {
    #[inline(always)]
    fn f32(mut a: f32, b: f32) -> f32 {
        take_better::<f32, MAX>(&mut a, b);
        a
    }
    #[inline(always)]
    fn f64(mut a: f64, b: f64) -> f64 {
        take_better::<f64, MAX>(&mut a, b);
        a
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Op256 for AddOp {}
#[cfg(not(target_arch = "x86_64"))]
impl Op256 for MulOp {}
#[cfg(not(target_arch = "x86_64"))]
impl<const MAX: bool> Op256 for KeepOp<MAX> {}

#[cfg(target_arch = "x86_64")]
use pulp::x86::V3;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{__m128, __m128d, __m256, __m256d};

/// [`Op256`] for an op with one instruction per register width.
#[cfg(target_arch = "x86_64")]
macro_rules! op256 {
    ([$($g:tt)*] $ty:ty, |$s:ident, $a:ident, $b:ident| $ps:expr, $ps4:expr, $pd:expr, $pd2:expr) => {
        impl<$($g)*> Op256 for $ty {
            #[inline(always)]
            fn ps($s: V3, $a: __m256, $b: __m256) -> __m256 {
                $ps
            }
            #[inline(always)]
            fn ps4($s: V3, $a: __m128, $b: __m128) -> __m128 {
                $ps4
            }
            #[inline(always)]
            fn pd($s: V3, $a: __m256d, $b: __m256d) -> __m256d {
                $pd
            }
            #[inline(always)]
            fn pd2($s: V3, $a: __m128d, $b: __m128d) -> __m128d {
                $pd2
            }
        }
    };
}
#[cfg(target_arch = "x86_64")]
op256!([] AddOp, |s, a, b| s.avx._mm256_add_ps(a, b), s.sse._mm_add_ps(a, b),
    s.avx._mm256_add_pd(a, b), s.sse2._mm_add_pd(a, b));
#[cfg(target_arch = "x86_64")]
op256!([] MulOp, |s, a, b| s.avx._mm256_mul_ps(a, b), s.sse._mm_mul_ps(a, b),
    s.avx._mm256_mul_pd(a, b), s.sse2._mm_mul_pd(a, b));
#[cfg(target_arch = "x86_64")]
op256!([const MAX: bool] KeepOp<MAX>, |s, a, b| if MAX {
    s.avx._mm256_max_ps(b, a)
} else {
    s.avx._mm256_min_ps(b, a)
}, if MAX {
    s.sse._mm_max_ps(b, a)
} else {
    s.sse._mm_min_ps(b, a)
}, if MAX {
    s.avx._mm256_max_pd(b, a)
} else {
    s.avx._mm256_min_pd(b, a)
}, if MAX {
    s.sse2._mm_max_pd(b, a)
} else {
    s.sse2._mm_min_pd(b, a)
});

/// The AVX2 form of [`Tree`]: the lanes loaded as registers, halved register by register,
/// then within the last one (high 128 bits onto the low, then lanes 2–3 onto 0–1, then
/// lane 1 onto 0), the same pairs as the plain tree.
#[cfg(target_arch = "x86_64")]
mod v3 {
    use super::{Op, V3};

    /// Whether `L` lanes fill at most 8 whole registers of `W` lanes, a power of two of them.
    pub(super) const fn fits<const L: usize, const W: usize>() -> bool {
        L.is_multiple_of(W) && (L / W).is_power_of_two() && L / W <= 8
    }

    /// `O` over `f32` lanes that [`fits`] 8-lane registers.
    #[inline(always)]
    pub(super) fn f32s<O: Op, const L: usize>(simd: V3, lanes: &[f32; L]) -> f32 {
        let mut v = [simd.avx._mm256_setzero_ps(); 8];
        for (k, r) in v.iter_mut().take(L / 8).enumerate() {
            // SAFETY: lanes `8k..8k + 8` are inside the array (`fits`: `8 (k + 1) <= L`).
            *r = unsafe { simd.avx._mm256_loadu_ps(lanes.as_ptr().add(8 * k)) };
        }
        let mut n = L / 8;
        while n > 1 {
            n /= 2;
            for i in 0..n {
                v[i] = O::ps(simd, v[i], v[i + n]);
            }
        }
        let lo = simd.avx._mm256_castps256_ps128(v[0]);
        let x = O::ps4(simd, lo, simd.avx._mm256_extractf128_ps::<1>(v[0]));
        let x = O::ps4(simd, x, simd.sse._mm_movehl_ps(x, x));
        let x = O::ps4(simd, x, simd.sse3._mm_movehdup_ps(x));
        simd.sse._mm_cvtss_f32(x)
    }

    /// `O` over `f64` lanes that [`fits`] 4-lane registers.
    #[inline(always)]
    pub(super) fn f64s<O: Op, const L: usize>(simd: V3, lanes: &[f64; L]) -> f64 {
        let mut v = [simd.avx._mm256_setzero_pd(); 8];
        for (k, r) in v.iter_mut().take(L / 4).enumerate() {
            // SAFETY: lanes `4k..4k + 4` are inside the array (`fits`: `4 (k + 1) <= L`).
            *r = unsafe { simd.avx._mm256_loadu_pd(lanes.as_ptr().add(4 * k)) };
        }
        let mut n = L / 4;
        while n > 1 {
            n /= 2;
            for i in 0..n {
                v[i] = O::pd(simd, v[i], v[i + n]);
            }
        }
        let lo = simd.avx._mm256_castpd256_pd128(v[0]);
        let x = O::pd2(simd, lo, simd.avx._mm256_extractf128_pd::<1>(v[0]));
        let x = O::pd2(simd, x, simd.sse2._mm_unpackhi_pd(x, x));
        simd.sse2._mm_cvtsd_f64(x)
    }
}

/// Float lane types whose chunk lanes combine by [`Tree`]; integer lanes (exact in any
/// order) keep their own combines.
pub(crate) trait TreeLane: Copy + Default + std::ops::Add<Output = Self> {
    /// Lanes per AVX2 register.
    const W: usize;
    /// `Σ lanes` by the tree.
    fn tree_sum<const L: usize>(tree: Tree, lanes: &[Self; L]) -> Self;
}

impl TreeLane for f32 {
    const W: usize = 8;
    #[inline(always)]
    fn tree_sum<const L: usize>(tree: Tree, lanes: &[f32; L]) -> f32 {
        tree.f32s::<AddOp, L>(lanes)
    }
}

impl TreeLane for f64 {
    const W: usize = 4;
    #[inline(always)]
    fn tree_sum<const L: usize>(tree: Tree, lanes: &[f64; L]) -> f64 {
        tree.f64s::<AddOp, L>(lanes)
    }
}

/// Lane types of max/min: how their lanes become one value.
pub(crate) trait BestLane: PartialOrd + Copy + Default {
    /// The best lane (`MAX`: the largest); of equal lanes, the first in the combine.
    fn tree_best<const MAX: bool, const L: usize>(tree: Tree, lanes: &[Self; L]) -> Self;
}

impl BestLane for f32 {
    #[inline(always)]
    fn tree_best<const MAX: bool, const L: usize>(tree: Tree, lanes: &[f32; L]) -> f32 {
        tree.f32s::<KeepOp<MAX>, L>(lanes)
    }
}

impl BestLane for f64 {
    #[inline(always)]
    fn tree_best<const MAX: bool, const L: usize>(tree: Tree, lanes: &[f64; L]) -> f64 {
        tree.f64s::<KeepOp<MAX>, L>(lanes)
    }
}

/// Integer lanes: into 4 scalars, and those in turn (one scalar chain cost more than the
/// loop on a short row).
macro_rules! int_best_lane {
    ($($t:ty),*) => {$(
        impl BestLane for $t {
            #[inline(always)]
            fn tree_best<const MAX: bool, const L: usize>(_: Tree, lanes: &[$t; L]) -> $t {
                let mut four = [lanes[0]; 4];
                for (k, &l) in lanes.iter().enumerate() {
                    take_better::<$t, MAX>(&mut four[k % 4], l);
                }
                let mut b = lanes[0];
                for &l in &four {
                    take_better::<$t, MAX>(&mut b, l);
                }
                b
            }
        }
    )*};
}
int_best_lane!(u8, i8, i16, u16, i32, u32, i64, u64);

/// Product accumulators: how their lanes become one value.
pub(crate) trait ProdLane: Copy {
    /// `Π lanes` (`f64` by the tree; wrapping `i64` products are exact in any order).
    fn tree_prod<const L: usize>(tree: Tree, lanes: &[Self; L]) -> Self;
}

impl ProdLane for f64 {
    #[inline(always)]
    fn tree_prod<const L: usize>(tree: Tree, lanes: &[f64; L]) -> f64 {
        tree.f64s::<MulOp, L>(lanes)
    }
}

impl ProdLane for i64 {
    #[inline(always)]
    fn tree_prod<const L: usize>(_: Tree, lanes: &[i64; L]) -> i64 {
        lanes.iter().fold(1, |a, &b| a.wrapping_mul(b))
    }
}

/// A chunk's mean and squared deviations from the deviation sums about `c` (see
/// [`RedElem::moments`]); NaN stays NaN.
#[inline(always)]
fn moments_from(c: f64, s1: f64, s2: f64, n: usize) -> (f64, f64) {
    let n = n as f64;
    let m2 = s2 - s1 * s1 / n;
    (c + s1 / n, if m2 < 0.0 { 0.0 } else { m2 })
}

macro_rules! int_red {
    ($t:ty, $lanes:expr, $sum:ty) => {
        impl RedElem for $t {
            type W = $t;
            type A = i64;
            type Sum = $sum;
            type Mean = f64;
            #[inline(always)]
            fn sum_f(_: Tree, xs: &[$t]) -> f64 {
                if <$t>::BITS < 64 {
                    // Exact: a chunk of ≤ 1024 values under 2^32 cannot overflow `i64`.
                    Self::sum_i(xs) as f64
                } else {
                    let mut lanes = [0f64; 8];
                    let mut it = xs.chunks_exact(8);
                    for c in &mut it {
                        for (l, &v) in lanes.iter_mut().zip(c) {
                            *l += v as f64;
                        }
                    }
                    lanes.iter().sum::<f64>()
                        + it.remainder().iter().map(|&v| v as f64).sum::<f64>()
                }
            }
            #[inline(always)]
            fn sum_i(xs: &[$t]) -> i64 {
                let mut lanes = [0i64; 16];
                let mut it = xs.chunks_exact(16);
                for c in &mut it {
                    for (l, &v) in lanes.iter_mut().zip(c) {
                        *l = l.wrapping_add(v as i64);
                    }
                }
                let t = it
                    .remainder()
                    .iter()
                    .fold(0i64, |a, &v| a.wrapping_add(v as i64));
                lanes.iter().fold(t, |a, &l| a.wrapping_add(l))
            }
            #[inline(always)]
            fn norm_f<const SQ: bool>(_: Tree, xs: &[$t]) -> f64 {
                xs.iter()
                    .map(|&v| {
                        if SQ {
                            (v as f64) * (v as f64)
                        } else {
                            (v as f64).abs()
                        }
                    })
                    .sum()
            }
            #[inline(always)]
            fn best<const MAX: bool>(tree: Tree, xs: &[$t]) -> $t {
                lane_best::<$t, $lanes, MAX>(tree, xs)
            }
            #[inline(always)]
            fn first_eq(xs: &[$t], m: $t) -> usize {
                first_eq_w(xs, m)
            }
            #[inline(always)]
            fn keep_into<const MAX: bool>(acc: &mut [$t], xs: &[$t]) {
                keep_into_w::<$t, MAX>(acc, xs)
            }
            #[inline(always)]
            fn arg_into<const MAX: bool>(
                acc: &mut [$t],
                from: &[u32],
                to: &mut [u32],
                xs: &[$t],
                step: u32,
            ) {
                arg_into_w::<$t, MAX>(acc, from, to, xs, step, keep::<$t, MAX>)
            }
            #[inline(always)]
            fn acc_add(acc: &mut [i64], xs: &[$t]) {
                for (a, &v) in acc.iter_mut().zip(xs) {
                    *a = a.wrapping_add(v as i64);
                }
            }
            #[inline(always)]
            fn moments(tree: Tree, xs: &[$t], m: f64) -> (f64, f64) {
                let mut buf = [0f64; CHUNK];
                let mut acc = (0f64, 0f64);
                for ch in xs.chunks(CHUNK) {
                    let w = &mut buf[..ch.len()];
                    w.iter_mut().zip(ch).for_each(|(w, &v)| *w = v as f64);
                    let (a, q) = lane_dev_sums::<f64, 8>(tree, w, m);
                    acc = (acc.0 + a, acc.1 + q);
                }
                moments_from(m, acc.0, acc.1, xs.len())
            }
            #[inline(always)]
            fn a_f64(a: i64) -> f64 {
                if <$t>::BITS == 64 {
                    // `u64` sums are wrapping `i64` bits read back unsigned.
                    <$t as Element>::from_i64(a).to_f64()
                } else {
                    a as f64
                }
            }
            #[inline(always)]
            fn a_i64(a: i64) -> i64 {
                a
            }
            #[inline(always)]
            fn w_of(x: $t) -> $t {
                x
            }
            #[inline(always)]
            fn w_out<D: Element>(w: $t) -> D {
                D::from_i64(w as i64)
            }
        }
    };
}

int_red!(i8, 64, i64);
int_red!(u8, 64, i64);
int_red!(i16, 32, i64);
int_red!(i32, 16, i64);
int_red!(i64, 8, i64);
int_red!(u16, 32, i64);
int_red!(u32, 16, i64);
int_red!(u64, 8, u64);

/// Float sums of a slice shorter than this (a short row, or a long row's last chunk) use one
/// AVX2 register of lanes instead of four: the lanes' in-order combine is the longer chain
/// on a row of a hundred (`sum(dim=1)` of 10000×100 `f32`: 88 → 69 µs at 2 threads).
const SHORT_SUM: usize = 256;

impl RedElem for f32 {
    type W = f32;
    type A = f32;
    type Sum = f32;
    type Mean = f32;
    #[inline(always)]
    fn sum_f(tree: Tree, xs: &[f32]) -> f64 {
        f64::from(if xs.len() < SHORT_SUM {
            lane_sum::<f32, 8>(tree, xs)
        } else {
            lane_sum::<f32, 32>(tree, xs)
        })
    }
    fn sum_i(xs: &[f32]) -> i64 {
        xs.iter().fold(0i64, |a, v| a.wrapping_add(v.to_i64()))
    }
    #[inline(always)]
    fn norm_f<const SQ: bool>(tree: Tree, xs: &[f32]) -> f64 {
        f64::from(lane_sum_of::<f32, 32>(tree, xs, |v| {
            if SQ {
                v * v
            } else {
                v.abs()
            }
        }))
    }
    #[inline(always)]
    fn best<const MAX: bool>(tree: Tree, xs: &[f32]) -> f32 {
        lane_best::<f32, 32, MAX>(tree, xs)
    }
    #[inline(always)]
    fn first_eq(xs: &[f32], m: f32) -> usize {
        first_eq_w(xs, m)
    }
    #[inline(always)]
    fn keep_into<const MAX: bool>(acc: &mut [f32], xs: &[f32]) {
        keep_into_f32::<MAX>(acc, xs)
    }
    #[inline(always)]
    fn arg_into<const MAX: bool>(
        acc: &mut [f32],
        from: &[u32],
        to: &mut [u32],
        xs: &[f32],
        step: u32,
    ) {
        arg_into_w::<f32, MAX>(acc, from, to, xs, step, keep_f32::<MAX>)
    }
    #[inline(always)]
    fn acc_add(acc: &mut [f32], xs: &[f32]) {
        for (a, &v) in acc.iter_mut().zip(xs) {
            *a += v;
        }
    }
    #[inline(always)]
    fn moments(tree: Tree, xs: &[f32], m: f64) -> (f64, f64) {
        let c = m as f32;
        let (s1, s2) = lane_dev_sums::<f32, 32>(tree, xs, c);
        moments_from(f64::from(c), f64::from(s1), f64::from(s2), xs.len())
    }
    #[inline(always)]
    fn a_f64(a: f32) -> f64 {
        f64::from(a)
    }
    fn a_i64(a: f32) -> i64 {
        a as i64
    }
    #[inline(always)]
    fn w_of(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn w_out<D: Element>(w: f32) -> D {
        D::from_f64(f64::from(w))
    }
}

impl RedElem for f64 {
    type W = f64;
    type A = f64;
    type Sum = f64;
    type Mean = f64;
    #[inline(always)]
    fn sum_f(tree: Tree, xs: &[f64]) -> f64 {
        if xs.len() < SHORT_SUM {
            lane_sum::<f64, 4>(tree, xs)
        } else {
            lane_sum::<f64, 16>(tree, xs)
        }
    }
    fn sum_i(xs: &[f64]) -> i64 {
        xs.iter().fold(0i64, |a, v| a.wrapping_add(v.to_i64()))
    }
    #[inline(always)]
    fn norm_f<const SQ: bool>(tree: Tree, xs: &[f64]) -> f64 {
        lane_sum_of::<f64, 16>(tree, xs, |v| if SQ { v * v } else { v.abs() })
    }
    #[inline(always)]
    fn best<const MAX: bool>(tree: Tree, xs: &[f64]) -> f64 {
        lane_best::<f64, 16, MAX>(tree, xs)
    }
    #[inline(always)]
    fn first_eq(xs: &[f64], m: f64) -> usize {
        first_eq_w(xs, m)
    }
    #[inline(always)]
    fn keep_into<const MAX: bool>(acc: &mut [f64], xs: &[f64]) {
        keep_into_f64::<MAX>(acc, xs)
    }
    #[inline(always)]
    fn arg_into<const MAX: bool>(
        acc: &mut [f64],
        from: &[u32],
        to: &mut [u32],
        xs: &[f64],
        step: u32,
    ) {
        arg_into_w::<f64, MAX>(acc, from, to, xs, step, keep_f64::<MAX>)
    }
    #[inline(always)]
    fn acc_add(acc: &mut [f64], xs: &[f64]) {
        for (a, &v) in acc.iter_mut().zip(xs) {
            *a += v;
        }
    }
    #[inline(always)]
    fn moments(tree: Tree, xs: &[f64], m: f64) -> (f64, f64) {
        let (s1, s2) = lane_dev_sums::<f64, 16>(tree, xs, m);
        moments_from(m, s1, s2, xs.len())
    }
    #[inline(always)]
    fn a_f64(a: f64) -> f64 {
        a
    }
    fn a_i64(a: f64) -> i64 {
        a as i64
    }
    #[inline(always)]
    fn w_of(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn w_out<D: Element>(w: f64) -> D {
        D::from_f64(w)
    }
}

/// A chunk of at most [`CHUNK`] half-precision values widened into `buf`.
#[inline(always)]
fn widen<'a, H>(xs: &[H], buf: &'a mut [f32; CHUNK]) -> &'a [f32]
where
    [H]: HalfFloatSliceExt,
{
    let w = &mut buf[..xs.len()];
    xs.convert_to_f32_slice(w);
    w
}

macro_rules! half_red {
    ($t:ty) => {
        impl RedElem for $t {
            type W = f32;
            type A = f32;
            type Sum = $t;
            type Mean = $t;
            #[inline(always)]
            fn sum_f(tree: Tree, xs: &[$t]) -> f64 {
                let mut buf = [0f32; CHUNK];
                let mut total = 0f64;
                // `xs` is at most one chunk, but a caller may hand a longer slice.
                for c in xs.chunks(CHUNK) {
                    total += f32::sum_f(tree, widen(c, &mut buf));
                }
                total
            }
            fn sum_i(xs: &[$t]) -> i64 {
                xs.iter().fold(0i64, |a, v| a.wrapping_add(v.to_i64()))
            }
            #[inline(always)]
            fn norm_f<const SQ: bool>(tree: Tree, xs: &[$t]) -> f64 {
                let mut buf = [0f32; CHUNK];
                xs.chunks(CHUNK)
                    .map(|c| f32::norm_f::<SQ>(tree, widen(c, &mut buf)))
                    .sum()
            }
            #[inline(always)]
            fn best<const MAX: bool>(tree: Tree, xs: &[$t]) -> f32 {
                let mut buf = [0f32; CHUNK];
                let mut b = xs[0].to_f32();
                for c in xs.chunks(CHUNK) {
                    b = keep::<f32, MAX>(b, f32::best::<MAX>(tree, widen(c, &mut buf)));
                }
                b
            }
            #[inline(always)]
            fn first_eq(xs: &[$t], m: f32) -> usize {
                let mut buf = [0f32; CHUNK];
                for (k, c) in xs.chunks(CHUNK).enumerate() {
                    let i = first_eq_w(widen(c, &mut buf), m);
                    if i < c.len() {
                        return k * CHUNK + i;
                    }
                }
                xs.len()
            }
            #[inline(always)]
            fn keep_into<const MAX: bool>(acc: &mut [f32], xs: &[$t]) {
                let mut buf = [0f32; CHUNK];
                for (a, c) in acc.chunks_mut(CHUNK).zip(xs.chunks(CHUNK)) {
                    keep_into_f32::<MAX>(a, widen(c, &mut buf));
                }
            }
            #[inline(always)]
            fn arg_into<const MAX: bool>(
                acc: &mut [f32],
                from: &[u32],
                to: &mut [u32],
                xs: &[$t],
                step: u32,
            ) {
                let mut buf = [0f32; CHUNK];
                let it = acc
                    .chunks_mut(CHUNK)
                    .zip(from.chunks(CHUNK))
                    .zip(to.chunks_mut(CHUNK))
                    .zip(xs.chunks(CHUNK));
                for (((a, f), t), c) in it {
                    arg_into_w::<f32, MAX>(a, f, t, widen(c, &mut buf), step, keep_f32::<MAX>);
                }
            }
            #[inline(always)]
            fn acc_add(acc: &mut [f32], xs: &[$t]) {
                let mut buf = [0f32; CHUNK];
                for (a, c) in acc.chunks_mut(CHUNK).zip(xs.chunks(CHUNK)) {
                    f32::acc_add(a, widen(c, &mut buf));
                }
            }
            #[inline(always)]
            fn moments(tree: Tree, xs: &[$t], m: f64) -> (f64, f64) {
                let mut buf = [0f32; CHUNK];
                let c = m as f32;
                let mut acc = (0f64, 0f64);
                for ch in xs.chunks(CHUNK) {
                    let (a, q) = lane_dev_sums::<f32, 32>(tree, widen(ch, &mut buf), c);
                    acc = (acc.0 + f64::from(a), acc.1 + f64::from(q));
                }
                moments_from(f64::from(c), acc.0, acc.1, xs.len())
            }
            #[inline(always)]
            fn a_f64(a: f32) -> f64 {
                f64::from(a)
            }
            fn a_i64(a: f32) -> i64 {
                a as i64
            }
            #[inline(always)]
            fn w_of(x: $t) -> f32 {
                x.to_f32()
            }
            #[inline(always)]
            fn w_out<D: Element>(w: f32) -> D {
                D::from_f64(f64::from(w))
            }
        }
    };
}

half_red!(f16);
half_red!(bf16);

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic values of mixed magnitude and sign (so the order of a sum shows in its
    /// bits), with ties and signed zeros among them.
    fn values(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|i| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                match i % 7 {
                    0 => 0.0,
                    1 => -0.0,
                    2 => 1.5,
                    _ => {
                        ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 10f64.powi((i % 5) as i32)
                    }
                }
            })
            .collect()
    }

    /// The tree's order written out directly: lane `i` takes lane `i + n` for `n = L/2, …, 1`.
    fn halving<T: Copy>(lanes: &[T], op: impl Fn(T, T) -> T) -> T {
        let mut a = lanes.to_vec();
        let mut n = a.len();
        while n > 1 {
            n /= 2;
            for i in 0..n {
                a[i] = op(a[i], a[i + n]);
            }
        }
        a[0]
    }

    fn keep<T: PartialOrd + Copy, const MAX: bool>(mut a: T, b: T) -> T {
        take_better::<T, MAX>(&mut a, b);
        a
    }

    /// Every way a tree runs here (plain, and AVX2 where the CPU has it) gives the bits of
    /// the halving order, signed zeros included.
    fn check<const L: usize>(seed: u64) {
        let v = values(L, seed);
        let f: [f32; L] = std::array::from_fn(|i| v[i] as f32);
        let d: [f64; L] = std::array::from_fn(|i| v[i]);
        let mut trees = vec![Tree::PLAIN];
        #[cfg(target_arch = "x86_64")]
        trees.extend(pulp::x86::V3::try_new().map(Tree::v3));
        for tree in trees {
            let bits32 = |x: f32| x.to_bits();
            let bits64 = |x: f64| x.to_bits();
            assert_eq!(
                bits32(f32::tree_sum(tree, &f)),
                bits32(halving(&f, |a, b| a + b)),
                "f32 sum of {L}"
            );
            assert_eq!(
                bits64(f64::tree_sum(tree, &d)),
                bits64(halving(&d, |a, b| a + b)),
                "f64 sum of {L}"
            );
            assert_eq!(
                bits64(f64::tree_prod(tree, &d)),
                bits64(halving(&d, |a, b| a * b)),
                "f64 product of {L}"
            );
            assert_eq!(
                bits32(f32::tree_best::<true, L>(tree, &f)),
                bits32(halving(&f, keep::<f32, true>)),
                "f32 max of {L}"
            );
            assert_eq!(
                bits32(f32::tree_best::<false, L>(tree, &f)),
                bits32(halving(&f, keep::<f32, false>)),
                "f32 min of {L}"
            );
            assert_eq!(
                bits64(f64::tree_best::<true, L>(tree, &d)),
                bits64(halving(&d, keep::<f64, true>)),
                "f64 max of {L}"
            );
            assert_eq!(
                bits64(f64::tree_best::<false, L>(tree, &d)),
                bits64(halving(&d, keep::<f64, false>)),
                "f64 min of {L}"
            );
        }
    }

    #[test]
    fn every_tree_adds_in_the_halving_order() {
        for seed in 0..if cfg!(miri) { 2 } else { 64 } {
            check::<4>(seed);
            check::<8>(seed);
            check::<16>(seed);
            check::<32>(seed);
        }
    }

    /// All zeros, lane 0's of the other sign: ties keep the lower lane at every level of
    /// the tree (registers and within one), so a max or min returns lane 0's zero.
    fn zeros<const L: usize>() {
        let mut trees = vec![Tree::PLAIN];
        #[cfg(target_arch = "x86_64")]
        trees.extend(pulp::x86::V3::try_new().map(Tree::v3));
        for tree in trees {
            for first in [-0.0f64, 0.0] {
                let d: [f64; L] = std::array::from_fn(|i| if i == 0 { first } else { -first });
                let f: [f32; L] = std::array::from_fn(|i| d[i] as f32);
                let neg = first.is_sign_negative();
                assert_eq!(f32::tree_best::<true, L>(tree, &f).is_sign_negative(), neg);
                assert_eq!(f32::tree_best::<false, L>(tree, &f).is_sign_negative(), neg);
                assert_eq!(f64::tree_best::<true, L>(tree, &d).is_sign_negative(), neg);
                assert_eq!(f64::tree_best::<false, L>(tree, &d).is_sign_negative(), neg);
            }
        }
    }

    #[test]
    fn signed_zeros_follow_the_pairs() {
        zeros::<4>();
        zeros::<8>();
        zeros::<16>();
        zeros::<32>();
    }

    /// The slice kernels over lengths around the lane and register counts: remainders in
    /// whole registers and in single elements, against a sum in `f64` (exact for these
    /// small integers).
    #[test]
    fn sums_cover_every_remainder() {
        for n in 0..200usize {
            let xs: Vec<f32> = (0..n).map(|i| (i % 13) as f32 - 6.0).collect();
            let want: f64 = xs.iter().map(|&x| f64::from(x)).sum();
            let mut trees = vec![Tree::PLAIN];
            #[cfg(target_arch = "x86_64")]
            trees.extend(pulp::x86::V3::try_new().map(Tree::v3));
            for tree in trees {
                assert_eq!(f32::sum_f(tree, &xs), want, "sum of {n}");
                let xd: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
                assert_eq!(f64::sum_f(tree, &xd), want, "f64 sum of {n}");
                if n > 0 {
                    let m = xs.iter().copied().fold(f32::MIN, f32::max);
                    assert_eq!(f32::best::<true>(tree, &xs), m, "max of {n}");
                }
            }
        }
    }
}
