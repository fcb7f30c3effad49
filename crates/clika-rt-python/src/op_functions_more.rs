//! The module-level functions of the newer elementwise ops (issue 14): `crt.floor`,
//! `crt.floor_divide`, `crt.bitwise_and`, `crt.round(x, decimals)`, `crt.tril`, …

use clika_rt::ops::{self, BinaryOp, UnaryOp};
use pyo3::prelude::*;

use crate::op_functions::{binary_fns, unary_fns};
use crate::ops::{binary, fn_operand, run, tensor_arg, unary, write_out, Operand};
use crate::tensor::PyTensor;

binary_fns! {
    atan2 => Atan2, "`atan2(input, other)`: the angle of the point `(other, input)`.", "crt.tensor([1.0]), crt.tensor([0.0])", "[1.5707963...]";
    hypot => Hypot, "`sqrt(input² + other²)`.", "crt.tensor([3.0]), crt.tensor([4.0])", "[5.0]";
    fmod => Fmod, "C's `fmod`: remainder with the sign of `input` (integer division by zero raises `ZeroDivisionError`).", "crt.tensor([-7, 7]), 3", "[-1, 1]";
    remainder => Remainder, "Python's `%`: remainder with the sign of `other` (integer division by zero raises `ZeroDivisionError`).", "crt.tensor([-7, 7]), 3", "[2, 1]";
    floor_divide => FloorDivide, "Python's `//` (integer division by zero raises `ZeroDivisionError`).", "crt.tensor([-7, 7]), 2", "[-4, 3]";
    bitwise_and => BitwiseAnd, "`input & other` (integers and bools).", "crt.tensor([12, 10]), 6", "[4, 2]";
    bitwise_or => BitwiseOr, "`input | other` (integers and bools).", "crt.tensor([12, 10]), 1", "[13, 11]";
    bitwise_xor => BitwiseXor, "`input ^ other` (integers and bools).", "crt.tensor([12, 10]), 6", "[10, 12]";
    bitwise_left_shift => BitwiseLeftShift, "`input << other` (integers).", "crt.tensor([1, 3]), 2", "[4, 12]";
    bitwise_right_shift => BitwiseRightShift, "`input >> other` (integers, arithmetic).", "crt.tensor([-8, 8]), 1", "[-4, 4]";
    logical_and => LogicalAnd, "`input != 0 and other != 0` as a bool tensor.", "crt.tensor([0, 1, 2]), crt.tensor([1, 1, 0])", "[False, True, False]";
    logical_or => LogicalOr, "`input != 0 or other != 0` as a bool tensor.", "crt.tensor([0, 1, 2]), crt.tensor([1, 1, 0])", "[True, True, True]";
    logical_xor => LogicalXor, "`(input != 0) != (other != 0)` as a bool tensor.", "crt.tensor([0, 1, 2]), crt.tensor([1, 1, 0])", "[True, False, True]";
}

unary_fns! {
    floor => Floor, "[-1.5, 1.5]", "[-2.0, 1.0]";
    ceil => Ceil, "[-1.5, 1.5]", "[-1.0, 2.0]";
    trunc => Trunc, "[-1.5, 1.5]", "[-1.0, 1.0]";
    sign => Sign, "[-3.0, 0.0, 2.0]", "[-1.0, 0.0, 1.0]";
    isnan => IsNan, "[1.0, float('nan')]", "[False, True]";
    isinf => IsInf, "[1.0, float('inf')]", "[False, True]";
    isfinite => IsFinite, "[1.0, float('inf')]", "[True, False]";
    log1p => Log1p, "[0.0]", "[0.0]";
    expm1 => Expm1, "[0.0]", "[0.0]";
    log2 => Log2, "[8.0]", "[3.0]";
    log10 => Log10, "[100.0]", "[2.0]";
    exp2 => Exp2, "[3.0]", "[8.0]";
    tan => Tan, "[0.0]", "[0.0]";
    atan => Atan, "[0.0]", "[0.0]";
    asin => Asin, "[0.0]", "[0.0]";
    acos => Acos, "[1.0]", "[0.0]";
    sinh => Sinh, "[0.0]", "[0.0]";
    cosh => Cosh, "[0.0]", "[1.0]";
    bitwise_not => BitwiseNot, "[0, 5]", "[-1, -6]";
    logical_not => LogicalNot, "[0, 2]", "[True, False]";
}

#[doc = include_str!("../pydoc/round.md")]
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

#[doc = include_str!("../pydoc/tril.md")]
#[pyfunction]
#[pyo3(signature = (input, diagonal=0))]
pub fn tril(py: Python<'_>, input: &Bound<'_, PyAny>, diagonal: i64) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let inner = run(py, x.numel(), || ops::tril(&x, diagonal))?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/triu.md")]
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
