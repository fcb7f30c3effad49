//! The module-level operations (`crt.add`, `crt.sum`, `crt.where`, …): argument
//! translation over [`crate::ops`] and the core.

use clika_rt::ops::{self, BinaryOp, ReduceOp, UnaryOp};
use clika_rt::{ErrorKind, Tensor};
use pyo3::prelude::*;

use crate::error::raise;
use crate::ops::{
    binary, clamp, fn_operand, matmul, reduce, reduce_over, run, softmax, tensor_arg, tensor_list,
    unary, write_out, Operand,
};
use crate::tensor::PyTensor;

macro_rules! binary_fns {
    ($($name:ident => $op:ident, $doc:literal, $args:literal, $ex:literal;)*) => {$(
        #[doc = concat!($doc, "

Parameters
----------
input, other : Tensor, numpy array, list or Python number
    The operands; their shapes broadcast as in numpy. A Python number is a weak scalar:
    it takes the other operand's dtype. Anything else is copied as `crt.tensor` would.
out : Tensor, optional
    A tensor of the result's shape to write the result into.

Returns
-------
Tensor
    The result (`out` itself when given).

Raises
------
ShapeError
    The shapes do not broadcast, or `out` has another shape than the result.
ReadOnlyError
    `out` is read-only.
DTypeError
    The operation does not take the operands' dtype (bitwise operations on floats), or
    an operand is not a tensor or a Python number and numpy reads it as a dtype the
    runtime does not support.
DivisionByZeroError
    An integer division or remainder (`div`, `floor_divide`, `fmod`, `remainder`) by zero.

Examples
--------
>>> crt.", stringify!($name), "(", $args, ").tolist()
", $ex)]
        #[pyfunction]
        #[pyo3(signature = (input, other, *, out=None))]
        pub fn $name<'py>(
            py: Python<'py>,
            input: &Bound<'py, PyAny>,
            other: &Bound<'py, PyAny>,
            out: Option<Bound<'py, PyTensor>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let (a, b) = (fn_operand(input)?, fn_operand(other)?);
            // Tensor operands and an `out` of the result's shape: written in place, no
            // intermediate result. Anything else computes, then converts into `out`.
            if let (Some(o), Operand::Tensor(x), Operand::Tensor(y)) = (&out, &a, &b) {
                let t = &o.get().inner;
                let fits = ops::broadcast_shapes(x.shape(), y.shape())
                    .is_ok_and(|s| s.as_slice() == t.shape());
                if fits {
                // SAFETY: as for `binary_inplace`: the numpy/PyTorch contract for `out=`.
                    run(py, t.numel(), || unsafe {
                        ops::binary_into_shared(BinaryOp::$op, x, y, t)
                    })?;
                    return Ok(o.clone().into_any());
                }
            }
            let r = binary(py, BinaryOp::$op, &a, &b)?;
            write_out(py, r, out)
        }
    )*};
}

binary_fns! {
    add => Add, "`input + other` (broadcasting; Python numbers are weak scalars).", "crt.tensor([1.0, 4.0]), 4.0", "[5.0, 8.0]";
    sub => Sub, "`input - other`.", "crt.tensor([1.0, 4.0]), 4.0", "[-3.0, 0.0]";
    mul => Mul, "`input * other`.", "crt.tensor([1.0, 4.0]), 4.0", "[4.0, 16.0]";
    div => Div, "`input / other` (true division: integers divide as float32).", "crt.tensor([1.0, 4.0]), 4.0", "[0.25, 1.0]";
    pow => Pow, "`input ** other`.", "crt.tensor([1.0, 4.0]), 4.0", "[1.0, 256.0]";
    maximum => Maximum, "Elementwise maximum (NaN-propagating).", "crt.tensor([1.0, 4.0]), 4.0", "[4.0, 4.0]";
    minimum => Minimum, "Elementwise minimum (NaN-propagating).", "crt.tensor([1.0, 4.0]), 4.0", "[1.0, 4.0]";
    eq => Eq, "`input == other` as a bool tensor.", "crt.tensor([1.0, 4.0]), 4.0", "[False, True]";
    ne => Ne, "`input != other` as a bool tensor.", "crt.tensor([1.0, 4.0]), 4.0", "[True, False]";
    lt => Lt, "`input < other` as a bool tensor.", "crt.tensor([1.0, 4.0]), 4.0", "[True, False]";
    le => Le, "`input <= other` as a bool tensor.", "crt.tensor([1.0, 4.0]), 4.0", "[True, True]";
    gt => Gt, "`input > other` as a bool tensor.", "crt.tensor([1.0, 4.0]), 4.0", "[False, False]";
    ge => Ge, "`input >= other` as a bool tensor.", "crt.tensor([1.0, 4.0]), 4.0", "[False, True]";
}

