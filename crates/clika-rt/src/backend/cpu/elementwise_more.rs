//! CPU kernels of the newer elementwise ops (issue 14): rounding, the predicates, the extra
//! transcendental functions, the integer operators (`//`, `%`, `fmod`, bitwise, shifts) and
//! the logical ops. As in `elementwise.rs`, each (op, dtype) pair is its own monomorphic
//! closure handed to [`map1`]/[`map2`], so the inner loops over contiguous runs carry no
//! per-element dispatch and vectorise where the operation allows.

use half::{bf16, f16};

use super::iter::Coalesced;
use super::kernel::{map1, map2};
use crate::dtype::Element;
use crate::half_bits::{f16_to_f32, f32_to_f16};
use crate::ops::{BinaryOp, UnaryOp};
use crate::{DType, Error, Result, Tensor};

/// Whether [`run_unary`] owns `op` (the ops added after the original fourteen).
pub(crate) fn owns_unary(op: UnaryOp) -> bool {
    use UnaryOp as U;
    !matches!(
        op,
        U::Neg
            | U::Abs
            | U::Relu
            | U::Exp
            | U::Log
            | U::Sqrt
            | U::Rsqrt
            | U::Sin
            | U::Cos
            | U::Tanh
            | U::Sigmoid
            | U::Gelu
            | U::Silu
            | U::Erf
    )
}

/// Whether [`run_binary`] owns `op`.
pub(crate) fn owns_binary(op: BinaryOp) -> bool {
    crate::ops::binary_dtypes_owned(op)
}

/// `sign` of a float: -1, 0 or 1, keeping `±0` and NaN (numpy's and PyTorch's).
macro_rules! fsign {
    ($x:expr) => {{
        let x = $x;
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            x
        }
    }};
}

/// The float kernels for element type `$t`, computed in `$w` (`f32` for the half types).
macro_rules! float_kernels {
    ($unary:ident, $binary:ident, $t:ty, $w:ty, $to:expr, $from:expr) => {
        /// # Safety
        /// As for [`map1`].
        unsafe fn $unary(op: UnaryOp, src: &Tensor, out: &Tensor) {
            use UnaryOp as U;
            macro_rules! f {
                ($e:expr) => {
                    map1::<$t, $t>(src, out, |x| $from($e($to(x))))
                };
            }
            macro_rules! p {
                ($e:expr) => {
                    map1::<$t, bool>(src, out, |x| $e($to(x)))
                };
            }
            // SAFETY: forwarded from this function's contract.
            unsafe {
                match op {
                    U::Sign => f!(|v: $w| fsign!(v)),
                    // The class from the magnitude's bits (above, at or below the infinity's):
                    // integer compares, exact for every NaN payload, and the same under every
                    // instruction set and emulator (valgrind's AVX float compares misreport
                    // `is_finite(NaN)`).
                    U::IsNan => p!(|v: $w| v.abs().to_bits() > <$w>::INFINITY.to_bits()),
                    U::IsInf => p!(|v: $w| v.abs().to_bits() == <$w>::INFINITY.to_bits()),
                    U::IsFinite => p!(|v: $w| v.abs().to_bits() < <$w>::INFINITY.to_bits()),
                    U::Log2 => f!(|v: $w| v.log2()),
                    U::Log10 => f!(|v: $w| v.log10()),
                    U::Exp2 => f!(|v: $w| v.exp2()),
                    U::Sinh => f!(|v: $w| v.sinh()),
                    U::Cosh => f!(|v: $w| v.cosh()),
                    _ => unreachable!("{} runs as a lane kernel (vmath) or elsewhere", op.name()),
                }
            }
        }

        /// # Safety
        /// As for [`map2`].
        unsafe fn $binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) {
            use BinaryOp as B;
            macro_rules! f {
                ($e:expr) => {
                    map2::<$t, $t, $t>(a, b, out, |x, y| $from($e($to(x), $to(y))))
                };
            }
            // SAFETY: forwarded from this function's contract.
            unsafe {
                match op {
                    B::Hypot => f!(|x: $w, y: $w| x.hypot(y)),
                    _ => unreachable!(
                        "{} is a lane kernel (vmath) or not a float op (refused by its dtype rule)",
                        op.name()
                    ),
                }
            }
        }
    };
}

