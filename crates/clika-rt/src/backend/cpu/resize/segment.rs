//! The weighted pass's row kernels: a segment of output rows, summed from contiguous rows
//! (long rows), gathered taps (the innermost dim) or whole windows of short dense rows.

use super::super::vision::Real;
use super::super::vmath::SimdBody;
use super::{Px, Token};
use crate::ops::vision::Taps;

/// One segment of a pass: whole output rows of one outer row, written to `dst`. A
/// [`SimdBody`] rather than a closure so that it compiles inside the AVX2+FMA dispatcher
/// (the row sums then vectorise 8 wide); a closure there was not inlined and ran as SSE2.
pub(super) struct Segment<'a, I, T, O> {
    /// The outer row's first element in `src`.
    pub(super) row0: *const I,
    pub(super) sl: isize,
    pub(super) si: isize,
    pub(super) inner: usize,
    pub(super) per: usize,
    /// The dim's length in `src` (tap indices are below it).
    pub(super) len_in: usize,
    /// The segment's taps: `per` indices and weights for each output row.
    pub(super) idx: &'a [usize],
    pub(super) w: &'a [T],
    /// The same taps as [`Windows`] (each output's first row, its window's weights, and the
    /// window's length in elements), where the pass takes that form.
    pub(super) window: Option<(&'a [usize], &'a [T], usize)>,
    pub(super) dst: &'a mut [O],
}

/// Rows per block of a [`Windows`] window: its elements are whole vectors of eight lanes
/// for any row length `C` (blocks of `8·C` elements).
const WINDOW_ROWS: usize = 8;

/// A pass over a dim whose rows are short and dense (the innermost dim, or a channels-last
/// image's pixels: `C ≤ 4` elements each, the next row right after), with many taps (an
/// antialiased shrink): each output reads one contiguous window of rows, a multiple of
/// [`WINDOW_ROWS`] long, against weights expanded to every element of it (zero outside its
/// taps; a tap repeated by clamping at an edge adds its weights). The window's products are
/// then whole-vector multiply-adds into `8·C` lanes, summed per element of the row at the
/// end, instead of `C` scalar multiply-adds per tap.
pub(super) struct Windows<T> {
    /// Each output's first row.
    pub(super) start: Vec<usize>,
    /// Each output's `len` weights, one per element of its window.
    pub(super) weight: Vec<T>,
    /// Elements per window: rows × `C`.
    pub(super) len: usize,
}

impl<T: Real> Windows<T> {
    /// The windows of `taps` over `len_in` rows of `c` elements (at stride `si`, a row every
    /// `sl`), or `None` where the pass does not take this form: rows not short and dense,
    /// too few taps to gain (under 6: the gathers are cheaper), or a window longer than the
    /// dim.
    pub(super) fn new(
        taps: &Taps,
        len_in: usize,
        c: usize,
        sl: isize,
        si: isize,
    ) -> Option<Windows<T>> {
        let per = taps.per;
        let dense = sl == c as isize && (c == 1 || si == 1);
        let rows = per.div_ceil(WINDOW_ROWS) * WINDOW_ROWS;
        if !(1..=4).contains(&c) || !dense || per < 6 || rows > len_in {
            return None;
        }
        let n = taps.len();
        let mut start = Vec::with_capacity(n);
        let mut weight = vec![T::default(); n * rows * c];
        let mut wide = vec![0.0f64; rows];
        for (j, (idx, w)) in taps
            .index
            .chunks(per)
            .zip(taps.weight.chunks(per))
            .enumerate()
        {
            let (lo, hi) = (idx.iter().min()?, idx.iter().max()?);
            if hi - lo >= rows {
                return None;
            }
            let s0 = (*lo).min(len_in - rows);
            wide.fill(0.0);
            for (&i, &w) in idx.iter().zip(w) {
                wide[i - s0] += w;
            }
            let out = &mut weight[j * rows * c..][..rows * c];
            for (o, &w) in out.chunks_mut(c).zip(&wide) {
                o.fill(T::from_f64(w));
            }
            start.push(s0);
        }
        Some(Windows {
            start,
            weight,
            len: rows * c,
        })
    }
}

