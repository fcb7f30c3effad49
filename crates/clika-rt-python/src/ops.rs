//! Operations from Python: operand translation (tensors, weak Python scalars, numpy arrays),
//! the elementwise / reduction / matmul calls (GIL released), buffer reuse for temporaries,
//! in-place writes, `out=`, and the module-level functions (`crt.add`, `crt.sum`, …).
//!
//! Python `bool`/`int`/`float` operands are *weak* scalars (numpy 2 / PyTorch promotion:
//! `float32_tensor * 2.5` stays float32); numpy arrays and numpy scalars are strong and are
//! copied into a tensor first (`crt.tensor`).

use ::std::borrow::Cow;
use ::std::sync::OnceLock;

use clika_rt::ops::{self, BinaryOp, ReduceOp, Scalar, UnaryOp};
use clika_rt::{ErrorKind, Tensor};
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

pub use clika_rt::ops::Operand;

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
        return Ok(Some(int_value(obj)?));
    }
    if obj.is_instance(numpy_generic(obj.py())?)? {
        return Ok(None);
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Some(Scalar::Float(obj.extract()?)));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(int_value(obj)?));
    }
    Ok(None)
}

/// A Python int (not a bool) as an exact integer scalar, if it fits int64 or uint64.
pub fn exact_int(obj: &Bound<'_, PyAny>) -> Option<Scalar> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return None;
    }
    int_value(obj).ok()
}

/// An int operand: `Scalar::Int` in the int64 range, `Scalar::UInt` up to 2**64 - 1 (for
/// uint64 tensors).
fn int_value(obj: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(Scalar::Int(v));
    }
    obj.extract::<u64>().map(Scalar::UInt).map_err(|_| {
        raise(
            ErrorKind::InvalidArgument,
            "a Python int operand must fit in int64 or uint64; pass a float, or a numpy array",
        )
    })
}

