//! Max, average and adaptive-average pooling, a plane per task.

use rayon::prelude::*;

use super::super::iter::threads_available;
use super::{dense, elems, fresh, Real};
use crate::ops::vision::{PoolKind, PoolPlan};
use crate::{DType, Result, Tensor};

pub(super) fn pool<T: Real>(p: &PoolPlan, cd: DType) -> Result<Tensor> {
    let x = dense(&p.x, cd)?;
    let (n, c, h, w) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let [ho, wo] = p.out_hw;
    let (out, dst) = fresh::<T>(&[n, c, ho, wo], cd)?;
    if dst.is_empty() {
        return Ok(out);
    }
    // SAFETY: `x` is a contiguous CPU tensor of `T` that nobody writes during the call.
    let xs = unsafe { elems::<T>(&x) };
    let plane = |(i, dst): (usize, &mut [T])| {
        let src = &xs[i * h * w..][..h * w];
        for oy in 0..ho {
            for ox in 0..wo {
                dst[oy * wo + ox] = pool_at(p, src, h, w, oy, ox);
            }
        }
    };
    if threads_available() && dst.len() * p.kernel[0].max(1) * p.kernel[1].max(1) >= 1 << 15 {
        crate::threads::install(|| dst.par_chunks_mut(ho * wo).enumerate().for_each(plane));
    } else {
        dst.chunks_mut(ho * wo).enumerate().for_each(plane);
    }
    Ok(out)
}

/// One output element of a pooling of the `h`×`w` plane `src`.
fn pool_at<T: Real>(p: &PoolPlan, src: &[T], h: usize, w: usize, oy: usize, ox: usize) -> T {
    let at = |y: usize, x: usize| src[y * w + x];
    match p.kind {
        PoolKind::Max => {
            let mut m = T::NEG_INF;
            for ki in 0..p.kernel[0] {
                let iy = (oy * p.stride[0] + ki * p.dilation[0]) as isize - p.pad[0] as isize;
                if iy < 0 || iy >= h as isize {
                    continue;
                }
                for kj in 0..p.kernel[1] {
                    let ix = (ox * p.stride[1] + kj * p.dilation[1]) as isize - p.pad[1] as isize;
                    if ix < 0 || ix >= w as isize {
                        continue;
                    }
                    let v = at(iy as usize, ix as usize);
                    if v > m || v.is_nan() {
                        m = v;
                    }
                }
            }
            m
        }
        PoolKind::Avg { count_include_pad } => {
            // PyTorch's windows: clipped to the padded input for the divisor with padding,
            // to the input for the sum.
            let window = |o: usize, d: usize, size: usize| {
                let start = (o * p.stride[d]) as isize - p.pad[d] as isize;
                let end = (start + p.kernel[d] as isize).min((size + p.pad[d]) as isize);
                let padded = (end - start) as usize;
                (
                    start.max(0) as usize,
                    end.min(size as isize) as usize,
                    padded,
                )
            };
            let (y0, y1, py) = window(oy, 0, h);
            let (x0, x1, px) = window(ox, 1, w);
            let mut sum = T::default();
            for y in y0..y1 {
                for x in x0..x1 {
                    sum = sum + at(y, x);
                }
            }
            let count = if count_include_pad {
                py * px
            } else {
                (y1.saturating_sub(y0)) * (x1.saturating_sub(x0))
            };
            sum / T::from_usize(count)
        }
        PoolKind::AdaptiveAvg => {
            let [th, tw] = p.out_hw;
            let (y0, y1) = (oy * h / th, ((oy + 1) * h).div_ceil(th));
            let (x0, x1) = (ox * w / tw, ((ox + 1) * w).div_ceil(tw));
            let mut sum = T::default();
            for y in y0..y1 {
                for x in x0..x1 {
                    sum = sum + at(y, x);
                }
            }
            sum / T::from_usize((y1 - y0) * (x1 - x0))
        }
    }
}