impl<I: Px<T>, T: Real, O: Px<T>> SimdBody for Segment<'_, I, T, O> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        self.sums::<F>(None);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v3(self, simd: pulp::x86::V3) {
        self.sums::<true>(Some(simd));
    }
}

impl<I: Px<T>, T: Real, O: Px<T>> Segment<'_, I, T, O> {
    /// The segment's sums, multiply-adds fused where `F`; `tok` where the AVX2 form runs.
    #[inline(always)]
    fn sums<const F: bool>(self, tok: Token) {
        let Segment {
            row0,
            sl,
            si,
            inner,
            per,
            len_in,
            idx,
            w,
            window,
            dst,
        } = self;
        let at = |i: usize| row0.wrapping_offset(i as isize * sl);
        if let Some((start, weight, len)) = window {
            #[cfg(target_arch = "x86_64")]
            if let (Some(simd), true) = (tok, window_v3::is_f32::<T>()) {
                return match inner {
                    1 => window_v3::sums::<I, T, O, 1>(simd, at, start, weight, len, dst),
                    2 => window_v3::sums::<I, T, O, 2>(simd, at, start, weight, len, dst),
                    3 => window_v3::sums::<I, T, O, 3>(simd, at, start, weight, len, dst),
                    _ => window_v3::sums::<I, T, O, 4>(simd, at, start, weight, len, dst),
                };
            }
            return match inner {
                1 => window_sums::<I, T, O, 1, F>(tok, at, start, weight, len, dst),
                2 => window_sums::<I, T, O, 2, F>(tok, at, start, weight, len, dst),
                3 => window_sums::<I, T, O, 3, F>(tok, at, start, weight, len, dst),
                _ => window_sums::<I, T, O, 4, F>(tok, at, start, weight, len, dst),
            };
        }
        if inner == 1 {
            match per {
                2 => gather::<I, T, O, 2, F>(at, idx, w, dst),
                4 => gather::<I, T, O, 4, F>(at, idx, w, dst),
                _ => {
                    for ((d, idx), w) in dst.iter_mut().zip(idx.chunks(per)).zip(w.chunks(per)) {
                        let mut s = T::default();
                        for (&i, &w) in idx.iter().zip(w) {
                            // SAFETY: `at(i)` is a readable element (see `pass_as`).
                            s = w.fma::<F>(unsafe { *at(i) }.get(), s);
                        }
                        *d = O::put(s);
                    }
                }
            }
            return;
        }
        if si == 1 {
            // Short contiguous runs (the channels of a channels-last image): unrolled.
            match inner {
                2 => return runs::<I, T, O, 2, F>(at, per, idx, w, dst),
                #[cfg(target_arch = "x86_64")]
                3 | 4 if tok.is_some() && window_v3::is_f32::<T>() => {
                    // Pixels of three or four channels: one 4-lane multiply-add a tap.
                    let simd = tok.expect("checked");
                    // The fourth lane of a three-channel pixel reads the next pixel's first
                    // element, which is inside the dim's span when it follows the pixel
                    // (`sl >= 3`) and is not the last.
                    let ahead = if sl >= 3 { len_in - 1 } else { 0 };
                    return match inner {
                        3 => window_v3::pixels::<I, T, O, 3>(simd, at, ahead, per, idx, w, dst),
                        _ => window_v3::pixels::<I, T, O, 4>(simd, at, len_in, per, idx, w, dst),
                    };
                }
                3 => return runs::<I, T, O, 3, F>(at, per, idx, w, dst),
                4 => return runs::<I, T, O, 4, F>(at, per, idx, w, dst),
                #[cfg(target_arch = "x86_64")]
                _ if tok.is_some() && window_v3::is_f32::<T>() => {
                    let simd = tok.expect("checked");
                    return window_v3::rows::<I, T, O>(simd, at, inner, per, idx, w, dst);
                }
                _ => return rows::<I, T, O, ROW_BLOCK, F>(tok, at, inner, per, idx, w, dst),
            }
        }
        let mut acc = vec![T::default(); inner];
        for ((d, idx), w) in dst
            .chunks_mut(inner)
            .zip(idx.chunks(per))
            .zip(w.chunks(per))
        {
            acc.fill(T::default());
            for (&i, &w) in idx.iter().zip(w) {
                let row = at(i);
                for (e, a) in acc.iter_mut().enumerate() {
                    // SAFETY: element `e` of the inner run of a row (see `pass_as`).
                    let x = unsafe { *row.offset(e as isize * si) }.get();
                    *a = w.fma::<F>(x, *a);
                }
            }
            d.iter_mut()
                .zip(acc.iter())
                .for_each(|(d, &a)| *d = O::put(a));
        }
    }
}

