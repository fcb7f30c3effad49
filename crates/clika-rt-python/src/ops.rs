//! Operations from Python: operand translation (tensors, weak Python scalars, numpy arrays),
//! the elementwise / reduction / matmul calls (GIL released), buffer reuse for temporaries,
//! in-place writes, `out=`, and the module-level functions (`crt.add`, `crt.sum`, …).
//!
//! Python `bool`/`int`/`float` operands are *weak* scalars (numpy 2 / PyTorch promotion:
//! `float32_tensor * 2.5` stays float32); numpy arrays and numpy scalars are strong and are
//! copied into a tensor first (`crt.tensor`).

use ::std::borrow::Cow;
use ::std::sync::OnceLock;

use clika_rt::ops::{self, BinaryOp, Scalar, UnaryOp};
use clika_rt::{DType, ErrorKind, Tensor};
use numpy::PyUntypedArray;
use pyo3::basic::CompareOp;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyInt, PyType};

use crate::args;
use crate::error::{raise, IntoPyResult};
use crate::numpy_import;
use crate::tensor::PyTensor;

/// Below this many elements the GIL stays held: releasing and re-taking it costs more than
/// the work, and nothing could run meanwhile (numpy's `NPY_BEGIN_THREADS_THRESHOLDED` rule).
const DETACH_MIN_ELEMENTS: usize = 1 << 13;

/// Runs `f` (the core call), releasing the GIL when `work` elements make it worthwhile.
pub fn run<T: Send>(
    py: Python<'_>,
    work: usize,
    f: impl FnOnce() -> clika_rt::Result<T> + Send,
) -> PyResult<T> {
    if work >= DETACH_MIN_ELEMENTS {
        py.detach(f).py()
    } else {
        f().py()
    }
}

/// An operand of an elementwise operation.
pub enum Operand<'a> {
    /// A tensor: a `crt.Tensor`'s own (borrowed, not even an `Arc` clone on the hot path),
    /// or a numpy array / numpy scalar copied into one.
    T(Cow<'a, Tensor>),
    /// A weak Python scalar.
    S(Scalar),
}

impl Operand<'_> {
    fn numel(&self) -> usize {
        match self {
            Operand::T(t) => t.numel(),
            Operand::S(_) => 1,
        }
    }
}

fn numpy_generic(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static GENERIC: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    GENERIC.import(py, "numpy", "generic")
}

/// A weak scalar for a Python `bool`, `int` or `float` (subclasses too, except numpy's
/// scalar types, which are strong), else `None`.
fn python_scalar(obj: &Bound<'_, PyAny>) -> PyResult<Option<Scalar>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(Some(Scalar::Bool(obj.extract()?)));
    }
    if obj.is_exact_instance_of::<PyFloat>() {
        return Ok(Some(Scalar::Float(obj.extract()?)));
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(Some(Scalar::Int(int_value(obj)?)));
    }
    if obj.is_instance(numpy_generic(obj.py())?)? {
        return Ok(None);
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Some(Scalar::Float(obj.extract()?)));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(Scalar::Int(int_value(obj)?)));
    }
    Ok(None)
}

fn int_value(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    obj.extract().map_err(|_| {
        raise(
            ErrorKind::InvalidArgument,
            "a Python int operand must fit in int64; pass a float, or a numpy array of a wider type",
        )
    })
}

/// Translates an operand; `None` for a type no operation takes (operators then return
/// `NotImplemented`, so Python can try the other operand).
pub fn operand<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Option<Operand<'a>>> {
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Ok(Some(Operand::T(Cow::Borrowed(&t.get().inner))));
    }
    if let Some(s) = python_scalar(obj)? {
        return Ok(Some(Operand::S(s)));
    }
    if obj.is_instance_of::<PyUntypedArray>() || obj.is_instance(numpy_generic(obj.py())?)? {
        return Ok(Some(Operand::T(Cow::Owned(
            numpy_import::copy_from_python(obj)?,
        ))));
    }
    Ok(None)
}

