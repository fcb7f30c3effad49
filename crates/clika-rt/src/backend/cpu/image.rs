//! The CPU's image kernels: `normalize_image` reads each uint8 frame row once, in place
//! (any strides, so pitched frames need no copy), and writes the row of every channel plane
//! through a per-channel 256-entry table; rows run in parallel on the runtime's pool.

use super::iter::{for_each_item, SendPtr};
use crate::ops::vision::NormalizePlan;
use crate::{DType, Device, Result, Tensor};

/// A planned `normalize_image` into a fresh float32 `[N, C, H, W]` tensor.
pub(crate) fn normalize(p: &NormalizePlan) -> Result<Tensor> {
    let x = &p.x;
    let (n, h, w, c) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let out = Tensor::alloc(&[n, c, h, w], DType::Float32, Device::cpu(), false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let [sn, sh, sw, sc] = [
        x.strides()[0],
        x.strides()[1],
        x.strides()[2],
        x.strides()[3],
    ];
    let src = SendPtr(x.const_data_ptr().cast_mut());
    let dst = SendPtr(out.data_ptr().cast::<f32>());
    let lut = &p.lut[..];
    let row = |r: usize| {
        let (ni, y) = (r / h, r % h);
        let base = ni as isize * sn + y as isize * sh;
        // SAFETY: `(ni, y)` is inside the shape, so `base + xi * sw + ci * sc` for
        // `xi < w`, `ci < c` is the offset of an element of `x`, whose storage (held by the
        // plan) outlives the call and which nobody writes meanwhile (the op's contract).
        let at = |xi: usize, ci: usize| unsafe {
            *src.get()
                .cast_const()
                .offset(base + xi as isize * sw + ci as isize * sc)
        };
        for ci in 0..c {
            // SAFETY: `out` is fresh, contiguous `[n, c, h, w]` float32; this row of plane
            // `(ni, ci)` is written by this call of `row` alone (each `r` runs once), and
            // `out` outlives the loop.
            let plane_row = unsafe {
                std::slice::from_raw_parts_mut(dst.get().add(((ni * c + ci) * h + y) * w), w)
            };
            let table = &lut[ci * 256..][..256];
            for (xi, o) in plane_row.iter_mut().enumerate() {
                *o = table[usize::from(at(xi, ci))];
            }
        }
    };
    for_each_item(n * h, w * c, row);
    Ok(out)
}
