//! `conv1d` and `conv2d` (PyTorch's `torch.nn.functional.conv1d/conv2d`): stride, padding
//! (explicit, `"same"`, `"valid"`), dilation, groups (depthwise included) and bias; and their
//! transposes `conv_transpose1d` / `conv_transpose2d` (the gradient of a convolution with
//! respect to its input: upsampling decoders), with output padding.

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

/// The options of a transposed convolution (PyTorch's `conv_transpose2d` arguments); every
/// per-dim list holds one value for all spatial dims or one per dim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvTransposeOptions {
    /// The step between the input's taps in the output (default 1): the upsampling factor.
    pub stride: Vec<usize>,
    /// `dilation * (kernel - 1) - padding` zeros are added on both sides of the input, i.e.
    /// `padding` rows and columns are cropped from each side of the full result (default 0).
    pub padding: Vec<usize>,
    /// Extra size added on the far side of each output dim, to pick among the output sizes a
    /// strided convolution maps to the same input size; smaller than the stride or the
    /// dilation (default 0).
    pub output_padding: Vec<usize>,
    /// The spacing between kernel taps (default 1).
    pub dilation: Vec<usize>,
    /// The number of groups: the input channels (the weight's first dim) must be divisible
    /// by it (default 1).
    pub groups: usize,
}

impl Default for ConvTransposeOptions {
    fn default() -> Self {
        ConvTransposeOptions {
            stride: vec![1],
            padding: vec![0],
            output_padding: vec![0],
            dilation: vec![1],
            groups: 1,
        }
    }
}

/// A 2-D convolution, or transposed convolution, planned for every backend.
pub(crate) struct ConvPlan {
    /// The input, `[N, C, H, W]`.
    pub(crate) x: Tensor,
    /// The weight, `[O, C / groups, KH, KW]`; transposed: `[C, O / groups, KH, KW]`.
    pub(crate) w: Tensor,
    /// A transposed convolution: every input element scatters `weight × value` into the
    /// output window at `stride × position − pad`.
    pub(crate) transposed: bool,
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
    let weight_form = "[out_channels, in_channels / groups, kernel..]";
    let (x4, w4, unbatched) = operands(op, x, weight, bias, spatial, weight_form)?;
    let two = |v: Vec<usize>, fill: usize| widen(v, fill, spatial);
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
    let dtype = result_dtype(x, weight, bias);
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
        transposed: false,
    };
    finish(run(&VisionPlan::Conv(Box::new(plan)))?, spatial, unbatched)
}

/// The operands of a convolution in 2-D form: the devices checked, an unbatched input given
/// a batch dim (reported by the flag), the 1-D forms given height 1.
fn operands(
    op: &'static str,
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    spatial: usize,
    weight_form: &str,
) -> Result<(Tensor, Tensor, bool)> {
    crate::ops::binary::same_device(op, x, weight)?;
    if let Some(b) = bias {
        crate::ops::binary::same_device(op, x, b)?;
    }
    let (xb, unbatched) = batched(op, x, spatial)?;
    if weight.ndim() != spatial + 2 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the weight must be {}-D {weight_form}, got shape {:?}",
                spatial + 2,
                weight.shape()
            ),
        });
    }
    if spatial == 1 {
        Ok((xb.unsqueeze(2)?, weight.unsqueeze(2)?, unbatched))
    } else {
        Ok((xb, weight.clone(), unbatched))
    }
}

/// A per-dim option of the 2-D form: the 1-D forms get `fill` for the height (1 for strides
/// and dilations, 0 for paddings).
fn widen(v: Vec<usize>, fill: usize, spatial: usize) -> Vec<usize> {
    if spatial == 1 {
        vec![fill, v[0]]
    } else {
        v
    }
}

/// The result dtype: the inputs' promoted floating dtype.
fn result_dtype(x: &Tensor, weight: &Tensor, bias: Option<&Tensor>) -> DType {
    let dtype = float_type(result_type(x.dtype(), weight.dtype()));
    match bias {
        Some(b) => float_type(result_type(dtype, b.dtype())),
        None => dtype,
    }
}

/// The planned 2-D result back in the caller's form (1-D, unbatched).
fn finish(mut out: Tensor, spatial: usize, unbatched: bool) -> Result<Tensor> {
    if spatial == 1 {
        out = out.squeeze(Some(2))?;
    }
    if unbatched {
        out = out.squeeze(Some(0))?;
    }
    Ok(out)
}

