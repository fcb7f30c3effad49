//! `linear` and `pad` (PyTorch's `torch.nn.functional.linear` and `pad`). `linear` is
//! composed from `matmul`/`add`; `pad` runs a backend's one-pass kernel where it has one
//! (the CPU), else is composed from `index_select`/`cat`, so every device runs both.

use crate::backend::backend;
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
    let nd = x.ndim();
    let mut pairs = vec![(0, 0); nd];
    for (i, pair) in pads.chunks(2).enumerate() {
        pairs[nd - 1 - i] = (pair[0], pair[1]);
    }
    let maps = pairs
        .iter()
        .zip(x.shape())
        .map(|(&(before, after), &n)| dim_map(n, before, after, mode))
        .collect::<Result<Vec<_>>>()?;
    let plan = PadPlan {
        x: x.clone(),
        maps,
        value,
    };
    if let Some(r) = backend(x.device())?.pad(&plan) {
        return r;
    }
    // Composed, one padded dim at a time: constant slabs and `cat`, or an `index_select`.
    let mut out = x.clone();
    for (dim, &(before, after)) in pairs.iter().enumerate().rev() {
        if (before, after) == (0, 0) {
            continue;
        }
        out = if mode == PadMode::Constant {
            pad_constant(&out, dim, before, after, value)?
        } else {
            let map = &plan.maps[dim];
            let idx = Tensor::from_vec(map.clone(), &[map.len()])?.to(x.device())?;
            index_select(&out, dim as isize, &idx)?
        };
    }
    Ok(out)
}

/// A planned [`pad`]: output position `i` of dim `d` reads input position `maps[d][i]`, or
/// is the constant `value` where that is `-1` (the constant mode's new elements).
pub(crate) struct PadPlan {
    pub(crate) x: Tensor,
    pub(crate) maps: Vec<Vec<i64>>,
    pub(crate) value: f64,
}

/// The input position of every output position of a dim of `n` padded by `before` and
/// `after` (`-1`: the constant), after checking the pads against `mode`.
fn dim_map(n: usize, before: isize, after: isize, mode: PadMode) -> Result<Vec<i64>> {
    if (before, after) == (0, 0) {
        return Ok((0..n as i64).collect());
    }
    let n = n as isize;
    if mode == PadMode::Constant {
        let crop = before.min(0).unsigned_abs() + after.min(0).unsigned_abs();
        if crop > n as usize {
            return Err(Error::InvalidArgument {
                what: format!("pad: cropping {crop} elements from a dim of {n}"),
            });
        }
        return Ok((-before..n + after)
            .map(|i| if (0..n).contains(&i) { i as i64 } else { -1 })
            .collect());
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
    Ok((-before..n + after)
        .map(|i| match mode {
            PadMode::Reflect => {
                let r = i.abs();
                if r >= n {
                    2 * (n - 1) - r
                } else {
                    r
                }
            }
            PadMode::Replicate => i.clamp(0, n - 1),
            _ => i.rem_euclid(n),
        } as i64)
        .collect())
}

/// The constant mode along one dim: crop first (negative pads), then add constant slabs.
fn pad_constant(x: &Tensor, dim: usize, before: isize, after: isize, value: f64) -> Result<Tensor> {
    let n = x.shape()[dim];
    let (cb, ca) = (before.min(0).unsigned_abs(), after.min(0).unsigned_abs());
    let core = x.narrow(dim as isize, cb as isize, n - cb - ca)?;
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
    cat(&parts, dim as isize)
}
