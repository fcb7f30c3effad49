//! The CPU's advanced-indexing copies: whole elements moved as unsigned integers of their
//! size (no per-dtype code), one block per index position, walking the dims that are not
//! indexed; and the accumulating scatter (`scatter_add`), per dtype.

use super::iter::{for_each_item, SendPtr};
use super::num::Num;
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

/// Runs `$body` with `$T` an unsigned integer of `$size` bytes (every dtype's size is 1, 2,
/// 4 or 8), so each element moves as one load and one store instead of a `memcpy` call.
macro_rules! by_size {
    ($size:expr, $T:ident => $body:expr) => {
        match $size {
            1 => {
                type $T = u8;
                $body
            }
            2 => {
                type $T = u16;
                $body
            }
            4 => {
                type $T = u32;
                $body
            }
            8 => {
                type $T = u64;
                $body
            }
            other => unreachable!("no dtype is {other} bytes"),
        }
    };
}

/// Index positions per parallel task of a gather.
const GATHER_TASK: usize = 1 << 14;

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
    let first = src.layout().offset() as isize;
    let base = SendPtr(src.storage().as_ptr().cast::<T>());
    let dst = SendPtr(out.data_ptr().cast::<T>());
    let n = plan.offsets.len();
    let task = |t: usize| {
        let (lo, hi) = (t * GATHER_TASK, ((t + 1) * GATHER_TASK).min(n));
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
            walk2(rest, rest_strides, first + o, &dst_strides, d0, |s, d| {
                // SAFETY: `s` is an element of the source and `d` one of `out`, as above.
                unsafe {
                    dst.offset(d)
                        .write_unaligned(base.offset(s).read_unaligned())
                }
            });
        }
    };
    for_each_item(n.div_ceil(GATHER_TASK), GATHER_TASK * per_block, task);
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
    let v0 = value.layout().offset() as isize;
    for (b, &o) in plan.offsets.iter().enumerate() {
        let vo = v0 + batch_offset(&plan.batch, vb, b);
        walk2(rest, rest_strides, first + o, vr, vo, &mut f);
    }
}

/// See `Backend::scatter`.
///
/// # Safety
/// As for `Backend::scatter`, on the host.
pub(crate) unsafe fn scatter(plan: &IndexPlan, value: &Tensor) {
    by_size!(plan.src.dtype().size(), T => {
        let base = plan.src.storage().as_ptr().cast::<T>();
        let src = value.storage().as_ptr().cast::<T>();
        scatter_walk(plan, value, |d, s| {
            // SAFETY: `d` is an element of the destination and `s` of `value` (each in
            // bounds by L3 and the plan's checks); they do not overlap.
            unsafe { base.offset(d).write_unaligned(src.offset(s).read_unaligned()) }
        })
    })
}

/// See `Backend::scatter_add`.
///
/// # Safety
/// As for `Backend::scatter_add`, on the host; `value` has the destination's dtype.
pub(crate) unsafe fn scatter_add(plan: &IndexPlan, value: &Tensor) {
    debug_assert_eq!(plan.src.dtype(), value.dtype());
    crate::dispatch_num!(plan.src.dtype(), T => {
        let base = plan.src.storage().as_ptr().cast::<T>();
        let src = value.storage().as_ptr().cast::<T>();
        scatter_walk(plan, value, |d, s| {
            // SAFETY: as in `scatter`.
            unsafe {
                let at = base.offset(d);
                at.write_unaligned(Num::add(at.read_unaligned(), src.offset(s).read_unaligned()));
            }
        })
    }, bool => {
        // Booleans are bytes 0 or 1: their sum saturates, an `or`.
        let base = plan.src.storage().as_ptr();
        let src = value.storage().as_ptr();
        scatter_walk(plan, value, |d, s| {
            // SAFETY: as in `scatter`.
            unsafe { *base.offset(d) |= *src.offset(s) }
        })
    })
}
