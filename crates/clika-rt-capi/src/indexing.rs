//! Indexing: gathering along a dim (`index_select`, `gather`), boolean masks, the indices of
//! non-zero elements, writing through a mask and scattering along a dim. Results are new
//! runtime-owned tensors (advanced indexing copies); `crt_tensor_masked_fill_`,
//! `crt_tensor_scatter_` and `crt_tensor_index_add_` write in place.

use clika_rt::ops;

use crate::compute::{crt_scalar, derive2, in_place};
use crate::error::{crt_error, crt_status};
use crate::ffi::{arg, opt_ref};
use crate::tensor::{crt_tensor, derive};

/// The entries of `tensor` along `dim` at `indices` (an integer tensor of any shape;
/// negative indices count from the end): the result's shape is `tensor`'s with `dim`
/// replaced by `indices`' shape (numpy's `take` along an axis; PyTorch's `index_select` for
/// a 1-D `indices`). An index out of range is `CRT_STATUS_INDEX`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_index_select(
    tensor: *const crt_tensor,
    dim: i64,
    indices: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive2(tensor, indices, out, err, |t, i| {
            Ok(ops::index_select(t, dim as isize, i)?)
        })
    }
}

/// The elements of `tensor` where `mask` (broadcast to its shape; non-zero is true) holds,
/// as a 1-D tensor in row-major order.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_masked_select(
    tensor: *const crt_tensor,
    mask: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive2(tensor, mask, out, err, |t, m| Ok(ops::masked_select(t, m)?)) }
}

/// The indices of `tensor`'s non-zero elements: an Int64 tensor `[count, ndim]`, rows in
/// row-major order.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_nonzero(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::nonzero(t)?)) }
}

/// Sets the elements of `tensor` where `mask` (broadcast to its shape) holds to `value`
/// (a weak scalar converted to the dtype), in place, through memory other handles may share
/// (as `crt_tensor_fill_`). Read-only memory is `CRT_STATUS_READ_ONLY`.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_masked_fill_(
    tensor: *const crt_tensor,
    mask: *const crt_tensor,
    value: crt_scalar,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        // SAFETY: P1 for `mask`.
        let m = unsafe { arg(mask, "mask") }?;
        let v = value.to_core()?;
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { t.masked_fill_shared(&m.tensor, v) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// The elements of `tensor` picked along `dim` by `index` (PyTorch's `gather`, numpy's
/// `take_along_axis`): `out[p] = tensor[p with p[dim] = index[p]]` for every position `p` of
/// `index`, which is an integer tensor of `tensor`'s rank no larger than it off `dim`
/// (negative values count from the end). The result has `index`'s shape and `tensor`'s
/// dtype. An index out of range is `CRT_STATUS_INDEX`; a larger `index`,
/// `CRT_STATUS_INVALID_SHAPE`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_gather(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive2(tensor, index, out, err, |t, i| {
            Ok(ops::gather(t, dim as isize, i)?)
        })
    }
}

/// `tensor[p with p[dim] = index[p]] = src[p]` (or, with `add` non-zero, `+=`: repeated targets
/// accumulate in row-major order, or for a long 1-D histogram in fixed blocks added in order,
/// as `ClikaRT::ops::scatter_add`; integers wrap, Bool or-s) for every position `p` of `index`
/// (PyTorch's `scatter_` / `scatter_add_`), in place, through memory other handles may share
/// (as `crt_tensor_fill_`). `src` is at least as large as `index` in every dim (its leading
/// part is used) or 0-d, converted to `tensor`'s dtype. Where `index` repeats a target
/// without `add`, the last write in row-major order wins. Read-only memory is
/// `CRT_STATUS_READ_ONLY`; on any error nothing is written.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_scatter_(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    src: *const crt_tensor,
    add: u8,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        // SAFETY: P1 for `index` and `src`.
        let (i, s) = unsafe { (arg(index, "index")?, arg(src, "src")?) };
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe {
            if add != 0 {
                ops::scatter_add_shared(t, dim as isize, &i.tensor, &s.tensor)
            } else {
                ops::scatter_shared(t, dim as isize, &i.tensor, &s.tensor)
            }
        }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// A copy of `tensor` with `crt_tensor_scatter_` applied to it (`add` non-zero selects
