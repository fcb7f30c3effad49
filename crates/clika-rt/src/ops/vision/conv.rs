//! `conv1d` and `conv2d` (PyTorch's `torch.nn.functional.conv1d/conv2d`): stride, padding
//! (explicit, `"same"`, `"valid"`), dilation, groups (depthwise included) and bias.

use super::{batched, per_dim, run, VisionPlan};
use crate::ops::{float_type, result_type};
use crate::{DType, Error, Result, Tensor};

/// The padding of a convolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Padding {
    /// No padding (PyTorch's `"valid"`).
    Valid,
    /// The output has the input's size (PyTorch's `"same"`; stride 1 only). An odd total
    /// padding puts the extra element at the end, as PyTorch does.
    Same,
    /// Zeros added on both sides of each spatial dim: one value for all dims or one per dim.
    Explicit(Vec<usize>),
}

/// The options of a convolution; every per-dim list holds one value for all spatial dims or
/// one per dim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvOptions {
    /// The step between windows (default 1).
    pub stride: Vec<usize>,
    /// The padding (default none).
    pub padding: Padding,
    /// The spacing between kernel taps (default 1).
    pub dilation: Vec<usize>,
    /// The number of groups: input and output channels must both be divisible by it; equal
    /// to the input channels for a depthwise convolution (default 1).
    pub groups: usize,
}

impl Default for ConvOptions {
    fn default() -> Self {
        ConvOptions {
            stride: vec![1],
            padding: Padding::Explicit(vec![0]),
            dilation: vec![1],
            groups: 1,
        }
    }
}

/// A 2-D convolution planned for every backend.
pub(crate) struct ConvPlan {
    /// The input, `[N, C, H, W]`.
    pub(crate) x: Tensor,
    /// The weight, `[O, C / groups, KH, KW]`.
    pub(crate) w: Tensor,
    /// The bias, `[O]`.
    pub(crate) bias: Option<Tensor>,
    pub(crate) stride: [usize; 2],
    /// Padding before the first row and column (the end padding is implied by the output size).
    pub(crate) pad: [usize; 2],
    pub(crate) dilation: [usize; 2],
    pub(crate) groups: usize,
    /// The output size `[Ho, Wo]`.
    pub(crate) out_hw: [usize; 2],
    /// The result's dtype (the inputs' promoted floating dtype).
    pub(crate) dtype: DType,
}

/// A 2-D convolution of `x` (`[N, C, H, W]` or `[C, H, W]`) with `weight`
/// (`[O, C / groups, KH, KW]`) plus `bias` (`[O]`), PyTorch's `conv2d` (a cross-correlation).
/// The result has the inputs' promoted floating dtype (integers compute in `Float32`).
pub fn conv2d(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvOptions,
) -> Result<Tensor> {
    conv("conv2d", x, weight, bias, opts, 2)
}

/// A 1-D convolution of `x` (`[N, C, L]` or `[C, L]`) with `weight` (`[O, C / groups, K]`)
/// plus `bias`, PyTorch's `conv1d`; run as a 2-D convolution of height 1.
pub fn conv1d(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvOptions,
) -> Result<Tensor> {
    conv("conv1d", x, weight, bias, opts, 1)
}

fn conv(
    op: &'static str,
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvOptions,
    spatial: usize,
) -> Result<Tensor> {
    crate::ops::binary::same_device(op, x, weight)?;
    if let Some(b) = bias {
        crate::ops::binary::same_device(op, x, b)?;
    }
    let (xb, unbatched) = batched(op, x, spatial)?;
    if weight.ndim() != spatial + 2 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the weight must be {}-D [out_channels, in_channels / groups, kernel..], \
                 got shape {:?}",
                spatial + 2,
                weight.shape()
            ),
        });
    }
    // The 1-D case as 2-D of height 1.
    let (x4, w4) = if spatial == 1 {
        (xb.unsqueeze(2)?, weight.unsqueeze(2)?)
    } else {
        (xb, weight.clone())
    };
    // The height entry of the 1-D case: `fill` (1 for strides and dilations, 0 for padding).
    let two = |v: Vec<usize>, fill: usize| if spatial == 1 { vec![fill, v[0]] } else { v };
    let stride = two(per_dim(op, "stride", &opts.stride, spatial, 1)?, 1);
    let dilation = two(per_dim(op, "dilation", &opts.dilation, spatial, 1)?, 1);
    let (c, h, wd) = (x4.shape()[1], x4.shape()[2], x4.shape()[3]);
    let (o, cg, kh, kw) = (w4.shape()[0], w4.shape()[1], w4.shape()[2], w4.shape()[3]);
    let groups = opts.groups;
    if groups == 0 || c % groups != 0 || o % groups != 0 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: groups={groups} must be positive and divide both the input channels \
                 ({c}) and the output channels ({o})"
            ),
        });
    }
    if cg * groups != c {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the weight {:?} expects {} input channels (in_channels / groups = {cg}, \
                 groups = {groups}) but the input {:?} has {c}",
                weight.shape(),
                cg * groups,
                x.shape()
            ),
        });
    }
    if let Some(b) = bias {
        if b.shape() != [o] {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: the bias must have shape [{o}] (one per output channel), got {:?}",
                    b.shape()
                ),
            });
        }
    }
    let span = [dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1];
    // Padding before and after, per dim.
    let (before, after): (Vec<usize>, Vec<usize>) = match &opts.padding {
        Padding::Valid => (vec![0, 0], vec![0, 0]),
        Padding::Same => {
            if stride.iter().any(|&s| s != 1) {
                return Err(Error::InvalidArgument {
                    what: format!(
                        "{op}: padding=\"same\" needs stride 1 (PyTorch's rule); give explicit \
                         padding for a strided convolution"
                    ),
                });
            }
            let total = [span[0] - 1, span[1] - 1];
            (
                vec![total[0] / 2, total[1] / 2],
                vec![total[0] - total[0] / 2, total[1] - total[1] / 2],
            )
        }
        Padding::Explicit(p) => {
            let p = two(per_dim(op, "padding", p, spatial, 0)?, 0);
            (p.clone(), p)
        }
    };
    let size = [h, wd];
    let mut out_hw = [0usize; 2];
    for d in 0..2 {
        let padded = size[d] + before[d] + after[d];
        if padded < span[d] {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: the input {:?} (padded to {padded} along a spatial dim) is smaller \
                     than the dilated kernel ({}); pad the input or use a smaller kernel",
                    x.shape(),
                    span[d]
                ),
            });
        }
        out_hw[d] = (padded - span[d]) / stride[d] + 1;
    }
    let dtype = float_type(result_type(x.dtype(), weight.dtype()));
    let dtype = match bias {
        Some(b) => float_type(result_type(dtype, b.dtype())),
        None => dtype,
    };
    let plan = ConvPlan {
        x: x4,
        w: w4,
        bias: bias.cloned(),
        stride: [stride[0], stride[1]],
        pad: [before[0], before[1]],
        dilation: [dilation[0], dilation[1]],
        groups,
        out_hw,
        dtype,
    };
    let mut out = run(&VisionPlan::Conv(Box::new(plan)))?;
    if spatial == 1 {
        out = out.squeeze(Some(2))?;
    }
    if unbatched {
        out = out.squeeze(Some(0))?;
    }
    Ok(out)
}
