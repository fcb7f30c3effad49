//! Compute: elementwise binary and unary operations, reductions, softmax, matmul, joining,
//! selection, and the in-place forms. A few generic exports take an operation number
//! (`CRT_BINARY_*`, `CRT_UNARY_*`, `CRT_REDUCE_*`) instead of one export per operation; the
//! numbers are stable and validated (an unknown number is `CRT_STATUS_INVALID_ARGUMENT`).
//!
//! Results are new runtime-owned tensors written to `out` (free them with `crt_tensor_free`);
//! inputs are never written, except by the in-place functions at the end, which write through
//! the tensor's (possibly shared) memory.

use clika_rt::ops::{self, BinaryOp, Scalar, UnaryOp};
use clika_rt::{DType, Error, Tensor};

use crate::boundary::guard;
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{self, arg};
use crate::tensor::{create, crt_tensor, derive};

/// An elementwise binary operation: one of the `CRT_BINARY_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_binary_op = u32;

/// `a + b` (Bool: logical or).
pub const CRT_BINARY_ADD: crt_binary_op = 0;
/// `a - b` (not defined for Bool).
pub const CRT_BINARY_SUB: crt_binary_op = 1;
/// `a * b` (Bool: logical and).
pub const CRT_BINARY_MUL: crt_binary_op = 2;
/// True division: integers and bools divide as Float32.
pub const CRT_BINARY_DIV: crt_binary_op = 3;
/// `a ** b` (integers wrap).
pub const CRT_BINARY_POW: crt_binary_op = 4;
/// Elementwise maximum, NaN-propagating.
pub const CRT_BINARY_MAXIMUM: crt_binary_op = 5;
/// Elementwise minimum, NaN-propagating.
pub const CRT_BINARY_MINIMUM: crt_binary_op = 6;
/// `a == b` → Bool.
pub const CRT_BINARY_EQ: crt_binary_op = 7;
/// `a != b` → Bool.
pub const CRT_BINARY_NE: crt_binary_op = 8;
/// `a < b` → Bool.
pub const CRT_BINARY_LT: crt_binary_op = 9;
/// `a <= b` → Bool.
pub const CRT_BINARY_LE: crt_binary_op = 10;
/// `a > b` → Bool.
pub const CRT_BINARY_GT: crt_binary_op = 11;
/// `a >= b` → Bool.
pub const CRT_BINARY_GE: crt_binary_op = 12;

/// An elementwise unary operation: one of the `CRT_UNARY_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_unary_op = u32;

/// `-x` (integers wrap; not defined for Bool).
pub const CRT_UNARY_NEG: crt_unary_op = 0;
/// `|x|`.
pub const CRT_UNARY_ABS: crt_unary_op = 1;
/// `max(x, 0)`.
pub const CRT_UNARY_RELU: crt_unary_op = 2;
/// `e^x`.
pub const CRT_UNARY_EXP: crt_unary_op = 3;
/// Natural logarithm.
pub const CRT_UNARY_LOG: crt_unary_op = 4;
/// Square root.
pub const CRT_UNARY_SQRT: crt_unary_op = 5;
/// `1 / sqrt(x)`.
pub const CRT_UNARY_RSQRT: crt_unary_op = 6;
/// Sine.
pub const CRT_UNARY_SIN: crt_unary_op = 7;
/// Cosine.
pub const CRT_UNARY_COS: crt_unary_op = 8;
/// Hyperbolic tangent.
pub const CRT_UNARY_TANH: crt_unary_op = 9;
/// `1 / (1 + e^-x)`.
pub const CRT_UNARY_SIGMOID: crt_unary_op = 10;
/// Gaussian error linear unit, exact form `x * Phi(x)`.
pub const CRT_UNARY_GELU: crt_unary_op = 11;
/// `x * sigmoid(x)`.
pub const CRT_UNARY_SILU: crt_unary_op = 12;
/// The error function.
pub const CRT_UNARY_ERF: crt_unary_op = 13;

/// A reduction: one of the `CRT_REDUCE_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_reduce_op = u32;

