//! `linear` and `pad` (PyTorch's `torch.nn.functional.linear` and `pad`), composed from
//! existing ops so every device that has `matmul`/`add` and `index_select`/`cat` runs them.

use crate::ops::{add, cat, index_select, matmul};
use crate::{Error, Result, Tensor};

/// `x @ weight.T + bias`: `weight` is `[out_features, in_features]` (or `[in_features]`),
/// `bias` `[out_features]`; `x`'s leading dims are batch dims.
pub fn linear(x: &Tensor, weight: &Tensor, bias: Option<&Tensor>) -> Result<Tensor> {
    if weight.ndim() == 0 || weight.ndim() > 2 {
        return Err(Error::InvalidArgument {
            what: format!(
                "linear: the weight must be [out_features, in_features] or [in_features], got \
                 shape {:?}",
                weight.shape()
            ),
        });
    }
    let y = matmul(x, &weight.t())?;
    match bias {
        Some(b) => add(&y, b),
        None => Ok(y),
    }
}

/// How [`pad`] fills the new elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMode {
    /// A constant value; negative pads crop.
    Constant,
    /// The mirror image without the edge (`d c b | a b c d | c b a`); pads below the size.
    Reflect,
    /// The edge repeated (`a a | a b c d | d d`).
    Replicate,
    /// The other end (`c d | a b c d | a b`); pads at most the size.
    Circular,
}

impl PadMode {
    fn name(self) -> &'static str {
        match self {
            PadMode::Constant => "constant",
            PadMode::Reflect => "reflect",
            PadMode::Replicate => "replicate",
            PadMode::Circular => "circular",
        }
    }
}

/// Pads `x` like PyTorch's `pad`: `pads` holds (before, after) pairs starting from the last
/// dim (`[left, right, top, bottom, ..]`), at most `2 * x.ndim()` values. `value` fills the
/// constant mode (converted to `x`'s dtype). Any number of leading dims is accepted in every
/// mode (PyTorch limits the non-constant modes to a batch and channel dim).
pub fn pad(x: &Tensor, pads: &[isize], mode: PadMode, value: f64) -> Result<Tensor> {
    if !pads.len().is_multiple_of(2) || pads.len() > 2 * x.ndim() {
        return Err(Error::InvalidArgument {
            what: format!(
                "pad: pads must hold (before, after) pairs for at most {} dims, got {} values",
                x.ndim(),
                pads.len()
            ),
        });
    }
    let mut out = x.clone();
    for (i, pair) in pads.chunks(2).enumerate() {
        let dim = x.ndim() - 1 - i;
        out = pad_dim(&out, dim, pair[0], pair[1], mode, value)?;
    }
    Ok(out)
}

fn pad_dim(
    x: &Tensor,
    dim: usize,
    before: isize,
    after: isize,
    mode: PadMode,
    value: f64,
) -> Result<Tensor> {
    let n = x.shape()[dim] as isize;
    if mode == PadMode::Constant {
        // Crop first (negative pads), then add constant slabs.
        let (cb, ca) = (before.min(0).unsigned_abs(), after.min(0).unsigned_abs());
        if cb + ca > n as usize {
            return Err(Error::InvalidArgument {
                what: format!("pad: cropping {} elements from a dim of {n}", cb + ca),
            });
        }
        let core = x.narrow(dim as isize, cb as isize, n as usize - cb - ca)?;
        let (b, a) = (before.max(0) as usize, after.max(0) as usize);
        if b == 0 && a == 0 {
            return Ok(core);
        }
        let slab = |len: usize| -> Result<Tensor> {
            let mut shape = x.shape().to_vec();
            shape[dim] = len;
            Tensor::full(&shape, value, x.dtype())?.to(x.device())
        };
        let mut parts = Vec::with_capacity(3);
        if b > 0 {
            parts.push(slab(b)?);
        }
        parts.push(core);
        if a > 0 {
            parts.push(slab(a)?);
        }
        return cat(&parts, dim as isize);
    }
    if before < 0 || after < 0 {
        return Err(Error::InvalidArgument {
            what: format!(
                "pad: negative pads crop only in constant mode, not {}",
                mode.name()
            ),
        });
    }
    let limit_ok = match mode {
        PadMode::Reflect => before < n && after < n,
        PadMode::Circular => before <= n && after <= n,
        _ => n > 0,
    };
    if !limit_ok {
        return Err(Error::InvalidArgument {
            what: format!(
                "pad: {} padding of ({before}, {after}) on a dim of size {n} is out of range \
                 (reflect needs pads below the size, circular at most the size, replicate a \
                 non-empty dim)",
                mode.name()
            ),
        });
    }
    let idx: Vec<i64> = (-before..n + after)
        .map(|i| match mode {
            PadMode::Reflect => {
                let r = if i < 0 { -i } else { i };
                if r >= n {
                    2 * (n - 1) - r
                } else {
                    r
                }
            }
            PadMode::Replicate => i.clamp(0, n - 1),
            _ => i.rem_euclid(n),
        } as i64)
        .collect();
    let len = idx.len();
    let idx = Tensor::from_vec(idx, &[len])?.to(x.device())?;
    index_select(x, dim as isize, &idx)
}
