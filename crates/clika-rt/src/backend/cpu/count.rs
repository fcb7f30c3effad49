//! `bincount`'s counting without weights: each block of the input counts into its own table,
//! then the tables are added. Reading the values in their own width (a byte per element
//! for `uint8`) and bumping a count is all the work; the scatter it replaces read indices
//! widened to 32 bits and checked and scaled each one.

use super::iter::{collect_in_parallel, threads_available};
use crate::{DType, Device, Result, Tensor};

/// Elements a block counts at least, and the most blocks (tables) there are.
const BLOCK_ELEMS: usize = 1 << 16;
const MAX_BLOCKS: usize = 16;
/// Tables one block interleaves (element `i` counts into table `i % LANES`) when they fit
/// in L1: a run of equal values then bumps different counters in turn instead of waiting on
/// the same one's store (a run of one value was 2.4× slower than random values with one
/// table).
const LANES: usize = 4;
const LANES_MAX_BINS: usize = 1024;

/// `out[v]` = how many elements of `values` equal `v`: `values` is a 1-D host tensor of an
/// unsigned integer dtype whose every value is below `bins`. A fresh `Int64` tensor `[bins]`.
pub(crate) fn count_values(values: &Tensor, bins: usize) -> Result<Tensor> {
    let n = values.numel();
    let blocks = if threads_available() {
        (n / BLOCK_ELEMS).clamp(1, MAX_BLOCKS)
    } else {
        1
    };
    // Private tables cost their zeroing and their sum: only where they are small next to
    // the input.
    let blocks = if 2 * blocks * bins <= n { blocks } else { 1 };
    let per = n.div_ceil(blocks).max(1);
    let (ptr, stride) = (values.const_data_ptr() as usize, values.strides()[0]);
    let tables = collect_in_parallel(n.div_ceil(per), |b| {
        let (lo, hi) = (b * per, ((b + 1) * per).min(n));
        match values.dtype() {
            DType::UInt8 => count_run::<u8>(ptr, stride, lo..hi, bins),
            DType::UInt16 => count_run::<u16>(ptr, stride, lo..hi, bins),
            DType::UInt32 => count_run::<u32>(ptr, stride, lo..hi, bins),
            _ => count_run::<u64>(ptr, stride, lo..hi, bins),
        }
    });
    let mut total = vec![0i64; bins];
    for table in tables {
        for (t, c) in total.iter_mut().zip(table) {
            *t += c;
        }
    }
    let out = Tensor::from_data(&total, &[bins])?;
    debug_assert_eq!(out.device(), Device::cpu());
    Ok(out)
}

/// The counts of elements `range` of the 1-D view at `ptr` (its data pointer, as an
/// address) with `stride`.
fn count_run<T: Copy + Into<u64>>(
    ptr: usize,
    stride: isize,
    range: std::ops::Range<usize>,
    bins: usize,
) -> Vec<i64> {
    let p = ptr as *const T;
    let at = |i: usize| -> usize {
        // SAFETY: `i` lies in `range`, within the view's `numel` elements (the caller splits
        // `0..n`), each at `p + i·stride` in its live storage; unaligned, as borrowed memory
        // need not be aligned to the element's size.
        let v: u64 = unsafe { p.offset(i as isize * stride).read_unaligned() }.into();
        usize::try_from(v).unwrap_or(usize::MAX)
    };
    // A value past `bins` breaks the caller's promise: it is skipped, never counted out of
    // bounds.
    let lanes = if bins <= LANES_MAX_BINS { LANES } else { 1 };
    let mut c = vec![0i64; lanes * bins];
    let mut i = range.start;
    if lanes == LANES {
        while i + LANES <= range.end {
            for lane in 0..LANES {
                let v = at(i + lane);
                if v < bins {
                    c[lane * bins + v] += 1;
                }
            }
            i += LANES;
        }
    }
    for j in i..range.end {
        let v = at(j);
        if v < bins {
            c[v] += 1;
        }
    }
    let (first, rest) = c.split_at_mut(bins);
    for t in rest.chunks(bins) {
        for (a, b) in first.iter_mut().zip(t) {
            *a += b;
        }
    }
    c.truncate(bins);
    c
}