/// Sum (floats keep their dtype; integers and bools give Int64, wrapping).
pub const CRT_REDUCE_SUM: crt_reduce_op = 0;
/// Mean (floats keep their dtype; integers and bools give Float64; no elements give NaN).
pub const CRT_REDUCE_MEAN: crt_reduce_op = 1;
/// Product (dtypes as for the sum).
pub const CRT_REDUCE_PROD: crt_reduce_op = 2;
/// Maximum (NaN-propagating; an error on no elements).
pub const CRT_REDUCE_MAX: crt_reduce_op = 3;
/// Minimum (NaN-propagating; an error on no elements).
pub const CRT_REDUCE_MIN: crt_reduce_op = 4;
/// Index (Int64) of the first maximum: over the flattened tensor, or along exactly one dim.
pub const CRT_REDUCE_ARGMAX: crt_reduce_op = 5;
/// Index (Int64) of the first minimum: over the flattened tensor, or along exactly one dim.
pub const CRT_REDUCE_ARGMIN: crt_reduce_op = 6;
/// Variance with `correction` subtracted from the count (1: unbiased, PyTorch's default;
/// 0: numpy's). Floats keep their dtype; integers give Float64.
pub const CRT_REDUCE_VAR: crt_reduce_op = 7;
/// Standard deviation: the square root of the variance (see `CRT_REDUCE_VAR`).
pub const CRT_REDUCE_STD: crt_reduce_op = 8;

/// The kind of a `crt_scalar`: one of the `CRT_SCALAR_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_scalar_kind = u32;

/// A boolean: `int_value != 0`.
pub const CRT_SCALAR_BOOL: crt_scalar_kind = 0;
/// An integer: `int_value`.
pub const CRT_SCALAR_INT: crt_scalar_kind = 1;
/// A float: `float_value`.
pub const CRT_SCALAR_FLOAT: crt_scalar_kind = 2;

/// A "weak" scalar operand, as a Python number is: its kind (bool < int < float) decides the
/// result's dtype only when it is of a higher kind than the tensor's dtype, and then the
/// result is that kind's default (Int64 for an int with a Bool tensor; Float32 for a float
/// with an integer or Bool tensor). So an Int8 tensor plus an int stays Int8, and an Int8
/// tensor times 0.5 is Float32. Read `int_value` for `CRT_SCALAR_BOOL` and `CRT_SCALAR_INT`,
/// `float_value` for `CRT_SCALAR_FLOAT`; the other field is ignored.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct crt_scalar {
    /// One of `CRT_SCALAR_*`.
    pub kind: crt_scalar_kind,
    /// The value of a bool (non-zero is true) or int scalar.
    pub int_value: i64,
    /// The value of a float scalar.
    pub float_value: f64,
}

fn out_of_range(what: &'static str, v: u32) -> CapiError {
    Error::OutOfRange {
        what,
        value: v.to_string(),
    }
    .into()
}

/// The core op for a `CRT_BINARY_*` number (the numbers are `BinaryOp::ALL`'s indices).
fn binary_op(op: crt_binary_op) -> Result<BinaryOp, CapiError> {
    BinaryOp::ALL
        .get(op as usize)
        .copied()
        .ok_or_else(|| out_of_range("binary op (CRT_BINARY_*)", op))
}

/// The core op for a `CRT_UNARY_*` number (the numbers are `UnaryOp::ALL`'s indices).
fn unary_op(op: crt_unary_op) -> Result<UnaryOp, CapiError> {
    UnaryOp::ALL
        .get(op as usize)
        .copied()
        .ok_or_else(|| out_of_range("unary op (CRT_UNARY_*)", op))
}

impl crt_scalar {
    /// The core scalar; an unknown kind is rejected.
    pub fn to_core(self) -> Result<Scalar, CapiError> {
        match self.kind {
            CRT_SCALAR_BOOL => Ok(Scalar::Bool(self.int_value != 0)),
            CRT_SCALAR_INT => Ok(Scalar::Int(self.int_value)),
            CRT_SCALAR_FLOAT => Ok(Scalar::Float(self.float_value)),
            k => Err(out_of_range("scalar kind (CRT_SCALAR_*)", k)),
        }
    }
}

