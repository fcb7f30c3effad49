//! `bincount` (PyTorch's and numpy's): how often each non-negative integer occurs, or the sum
//! of its weights. A scatter-add of ones (or of the weights) into zeros, so it is the
//! scatter kernel's work, run in parallel blocks for a long input (see
//! `backend/cpu/along.rs`), on every device that scatters.

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
    let index = input.to_dtype(DType::Int64)?;
    let mut bins = minlength;
    if n > 0 {
        let lowest = super::reduce(ReduceOp::Min, &index, None, false)?.item::<i64>()?;
        if lowest < 0 {
            // (A UInt64 value past int64's range reads as negative here.)
            let what = if input.dtype() == DType::UInt64 {
                "a value past int64's range".to_string()
            } else {
                format!("the negative value {lowest}")
            };
            return Err(Error::InvalidArgument {
                what: format!(
                    "{OP}: the input holds {what}; it counts non-negative integers only (shift \
                     the values, or keep the non-negative ones with masked_select)"
                ),
            });
        }
        let highest = super::reduce(ReduceOp::Max, &index, None, false)?.item::<i64>()?;
        let needed = usize::try_from(highest).map_err(|_| Error::OutOfRange {
            what: "bincount: the largest value as a bin count",
            value: highest.to_string(),
        })?;
        bins = bins.max(needed.checked_add(1).ok_or_else(|| Error::OutOfRange {
            what: "bincount: the largest value as a bin count",
            value: highest.to_string(),
        })?);
    }
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
