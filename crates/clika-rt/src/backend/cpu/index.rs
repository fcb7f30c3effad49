//! The CPU's advanced-indexing copies: whole elements moved as unsigned integers of their
//! size (no per-dtype code), one block per index position, walking the dims that are not
//! indexed; and their inverse, the advanced-indexing scatter.

use super::along::non_overlapping;
use super::iter::{for_each_group, SendPtr, PARALLEL_MIN_ELEMS};
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

/// The element offset of row-major position `i` of `shape` under `strides`.
fn offset_of(shape: &[usize], strides: &[isize], mut i: usize) -> isize {
    let mut off = 0;
    for (&n, &s) in shape.iter().zip(strides).rev() {
        off += (i % n) as isize * s;
        i /= n;
    }
    off
}

/// See `Backend::gather`.
///
/// # Safety
/// As for `Backend::gather`: `out` is a fresh-like contiguous host tensor of the placed
/// shape, disjoint from the source; every `offsets[b]` plus a walk of the rest dims is an
/// element of the source (the plan checked each index against its dim).
pub(crate) unsafe fn gather(plan: &IndexPlan, out: &Tensor) {
    // SAFETY: forwarded from the caller.
    by_size!(plan.src.dtype().size(), T => unsafe { gather_as::<T>(plan, out) })
}

/// [`gather`] moving elements as `T` (of the dtype's size).
///
/// The result is written in its placed order: for each position of the rest dims before
/// the index (`pre`), each index position, then a block of the rest dims after it (`post`).
/// So `t[:, idx]` reads each source row at the picked columns and writes its result row
/// once, where a gather in index-major order would walk the source a column at a time.
///
/// # Safety
/// As for [`gather`], with `T` as large as the dtype.
unsafe fn gather_as<T: Copy>(plan: &IndexPlan, out: &Tensor) {
    let src = &plan.src;
    let (pre, post) = src.shape()[plan.indexed..].split_at(plan.place);
    let (pre_strides, post_strides) = src.strides()[plan.indexed..].split_at(plan.place);
    let post_dst = dense_strides(post);
    let per_block: usize = post.iter().product();
    // A block's innermost dim moves as one copy when the source has it contiguous.
    let k = post.len();
    let (row, outer, outer_strides, outer_dst) = match post_strides.last() {
        Some(1) => (
            post[k - 1],
            &post[..k - 1],
            &post_strides[..k - 1],
            &post_dst[..k - 1],
        ),
        _ => (1, post, post_strides, &post_dst[..]),
    };
    let first = src.layout().offset() as isize;
    let base = SendPtr(src.storage().as_ptr().cast::<T>());
    let dst = SendPtr(out.data_ptr().cast::<T>());
    let n = plan.offsets.len();
    let items = pre.iter().product::<usize>() * n;
    if items == 0 || per_block == 0 {
        return;
    }
    let parallel = items.saturating_mul(per_block) >= PARALLEL_MIN_ELEMS;
    for_each_group(items, per_block, parallel, &|range| {
        let (base, dst) = (base.get().cast_const(), dst.get());
        let mut i = range.start;
        while i < range.end {
            // A run of index positions under one `pre` position.
            let (p, b0) = (i / n, i % n);
            let b1 = (b0 + (range.end - i)).min(n);
            let s0 = first + offset_of(pre, pre_strides, p);
            let picks = &plan.offsets[b0..b1];
            if post.is_empty() {
                for (j, &o) in picks.iter().enumerate() {
                    // SAFETY: `s0 + o` is an element of the source (L3 and the plan's index
                    // checks), `i + j` one of `out`; the two do not overlap. Unaligned
                    // accesses, as borrowed memory need not be aligned to the element's size.
                    unsafe {
                        dst.add(i + j)
                            .write_unaligned(base.offset(s0 + o).read_unaligned())
                    };
                }
            } else {
                for (j, &o) in picks.iter().enumerate() {
                    let d0 = ((i + j) * per_block) as isize;
                    walk2(outer, outer_strides, s0 + o, outer_dst, d0, |s, d| {
                        // SAFETY: the `row` elements from `s` are elements of the source
                        // (contiguous when `row > 1`) and those from `d` of `out`, as above;
                        // copied as bytes, which need no alignment.
                        unsafe {
                            std::ptr::copy_nonoverlapping(
                                base.offset(s).cast::<u8>(),
                                dst.offset(d).cast::<u8>(),
                                row * std::mem::size_of::<T>(),
                            )
                        }
                    });
                }
            }
            i += picks.len();
        }
    });
}

/// Calls `f(d, s)` with the destination and value element offsets of every element `plan`
/// writes, in the result's placed order: each position of the rest dims before the index
/// (`pre`), each index position in row-major order, then the rest dims after (so `t[:, idx]
/// = v` writes along the rows of `t`, not down its columns). Two index positions that reach
/// one element differ only in their position, so a repeated position's last write, or last
/// addition, is still the last in row-major order of the index.
///
/// Walks the `pre` positions in `pres` (all of them: `0..` their count).
fn scatter_walk(
    plan: &IndexPlan,
    value: &Tensor,
    pres: std::ops::Range<usize>,
    mut f: impl FnMut(isize, isize),
) {
    let dst = &plan.src;
    let nb = plan.batch.len();
    let (pre, post) = dst.shape()[plan.indexed..].split_at(plan.place);
    let (pre_strides, post_strides) = dst.strides()[plan.indexed..].split_at(plan.place);
    let (vb, vr) = value.strides().split_at(nb);
    let (v_pre, v_post) = vr.split_at(plan.place);
    let first = dst.layout().offset() as isize;
    let v0 = value.layout().offset() as isize;
    // The value's offset of each index position, a row of the index at a time.
    let (inner, vstep) = match (plan.batch.last(), vb.last()) {
        (Some(&n), Some(&s)) => (n, s),
        _ => (1, 0),
    };
    for p in pres {
        let dp = first + offset_of(pre, pre_strides, p);
        let vp = v0 + offset_of(pre, v_pre, p);
        // `vp` is an element's offset in the value's storage, so not negative.
        crate::ops::for_each_row(&plan.batch, vb, vp as usize, |i0, vbase| {
            let vbase = vp + vbase;
            for (j, &o) in (0..inner as isize).zip(&plan.offsets[i0..i0 + inner]) {
                let (d, s) = (dp + o, vbase + j * vstep);
                if post.is_empty() {
                    f(d, s);
                } else {
                    walk2(post, post_strides, d, v_post, s, &mut f);
                }
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
    let pres: usize = dst.shape()[plan.indexed..][..plan.place].iter().product();
    let per_pre = value.numel() / pres.max(1);
    // Distinct `pre` positions write distinct elements unless the destination's own elements
    // overlap (an expanded or hand-strided view may); then one thread writes in order.
    let parallel = pres > 1
        && pres.saturating_mul(per_pre) >= PARALLEL_MIN_ELEMS
        && non_overlapping(dst.shape(), dst.strides());
    by_size!(dst.dtype().size(), T => {
        let base = SendPtr(dst.storage().as_ptr().cast::<T>());
        let src = SendPtr(value.storage().as_ptr().cast::<T>());
        for_each_group(pres, per_pre, parallel, &|group| {
            let (base, src) = (base.get(), src.get().cast_const());
            scatter_walk(plan, value, group, |d, s| {
                // SAFETY: `d` is an element of the destination and `s` of `value` (each in
                // bounds by L3 and the plan's checks); they do not overlap, and another
                // group's `d` is another element (checked above when groups run at once).
                unsafe { base.offset(d).write_unaligned(src.offset(s).read_unaligned()) }
            })
        })
    })
}