macro_rules! unary_fns {
    ($($name:ident => $op:ident, $in:literal, $ex:literal;)*) => {$(
        #[doc = concat!("`", stringify!($name), "(input)` elementwise.

Parameters
----------
input : Tensor, numpy array, list or Python number
    The operand; anything but a tensor is copied as `crt.tensor` would.
out : Tensor, optional
    A tensor of `input`'s shape to write the result into.

Returns
-------
Tensor
    The result (`out` itself when given).

Raises
------
ShapeError
    `out` has another shape than the result.
ReadOnlyError
    `out` is read-only.
DTypeError
    The operation does not take `input`'s dtype (`bitwise_not` of a float), or `input`
    is not a tensor and numpy reads it as a dtype the runtime does not support.

Examples
--------
>>> crt.", stringify!($name), "(crt.tensor(", $in, ")).tolist()
", $ex)]
        #[pyfunction]
        #[pyo3(signature = (input, *, out=None))]
        pub fn $name<'py>(
            py: Python<'py>,
            input: &Bound<'py, PyAny>,
            out: Option<Bound<'py, PyTensor>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let x = tensor_arg(input)?;
            if let Some(o) = out.as_ref().filter(|o| o.get().inner.shape() == x.shape()) {
                let t = &o.get().inner;
                // SAFETY: as for `binary_inplace`: the numpy/PyTorch contract for `out=`.
                run(py, t.numel(), || unsafe { ops::unary_into_shared(UnaryOp::$op, &x, t) })?;
                return Ok(o.clone().into_any());
            }
            write_out(py, unary(py, UnaryOp::$op, &x)?, out)
        }
    )*};
}

unary_fns! {
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
}

macro_rules! reduce_fns {
    ($($name:ident => $kind:ident, $ex:literal;)*) => {$(
        #[doc = concat!("`", stringify!($name), "` over all elements, or over `dim` (an int or a tuple of ints).

Parameters
----------
input : Tensor, numpy array, list or Python number
    The operand; anything but a tensor is copied as `crt.tensor` would.
dim : int or tuple of ints, optional
    The dimensions to reduce (negative values count from the end); all by default.
keepdim : bool, optional
    Keep the reduced dimensions with size 1 (False by default).
dtype : dtype, keyword-only, optional
    Convert the input to this dtype first (PyTorch's and numpy's `dtype=`).
out : Tensor, keyword-only, optional
    Write the result here (its shape must be the result's; values convert to its dtype)
    and return it.

Returns
-------
Tensor
    The reduction (a 0-d tensor when every dimension is reduced without `keepdim`), or
    `out`.

Raises
------
IndexOutOfRangeError
    A dimension is out of range.
DTypeError
    `input` is not a tensor, and numpy reads it as a dtype the runtime does not support.

Examples
--------
>>> crt.", stringify!($name), "(crt.tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1).tolist()
", $ex)]
        #[pyfunction]
        #[pyo3(signature = (input, dim=None, keepdim=false, *, dtype=None, out=None))]
        pub fn $name<'py>(
            py: Python<'py>,
            input: &Bound<'py, PyAny>,
            dim: Option<&Bound<'py, PyAny>>,
            keepdim: bool,
            dtype: Option<&Bound<'py, PyAny>>,
            out: Option<Bound<'py, PyTensor>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let a = crate::ops::ReduceArgs {
                dim,
                keepdim: Some(keepdim),
                axis: None,
                keepdims: None,
                dtype,
                out,
            };
            crate::ops::reduce_call(py, ReduceOp::$kind, &tensor_arg(input)?, a)
        }
    )*};
}

reduce_fns! {
    sum => Sum, "[3.0, 7.0]";
    mean => Mean, "[1.5, 3.5]";
    prod => Prod, "[2.0, 12.0]";
}

macro_rules! extreme_fns {
    ($($name:ident => $kind:ident, $dim_fn:ident, $doc:expr;)*) => {$(
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (input, dim=None, keepdim=false, *, out=None))]
        pub fn $name<'py>(
            py: Python<'py>,
            input: &Bound<'py, PyAny>,
            dim: Option<&Bound<'py, PyAny>>,
            keepdim: bool,
            out: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let t = tensor_arg(input)?;
            let out = out.filter(|o| !o.is_none());
            if let Some(d) = crate::algorithms::single_dim(dim, None, None, None, &None) {
                let r = run(py, t.numel(), || ops::$dim_fn(&t, d, keepdim))?;
                return match out {
                    Some(o) => crate::algorithms::pair_into(py, stringify!($name), r, o),
                    None => Ok(Bound::new(py, crate::algorithms::pair(py, r)?)?.into_any()),
                };
            }
            let out = out.map(|o| o.cast::<PyTensor>().cloned()).transpose().map_err(|_| {
                raise(
                    ErrorKind::InvalidArgument,
                    concat!(stringify!($name), " over all elements or a tuple of dims takes one tensor as out=; a (values, indices) pair goes with one int dim"),
                )
            })?;
            let inner = reduce(py, ReduceOp::$kind, &t, dim, keepdim)?;
            write_out(py, inner, out)
        }
    )*};
}

