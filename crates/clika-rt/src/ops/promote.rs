//! Type promotion for mixed-dtype operations, following numpy 2 (NEP 50) and PyTorch.
//!
//! - Two tensors: `Bool` < integers < floats. Among integers the wider wins; a signed and an
//!   unsigned type meet at the smallest signed type holding both (`UInt8` + `Int8` →
//!   `Int16`, `UInt32` + `Int32` → `Int64`); `UInt64` and a signed type give `Float64`
//!   (numpy). An integer and a float give the float. `Float16` + `BFloat16` → `Float32`.
//! - A tensor and a Python-style scalar: the scalar is "weak": it only matters when it is of
//!   a higher category (bool < int < float) than the tensor, and then the result is the
//!   default type of its category (`Int64` for int scalars with a `Bool` tensor, `Float32`
//!   for float scalars with an integer or bool tensor).

use crate::DType;

/// A scalar operand: its category decides promotion, not its width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// An integer above `i64::MAX` (a Python int up to 2^64 − 1); same category as `Int`.
    UInt(u64),
    /// A float.
    Float(f64),
}

impl Scalar {
    /// The value as `f64`.
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => f64::from(u8::from(b)),
            Scalar::Int(i) => i as f64,
            Scalar::UInt(u) => u as f64,
            Scalar::Float(f) => f,
        }
    }

    /// The dtype a lone scalar gets (PyTorch's defaults): `Bool`, `Int64`, `Float32`.
    pub fn default_dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::Int64,
            Scalar::UInt(_) => DType::UInt64,
            Scalar::Float(_) => DType::Float32,
        }
    }

    /// A 0-d host tensor holding the value in `dtype` (ints exactly, not through `f64`;
    /// out-of-range values wrap or saturate by the runtime's cast rules).
    pub fn to_tensor(self, dtype: DType) -> crate::Result<crate::Tensor> {
        let t = crate::Tensor::alloc(&[], dtype, crate::Device::cpu(), false)?;
        crate::dispatch_dtype!(dtype, T => {
            let v: T = match self {
                Scalar::Int(i) => crate::dtype::Element::from_i64(i),
                // Two's-complement bits: exact for `UInt64`, wrapping for other integers.
                Scalar::UInt(u) if !dtype.is_float() => {
                    crate::dtype::Element::from_i64(u as i64)
                }
                other => crate::dtype::Element::from_f64(other.to_f64()),
            };
            // SAFETY: `t` is a fresh exclusive 0-d host allocation of one `T`.
            unsafe { t.data_ptr().cast::<T>().write(v) };
        });
        Ok(t)
    }

    /// A 0-d tensor holding the value in the dtype it promotes to against a tensor of
    /// `dtype` (a weak scalar keeps the tensor's dtype unless it crosses a category).
    pub fn to_tensor_for(self, dtype: DType) -> crate::Result<crate::Tensor> {
        self.to_tensor(scalar_result_type(dtype, self))
    }

    fn category(self) -> u8 {
        match self {
            Scalar::Bool(_) => 0,
            Scalar::Int(_) | Scalar::UInt(_) => 1,
            Scalar::Float(_) => 2,
        }
    }
}

impl From<f64> for Scalar {
    fn from(v: f64) -> Self {
        Scalar::Float(v)
    }
}
impl From<f32> for Scalar {
    fn from(v: f32) -> Self {
        Scalar::Float(v.into())
    }
}
impl From<i64> for Scalar {
    fn from(v: i64) -> Self {
        Scalar::Int(v)
    }
}
impl From<i32> for Scalar {
    fn from(v: i32) -> Self {
        Scalar::Int(v.into())
    }
}
impl From<u64> for Scalar {
    fn from(v: u64) -> Self {
        i64::try_from(v).map_or(Scalar::UInt(v), Scalar::Int)
    }
}
impl From<bool> for Scalar {
    fn from(v: bool) -> Self {
        Scalar::Bool(v)
    }
}

fn category(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        d if d.is_float() => 2,
        _ => 1,
    }
}

/// The signed integer type `size` bytes wide.
fn signed_of_size(size: usize) -> DType {
    match size {
        1 => DType::Int8,
        2 => DType::Int16,
        4 => DType::Int32,
        _ => DType::Int64,
    }
}

