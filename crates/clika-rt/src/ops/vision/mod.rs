//! Vision and inference operations: convolutions, pooling, `linear` and `pad`, with PyTorch's
//! semantics (`torch.nn.functional`), `interpolate`, and the image entry points `normalize_image` and
//! `cvt_color` (uint8 frames). The PyTorch ops take NCHW (NCL for the 1-D forms; an
//! unbatched CHW/CL input is accepted as PyTorch does). Shapes are checked and sizes derived
//! once here ([`VisionPlan`]); the kernels run behind [`Backend::vision`](crate::backend),
//! so a device without them refuses, naming `.to("cpu")`.

mod color;
mod conv;
mod image;
mod layers;
mod norm;
mod pool;
mod resize;
mod taps;

pub(crate) use color::ColorPlan;
pub use color::{cvt_color, ColorConversion, YuvMatrix, YuvRange};
pub(crate) use conv::ConvPlan;
pub use conv::{
    conv1d, conv2d, conv_transpose1d, conv_transpose2d, ConvOptions, ConvTransposeOptions, Padding,
};
pub use image::normalize_image;
pub(crate) use image::NormalizePlan;
pub(crate) use layers::PadPlan;
pub use layers::{linear, pad, PadMode};
pub use norm::{batch_norm, group_norm, layer_norm};
pub(crate) use norm::{NormPlan, NormStats};
pub use pool::{adaptive_avg_pool2d, avg_pool2d, max_pool2d, PoolOptions};
pub(crate) use pool::{PoolKind, PoolPlan};
#[cfg(any(feature = "gpu", feature = "cuda"))]
pub(crate) use resize::pass_in_memory_order;
pub use resize::{interpolate, InterpolateMode, InterpolateOptions};
pub(crate) use resize::{ResizePlan, Taps};

use crate::{Error, Result, Tensor};

/// A planned vision kernel, run by the backend of its input's device.
pub(crate) enum VisionPlan {
    /// A 2-D convolution (the 1-D one is planned as a 2-D one of height 1).
    Conv(Box<ConvPlan>),
    /// Max, average or adaptive-average pooling over the last two dims.
    Pool(Box<PoolPlan>),
    /// A uint8 HWC/NHWC frame to normalized float32 CHW/NCHW.
    Normalize(Box<NormalizePlan>),
    /// A colour conversion of a uint8 frame.
    Color(Box<ColorPlan>),
    /// An interpolation: separable taps along each resized dim.
    Resize(Box<ResizePlan>),
    /// A normalization layer: rows normalized, then scaled and shifted.
    Norm(Box<NormPlan>),
}

impl VisionPlan {
    /// The op's name, for errors.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            VisionPlan::Conv(p) if p.transposed => "conv_transpose2d",
            VisionPlan::Conv(_) => "conv2d",
            VisionPlan::Pool(p) => p.kind.name(),
            VisionPlan::Normalize(_) => "normalize_image",
            VisionPlan::Color(_) => "cvt_color",
            VisionPlan::Resize(_) => "interpolate",
            VisionPlan::Norm(p) => p.name,
        }
    }

    /// The device the plan runs on.
    pub(crate) fn device(&self) -> crate::Device {
        match self {
            VisionPlan::Conv(p) => p.x.device(),
            VisionPlan::Pool(p) => p.x.device(),
            VisionPlan::Normalize(p) => p.x.device(),
            VisionPlan::Color(p) => p.x.device(),
            VisionPlan::Resize(p) => p.x.device(),
            VisionPlan::Norm(p) => p.x.device(),
        }
    }
}

/// Runs `plan` on its device's backend.
fn run(plan: &VisionPlan) -> Result<Tensor> {
    crate::backend::backend(plan.device())?.vision(plan)
}

/// A per-dimension option given once for all `n` spatial dims or once per dim.
fn per_dim(op: &str, what: &str, v: &[usize], n: usize, min: usize) -> Result<Vec<usize>> {
    let out = match v.len() {
        1 => vec![v[0]; n],
        l if l == n => v.to_vec(),
        l => {
            return Err(Error::InvalidArgument {
                what: format!("{op}: {what} has {l} values; give 1 or {n} (one per spatial dim)"),
            })
        }
    };
    if let Some(bad) = out.iter().find(|&&x| x < min) {
        return Err(Error::InvalidArgument {
            what: format!("{op}: {what} must be at least {min}, got {bad}"),
        });
    }
    Ok(out)
}

/// `x` as a batched NC+spatial tensor with `spatial` spatial dims (an unbatched input gets a
/// batch dim of 1, reported by the flag), plus its 2-D form (a 1-D input gets height 1).
fn batched(op: &str, x: &Tensor, spatial: usize) -> Result<(Tensor, bool)> {
    let nd = x.ndim();
    if nd == spatial + 2 {
        Ok((x.clone(), false))
    } else if nd == spatial + 1 {
        Ok((x.unsqueeze(0)?, true))
    } else {
        Err(Error::InvalidArgument {
            what: format!(
                "{op}: the input must be {}-D (batched) or {}-D (unbatched), got shape {:?}",
                spatial + 2,
                spatial + 1,
                x.shape()
            ),
        })
    }
}