/// Writes a new handle for `f(a, b)` to `out`.
///
/// # Safety
/// P1 for `a` and `b`, P2 for `out` and `err`.
unsafe fn derive2(
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor, &Tensor) -> Result<Tensor, CapiError>,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s, and P1 for the handles.
    unsafe {
        create(out, err, || {
            let (a, b) = (arg(a, "a")?, arg(b, "b")?);
            f(&a.tensor, &b.tensor)
        })
    }
}

/// `op(a, b)` elementwise with numpy broadcasting (trailing dimensions aligned; sizes equal
/// or 1) and type promotion: Bool < integers < floats; among integers the wider wins, and
/// UInt8 with a signed type meets at the smallest signed type holding both (UInt8 + Int8 →
/// Int16); Float16 + BFloat16 → Float32. Comparisons give Bool; `DIV` is true division
/// (integers and bools divide in Float32, so `x / 0` is ±inf or NaN, never an error).
/// Integer arithmetic wraps on overflow; an integer `POW` with a negative exponent
/// truncates `1 / a^n` toward zero.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_binary(
    op: crt_binary_op,
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive2(a, b, out, err, |a, b| {
            Ok(ops::binary(binary_op(op)?, a, b)?)
        })
    }
}

/// `op(tensor, scalar)` with a weak scalar (see `crt_scalar`): `t * 2.0`, `t > 0`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_binary_scalar(
    op: crt_binary_op,
    tensor: *const crt_tensor,
    scalar: crt_scalar,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(ops::binary_scalar(binary_op(op)?, t, scalar.to_core()?)?)
        })
    }
}

/// `op(scalar, tensor)` with a weak scalar on the left: `1 - t`, `2 / t`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_scalar_binary(
    op: crt_binary_op,
    scalar: crt_scalar,
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(ops::scalar_binary(binary_op(op)?, scalar.to_core()?, t)?)
        })
    }
}

/// `op(tensor)` elementwise. `NEG`, `ABS` and `RELU` keep the dtype (integers too); the
/// others compute in floating point (integers and bools give Float32).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_unary(
    op: crt_unary_op,
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::unary(unary_op(op)?, t)?)) }
}

/// Reduces over the `ndims` dimensions in `dims` (negative counts from the end; no
/// dimensions reduce nothing, as numpy's `axis=()`); `keepdim` non-zero keeps them with
/// size 1. `correction` is used by `CRT_REDUCE_VAR`/`CRT_REDUCE_STD` only (1: unbiased;
/// 0: numpy's default). `CRT_REDUCE_ARGMAX`/`ARGMIN` take exactly one dimension.
/// To reduce over every element use `crt_tensor_reduce_all`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_reduce(
    op: crt_reduce_op,
    tensor: *const crt_tensor,
    dims: *const i64,
    ndims: usize,
    keepdim: u8,
    correction: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let dims = crate::views::isz_list(dims, ndims, "dims")?;
            reduce_dims(op, t, &dims, keepdim != 0, correction)
        })
    }
}

fn reduce_dims(
    op: crt_reduce_op,
    t: &Tensor,
    dims: &[isize],
    keepdim: bool,
    correction: usize,
) -> Result<Tensor, CapiError> {
    let one_dim = |name: &'static str| match dims {
        [d] => Ok(*d),
        _ => Err(CapiError::from(Error::OutOfRange {
            what: name,
            value: format!("{} dimensions (it takes exactly one)", dims.len()),
        })),
    };
    Ok(match op {
        CRT_REDUCE_SUM => ops::sum_dims(t, dims, keepdim)?,
        CRT_REDUCE_MEAN => ops::mean_dims(t, dims, keepdim)?,
        CRT_REDUCE_PROD => ops::prod_dims(t, dims, keepdim)?,
        CRT_REDUCE_MAX => ops::max_dims(t, dims, keepdim)?,
        CRT_REDUCE_MIN => ops::min_dims(t, dims, keepdim)?,
        CRT_REDUCE_ARGMAX => ops::argmax_dim(t, one_dim("argmax dims")?, keepdim)?,
        CRT_REDUCE_ARGMIN => ops::argmin_dim(t, one_dim("argmin dims")?, keepdim)?,
        CRT_REDUCE_VAR => ops::var_dims(t, dims, correction, keepdim)?,
        CRT_REDUCE_STD => ops::std_dims(t, dims, correction, keepdim)?,
        k => return Err(out_of_range("reduction (CRT_REDUCE_*)", k)),
    })
}

