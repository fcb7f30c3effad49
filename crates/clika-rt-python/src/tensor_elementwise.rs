//! `clika_runtime.Tensor`'s elementwise methods (`t.add(other)`, `t.exp()`, ...): the method
//! forms of the module's elementwise functions, each with its docstring. A further
//! `#[pymethods]` block of the class in `tensor.rs` (pyo3's `multiple-pymethods`).

use clika_rt::ops::{BinaryOp, UnaryOp};
use pyo3::prelude::*;

use crate::tensor::PyTensor;

/// `t.name(other)`: `crt.name(t, other)` without `out=`.
macro_rules! binary_methods {
    ($($name:ident => $op:ident, $recv:literal, $other:literal, $ex:literal;)*) => {
        #[pymethods]
        impl PyTensor {$(
            #[doc = concat!("`t.", stringify!($name), "(other)`: the method form of `crt.", stringify!($name), "(t, other)`.

Parameters
----------
other : Tensor, numpy array, list or Python number
    The other operand; the shapes broadcast as in numpy, and a Python number is a weak
    scalar (it takes the tensor's dtype).

Returns
-------
Tensor
    A new tensor.

Raises
------
ShapeError
    The shapes do not broadcast.
DTypeError
    The operation does not take the operands' dtype (bitwise operations on floats), or
    `other` is read by numpy as a dtype the runtime does not support.
DivisionByZeroError
    An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

Examples
--------
>>> ", $recv, ".", stringify!($name), "(", $other, ").tolist()
", $ex)]
            fn $name(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
                self.binary(py, BinaryOp::$op, other)
            }
        )*}
    };
}

/// `t.name()`: `crt.name(t)` without `out=`.
macro_rules! unary_methods {
    ($($name:ident => $op:ident, $in:literal, $ex:literal;)*) => {
        #[pymethods]
        impl PyTensor {$(
            #[doc = concat!("`t.", stringify!($name), "()`: the method form of `crt.", stringify!($name), "(t)`, elementwise.

Returns
-------
Tensor
    A new tensor.

Raises
------
DTypeError
    The operation does not take the tensor's dtype (`bitwise_not` of a float).

Examples
--------
>>> crt.tensor(", $in, ").", stringify!($name), "().tolist()
", $ex)]
            fn $name(&self, py: Python<'_>) -> PyResult<PyTensor> {
                self.unary(py, UnaryOp::$op)
            }
        )*}
    };
}

binary_methods! {
    add => Add, "crt.tensor([1.0, 4.0])", "4.0", "[5.0, 8.0]";
    sub => Sub, "crt.tensor([1.0, 4.0])", "4.0", "[-3.0, 0.0]";
    mul => Mul, "crt.tensor([1.0, 4.0])", "4.0", "[4.0, 16.0]";
    div => Div, "crt.tensor([1.0, 4.0])", "4.0", "[0.25, 1.0]";
    pow => Pow, "crt.tensor([1.0, 4.0])", "4.0", "[1.0, 256.0]";
    maximum => Maximum, "crt.tensor([1.0, 4.0])", "4.0", "[4.0, 4.0]";
    minimum => Minimum, "crt.tensor([1.0, 4.0])", "4.0", "[1.0, 4.0]";
    eq => Eq, "crt.tensor([1.0, 4.0])", "4.0", "[False, True]";
    ne => Ne, "crt.tensor([1.0, 4.0])", "4.0", "[True, False]";
    lt => Lt, "crt.tensor([1.0, 4.0])", "4.0", "[True, False]";
    le => Le, "crt.tensor([1.0, 4.0])", "4.0", "[True, True]";
    gt => Gt, "crt.tensor([1.0, 4.0])", "4.0", "[False, False]";
    ge => Ge, "crt.tensor([1.0, 4.0])", "4.0", "[False, True]";
    atan2 => Atan2, "crt.tensor([1.0])", "crt.tensor([0.0])", "[1.5707963...]";
    hypot => Hypot, "crt.tensor([3.0])", "crt.tensor([4.0])", "[5.0]";
    fmod => Fmod, "crt.tensor([-7, 7])", "3", "[-1, 1]";
    remainder => Remainder, "crt.tensor([-7, 7])", "3", "[2, 1]";
    floor_divide => FloorDivide, "crt.tensor([-7, 7])", "2", "[-4, 3]";
    bitwise_and => BitwiseAnd, "crt.tensor([12, 10])", "6", "[4, 2]";
    bitwise_or => BitwiseOr, "crt.tensor([12, 10])", "1", "[13, 11]";
    bitwise_xor => BitwiseXor, "crt.tensor([12, 10])", "6", "[10, 12]";
    bitwise_left_shift => BitwiseLeftShift, "crt.tensor([1, 3])", "2", "[4, 12]";
    bitwise_right_shift => BitwiseRightShift, "crt.tensor([-8, 8])", "1", "[-4, 4]";
    logical_and => LogicalAnd, "crt.tensor([0, 1, 2])", "crt.tensor([1, 1, 0])", "[False, True, False]";
    logical_or => LogicalOr, "crt.tensor([0, 1, 2])", "crt.tensor([1, 1, 0])", "[True, True, True]";
    logical_xor => LogicalXor, "crt.tensor([0, 1, 2])", "crt.tensor([1, 1, 0])", "[True, False, True]";
}

unary_methods! {
    neg => Neg, "[1.0, -2.0]", "[-1.0, 2.0]";
    abs => Abs, "[-1.5, 2.0]", "[1.5, 2.0]";
    exp => Exp, "[0.0]", "[1.0]";
    log => Log, "[1.0]", "[0.0]";
    sqrt => Sqrt, "[4.0, 9.0]", "[2.0, 3.0]";
    rsqrt => Rsqrt, "[4.0]", "[0.5]";
    sin => Sin, "[0.0]", "[0.0]";
    cos => Cos, "[0.0]", "[1.0]";
    tanh => Tanh, "[0.0]", "[0.0]";
    sigmoid => Sigmoid, "[0.0]", "[0.5]";
    relu => Relu, "[-1.0, 2.0]", "[0.0, 2.0]";
    gelu => Gelu, "[0.0]", "[0.0]";
    silu => Silu, "[0.0]", "[0.0]";
    erf => Erf, "[0.0]", "[0.0]";
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
