//! Sorting and selection (two results: values and `Int64` indices, through two out
//! handles), scans, `roll`, the composed reductions (`any`, `all`, `logsumexp`, `norm`),
//! `unique`, creation (`linspace`, `logspace`, `eye`, `full_like`) and random tensors from
//! a `crt_generator`.

use clika_rt::ops::{self, ValuesIndices};
use clika_rt::tensor::random::default_generator;
use clika_rt::{Generator, Tensor};

use crate::boundary::guard;
use crate::error::{crt_error, crt_status, CapiError};
use crate::ffi::{arg, into_handle, take_box, Out};
use crate::tensor::{create, crt_tensor, derive, sizes};
use crate::types::{self, crt_dtype};
use crate::views::{isz, isz_list};

/// Writes `f(tensor)`'s values and indices to two new handles (both NULL on failure).
///
/// # Safety
/// `t` satisfies P1; `values`, `indices` and `err` satisfy P2.
unsafe fn pair(
    t: *const crt_tensor,
    values: *mut *mut crt_tensor,
    indices: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor) -> Result<ValuesIndices, CapiError>,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for both out-pointers, P1 for `t` (the caller's contract).
        let (v, i, t) = unsafe {
            (
                Out::handle(values, "values")?,
                Out::handle(indices, "indices")?,
                arg(t, "tensor")?,
            )
        };
        let r = f(&t.tensor)?;
        v.write(into_handle(crt_tensor::new(r.values)));
        i.write(into_handle(crt_tensor::new(r.indices)));
        Ok(())
    })
}

fn count(v: i64, what: &'static str) -> Result<usize, CapiError> {
    usize::try_from(v).map_err(|_| {
        clika_rt::Error::OutOfRange {
            what,
            value: v.to_string(),
        }
        .into()
    })
}

/// Sorts along `dim` (ascending puts NaN last; non-zero `descending` puts it first); ties
/// keep their order, so every sort is stable and `stable` is accepted for symmetry.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_sort(
    tensor: *const crt_tensor,
    dim: i64,
    descending: u8,
    stable: u8,
    values: *mut *mut crt_tensor,
    indices: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(tensor, values, indices, err, |t| {
            Ok(ops::sort(
                t,
                isz(dim, "dim")?,
                descending != 0,
                stable != 0,
            )?)
        })
    }
}

/// The `k` largest (`largest` non-zero) or smallest elements along `dim`, in order when
/// `sorted` is non-zero.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_topk(
    tensor: *const crt_tensor,
    k: i64,
    dim: i64,
    largest: u8,
    sorted: u8,
    values: *mut *mut crt_tensor,
    indices: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(tensor, values, indices, err, |t| {
            let (k, dim) = (count(k, "k")?, isz(dim, "dim")?);
            Ok(ops::topk(t, k, dim, largest != 0, sorted != 0)?)
        })
    }
}

/// The `k`-th smallest element (1-based) along `dim`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_kthvalue(
    tensor: *const crt_tensor,
    k: i64,
    dim: i64,
    keepdim: u8,
    values: *mut *mut crt_tensor,
    indices: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(tensor, values, indices, err, |t| {
            let (k, dim) = (count(k, "k")?, isz(dim, "dim")?);
            Ok(ops::kthvalue(t, k, dim, keepdim != 0)?)
        })
    }
}

/// `which`: 0 the lower median, 1 the maximum, 2 the minimum along `dim`, with the index
/// of the (first) element chosen.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_select_dim(
    tensor: *const crt_tensor,
    which: u32,
    dim: i64,
    keepdim: u8,
    values: *mut *mut crt_tensor,
    indices: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        pair(tensor, values, indices, err, |t| {
            let (dim, keep) = (isz(dim, "dim")?, keepdim != 0);
            Ok(match which {
                0 => ops::median_dim(t, dim, keep)?,
                1 => ops::max_dim(t, dim, keep)?,
                2 => ops::min_dim(t, dim, keep)?,
                w => {
                    return Err(clika_rt::Error::InvalidArgument {
                        what: format!(
                            "select_dim: which = {w}; pass 0 (median), 1 (max) or 2 (min)"
                        ),
                    }
                    .into())
                }
            })
        })
    }
}

/// The lower median of all elements (0-d; NaN when there is one).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_median(
    tensor: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe { derive(tensor, out, err, |t| Ok(ops::median(t)?)) }
}