/// Reduces over every element, giving a 0-dimensional tensor (`ARGMAX`/`ARGMIN`: the index
/// into the flattened tensor). `correction` as for `crt_tensor_reduce`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_reduce_all(
    op: crt_reduce_op,
    tensor: *const crt_tensor,
    correction: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(match op {
                CRT_REDUCE_ARGMAX => ops::argmax(t)?,
                CRT_REDUCE_ARGMIN => ops::argmin(t)?,
                _ => {
                    let all: Vec<isize> = (0..t.ndim() as isize).collect();
                    reduce_dims(op, t, &all, false, correction)?
                }
            })
        })
    }
}

/// `exp(x - max) / sum(exp(x - max))` along `dim` (integers and bools compute in Float32).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_softmax(
    tensor: *const crt_tensor,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(ops::softmax(t, crate::views::isz(dim, "dim")?)?)
        })
    }
}

/// `x - max - log(sum(exp(x - max)))` along `dim`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_log_softmax(
    tensor: *const crt_tensor,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(ops::log_softmax(t, crate::views::isz(dim, "dim")?)?)
        })
    }
}

/// Matrix product with numpy's `matmul` semantics: a 1-D left operand is a row, a 1-D
/// right operand a column (the added dimension is removed again); leading (batch)
/// dimensions broadcast. Strided operands (a transposed view) are read in place. Float16,
/// BFloat16 and integers compute in Float32 (integers are converted back).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_matmul(
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive2(a, b, out, err, |a, b| Ok(ops::matmul(a, b)?)) }
}

/// `cond ? a : b` elementwise, broadcasting all three; the result has `a` and `b`'s
/// promoted dtype. `cond` is read as booleans (non-zero is true).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_where(
    cond: *const crt_tensor,
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let c = arg(cond, "cond")?;
            let (a, b) = (arg(a, "a")?, arg(b, "b")?);
            Ok(ops::where_(&c.tensor, &a.tensor, &b.tensor)?)
        })
    }
}

/// Limits every element to `[*min, *max]`; either bound may be NULL (no bound). The bounds
/// are weak scalars (see `crt_scalar`) and are read during the call only. NaN stays NaN.
///
/// # Safety
/// `min` and `max` are NULL or readable; the header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_clamp(
    tensor: *const crt_tensor,
    min: *const crt_scalar,
    max: *const crt_scalar,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; `min`/`max` are NULL or readable.
    unsafe {
        derive(tensor, out, err, |t| {
            let lo = ffi::opt_read(min).map(crt_scalar::to_core).transpose()?;
            let hi = ffi::opt_read(max).map(crt_scalar::to_core).transpose()?;
            Ok(ops::clamp(t, lo, hi)?)
        })
    }
}

/// Joins `n` tensors with `f` (`cat` or `stack`).
///
/// # Safety
/// P3 for `tensors`/`n`, P1 for every handle in it, P2 for `out`/`err`.
unsafe fn join(
    tensors: *const *const crt_tensor,
    n: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&[Tensor]) -> clika_rt::Result<Tensor>,
) -> crt_status {
    // SAFETY: the caller's obligations are `create`'s and `ffi::handles`'.
    unsafe {
        create(out, err, || {
            let list = ffi::handles(tensors, n, "tensors")?;
            let list: Vec<Tensor> = list.into_iter().map(|h| h.tensor.clone()).collect();
            Ok(f(&list)?)
        })
    }
}

