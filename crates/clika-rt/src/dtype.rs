//! Element types: the runtime [`DType`] tag and the [`Element`] trait tying it to Rust types.

use std::fmt;
use std::str::FromStr;

use half::{bf16, f16};

use crate::error::{Error, Result};

/// The element type of a tensor.
///
/// The discriminants are part of the C ABI (`CRT_DTYPE_*`) and never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum DType {
    /// IEEE 754 binary32.
    Float32 = 0,
    /// IEEE 754 binary64.
    Float64 = 1,
    /// IEEE 754 binary16.
    Float16 = 2,
    /// bfloat16 (8-bit exponent, 7-bit mantissa).
    BFloat16 = 3,
    /// Signed 8-bit integer.
    Int8 = 4,
    /// Signed 16-bit integer.
    Int16 = 5,
    /// Signed 32-bit integer.
    Int32 = 6,
    /// Signed 64-bit integer.
    Int64 = 7,
    /// Unsigned 8-bit integer.
    UInt8 = 8,
    /// Boolean stored as one byte; any non-zero byte reads as `true`.
    Bool = 9,
    /// Unsigned 16-bit integer.
    UInt16 = 10,
    /// Unsigned 32-bit integer.
    UInt32 = 11,
    /// Unsigned 64-bit integer.
    UInt64 = 12,
}

impl DType {
    /// Every dtype, in discriminant order.
    pub const ALL: [DType; 13] = [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::Bool,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
    ];

    /// Size of one element in bytes (also its required alignment).
    pub const fn size(self) -> usize {
        match self {
            DType::Float64 | DType::Int64 | DType::UInt64 => 8,
            DType::Float32 | DType::Int32 | DType::UInt32 => 4,
            DType::Float16 | DType::BFloat16 | DType::Int16 | DType::UInt16 => 2,
            DType::Int8 | DType::UInt8 | DType::Bool => 1,
        }
    }

