//! More constructors: `linspace`, `logspace`, `eye` and the `*_like` family.

use super::create::write_each;
use super::Tensor;
use crate::{DType, Device, Element, Result};

impl Tensor {
    /// `steps` evenly spaced values from `start` to `end` inclusive (numpy's and PyTorch's
    /// `linspace`): `start + i * step`, and `end` exactly as the last value.
    pub fn linspace(start: f64, end: f64, steps: usize, dtype: DType) -> Result<Tensor> {
        let step = if steps > 1 {
            (end - start) / (steps - 1) as f64
        } else {
            0.0
        };
        let out = Tensor::alloc(&[steps], dtype, Device::cpu(), false)?;
        // SAFETY: `out` is fresh, exclusively held and contiguous.
        unsafe { super::create::fill_affine(&out, start, step) };
        if steps > 1 {
            crate::dispatch_dtype!(dtype, T => {
                // SAFETY: element `steps − 1` of the fresh exclusive allocation of `steps`.
                unsafe { out.data_ptr().cast::<T>().add(steps - 1).write(T::from_f64(end)) };
            });
        }
        Ok(out)
    }

    /// `base ** linspace(start, end, steps)`.
    pub fn logspace(start: f64, end: f64, steps: usize, base: f64, dtype: DType) -> Result<Tensor> {
        let step = if steps > 1 {
            (end - start) / (steps - 1) as f64
        } else {
            0.0
        };
        Tensor::generate(&[steps], dtype, |i| {
            let e = if steps > 1 && i == steps - 1 {
                end
            } else {
                start + i as f64 * step
            };
            base.powf(e)
        })
    }

    /// An `n × m` matrix (`m = n` when `None`) with ones on the diagonal and zeros elsewhere.
    pub fn eye(n: usize, m: Option<usize>, dtype: DType) -> Result<Tensor> {
        let m = m.unwrap_or(n);
        let out = Tensor::zeros(&[n, m], dtype)?;
        crate::dispatch_dtype!(dtype, T => {
            let p = out.data_ptr().cast::<T>();
            for i in 0..n.min(m) {
                // SAFETY: `out` is a fresh, exclusively held, contiguous `n × m` allocation
                // of `T`; element `(i, i)` is at `i · (m + 1) < n · m` for `i < min(n, m)`.
                unsafe { p.add(i * (m + 1)).write(T::from_f64(1.0)) };
            }
        });
        Ok(out)
    }

    /// A fresh host tensor of `shape` and `dtype` whose element `i` (row-major) is `f(i)`,
    /// converted with the runtime's cast rules.
    pub(crate) fn generate(
        shape: &[usize],
        dtype: DType,
        f: impl Fn(usize) -> f64 + Sync,
    ) -> Result<Tensor> {
        let out = Tensor::alloc(shape, dtype, Device::cpu(), false)?;
        crate::dispatch_dtype!(dtype, T => {
            // SAFETY: `out` is a fresh, exclusively held, contiguous allocation of `numel`
            // elements of `T`, aligned for `T`.
            unsafe { write_each(out.data_ptr().cast::<T>(), out.numel(), |i| T::from_f64(f(i))) };
        });
        Ok(out)
    }

    /// A tensor like `self` (its shape; its dtype and device unless given) filled with
    /// `value`.
    pub fn full_like(
        &self,
        value: f64,
        dtype: Option<DType>,
        device: Option<Device>,
    ) -> Result<Tensor> {
        let t = Tensor::full(self.shape(), value, dtype.unwrap_or(self.dtype()))?;
        t.to(device.unwrap_or(self.device()))
    }

    /// Zeros shaped like `self` (see [`Tensor::full_like`]).
    pub fn zeros_like(&self, dtype: Option<DType>, device: Option<Device>) -> Result<Tensor> {
        self.full_like(0.0, dtype, device)
    }

    /// Ones shaped like `self` (see [`Tensor::full_like`]).
    pub fn ones_like(&self, dtype: Option<DType>, device: Option<Device>) -> Result<Tensor> {
        self.full_like(1.0, dtype, device)
    }

    /// A tensor shaped like `self` with unspecified contents (see [`Tensor::full_like`]).
    pub fn empty_like(&self, dtype: Option<DType>, device: Option<Device>) -> Result<Tensor> {
        let t = Tensor::empty(self.shape(), dtype.unwrap_or(self.dtype()))?;
        t.to(device.unwrap_or(self.device()))
    }
}
