//! The CPU's convolution and pooling kernels. A `float32` convolution on an AVX-512 CPU is
//! computed directly in register blocks (`conv/direct.rs`), a transposed one as one such
//! convolution per output phase; otherwise a convolution is im2col + GEMM per (image, group),
//! through the `gemm` crate (a 1×1 stride-1 convolution multiplies the input in place), and
//! a transposed convolution is the mirror, GEMM (the weight transposed, read in place
//! through its strides) + col2im, a scatter-add of each tap's row into the output.
//! The (image, group) blocks, and the pooled planes, run in parallel on the runtime's pool. Inputs are made contiguous in the compute dtype first (`Float64` stays
//! `Float64`, everything else computes in `Float32`; max pooling of integers in `Float64`,
//! which holds them exactly).

use std::ops::{Add, Div, Mul};

use crate::ops::vision::{PoolKind, VisionPlan};
use crate::{DType, Device, Result, Tensor};

mod conv;
mod pad;
mod pool;

pub(crate) use pad::pad;

/// Runs a planned convolution or pooling into a fresh tensor of the plan's dtype.
pub(crate) fn run(plan: &VisionPlan) -> Result<Tensor> {
    match plan {
        VisionPlan::Conv(p) => {
            let cd = compute_dtype(p.dtype);
            let out = match (cd, p.transposed) {
                (DType::Float64, false) => conv::conv::<f64>(p, cd)?,
                (_, false) => conv::conv::<f32>(p, cd)?,
                (DType::Float64, true) => conv::conv_transpose::<f64>(p, cd)?,
                (_, true) => conv::conv_transpose::<f32>(p, cd)?,
            };
            out.to_dtype(p.dtype)
        }
        VisionPlan::Normalize(p) => super::image::normalize(p),
        VisionPlan::Color(p) => super::image::cvt_color(p),
        VisionPlan::Resize(p) => super::resize::resize(p),
        VisionPlan::Norm(p) => super::norm::norm(p),
        VisionPlan::Pool(p) => {
            let cd = if p.kind == PoolKind::Max && !p.x.dtype().is_float() {
                DType::Float64
            } else {
                compute_dtype(p.dtype)
            };
            let out = match cd {
                DType::Float64 => pool::pool::<f64>(p, cd)?,
                _ => pool::pool::<f32>(p, cd)?,
            };
            out.to_dtype(p.dtype)
        }
    }
}

fn compute_dtype(d: DType) -> DType {
    if d == DType::Float64 {
        DType::Float64
    } else {
        DType::Float32
    }
}

/// The arithmetic the kernels need, for `f32` and `f64`.
pub(super) trait Real:
    'static
    + Copy
    + Send
    + Sync
    + Default
    + PartialOrd
    + Add<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + From<f32>
{
    const NEG_INF: Self;
    fn is_nan(self) -> bool;
    fn from_usize(n: usize) -> Self;
    fn from_f64(v: f64) -> Self;
    /// Rounded to the nearest integer (halves away from zero) and saturated to `0..=255`
    /// (NaN gives 0).
    fn round_u8(self) -> u8;
    /// `self · b + c`: one fused instruction where `F` (the CPU has FMA, see
    /// `vmath::dispatch`), a multiply and an add otherwise (never a libm call).
    fn fma<const F: bool>(self, b: Self, c: Self) -> Self;
    /// `dst[j] = src[2j]` for the leading `j` that whole vectors cover, as two loads, a
    /// shuffle and a lane permute per vector (the plain loop compiled to half-width
    /// shuffles); returns how many, the caller copies the rest.
    #[cfg(target_arch = "x86_64")]
    fn take_even(simd: pulp::x86::V3, src: &[Self], dst: &mut [Self]) -> usize;
    /// Eight bytes as numbers: a zero-extend and a convert of one vector for `f32` (the
    /// plain `map` in a loop was left scalar by the vectoriser, a `movzx` and a `cvtsi2ss`
    /// per byte).
    #[cfg(target_arch = "x86_64")]
    fn widen8(simd: pulp::x86::V3, b: &[u8; 8]) -> [Self; 8];
}