/// Output elements that each gather `K` taps (the innermost dim resized): unrolled over `K`.
#[inline(always)]
fn gather<I: Px<T>, T: Real, O: Px<T>, const K: usize, const F: bool>(
    at: impl Fn(usize) -> *const I,
    idx: &[usize],
    w: &[T],
    dst: &mut [O],
) {
    let (idx, _) = idx.as_chunks::<K>();
    let (w, _) = w.as_chunks::<K>();
    for ((d, idx), w) in dst.iter_mut().zip(idx).zip(w) {
        let mut s = T::default();
        for k in 0..K {
            // SAFETY: `at` gives a readable element for every tap index (see the caller).
            s = w[k].fma::<F>(unsafe { *at(idx[k]) }.get(), s);
        }
        *d = O::put(s);
    }
}

/// Output rows of `C` elements from [`Windows`]: each a window of `len` contiguous elements
/// (from row `start[j]`) times its weights, summed in `C` vectors of [`WINDOW_ROWS`] lanes
/// (element `k` of a block of `8·C` in lane `k % 8` of vector `k / 8`; written as separate
/// 8-lane sums, which compile to whole vectors where one `8·C`-lane array did not), then
/// per element of the row (`k % C`).
#[inline(always)]
fn window_sums<I: Px<T>, T: Real, O: Px<T>, const C: usize, const F: bool>(
    tok: Token,
    at: impl Fn(usize) -> *const I,
    start: &[usize],
    weight: &[T],
    len: usize,
    dst: &mut [O],
) {
    const L: usize = WINDOW_ROWS;
    let (dst, _) = dst.as_chunks_mut::<C>();
    for ((d, &s0), w) in dst.iter_mut().zip(start).zip(weight.chunks(len)) {
        // SAFETY: rows `s0..s0 + len / C` are in the dim (`Windows::new`) and dense (each
        // row's `C` elements followed directly by the next row's), so the window is `len`
        // contiguous readable elements from row `s0`.
        let xs = unsafe { std::slice::from_raw_parts(at(s0), len) };
        let mut s = [[T::default(); L]; C];
        for (x, w) in xs
            .as_chunks::<L>()
            .0
            .chunks_exact(C)
            .zip(w.as_chunks::<L>().0.chunks_exact(C))
        {
            for v in 0..C {
                let x = I::get8(tok, &x[v]);
                for l in 0..L {
                    s[v][l] = w[v][l].fma::<F>(x[l], s[v][l]);
                }
            }
        }
        for (d, &t) in d.iter_mut().zip(&fold_lanes(&s)) {
            *d = O::put(t);
        }
    }
}

/// [`window_sums`] in `f32` under AVX2, written with the vector instructions: the plain
/// form's lanes were left as scalars on the stack for three-channel rows (about 140 cycles
/// an output pixel), and its per-pixel fold of the lanes was a call of its own.
#[cfg(target_arch = "x86_64")]
mod window_v3 {
    use std::any::TypeId;
    use std::arch::x86_64::{__m128, __m128i, __m256};

    use pulp::x86::V3;

    use super::{Px, Real, WINDOW_ROWS};

