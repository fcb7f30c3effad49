//! The normalization layers (PyTorch's `layer_norm`, `group_norm` and inference-mode
//! `batch_norm`). All three normalize rows of contiguous elements and then scale and shift
//! them per position or per channel, so one plan ([`NormPlan`]) describes them: the rows, where
//! their statistics come from (computed from the row, or the running statistics of the row's
//! channel), and which weight and bias element each position takes.

use super::{run, VisionPlan};
use crate::ops::float_type;
use crate::{DType, Error, Result, Tensor};

/// Where a row's mean and variance come from.
#[derive(Clone, Debug)]
pub(crate) enum NormStats {
    /// From the row itself (biased variance, as PyTorch).
    Row,
    /// The running statistics of channel `row % channels` (`[C]` each, float64).
    Running { mean: Box<Tensor>, var: Box<Tensor> },
}

/// A normalization planned for every backend: `x` (contiguous, the result's dtype) seen as
/// `rows` rows of `len` elements; element `i` of row `r` uses weight/bias element
/// `(r % groups) * per_group + i / repeat`.
pub(crate) struct NormPlan {
    pub(crate) name: &'static str,
    pub(crate) x: Tensor,
    pub(crate) rows: usize,
    pub(crate) len: usize,
    pub(crate) stats: NormStats,
    pub(crate) eps: f64,
    /// Weight and bias in the result's dtype, flattened (`None`: 1 and 0).
    pub(crate) weight: Option<Tensor>,
    pub(crate) bias: Option<Tensor>,
    pub(crate) groups: usize,
    pub(crate) per_group: usize,
    pub(crate) repeat: usize,
}

fn bad(op: &str, what: String) -> Error {
    Error::InvalidArgument {
        what: format!("{op}: {what}"),
    }
}

/// `t` flattened to `n` elements of `dtype` (a weight, bias or statistic), or an error
/// naming the shape it must have.
fn param(op: &str, what: &str, t: &Tensor, n: usize, want: &str, dtype: DType) -> Result<Tensor> {
    if t.numel() != n || t.ndim() == 0 {
        return Err(bad(
            op,
            format!(
                "{what} must have {want} ({n} elements), got shape {:?}",
                t.shape()
            ),
        ));
    }
    t.reshape(&[n as isize])?.to_dtype(dtype)?.contiguous()
}

fn check_eps(op: &str, eps: f64) -> Result<()> {
    if eps.is_finite() && eps >= 0.0 {
        Ok(())
    } else {
        Err(bad(
            op,
            format!("eps must be finite and non-negative, got {eps}"),
        ))
    }
}

/// `x` as the contiguous float tensor the kernels read (integers refused).
fn input(op: &str, x: &Tensor) -> Result<Tensor> {
    if !x.dtype().is_float() {
        return Err(bad(
            op,
            format!(
                "a {} input is not supported; convert it with .to_dtype({}) first",
                x.dtype(),
                float_type(x.dtype())
            ),
        ));
    }
    x.contiguous()
}

/// Normalizes the last `normalized_shape.len()` dims of `x` (they must equal
/// `normalized_shape`) to zero mean and unit variance, then scales by `weight` and shifts by
/// `bias` (each of `normalized_shape`, optional): PyTorch's `layer_norm`. The result has `x`'s
/// (float) dtype.
pub fn layer_norm(
    x: &Tensor,
    normalized_shape: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let op = "layer_norm";
    check_eps(op, eps)?;
    let k = normalized_shape.len();
    if k == 0 || k > x.ndim() || x.shape()[x.ndim() - k..] != *normalized_shape {
        return Err(bad(
            op,
            format!(
                "normalized_shape {normalized_shape:?} must be non-empty and equal the last dims \
                 of the input, shape {:?}",
                x.shape()
            ),
        ));
    }
    let len: usize = normalized_shape.iter().product();
    let xc = input(op, x)?;
    let want = format!("shape {normalized_shape:?}");
    let p = |t: Option<&Tensor>, what| {
        t.map(|t| {
            if t.shape() != normalized_shape {
                return Err(bad(
                    op,
                    format!("{what} must have {want}, got shape {:?}", t.shape()),
                ));
            }
            param(op, what, t, len, &want, x.dtype())
        })
        .transpose()
    };
    let plan = NormPlan {
        name: op,
        rows: x.numel().checked_div(len).unwrap_or(0),
        len,
        stats: NormStats::Row,
        eps,
        weight: p(weight, "weight")?,
        bias: p(bias, "bias")?,
        groups: 1,
        per_group: 0,
        repeat: 1,
        x: xc,
    };
    finish(plan, x)
}

