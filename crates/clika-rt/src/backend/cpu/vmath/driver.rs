//! The drivers of the lane kernels: rows of any layout cut into chunks of [`LANES`]
//! elements (whole loads where the row is contiguous, gathers elsewhere, a padded ragged
//! end), each chunk's kernel compiled per instruction set and dispatched at run time.

use std::marker::PhantomData;

use half::{bf16, f16};
use pulp::{Simd, WithSimd};

use super::{LaneFn, LaneFn2, LANES};
use crate::backend::cpu::iter::{for_each_piece, Coalesced, SendPtr};
use crate::dtype::Element;
use crate::half_bits::{f16_to_f32, f32_to_f16};
use crate::Tensor;

/// A lane type: `f32` or `f64`.
pub(crate) trait Lane: Copy + Default {
    /// `K` on a chunk of this type.
    fn apply<K: LaneFn, const F: bool>(x: &[Self; LANES]) -> [Self; LANES];
    /// `K` on two chunks of this type.
    fn apply2<K: LaneFn2, const F: bool>(a: &[Self; LANES], b: &[Self; LANES]) -> [Self; LANES];
    /// `K` on a chunk of this type under AVX2.
    #[cfg(target_arch = "x86_64")]
    fn apply_v3<K: LaneFn>(simd: pulp::x86::V3, x: &[Self; LANES]) -> [Self; LANES];
    /// `K` on a chunk of this type under AVX-512.
    #[cfg(target_arch = "x86_64")]
    fn apply_v4<K: LaneFn>(simd: pulp::x86::V4, x: &[Self; LANES]) -> [Self; LANES];
    /// `K` on two chunks of this type under AVX-512.
    #[cfg(target_arch = "x86_64")]
    fn apply2_v4<K: LaneFn2>(
        simd: pulp::x86::V4,
        a: &[Self; LANES],
        b: &[Self; LANES],
    ) -> [Self; LANES];
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
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            fn apply_v3<K: LaneFn>(simd: pulp::x86::V3, x: &[$t; LANES]) -> [$t; LANES] {
                hook1!($t, K, f32_v3, simd, x)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            fn apply_v4<K: LaneFn>(simd: pulp::x86::V4, x: &[$t; LANES]) -> [$t; LANES] {
                hook1!($t, K, f32_v4, simd, x)
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            fn apply2_v4<K: LaneFn2>(
                simd: pulp::x86::V4,
                a: &[$t; LANES],
                b: &[$t; LANES],
            ) -> [$t; LANES] {
                paste_v4!($t, K, simd, a, b)
            }
        }
    )*};
}

/// A one-operand kernel's AVX2 or AVX-512 form (`$hook`) for a lane type (used only by
/// the `x86_64` items of `lane!`): `f32` kernels may have one of their own there, `f64`
/// runs its FMA chunk.
#[cfg(target_arch = "x86_64")]
macro_rules! hook1 {
    (f32, $k:ident, $hook:ident, $simd:ident, $x:ident) => {
        $k::$hook($simd, $x)
    };
    (f64, $k:ident, $hook:ident, $simd:ident, $x:ident) => {{
        let _ = $simd;
        $k::f64::<true>($x)
    }};
}

/// `K`'s AVX-512 form for a lane type (used only by the `x86_64` items of `lane!`).
#[cfg(target_arch = "x86_64")]
macro_rules! paste_v4 {
    (f32, $k:ident, $simd:ident, $a:ident, $b:ident) => {
        $k::f32_v4($simd, $a, $b)
    };
    (f64, $k:ident, $simd:ident, $a:ident, $b:ident) => {
        $k::f64_v4($simd, $a, $b)
    };
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
    f16 => f32, f16_to_f32, f32_to_f16;
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
pub(crate) unsafe fn load<E: LaneElem>(p: *const E, s: isize, i: usize, n: usize) -> [E::L; LANES] {
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
pub(crate) unsafe fn store<E: LaneElem>(
    y: &[E::L; LANES],
    p: *mut E,
    s: isize,
    i: usize,
    n: usize,
) {
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
    /// The work in [`dispatch`]'s AVX2 variant: `run::<true>` unless the body has a form of
    /// its own there (as [`run_v4`](Self::run_v4)).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v3(self, _simd: pulp::x86::V3)
    where
        Self: Sized,
    {
        self.run::<true>();
    }
    /// The work in [`dispatch`]'s AVX-512 variant: `run::<true>` unless the body has a form
    /// of its own there (instructions the vectoriser does not pick from plain code, such as
    /// a table held in registers and read by permutes instead of gathers).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v4(self, _simd: pulp::x86::V4)
    where
        Self: Sized,
    {
        self.run::<true>();
    }
}

/// A closure as a [`SimdBody`], for a short hot loop (one slice of a reduction) run under
/// [`dispatch_avx2`]: the closure and what it calls inline into the dispatcher's copies.
pub(crate) struct Call<C>(pub C);

impl<C: FnOnce()> SimdBody for Call<C> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        (self.0)()
    }
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

/// A [`SimdBody`] as `pulp` calls it in the AVX2 variant.
#[cfg(target_arch = "x86_64")]
struct WrapV3<B>(B, pulp::x86::V3);

#[cfg(target_arch = "x86_64")]
impl<B: SimdBody> WithSimd for WrapV3<B> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        self.0.run_v3(self.1);
    }
}

