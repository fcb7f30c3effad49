//! Element-wise ops over permuted inputs (a transposed or `movedim`-ed tensor) into a
//! row-major result. Walking the result's order strides across every input, one cache line
//! per element once the rows outgrow the cache (a 1024×976 `a.T * b.T` ran 25× slower than
//! numpy, which keeps the inputs' layout). Instead the op runs in the inputs' memory order
//! (the inputs' dims permuted into memory order, which makes them row-major views) into a
//! row-major scratch, and one tiled transposing copy (`copy_cast`) writes the result: two
//! streaming passes. Results stay row-major (the contract every
//! binding relies on); PyTorch and numpy would return the permuted layout.

use crate::{Result, Tensor};

/// Below this many elements the strided walk stays in cache.
const MIN_ELEMS: usize = 1 << 12;

/// The dim order that makes a permuted dense layout row-major.
pub(super) struct Reorder {
    order: Vec<isize>,
    back: Vec<isize>,
}

impl Reorder {
    /// `t` with its dims in memory order: a row-major view of an input.
    pub(super) fn apply(&self, t: &Tensor) -> Result<Tensor> {
        t.permute(&self.order)
    }

    /// The result in memory order seen with the op's dims (a view to copy out of).
    pub(super) fn undo(&self, t: &Tensor) -> Result<Tensor> {
        t.permute(&self.back)
    }
}

/// The reordering when `inputs` all have `out`'s shape and one dense layout that permutes
/// the dims other than row-major, and `out` is row-major; `None` otherwise (inputs laid out
/// as `out`, broadcast, overlapping or with gaps, or a small op).
pub(super) fn reorder(inputs: &[&Tensor], out: &Tensor) -> Option<Reorder> {
    let first = inputs.first()?;
    let (shape, strides) = (out.shape(), first.strides());
    let alike = inputs
        .iter()
        .all(|t| t.shape() == shape && t.strides() == strides);
    if out.numel() < MIN_ELEMS || !out.is_contiguous() || first.is_contiguous() || !alike {
        return None;
    }
    // Dims by falling stride (size-1 dims, whose stride means nothing, last): dense when
    // each stride is the product of the sizes after it in this order.
    let mut order: Vec<usize> = (0..shape.len()).collect();
    order.sort_by_key(|&d| (shape[d] == 1, std::cmp::Reverse(strides[d])));
    let mut step = 1isize;
    for &d in order.iter().rev().filter(|&&d| shape[d] > 1) {
        if strides[d] != step {
            return None;
        }
        step *= shape[d] as isize;
    }
    let moved: Vec<usize> = order.iter().copied().filter(|&d| shape[d] > 1).collect();
    if moved.is_sorted() {
        return None; // row-major but for the strides of size-1 dims
    }
    let mut back = vec![0isize; order.len()];
    for (i, &d) in order.iter().enumerate() {
        back[d] = i as isize;
    }
    Some(Reorder {
        order: order.iter().map(|&d| d as isize).collect(),
        back,
    })
}
