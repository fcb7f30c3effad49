//! Gathers and scatters along one dim (PyTorch's `gather`, `scatter`, `scatter_add`;
//! numpy's `take_along_axis`, `put_along_axis`, `np.add.at`): an index tensor of the
//! source's rank picks, for each of its positions, the element at that position with the
//! coordinate along `dim` replaced by the index value.
//!
//! Each is planned as an [`IndexPlan`] whose every dim is indexed: one element offset per
//! index position, so the backend's advanced-indexing copies (and its accumulating scatter)
//! do the work.

use super::index::{for_each_row, IndexPlan};
use crate::backend::backend;
use crate::error::dims_i64;
use crate::layout::{normalize_dim, DimVec};
use crate::{DType, Device, Error, Result, Tensor};

/// The plan of `index` along `dim` of `t`: `index` has `t`'s rank and, off `dim`, is no
/// larger than `t` (PyTorch's rule); its values lie in `-size..size` of `t`'s `dim`
/// (negative values count from the end, as numpy's).
fn along(op: &'static str, t: &Tensor, dim: isize, index: &Tensor) -> Result<IndexPlan> {
    if !index.dtype().is_integer() {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the index must be an integer tensor, got {}; convert it with \
                 .to(int64)",
                index.dtype()
            ),
        });
    }
    if index.ndim() != t.ndim() {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the index has {} dims and the tensor {}: they must have the same \
                 number (unsqueeze the index)",
                index.ndim(),
                t.ndim()
            ),
        });
    }
    let nd = t.ndim();
    let d = normalize_dim(dim, nd.max(1))?;
    let (shape, strides) = (t.shape(), t.strides());
    for k in (0..nd).filter(|&k| k != d) {
        if index.shape()[k] > shape[k] {
            return Err(Error::ShapeMismatch {
                op: "gather/scatter (off `dim`, the index may not be larger than the tensor)",
                expected: dims_i64(shape),
                got: dims_i64(index.shape()),
            });
        }
    }
    let batch: DimVec<usize> = index.shape().iter().copied().collect();
    let n: usize = batch.iter().product();
    let (size, stride) = if nd == 0 {
        (1, 0)
    } else {
        (shape[d], strides[d])
    };
    if n > 0 && size == 0 {
        return Err(Error::IndexOutOfRange {
            index: 0,
            dim: d,
            size,
        });
    }
    let values = index
        .to(Device::cpu())?
        .to_dtype(DType::Int64)?
        .contiguous()?;
    let values = values.as_slice::<i64>()?;
    // Each position's offset: its coordinates off `dim` under `t`'s strides (`dim`'s
    // zeroed), plus the index value's along `dim`; a row of the index at a time. Out-of-range
    // values are noted without a branch and reported after the loop.
    let mut walk: DimVec<isize> = strides.iter().copied().collect();
    if nd > 0 {
        walk[d] = 0;
    }
    let (inner, step) = match (batch.last(), walk.last()) {
        (Some(&n), Some(&s)) => (n, s),
        _ => (1, 0),
    };
    let mut offsets = vec![0isize; n];
    let mut bad = false;
    let (size_i, stride) = (size as i64, stride as i64);
    for_each_row(&batch, &walk, t.layout().offset(), |i0, base| {
        // Locals, not the captured references: the stores below would make the compiler
        // reload those every element.
        let (size_i, stride, step, mut row_bad) = (size_i, stride, step as i64, false);
        let row = values[i0..i0 + inner]
            .iter()
            .zip(&mut offsets[i0..i0 + inner]);
        for (j, (&i, o)) in (0..inner as i64).zip(row) {
            let k = i + (size_i & (i >> 63));
            row_bad |= k as u64 >= size_i as u64;
            // Wrapping: a value out of range (reported below) must not trap here.
            *o = (base as i64 + j * step).wrapping_add(k.wrapping_mul(stride)) as isize;
        }
        bad |= row_bad;
    });
    if bad {
        let index = *values
            .iter()
            .find(|&&i| !(-size_i..size_i).contains(&i))
            .expect("a value was out of range");
        return Err(Error::IndexOutOfRange {
            index,
            dim: d,
            size,
        });
    }
    Ok(IndexPlan {
        src: t.clone(),
        indexed: nd,
        batch,
        offsets,
        place: 0,
    })
}

/// `out[p] = t[p with p[dim] = index[p]]` for every position `p` of `index` (PyTorch's
/// `gather`, numpy's `take_along_axis`): a new tensor of `index`'s shape and `t`'s dtype.
/// `index` has `t`'s rank and, off `dim`, is no larger than `t`; negative values count from
/// the end.
pub fn gather(t: &Tensor, dim: isize, index: &Tensor) -> Result<Tensor> {
    let plan = along("gather", t, dim, index)?;
    let out = Tensor::alloc(index.shape(), t.dtype(), t.device(), false)?;
    if out.numel() > 0 {
        // SAFETY: `out` is fresh, exclusive, contiguous, of the gathered shape (the index's)
        // and `t`'s dtype, on `t`'s device.
        unsafe { backend(t.device())?.gather(&plan, &out)? };
    }
    Ok(out)
}