/// Two integer types: the same signedness gives the wider; a signed and an unsigned type
/// give the smallest signed type holding both, and `UInt64` with any signed type gives
/// `Float64` (no integer type holds both; numpy's rule).
fn int_result_type(a: DType, b: DType) -> DType {
    let wider = if a.size() >= b.size() { a } else { b };
    match (a.is_unsigned(), b.is_unsigned()) {
        (ua, ub) if ua == ub => wider,
        _ => {
            let (u, s) = if a.is_unsigned() { (a, b) } else { (b, a) };
            if s.size() > u.size() {
                s
            } else if u == DType::UInt64 {
                DType::Float64
            } else {
                signed_of_size(u.size() * 2)
            }
        }
    }
}

/// The dtype two tensor operands promote to.
pub fn result_type(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    match (category(a), category(b)) {
        (ca, cb) if ca != cb => {
            if ca > cb {
                a
            } else {
                b
            }
        }
        (2, _) => match (a, b) {
            (Float64, _) | (_, Float64) => Float64,
            (Float32, _) | (_, Float32) => Float32,
            _ => Float32, // Float16 with BFloat16
        },
        _ => int_result_type(a, b),
    }
}

/// The dtype a tensor of `t` and a weak scalar promote to.
pub fn scalar_result_type(t: DType, s: Scalar) -> DType {
    match (category(t), s.category()) {
        (ct, cs) if cs <= ct => t,
        (_, 1) => DType::Int64,
        _ => DType::Float32,
    }
}

/// The dtype true division and float-only functions compute in: floats keep their type,
/// integers and bools give `Float32` (PyTorch's default float).
pub fn float_type(d: DType) -> DType {
    if d.is_float() {
        d
    } else {
        DType::Float32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn tensor_promotion_table() {
        assert_eq!(result_type(UInt8, Int8), Int16);
        assert_eq!(result_type(UInt8, Int32), Int32);
        assert_eq!(result_type(Int8, Int64), Int64);
        assert_eq!(result_type(Bool, UInt8), UInt8);
        assert_eq!(result_type(Int64, Float16), Float16);
        assert_eq!(result_type(Float16, BFloat16), Float32);
        assert_eq!(result_type(Float32, Float64), Float64);
        assert_eq!(result_type(UInt16, Int16), Int32);
        assert_eq!(result_type(UInt16, Int8), Int32);
        assert_eq!(result_type(UInt16, Int32), Int32);
        assert_eq!(result_type(UInt32, Int32), Int64);
        assert_eq!(result_type(UInt32, Int64), Int64);
        assert_eq!(result_type(UInt64, Int64), Float64);
        assert_eq!(result_type(UInt64, Int8), Float64);
        assert_eq!(result_type(UInt8, UInt32), UInt32);
        assert_eq!(result_type(UInt64, UInt16), UInt64);
        assert_eq!(result_type(Bool, UInt16), UInt16);
        assert_eq!(result_type(UInt64, Float16), Float16);
        assert_eq!(result_type(UInt32, Float32), Float32);
        for a in DType::ALL {
            for b in DType::ALL {
                assert_eq!(result_type(a, b), result_type(b, a), "{a} {b}");
            }
        }
    }

    #[test]
    fn weak_scalars() {
        assert_eq!(scalar_result_type(Int8, Scalar::Int(1000)), Int8);
        assert_eq!(scalar_result_type(Int32, Scalar::Float(0.5)), Float32);
        assert_eq!(scalar_result_type(Float16, Scalar::Float(1e10)), Float16);
        assert_eq!(scalar_result_type(Bool, Scalar::Int(2)), Int64);
        assert_eq!(scalar_result_type(Bool, Scalar::Bool(true)), Bool);
        assert_eq!(scalar_result_type(UInt64, Scalar::UInt(u64::MAX)), UInt64);
        assert_eq!(scalar_result_type(UInt16, Scalar::Int(-1)), UInt16);
        let t = Scalar::from(u64::MAX).to_tensor(UInt64).unwrap();
        assert_eq!(t.item::<u64>().unwrap(), u64::MAX);
        assert_eq!(Scalar::from(7u64), Scalar::Int(7));
    }
}