/// `scatter_add`); `tensor` itself is not written. The copy is contiguous, of `tensor`'s shape and dtype.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_scatter(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    src: *const crt_tensor,
    add: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor, i: &clika_rt::Tensor| {
        // SAFETY: P1 for `src`.
        let s = unsafe { arg(src, "src") }?;
        let d = dim as isize;
        Ok(if add != 0 {
            ops::scatter_add(t, d, i, &s.tensor)
        } else {
            ops::scatter(t, d, i, &s.tensor)
        }?)
    };
    // SAFETY: forwarded contract.
    unsafe { derive2(tensor, index, out, err, f) }
}

/// `tensor[…, index[i], …] += alpha · source[…, i, …]` along `dim` for every `i` of the 1-D
/// integer `index` (PyTorch's `index_add_`, numpy's `np.add.at`), in place, through memory
/// other handles may share (as `crt_tensor_fill_`). `source` has `tensor`'s shape but for
/// `dim`, where it has `index`'s length; repeated indices accumulate in order; negative ones
/// count from the end. A float `source` or `alpha` with an integer or bool `tensor` is
/// `CRT_STATUS_DTYPE`; an index out of range, `CRT_STATUS_INDEX`; read-only memory,
/// `CRT_STATUS_READ_ONLY`. On any error nothing is written.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_index_add_(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    source: *const crt_tensor,
    alpha: crt_scalar,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        // SAFETY: P1 for `index` and `source`.
        let (i, s) = unsafe { (arg(index, "index")?, arg(source, "source")?) };
        let a = alpha.to_core()?;
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe { ops::index_add_shared(t, dim as isize, &i.tensor, &s.tensor, a) }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// A copy of `tensor` with `crt_tensor_index_add_` applied to it; `tensor` itself is not
/// written. The copy is contiguous, of `tensor`'s shape and dtype.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_index_add(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    source: *const crt_tensor,
    alpha: crt_scalar,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor, i: &clika_rt::Tensor| {
        // SAFETY: P1 for `source`.
        let s = unsafe { arg(source, "source") }?;
        Ok(ops::index_add(
            t,
            dim as isize,
            i,
            &s.tensor,
            alpha.to_core()?,
        )?)
    };
    // SAFETY: forwarded contract.
    unsafe { derive2(tensor, index, out, err, f) }
}

/// How often each value of the 1-D integer tensor `input` occurs (PyTorch's `bincount`,
/// numpy's `np.bincount`): `max(input) + 1` bins, or `minlength` if that is more
/// (`minlength` bins for an empty input); an Int64 tensor. With `weights` (NULL for none;
/// else one per element of `input`), each bin sums the weights of its elements: Float32 for
/// Float32 weights, Float64 for any other dtype. A negative value in `input`, a float or
/// Bool `input`, one that is not 1-D, or a negative `minlength` is
/// `CRT_STATUS_INVALID_ARGUMENT`; weights of another length `CRT_STATUS_INVALID_SHAPE`. A
/// long input sums in parallel blocks, with the same float result on any thread count (see
/// `ClikaRT::ops::scatter_add`).
///
/// # Safety
/// The header's pointer contract; `weights` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_bincount(
    input: *const crt_tensor,
    weights: *const crt_tensor,
    minlength: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        let minlength = crate::vision::size(minlength, "bincount: minlength")?;
        // SAFETY: NULL or P1 for `weights` (the header's contract).
        let w = unsafe { opt_ref(weights) }.map(|w| &w.tensor);
        Ok(ops::bincount(t, w, minlength)?)
    };
    // SAFETY: forwarded contract.
    unsafe { derive(input, out, err, f) }
}