extreme_fns! {
    max => Max, max_dim, include_str!("../pydoc/max.md");
    min => Min, min_dim, include_str!("../pydoc/min.md");
}

#[doc = include_str!("../pydoc/argmax.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn argmax(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<isize>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    let dims = dim.map(|d| vec![d]);
    let inner = reduce_over(py, ReduceOp::ArgMax, &tensor_arg(input)?, dims, keepdim)?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/argmin.md")]
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn argmin(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<isize>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    let dims = dim.map(|d| vec![d]);
    let inner = reduce_over(py, ReduceOp::ArgMin, &tensor_arg(input)?, dims, keepdim)?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/var.md")]
#[pyfunction(name = "var")]
#[pyo3(signature = (input, dim=None, *, correction=1, keepdim=false, out=None))]
pub fn var_fn<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    dim: Option<&Bound<'py, PyAny>>,
    correction: usize,
    keepdim: bool,
    out: Option<Bound<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyAny>> {
    let op = ReduceOp::Var { correction };
    let inner = reduce(py, op, &tensor_arg(input)?, dim, keepdim)?;
    write_out(py, inner, out)
}

#[doc = include_str!("../pydoc/std.md")]
#[pyfunction(name = "std")]
#[pyo3(signature = (input, dim=None, *, correction=1, keepdim=false, out=None))]
pub fn std_fn<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    dim: Option<&Bound<'py, PyAny>>,
    correction: usize,
    keepdim: bool,
    out: Option<Bound<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyAny>> {
    let op = ReduceOp::Std { correction };
    let inner = reduce(py, op, &tensor_arg(input)?, dim, keepdim)?;
    write_out(py, inner, out)
}

#[doc = include_str!("../pydoc/softmax.md")]
#[pyfunction(name = "softmax")]
pub fn softmax_fn(py: Python<'_>, input: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let inner = softmax(py, false, &tensor_arg(input)?, dim)?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/log_softmax.md")]
#[pyfunction]
pub fn log_softmax(py: Python<'_>, input: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let inner = softmax(py, true, &tensor_arg(input)?, dim)?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/matmul.md")]
#[pyfunction(name = "matmul")]
#[pyo3(signature = (input, other, *, out=None))]
pub fn matmul_fn<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    other: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (tensor_arg(input)?, tensor_arg(other)?);
    let Some(o) = out else {
        return PyTensor::wrap(py, matmul(py, &a, &b)?).map(Bound::into_any);
    };
    let t = &o.get().inner;
    // SAFETY: as for `binary_inplace`: the numpy/PyTorch contract for `out=`.
    run(py, a.numel().max(b.numel()), || unsafe {
        ops::matmul_into_shared(&a, &b, t)
    })?;
    Ok(o.into_any())
}

#[doc = include_str!("../pydoc/where.md")]
#[pyfunction(name = "where")]
pub fn where_(
    py: Python<'_>,
    condition: &Bound<'_, PyAny>,
    input: &Bound<'_, PyAny>,
    other: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let c = tensor_arg(condition)?;
    let (a, b) = (fn_operand(input)?, fn_operand(other)?);
    let work = c.numel().max(a.numel()).max(b.numel());
    let inner = run(py, work, || ops::where_operands(&c, a, b))?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/clamp.md")]
#[pyfunction(name = "clamp")]
#[pyo3(signature = (input, min=None, max=None, *, out=None))]
pub fn clamp_fn<'py>(
    py: Python<'py>,
    input: &Bound<'py, PyAny>,
    min: Option<&Bound<'py, PyAny>>,
    max: Option<&Bound<'py, PyAny>>,
    out: Option<Bound<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = clamp(py, &tensor_arg(input)?, min, max)?;
    write_out(py, r, out)
}

#[doc = include_str!("../pydoc/cat.md")]
#[pyfunction]
#[pyo3(signature = (tensors, dim=0))]
pub fn cat(py: Python<'_>, tensors: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let ts = tensor_list(tensors)?;
    let work = ts.iter().map(Tensor::numel).sum();
    let inner = run(py, work, || ops::cat(&ts, dim))?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/stack.md")]
#[pyfunction]
#[pyo3(signature = (tensors, dim=0))]
pub fn stack(py: Python<'_>, tensors: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let ts = tensor_list(tensors)?;
    let work = ts.iter().map(Tensor::numel).sum();
    let inner = run(py, work, || ops::stack(&ts, dim))?;
    Ok(PyTensor { inner })
}

/// Adds every function above to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(add, sub, mul, div, pow, maximum, minimum, eq, ne, lt, le, gt, ge);
    add!(neg, abs, exp, log, sqrt, rsqrt, sin, cos, tanh, sigmoid, relu, gelu, silu, erf);
    add!(
        sum,
        mean,
        prod,
        max,
        min,
        argmax,
        argmin,
        var_fn,
        std_fn,
        softmax_fn,
        log_softmax
    );
    add!(matmul_fn, where_, clamp_fn, cat, stack);
    crate::op_functions_more::register(m)
}

pub(crate) use {binary_fns, unary_fns};