/// A [`SimdBody`] as `pulp` calls it in the AVX-512 variant.
#[cfg(target_arch = "x86_64")]
struct WrapV4<B>(B, pulp::x86::V4);

#[cfg(target_arch = "x86_64")]
impl<B: SimdBody> WithSimd for WrapV4<B> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        self.0.run_v4(self.1);
    }
}

/// Runs `$body` for the chunks `$i..$i + $n` of a row of `$len` elements: the whole chunks
/// first, with `$n` the constant [`LANES`], in a loop of their own when every operand is
/// contiguous (`$unit`, which the body turns into constant strides) and in another
/// otherwise, then the ragged end. With the count and the strides constant a chunk stays in
/// registers; one loop that also took the ragged end went through a stack copy for every
/// chunk (its loads have a variable count), which cost contiguous `exp` 57% of its time
/// and a transposed one 17%. A macro, not a function taking a closure: a closure called
/// from three places was not always inlined, and out of line it lost the dispatch's target
/// features (`mul_add` became a call to the software `fma`, 100× slower).
macro_rules! chunks {
    ($len:expr, $contiguous:expr, |$i:ident, $n:ident, $unit:ident| $body:expr) => {{
        let len: usize = $len;
        let full = len - len % LANES;
        let mut at = 0;
        if $contiguous {
            while at < full {
                // Opaque to the loop vectoriser, which otherwise vectorises a cheap body
                // (sqrt) across chunks, into gathers and scatters 3× slower than the chunk.
                let ($i, $n, $unit) = (std::hint::black_box(at), LANES, true);
                $body;
                at += LANES;
            }
        } else {
            while at < full {
                // Here the vectoriser's gathers across chunks are as good as any.
                let ($i, $n, $unit) = (at, LANES, false);
                $body;
                at += LANES;
            }
        }
        if at < len {
            let ($i, $n, $unit) = (at, len - at, false);
            $body;
        }
    }};
}

/// A one-operand kernel on chunks of lane type `L`, as [`Piece::drive`] calls it (a trait,
/// not a closure: see [`Apply2`]).
trait Apply1<L>: Copy {
    fn apply(self, x: &[L; LANES]) -> [L; LANES];
}

/// `K`'s chunk compiled with (`F`) or without FMA.
#[derive(Clone, Copy)]
struct Plain1<K, const F: bool>(PhantomData<K>);

impl<L: Lane, K: LaneFn, const F: bool> Apply1<L> for Plain1<K, F> {
    #[inline(always)]
    fn apply(self, x: &[L; LANES]) -> [L; LANES] {
        L::apply::<K, F>(x)
    }
}

/// `K`'s AVX2 chunk.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2Of<K>(pulp::x86::V3, PhantomData<K>);

#[cfg(target_arch = "x86_64")]
impl<L: Lane, K: LaneFn> Apply1<L> for Avx2Of<K> {
    #[inline(always)]
    fn apply(self, x: &[L; LANES]) -> [L; LANES] {
        L::apply_v3::<K>(self.0, x)
    }
}

/// `K`'s AVX-512 chunk.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx512Of<K>(pulp::x86::V4, PhantomData<K>);

#[cfg(target_arch = "x86_64")]
impl<L: Lane, K: LaneFn> Apply1<L> for Avx512Of<K> {
    #[inline(always)]
    fn apply(self, x: &[L; LANES]) -> [L; LANES] {
        L::apply_v4::<K>(self.0, x)
    }
}

impl<E: LaneElem, K: LaneFn> Piece<E, K> {
    /// The chunk loop, with `apply` the kernel on a chunk.
    #[inline(always)]
    fn drive<A: Apply1<E::L>>(self, apply: A) {
        let Piece {
            a0,
            sa,
            o0,
            so,
            len,
            ..
        } = self;
        // SAFETY: a `Piece` is only built (in `map_lanes`) for `len` elements that are in
        // bounds for both tensors at these strides, and `chunks!` keeps `i + n <= len`. The
        // whole chunk is read before any of it is written, so an output that is the input
        // itself (same layout) reads its old values.
        chunks!(len, sa == 1 && so == 1, |i, n, unit| unsafe {
            let (sa, so) = if unit { (1, 1) } else { (sa, so) };
            let x = load(a0, sa, i, n);
            store::<E>(&apply.apply(&x), o0, so, i, n);
        });
    }
}