/// PyTorch's `conv_transpose2d` of `x` (`[N, C, H, W]` or `[C, H, W]`) with `weight`
/// (`[C, O / groups, KH, KW]`) plus `bias` (`[O]`): the output is
/// `(H − 1)·stride − 2·padding + dilation·(KH − 1) + output_padding + 1` high (likewise wide).
/// The result has the inputs' promoted floating dtype (integers compute in `Float32`).
pub fn conv_transpose2d(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvTransposeOptions,
) -> Result<Tensor> {
    conv_transpose("conv_transpose2d", x, weight, bias, opts, 2)
}

/// PyTorch's `conv_transpose1d` of `x` (`[N, C, L]` or `[C, L]`) with `weight`
/// (`[C, O / groups, K]`) plus `bias`; run as a 2-D one of height 1.
pub fn conv_transpose1d(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvTransposeOptions,
) -> Result<Tensor> {
    conv_transpose("conv_transpose1d", x, weight, bias, opts, 1)
}

fn conv_transpose(
    op: &'static str,
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    opts: &ConvTransposeOptions,
    spatial: usize,
) -> Result<Tensor> {
    let weight_form = "[in_channels, out_channels / groups, kernel..]";
    let (x4, w4, unbatched) = operands(op, x, weight, bias, spatial, weight_form)?;
    let two = |v: Vec<usize>, fill: usize| widen(v, fill, spatial);
    let stride = two(per_dim(op, "stride", &opts.stride, spatial, 1)?, 1);
    let dilation = two(per_dim(op, "dilation", &opts.dilation, spatial, 1)?, 1);
    let padding = two(per_dim(op, "padding", &opts.padding, spatial, 0)?, 0);
    let output_padding = two(
        per_dim(op, "output_padding", &opts.output_padding, spatial, 0)?,
        0,
    );
    let (c, h, wd) = (x4.shape()[1], x4.shape()[2], x4.shape()[3]);
    let (wc, og, kh, kw) = (w4.shape()[0], w4.shape()[1], w4.shape()[2], w4.shape()[3]);
    let groups = opts.groups;
    if groups == 0 || c % groups != 0 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: groups={groups} must be positive and divide the input channels ({c})"
            ),
        });
    }
    if wc != c {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the weight {:?} is for {wc} input channels (its first dim) but the input \
                 {:?} has {c}",
                weight.shape(),
                x.shape()
            ),
        });
    }
    let o = og * groups;
    if let Some(b) = bias {
        if b.shape() != [o] {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: the bias must have shape [{o}] (out_channels / groups = {og} times \
                     groups = {groups}), got {:?}",
                    b.shape()
                ),
            });
        }
    }
    let size = [h, wd];
    let kernel = [kh, kw];
    let mut out_hw = [0usize; 2];
    for d in 0..2 {
        if output_padding[d] >= stride[d] && output_padding[d] >= dilation[d] {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: output_padding ({}) must be smaller than either the stride ({}) or \
                     the dilation ({}) (PyTorch's rule)",
                    output_padding[d], stride[d], dilation[d]
                ),
            });
        }
        // (size − 1)·stride + dilation·(k − 1) + output_padding + 1 − 2·padding, in i128 so
        // that no choice of sizes overflows before the check.
        let full = (size[d] as i128 - 1) * stride[d] as i128
            + dilation[d] as i128 * (kernel[d] as i128 - 1)
            + output_padding[d] as i128
            + 1;
        if size[d] == 0 || kernel[d] == 0 || c == 0 {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: the input {:?} and weight {:?} need non-empty spatial dims, kernel and \
                     channels (only the batch may be empty), as in PyTorch",
                    x.shape(),
                    weight.shape()
                ),
            });
        }
        let n = full - 2 * padding[d] as i128;
        if n <= 0 {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: the input {:?} gives an output of {n} along a spatial dim (padding {} \
                     crops more than the full result of {full}); use less padding",
                    x.shape(),
                    padding[d]
                ),
            });
        }
        out_hw[d] = usize::try_from(n).map_err(|_| Error::InvalidArgument {
            what: format!("{op}: the output size {n} is too large"),
        })?;
    }
    let dtype = result_dtype(x, weight, bias);
    let plan = ConvPlan {
        x: x4,
        w: w4,
        bias: bias.cloned(),
        stride: [stride[0], stride[1]],
        pad: [padding[0], padding[1]],
        dilation: [dilation[0], dilation[1]],
        groups,
        out_hw,
        dtype,
        transposed: true,
    };
    finish(run(&VisionPlan::Conv(Box::new(plan)))?, spatial, unbatched)
}
