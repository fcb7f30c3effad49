//! The CPU's advanced-indexing copies: whole elements moved as bytes (no per-dtype code),
//! one block per index position, walking the dims that are not indexed.

use crate::layout::MAX_DIMS;
use crate::ops::IndexPlan;
use crate::Tensor;

/// Calls `f(a, b)` with the element offsets of every index of `shape` (row-major), for two
/// layouts walked together from `a0` and `b0`.
fn walk2(
    shape: &[usize],
    sa: &[isize],
    a0: isize,
    sb: &[isize],
    b0: isize,
    mut f: impl FnMut(isize, isize),
) {
    if shape.contains(&0) {
        return;
    }
    let nd = shape.len();
    let mut idx = [0usize; MAX_DIMS];
    let (mut a, mut b) = (a0, b0);
    loop {
        f(a, b);
        let mut d = nd;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            a += sa[d];
            b += sb[d];
            if idx[d] < shape[d] {
                break;
            }
            a -= sa[d] * shape[d] as isize;
            b -= sb[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

/// Row-major strides (elements) of `shape`.
fn dense_strides(shape: &[usize]) -> Vec<isize> {
    let mut s = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for d in (0..shape.len()).rev() {
        s[d] = acc;
        acc *= shape[d] as isize;
    }
    s
}

/// The offset of batch position `b` in a layout whose leading `strides` walk the batch.
fn batch_offset(batch: &[usize], strides: &[isize], mut b: usize) -> isize {
    let mut o = 0isize;
    for d in (0..batch.len()).rev() {
        o += (b % batch[d]) as isize * strides[d];
        b /= batch[d];
    }
    o
}

/// See `Backend::gather`.
///
/// # Safety
/// As for `Backend::gather`: `out` is a fresh-like contiguous host tensor of the gathered
/// shape, disjoint from the source; every `offsets[b]` plus a walk of the rest dims is an
/// element of the source (the plan checked each index against its dim).
pub(crate) unsafe fn gather(plan: &IndexPlan, out: &Tensor) {
    let src = &plan.src;
    let size = src.dtype().size();
    let rest = &src.shape()[plan.indexed..];
    let rest_strides = &src.strides()[plan.indexed..];
    let dst_strides = dense_strides(rest);
    let per_block: usize = rest.iter().product();
    let base = src.storage().as_ptr();
    let dst = out.data_ptr();
    let first = src.layout().offset() as isize;
    for (b, &o) in plan.offsets.iter().enumerate() {
        let d0 = (b * per_block) as isize;
        walk2(rest, rest_strides, first + o, &dst_strides, d0, |s, d| {
            // SAFETY: `s` is an element of the source (in bounds by L3 and the plan's index
            // checks) and `d` an element of `out`; elements are `size` bytes and the two
            // tensors do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    base.offset(s * size as isize),
                    dst.offset(d * size as isize),
                    size,
                )
            }
        });
    }
}

/// See `Backend::scatter`.
///
/// # Safety
/// As for `Backend::scatter`, on the host.
pub(crate) unsafe fn scatter(plan: &IndexPlan, value: &Tensor) {
    let dst = &plan.src;
    let size = dst.dtype().size();
    let nb = plan.batch.len();
    let rest = &dst.shape()[plan.indexed..];
    let rest_strides = &dst.strides()[plan.indexed..];
    let (vb, vr) = value.strides().split_at(nb);
    let base = dst.storage().as_ptr();
    let src = value.storage().as_ptr();
    let first = dst.layout().offset() as isize;
    let v0 = value.layout().offset() as isize;
    for (b, &o) in plan.offsets.iter().enumerate() {
        let vo = v0 + batch_offset(&plan.batch, vb, b);
        walk2(rest, rest_strides, first + o, vr, vo, |d, s| {
            // SAFETY: `d` is an element of the destination and `s` of `value` (each in
            // bounds by L3 and the plan's checks); they do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    src.offset(s * size as isize),
                    base.offset(d * size as isize),
                    size,
                )
            }
        });
    }
}
