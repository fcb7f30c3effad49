//! The module-level functions of the newer elementwise ops (issue 14): `crt.floor`,
//! `crt.floor_divide`, `crt.bitwise_and`, `crt.round(x, decimals)`, `crt.tril`, …

use clika_rt::ops::{self, BinaryOp, UnaryOp};
use pyo3::prelude::*;

use crate::op_functions::{binary_fns, unary_fns};
use crate::ops::{binary, fn_operand, run, tensor_arg, unary, write_out, Operand};
use crate::tensor::PyTensor;

binary_fns! {
    atan2 => Atan2, "`atan2(input, other)`: the angle of the point `(other, input)`.";
    hypot => Hypot, "`sqrt(input² + other²)`.";
    fmod => Fmod, "C's `fmod`: remainder with the sign of `input` (integer division by zero raises `ZeroDivisionError`).";
    remainder => Remainder, "Python's `%`: remainder with the sign of `other` (integer division by zero raises `ZeroDivisionError`).";
    floor_divide => FloorDivide, "Python's `//` (integer division by zero raises `ZeroDivisionError`).";
    bitwise_and => BitwiseAnd, "`input & other` (integers and bools).";
    bitwise_or => BitwiseOr, "`input | other` (integers and bools).";
    bitwise_xor => BitwiseXor, "`input ^ other` (integers and bools).";
    bitwise_left_shift => BitwiseLeftShift, "`input << other` (integers).";
    bitwise_right_shift => BitwiseRightShift, "`input >> other` (integers, arithmetic).";
    logical_and => LogicalAnd, "`input != 0 and other != 0` as a bool tensor.";
    logical_or => LogicalOr, "`input != 0 or other != 0` as a bool tensor.";
    logical_xor => LogicalXor, "`(input != 0) != (other != 0)` as a bool tensor.";
}

unary_fns! {
    floor => Floor;
    ceil => Ceil;
    trunc => Trunc;
    sign => Sign;
    isnan => IsNan;
    isinf => IsInf;
    isfinite => IsFinite;
    log1p => Log1p;
    expm1 => Expm1;
    log2 => Log2;
    log10 => Log10;
    exp2 => Exp2;
    tan => Tan;
    atan => Atan;
    asin => Asin;
    acos => Acos;
    sinh => Sinh;
    cosh => Cosh;
    bitwise_not => BitwiseNot;
    logical_not => LogicalNot;
}

/// Rounds to `decimals` decimal places, halves to even (numpy's `round`, PyTorch's `round`).
#[pyfunction]
#[pyo3(signature = (input, decimals=0, *, out=None))]
pub fn round<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    decimals: i32,
    out: Option<Bound<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = tensor_arg(input)?;
    let r = run(py, x.numel(), || ops::round_decimals(&x, decimals))?;
    write_out(py, r, out)
}

/// The lower triangle of the last two dims (`col - row <= diagonal` kept, the rest zero).
#[pyfunction]
#[pyo3(signature = (input, diagonal=0))]
pub fn tril(py: Python<'_>, input: &Bound<'_, PyAny>, diagonal: i64) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let inner = run(py, x.numel(), || ops::tril(&x, diagonal))?;
    Ok(PyTensor { inner })
}

/// The upper triangle of the last two dims (`col - row >= diagonal` kept, the rest zero).
#[pyfunction]
#[pyo3(signature = (input, diagonal=0))]
pub fn triu(py: Python<'_>, input: &Bound<'_, PyAny>, diagonal: i64) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let inner = run(py, x.numel(), || ops::triu(&x, diagonal))?;
    Ok(PyTensor { inner })
}

/// Adds every function above to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(
        atan2,
        hypot,
        fmod,
        remainder,
        floor_divide,
        bitwise_and,
        bitwise_or,
        bitwise_xor,
        bitwise_left_shift,
        bitwise_right_shift,
        logical_and,
        logical_or,
        logical_xor
    );
    add!(
        floor,
        ceil,
        trunc,
        sign,
        isnan,
        isinf,
        isfinite,
        log1p,
        expm1,
        log2,
        log10,
        exp2,
        tan,
        atan,
        asin,
        acos,
        sinh,
        cosh,
        bitwise_not,
        logical_not
    );
    add!(round, tril, triu);
    Ok(())
}
