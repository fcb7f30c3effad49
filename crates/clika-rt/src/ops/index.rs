//! Indexing with numpy's semantics: basic entries (ints, slices, new axes, `...`) give views;
//! integer and boolean tensors (advanced indexing) gather a copy, with numpy's broadcasting
//! of the index arrays and its placement rule. [`index_put_shared`] writes through the same
//! expressions (`t[i] = v`), and `index_select`, `masked_select`, `masked_fill`, `nonzero`
//! are the named forms PyTorch users know.
//!
//! Planning happens here ([`IndexPlan`]: the source viewed with the indexed dims first, one
//! element offset per broadcast index position); the backend copies the elements.

use super::binary::broadcast_shapes;
use crate::backend::backend;
use crate::error::dims_i64;
use crate::layout::{normalize_dim, DimVec};
use crate::{DType, Device, Error, Result, Tensor};

/// One entry of an index expression.
#[derive(Debug, Clone)]
pub enum TensorIndex {
    /// An integer: selects one position and removes the dim (negative counts from the end).
    Int(isize),
    /// `start:stop:step` (Python's slice rules; a negative step walks backwards).
    Slice {
        /// First index (default: the start in the step's direction).
        start: Option<isize>,
        /// One past the last (default: the end in the step's direction).
        stop: Option<isize>,
        /// Step, non-zero.
        step: isize,
    },
    /// `None` / `np.newaxis`: a new dim of size 1.
    NewAxis,
    /// `...`: as many full slices as the other entries leave dims.
    Ellipsis,
    /// An integer tensor (indices along one dim, broadcast with the other index tensors) or
    /// a `Bool` tensor (a mask over as many dims as it has, equal in shape to them).
    Tensor(Tensor),
}

impl TensorIndex {
    /// `:` (every element of the dim).
    pub const FULL: TensorIndex = TensorIndex::Slice {
        start: None,
        stop: None,
        step: 1,
    };

    /// Dims of the source the entry consumes.
    fn consumes(&self) -> usize {
        match self {
            TensorIndex::Int(_) | TensorIndex::Slice { .. } => 1,
            TensorIndex::NewAxis | TensorIndex::Ellipsis => 0,
            TensorIndex::Tensor(t) if t.dtype() == DType::Bool => t.ndim(),
            TensorIndex::Tensor(_) => 1,
        }
    }
}

fn index_error(what: String) -> Error {
    Error::InvalidArgument { what }
}

/// An advanced index planned for a backend: the source viewed with the indexed dims first
/// (in order) and the others after, and for each position of the broadcast index shape the
/// element offset (relative to the view's offset) of the block it selects.
#[derive(Debug)]
pub(crate) struct IndexPlan {
    /// The source, indexed dims first (their strides are folded into `offsets`).
    pub(crate) src: Tensor,
    /// How many leading dims of `src` the index tensors consume.
    pub(crate) indexed: usize,
    /// The broadcast shape of the index tensors.
    pub(crate) batch: DimVec<usize>,
    /// One element offset per position of `batch`, row-major.
    pub(crate) offsets: Vec<isize>,
    /// Where the batch dims go in the result: at this dim (numpy: where the adjacent index
    /// tensors stood), or first when the index tensors were not adjacent.
    pub(crate) place: usize,
}

impl IndexPlan {
    /// The shape of the gathered block before placement: batch dims, then the rest.
    pub(crate) fn gathered_shape(&self) -> DimVec<usize> {
        let mut s = self.batch.clone();
        s.extend_from_slice(&self.src.shape()[self.indexed..]);
        s
    }

    /// The shape of the result in numpy's placement: the rest dims before `place`, the batch
    /// dims, the rest dims after. [`Backend::gather`](crate::backend::Backend::gather) fills a
    /// contiguous tensor of this shape.
    pub(crate) fn placed_shape(&self) -> DimVec<usize> {
        let rest = &self.src.shape()[self.indexed..];
        let mut s: DimVec<usize> = rest[..self.place].iter().copied().collect();
        s.extend_from_slice(&self.batch);
        s.extend_from_slice(&rest[self.place..]);
        s
    }

