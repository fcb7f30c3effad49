//! Copies: `contiguous` and dtype conversion.

use crate::dtype::{cast, Element};
use crate::ops::strided::for_each_offset;
use crate::{DType, Result, Tensor};

/// The same tensor when already contiguous (no copy); otherwise a compact row-major copy in
/// runtime-owned memory.
pub fn contiguous(t: &Tensor) -> Result<Tensor> {
    if t.is_contiguous() {
        return Ok(t.clone());
    }
    convert(t, t.dtype())
}

/// The tensor converted to `dtype` (the same tensor if it already has it). Floats → integers
/// truncate toward zero and saturate (NaN → 0); integers narrow by wrapping; anything →
/// `Bool` is "non-zero".
pub fn to_dtype(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if t.dtype() == dtype {
        return Ok(t.clone());
    }
    convert(t, dtype)
}

/// A fresh contiguous copy of `t` converted to `dtype`.
fn convert(t: &Tensor, dtype: DType) -> Result<Tensor> {
    t.ensure_cpu("contiguous/to_dtype")?;
    let out = Tensor::alloc(t.shape(), dtype, t.device(), false)?;
    crate::dispatch_dtype!(t.dtype(), S => {
        crate::dispatch_dtype!(dtype, D => convert_typed::<S, D>(t, &out))
    });
    Ok(out)
}

fn convert_typed<S: Element, D: Element>(src: &Tensor, out: &Tensor) {
    let dst = out.data_ptr().cast::<D>();
    let mut i = 0usize;
    for_each_offset(src.layout(), |off| {
        // SAFETY: `off` is reachable in `src` (in bounds by L3, dtype `S`); `out` is a fresh,
        // exclusively held contiguous allocation of `numel` elements of `D` and `i < numel`.
        unsafe { dst.add(i).write(cast::<S, D>(src.load::<S>(off))) };
        i += 1;
    });
}

impl Tensor {
    /// See [`contiguous`].
    pub fn contiguous(&self) -> Result<Tensor> {
        contiguous(self)
    }

    /// See [`to_dtype`].
    pub fn to_dtype(&self, dtype: DType) -> Result<Tensor> {
        to_dtype(self, dtype)
    }

    /// Always a fresh, compact, runtime-owned copy (even of a contiguous tensor).
    pub fn contiguous_copy(&self) -> Result<Tensor> {
        convert(self, self.dtype())
    }
}
