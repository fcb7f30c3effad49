//! Arithmetic on element types. Integers wrap on overflow (two's complement, like numpy and
//! PyTorch); `Float16`/`BFloat16` compute in `f32` and round once per operation.

use half::{bf16, f16};

use crate::dtype::Element;
use crate::half_bits::{f16_to_f32, f32_to_f16};

/// Arithmetic every numeric element type supports.
pub(crate) trait Num: Element + PartialOrd {
    const ZERO: Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// Division (integers: truncating; by zero gives 0 rather than trapping).
    fn div(self, o: Self) -> Self;
    fn pow(self, o: Self) -> Self;
    /// Maximum; NaN-propagating for floats (numpy's `maximum`).
    fn max(self, o: Self) -> Self;
    /// Minimum; NaN-propagating for floats.
    fn min(self, o: Self) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn is_nan(self) -> bool;
}

macro_rules! float_num {
    ($t:ty, $to:expr, $from:expr, $zero:expr, $one:expr) => {
        impl Num for $t {
            const ZERO: Self = $zero;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                $from($to(self) + $to(o))
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                $from($to(self) - $to(o))
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                $from($to(self) * $to(o))
            }
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                $from($to(self) / $to(o))
            }
            #[inline(always)]
            fn pow(self, o: Self) -> Self {
                $from($to(self).powf($to(o)))
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                // `|`, not `||`: both tests and a select, with no branch, so loops vectorise
                // (a NaN `a` wins; otherwise a NaN `b` does, as `a > NaN` is false).
                let (a, b) = ($to(self), $to(o));
                if a.is_nan() | (a > b) {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                let (a, b) = ($to(self), $to(o));
                if a.is_nan() | (a < b) {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn neg(self) -> Self {
                $from(-$to(self))
            }
            #[inline(always)]
            fn abs(self) -> Self {
                $from($to(self).abs())
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                $to(self).is_nan()
            }
        }
    };
}

float_num!(f32, |v: f32| v, |v: f32| v, 0.0, 1.0);
float_num!(f64, |v: f64| v, |v: f64| v, 0.0, 1.0);
float_num!(f16, f16_to_f32, f32_to_f16, f16::ZERO, f16::ONE);
float_num!(bf16, bf16::to_f32, bf16::from_f32, bf16::ZERO, bf16::ONE);

macro_rules! int_num {
    ($t:ty) => {
        impl Num for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                self.checked_div(o).unwrap_or(0)
            }
            #[inline(always)]
            fn pow(self, o: Self) -> Self {
                #[allow(
                    unused_comparisons,
                    reason = "unsigned types have no negative exponents"
                )]
                if o < 0 {
                    // Integer results of base^(negative): 1/base^n truncated toward zero.
                    let minus_one = (0 as $t).wrapping_sub(1);
                    match self {
                        1 => 1,
                        v if v == minus_one => {
                            if o.wrapping_rem(2) == 0 {
                                1
                            } else {
                                v
                            }
                        }
                        _ => 0,
                    }
                } else {
                    self.wrapping_pow(o as u32)
                }
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                Ord::max(self, o)
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                Ord::min(self, o)
            }
            #[inline(always)]
            fn neg(self) -> Self {
                (0 as $t).wrapping_sub(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                #[allow(unused_comparisons, reason = "unsigned types are never negative")]
                if self < 0 {
                    self.neg()
                } else {
                    self
                }
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                false
            }
        }
    };
}

int_num!(i8);
int_num!(i16);
int_num!(i32);
int_num!(i64);
int_num!(u8);
int_num!(u16);
int_num!(u32);
int_num!(u64);

pub(crate) use crate::dispatch_num;