/// An operand of a function (`crt.add(x, y)`): anything `operand` takes, and whatever
/// `crt.tensor` can copy (nested lists).
pub fn fn_operand<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Operand<'a>> {
    match operand(obj)? {
        Some(o) => Ok(o),
        None => Ok(Operand::T(Cow::Owned(numpy_import::copy_from_python(obj)?))),
    }
}

/// A tensor argument: a `crt.Tensor` as is, anything else copied with `crt.tensor`'s rules
/// (a Python scalar gives a 0-d tensor of its default dtype).
pub fn tensor_arg(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    match fn_operand(obj)? {
        Operand::T(t) => Ok(t.into_owned()),
        Operand::S(s) => scalar_tensor(s, default_dtype(s)).py(),
    }
}

/// The dtype a lone Python scalar gets (PyTorch's defaults).
fn default_dtype(s: Scalar) -> DType {
    match s {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::Int64,
        Scalar::Float(_) => DType::Float32,
    }
}

/// A 0-d tensor holding `s` in `dtype` (ints exactly, not through `f64`).
fn scalar_tensor(s: Scalar, dtype: DType) -> clika_rt::Result<Tensor> {
    match s {
        Scalar::Int(i) => Tensor::from_vec(vec![i], &[])?.to_dtype(dtype),
        s => Tensor::full(&[], s.to_f64(), dtype),
    }
}

/// The operand as a tensor to combine with `t` (a weak scalar takes the dtype it promotes
/// to against `t`).
fn as_tensor_for(o: Operand<'_>, t: &Tensor) -> clika_rt::Result<Tensor> {
    match o {
        Operand::T(x) => Ok(x.into_owned()),
        Operand::S(s) => scalar_tensor(s, ops::scalar_result_type(t.dtype(), s)),
    }
}

/// `op(a, b)` into a fresh tensor.
pub fn binary(py: Python<'_>, op: BinaryOp, a: Operand<'_>, b: Operand<'_>) -> PyResult<Tensor> {
    let work = a.numel().max(b.numel());
    if let (Operand::T(t), Operand::S(s)) | (Operand::S(s), Operand::T(t)) = (&a, &b) {
        crate::int_range::check_operand(Some(op), *s, t.dtype())?;
    }
    match (a, b) {
        (Operand::T(a), Operand::T(b)) => run(py, work, || ops::binary(op, &a, &b)),
        (Operand::T(a), Operand::S(s)) => run(py, work, || ops::binary_scalar(op, &a, s)),
        (Operand::S(s), Operand::T(b)) => run(py, work, || ops::scalar_binary(op, s, &b)),
        (Operand::S(a), Operand::S(b)) => {
            let a = scalar_tensor(a, default_dtype(a)).py()?;
            ops::binary_scalar(op, &a, b).py()
        }
    }
}

/// Whether CPython may hand an operator a *borrowed* reference to a live local variable
/// (3.14's `LOAD_FAST_BORROW`), so that a reference count of 1 no longer proves the operand
/// is a temporary.
fn interpreter_borrows_locals(py: Python<'_>) -> bool {
    static BORROWS: OnceLock<bool> = OnceLock::new();
    *BORROWS.get_or_init(|| py.version_info() >= (3, 14))
}

/// Whether the tensor object is a temporary only the interpreter's value stack holds (the
/// `a + b` in `a + b + c`): nothing else can see it after this operation.
fn is_temporary(slf: &Bound<'_, PyTensor>) -> bool {
    // SAFETY: `slf` is a live object and the GIL is held.
    let refs = unsafe { ffi::Py_REFCNT(slf.as_ptr()) };
    refs == 1 && !interpreter_borrows_locals(slf.py())
}

/// Writes `op(lhs, other)` into `lhs`'s own memory when `lhs` is a temporary whose
/// runtime-owned, exclusive, contiguous buffer already has the result's shape and dtype
/// (buffer reuse: `a + b + c` allocates once). Returns whether it did.
fn try_reuse(py: Python<'_>, op: BinaryOp, lhs: &Bound<'_, PyTensor>, other: &Tensor) -> bool {
    let t = &lhs.get().inner;
    let fits = is_temporary(lhs)
        && t.is_contiguous()
        && t.is_exclusive()
        && t.owner_kind().runtime_may_reuse()
        && !other.storage().same_as(t.storage())
        && op.dtypes(t.dtype(), other.dtype()).ok() == Some((t.dtype(), t.dtype()))
        && ops::broadcast_shapes(t.shape(), other.shape()).is_ok_and(|s| s.as_slice() == t.shape());
    if !fits {
        return false;
    }
    // SAFETY: the tensor object has no other reference and its storage no other tensor, so
    // nothing else can read or write this memory during the call.
    run(py, t.numel(), || unsafe { t.binary_shared(op, other) }).is_ok()
}