    /// Whether this is a floating-point type.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16
        )
    }

    /// Whether this is an unsigned integer type (`UInt8` … `UInt64`; not `Bool`).
    pub const fn is_unsigned(self) -> bool {
        matches!(
            self,
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64
        )
    }

    /// Whether this is an integer type (signed or unsigned; not `Bool`).
    pub const fn is_integer(self) -> bool {
        !self.is_float() && !matches!(self, DType::Bool)
    }

    /// The lower-case name Python and parsing use (`"float32"`).
    pub const fn short_name(self) -> &'static str {
        match self {
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::UInt8 => "uint8",
            DType::Bool => "bool",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
        }
    }

    /// The display name the specification prints (`"Float32"`).
    pub const fn name(self) -> &'static str {
        match self {
            DType::Float32 => "Float32",
            DType::Float64 => "Float64",
            DType::Float16 => "Float16",
            DType::BFloat16 => "BFloat16",
            DType::Int8 => "Int8",
            DType::Int16 => "Int16",
            DType::Int32 => "Int32",
            DType::Int64 => "Int64",
            DType::UInt8 => "UInt8",
            DType::Bool => "Bool",
            DType::UInt16 => "UInt16",
            DType::UInt32 => "UInt32",
            DType::UInt64 => "UInt64",
        }
    }

    /// The dtype for a C ABI discriminant.
    pub fn from_u32(v: u32) -> Option<DType> {
        DType::ALL.get(v as usize).copied()
    }

    /// The dtype a sum over this dtype produces: floats keep their type, integers and
    /// booleans widen to `Int64` (as in PyTorch and numpy), except `UInt64`, which stays
    /// `UInt64` (numpy's rule: `Int64` cannot hold its values; the sum wraps modulo 2^64).
    pub const fn sum_dtype(self) -> DType {
        if self.is_float() || matches!(self, DType::UInt64) {
            self
        } else {
            DType::Int64
        }
    }

    /// The dtype a mean over this dtype produces: floats keep their type, integers and
    /// booleans give `Float64` (as in numpy).
    pub const fn mean_dtype(self) -> DType {
        if self.is_float() {
            self
        } else {
            DType::Float64
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = Error;

    /// Parses `"float32"`, `"Float32"`, `"f32"`, `"half"`, ... (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.trim().to_ascii_lowercase();
        let dtype = match lower.as_str() {
            "float32" | "f32" | "float" => DType::Float32,
            "float64" | "f64" | "double" => DType::Float64,
            "float16" | "f16" | "half" => DType::Float16,
            "bfloat16" | "bf16" => DType::BFloat16,
            "int8" | "i8" => DType::Int8,
            "int16" | "i16" => DType::Int16,
            "int32" | "i32" => DType::Int32,
            "int64" | "i64" | "long" => DType::Int64,
            "uint8" | "u8" => DType::UInt8,
            "uint16" | "u16" => DType::UInt16,
            "uint32" | "u32" => DType::UInt32,
            "uint64" | "u64" => DType::UInt64,
            "bool" => DType::Bool,
            _ => {
                return Err(Error::ParseDType {
                    text: s.to_string(),
                })
            }
        };
        Ok(dtype)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that is the element type of some [`DType`].
///
/// Sealed: implemented for `f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 bool` only.
/// Conversions go through `f64` for floats and `i64` for integers; float → integer casts
/// saturate and map NaN to 0 (Rust's `as`), integer → narrower integer casts wrap (two's
/// complement). A `u64` above `i64::MAX` passes through `i64` as its two's-complement bits
/// (`to_i64` then `from_i64` gives it back unchanged), while `to_f64` reads it unsigned.
pub trait Element: Copy + Send + Sync + PartialEq + fmt::Debug + 'static + sealed::Sealed {
    /// The matching dtype.
    const DTYPE: DType;

    /// Reads one element from `ptr`.
    ///
    /// # Safety
    /// `ptr` must be valid for reading `DTYPE.size()` bytes and aligned to it.
    #[inline]
    unsafe fn load(ptr: *const Self) -> Self {
        // SAFETY: the caller guarantees `ptr` is valid and aligned for `Self`; every type
        // but `bool` (which overrides this) is valid for any bit pattern.
        unsafe { ptr.read() }
    }
    /// The value as `f64` (exact for every type except `i64`/`u64` beyond 2^53).
    fn to_f64(self) -> f64;
    /// The value as `i64` (floats truncate toward zero and saturate; NaN gives 0; a `u64`
    /// above `i64::MAX` wraps to its two's-complement bits).
    fn to_i64(self) -> i64;
    /// Converts from `f64` with `as` semantics.
    fn from_f64(v: f64) -> Self;
    /// Converts from `i64` with `as` semantics (integers wrap).
    fn from_i64(v: i64) -> Self;
    /// The value as `f32`: `to_f64() as f32`, spelled as one conversion for the integers up
    /// to 32 bits (exact in `f64`, so it is the same single rounding).
    #[inline]
    fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }
    /// Converts from `f32` with `as` semantics: the same value as `from_f64(v as f64)`,
    /// spelled in `f32` lanes where that is exact (integers up to 32 bits, the half types),
    /// so a vectorised cast does not widen every element to `f64` and back.
    #[inline]
    fn from_f32(v: f32) -> Self {
        Self::from_f64(f64::from(v))
    }
}

macro_rules! impl_float_element {
    ($t:ty, $d:expr, $to:expr, $from:expr, $from32:expr) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = $d;
            #[inline]
            fn to_f64(self) -> f64 {
                $to(self)
            }
            #[inline]
            fn to_i64(self) -> i64 {
                $to(self) as i64
            }
            #[inline]
            fn from_f64(v: f64) -> Self {
                $from(v)
            }
            #[inline]
            fn from_i64(v: i64) -> Self {
                $from(v as f64)
            }
            #[inline]
            fn from_f32(v: f32) -> Self {
                $from32(v)
            }
        }
    };
}

