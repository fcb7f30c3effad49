//! Pooling over the last two dims (PyTorch's `max_pool2d`, `avg_pool2d`,
//! `adaptive_avg_pool2d`).

use super::{batched, per_dim, run, VisionPlan};
use crate::ops::float_type;
use crate::{DType, Error, Result, Tensor};

/// The options of `max_pool2d` / `avg_pool2d`; every list holds one value for both spatial
/// dims or one per dim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolOptions {
    /// The window size.
    pub kernel: Vec<usize>,
    /// The step between windows; empty means the kernel size (PyTorch's default).
    pub stride: Vec<usize>,
    /// Implicit padding on both sides (at most half the kernel); max pooling pads with
    /// `-inf`, average pooling with zeros.
    pub padding: Vec<usize>,
    /// The spacing between window taps (max pooling only; default 1).
    pub dilation: Vec<usize>,
    /// Rounds the output size up instead of down; a window must still start inside the
    /// input or its left padding.
    pub ceil_mode: bool,
    /// Average pooling: whether padded zeros count in the divisor (PyTorch's default true).
    pub count_include_pad: bool,
}

impl PoolOptions {
    /// A `k`×`k` window with stride `k`, no padding (PyTorch's defaults).
    pub fn new(kernel: usize) -> PoolOptions {
        PoolOptions {
            kernel: vec![kernel],
            stride: Vec::new(),
            padding: vec![0],
            dilation: vec![1],
            ceil_mode: false,
            count_include_pad: true,
        }
    }
}

/// Which pooling a [`PoolPlan`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PoolKind {
    /// The maximum of each window (NaN wins).
    Max,
    /// The mean of each window.
    Avg {
        /// Whether padding counts in the divisor.
        count_include_pad: bool,
    },
    /// PyTorch's adaptive windows `[floor(i*H/Ho), ceil((i+1)*H/Ho))`, averaged.
    AdaptiveAvg,
}

impl PoolKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            PoolKind::Max => "max_pool2d",
            PoolKind::Avg { .. } => "avg_pool2d",
            PoolKind::AdaptiveAvg => "adaptive_avg_pool2d",
        }
    }
}

/// A pooling planned for every backend.
pub(crate) struct PoolPlan {
    pub(crate) kind: PoolKind,
    /// The input, `[N, C, H, W]`.
    pub(crate) x: Tensor,
    pub(crate) kernel: [usize; 2],
    pub(crate) stride: [usize; 2],
    pub(crate) pad: [usize; 2],
    pub(crate) dilation: [usize; 2],
    /// The output size `[Ho, Wo]`.
    pub(crate) out_hw: [usize; 2],
    /// The result's dtype.
    pub(crate) dtype: DType,
}

/// Max pooling over the last two dims of `x` (`[N, C, H, W]` or `[C, H, W]`), PyTorch's
/// `max_pool2d` (values only). The result keeps `x`'s dtype.
pub fn max_pool2d(x: &Tensor, opts: &PoolOptions) -> Result<Tensor> {
    pool(x, opts, PoolKind::Max, x.dtype())
}

/// Average pooling over the last two dims of `x`, PyTorch's `avg_pool2d`; the result has
/// `x`'s floating dtype (integers give `Float32`).
pub fn avg_pool2d(x: &Tensor, opts: &PoolOptions) -> Result<Tensor> {
    let kind = PoolKind::Avg {
        count_include_pad: opts.count_include_pad,
    };
    pool(x, opts, kind, float_type(x.dtype()))
}

fn pool(x: &Tensor, opts: &PoolOptions, kind: PoolKind, dtype: DType) -> Result<Tensor> {
    let op = kind.name();
    let (x4, unbatched) = batched(op, x, 2)?;
    let kernel = per_dim(op, "kernel_size", &opts.kernel, 2, 1)?;
    let stride = if opts.stride.is_empty() {
        kernel.clone()
    } else {
        per_dim(op, "stride", &opts.stride, 2, 1)?
    };
    let pad = per_dim(op, "padding", &opts.padding, 2, 0)?;
    let dilation = per_dim(op, "dilation", &opts.dilation, 2, 1)?;
    if kind != PoolKind::Max && dilation.iter().any(|&d| d != 1) {
        return Err(Error::InvalidArgument {
            what: format!("{op}: dilation is for max pooling only; leave it at 1"),
        });
    }
    let mut out_hw = [0usize; 2];
    for d in 0..2 {
        if 2 * pad[d] > kernel[d] {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: padding ({}) must be at most half the kernel size ({}), PyTorch's rule",
                    pad[d], kernel[d]
                ),
            });
        }
        let size = x4.shape()[2 + d];
        let span = dilation[d] * (kernel[d] - 1) + 1;
        let padded = size + 2 * pad[d];
        if padded < span {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{op}: the input {:?} (padded: {padded}) is smaller than the window ({span})",
                    x.shape()
                ),
            });
        }
        let room = padded - span;
        let mut o = if opts.ceil_mode {
            room.div_ceil(stride[d]) + 1
        } else {
            room / stride[d] + 1
        };
        // The last window must start inside the input or its left padding.
        if opts.ceil_mode && (o - 1) * stride[d] >= size + pad[d] {
            o -= 1;
        }
        out_hw[d] = o;
    }
    let plan = PoolPlan {
        kind,
        x: x4,
        kernel: [kernel[0], kernel[1]],
        stride: [stride[0], stride[1]],
        pad: [pad[0], pad[1]],
        dilation: [dilation[0], dilation[1]],
        out_hw,
        dtype,
    };
    finish(run(&VisionPlan::Pool(Box::new(plan)))?, unbatched)
}

/// Average pooling of the last two dims of `x` to `output_size` (`[Ho, Wo]`, or one value for
/// both), PyTorch's `adaptive_avg_pool2d`; `x`'s floating dtype.
pub fn adaptive_avg_pool2d(x: &Tensor, output_size: &[usize]) -> Result<Tensor> {
    let kind = PoolKind::AdaptiveAvg;
    let op = kind.name();
    let (x4, unbatched) = batched(op, x, 2)?;
    let out = per_dim(op, "output_size", output_size, 2, 0)?;
    if (x4.shape()[2] == 0 && out[0] > 0) || (x4.shape()[3] == 0 && out[1] > 0) {
        return Err(Error::InvalidArgument {
            what: format!("{op}: cannot pool an empty spatial dim of {:?}", x.shape()),
        });
    }
    let plan = PoolPlan {
        kind,
        x: x4,
        kernel: [0, 0],
        stride: [0, 0],
        pad: [0, 0],
        dilation: [1, 1],
        out_hw: [out[0], out[1]],
        dtype: float_type(x.dtype()),
    };
    finish(run(&VisionPlan::Pool(Box::new(plan)))?, unbatched)
}

fn finish(out: Tensor, unbatched: bool) -> Result<Tensor> {
    if unbatched {
        out.squeeze(Some(0))
    } else {
        Ok(out)
    }
}