/// `slf op other` for the operators: `NotImplemented` for an operand type no operation takes.
pub fn operator<'py>(
    slf: &Bound<'py, PyTensor>,
    other: &Bound<'py, PyAny>,
    op: BinaryOp,
    reflected: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let Some(o) = operand(other)? else {
        return Ok(py.NotImplemented().into_bound(py));
    };
    let t = &slf.get().inner;
    let out = if reflected {
        binary(py, op, o, Operand::T(Cow::Borrowed(t)))?
    } else {
        if let Operand::T(x) = &o {
            if try_reuse(py, op, slf, x) {
                return Ok(slf.clone().into_any());
            }
        } else if let Operand::S(s) = o {
            crate::int_range::check_operand(Some(op), s, t.dtype())?;
            let fits_dtype = ops::scalar_result_type(t.dtype(), s) == t.dtype();
            if fits_dtype && is_temporary(slf) {
                let x = scalar_tensor(s, t.dtype()).py()?;
                if try_reuse(py, op, slf, &x) {
                    return Ok(slf.clone().into_any());
                }
            }
        }
        binary(py, op, Operand::T(Cow::Borrowed(t)), o)?
    };
    PyTensor::wrap(py, out).map(Bound::into_any)
}

/// The `BinaryOp` for a rich comparison.
pub fn compare_op(op: CompareOp) -> BinaryOp {
    match op {
        CompareOp::Eq => BinaryOp::Eq,
        CompareOp::Ne => BinaryOp::Ne,
        CompareOp::Lt => BinaryOp::Lt,
        CompareOp::Le => BinaryOp::Le,
        CompareOp::Gt => BinaryOp::Gt,
        CompareOp::Ge => BinaryOp::Ge,
    }
}

/// `t op= other` in place: writes through `t`'s memory, which other views may share (the
/// numpy / PyTorch contract: a concurrent writer from another thread races).
pub fn binary_inplace(
    py: Python<'_>,
    t: &Tensor,
    op: BinaryOp,
    other: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let o = fn_operand(other)?;
    if let Operand::S(s) = &o {
        crate::int_range::check_operand(Some(op), *s, t.dtype())?;
    }
    let o = as_tensor_for(o, t).py()?;
    // SAFETY: the same contract as numpy's in-place operators: the caller's Python program
    // must not write these elements from another thread during the call.
    run(py, t.numel(), || unsafe { t.binary_shared(op, &o) })
}

/// `t.fill_(value)`.
pub fn fill_inplace(py: Python<'_>, t: &Tensor, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let v = match fn_operand(value)? {
        Operand::S(s) => s,
        Operand::T(_) => {
            return Err(raise(
                ErrorKind::InvalidArgument,
                "fill_ takes a Python number; to write a tensor's values use t.copy_(src)",
            ))
        }
    };
    crate::int_range::check_operand(None, v, t.dtype())?;
    let v = scalar_tensor(v, t.dtype()).py()?;
    // SAFETY: as for `binary_inplace`.
    run(py, t.numel(), || unsafe { t.copy_shared(&v) })
}

/// `t.copy_(src)`: `src` broadcast to `t`'s shape and converted to its dtype.
pub fn copy_inplace(py: Python<'_>, t: &Tensor, src: &Bound<'_, PyAny>) -> PyResult<()> {
    let s = fn_operand(src)?;
    if let Operand::S(v) = &s {
        crate::int_range::check_operand(None, *v, t.dtype())?;
    }
    let s = as_tensor_for(s, t).py()?;
    // SAFETY: as for `binary_inplace`.
    run(py, t.numel(), || unsafe { t.copy_shared(&s) })
}