/// A histogram of `input`'s values (PyTorch's `histc`): `bins` equal bins over `[min, max]`,
/// each counting the elements in it (`max` itself in the last bin; values outside the range
/// and NaN count nowhere), as a tensor of `input`'s dtype, shape `[bins]`. `input` may have
/// any shape and must be of a float dtype. With `min == max` (PyTorch's default `0, 0`) the
/// range is the data's own, widened by one either side when that is a single value.
/// `bins < 1`, `min > max`, a non-float `input` or a range that is not finite (NaN or
/// infinity in the data) is `CRT_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_histc(
    input: *const crt_tensor,
    bins: i64,
    min: f64,
    max: f64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        let bins = crate::vision::size(bins, "histc: bins")?;
        Ok(ops::histc(t, bins, min, max)?)
    };
    // SAFETY: forwarded contract.
    unsafe { derive(input, out, err, f) }
}

/// How `crt_tensor_scatter_reduce` combines the values that reach one target: one of the
/// `CRT_SCATTER_REDUCE_*` numbers (stable), PyTorch's `reduce` names.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_scatter_reduce = u32;
/// The sum (`"sum"`; integers wrap).
pub const CRT_SCATTER_REDUCE_SUM: crt_scatter_reduce = 0;
/// The product (`"prod"`; integers wrap).
pub const CRT_SCATTER_REDUCE_PROD: crt_scatter_reduce = 1;
/// The mean (`"mean"`; integers divide with the floor).
pub const CRT_SCATTER_REDUCE_MEAN: crt_scatter_reduce = 2;
/// The maximum (`"amax"`; a NaN wins).
pub const CRT_SCATTER_REDUCE_AMAX: crt_scatter_reduce = 3;
/// The minimum (`"amin"`; a NaN wins).
pub const CRT_SCATTER_REDUCE_AMIN: crt_scatter_reduce = 4;

fn reduction(reduce: crt_scatter_reduce) -> clika_rt::Result<ops::ScatterReduce> {
    ops::ScatterReduce::ALL
        .get(reduce as usize)
        .copied()
        .ok_or_else(|| clika_rt::Error::InvalidArgument {
            what: format!(
                "unknown scatter reduction {reduce}; use a CRT_SCATTER_REDUCE_* constant"
            ),
        })
}

/// `tensor[p with p[dim] = index[p]]` combined with `src[p]` by `reduce` (a
/// `CRT_SCATTER_REDUCE_*`) for every position `p` of `index` (PyTorch's `scatter_reduce_`),
/// in place, through memory other handles may share (as `crt_tensor_fill_`). With
/// `include_self` non-zero each target's own value takes part; with 0 a target the index
/// reaches ends as the reduction of the values that reach it alone. Targets not reached keep
/// their value; values combine in row-major order of `index`. `src` is as for
/// `crt_tensor_scatter_`. The mean of a Bool tensor is `CRT_STATUS_INVALID_ARGUMENT`;
/// on any error nothing is written.
///
/// # Safety
/// As for `crt_tensor_fill_`.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_scatter_reduce_(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    src: *const crt_tensor,
    reduce: crt_scatter_reduce,
    include_self: u8,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor| {
        // SAFETY: P1 for `index` and `src`.
        let (i, s) = unsafe { (arg(index, "index")?, arg(src, "src")?) };
        let reduce = reduction(reduce)?;
        // SAFETY: the caller excludes concurrent access to these elements.
        Ok(unsafe {
            ops::scatter_reduce_shared(
                t,
                dim as isize,
                &i.tensor,
                &s.tensor,
                reduce,
                include_self != 0,
            )
        }?)
    };
    // SAFETY: forwarded contract.
    unsafe { in_place(tensor, err, f) }
}

/// A copy of `tensor` with `crt_tensor_scatter_reduce_` applied to it; `tensor` itself is
/// not written. The copy is contiguous, of `tensor`'s shape and dtype.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_scatter_reduce(
    tensor: *const crt_tensor,
    dim: i64,
    index: *const crt_tensor,
    src: *const crt_tensor,
    reduce: crt_scatter_reduce,
    include_self: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let f = |t: &clika_rt::Tensor, i: &clika_rt::Tensor| {
        // SAFETY: P1 for `src`.
        let s = unsafe { arg(src, "src") }?;
        let reduce = reduction(reduce)?;
        Ok(ops::scatter_reduce(
            t,
            dim as isize,
            i,
            &s.tensor,
            reduce,
            include_self != 0,
        )?)
    };
    // SAFETY: forwarded contract.
    unsafe { derive2(tensor, index, out, err, f) }
}
