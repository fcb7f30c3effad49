//! The CPU's advanced-indexing copies: whole elements moved as unsigned integers of their
//! size (no per-dtype code), one block per index position, walking the dims that are not
//! indexed; and their inverse, the advanced-indexing scatter.

use super::iter::{for_each_item, SendPtr};
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

/// Elements per parallel task of a gather (whole index positions).
const TASK_ELEMS: usize = 1 << 15;

/// See `Backend::gather`.
///
/// # Safety
/// As for `Backend::gather`: `out` is a fresh-like contiguous host tensor of the gathered
/// shape, disjoint from the source; every `offsets[b]` plus a walk of the rest dims is an
/// element of the source (the plan checked each index against its dim).
pub(crate) unsafe fn gather(plan: &IndexPlan, out: &Tensor) {
    // SAFETY: forwarded from the caller.
    by_size!(plan.src.dtype().size(), T => unsafe { gather_as::<T>(plan, out) })
}

/// [`gather`] moving elements as `T` (of the dtype's size).
///
/// # Safety
/// As for [`gather`], with `T` as large as the dtype.
unsafe fn gather_as<T: Copy>(plan: &IndexPlan, out: &Tensor) {
    let src = &plan.src;
    let rest = &src.shape()[plan.indexed..];
    let rest_strides = &src.strides()[plan.indexed..];
    let dst_strides = dense_strides(rest);
    let per_block: usize = rest.iter().product();
    // A block's innermost dim moves as one copy when the source has it contiguous.
    let k = rest.len();
    let (row, outer, outer_strides, outer_dst) = match rest_strides.last() {
        Some(1) => (
            rest[k - 1],
            &rest[..k - 1],
            &rest_strides[..k - 1],
            &dst_strides[..k - 1],
        ),
        _ => (1, rest, rest_strides, &dst_strides[..]),
    };
    let first = src.layout().offset() as isize;
    let base = SendPtr(src.storage().as_ptr().cast::<T>());
    let dst = SendPtr(out.data_ptr().cast::<T>());
    let n = plan.offsets.len();
    let per_task = (TASK_ELEMS / per_block.max(1)).max(1);
    let task = |t: usize| {
        let (lo, hi) = (t * per_task, ((t + 1) * per_task).min(n));
        let (base, dst) = (base.get().cast_const(), dst.get());
        if rest.is_empty() {
            // One element per index position (gather along a dim, or every dim indexed).
            for (b, &o) in (lo..hi).zip(&plan.offsets[lo..hi]) {
                // SAFETY: `first + o` is an element of the source (L3 and the plan's index
                // checks), `b` one of `out`; the two do not overlap. Unaligned accesses, as
                // borrowed memory need not be aligned to the element's size.
                unsafe {
                    dst.add(b)
                        .write_unaligned(base.offset(first + o).read_unaligned())
                };
            }
            return;
        }
        for (b, &o) in (lo..hi).zip(&plan.offsets[lo..hi]) {
            let d0 = (b * per_block) as isize;
            walk2(outer, outer_strides, first + o, outer_dst, d0, |s, d| {
                // SAFETY: the `row` elements from `s` are elements of the source (contiguous
                // when `row > 1`) and those from `d` of `out`, as above; copied as bytes, which
                // need no alignment.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        base.offset(s).cast::<u8>(),
                        dst.offset(d).cast::<u8>(),
                        row * std::mem::size_of::<T>(),
                    )
                }
            });
        }
    };
    for_each_item(n.div_ceil(per_task), per_task * per_block, task);
}

/// Calls `f(d, s)` with the destination and value element offsets of every element `plan`
/// writes, in row-major order of the index positions (so a repeated position's last write,
/// or last addition, is the last in that order).
fn scatter_walk(plan: &IndexPlan, value: &Tensor, mut f: impl FnMut(isize, isize)) {
    let dst = &plan.src;
    let nb = plan.batch.len();
    let rest = &dst.shape()[plan.indexed..];
    let rest_strides = &dst.strides()[plan.indexed..];
    let (vb, vr) = value.strides().split_at(nb);
    let first = dst.layout().offset() as isize;
    let v0 = value.layout().offset();
    // The value's offset of each index position, a row of the index at a time.
    let (inner, vstep) = match (plan.batch.last(), vb.last()) {
        (Some(&n), Some(&s)) => (n, s),
        _ => (1, 0),
    };
    crate::ops::for_each_row(&plan.batch, vb, v0, |i0, vbase| {
        let vbase = v0 as isize + vbase;
        for (j, &o) in (0..inner as isize).zip(&plan.offsets[i0..i0 + inner]) {
            let (d, s) = (first + o, vbase + j * vstep);
            if rest.is_empty() {
                f(d, s);
            } else {
                walk2(rest, rest_strides, d, vr, s, &mut f);
            }
        }
    });
}

/// See `Backend::scatter`.
///
/// # Safety
/// As for `Backend::scatter`, on the host.
pub(crate) unsafe fn scatter(plan: &IndexPlan, value: &Tensor) {
    by_size!(plan.src.dtype().size(), T => {
        let base = plan.src.storage().as_ptr().cast::<T>();
        let src = value.storage().as_ptr().cast::<T>();
        scatter_walk(plan, value, move |d, s| {
            // SAFETY: `d` is an element of the destination and `s` of `value` (each in
            // bounds by L3 and the plan's checks); they do not overlap.
            unsafe { base.offset(d).write_unaligned(src.offset(s).read_unaligned()) }
        })
    })
}