float_kernels!(unary_f32, binary_f32, f32, f32, |v: f32| v, |v: f32| v);
float_kernels!(unary_f64, binary_f64, f64, f64, |v: f64| v, |v: f64| v);
float_kernels!(unary_f16, binary_f16, f16, f32, f16_to_f32, f32_to_f16);
float_kernels!(
    unary_bf16,
    binary_bf16,
    bf16,
    f32,
    bf16::to_f32,
    bf16::from_f32
);

/// The integer kernels for `$t`.
macro_rules! int_kernels {
    ($unary:ident, $binary:ident, $t:ty) => {
        /// # Safety
        /// As for [`map1`].
        unsafe fn $unary(op: UnaryOp, src: &Tensor, out: &Tensor) {
            use UnaryOp as U;
            // SAFETY: forwarded from this function's contract.
            unsafe {
                match op {
                    U::Round | U::Floor | U::Ceil | U::Trunc => map1::<$t, $t>(src, out, |x| x),
                    #[allow(unused_comparisons, reason = "unsigned types are never negative")]
                    U::Sign => map1::<$t, $t>(src, out, |x| {
                        <$t>::from(x > 0).wrapping_sub(<$t>::from(x < 0))
                    }),
                    U::IsNan | U::IsInf => map1::<$t, bool>(src, out, |_| false),
                    U::IsFinite => map1::<$t, bool>(src, out, |_| true),
                    U::BitwiseNot => map1::<$t, $t>(src, out, |x| !x),
                    _ => unreachable!("{} computes in floating point", op.name()),
                }
            }
        }

        /// # Safety
        /// As for [`map2`]; for the dividing ops the divisor holds no zero (checked by
        /// [`check_divisor`]; a zero would give 0 here rather than trap).
        #[allow(unused_comparisons, reason = "unsigned types are never negative")]
        unsafe fn $binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor) {
            use BinaryOp as B;
            const BITS: $t = <$t>::BITS as $t;
            macro_rules! f {
                ($e:expr) => {
                    map2::<$t, $t, $t>(a, b, out, $e)
                };
            }
            // SAFETY: forwarded from this function's contract.
            unsafe {
                match op {
                    B::Fmod => f!(|x: $t, y: $t| if y == 0 { 0 } else { x.wrapping_rem(y) }),
                    B::Remainder => f!(|x: $t, y: $t| {
                        let r = if y == 0 { 0 } else { x.wrapping_rem(y) };
                        if r != 0 && ((r < 0) != (y < 0)) {
                            r.wrapping_add(y)
                        } else {
                            r
                        }
                    }),
                    B::FloorDivide => f!(|x: $t, y: $t| {
                        if y == 0 {
                            return 0;
                        }
                        let q = x.wrapping_div(y);
                        let r = x.wrapping_rem(y);
                        if r != 0 && ((r < 0) != (y < 0)) {
                            q.wrapping_sub(1)
                        } else {
                            q
                        }
                    }),
                    B::BitwiseAnd => f!(|x: $t, y: $t| x & y),
                    B::BitwiseOr => f!(|x: $t, y: $t| x | y),
                    B::BitwiseXor => f!(|x: $t, y: $t| x ^ y),
                    B::BitwiseLeftShift => f!(|x: $t, y: $t| {
                        if !(0..BITS).contains(&y) {
                            0
                        } else {
                            x << y
                        }
                    }),
                    B::BitwiseRightShift => f!(|x: $t, y: $t| {
                        if !(0..BITS).contains(&y) {
                            if x < 0 {
                                x >> (BITS - 1)
                            } else {
                                0
                            }
                        } else {
                            x >> y
                        }
                    }),
                    _ => unreachable!("{} is not an integer op of this file", op.name()),
                }
            }
        }
    };
}

int_kernels!(unary_i8, binary_i8, i8);
int_kernels!(unary_i16, binary_i16, i16);
int_kernels!(unary_i32, binary_i32, i32);
int_kernels!(unary_i64, binary_i64, i64);
int_kernels!(unary_u8, binary_u8, u8);
int_kernels!(unary_u16, binary_u16, u16);
int_kernels!(unary_u32, binary_u32, u32);
int_kernels!(unary_u64, binary_u64, u64);