impl_float_element!(
    f32,
    DType::Float32,
    |v: f32| v as f64,
    |v: f64| v as f32,
    |v: f32| v
);
impl_float_element!(f64, DType::Float64, |v: f64| v, |v: f64| v, f64::from);
// One rounding either way: an `f32` is exact in `f64`.
impl_float_element!(
    f16,
    DType::Float16,
    |v: f16| f64::from(crate::half_bits::f16_to_f32(v)),
    f16::from_f64,
    crate::half_bits::f32_to_f16
);
impl_float_element!(
    bf16,
    DType::BFloat16,
    bf16::to_f64,
    bf16::from_f64,
    bf16::from_f32
);

macro_rules! impl_int_element {
    ($t:ty, $d:expr) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = $d;
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline]
            fn from_f64(v: f64) -> Self {
                if <$t>::BITS > 32 {
                    // The maximum rounds up to 2^63 or 2^64, the first `f64` past it; below
                    // that the clamped value truncates in range. Spelled as selects, so
                    // AVX-512 converts vectors (`as` compares and branches per element).
                    let hi = <$t>::MAX as f64;
                    return if v.is_nan() {
                        0
                    } else if v >= hi {
                        <$t>::MAX
                    } else {
                        // SAFETY: `v` is finite, below the first value past the maximum and
                        // clamped to at least the (exact) minimum.
                        unsafe { v.max(<$t>::MIN as f64).to_int_unchecked::<$t>() }
                    };
                }
                // `as` (saturating, NaN to 0) spelled so that it vectorises: LLVM turns a
                // saturating `f64` conversion into a compare-and-branch per element, but a
                // clamp, a NaN select and a plain truncation into vector instructions. The
                // type's bounds are exact in `f64` up to 32 bits (64-bit types use `as`).
                // The select after the clamp (which passes NaN through) is an `and` with
                // the ordered-compare mask; before it, a blend.
                let c = v.clamp(<$t>::MIN as f64, <$t>::MAX as f64);
                let c = if c.is_nan() { 0.0 } else { c };
                // SAFETY: `c` is finite and within the type's range, so its truncation is
                // representable.
                unsafe { c.to_int_unchecked::<$t>() }
            }
            #[inline]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            #[inline]
            fn to_f32(self) -> f32 {
                if <$t>::BITS > 32 {
                    return self.to_f64() as f32;
                }
                self as f32
            }
            #[inline]
            fn from_f32(v: f32) -> Self {
                if <$t>::BITS < 32 {
                    // The bounds are exact in `f32`: clamp, NaN select and truncation, as
                    // `from_f64` does in `f64`.
                    let c = v.clamp(<$t>::MIN as f32, <$t>::MAX as f32);
                    let c = if c.is_nan() { 0.0 } else { c };
                    // SAFETY: `c` is finite and within the type's range.
                    return unsafe { c.to_int_unchecked::<$t>() };
                }
                if <$t>::BITS == 32 && <$t>::MIN == 0 {
                    // `u32`: AVX2 has no unsigned conversion; `f64` converts it exactly.
                    return Self::from_f64(f64::from(v));
                }
                // `i32`, `i64`, `u64`: the maximum is not an `f32` and rounds up to the first
                // power of two past it (2^31, 2^63, 2^64), from which every `f32` saturates;
                // below that the clamped value truncates in range. Selects, not `as`, so
                // the conversion vectorises (`f32 → i64` under AVX-512).
                let hi = <$t>::MAX as f32;
                if v.is_nan() {
                    0
                } else if v >= hi {
                    <$t>::MAX
                } else {
                    // SAFETY: `v` is finite here, below the first value past the maximum and
                    // clamped to at least the (exact) minimum, so its truncation is a `$t`.
                    unsafe { v.max(<$t>::MIN as f32).to_int_unchecked::<$t>() }
                }
            }
        }
    };
}

impl_int_element!(i8, DType::Int8);
impl_int_element!(i16, DType::Int16);
impl_int_element!(i32, DType::Int32);
impl_int_element!(i64, DType::Int64);
impl_int_element!(u8, DType::UInt8);
impl_int_element!(u16, DType::UInt16);
impl_int_element!(u32, DType::UInt32);
impl_int_element!(u64, DType::UInt64);