/// `which`: 0 `any`, 1 `all`, 2 `logsumexp`, 3 the `p`-norm (`p` may be ±infinity) — over
/// the `ndims` dims in `dims`, or over every element when `all_dims` is non-zero.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_reduce_more(
    tensor: *const crt_tensor,
    which: u32,
    p: f64,
    dims: *const i64,
    ndims: usize,
    all_dims: u8,
    keepdim: u8,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let dims = isz_list(dims, ndims, "dims")?;
            let dims = (all_dims == 0).then_some(&dims[..]);
            let keep = keepdim != 0;
            Ok(match which {
                0 => ops::any(t, dims, keep)?,
                1 => ops::all(t, dims, keep)?,
                2 => ops::logsumexp(t, dims, keep)?,
                3 => ops::norm(t, p, dims, keep)?,
                w => {
                    return Err(clika_rt::Error::InvalidArgument {
                        what: format!(
                            "reduce_more: which = {w}; pass 0 (any), 1 (all), 2 (logsumexp) or 3 (norm)"
                        ),
                    }
                    .into())
                }
            })
        })
    }
}

/// The running sum (`product` zero) or product along `dim`; integers and bools give Int64
/// (UInt64 gives UInt64).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_cumulative(
    tensor: *const crt_tensor,
    product: u8,
    dim: i64,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    let op = match product {
        0 => ops::ScanOp::Sum,
        _ => ops::ScanOp::Prod,
    };
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(ops::scan(op, t, isz(dim, "dim")?, None)?)
        })
    }
}

/// Shifts by `shifts[i]` along `dims[i]`, wrapping around; with `ndims` 0 the flattened
/// tensor rolls by the one shift.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_roll(
    tensor: *const crt_tensor,
    shifts: *const i64,
    nshifts: usize,
    dims: *const i64,
    ndims: usize,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            let s = isz_list(shifts, nshifts, "shifts")?;
            let d = isz_list(dims, ndims, "dims")?;
            Ok(ops::roll(t, &s, &d)?)
        })
    }
}

/// The sorted distinct elements (1-D); `inverse` (the input's shape) and `counts` are
/// written when non-NULL.
///
/// # Safety
/// The header's pointer contract; `inverse` and `counts` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_unique(
    tensor: *const crt_tensor,
    values: *mut *mut crt_tensor,
    inverse: *mut *mut crt_tensor,
    counts: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        unique_with(tensor, values, inverse, counts, err, |t, i, c| {
            ops::unique(t, true, i, c)
        })
    }
}

/// The distinct slices along `dim` in lexicographic order (every dimension kept, `dim`
/// holding the distinct slices); `inverse` (`[size of dim]`: each input slice's index in
/// `values`) and `counts` are written when non-NULL. A slice containing NaN equals no other.
///
/// # Safety
/// The header's pointer contract; `inverse` and `counts` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_unique_dim(
    tensor: *const crt_tensor,
    dim: i64,
    values: *mut *mut crt_tensor,
    inverse: *mut *mut crt_tensor,
    counts: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        unique_with(tensor, values, inverse, counts, err, |t, i, c| {
            ops::unique_dim(t, dim as isize, i, c)
        })
    }
}

/// Runs a `unique` form and writes its results to the out-pointers given (the optional ones
/// may be NULL: then that result is not computed).
///
/// # Safety
/// P1 for `tensor`, P2 for `values`, `err` and each non-NULL optional output.
unsafe fn unique_with(
    tensor: *const crt_tensor,
    values: *mut *mut crt_tensor,
    inverse: *mut *mut crt_tensor,
    counts: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
    f: impl FnOnce(&Tensor, bool, bool) -> clika_rt::Result<ops::Unique>,
) -> crt_status {
    guard(err, || {
        // SAFETY: P1/P2 (the caller's contract); NULL optional outputs are skipped.
        let (v, t) = unsafe { (Out::handle(values, "values")?, arg(tensor, "tensor")?) };
        let inv = if inverse.is_null() {
            None
        } else {
            // SAFETY: P2 for a non-NULL `inverse`.
            Some(unsafe { Out::handle(inverse, "inverse") }?)
        };
        let cnt = if counts.is_null() {
            None
        } else {
            // SAFETY: P2 for a non-NULL `counts`.
            Some(unsafe { Out::handle(counts, "counts") }?)
        };
        let u = f(&t.tensor, inv.is_some(), cnt.is_some())?;
        v.write(into_handle(crt_tensor::new(u.values)));
        if let (Some(o), Some(x)) = (inv, u.inverse) {
            o.write(into_handle(crt_tensor::new(x)));
        }
        if let (Some(o), Some(x)) = (cnt, u.counts) {
            o.write(into_handle(crt_tensor::new(x)));
        }
        Ok(())
    })
}