    /// Whether `T` is `f32` (the only compute type [`sums`] takes).
    #[inline(always)]
    pub(super) fn is_f32<T: 'static>() -> bool {
        TypeId::of::<T>() == TypeId::of::<f32>()
    }

    /// Whether `I` is `u8` (read widened, written rounded).
    #[inline(always)]
    pub(super) fn is_u8<I: 'static>() -> bool {
        TypeId::of::<I>() == TypeId::of::<u8>()
    }

    /// `window_sums` for `T = f32` ([`is_f32`], checked by the caller): each output's
    /// window in `C` vectors of eight products summed by fused multiply-adds, then the
    /// vectors' `8·C` lanes (eight pixels of `C` elements) folded to one pixel: the last
    /// four pixels' half-vectors added to the first four's, then those four pixels' lanes
    /// lined up and added ([`fold`]), and the pixel stored as [`pixels`]' are ([`put`]).
    /// Folded and rounded as scalars, the end of each output took more time than its
    /// window's multiply-adds (a 1920 -> 224 antialiased uint8 width pass).
    #[inline(always)]
    pub(super) fn sums<I: Px<T>, T: Real, O: Px<T>, const C: usize>(
        simd: V3,
        at: impl Fn(usize) -> *const I,
        start: &[usize],
        weight: &[T],
        len: usize,
        dst: &mut [O],
    ) {
        assert!(is_f32::<T>() && WINDOW_ROWS == 8 && (1..=4).contains(&C));
        assert!(is_f32::<I>() || is_u8::<I>());
        // SAFETY: `T` is `f32` (asserted), so the weights are `f32`s.
        let weight =
            unsafe { std::slice::from_raw_parts(weight.as_ptr().cast::<f32>(), weight.len()) };
        let (dst, _) = dst.as_chunks_mut::<C>();
        for ((d, &s0), w) in dst.iter_mut().zip(start).zip(weight.chunks(len)) {
            // SAFETY: as in `window_sums`: `len` contiguous readable elements from `at(s0)`.
            let xs = unsafe { std::slice::from_raw_parts(at(s0), len) };
            let mut acc = [simd.avx._mm256_setzero_ps(); C];
            for (x, w) in xs
                .as_chunks::<8>()
                .0
                .chunks_exact(C)
                .zip(w.as_chunks::<8>().0.chunks_exact(C))
            {
                for v in 0..C {
                    // SAFETY: eight elements of the window; `I` is `f32` or `u8`.
                    let x = unsafe { load8(simd, x[v].as_ptr()) };
                    let w: __m256 = pulp::cast(w[v]);
                    acc[v] = simd.fma._mm256_fmadd_ps(w, x, acc[v]);
                }
            }
            // The window's half-vectors in order (pixels 0..8 of `C` elements, four
            // elements each), the last four pixels' added to the first four's.
            let mut half = [simd.sse._mm_setzero_ps(); 8];
            for v in 0..C {
                half[2 * v] = simd.avx._mm256_castps256_ps128(acc[v]);
                half[2 * v + 1] = simd.avx._mm256_extractf128_ps::<1>(acc[v]);
            }
            let mut four = [simd.sse._mm_setzero_ps(); 4];
            for j in 0..C {
                four[j] = simd.sse._mm_add_ps(half[j], half[C + j]);
            }
            put(simd, fold::<C>(simd, four), d);
        }
    }

    /// Four pixels of `C` elements, in order in the first `C` vectors of `y` (`4·C` lanes),
    /// summed to one pixel in lanes `0..C`.
    #[inline(always)]
    fn fold<const C: usize>(simd: V3, y: [__m128; 4]) -> __m128 {
        // (Plain calls: closures here compiled out of line, without the target features.)
        let sse = simd.sse;
        match C {
            1 => {
                let s = sse._mm_add_ps(y[0], sse._mm_movehl_ps(y[0], y[0]));
                sse._mm_add_ps(s, sse._mm_shuffle_ps::<0b01>(s, s))
            }
            2 => {
                let s = sse._mm_add_ps(y[0], y[1]);
                sse._mm_add_ps(s, sse._mm_movehl_ps(s, s))
            }
            3 => {
                // Pixel k starts at lane 3k: pixels 1, 2 and 3 shifted down to lane 0.
                let [a, b, c, _]: [__m128i; 4] = pulp::cast(y);
                let p1: __m128 = pulp::cast(simd.ssse3._mm_alignr_epi8::<12>(b, a));
                let p2: __m128 = pulp::cast(simd.ssse3._mm_alignr_epi8::<8>(c, b));
                let p3: __m128 = pulp::cast(simd.ssse3._mm_alignr_epi8::<4>(c, c));
                sse._mm_add_ps(sse._mm_add_ps(y[0], p1), sse._mm_add_ps(p2, p3))
            }
            _ => sse._mm_add_ps(sse._mm_add_ps(y[0], y[1]), sse._mm_add_ps(y[2], y[3])),
        }
    }

    /// [`runs`](super::runs) for `T = f32` and pixels of `C` = 3 or 4 elements: each
    /// output pixel sums its taps' pixels as 4-lane vectors (one fused multiply-add a tap
    /// instead of `C`). Taps below `whole` are read four elements wide (for `C = 3` the
    /// fourth is read and its product dropped); the others element by element. Each tap is
    /// loaded straight into a vector register ([`load4`]): loaded as an array first, float32
    /// pixels went through the stack and stalled on every tap (a 1080x1920x3 float32 width
    /// pass ran 1.8x slower than three scalar multiply-adds a tap).
    #[inline(always)]
    pub(super) fn pixels<I: Px<T>, T: Real, O: Px<T>, const C: usize>(
        simd: V3,
        at: impl Fn(usize) -> *const I,
        whole: usize,
        per: usize,
        idx: &[usize],
        w: &[T],
        dst: &mut [O],
    ) {
        assert!(is_f32::<T>() && (is_f32::<I>() || is_u8::<I>()) && (C == 3 || C == 4));
        // SAFETY: `T` is `f32` (asserted), so the weights are `f32`s.
        let w = unsafe { std::slice::from_raw_parts(w.as_ptr().cast::<f32>(), w.len()) };
        let (dst, _) = dst.as_chunks_mut::<C>();
        // Two and four taps (bilinear and bicubic without antialiasing) and five (an
        // antialiased bilinear shrink by up to 2) as arrays, so the taps' loop unrolls.
        match per {
            2 => taps::<I, T, O, C, 2>(simd, &at, whole, idx, w, dst),
            4 => taps::<I, T, O, C, 4>(simd, &at, whole, idx, w, dst),
            5 => taps::<I, T, O, C, 5>(simd, &at, whole, idx, w, dst),
            _ => {
                for ((d, idx), w) in dst.iter_mut().zip(idx.chunks(per)).zip(w.chunks(per)) {
                    put(simd, sum::<I, T, C>(simd, &at, whole, idx, w), d);
                }
            }
        }
    }

    /// [`pixels`] of `K` taps each.
    #[inline(always)]
    fn taps<I: Px<T>, T: Real, O: Px<T>, const C: usize, const K: usize>(
        simd: V3,
        at: &impl Fn(usize) -> *const I,
        whole: usize,
        idx: &[usize],
        w: &[f32],
        dst: &mut [[O; C]],
    ) {
        let (idx, w) = (idx.as_chunks::<K>().0, w.as_chunks::<K>().0);
        for ((d, idx), w) in dst.iter_mut().zip(idx).zip(w) {
            put(simd, sum::<I, T, C>(simd, at, whole, idx, w), d);
        }
    }

    /// [`rows`](super::rows) for `T = f32` (the caller checks), written with the vector
    /// instructions: blocks of 32 elements summed over every tap in four vector registers,
    /// then blocks of eight, then one by one. The plain form kept its 32 sums in an array
    /// that LLVM left on the stack, stored as vectors and reloaded in halves (store-to-load
    /// forwarding failed on every tap: a 1080x1920x3 uint8 height halving took 2.1 ms).
    #[inline(always)]
    pub(super) fn rows<I: Px<T>, T: Real, O: Px<T>>(
        simd: V3,
        at: impl Fn(usize) -> *const I,
        inner: usize,
        per: usize,
        idx: &[usize],
        w: &[T],
        dst: &mut [O],
    ) {
        assert!(is_f32::<T>() && (is_f32::<I>() || is_u8::<I>()));
        assert!(is_f32::<O>() || is_u8::<O>());
        // SAFETY: `T` is `f32` (asserted), so the weights are `f32`s.
        let w = unsafe { std::slice::from_raw_parts(w.as_ptr().cast::<f32>(), w.len()) };
        for ((d, idx), w) in dst
            .chunks_mut(inner)
            .zip(idx.chunks(per))
            .zip(w.chunks(per))
        {
            let mut e = 0;
            while e + 32 <= inner {
                let mut acc = [simd.avx._mm256_setzero_ps(); 4];
                for (&i, &w) in idx.iter().zip(w) {
                    let w = simd.avx._mm256_set1_ps(w);
                    for (v, a) in acc.iter_mut().enumerate() {
                        // SAFETY: `at(i)` starts a contiguous run of `inner` readable
                        // elements (see `pass_as`); `e + 8 * v + 8 <= inner`.
                        let x = unsafe { load8(simd, at(i).add(e + 8 * v)) };
                        *a = simd.fma._mm256_fmadd_ps(w, x, *a);
                    }
                }
                for (v, &a) in acc.iter().enumerate() {
                    // SAFETY: `e + 8 * v + 8 <= inner`, the row's length in `d`.
                    unsafe { store8(simd, a, d.as_mut_ptr().add(e + 8 * v)) };
                }
                e += 32;
            }
            while e + 8 <= inner {
                let mut acc = simd.avx._mm256_setzero_ps();
                for (&i, &w) in idx.iter().zip(w) {
                    // SAFETY: as above, `e + 8 <= inner`.
                    let x = unsafe { load8(simd, at(i).add(e)) };
                    acc = simd.fma._mm256_fmadd_ps(simd.avx._mm256_set1_ps(w), x, acc);
                }
                // SAFETY: `e + 8 <= inner`.
                unsafe { store8(simd, acc, d.as_mut_ptr().add(e)) };
                e += 8;
            }
            for (e, out) in d.iter_mut().enumerate().skip(e) {
                let mut s = T::default();
                for (&i, &w) in idx.iter().zip(w) {
                    // SAFETY: element `e < inner` of a readable contiguous run.
                    s = T::from(w).fma::<true>(unsafe { *at(i).add(e) }.get(), s);
                }
                *out = O::put(s);
            }
        }
    }

    /// Eight elements from `p` (`f32`, or bytes widened) as a vector.
    ///
    /// # Safety
    /// `p[0..8]` are readable, and `I` is `f32` or `u8`.
    #[inline(always)]
    unsafe fn load8<I: 'static>(simd: V3, p: *const I) -> __m256 {
        if is_u8::<I>() {
            // SAFETY: eight readable bytes (the caller).
            let b = unsafe { p.cast::<[u8; 8]>().read_unaligned() };
            let v = simd.sse2._mm_set_epi64x(0, i64::from_le_bytes(b));
            simd.avx
                ._mm256_cvtepi32_ps(simd.avx2._mm256_cvtepu8_epi32(v))
        } else {
            // SAFETY: eight readable `f32`s (the caller).
            unsafe { simd.avx._mm256_loadu_ps(p.cast::<f32>()) }
        }
    }

    /// Stores the eight lanes of `v` to `p` as `f32`, or as bytes rounded as
    /// `Real::round_u8` (clamped, NaN giving 0, plus a half, truncated).
    ///
    /// # Safety
    /// `p[0..8]` are writable, and `O` is `f32` or `u8`.
    #[inline(always)]
    unsafe fn store8<O: 'static>(simd: V3, v: __m256, p: *mut O) {
        if is_u8::<O>() {
            let v = simd.avx._mm256_max_ps(v, simd.avx._mm256_setzero_ps());
            let v = simd.avx._mm256_min_ps(v, simd.avx._mm256_set1_ps(255.0));
            let v = simd.avx._mm256_add_ps(v, simd.avx._mm256_set1_ps(0.5));
            let v = simd.avx._mm256_cvttps_epi32(v);
            let lo = simd.avx._mm256_castsi256_si128(v);
            let hi = simd.avx2._mm256_extracti128_si256::<1>(v);
            let h = simd.sse2._mm_packs_epi32(lo, hi);
            let b = simd.sse2._mm_packus_epi16(h, h);
            let b = pulp::cast::<_, [u64; 2]>(b)[0].to_le_bytes();
            // SAFETY: eight writable bytes (the caller).
            unsafe { p.cast::<[u8; 8]>().write_unaligned(b) };
        } else {
            // SAFETY: eight writable `f32`s (the caller).
            unsafe { simd.avx._mm256_storeu_ps(p.cast::<f32>(), v) };
        }
    }

    /// One output pixel of [`pixels`]: its taps' pixels times their weights, as a vector.
    #[inline(always)]
    fn sum<I: Px<T>, T: Real, const C: usize>(
        simd: V3,
        at: &impl Fn(usize) -> *const I,
        whole: usize,
        idx: &[usize],
        w: &[f32],
    ) -> __m128 {
        let mut acc = simd.sse._mm_setzero_ps();
        for (&i, &w) in idx.iter().zip(w) {
            let p = at(i);
            if i < whole {
                // SAFETY: a tap's `C` elements are readable (see `pass_as`), and for
                // `i < whole` so is the element after them (the caller).
                let x = unsafe { load4(simd, p) };
                acc = simd.fma._mm_fmadd_ps(simd.sse._mm_set1_ps(w), x, acc);
                continue;
            }
            let x: [T; 4] = {
                // SAFETY: a tap's `C` (≥ 3) elements are readable.
                unsafe {
                    [
                        (*p).get(),
                        (*p.add(1)).get(),
                        (*p.add(2)).get(),
                        (*p.add(C - 1)).get(),
                    ]
                }
            };
            // SAFETY: `T` is `f32` (the caller): four `f32`s are one 128-bit vector.
            let x: __m128 = unsafe { std::mem::transmute_copy(&x) };
            acc = simd.fma._mm_fmadd_ps(simd.sse._mm_set1_ps(w), x, acc);
        }
        acc
    }

    /// Four elements from `p` (`f32`, or bytes widened) as a vector.
    ///
    /// # Safety
    /// `p[0..4]` are readable, and `I` is `f32` or `u8`.
    #[inline(always)]
    unsafe fn load4<I: 'static>(simd: V3, p: *const I) -> __m128 {
        if is_u8::<I>() {
            // SAFETY: four readable bytes (the caller).
            let b = unsafe { p.cast::<[u8; 4]>().read_unaligned() };
            let v = simd.sse2._mm_cvtsi32_si128(i32::from_le_bytes(b));
            simd.sse2._mm_cvtepi32_ps(simd.sse4_1._mm_cvtepu8_epi32(v))
        } else {
            // SAFETY: four readable `f32`s (the caller).
            unsafe { simd.sse._mm_loadu_ps(p.cast::<f32>()) }
        }
    }

    /// Stores the first `C` lanes of `acc` to `d`; for uint8, `Real::round_u8` of the four
    /// lanes at once: clamped (NaN gives 0: `maxps` returns its second operand), plus a
    /// half, truncated.
    #[inline(always)]
    fn put<T: Real, O: Px<T>, const C: usize>(simd: V3, acc: __m128, d: &mut [O; C]) {
        if is_u8::<O>() {
            let v = simd.sse._mm_max_ps(acc, simd.sse._mm_setzero_ps());
            let v = simd.sse._mm_min_ps(v, simd.sse._mm_set1_ps(255.0));
            let v = simd.sse._mm_add_ps(v, simd.sse._mm_set1_ps(0.5));
            let v = simd.sse2._mm_cvttps_epi32(v);
            let v = simd.sse2._mm_packs_epi32(v, v);
            let b = simd.sse2._mm_packus_epi16(v, v);
            let b = simd.sse2._mm_cvtsi128_si32(b).to_le_bytes();
            // SAFETY: `O` is `u8` (checked).
            let d: &mut [u8; C] = unsafe { &mut *d.as_mut_ptr().cast::<[u8; C]>() };
            d.copy_from_slice(&b[..C]);
        } else {
            let a: [f32; 4] = pulp::cast(acc);
            for c in 0..C {
                d[c] = O::put(T::from(a[c]));
            }
        }
    }
}