/// Runs `op` from `src` (already in the plan's compute dtype) into `out`.
///
/// # Safety
/// As for [`map1`].
pub(crate) unsafe fn run_unary(op: UnaryOp, src: &Tensor, out: &Tensor) {
    // SAFETY: every arm is forwarded this function's contract.
    unsafe {
        match src.dtype() {
            DType::Float32 => unary_f32(op, src, out),
            DType::Float64 => unary_f64(op, src, out),
            DType::Float16 => unary_f16(op, src, out),
            DType::BFloat16 => unary_bf16(op, src, out),
            DType::Int8 => unary_i8(op, src, out),
            DType::Int16 => unary_i16(op, src, out),
            DType::Int32 => unary_i32(op, src, out),
            DType::Int64 => unary_i64(op, src, out),
            DType::UInt8 => unary_u8(op, src, out),
            DType::UInt16 => unary_u16(op, src, out),
            DType::UInt32 => unary_u32(op, src, out),
            DType::UInt64 => unary_u64(op, src, out),
            DType::Bool => match op {
                UnaryOp::IsNan | UnaryOp::IsInf => map1::<bool, bool>(src, out, |_| false),
                UnaryOp::IsFinite => map1::<bool, bool>(src, out, |_| true),
                UnaryOp::BitwiseNot | UnaryOp::LogicalNot => map1::<bool, bool>(src, out, |x| !x),
                // Rounding and sign keep booleans as they are.
                _ => map1::<bool, bool>(src, out, |x| x),
            },
        }
    }
}

/// Runs `op` with inputs of compute dtype `cd` (already broadcast to `out`'s shape).
///
/// # Safety
/// As for [`map2`] (see `elementwise::run_binary`).
pub(crate) unsafe fn run_binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: &Tensor, cd: DType) {
    // SAFETY: every arm is forwarded this function's contract.
    unsafe {
        match cd {
            DType::Float32 => binary_f32(op, a, b, out),
            DType::Float64 => binary_f64(op, a, b, out),
            DType::Float16 => binary_f16(op, a, b, out),
            DType::BFloat16 => binary_bf16(op, a, b, out),
            DType::Int8 => binary_i8(op, a, b, out),
            DType::Int16 => binary_i16(op, a, b, out),
            DType::Int32 => binary_i32(op, a, b, out),
            DType::Int64 => binary_i64(op, a, b, out),
            DType::UInt8 => binary_u8(op, a, b, out),
            DType::UInt16 => binary_u16(op, a, b, out),
            DType::UInt32 => binary_u32(op, a, b, out),
            DType::UInt64 => binary_u64(op, a, b, out),
            DType::Bool => {
                use BinaryOp as B;
                match op {
                    B::BitwiseAnd | B::LogicalAnd => {
                        map2::<bool, bool, bool>(a, b, out, |x, y| x & y)
                    }
                    B::BitwiseOr | B::LogicalOr => {
                        map2::<bool, bool, bool>(a, b, out, |x, y| x | y)
                    }
                    B::BitwiseXor | B::LogicalXor => {
                        map2::<bool, bool, bool>(a, b, out, |x, y| x ^ y)
                    }
                    _ => unreachable!("{} refuses Bool (its dtype rule)", op.name()),
                }
            }
        }
    }
}

/// An error when integer `op`'s divisor `b` (a host tensor of integer dtype) holds a zero.
pub(crate) fn check_divisor(op: BinaryOp, b: &Tensor) -> Result<()> {
    if !crate::ops::divides(op) || !b.dtype().is_integer() || b.numel() == 0 {
        return Ok(());
    }
    let zero = crate::dispatch_num!(b.dtype(), T => has_zero::<T>(b), bool => false);
    if zero {
        Err(Error::IntegerDivisionByZero { op: op.name() })
    } else {
        Ok(())
    }
}

/// Whether any element of `t` (of element type `T`) is zero.
fn has_zero<T: Element + PartialEq>(t: &Tensor) -> bool {
    let co = Coalesced::<1>::new(t.shape(), [t.strides()]);
    let [s] = co.inner_strides();
    let p = t.data_ptr().cast::<T>();
    let zero = T::from_i64(0);
    (0..co.rows()).any(|row| {
        let [o] = co.row_offsets(row);
        (0..co.inner() as isize).any(|i| {
            // SAFETY: the coalesced rows walk exactly `t`'s reachable elements (L3).
            unsafe { T::load(p.offset(o + i * s)) == zero }
        })
    })
}