/// Writes `result` into `out` (`out=`): the shapes must match; the values convert to
/// `out`'s dtype. Returns `out` itself.
fn write_out<'py>(
    py: Python<'py>,
    result: Tensor,
    out: Option<Bound<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyAny>> {
    let Some(out) = out else {
        return PyTensor::wrap(py, result).map(Bound::into_any);
    };
    let o = &out.get().inner;
    if o.shape() != result.shape() {
        return Err(raise(
            ErrorKind::InvalidShape,
            format!(
                "out= has shape {:?} but the result has shape {:?}; pass an out tensor of the result's shape, e.g. crt.empty({:?}, dtype=...)",
                o.shape(),
                result.shape(),
                result.shape()
            ),
        ));
    }
    // SAFETY: as for `binary_inplace`; `copy_shared` reads a source overlapping `out` in full
    // before writing.
    run(py, o.numel(), || unsafe { o.copy_shared(&result) })?;
    Ok(out.into_any())
}

/// `op(t)`.
pub fn unary(py: Python<'_>, op: UnaryOp, t: &Tensor) -> PyResult<Tensor> {
    run(py, t.numel(), || ops::unary(op, t))
}

/// Which reduction.
#[derive(Clone, Copy)]
pub enum Reduce {
    /// `sum`.
    Sum,
    /// `mean`.
    Mean,
    /// `prod`.
    Prod,
    /// `max` (values only, like numpy's `max` / PyTorch's `amax`).
    Max,
    /// `min` (values only).
    Min,
}

