//! Python ints that do not fit the dtype they would be stored in raise `OverflowError`, as
//! numpy 2 does (`np.array([300], np.uint8)`, `np.uint8(1) + 300`), instead of wrapping or
//! saturating silently.

use clika_rt::ops::{self, BinaryOp, Scalar};
use clika_rt::DType;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

/// The inclusive range of an integer dtype; `None` for float and bool dtypes.
fn bounds(dtype: DType) -> Option<(i128, i128)> {
    Some(match dtype {
        DType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        DType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        DType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        DType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        DType::UInt8 => (0, u8::MAX.into()),
        DType::UInt16 => (0, u16::MAX.into()),
        DType::UInt32 => (0, u32::MAX.into()),
        DType::UInt64 => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// `OverflowError` when the Python int `value` does not fit the integer `dtype`.
pub fn check(value: i128, dtype: DType) -> PyResult<()> {
    match bounds(dtype) {
        Some((lo, hi)) if value < lo || value > hi => Err(PyOverflowError::new_err(format!(
            "Python integer {value} out of bounds for {} (range {lo} to {hi}); use a value in \
             range or a wider dtype (an explicit conversion of an int64 tensor, \
             t.to(crt.{}), wraps as numpy's astype does)",
            dtype.short_name(),
            dtype.short_name(),
        ))),
        _ => Ok(()),
    }
}

/// Checks a weak scalar operand of `op` against the tensor dtype `t` it meets: an int that
/// stays in `t`'s integer dtype must fit it (comparisons are exempt: numpy compares
/// out-of-range ints exactly).
pub fn check_operand(op: Option<BinaryOp>, s: Scalar, t: DType) -> PyResult<()> {
    match s {
        Scalar::Int(v) if !op.is_some_and(BinaryOp::is_comparison) => {
            check(v.into(), ops::scalar_result_type(t, s))
        }
        Scalar::UInt(v) if !op.is_some_and(BinaryOp::is_comparison) => {
            check(v.into(), ops::scalar_result_type(t, s))
        }
        _ => Ok(()),
    }
}

/// For `crt.full`: a Python int fill value must fit an integer `dtype`.
pub fn check_fill(value: &Bound<'_, PyAny>, dtype: DType) -> PyResult<()> {
    if bounds(dtype).is_none() || value.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(());
    }
    match value.extract::<i128>() {
        Ok(v) => check(v, dtype),
        // Not an int (a float is truncated, as numpy's `full` does), or beyond i128.
        Err(_) if value.is_instance_of::<pyo3::types::PyInt>() => Err(PyOverflowError::new_err(
            format!("Python integer out of bounds for {}", dtype.short_name()),
        )),
        Err(_) => Ok(()),
    }
}