    /// Permutation taking the gathered layout (batch first) to numpy's placement.
    fn placement(&self) -> DimVec<isize> {
        let (nb, nr) = (self.batch.len(), self.src.ndim() - self.indexed);
        let mut order: DimVec<isize> = DimVec::new();
        order.extend((nb..nb + self.place).map(|d| d as isize));
        order.extend((0..nb).map(|d| d as isize));
        order.extend((nb + self.place..nb + nr).map(|d| d as isize));
        order
    }
}

/// The result of applying the basic entries of `idx` to `t`, and the advanced ones planned.
enum Planned {
    View(Tensor),
    Advanced(IndexPlan),
}

/// Expands `...` and checks the entry count.
fn expand_ellipsis(t: &Tensor, idx: &[TensorIndex]) -> Result<Vec<TensorIndex>> {
    let ellipses = idx
        .iter()
        .filter(|e| matches!(e, TensorIndex::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(index_error(
            "an index can only have a single ellipsis ('...')".to_string(),
        ));
    }
    let consumed: usize = idx.iter().map(TensorIndex::consumes).sum();
    if consumed > t.ndim() {
        return Err(index_error(format!(
            "too many indices for a tensor with {} dimensions: {consumed} were given",
            t.ndim()
        )));
    }
    let mut out = Vec::with_capacity(t.ndim() + idx.len());
    for e in idx {
        match e {
            TensorIndex::Ellipsis => {
                out.extend(std::iter::repeat_n(TensorIndex::FULL, t.ndim() - consumed));
            }
            other => out.push(other.clone()),
        }
    }
    // Dims not reached by the expression are kept whole.
    let reached: usize = out.iter().map(TensorIndex::consumes).sum();
    out.extend(std::iter::repeat_n(TensorIndex::FULL, t.ndim() - reached));
    Ok(out)
}

/// The element offsets (`start + Σ position·stride`) of the set flags of a row-major
/// `flags` array of `shape`, in order, laid over `strides`.
fn true_offsets(flags: &[u8], shape: &[usize], strides: &[isize], start: usize) -> Vec<isize> {
    let inner = shape.last().copied().unwrap_or(1);
    let step = strides.last().copied().unwrap_or(0);
    let mut offsets = Vec::new();
    for_each_row(shape, strides, start, |i0, base| {
        // Branch-free: every position is written at the next slot, which advances only past
        // a set flag. A filter's branch on a random mask mispredicted half the time (18 ms
        // for 4M elements against nonzero's 2).
        let at = offsets.len();
        offsets.resize(at + inner, 0);
        let mut k = 0;
        let slots = &mut offsets[at..];
        for (j, &f) in flags[i0..i0 + inner].iter().enumerate() {
            slots[k] = base + j as isize * step;
            k += usize::from(f != 0); // k <= j, so the next write stays in bounds
        }
        offsets.truncate(at + k);
    });
    offsets
}

/// A boolean mask as `0`/`1` bytes on the host, row-major.
fn mask_flags(mask: &Tensor) -> Result<Tensor> {
    mask.to(Device::cpu())?
        .to_dtype(DType::Bool)?
        .to_dtype(DType::UInt8)?
        .contiguous()
}

/// An index tensor or mask of an indexing expression, by the dims of the indexed view it
/// reaches.
enum Advanced {
    /// Integer indices into dim `dim`.
    Index { dim: usize, ix: Tensor },
    /// A mask over dims `dim..dim + ndim`: its `True` positions as element offsets in the
    /// view (one index per position, a 1-d batch), found in one pass over the mask.
    Mask {
        dim: usize,
        ndim: usize,
        offsets: Vec<isize>,
    },
}

impl Advanced {
    fn dims(&self) -> std::ops::Range<usize> {
        match self {
            Advanced::Index { dim, .. } => *dim..dim + 1,
            Advanced::Mask { dim, ndim, .. } => *dim..dim + ndim,
        }
    }

    fn shape(&self) -> DimVec<usize> {
        match self {
            Advanced::Index { ix, .. } => ix.shape().iter().copied().collect(),
            Advanced::Mask { offsets, .. } => std::iter::once(offsets.len()).collect(),
        }
    }
}

fn plan(t: &Tensor, idx: &[TensorIndex]) -> Result<Planned> {
    let entries = expand_ellipsis(t, idx)?;
    let advanced = entries.iter().any(|e| matches!(e, TensorIndex::Tensor(_)));
    let mut v = t.clone();
    let mut dim = 0isize;
    // Every advanced entry, in order.
    let mut arrays: Vec<Advanced> = Vec::new();
    for e in entries {
        match e {
            TensorIndex::Int(i) if !advanced => v = v.select(dim, i)?,
            TensorIndex::Int(i) => {
                // With index tensors present, an int is a 0-d index array (numpy).
                let ix = Tensor::from_vec(vec![i as i64], &[])?;
                arrays.push(Advanced::Index {
                    dim: dim as usize,
                    ix,
                });
                dim += 1;
            }
            TensorIndex::Slice { start, stop, step } => {
                v = v.slice(dim, start, stop, step)?;
                dim += 1;
            }
            TensorIndex::NewAxis => {
                v = v.unsqueeze(dim)?;
                dim += 1;
            }
            TensorIndex::Ellipsis => unreachable!("expanded above"),
            TensorIndex::Tensor(m) if m.dtype() == DType::Bool => {
                if m.ndim() == 0 {
                    return Err(index_error(
                        "a 0-d boolean index is not supported; index with t[None] (true) or \
                         an empty slice (false)"
                            .to_string(),
                    ));
                }
                let d = dim as usize;
                let covered = &v.shape()[d..d + m.ndim()];
                if covered != m.shape() {
                    return Err(index_error(format!(
                        "boolean index of shape {:?} does not match the indexed dims {:?} \
                         (dims {d}..{})",
                        m.shape(),
                        covered,
                        d + m.ndim()
                    )));
                }
                let flags = mask_flags(&m)?;
                let strides = &v.strides()[d..d + m.ndim()];
                let offsets = true_offsets(flags.as_slice::<u8>()?, m.shape(), strides, 0);
                arrays.push(Advanced::Mask {
                    dim: d,
                    ndim: m.ndim(),
                    offsets,
                });
                dim += m.ndim() as isize;
            }
            TensorIndex::Tensor(ix) => {
                if !ix.dtype().is_integer() {
                    return Err(index_error(format!(
                        "index tensors must be integers or bool, got {}; convert with \
                         .to(int64)",
                        ix.dtype()
                    )));
                }
                arrays.push(Advanced::Index {
                    dim: dim as usize,
                    ix,
                });
                dim += 1;
            }
        }
    }
    if arrays.is_empty() {
        return Ok(Planned::View(v));
    }
    // Indexed dims first, the rest after, in order.
    let positions: Vec<usize> = arrays.iter().flat_map(Advanced::dims).collect();
    let adjacent = positions.windows(2).all(|w| w[1] == w[0] + 1);
    let mut order: Vec<isize> = positions.iter().map(|&d| d as isize).collect();
    order.extend(
        (0..v.ndim())
            .filter(|d| !positions.contains(d))
            .map(|d| d as isize),
    );
    let src = v.permute(&order)?;
    let mut batch: DimVec<usize> = DimVec::new();
    for a in &arrays {
        batch = broadcast_shapes(&batch, &a.shape())?;
    }
    let sizes: DimVec<isize> = batch.iter().map(|&d| d as isize).collect();
    let nb: usize = batch.iter().product();
    let mut offsets = vec![0isize; nb];
    for a in &arrays {
        match a {
            Advanced::Index { dim, ix } => {
                // The dim's size and stride are the view's (`src` only reorders dims).
                let (size, stride) = (v.shape()[*dim], v.strides()[*dim]);
                let ix = ix
                    .to(Device::cpu())?
                    .to_dtype(DType::Int64)?
                    .expand(&sizes)?
                    .contiguous()?;
                for (o, &i) in offsets.iter_mut().zip(ix.as_slice::<i64>()?) {
                    let j = if i < 0 { i + size as i64 } else { i };
                    if j < 0 || j >= size as i64 {
                        return Err(Error::IndexOutOfRange {
                            index: i,
                            dim: *dim,
                            size,
                        });
                    }
                    *o += j as isize * stride;
                }
            }
            Advanced::Mask { offsets: hits, .. } if batch[..] == [hits.len()] => {
                offsets.iter_mut().zip(hits).for_each(|(o, &h)| *o += h);
            }
            Advanced::Mask { offsets: hits, .. } => {
                // Broadcast against the other index tensors.
                let hits =
                    Tensor::from_vec(hits.iter().map(|&h| h as i64).collect(), &[hits.len()])?
                        .expand(&sizes)?
                        .contiguous()?;
                for (o, &h) in offsets.iter_mut().zip(hits.as_slice::<i64>()?) {
                    *o += h as isize;
                }
            }
        }
    }
    Ok(Planned::Advanced(IndexPlan {
        indexed: positions.len(),
        place: if adjacent { positions[0] } else { 0 },
        src,
        batch,
        offsets,
    }))
}

/// `t[idx]` with numpy's rules: a view when every entry is basic, a copy (in runtime memory)
/// when any is an index tensor.
pub fn index(t: &Tensor, idx: &[TensorIndex]) -> Result<Tensor> {
    match plan(t, idx)? {
        Planned::View(v) => Ok(v),
        Planned::Advanced(p) => {
            let out = Tensor::alloc(&p.placed_shape(), t.dtype(), t.device(), false)?;
            // SAFETY: `out` is fresh, exclusive, contiguous, of the placed shape and `t`'s
            // dtype, on `t`'s device.
            unsafe { backend(t.device())?.gather(&p, &out)? };
            Ok(out)
        }
    }
}

/// `t[idx] = value` through a possibly shared `t`: `value` (converted to `t`'s dtype) is
/// broadcast to the indexed shape. With repeated indices the last write wins.
///
/// # Safety
/// `t`'s memory must be writable, and no other thread may read or write the elements the
/// expression reaches during the call (numpy's and PyTorch's contract for `t[i] = v`).
pub unsafe fn index_put_shared(t: &Tensor, idx: &[TensorIndex], value: &Tensor) -> Result<()> {
    t.ensure_writable()?;
    if let [TensorIndex::Tensor(mask)] = idx {
        // `t[mask] = v` with a boolean mask of `t`'s whole shape and one value (PyTorch's
        // own rewrite into `masked_fill_`): one pass in place instead of listing the
        // mask's positions and scattering to them.
        let host = t.device().is_cpu() && mask.device().is_cpu() && value.device().is_cpu();
        if host
            && mask.dtype() == DType::Bool
            && mask.shape() == t.shape()
            && value.numel() == 1
            && value.ndim() <= 1
        {
            // SAFETY: forwarded from the caller (`fill_where` reads `value` through a copy).
            return unsafe { fill_where(t, mask, &value.to_dtype(t.dtype())?) };
        }
    }
    match plan(t, idx)? {
        // SAFETY: forwarded from the caller; `v` is a view of `t`.
        Planned::View(v) => unsafe { v.copy_shared(value) },
        Planned::Advanced(p) => {
            let shape = p.gathered_shape();
            let placed: DimVec<usize> = p.placement().iter().map(|&d| shape[d as usize]).collect();
            let fits = broadcast_shapes(value.shape(), &placed)?;
            if fits.as_slice() != placed.as_slice() {
                return Err(Error::ShapeMismatch {
                    op: "index_put (the value must broadcast to the indexed shape)",
                    expected: dims_i64(&placed),
                    got: dims_i64(value.shape()),
                });
            }
            let sizes: DimVec<isize> = placed.iter().map(|&d| d as isize).collect();
            // The value in the gathered order (batch dims first), read in full first when it
            // shares `t`'s memory.
            let inverse = invert(&p.placement());
            let value = value.to_dtype(t.dtype())?;
            let value = if value.storage().same_as(t.storage()) {
                value.contiguous_copy()?
            } else {
                value
            };
            let value = value.expand(&sizes)?.permute(&inverse)?;
            // SAFETY: forwarded from the caller; `value` does not share `t`'s memory.
            unsafe { backend(t.device())?.scatter(&p, &value) }
        }
    }
}

/// [`index_put_shared`] on a tensor nothing else shares.
pub fn index_put_(t: &mut Tensor, idx: &[TensorIndex], value: &Tensor) -> Result<()> {
    t.ensure_exclusive("index_put_")?;
    // SAFETY: exclusive (checked).
    unsafe { index_put_shared(t, idx, value) }
}

fn invert(order: &[isize]) -> DimVec<isize> {
    let mut inv: DimVec<isize> = std::iter::repeat_n(0, order.len()).collect();
    for (i, &d) in order.iter().enumerate() {
        inv[d as usize] = i as isize;
    }
    inv
}

/// The entries of `t` along `dim` at `indices` (an integer tensor of any shape; negative
/// indices count from the end): PyTorch's `index_select` generalised as numpy's `take`
/// along one axis (`t[:, indices]` for `dim = 1`).
pub fn index_select(t: &Tensor, dim: isize, indices: &Tensor) -> Result<Tensor> {
    let d = normalize_dim(dim, t.ndim())?;
    let mut idx = vec![TensorIndex::FULL; d];
    idx.push(TensorIndex::Tensor(indices.clone()));
    index(t, &idx)
}

/// The elements of `t` where `mask` (broadcast to `t`'s shape) is true, as a 1-D tensor in
/// row-major order: one walk over the mask gives the element offset of every hit, which the
/// backend gathers (no per-dim index vectors).
pub fn masked_select(t: &Tensor, mask: &Tensor) -> Result<Tensor> {
    let shape = broadcast_shapes(t.shape(), mask.shape())?;
    let sizes: DimVec<isize> = shape.iter().map(|&d| d as isize).collect();
    let src = t.expand(&sizes)?;
    let flags = mask_flags(&mask.to(Device::cpu())?.expand(&sizes)?)?;
    let offsets = true_offsets(
        flags.as_slice::<u8>()?,
        &shape,
        src.strides(),
        src.layout().offset(),
    );
    let plan = IndexPlan {
        indexed: src.ndim(),
        batch: std::iter::once(offsets.len()).collect(),
        offsets,
        place: 0,
        src,
    };
    let out = Tensor::alloc(&plan.placed_shape(), t.dtype(), t.device(), false)?;
    if out.numel() > 0 {
        // SAFETY: `out` is fresh, exclusive, contiguous, of the placed shape and `t`'s
        // dtype, on `t`'s device; every offset is an element of the (expanded) source.
        unsafe { backend(t.device())?.gather(&plan, &out)? };
    }
    Ok(out)
}

/// Calls `f(i0, base)` for every row of `shape`'s innermost dim, in row-major order: `i0` is
/// the flat index of the row's first position and `base` its offset under `strides` from
/// element `[0, …, 0]`, which lies at absolute offset `start` (so every offset walked is a
/// reachable element's). A 0-d shape is one row of one position.
pub(crate) fn for_each_row(
    shape: &[usize],
    strides: &[isize],
    start: usize,
    mut f: impl FnMut(usize, isize),
) {
    let nd = shape.len();
    let inner = shape.last().copied().unwrap_or(1);
    let outer = nd.saturating_sub(1);
    if inner == 0 {
        return;
    }
    let mut i0 = 0;
    super::strided::walk(&shape[..outer], &strides[..outer], start, |o| {
        f(i0, o as isize - start as isize);
        i0 += inner;
    });
}

/// A copy of `t` with `value` where `mask` (broadcast to `t`'s shape; non-zero is true) is
/// true: one elementwise select (`where`), no index lists.
pub fn masked_fill(t: &Tensor, mask: &Tensor, value: super::Scalar) -> Result<Tensor> {
    check_mask(t, mask)?;
    super::where_(mask, &value.to_tensor(t.dtype())?, t)
}

/// `mask` must broadcast to `t`'s shape (not past it).
fn check_mask(t: &Tensor, mask: &Tensor) -> Result<()> {
    let shape = broadcast_shapes(t.shape(), mask.shape())?;
    if shape.as_slice() != t.shape() {
        return Err(Error::ShapeMismatch {
            op: "masked_fill (the mask must broadcast to the tensor's shape)",
            expected: dims_i64(t.shape()),
            got: dims_i64(mask.shape()),
        });
    }
    Ok(())
}

impl Tensor {
    /// Sets the elements where `mask` (broadcast to this shape) is true to `value`.
    pub fn masked_fill_(&mut self, mask: &Tensor, value: super::Scalar) -> Result<()> {
        self.ensure_exclusive("masked_fill_")?;
        // SAFETY: exclusive (checked).
        unsafe { self.masked_fill_shared(mask, value) }
    }

    /// [`masked_fill_`](Tensor::masked_fill_) through a possibly shared view.
    ///
    /// # Safety
    /// As for [`index_put_shared`].
    pub unsafe fn masked_fill_shared(&self, mask: &Tensor, value: super::Scalar) -> Result<()> {
        self.ensure_writable()?;
        if !self.device().is_cpu() || mask.device() != self.device() {
            let filled = masked_fill(self, mask, value)?;
            // SAFETY: forwarded from the caller; `filled` is fresh memory.
            return unsafe { self.copy_shared(&filled) };
        }
        check_mask(self, mask)?;
        let v = value.to_tensor(self.dtype())?;
        // SAFETY: forwarded from the caller.
        unsafe { fill_where(self, mask, &v) }
    }
}

/// `t[i] = mask[i] ? value : t[i]` in one pass in place on the host: no tensor-sized
/// temporary and no second pass to copy it back. `mask` broadcasts to `t`'s shape (checked
/// by the caller); `value` is one element of `t`'s dtype.
///
/// # Safety
/// As for [`index_put_shared`]; `t` is writable.
unsafe fn fill_where(t: &Tensor, mask: &Tensor, value: &Tensor) -> Result<()> {
    let dtype = t.dtype();
    // A mask that shares this storage under another layout or dtype is copied first.
    let mask = t.detach_overlap(mask)?;
    let c = super::binary::as_operand(&mask, DType::Bool, t.shape())?;
    let v = super::binary::as_operand(&value.contiguous_copy()?, dtype, t.shape())?;
    crate::dispatch_dtype!(dtype, T => {
        // SAFETY: host tensors of this shape; the output is `t` exactly (which `map3`
        // allows of an input with the same layout), the caller excludes other access to
        // it, and `c` and `v` do not overlap it (`v` is fresh; `c` is `t` itself, a fresh
        // conversion, or memory `detach_overlap` showed to be apart).
        unsafe {
            crate::backend::kernel::map3::<bool, T, T, T>(&c, &v, t, t, |c, x, y| {
                if c {
                    x
                } else {
                    y
                }
            })
        }
    });
    Ok(())
}

/// The indices of `t`'s non-zero elements: an `Int64` tensor `[count, ndim]` on `t`'s
/// device, rows in row-major order (PyTorch's `nonzero`; numpy's `argwhere`).
pub fn nonzero(t: &Tensor) -> Result<Tensor> {
    let on_device = t
        .to_dtype(DType::Bool)
        .and_then(|m| m.contiguous())
        .and_then(|m| backend(m.device())?.nonzero(&m));
    match on_device {
        // A device without the kernel: on the host, the answer moved back.
        Err(Error::UnsupportedOnDevice { .. }) if !t.device().is_cpu() => {
            nonzero(&t.to(Device::cpu())?)?.to(t.device())
        }
        r => r,
    }
}