/// The per-element sums of [`window_sums`]' lanes (element `k % C` of lane `k`). Not
/// inlined on purpose: seen together with the lanes' loop, LLVM's SLP vectoriser built its
/// vectors from this reduction (lanes `c, c + C, …`: strided pairs and scalars) instead of
/// the loop's eight consecutive lanes (measured: the loop ran as scalar and 2-lane ops).
#[inline(never)]
fn fold_lanes<T: Real, const C: usize>(s: &[[T; WINDOW_ROWS]; C]) -> [T; C] {
    let mut t = [T::default(); C];
    for (k, &v) in s.as_flattened().iter().enumerate() {
        t[k % C] = t[k % C] + v;
    }
    t
}

/// The block of a long contiguous inner run whose sums stay in registers across the taps:
/// 32 `f32` are four AVX2 vectors (eight of `f64`).
const ROW_BLOCK: usize = 32;

/// Output rows of `inner` contiguous elements (stride 1), each a weighted sum of the
/// taps' contiguous input rows, in blocks of `B` elements summed over every tap in
/// registers (one write of the output, not a read and write of an accumulator row per
/// tap), eight elements widened at a time ([`Px::get8`]). Every tap is a multiply-add
/// onto zero: a first tap written as a product apart was split by the SLP vectoriser into
/// scalar products and inserts.
#[inline(always)]
fn rows<I: Px<T>, T: Real, O: Px<T>, const B: usize, const F: bool>(
    tok: Token,
    at: impl Fn(usize) -> *const I,
    inner: usize,
    per: usize,
    idx: &[usize],
    w: &[T],
    dst: &mut [O],
) {
    for ((d, idx), w) in dst
        .chunks_mut(inner)
        .zip(idx.chunks(per))
        .zip(w.chunks(per))
    {
        let (blocks, rest) = d.as_chunks_mut::<B>();
        for (b, out) in blocks.iter_mut().enumerate() {
            row_block::<I, T, O, B, F>(tok, &at, b * B, idx, w, out);
        }
        // The rest in blocks of eight (a 56-element row is 32 + 3 × 8), then one by one.
        let e0 = blocks.len() * B;
        let (eights, tail) = rest.as_chunks_mut::<8>();
        for (b, out) in eights.iter_mut().enumerate() {
            row_block::<I, T, O, 8, F>(tok, &at, e0 + b * 8, idx, w, out);
        }
        let e0 = e0 + eights.len() * 8;
        for (e, out) in tail.iter_mut().enumerate() {
            let mut s = T::default();
            for (&i, &w) in idx.iter().zip(w) {
                // SAFETY: element `e0 + e < inner` of a readable contiguous run (see
                // `pass_as`).
                s = w.fma::<F>(unsafe { *at(i).add(e0 + e) }.get(), s);
            }
            *out = O::put(s);
        }
    }
}

