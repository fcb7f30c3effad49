//! Reductions: `sum` and `mean`, over everything or over chosen dimensions.
//!
//! Float inputs accumulate in `f64` with blocked summation (blocks of `BLOCK` elements summed
//! on their own, then the block sums), so error grows with `BLOCK + n / BLOCK`, not `n`.
//! Integer and boolean inputs sum in wrapping `i64`.

use crate::dtype::Element;
use crate::layout::{normalize_dim, DimVec, Layout, MAX_DIMS};
use crate::ops::strided::{for_each_offset, walk};
use crate::{DType, Error, Result, Tensor};

const BLOCK: usize = 4096;

/// Sum of all elements, as a 0-dimensional tensor (floats keep their dtype; integers and
/// bools give `Int64`).
pub fn sum(t: &Tensor) -> Result<Tensor> {
    let all: Vec<isize> = (0..t.ndim() as isize).collect();
    sum_dims(t, &all, false)
}

/// Mean of all elements, as a 0-dimensional tensor (floats keep their dtype; integers and
/// bools give `Float64`). The mean of no elements is NaN.
pub fn mean(t: &Tensor) -> Result<Tensor> {
    let all: Vec<isize> = (0..t.ndim() as isize).collect();
    mean_dims(t, &all, false)
}

/// Sum over `dims` (negative counts from the end; an empty list reduces nothing, as numpy's
/// `axis=()`); `keepdim` keeps reduced dimensions with size 1.
pub fn sum_dims(t: &Tensor, dims: &[isize], keepdim: bool) -> Result<Tensor> {
    reduce(t, dims, keepdim, t.dtype().sum_dtype(), false)
}

/// Mean over `dims`; see [`sum_dims`].
pub fn mean_dims(t: &Tensor, dims: &[isize], keepdim: bool) -> Result<Tensor> {
    reduce(t, dims, keepdim, t.dtype().mean_dtype(), true)
}

/// Blocked floating-point accumulator.
#[derive(Default)]
struct BlockedSum {
    total: f64,
    block: f64,
    count: usize,
}

impl BlockedSum {
    #[inline]
    fn add(&mut self, v: f64) {
        self.block += v;
        self.count += 1;
        if self.count == BLOCK {
            self.total += self.block;
            self.block = 0.0;
            self.count = 0;
        }
    }

    fn finish(&self) -> f64 {
        self.total + self.block
    }
}

/// The layouts a reduction walks: the kept dimensions (one step per output element) and the
/// reduced dimensions (walked from each output element's base offset).
fn split_layouts(
    t: &Tensor,
    dims: &[isize],
    keepdim: bool,
) -> Result<(Layout, Layout, DimVec<usize>)> {
    let nd = t.ndim();
    let mut reduced = [false; MAX_DIMS];
    for &d in dims {
        let d = normalize_dim(d, nd.max(1)).and_then(|d| {
            if nd == 0 && d == 0 {
                Ok(d)
            } else {
                normalize_dim(d as isize, nd)
            }
        })?;
        if std::mem::replace(&mut reduced[d], true) {
            return Err(Error::DuplicateDim {
                dim: d,
                dims: dims.iter().map(|&v| v as i64).collect(),
            });
        }
    }
    let (shape, strides) = (t.shape(), t.strides());
    let pick = |want: bool| -> (DimVec<usize>, DimVec<isize>) {
        (0..nd)
            .filter(|&d| reduced[d] == want)
            .map(|d| (shape[d], strides[d]))
            .unzip()
    };
    let (ks, kst) = pick(false);
    let (rs, rst) = pick(true);
    let out_shape: DimVec<usize> = if keepdim {
        (0..nd)
            .map(|d| if reduced[d] { 1 } else { shape[d] })
            .collect()
    } else {
        ks.clone()
    };
    let offset = t.layout().offset();
    Ok((
        Layout::from_parts(ks, kst, offset),
        Layout::from_parts(rs, rst, 0),
        out_shape,
    ))
}

fn reduce(
    t: &Tensor,
    dims: &[isize],
    keepdim: bool,
    out_dtype: DType,
    mean: bool,
) -> Result<Tensor> {
    t.ensure_cpu(if mean { "mean" } else { "sum" })?;
    let (kept, red, out_shape) = split_layouts(t, dims, keepdim)?;
    let count = red.numel();
    let out = Tensor::alloc(&out_shape, out_dtype, t.device(), false)?;
    crate::dispatch_dtype!(t.dtype(), S => {
        crate::dispatch_dtype!(out_dtype, D => reduce_typed::<S, D>(t, &kept, &red, &out, count, mean))
    });
    Ok(out)
}

fn reduce_typed<S: Element, D: Element>(
    t: &Tensor,
    kept: &Layout,
    red: &Layout,
    out: &Tensor,
    count: usize,
    mean: bool,
) {
    let dst = out.data_ptr().cast::<D>();
    let mut i = 0usize;
    for_each_offset(kept, |base| {
        let value = if S::DTYPE.is_float() || mean {
            let mut acc = BlockedSum::default();
            walk(red.shape(), red.strides(), base, |off| {
                // SAFETY: `off` is an element of `t` (a kept index completed by a reduced
                // index), in bounds by L3; the dtype is `S`.
                acc.add(unsafe { t.load::<S>(off) }.to_f64())
            });
            let s = acc.finish();
            D::from_f64(if mean { s / count as f64 } else { s })
        } else {
            let mut acc: i64 = 0;
            walk(red.shape(), red.strides(), base, |off| {
                // SAFETY: as above.
                acc = acc.wrapping_add(unsafe { t.load::<S>(off) }.to_i64())
            });
            D::from_i64(acc)
        };
        // SAFETY: `out` is a fresh exclusive contiguous allocation with one element per kept
        // index, and `i` counts kept indices.
        unsafe { dst.add(i).write(value) };
        i += 1;
    });
}

impl Tensor {
    /// See [`sum`].
    pub fn sum(&self) -> Result<Tensor> {
        sum(self)
    }

    /// See [`mean`].
    pub fn mean(&self) -> Result<Tensor> {
        mean(self)
    }

    /// See [`sum_dims`].
    pub fn sum_dims(&self, dims: &[isize], keepdim: bool) -> Result<Tensor> {
        sum_dims(self, dims, keepdim)
    }

    /// See [`mean_dims`].
    pub fn mean_dims(&self, dims: &[isize], keepdim: bool) -> Result<Tensor> {
        mean_dims(self, dims, keepdim)
    }
}