/// A reduction over all elements (`dim=None`) or over `dim` (an int or a tuple of ints).
pub fn reduce(
    py: Python<'_>,
    kind: Reduce,
    t: &Tensor,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<Tensor> {
    let dims = args::dims(dim)?;
    if dims.is_none() && !keepdim {
        let f = match kind {
            Reduce::Sum => ops::sum,
            Reduce::Mean => ops::mean,
            Reduce::Prod => ops::prod,
            Reduce::Max => ops::max,
            Reduce::Min => ops::min,
        };
        return run(py, t.numel(), || f(t));
    }
    let dims = dims.unwrap_or_else(|| (0..t.ndim() as isize).collect());
    let f = match kind {
        Reduce::Sum => ops::sum_dims,
        Reduce::Mean => ops::mean_dims,
        Reduce::Prod => ops::prod_dims,
        Reduce::Max => ops::max_dims,
        Reduce::Min => ops::min_dims,
    };
    run(py, t.numel(), || f(t, &dims, keepdim))
}

/// `argmax` / `argmin`: over the flattened tensor (`dim=None`) or along one `dim`.
pub fn arg_reduce(
    py: Python<'_>,
    max: bool,
    t: &Tensor,
    dim: Option<isize>,
    keepdim: bool,
) -> PyResult<Tensor> {
    run(py, t.numel(), || match (dim, max) {
        (None, true) => ops::argmax(t),
        (None, false) => ops::argmin(t),
        (Some(d), true) => ops::argmax_dim(t, d, keepdim),
        (Some(d), false) => ops::argmin_dim(t, d, keepdim),
    })
}

/// `var` / `std` with PyTorch's `correction` (1: unbiased, the default).
pub fn var_std(
    py: Python<'_>,
    std: bool,
    t: &Tensor,
    dim: Option<&Bound<'_, PyAny>>,
    correction: usize,
    keepdim: bool,
) -> PyResult<Tensor> {
    let dims = args::dims(dim)?.unwrap_or_else(|| (0..t.ndim() as isize).collect());
    run(py, t.numel(), || match std {
        true => ops::std_dims(t, &dims, correction, keepdim),
        false => ops::var_dims(t, &dims, correction, keepdim),
    })
}

/// `softmax` / `log_softmax` along `dim`.
pub fn softmax(py: Python<'_>, log: bool, t: &Tensor, dim: isize) -> PyResult<Tensor> {
    run(py, t.numel(), || match log {
        true => ops::log_softmax(t, dim),
        false => ops::softmax(t, dim),
    })
}

/// `a @ b` with numpy's `matmul` semantics.
pub fn matmul(py: Python<'_>, a: &Tensor, b: &Tensor) -> PyResult<Tensor> {
    run(py, a.numel().max(b.numel()), || ops::matmul(a, b))
}

/// A clamp bound: a Python number (weak) or a tensor (elementwise, broadcast).
enum Limit {
    S(Scalar),
    T(Tensor),
}

fn bound_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Limit>> {
    match obj.filter(|o| !o.is_none()) {
        None => Ok(None),
        Some(o) => Ok(Some(match fn_operand(o)? {
            Operand::S(s) => Limit::S(s),
            Operand::T(t) => Limit::T(t.into_owned()),
        })),
    }
}

/// `clamp(t, min, max)`; either bound may be a number or a tensor.
pub fn clamp(
    py: Python<'_>,
    t: &Tensor,
    min: Option<&Bound<'_, PyAny>>,
    max: Option<&Bound<'_, PyAny>>,
) -> PyResult<Tensor> {
    let (lo, hi) = (bound_arg(min)?, bound_arg(max)?);
    run(py, t.numel(), || {
        let scalar = |b: &Option<Limit>| match b {
            Some(Limit::S(s)) => Some(*s),
            _ => None,
        };
        let mut r = ops::clamp(t, scalar(&lo), scalar(&hi))?;
        if let Some(Limit::T(m)) = &lo {
            r = ops::maximum(&r, m)?;
        }
        if let Some(Limit::T(m)) = &hi {
            r = ops::minimum(&r, m)?;
        }
        Ok(r)
    })
}

fn tensor_list(tensors: &Bound<'_, PyAny>) -> PyResult<Vec<Tensor>> {
    tensors.try_iter()?.map(|o| tensor_arg(&o?)).collect()
}

// ---- module-level functions ---------------------------------------------------------------

macro_rules! binary_fns {
    ($($name:ident => $op:ident, $doc:literal;)*) => {$(
        #[doc = $doc]
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
            if let (Some(o), Operand::T(x), Operand::T(y)) = (&out, &a, &b) {
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
            let r = binary(py, BinaryOp::$op, a, b)?;
            write_out(py, r, out)
        }
    )*};
}

binary_fns! {
    add => Add, "`input + other` (broadcasting; Python numbers are weak scalars).";
    sub => Sub, "`input - other`.";
    mul => Mul, "`input * other`.";
    div => Div, "`input / other` (true division: integers divide as float32).";
    pow => Pow, "`input ** other`.";
    maximum => Maximum, "Elementwise maximum (NaN-propagating).";
    minimum => Minimum, "Elementwise minimum (NaN-propagating).";
    eq => Eq, "`input == other` as a bool tensor.";
    ne => Ne, "`input != other` as a bool tensor.";
    lt => Lt, "`input < other` as a bool tensor.";
    le => Le, "`input <= other` as a bool tensor.";
    gt => Gt, "`input > other` as a bool tensor.";
    ge => Ge, "`input >= other` as a bool tensor.";
}

macro_rules! unary_fns {
    ($($name:ident => $op:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "(input)` elementwise.")]
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
    neg => Neg; abs => Abs; exp => Exp; log => Log; sqrt => Sqrt; rsqrt => Rsqrt; sin => Sin;
    cos => Cos; tanh => Tanh; sigmoid => Sigmoid; relu => Relu; gelu => Gelu; silu => Silu;
    erf => Erf;
}

macro_rules! reduce_fns {
    ($($name:ident => $kind:ident;)*) => {$(
        #[doc = concat!("`", stringify!($name), "` over all elements, or over `dim` (an int or a tuple of ints).")]
        #[pyfunction]
        #[pyo3(signature = (input, dim=None, keepdim=false))]
        pub fn $name(
            py: Python<'_>,
            input: &Bound<'_, PyAny>,
            dim: Option<&Bound<'_, PyAny>>,
            keepdim: bool,
        ) -> PyResult<PyTensor> {
            let inner = reduce(py, Reduce::$kind, &tensor_arg(input)?, dim, keepdim)?;
            Ok(PyTensor { inner })
        }
    )*};
}

reduce_fns! { sum => Sum; mean => Mean; prod => Prod; max => Max; min => Min; }

/// Index of the maximum over the flattened input, or along `dim`.
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn argmax(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<isize>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    let inner = arg_reduce(py, true, &tensor_arg(input)?, dim, keepdim)?;
    Ok(PyTensor { inner })
}

/// Index of the minimum over the flattened input, or along `dim`.
#[pyfunction]
#[pyo3(signature = (input, dim=None, keepdim=false))]
pub fn argmin(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<isize>,
    keepdim: bool,
) -> PyResult<PyTensor> {
    let inner = arg_reduce(py, false, &tensor_arg(input)?, dim, keepdim)?;
    Ok(PyTensor { inner })
}

/// Variance (`correction=1`: unbiased, PyTorch's default; numpy's default is 0).
#[pyfunction(name = "var")]
#[pyo3(signature = (input, dim=None, *, correction=1, keepdim=false))]
pub fn var_fn(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    correction: usize,
    keepdim: bool,
) -> PyResult<PyTensor> {
    let inner = var_std(py, false, &tensor_arg(input)?, dim, correction, keepdim)?;
    Ok(PyTensor { inner })
}

/// Standard deviation (see `var`).
#[pyfunction(name = "std")]
#[pyo3(signature = (input, dim=None, *, correction=1, keepdim=false))]
pub fn std_fn(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    dim: Option<&Bound<'_, PyAny>>,
    correction: usize,
    keepdim: bool,
) -> PyResult<PyTensor> {
    let inner = var_std(py, true, &tensor_arg(input)?, dim, correction, keepdim)?;
    Ok(PyTensor { inner })
}

/// Softmax along `dim`.
#[pyfunction(name = "softmax")]
pub fn softmax_fn(py: Python<'_>, input: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let inner = softmax(py, false, &tensor_arg(input)?, dim)?;
    Ok(PyTensor { inner })
}

/// Log-softmax along `dim`.
#[pyfunction]
pub fn log_softmax(py: Python<'_>, input: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let inner = softmax(py, true, &tensor_arg(input)?, dim)?;
    Ok(PyTensor { inner })
}

/// Matrix product with numpy's `matmul` semantics (1-D, 2-D, batched with broadcasting).
#[pyfunction(name = "matmul")]
pub fn matmul_fn(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    other: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let inner = matmul(py, &tensor_arg(input)?, &tensor_arg(other)?)?;
    Ok(PyTensor { inner })
}

/// `condition ? input : other` elementwise, broadcasting all three.
#[pyfunction(name = "where")]
pub fn where_(
    py: Python<'_>,
    condition: &Bound<'_, PyAny>,
    input: &Bound<'_, PyAny>,
    other: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let c = tensor_arg(condition)?;
    let (a, b) = match (fn_operand(input)?, fn_operand(other)?) {
        (Operand::T(a), b) => {
            let a = a.into_owned();
            let b = as_tensor_for(b, &a).py()?;
            (a, b)
        }
        (a, Operand::T(b)) => (as_tensor_for(a, &b).py()?, b.into_owned()),
        (Operand::S(a), Operand::S(b)) => {
            let a = scalar_tensor(a, default_dtype(a)).py()?;
            let b = as_tensor_for(Operand::S(b), &a).py()?;
            (a, b)
        }
    };
    let work = c.numel().max(a.numel()).max(b.numel());
    let inner = run(py, work, || ops::where_(&c, &a, &b))?;
    Ok(PyTensor { inner })
}

/// Limits every element to `[min, max]` (either optional; numbers or tensors).
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

/// Concatenates along an existing `dim`.
#[pyfunction]
#[pyo3(signature = (tensors, dim=0))]
pub fn cat(py: Python<'_>, tensors: &Bound<'_, PyAny>, dim: isize) -> PyResult<PyTensor> {
    let ts = tensor_list(tensors)?;
    let work = ts.iter().map(Tensor::numel).sum();
    let inner = run(py, work, || ops::cat(&ts, dim))?;
    Ok(PyTensor { inner })
}

/// Stacks equally shaped tensors along a new `dim`.
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
    Ok(())
}