impl Real for f32 {
    const NEG_INF: Self = f32::NEG_INFINITY;
    #[inline(always)]
    fn fma<const F: bool>(self, b: Self, c: Self) -> Self {
        if F {
            self.mul_add(b, c)
        } else {
            self * b + c
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn take_even(simd: pulp::x86::V3, src: &[f32], dst: &mut [f32]) -> usize {
        use std::arch::x86_64::__m256;
        let n = (src.len() / 16).min(dst.len() / 8);
        for (d, s) in dst.chunks_exact_mut(8).zip(src.chunks_exact(16)).take(n) {
            // SAFETY: `s` holds 16 `f32`s; the loads are unaligned. (Arrays cast to vectors
            // were taken apart into scalar loads and inserts by the optimiser.)
            let (a, b): (__m256, __m256) = unsafe {
                let p = s.as_ptr();
                (
                    simd.avx._mm256_loadu_ps(p),
                    simd.avx._mm256_loadu_ps(p.add(8)),
                )
            };
            // [a0 a2 b0 b2 | a4 a6 b4 b6], then its 64-bit lanes in the order 0 2 1 3.
            let v = simd.avx._mm256_shuffle_ps::<0b10_00_10_00>(a, b);
            let v = simd.avx._mm256_castps_pd(v);
            let v = simd.avx2._mm256_permute4x64_pd::<0b11_01_10_00>(v);
            d.copy_from_slice(&pulp::cast::<_, [f32; 8]>(v));
        }
        n * 8
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn widen8(simd: pulp::x86::V3, b: &[u8; 8]) -> [f32; 8] {
        let v = simd.sse2._mm_set_epi64x(0, i64::from_le_bytes(*b));
        let v = simd.avx2._mm256_cvtepu8_epi32(v);
        pulp::cast(simd.avx._mm256_cvtepi32_ps(v))
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn from_usize(n: usize) -> Self {
        n as f32
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn round_u8(self) -> u8 {
        // Clamped first (NaN fails `>=` and gives 0), `x + 0.5` truncated is round-half-away
        // for the values in 0..=255 left; truncated without `as`'s saturation, which
        // vectorises (`round` is a libm call per element, and the saturating casts were
        // scalarised, with a NaN test each: most of a uint8 resize's last pass).
        let v = if self >= 0.0 { self.min(255.0) } else { 0.0 };
        // SAFETY: `v + 0.5` is finite and in 0.5..=255.5, so it fits an `i32`.
        unsafe { (v + 0.5).to_int_unchecked::<i32>() as u8 }
    }
}

impl Real for f64 {
    const NEG_INF: Self = f64::NEG_INFINITY;
    #[inline(always)]
    fn fma<const F: bool>(self, b: Self, c: Self) -> Self {
        if F {
            self.mul_add(b, c)
        } else {
            self * b + c
        }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn take_even(simd: pulp::x86::V3, src: &[f64], dst: &mut [f64]) -> usize {
        use std::arch::x86_64::__m256d;
        let n = (src.len() / 8).min(dst.len() / 4);
        for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(8)).take(n) {
            // SAFETY: `s` holds 8 `f64`s; the loads are unaligned.
            let (a, b): (__m256d, __m256d) = unsafe {
                let p = s.as_ptr();
                (
                    simd.avx._mm256_loadu_pd(p),
                    simd.avx._mm256_loadu_pd(p.add(4)),
                )
            };
            // [a0 b0 a2 b2], then its lanes in the order 0 2 1 3.
            let v = simd.avx._mm256_unpacklo_pd(a, b);
            let v = simd.avx2._mm256_permute4x64_pd::<0b11_01_10_00>(v);
            d.copy_from_slice(&pulp::cast::<_, [f64; 4]>(v));
        }
        n * 4
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn widen8(_simd: pulp::x86::V3, b: &[u8; 8]) -> [f64; 8] {
        b.map(f64::from)
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn from_usize(n: usize) -> Self {
        n as f64
    }
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn round_u8(self) -> u8 {
        // Clamped first (NaN fails `>=` and gives 0), `x + 0.5` truncated is round-half-away
        // for the values in 0..=255 left; truncated without `as`'s saturation, which
        // vectorises (`round` is a libm call per element, and the saturating casts were
        // scalarised, with a NaN test each: most of a uint8 resize's last pass).
        let v = if self >= 0.0 { self.min(255.0) } else { 0.0 };
        // SAFETY: `v + 0.5` is finite and in 0.5..=255.5, so it fits an `i32`.
        unsafe { (v + 0.5).to_int_unchecked::<i32>() as u8 }
    }
}

/// `t` in `cd`, contiguous (itself when it already is).
fn dense(t: &Tensor, cd: DType) -> Result<Tensor> {
    t.to_dtype(cd)?.contiguous()
}

/// The elements of a contiguous host tensor of `T`.
///
/// # Safety
/// `t` is a contiguous CPU tensor of `T`'s dtype that nobody writes while the slice lives.
pub(super) unsafe fn elems<T>(t: &Tensor) -> &[T] {
    if t.numel() == 0 {
        return &[];
    }
    // SAFETY: per the contract, `numel` initialised `T`s start at the (aligned) data pointer.
    unsafe { std::slice::from_raw_parts(t.const_data_ptr().cast::<T>(), t.numel()) }
}

/// A fresh contiguous CPU tensor of `shape` in `cd`, and its elements for writing.
fn fresh<'a, T>(shape: &[usize], cd: DType) -> Result<(Tensor, &'a mut [T])> {
    let out = Tensor::alloc(shape, cd, Device::cpu(), false)?;
    let n = out.numel();
    let s = if n == 0 {
        &mut []
    } else {
        // SAFETY: `out` is fresh from the pool, contiguous, of `n` initialised `T`s (its
        // dtype is `cd`, `T`'s), and only the returned slice writes it until it is returned;
        // the pool keeps the block alive as long as `out`, which the caller holds.
        unsafe { std::slice::from_raw_parts_mut(out.data_ptr().cast::<T>(), n) }
    };
    Ok((out, s))
}

#[cfg(test)]
mod tests {
    use super::Real;

    #[test]
    fn round_u8_rounds_halves_away_and_saturates() {
        let cases = [
            (f64::NEG_INFINITY, 0u8),
            (-1.0, 0),
            (-0.0, 0),
            (0.49, 0),
            (0.5, 1),
            (1.5, 2),
            (2.5, 3),
            (254.5, 255),
            (254.4, 254),
            (255.4, 255),
            (255.5, 255),
            (1e12, 255),
            (f64::INFINITY, 255),
            (f64::NAN, 0),
        ];
        for (v, want) in cases {
            assert_eq!((v as f32).round_u8(), want, "f32 {v}");
            assert_eq!(v.round_u8(), want, "f64 {v}");
        }
    }

    /// `take_even` against the plain loop, for every source length up to a few vectors and
    /// destinations shorter than, equal to and longer than half the source.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn take_even_takes_every_other_element() {
        fn check<T: Real + std::fmt::Debug>(simd: pulp::x86::V3) {
            for len in 0..70 {
                let src: Vec<T> = (0..len).map(T::from_usize).collect();
                for want in [len / 2 - len / 4, len / 2, len.div_ceil(2) + 3] {
                    let mut dst = vec![T::from_f64(-1.0); want];
                    let done = T::take_even(simd, &src, &mut dst);
                    assert!(
                        done <= want && 2 * done <= len,
                        "len {len}, dst {want}: {done}"
                    );
                    assert!(
                        want.min(len / 2) - done < 8,
                        "len {len}, dst {want}: {done}"
                    );
                    for (j, d) in dst.iter().enumerate() {
                        let expect = if j < done {
                            src[2 * j]
                        } else {
                            T::from_f64(-1.0)
                        };
                        assert!(*d == expect, "len {len}, dst {want}, at {j}: {d:?}");
                    }
                }
            }
        }
        let Some(simd) = pulp::x86::V3::try_new() else {
            return;
        };
        check::<f32>(simd);
        check::<f64>(simd);
    }
}