/// Translates an operand; `None` for a type no operation takes (operators then return
/// `NotImplemented`, so Python can try the other operand).
pub fn operand<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Option<Operand<'a>>> {
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Ok(Some(Operand::Tensor(Cow::Borrowed(&t.get().inner))));
    }
    if let Some(s) = python_scalar(obj)? {
        return Ok(Some(Operand::Scalar(s)));
    }
    if obj.is_instance_of::<PyUntypedArray>() || obj.is_instance(numpy_generic(obj.py())?)? {
        return Ok(Some(Operand::Tensor(Cow::Owned(
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
        None => Ok(Operand::Tensor(Cow::Owned(numpy_import::copy_from_python(
            obj,
        )?))),
    }
}

/// A tensor argument: a `crt.Tensor` as is, anything else copied with `crt.tensor`'s rules
/// (a Python scalar gives a 0-d tensor of its default dtype).
pub fn tensor_arg(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    match fn_operand(obj)? {
        Operand::Tensor(t) => Ok(t.into_owned()),
        Operand::Scalar(s) => s.to_tensor(s.default_dtype()).py(),
    }
}

/// `op(a, b)` into a fresh tensor.
pub fn binary(py: Python<'_>, op: BinaryOp, a: &Operand<'_>, b: &Operand<'_>) -> PyResult<Tensor> {
    let work = a.numel().max(b.numel());
    if let (Operand::Tensor(t), Operand::Scalar(s)) | (Operand::Scalar(s), Operand::Tensor(t)) =
        (a, b)
    {
        crate::int_range::check_operand(Some(op), *s, t.dtype())?;
    }
    run(py, work, || ops::binary_operands(op, a, b))
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

/// Writes `op(lhs, other)` into `lhs`'s own memory when `lhs` is a temporary and the core's
/// buffer-reuse rule allows it ([`ops::binary_into_temporary`]: `a + b + c` allocates once). Returns
/// whether it did.
fn try_reuse(py: Python<'_>, op: BinaryOp, lhs: &Bound<'_, PyTensor>, other: &Tensor) -> bool {
    let t = &lhs.get().inner;
    if !is_temporary(lhs) {
        return false;
    }
    // SAFETY: the tensor object has no other reference (so no other thread can reach this
    // tensor), and the core writes only when its storage has no other tensor either.
    run(py, t.numel(), || unsafe {
        ops::binary_into_temporary(op, t, other)
    })
    .unwrap_or(false)
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
        binary(py, op, &o, &Operand::Tensor(Cow::Borrowed(t)))?
    } else {
        if let Operand::Tensor(x) = &o {
            if try_reuse(py, op, slf, x) {
                return Ok(slf.clone().into_any());
            }
        } else if let Operand::Scalar(s) = o {
            crate::int_range::check_operand(Some(op), s, t.dtype())?;
            let fits_dtype = ops::scalar_result_type(t.dtype(), s) == t.dtype();
            if fits_dtype && is_temporary(slf) {
                let x = s.to_tensor(t.dtype()).py()?;
                if try_reuse(py, op, slf, &x) {
                    return Ok(slf.clone().into_any());
                }
            }
        }
        binary(py, op, &Operand::Tensor(Cow::Borrowed(t)), &o)?
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
    if let Operand::Scalar(s) = &o {
        crate::int_range::check_operand(Some(op), *s, t.dtype())?;
    }
    let o = o.to_tensor_for(t.dtype()).py()?;
    // SAFETY: the same contract as numpy's in-place operators: the caller's Python program
    // must not write these elements from another thread during the call.
    run(py, t.numel(), || unsafe { t.binary_shared(op, &o) })
}

/// `t.fill_(value)`.
pub fn fill_inplace(py: Python<'_>, t: &Tensor, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let v = match fn_operand(value)? {
        Operand::Scalar(s) => s,
        Operand::Tensor(_) => {
            return Err(raise(
                ErrorKind::InvalidArgument,
                "fill_ takes a Python number; to write a tensor's values use t.copy_(src)",
            ))
        }
    };
    crate::int_range::check_operand(None, v, t.dtype())?;
    let v = v.to_tensor(t.dtype()).py()?;
    // SAFETY: as for `binary_inplace`.
    run(py, t.numel(), || unsafe { t.copy_shared(&v) })
}

/// `t.copy_(src)`: `src` broadcast to `t`'s shape and converted to its dtype.
pub fn copy_inplace(py: Python<'_>, t: &Tensor, src: &Bound<'_, PyAny>) -> PyResult<()> {
    let s = fn_operand(src)?;
    if let Operand::Scalar(v) = &s {
        crate::int_range::check_operand(None, *v, t.dtype())?;
    }
    let s = s.to_tensor_for(t.dtype()).py()?;
    // SAFETY: as for `binary_inplace`.
    run(py, t.numel(), || unsafe { t.copy_shared(&s) })
}

/// Writes `result` into `out` (`out=`): the shapes must match; the values convert to
/// `out`'s dtype. Returns `out` itself.
pub fn write_out<'py>(
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

/// `op` over all elements (`dim=None`) or over `dim` (an int or a tuple of ints; `argmax`
/// and `argmin` take one int).
pub fn reduce(
    py: Python<'_>,
    op: ReduceOp,
    t: &Tensor,
    dim: Option<&Bound<'_, PyAny>>,
    keepdim: bool,
) -> PyResult<Tensor> {
    reduce_over(py, op, t, args::dims(dim)?, keepdim)
}

/// The keyword forms a reduction accepts beside PyTorch's `dim`/`keepdim`: numpy's `axis`,
/// `keepdims`, `dtype` (the input is converted to it first) and `out`, so `np.sum(t)`,
/// `np.mean(t, axis=0)` and `np.var(t, ddof=1)` call the tensor's methods directly.
pub struct ReduceArgs<'a, 'py> {
    pub dim: Option<&'a Bound<'py, PyAny>>,
    pub keepdim: Option<bool>,
    pub axis: Option<&'a Bound<'py, PyAny>>,
    pub keepdims: Option<bool>,
    pub dtype: Option<&'a Bound<'py, PyAny>>,
    pub out: Option<Bound<'py, PyTensor>>,
}

/// `op` with PyTorch's or numpy's keywords (see [`ReduceArgs`]); returns `out` when given.
pub fn reduce_call<'py>(
    py: Python<'py>,
    op: ReduceOp,
    t: &Tensor,
    a: ReduceArgs<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let both = |x: bool, y: bool, names: &str| {
        if x && y {
            Err(raise(
                ErrorKind::InvalidArgument,
                format!("{names} name the same argument; pass one of them"),
            ))
        } else {
            Ok(())
        }
    };
    let given = |o: Option<&Bound<'_, PyAny>>| o.is_some_and(|o| !o.is_none());
    both(given(a.dim), given(a.axis), "dim and axis")?;
    both(
        a.keepdim.is_some(),
        a.keepdims.is_some(),
        "keepdim and keepdims",
    )?;
    let dims = args::dims(a.dim.filter(|d| !d.is_none()).or(a.axis))?;
    let keepdim = a.keepdim.or(a.keepdims).unwrap_or(false);
    let src = match a.dtype.filter(|d| !d.is_none()) {
        Some(d) => Cow::Owned(t.to_dtype(crate::dtype::resolve(d)?).py()?),
        None => Cow::Borrowed(t),
    };
    let r = reduce_over(py, op, &src, dims, keepdim)?;
    write_out(py, r, a.out)
}

/// `op` over `dims` (all when `None`).
pub fn reduce_over(
    py: Python<'_>,
    op: ReduceOp,
    t: &Tensor,
    dims: Option<Vec<isize>>,
    keepdim: bool,
) -> PyResult<Tensor> {
    run(py, t.numel(), || {
        ops::reduce(op, t, dims.as_deref(), keepdim)
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

/// A clamp bound: absent (`None`), a weak Python number or a tensor.
fn bound_arg<'a>(obj: Option<&'a Bound<'_, PyAny>>) -> PyResult<Option<Operand<'a>>> {
    obj.filter(|o| !o.is_none()).map(fn_operand).transpose()
}

/// `clamp(t, min, max)`; either bound may be a number or a tensor.
pub fn clamp(
    py: Python<'_>,
    t: &Tensor,
    min: Option<&Bound<'_, PyAny>>,
    max: Option<&Bound<'_, PyAny>>,
) -> PyResult<Tensor> {
    let (lo, hi) = (bound_arg(min)?, bound_arg(max)?);
    run(py, t.numel(), || ops::clamp_operands(t, lo, hi))
}

pub fn tensor_list(tensors: &Bound<'_, PyAny>) -> PyResult<Vec<Tensor>> {
    tensors.try_iter()?.map(|o| tensor_arg(&o?)).collect()
}