impl<E: LaneElem, K: LaneFn> SimdBody for Piece<E, K> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        self.drive(Plain1::<K, F>(PhantomData));
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v3(self, simd: pulp::x86::V3) {
        self.drive(Avx2Of::<K>(simd, PhantomData));
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v4(self, simd: pulp::x86::V4) {
        self.drive(Avx512Of::<K>(simd, PhantomData));
    }
}

/// A two-operand kernel on chunks of lane type `L`, as [`Piece2::drive`] calls it: a trait
/// with an always-inlined method, not a closure (a closure called from the three places of
/// `chunks!` was outlined, losing the dispatch's target features).
trait Apply2<L>: Copy {
    fn apply(self, a: &[L; LANES], b: &[L; LANES]) -> [L; LANES];
}

/// `K`'s chunk compiled with (`F`) or without FMA.
#[derive(Clone, Copy)]
struct Plain<K, const F: bool>(PhantomData<K>);

impl<L: Lane, K: LaneFn2, const F: bool> Apply2<L> for Plain<K, F> {
    #[inline(always)]
    fn apply(self, a: &[L; LANES], b: &[L; LANES]) -> [L; LANES] {
        L::apply2::<K, F>(a, b)
    }
}

/// `K`'s AVX-512 chunk.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Wide<K>(pulp::x86::V4, PhantomData<K>);

#[cfg(target_arch = "x86_64")]
impl<L: Lane, K: LaneFn2> Apply2<L> for Wide<K> {
    #[inline(always)]
    fn apply(self, a: &[L; LANES], b: &[L; LANES]) -> [L; LANES] {
        L::apply2_v4::<K>(self.0, a, b)
    }
}

impl<E: LaneElem, K: LaneFn2> Piece2<E, K> {
    /// The chunk loop, with `apply` the kernel on two chunks.
    #[inline(always)]
    fn drive<A: Apply2<E::L>>(self, apply: A) {
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
        // SAFETY: as for `Piece`, built by `map2_lanes` for three in-bounds rows.
        chunks!(len, sa == 1 && sb == 1 && so == 1, |i, n, unit| unsafe {
            let (sa, sb, so) = if unit { (1, 1, 1) } else { (sa, sb, so) };
            let (x, y) = (load(a0, sa, i, n), load(b0, sb, i, n));
            store::<E>(&apply.apply(&x, &y), o0, so, i, n);
        });
    }
}

impl<E: LaneElem, K: LaneFn2> SimdBody for Piece2<E, K> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        self.drive(Plain::<K, F>(PhantomData));
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v4(self, simd: pulp::x86::V4) {
        self.drive(Wide::<K>(simd, PhantomData));
    }
}

/// Runs `body` with the best instruction set this CPU has (`arch` from `pulp::Arch::new`,
/// taken once per operation).
#[inline(always)]
pub(crate) fn dispatch<B: SimdBody>(arch: pulp::Arch, body: B) {
    #[cfg(target_arch = "x86_64")]
    match arch {
        pulp::Arch::V4(simd) => Simd::vectorize(simd, WrapV4(body, simd)),
        pulp::Arch::V3(simd) => Simd::vectorize(simd, WrapV3(body, simd)),
        _ => Wrap::<B, false>(body).with_simd(pulp::Scalar),
    }
    #[cfg(not(target_arch = "x86_64"))]
    arch.dispatch(Wrap::<B, { cfg!(target_arch = "aarch64") }>(body));
}

/// The AVX2+FMA instruction set when this CPU has it (AVX-512 machines included), taken once
/// per operation for [`dispatch_avx2`].
pub(crate) fn avx2() -> Option<Avx2> {
    #[cfg(target_arch = "x86_64")]
    return pulp::x86::V3::try_new().map(Avx2);
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// A token proving AVX2+FMA are available.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(#[cfg(target_arch = "x86_64")] pulp::x86::V3);

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The pulp token, for the intrinsics the vectoriser does not pick from plain code.
    #[inline(always)]
    pub(crate) fn v3(self) -> pulp::x86::V3 {
        self.0
    }
}

/// Runs `body` compiled for AVX2+FMA when `simd` is given (its [`run_v3`](SimdBody::run_v3),
/// which gets the token), else for the baseline target: two copies of the work rather than [`dispatch`]'s three, for the element-wise loops,
/// which have hundreds of instantiations and gain most of their speed from the first
/// widening.
#[inline(always)]
pub(crate) fn dispatch_avx2<B: SimdBody>(simd: Option<Avx2>, body: B) {
    match simd {
        #[cfg(target_arch = "x86_64")]
        Some(Avx2(v3)) => Simd::vectorize(v3, WrapV3(body, v3)),
        _ => Wrap::<B, false>(body).with_simd(pulp::Scalar),
    }
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