impl sealed::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    #[inline]
    unsafe fn load(ptr: *const Self) -> Self {
        // SAFETY: the caller guarantees one readable byte at `ptr`. It is read as `u8`, never
        // as `bool`, because foreign memory may hold bytes other than 0 and 1.
        unsafe { ptr.cast::<u8>().read() != 0 }
    }
    #[inline]
    fn to_f64(self) -> f64 {
        u8::from(self) as f64
    }
    #[inline]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    #[inline]
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    #[inline]
    fn from_i64(v: i64) -> Self {
        v != 0
    }
}

/// Runs `$body` with the type alias `$T` bound to the Rust element type of `$dtype`.
///
/// ```ignore
/// dispatch_dtype!(t.dtype(), T => { t.to_vec::<T>()?.len() })
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! dispatch_dtype {
    ($dtype:expr, $T:ident => $body:expr) => {
        $crate::dispatch_num!($dtype, $T => $body, bool => {
            type $T = bool;
            $body
        })
    };
}

/// Runs `$body` with `$T` bound to the element type of a numeric (non-`Bool`) dtype, and
/// `$bool` for `Bool` (so `$body` may use arithmetic that `bool` lacks).
#[macro_export]
#[doc(hidden)]
macro_rules! dispatch_num {
    ($dtype:expr, $T:ident => $body:expr, bool => $bool:expr) => {
        match $dtype {
            $crate::DType::Bool => $bool,
            $crate::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::DType::Float64 => {
                type $T = f64;
                $body
            }
            $crate::DType::Float16 => {
                type $T = $crate::half::f16;
                $body
            }
            $crate::DType::BFloat16 => {
                type $T = $crate::half::bf16;
                $body
            }
            $crate::DType::Int8 => {
                type $T = i8;
                $body
            }
            $crate::DType::Int16 => {
                type $T = i16;
                $body
            }
            $crate::DType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::DType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::DType::UInt8 => {
                type $T = u8;
                $body
            }
            $crate::DType::UInt16 => {
                type $T = u16;
                $body
            }
            $crate::DType::UInt32 => {
                type $T = u32;
                $body
            }
            $crate::DType::UInt64 => {
                type $T = u64;
                $body
            }
        }
    };
}

/// The exact value of an integer or bool element (a `u64` above `i64::MAX` included).
#[inline]
pub fn int_value<T: Element>(v: T) -> i128 {
    let i = v.to_i64();
    if T::DTYPE.is_unsigned() {
        i128::from(i as u64)
    } else {
        i128::from(i)
    }
}