/// `steps` evenly spaced values from `start` to `end` inclusive; with `log_base` non-zero,
/// `log_base ** value` (logspace).
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_linspace(
    start: f64,
    end: f64,
    steps: i64,
    log_base: f64,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let (n, d) = (count(steps, "steps")?, types::dtype(dtype)?);
            Ok(if log_base == 0.0 {
                Tensor::linspace(start, end, n, d)?
            } else {
                Tensor::logspace(start, end, n, log_base, d)?
            })
        })
    }
}

/// An `n × m` identity matrix.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_eye(
    n: i64,
    m: i64,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let (n, m) = (count(n, "n")?, count(m, "m")?);
            Ok(Tensor::eye(n, Some(m), types::dtype(dtype)?)?)
        })
    }
}

/// A tensor of `tensor`'s shape and device, of `dtype`, filled with `value`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_full_like(
    tensor: *const crt_tensor,
    value: f64,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(tensor, out, err, |t| {
            Ok(t.full_like(value, Some(types::dtype(dtype)?), None)?)
        })
    }
}

/// A seedable counter-based random generator (Philox4x32-10): a call's values depend only
/// on the seed, the number of calls since seeding and each element's index.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
#[derive(Debug)]
pub struct crt_generator {
    inner: Generator,
}

/// A new generator seeded with `seed`; free it with `crt_generator_free`.
///
/// # Safety
/// The header's pointer contract.
#[no_mangle]
pub unsafe extern "C" fn crt_generator_new(
    seed: u64,
    out: *mut *mut crt_generator,
    err: *mut *mut crt_error,
) -> crt_status {
    guard(err, || {
        // SAFETY: P2 for `out`.
        let out = unsafe { Out::handle(out, "out") }?;
        out.write(into_handle(crt_generator {
            inner: Generator::new(seed),
        }));
        Ok(())
    })
}

/// Frees a generator (NULL is ignored).
///
/// # Safety
/// `generator` is NULL or a live handle nobody uses afterwards.
#[no_mangle]
pub unsafe extern "C" fn crt_generator_free(generator: *mut crt_generator) {
    // SAFETY: the caller's contract.
    drop(unsafe { take_box(generator) });
}

/// Reseeds `generator`, or the process-wide default generator when it is NULL.
///
/// # Safety
/// `generator` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn crt_generator_manual_seed(generator: *mut crt_generator, seed: u64) {
    // SAFETY: the caller's contract.
    generator_of(unsafe { generator.as_ref() }).manual_seed(seed);
}

fn generator_of(g: Option<&crt_generator>) -> &Generator {
    match g {
        Some(g) => &g.inner,
        None => default_generator(),
    }
}

/// `which`: 0 uniform in `[a, b)`, 1 normal with mean `a` and standard deviation `b`,
/// 2 integers in `[a, b)` (truncated to integers), 3 ones with probability `a` — of `shape`
/// and `dtype` on the CPU, from `generator` (NULL: the default generator).
///
/// # Safety
/// The header's pointer contract; `generator` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_random(
    generator: *mut crt_generator,
    which: u32,
    a: f64,
    b: f64,
    shape: *const i64,
    ndim: usize,
    dtype: crt_dtype,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        create(out, err, || {
            let g = generator_of(generator.as_ref());
            let shape = sizes(crate::ffi::dims(shape, ndim, "shape")?)?;
            let d = types::dtype(dtype)?;
            let cpu = clika_rt::Device::cpu();
            Ok(match which {
                0 => g.uniform(&shape, a, b, d, cpu)?,
                1 => g.normal(&shape, a, b, d, cpu)?,
                2 => g.randint(a as i64, b as i64, &shape, d, cpu)?,
                3 => g.bernoulli_p(&shape, a, d, cpu)?,
                w => {
                    return Err(clika_rt::Error::InvalidArgument {
                        what: format!(
                            "random: which = {w}; pass 0 (uniform), 1 (normal), 2 (randint) or 3 (bernoulli)"
                        ),
                    }
                    .into())
                }
            })
        })
    }
}

/// Ones with probability `probs[i]`, zeros otherwise (`probs`' shape, dtype and device).
///
/// # Safety
/// The header's pointer contract; `generator` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn crt_tensor_bernoulli(
    generator: *mut crt_generator,
    probs: *const crt_tensor,
    out: *mut *mut crt_tensor,
    err: *mut *mut crt_error,
) -> crt_status {
    // SAFETY: forwarded contract.
    unsafe {
        derive(probs, out, err, |t| {
            Ok(generator_of(generator.as_ref()).bernoulli(t)?)
        })
    }
}