/// Concatenates the `n` tensors of the array `tensors` along `dim` (every other dimension
/// must match); the result has their promoted dtype. `n` must be at least 1; no element may
/// be NULL. The array is read during the call only.
///
/// # Safety
/// The header's pointer contract (P3 for the array, P1 for each handle in it).
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_cat(
    tensors: *const *const crt_tensor,
    n: usize,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        join(tensors, n, out, err, |l| match isize::try_from(dim) {
            Ok(d) => ops::cat(l, d),
            Err(_) => Err(Error::OutOfRange {
                what: "dim",
                value: dim.to_string(),
            }),
        })
    }
}

/// Stacks `n` equally shaped tensors along a new dimension `dim`; see `crt_tensor_cat`.
///
/// # Safety
/// The header's pointer contract (P3 for the array, P1 for each handle in it).
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_stack(
    tensors: *const *const crt_tensor,
    n: usize,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        join(tensors, n, out, err, |l| match isize::try_from(dim) {
            Ok(d) => ops::stack(l, d),
            Err(_) => Err(Error::OutOfRange {
                what: "dim",
                value: dim.to_string(),
            }),
        })
    }
}

// ---- in place ----
//
// These write through `tensor`'s memory, which other handles and views may share (so a
// write through a view is visible through its parent), as in PyTorch and numpy. The caller's
// contract: no other thread reads or writes the elements `tensor` reaches during the call.
// Read-only memory (CRT_BLOB_READ_ONLY) is refused with CRT_STATUS_READ_ONLY.

/// Runs an in-place `f` on `tensor`.
///
/// # Safety
/// P1 for `tensor`, P2 for `err`.
unsafe fn in_place(
    tensor: *const crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor) -> Result<(), CapiError>,
) -> crt_status {
    guard(err, || {
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        f(&t.tensor)
    })
}