/// The channels (dim 1) and the elements per channel and image of `x` (`[N, C, *]`).
fn channels(op: &str, x: &Tensor) -> Result<(usize, usize, usize)> {
    if x.ndim() < 2 {
        return Err(bad(
            op,
            format!("the input must be [N, C, *], got shape {:?}", x.shape()),
        ));
    }
    let (n, c) = (x.shape()[0], x.shape()[1]);
    Ok((n, c, x.shape()[2..].iter().product()))
}

/// Splits the channels of `x` (`[N, C, *]`) into `num_groups` groups, normalizes each group of
/// each image, then scales and shifts per channel (`weight`, `bias`: `[C]`, optional):
/// PyTorch's `group_norm`.
pub fn group_norm(
    x: &Tensor,
    num_groups: usize,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let op = "group_norm";
    check_eps(op, eps)?;
    let (n, c, s) = channels(op, x)?;
    if num_groups == 0 || !c.is_multiple_of(num_groups) {
        return Err(bad(
            op,
            format!("the {c} channels must divide into num_groups ({num_groups}) equal groups"),
        ));
    }
    let xc = input(op, x)?;
    let want = format!("shape [{c}]");
    let p = |t: Option<&Tensor>, what| {
        t.map(|t| param(op, what, t, c, &want, x.dtype()))
            .transpose()
    };
    let cpg = c / num_groups;
    let plan = NormPlan {
        name: op,
        rows: n * num_groups,
        len: cpg * s,
        stats: NormStats::Row,
        eps,
        weight: p(weight, "weight")?,
        bias: p(bias, "bias")?,
        groups: num_groups,
        per_group: cpg,
        repeat: s.max(1),
        x: xc,
    };
    finish(plan, x)
}

/// Normalizes each channel of `x` (`[N, C, *]`) with the running statistics
/// (`running_mean`, `running_var`: `[C]`), then scales and shifts per channel: PyTorch's
/// `batch_norm` in inference mode (`training=False`; the running statistics are read, not
/// updated).
pub fn batch_norm(
    x: &Tensor,
    running_mean: &Tensor,
    running_var: &Tensor,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let op = "batch_norm";
    check_eps(op, eps)?;
    let (n, c, s) = channels(op, x)?;
    let xc = input(op, x)?;
    let want = format!("shape [{c}]");
    let p = |t: Option<&Tensor>, what, d| t.map(|t| param(op, what, t, c, &want, d)).transpose();
    let plan = NormPlan {
        name: op,
        rows: n * c,
        len: s,
        stats: NormStats::Running {
            mean: Box::new(param(
                op,
                "running_mean",
                running_mean,
                c,
                &want,
                DType::Float64,
            )?),
            var: Box::new(param(
                op,
                "running_var",
                running_var,
                c,
                &want,
                DType::Float64,
            )?),
        },
        eps,
        weight: p(weight, "weight", x.dtype())?,
        bias: p(bias, "bias", x.dtype())?,
        groups: c,
        per_group: 1,
        repeat: s.max(1),
        x: xc,
    };
    finish(plan, x)
}

fn finish(plan: NormPlan, x: &Tensor) -> Result<Tensor> {
    let stats = match &plan.stats {
        NormStats::Running { mean, var } => vec![&**mean, &**var],
        NormStats::Row => vec![],
    };
    for t in [&plan.weight, &plan.bias]
        .into_iter()
        .flatten()
        .chain(stats)
    {
        if t.device() != x.device() {
            return Err(Error::DeviceMismatch {
                op: plan.name,
                expected: x.device(),
                got: t.device(),
            });
        }
    }
    let out = run(&VisionPlan::Norm(Box::new(plan)))?;
    out.reshape(&x.shape().iter().map(|&d| d as isize).collect::<Vec<_>>())
}
