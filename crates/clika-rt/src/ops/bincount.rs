//! `bincount` (PyTorch's and numpy's): how often each non-negative integer occurs, or the sum
//! of its weights. Counts come from the backend's counting kernel where it has one (the
//! CPU's: `backend/cpu/count.rs`); weights, and backends without one, scatter-add the
//! weights (or ones) into zeros, the scatter kernel's work, run in parallel blocks for a
//! long input (see `backend/cpu/along.rs`), on every device that scatters.

use super::ReduceOp;
use crate::{DType, Error, Result, Tensor};

/// How often each value of the 1-D integer tensor `input` occurs (PyTorch's
/// `torch.bincount`, numpy's `np.bincount`): `out[v]` counts the elements equal to `v`, over
/// `max(input) + 1` bins, or `minlength` if that is more (`minlength` bins for an empty
/// input). With `weights` (one per element of `input`), `out[v]` is the sum of the weights of
/// the elements equal to `v`.
///
/// The result is `Int64` without weights; with them, `Float32` for `Float32` weights and
/// `Float64` for any other dtype, as PyTorch's (numpy's is always `float64`). The input must
/// hold integers (any integer dtype) and no negative value; `Bool` is refused, as PyTorch
/// does (convert with `.to(int64)`). Sums of a long input run in parallel blocks: float
/// sums are the same on any thread count (see [`Tensor::scatter_add_`]).
pub fn bincount(input: &Tensor, weights: Option<&Tensor>, minlength: usize) -> Result<Tensor> {
    const OP: &str = "bincount";
    if input.ndim() != 1 || !input.dtype().is_integer() || input.dtype() == DType::Bool {
        return Err(Error::InvalidArgument {
            what: format!(
                "{OP}: the input must be a 1-D tensor of integers, got {} dims of {}; flatten \
                 it (.reshape(-1)) and convert it with .to(int64)",
                input.ndim(),
                input.dtype()
            ),
        });
    }
    let n = input.numel();
    if let Some(w) = weights {
        if w.shape() != input.shape() {
            return Err(Error::ShapeMismatch {
                op: "bincount (one weight per element of the input)",
                expected: vec![n as i64],
                got: crate::error::dims_i64(w.shape()),
            });
        }
    }
    // The scatter reads Int32 or Int64 indices: the narrow integer dtypes widen only to
    // Int32 (half the memory of Int64), and Int32/Int64 inputs are read as they are.
    let dt = input.dtype();
    let unsigned = matches!(
        dt,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64
    );
    let mut bins = minlength;
    // The values' bits as unsigned integers of their width: non-negative values read the
    // same, a negative one as more than its dtype's largest.
    let bits = input
        .as_unsigned_bits()
        .expect("an integer dtype (checked)");
    if n > 0 {
        // One pass: the largest value. A negative value of a signed dtype reads as more than
        // the dtype's largest, which a second pass then names.
        let highest = super::reduce(ReduceOp::Max, &bits, None, false)?.item::<u64>()?;
        let signed_max = (1u64 << (8 * dt.size() - 1)) - 1;
        if !unsigned && highest > signed_max {
            let lowest = super::reduce(ReduceOp::Min, input, None, false)?.item::<i64>()?;
            return Err(Error::InvalidArgument {
                what: format!(
                    "{OP}: the input holds the negative value {lowest}; it counts \
                     non-negative integers only (shift the values, or keep the \
                     non-negative ones with masked_select)"
                ),
            });
        }
        let past = || Error::InvalidArgument {
            what: format!(
                "{OP}: the input holds {highest}, past int64's range (and any memory's) as a \
                 number of bins; keep the smaller values with masked_select"
            ),
        };
        if highest > i64::MAX as u64 {
            return Err(past());
        }
        let needed = usize::try_from(highest).map_err(|_| past())?;
        bins = bins.max(needed.checked_add(1).ok_or_else(past)?);
    }
    if weights.is_none() {
        // Every value is now known to lie in `0..bins`.
        if let Some(counts) = crate::backend::backend(input.device())?.count_values(&bits, bins)? {
            return Ok(counts);
        }
    }
    let index = match dt {
        DType::Int32 | DType::Int64 => input.clone(),
        DType::UInt32 | DType::UInt64 => input.to_dtype(DType::Int64)?,
        _ => input.to_dtype(DType::Int32)?,
    };
    let (dtype, values) = match weights {
        None => (DType::Int64, Tensor::from_data(&[1i64], &[])?),
        Some(w) => {
            let dtype = if w.dtype() == DType::Float32 {
                DType::Float32
            } else {
                DType::Float64
            };
            (dtype, w.to_dtype(dtype)?)
        }
    };
    let out = Tensor::zeros(&[bins], dtype)?.to(input.device())?;
    let values = values.to(input.device())?;
    // SAFETY: `out` is a fresh tensor nobody else sees.
    unsafe { super::scatter_add_shared(&out, 0, &index, &values)? };
    Ok(out)
}

/// A histogram of `input`'s values in `bins` equal bins over `[min, max]` (PyTorch's
/// `torch.histc`): `out[b]` counts the elements `x` with `min <= x <= max` whose
/// `⌊(x − min) · bins / (max − min)⌋` is `b`, `max` itself in the last bin; elements outside
/// the range, and NaN, count nowhere. The input may have any shape (all its elements count)
/// and must be of a float dtype (as PyTorch's; convert integers with `.to(float32)`); the
/// result has its dtype, shape `[bins]`.
///
/// With `min == max` (PyTorch's default `0, 0`), the range is the data's smallest and largest
/// value, and if those are equal, one either side of it. The bin position is computed in
/// `f64` (PyTorch computes in the input's precision, so a value within its rounding of a bin
/// edge may land in the neighbouring bin there). Errors: `bins == 0`, `min > max`, and a
/// range that is not finite (NaN or infinity in the data when the range comes from it).
pub fn histc(input: &Tensor, bins: usize, min: f64, max: f64) -> Result<Tensor> {
    const OP: &str = "histc";
    if !input.dtype().is_float() {
        return Err(Error::InvalidArgument {
            what: format!(
                "{OP}: the input must be of a float dtype, got {}; convert it with \
                 .to(float32) (or use bincount for non-negative integers)",
                input.dtype()
            ),
        });
    }
    if bins == 0 {
        return Err(Error::InvalidArgument {
            what: format!("{OP}: bins must be at least 1, got 0"),
        });
    }
    if min > max {
        return Err(Error::InvalidArgument {
            what: format!("{OP}: max ({max}) must not be less than min ({min}); swap them"),
        });
    }
    let (mut lo, mut hi) = (min, max);
    if lo == hi && input.numel() > 0 {
        lo = super::reduce(ReduceOp::Min, input, None, false)?.item::<f64>()?;
        hi = super::reduce(ReduceOp::Max, input, None, false)?.item::<f64>()?;
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(Error::InvalidArgument {
            what: format!(
                "{OP}: the range [{lo}, {hi}] is not finite; pass a finite min and max (the \
                 data's own range holds a NaN or an infinity)"
            ),
        });
    }
    if lo == hi {
        (lo, hi) = (lo - 1.0, hi + 1.0);
    }
    let flat = input.reshape(&[-1])?;
    let counts =
        crate::backend::backend(input.device())?.histogram_values(&flat, bins, (lo, hi))?;
    counts.to_dtype(input.dtype())
}
