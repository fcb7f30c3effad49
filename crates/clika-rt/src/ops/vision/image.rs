//! Image entry points: frames as cameras and decoders give them (uint8, channels last, rows
//! possibly pitched) turned into what a network takes.

use super::{run, VisionPlan};
use crate::{DType, Error, Result, Tensor};

/// A planned [`normalize_image`]: the input as `[N, H, W, C]` (any strides) and one
/// 256-entry table per channel, `lut[c * 256 + v] = (v / 255 - mean[c]) / std[c]`.
pub(crate) struct NormalizePlan {
    /// The uint8 input, `[N, H, W, C]`, any strides.
    pub(crate) x: Tensor,
    /// The per-channel tables, `C × 256` values.
    pub(crate) lut: Vec<f32>,
}

/// Fused image normalization: a uint8 frame `(H, W, C)` or batch `(N, H, W, C)`, in any
/// strides (a pitched frame, whose rows are padded, is read in place), to a fresh float32
/// `(C, H, W)` / `(N, C, H, W)` tensor of `(x / 255 - mean[c]) / std[c]`, in one pass over
/// the frame. `mean` and `std` hold one value per channel, or one value for every channel.
///
/// Each value is computed in float32 exactly as written (the same bits as numpy's
/// `(x.astype(np.float32) / 255 - mean) / std` in float32).
pub fn normalize_image(x: &Tensor, mean: &[f32], std: &[f32]) -> Result<Tensor> {
    const OP: &str = "normalize_image";
    if x.dtype() != DType::UInt8 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{OP}: the input must be uint8 (an 8-bit image), got {}; scale a float image \
                 yourself (e.g. sub(mean).div(std) on a CHW tensor), or convert it to uint8",
                x.dtype()
            ),
        });
    }
    let (xb, unbatched) = match x.ndim() {
        4 => (x.clone(), false),
        3 => (x.unsqueeze(0)?, true),
        _ => {
            return Err(Error::InvalidArgument {
                what: format!(
                    "{OP}: the input must be (H, W, C) or (N, H, W, C) (channels last), got \
                     shape {:?}",
                    x.shape()
                ),
            })
        }
    };
    let c = xb.shape()[3];
    let per_channel = |what: &str, v: &[f32]| -> Result<Vec<f32>> {
        match v.len() {
            1 => Ok(vec![v[0]; c]),
            l if l == c => Ok(v.to_vec()),
            l => Err(Error::InvalidArgument {
                what: format!(
                    "{OP}: {what} has {l} values but the image has {c} channels (its last \
                     dim); give one value per channel, or one for all"
                ),
            }),
        }
    };
    let mean = per_channel("mean", mean)?;
    let std = per_channel("std", std)?;
    if let Some((i, s)) = std
        .iter()
        .enumerate()
        .find(|(_, s)| **s == 0.0 || !s.is_finite())
    {
        return Err(Error::InvalidArgument {
            what: format!("{OP}: std[{i}] is {s}; every std must be finite and non-zero"),
        });
    }
    if let Some((i, m)) = mean.iter().enumerate().find(|(_, m)| !m.is_finite()) {
        return Err(Error::InvalidArgument {
            what: format!("{OP}: mean[{i}] is {m}; every mean must be finite"),
        });
    }
    let lut = mean
        .iter()
        .zip(&std)
        .flat_map(|(&m, &s)| (0..256u16).map(move |v| (f32::from(v) / 255.0 - m) / s))
        .collect();
    let out = run(&VisionPlan::Normalize(Box::new(NormalizePlan {
        x: xb,
        lut,
    })))?;
    if unbatched {
        out.squeeze(Some(0))
    } else {
        Ok(out)
    }
}

impl Tensor {
    /// A uint8 HWC/NHWC frame to normalized float32 CHW/NCHW; see [`normalize_image`].
    pub fn normalize_image(&self, mean: &[f32], std: &[f32]) -> Result<Tensor> {
        normalize_image(self, mean, std)
    }
}
