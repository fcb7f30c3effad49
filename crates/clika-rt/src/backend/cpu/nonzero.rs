//! The CPU's `nonzero`: the coordinates of a mask's set elements, in two parallel passes over
//! tasks of whole rows of the innermost dim — count each task's set elements, then (each task
//! writing from its prefix-sum position) write their coordinates. Within a row, the set
//! positions are first compressed into a small buffer without a branch on the mask (a store
//! per element, the cursor advanced by the flag), so a random mask costs no mispredictions.

use super::iter::{for_each_item, SendPtr};
use crate::{DType, Device, Result, Tensor};

/// Elements of the mask per task (whole rows).
const TASK_ELEMS: usize = 1 << 16;

/// Positions of a row compressed at a time.
const BLOCK: usize = 256;

/// See `Backend::nonzero`.
pub(crate) fn nonzero(mask: &Tensor) -> Result<Tensor> {
    debug_assert!(mask.dtype() == DType::Bool && mask.is_contiguous() && mask.device().is_cpu());
    let (shape, nd, n) = (mask.shape(), mask.ndim(), mask.numel());
    let flags: &[u8] = if n == 0 {
        &[]
    } else {
        // SAFETY: a contiguous host `Bool` tensor of `n` one-byte elements (checked above in
        // debug builds; the trait's contract), which nobody writes during the call.
        unsafe { std::slice::from_raw_parts(mask.const_data_ptr(), n) }
    };
    if nd == 0 {
        return Tensor::alloc(&[count_set(flags), 0], DType::Int64, Device::cpu(), false);
    }
    let inner = shape[nd - 1];
    let rows = n.checked_div(inner).unwrap_or(0);
    let per_task = (TASK_ELEMS / inner.max(1)).max(1);
    let tasks = rows.div_ceil(per_task);
    let span = move |k: usize| (k * per_task, ((k + 1) * per_task).min(rows));

    let mut starts = vec![0usize; tasks + 1];
    let counts = SendPtr(starts[1..].as_mut_ptr());
    for_each_item(tasks, per_task * inner, |k| {
        let (r0, r1) = span(k);
        let c = count_set(&flags[r0 * inner..r1 * inner]);
        // SAFETY: `k < tasks`, and each task writes only its own slot of `starts[1..]`.
        unsafe { counts.get().add(k).write(c) };
    });
    for k in 0..tasks {
        starts[k + 1] += starts[k];
    }
    let total = starts[tasks];
    let out = Tensor::alloc(&[total, nd], DType::Int64, Device::cpu(), false)?;
    if total == 0 {
        return Ok(out);
    }
    let dst = SendPtr(out.data_ptr().cast::<i64>());
    let outer = &shape[..nd - 1];
    let starts = &starts;
    for_each_item(tasks, per_task * inner, |k| {
        let (r0, r1) = span(k);
        // The outer coordinates of row `r0`, then advanced row by row.
        let mut at = [0i64; crate::layout::MAX_DIMS];
        let mut rest = r0;
        for d in (0..nd - 1).rev() {
            at[d] = (rest % outer[d]) as i64;
            rest /= outer[d];
        }
        // SAFETY: task `k` owns rows `starts[k]..starts[k + 1]` of `out` (`[total, nd]`
        // `Int64`, fresh, contiguous), exactly the set elements of its rows that it writes.
        let mut w = unsafe { dst.get().add(starts[k] * nd) };
        let mut pos = [0u32; BLOCK];
        for r in r0..r1 {
            for (b, block) in flags[r * inner..(r + 1) * inner].chunks(BLOCK).enumerate() {
                let mut m = 0;
                for (j, &f) in block.iter().enumerate() {
                    // `m <= j < BLOCK`: the mask only lets the compiler drop the bounds check.
                    pos[m & (BLOCK - 1)] = j as u32;
                    m += usize::from(f != 0);
                }
                for &j in &pos[..m] {
                    // SAFETY: one of this task's rows of `out` (above): `nd` elements. The
                    // outer coordinates are stored one by one: `nd` is small, and a copy of
                    // a run-time length would be a `memcpy` call per row of the result.
                    unsafe {
                        for (d, &c) in at[..nd - 1].iter().enumerate() {
                            w.add(d).write(c);
                        }
                        w.add(nd - 1).write((b * BLOCK) as i64 + i64::from(j));
                        w = w.add(nd);
                    }
                }
            }
            for d in (0..nd - 1).rev() {
                at[d] += 1;
                if at[d] < outer[d] as i64 {
                    break;
                }
                at[d] = 0;
            }
        }
    });
    Ok(out)
}

/// The number of non-zero bytes of `flags`, counted in byte lanes (blocks of 255, so a lane
/// cannot overflow), which vectorises to whole-register compares and adds.
fn count_set(flags: &[u8]) -> usize {
    flags
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &f| n + u8::from(f != 0))))
        .sum()
}