/// Sets every element of `tensor` to `value` (converted to its dtype), in place.
///
/// The in-place functions (`crt_tensor_fill_`, `crt_tensor_copy_`, `crt_tensor_binary_`,
/// `crt_tensor_binary_scalar_`) write through the tensor's memory even when other handles and
/// views share it, as PyTorch does: a write through a view is seen through its parent.
/// Read-only memory (`CRT_BLOB_READ_ONLY`) is refused with `CRT_STATUS_READ_ONLY`.
///
/// # Safety
/// No other thread may read or write the elements `tensor` reaches during the call; the
/// header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_fill_(
    tensor: *const crt_tensor,
    value: f64,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &Tensor| {
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { t.fill_shared(value) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// Copies `src` (broadcast to `tensor`'s shape, converted to its dtype) into `tensor`, in
/// place. A source that overlaps `tensor`'s memory is read in full before anything is
/// written.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_copy_(
    tensor: *const crt_tensor,
    src: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &Tensor| {
        // SAFETY: P1 for `src`.
        let src = unsafe { arg(src, "src") }?;
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { t.copy_shared(&src.tensor) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// `tensor = op(tensor, other)` in place (`+=`): `other` must broadcast to `tensor`'s shape,
/// and the result is converted to `tensor`'s dtype (an Int32 tensor divided in place
/// truncates; a comparison stores 0 or 1).
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_binary_(
    op: crt_binary_op,
    tensor: *const crt_tensor,
    other: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &Tensor| {
        let op = binary_op(op)?;
        // SAFETY: P1 for `other`.
        let other = unsafe { arg(other, "other") }?;
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { t.binary_shared(op, &other.tensor) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// `tensor = op(tensor, scalar)` in place (`*= 2`), with a weak scalar; the result is
/// converted to `tensor`'s dtype.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_binary_scalar_(
    op: crt_binary_op,
    tensor: *const crt_tensor,
    scalar: crt_scalar,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &Tensor| {
        let op = binary_op(op)?;
        let s = scalar.to_core()?;
        let dtype = t.dtype();
        if ops::scalar_result_type(dtype, s) == dtype {
            // The weak scalar computes in the tensor's dtype: hold it as a 0-d tensor
            // of that dtype and run the op in place, without a full-size temporary.
            let st = match s {
                Scalar::Int(i) => {
                    Tensor::from_bytes(&i.to_ne_bytes(), &[], DType::Int64)?.to_dtype(dtype)?
                }
                other => Tensor::full(&[], other.to_f64(), dtype)?,
            };
            // SAFETY: the caller excludes concurrent access to these elements.
            Ok(unsafe { t.binary_shared(op, &st) }?)
        } else {
            let r = ops::binary_scalar(op, t, s)?;
            // SAFETY: the caller excludes concurrent access to these elements.
            Ok(unsafe { t.copy_shared(&r) }?)
        }
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// `op(a, b)` written into the existing tensor `out` (the `out=` form): `out` must have the
/// broadcast shape of `a` and `b`; the result is converted to `out`'s dtype. Nothing is
/// allocated when `out` has the op's result dtype. `a` or `b` may be `out` itself, and an
/// input overlapping `out` is read in full before anything is written.
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_binary_into(
    op: crt_binary_op,
    a: *const crt_tensor,
    b: *const crt_tensor,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        let op = binary_op(op)?;
        // SAFETY: P1 for `a` and `b`.
        let (a, b) = unsafe { (arg(a, "a")?, arg(b, "b")?) };
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::binary_into_shared(op, &a.tensor, &b.tensor, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}

/// `op(tensor)` written into the existing tensor `out` of the same shape (the `out=` form);
/// the result is converted to `out`'s dtype.
///
/// # Safety
/// As for `crt_tensor_fill_`, for `out`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_unary_into(
    op: crt_unary_op,
    tensor: *const crt_tensor,
    out: *const crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |o: &Tensor| {
        let op = unary_op(op)?;
        // SAFETY: P1 for `tensor`.
        let t = unsafe { arg(tensor, "tensor") }?;
        // SAFETY: the caller excludes concurrent access to `out`'s elements.
        Ok(unsafe { ops::unary_into_shared(op, &t.tensor, o) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(out, err, f) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_numbers_are_stable() {
        let binary = [
            (CRT_BINARY_ADD, BinaryOp::Add),
            (CRT_BINARY_SUB, BinaryOp::Sub),
            (CRT_BINARY_MUL, BinaryOp::Mul),
            (CRT_BINARY_DIV, BinaryOp::Div),
            (CRT_BINARY_POW, BinaryOp::Pow),
            (CRT_BINARY_MAXIMUM, BinaryOp::Maximum),
            (CRT_BINARY_MINIMUM, BinaryOp::Minimum),
            (CRT_BINARY_EQ, BinaryOp::Eq),
            (CRT_BINARY_NE, BinaryOp::Ne),
            (CRT_BINARY_LT, BinaryOp::Lt),
            (CRT_BINARY_LE, BinaryOp::Le),
            (CRT_BINARY_GT, BinaryOp::Gt),
            (CRT_BINARY_GE, BinaryOp::Ge),
        ];
        assert_eq!(binary.len(), BinaryOp::ALL.len());
        for (n, op) in binary {
            assert_eq!(binary_op(n).unwrap(), op);
        }
        assert!(binary_op(13).is_err());
        let unary = [
            (CRT_UNARY_NEG, UnaryOp::Neg),
            (CRT_UNARY_ABS, UnaryOp::Abs),
            (CRT_UNARY_RELU, UnaryOp::Relu),
            (CRT_UNARY_EXP, UnaryOp::Exp),
            (CRT_UNARY_LOG, UnaryOp::Log),
            (CRT_UNARY_SQRT, UnaryOp::Sqrt),
            (CRT_UNARY_RSQRT, UnaryOp::Rsqrt),
            (CRT_UNARY_SIN, UnaryOp::Sin),
            (CRT_UNARY_COS, UnaryOp::Cos),
            (CRT_UNARY_TANH, UnaryOp::Tanh),
            (CRT_UNARY_SIGMOID, UnaryOp::Sigmoid),
            (CRT_UNARY_GELU, UnaryOp::Gelu),
            (CRT_UNARY_SILU, UnaryOp::Silu),
            (CRT_UNARY_ERF, UnaryOp::Erf),
        ];
        assert_eq!(unary.len(), UnaryOp::ALL.len());
        for (n, op) in unary {
            assert_eq!(unary_op(n).unwrap(), op);
        }
        assert!(unary_op(14).is_err());
    }
}