/// Casts one element between element types with the runtime's conversion rules: through
/// `i64` when both sides are integers (or bool), [`Element::from_f32`] from `f32` (the value
/// `f64` would give), through `f64` otherwise. Between one type
/// the bits move unchanged (a copy keeps a NaN's payload, signalling or not, and its sign).
#[inline]
pub fn cast<S: Element, D: Element>(v: S) -> D {
    // The same type: resolved at compile time per instantiation.
    if let Some(&same) = (&v as &dyn std::any::Any).downcast_ref::<D>() {
        return same;
    }
    if let Some(&x) = (&v as &dyn std::any::Any).downcast_ref::<f32>() {
        return D::from_f32(x);
    }
    // Integers to `f32`, and to `float16` through `f32`: one rounding either way, since an
    // integer that `f32` rounds (at least 2^24) is infinite in `float16`.
    if !S::DTYPE.is_float() && matches!(D::DTYPE, DType::Float32 | DType::Float16) {
        return D::from_f32(v.to_f32());
    }
    if S::DTYPE.is_float() || D::DTYPE.is_float() {
        D::from_f64(v.to_f64())
    } else {
        D::from_i64(v.to_i64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_f64_is_as_for_every_integer_type() {
        let vs = [
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            0.5,
            -0.5,
            -0.99,
            127.9,
            128.0,
            -128.9,
            -129.0,
            255.99,
            256.0,
            32767.5,
            -32769.0,
            65535.5,
            65536.0,
            2_147_483_647.9,
            2_147_483_648.0,
            -2_147_483_648.9,
            -2_147_483_649.0,
            4_294_967_295.9,
            4_294_967_296.0,
            9.3e18,
            1.9e19,
            // 2^63 and 2^64 (the first values past i64's and u64's maximum), their
            // neighbours below, and -2^63 with its neighbour past it.
            9_223_372_036_854_775_808.0,
            9_223_372_036_854_774_784.0,
            18_446_744_073_709_551_616.0,
            18_446_744_073_709_549_568.0,
            -9_223_372_036_854_775_808.0,
            -9_223_372_036_854_777_856.0,
            1e300,
            -1e300,
            f64::MIN_POSITIVE / 4.0,
        ];
        macro_rules! check {
            ($($t:ty),*) => {$(
                for &v in &vs {
                    assert_eq!(<$t as Element>::from_f64(v), v as $t, "{v} as {}", stringify!($t));
                }
            )*};
        }
        check!(i8, i16, i32, i64, u8, u16, u32, u64);
    }

    #[test]
    fn from_f32_is_from_f64_of_the_widened_value_for_every_type() {
        // Every bit pattern near the integer types' bounds and the half types' rounding
        // edges, plus a stride through all f32 patterns.
        let step: usize = if cfg!(miri) { 40_000_003 } else { 65_537 };
        let mut pats: Vec<u32> = (0..=u32::MAX).step_by(step).collect();
        for base in [
            -129.0f32,
            128.0,
            256.0,
            -32769.0,
            32768.0,
            65536.0,
            2_147_483_648.0,
            -2_147_483_648.0,
            4_294_967_296.0,
            9.3e18,
            1.9e19,
            9_223_372_036_854_775_808.0,
            -9_223_372_036_854_775_808.0,
            18_446_744_073_709_551_616.0,
            65504.0,
            65520.0,
            0.0,
            f32::INFINITY,
        ] {
            let near = if cfg!(miri) { 2 } else { 300 };
            for d in 0..=2 * near {
                pats.push(base.to_bits().wrapping_add(d).wrapping_sub(near));
            }
        }
        pats.extend([0x7f80_0001, 0x7fc0_0000, 0x0000_0001]);
        macro_rules! check {
            ($($t:ty),*) => {$(
                for &p in &pats {
                    for v in [f32::from_bits(p), f32::from_bits(p | 0x8000_0000)] {
                        let (got, want) = (<$t as Element>::from_f32(v), <$t as Element>::from_f64(f64::from(v)));
                        assert!(got == want || (got != got && want != want), "{v} as {}: {got:?} {want:?}", stringify!($t));
                    }
                }
            )*};
        }
        check!(i8, i16, i32, i64, u8, u16, u32, u64, bool, f32, f64);
        for &p in &pats {
            let v = f32::from_bits(p);
            let w = f64::from(v);
            // A NaN's payload after a float operation is not specified (Miri picks one at
            // random): NaN in, NaN out is what is checked for those.
            let same = |x: u16, y: u16, nan: u16| x == y || (x & nan == nan && y & nan == nan);
            let (h, b) = (crate::half_bits::f32_to_f16(v), bf16::from_f32(v));
            assert!(
                same(h.to_bits(), f16::from_f64(w).to_bits(), 0x7e00),
                "{p:#x}"
            );
            assert!(
                same(b.to_bits(), bf16::from_f64(w).to_bits(), 0x7fc0),
                "{p:#x}"
            );
        }
    }

    #[test]
    fn integers_to_f32_and_float16_round_once() {
        // (Under Miri, which checks no unsafe code here, a sparser sweep: minutes otherwise.)
        let (step, near) = if cfg!(miri) { (997, 3) } else { (7, 40) };
        let mut vs: Vec<i64> = (-70_000..70_000).step_by(step).collect();
        for base in [
            1i64 << 24,
            1 << 31,
            65504,
            65520,
            i32::MAX as i64,
            i64::MAX / 3,
        ] {
            vs.extend((-near..near).flat_map(|d| [base + d, -base - d]));
        }
        macro_rules! check {
            ($($t:ty),*) => {$(
                for &v in &vs {
                    let x = v as $t;
                    let w = <$t as Element>::to_f64(x);
                    assert_eq!(cast::<$t, f32>(x).to_bits(), (w as f32).to_bits(), "{x}");
                    assert_eq!(cast::<$t, f16>(x).to_bits(), f16::from_f64(w).to_bits(), "{x}");
                }
            )*};
        }
        check!(i8, i16, i32, i64, u8, u16, u32, u64);
        assert_eq!(cast::<bool, f16>(true), f16::ONE);
    }

    #[test]
    fn same_type_cast_keeps_nan_payloads() {
        let snan32 = f32::from_bits(0x7f80_0001);
        assert_eq!(cast::<f32, f32>(snan32).to_bits(), 0x7f80_0001);
        let snan64 = f64::from_bits(0xfff0_0000_0000_0001);
        assert_eq!(cast::<f64, f64>(snan64).to_bits(), 0xfff0_0000_0000_0001);
        let h = half::f16::from_bits(0x7d01);
        assert_eq!(cast::<half::f16, half::f16>(h).to_bits(), 0x7d01);
        let b = half::bf16::from_bits(0xff81);
        assert_eq!(cast::<half::bf16, half::bf16>(b).to_bits(), 0xff81);
        assert_eq!(cast::<f32, f64>(1.5), 1.5);
        assert_eq!(cast::<i32, i8>(300), 44);
    }

    #[test]
    fn sizes_and_names() {
        for d in DType::ALL {
            assert_eq!(DType::from_u32(d as u32), Some(d));
            assert_eq!(d.short_name().parse::<DType>().unwrap(), d);
            assert_eq!(d.name().parse::<DType>().unwrap(), d);
        }
        assert_eq!(DType::Float32.to_string(), "Float32");
        assert_eq!(DType::BFloat16.size(), 2);
        assert!("complex64".parse::<DType>().is_err());
        assert_eq!(DType::from_u32(13), None);
        assert_eq!("u16".parse::<DType>().unwrap(), DType::UInt16);
        assert_eq!(DType::UInt64.size(), 8);
        assert!(DType::UInt32.is_unsigned() && !DType::Int32.is_unsigned());
    }

    #[test]
    fn casts_follow_documented_rules() {
        assert_eq!(cast::<f32, i32>(-2.7), -2);
        assert_eq!(cast::<f32, u8>(300.0), 255);
        assert_eq!(cast::<f32, i32>(f32::NAN), 0);
        assert_eq!(cast::<i32, i8>(300), 44);
        assert_eq!(cast::<i64, f64>(1 << 40), (1u64 << 40) as f64);
        assert!(cast::<u8, bool>(7));
        assert_eq!(cast::<bool, f32>(true), 1.0);
    }

    #[test]
    fn u64_above_i64_max_survives_casts() {
        let big = u64::MAX - 5;
        assert_eq!(cast::<u64, u64>(big), big);
        assert_eq!(cast::<u64, f64>(big), big as f64);
        assert!(cast::<u64, f64>(1 << 63) > 0.0);
        assert_eq!(cast::<u64, i64>(big), -6);
        assert_eq!(cast::<i64, u64>(-6), big);
        assert_eq!(cast::<u64, u16>(big), 0xfffa);
        assert_eq!(cast::<f64, u64>(1.8e19), 18_000_000_000_000_000_000);
        assert_eq!(cast::<f64, u64>(-1.0), 0);
        assert_eq!(cast::<u32, f32>(u32::MAX), u32::MAX as f32);
        assert_eq!(cast::<i16, u16>(-1), u16::MAX);
        assert!(cast::<u64, bool>(1 << 63));
        assert_eq!(int_value(u64::MAX), i128::from(u64::MAX));
        assert_eq!(int_value(-3i8), -3);
    }

    #[test]
    fn bool_load_normalises_foreign_bytes() {
        let bytes = [0u8, 1, 2, 255];
        let got: Vec<bool> = bytes
            .iter()
            // SAFETY: each pointer addresses one byte of `bytes`.
            .map(|b| unsafe { bool::load((b as *const u8).cast()) })
            .collect();
        assert_eq!(got, [false, true, true, true]);
    }
}
