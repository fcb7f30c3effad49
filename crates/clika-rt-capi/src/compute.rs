//! Compute: elementwise binary and unary operations, reductions, softmax, matmul, joining,
//! selection, and the in-place forms. A few generic exports take an operation number
//! (`CRT_BINARY_*`, `CRT_UNARY_*`, `CRT_REDUCE_*`) instead of one export per operation; the
//! numbers are stable and validated (an unknown number is `CRT_STATUS_INVALID_ARGUMENT`).
//!
//! Results are new runtime-owned tensors written to `out` (free them with `crt_tensor_free`);
//! inputs are never written, except by the in-place functions at the end, which write through
//! the tensor's (possibly shared) memory.

use clika_rt::ops;
use clika_rt::{Error, Tensor};

pub use crate::op_codes::*;

use crate::boundary::guard;
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{self, arg};
use crate::tensor::{create, crt_tensor, derive};

/// Writes a new handle for `f(a, b)` to `out`.
///
/// # Safety
/// P1 for `a` and `b`, P2 for `out` and `err`.
pub(crate) unsafe fn derive2(
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
/// an unsigned with a signed type meets at the smallest signed type holding both (UInt8 +
/// Int8 → Int16, UInt32 + Int32 → Int64; UInt64 with a signed type gives Float64, as
/// numpy); Float16 + BFloat16 → Float32. Comparisons give Bool; `DIV` is true division
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
            let op = reduce_op(op, correction)?;
            Ok(ops::reduce(op, t, Some(&dims), keepdim != 0)?)
        })
    }
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
            Ok(ops::reduce(reduce_op(op, correction)?, t, None, false)?)
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

/// An operand that is a tensor or a weak scalar, for the operations where both mix
/// (`crt_tensor_where_operands`, `crt_tensor_clamp_operands`): a non-NULL `tensor` is that
/// tensor (lent for the call); a NULL `tensor` means `scalar` (see `crt_scalar`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct crt_operand {
    /// A tensor, or NULL for `scalar`.
    pub tensor: *const crt_tensor,
    /// The weak scalar used when `tensor` is NULL.
    pub scalar: crt_scalar,
}

impl crt_operand {
    /// The core operand.
    ///
    /// # Safety
    /// `tensor` is NULL or satisfies P1.
    unsafe fn to_core(self, name: &'static str) -> Result<ops::Operand<'static>, CapiError> {
        if self.tensor.is_null() {
            return Ok(ops::Operand::Scalar(self.scalar.to_core()?));
        }
        // SAFETY: P1, forwarded from the caller.
        let t = unsafe { arg(self.tensor, name)? };
        Ok(ops::Operand::from(t.tensor.clone()))
    }
}

/// `cond ? a : b` elementwise where either branch may be a weak scalar: a scalar branch
/// takes the dtype it promotes to against the other (two scalars: their default dtypes,
/// Int64 / Float32 / Bool, promoted).
///
/// # Safety
/// The header's pointer contract, for `cond` and each operand's `tensor`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_where_operands(
    cond: *const crt_tensor,
    a: crt_operand,
    b: crt_operand,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(cond, out, err, |c| {
            let (a, b) = (a.to_core("a")?, b.to_core("b")?);
            Ok(ops::where_operands(c, a, b)?)
        })
    }
}

/// Limits every element to `[*min, *max]`; either bound may be NULL (no bound), a weak
/// scalar, or a tensor broadcast against `tensor` (elementwise bounds). NaN stays NaN.
///
/// # Safety
/// `min` and `max` are NULL or readable, their tensors NULL or valid handles; the header's
/// pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_clamp_operands(
    tensor: *const crt_tensor,
    min: *const crt_operand,
    max: *const crt_operand,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract; `min`/`max` are NULL or readable.
    unsafe {
        derive(tensor, out, err, |t| {
            let lo = ffi::opt_read(min).map(|o| o.to_core("min")).transpose()?;
            let hi = ffi::opt_read(max).map(|o| o.to_core("max")).transpose()?;
            Ok(ops::clamp_operands(t, lo, hi)?)
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
pub(crate) unsafe fn in_place(
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
            let st = s.to_tensor(dtype)?;
            // SAFETY: the caller excludes concurrent access to these elements.
            Ok(unsafe { t.binary_shared(op, &st) }?)
        } else {
            let r = ops::binary_scalar(op, t, s)?;
            // `int_tensor += 1.5` is refused, as numpy and PyTorch refuse it.
            ops::check_in_place(op, r.dtype(), dtype)?;
            // SAFETY: the caller excludes concurrent access to these elements.
            Ok(unsafe { t.copy_shared(&r) }?)
        }
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}