/// One block of `B` (a multiple of eight) output elements of [`rows`], from element `e0` of
/// each tap's row, summed over every tap in registers.
#[inline(always)]
fn row_block<I: Px<T>, T: Real, O: Px<T>, const B: usize, const F: bool>(
    tok: Token,
    at: &impl Fn(usize) -> *const I,
    e0: usize,
    idx: &[usize],
    w: &[T],
    out: &mut [O; B],
) {
    let mut s = [T::default(); B];
    for (&i, &w) in idx.iter().zip(w) {
        // SAFETY: `at(i)` starts a contiguous run of `inner` readable elements (see
        // `pass_as`), of which this block's `B` start at `e0` (`e0 + B <= inner`).
        let xs = unsafe { &*at(i).add(e0).cast::<[I; B]>() };
        for (s, x) in s
            .as_chunks_mut::<8>()
            .0
            .iter_mut()
            .zip(xs.as_chunks::<8>().0)
        {
            let x = I::get8(tok, x);
            for l in 0..8 {
                s[l] = w.fma::<F>(x[l], s[l]);
            }
        }
    }
    for c in 0..B {
        out[c] = O::put(s[c]);
    }
}

/// Output rows of `C` contiguous elements (`inner == C`, stride 1), each a weighted sum of
/// `per` input rows: unrolled over `C`.
#[inline(always)]
fn runs<I: Px<T>, T: Real, O: Px<T>, const C: usize, const F: bool>(
    at: impl Fn(usize) -> *const I,
    per: usize,
    idx: &[usize],
    w: &[T],
    dst: &mut [O],
) {
    let (dst, _) = dst.as_chunks_mut::<C>();
    for ((d, idx), w) in dst.iter_mut().zip(idx.chunks(per)).zip(w.chunks(per)) {
        let mut s = [T::default(); C];
        for (&i, &w) in idx.iter().zip(w) {
            // SAFETY: `at(i)` starts a contiguous run of `C` readable elements (the caller).
            let x = unsafe { &*at(i).cast::<[I; C]>() };
            for c in 0..C {
                s[c] = w.fma::<F>(x[c].get(), s[c]);
            }
        }
        for c in 0..C {
            d[c] = O::put(s[c]);
        }
    }
}