/// What a scatter writes: `src` cut to `index`'s shape (each dim of `src` at least as long)
/// and converted to `t`'s dtype, read in full first when it shares `t`'s memory.
fn scatter_values(op: &'static str, t: &Tensor, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let mut v = if src.ndim() == 0 {
        let sizes: DimVec<isize> = index.shape().iter().map(|&d| d as isize).collect();
        src.expand(&sizes)?
    } else if src.ndim() != index.ndim()
        || src.shape().iter().zip(index.shape()).any(|(&s, &i)| s < i)
    {
        return Err(Error::ShapeMismatch {
            op: match op {
                "scatter_add" => {
                    "scatter_add (src must be at least as large as the index in every dim)"
                }
                _ => "scatter (src must be at least as large as the index in every dim)",
            },
            expected: dims_i64(index.shape()),
            got: dims_i64(src.shape()),
        });
    } else {
        let mut v = src.clone();
        for (k, &i) in index.shape().iter().enumerate() {
            v = v.narrow(k as isize, 0, i)?;
        }
        v
    };
    v = v.to_dtype(t.dtype())?;
    if v.storage().same_as(t.storage()) {
        v = v.contiguous_copy()?;
    }
    Ok(v)
}

/// [`Tensor::scatter_`] through a possibly shared `t`.
///
/// # Safety
/// `t`'s memory must be writable, and no other thread may read or write the elements the
/// scatter reaches during the call.
pub unsafe fn scatter_shared(t: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<()> {
    t.ensure_writable()?;
    let plan = along("scatter", t, dim, index)?;
    let value = scatter_values("scatter", t, index, src)?;
    if plan.offsets.is_empty() {
        return Ok(());
    }
    // SAFETY: forwarded from the caller; `value` has the index's shape and `t`'s dtype and
    // does not share `t`'s memory.
    unsafe { backend(t.device())?.scatter(&plan, &value) }
}

/// [`Tensor::scatter_add_`] through a possibly shared `t`.
///
/// # Safety
/// As for [`scatter_shared`].
pub unsafe fn scatter_add_shared(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
) -> Result<()> {
    t.ensure_writable()?;
    let plan = along("scatter_add", t, dim, index)?;
    let value = scatter_values("scatter_add", t, index, src)?;
    if plan.offsets.is_empty() {
        return Ok(());
    }
    // SAFETY: as in `scatter_shared`.
    unsafe { backend(t.device())?.scatter_add(&plan, &value) }
}

/// A copy of `t` with `src`'s elements written where `index` points along `dim` (see
/// [`Tensor::scatter_`]).
pub fn scatter(t: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let out = t.contiguous_copy()?;
    // SAFETY: `out` is a fresh copy nobody else sees.
    unsafe { scatter_shared(&out, dim, index, src)? };
    Ok(out)
}

/// A copy of `t` with `src`'s elements added where `index` points along `dim` (see
/// [`Tensor::scatter_add_`]).
pub fn scatter_add(t: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let out = t.contiguous_copy()?;
    // SAFETY: `out` is a fresh copy nobody else sees.
    unsafe { scatter_add_shared(&out, dim, index, src)? };
    Ok(out)
}

impl Tensor {
    /// See [`gather`].
    pub fn gather(&self, dim: isize, index: &Tensor) -> Result<Tensor> {
        gather(self, dim, index)
    }

    /// `self[p with p[dim] = index[p]] = src[p]` for every position `p` of `index` (PyTorch's
    /// `scatter_`, numpy's `put_along_axis`). `src` is a tensor at least as large as `index`
    /// in every dim (its leading part is used) or a 0-d value, converted to this dtype.
    /// Where `index` repeats a target, the last write in row-major order wins.
    pub fn scatter_(&mut self, dim: isize, index: &Tensor, src: &Tensor) -> Result<()> {
        self.ensure_exclusive("scatter_")?;
        // SAFETY: exclusive (checked).
        unsafe { scatter_shared(self, dim, index, src) }
    }

    /// `self[p with p[dim] = index[p]] += src[p]` for every position `p` of `index`, repeated
    /// targets accumulating in row-major order (PyTorch's `scatter_add_`, numpy's
    /// `np.add.at`). Integers wrap; a Bool target is or-ed.
    pub fn scatter_add_(&mut self, dim: isize, index: &Tensor, src: &Tensor) -> Result<()> {
        self.ensure_exclusive("scatter_add_")?;
        // SAFETY: exclusive (checked).
        unsafe { scatter_add_shared(self, dim, index, src) }
    }
}
