//! `bincount`'s counting without weights: each block of the input counts into its own table,
//! then the tables are added. Reading the values in their own width (a byte per element
//! for `uint8`) and bumping a count is all the work; the scatter it replaces read indices
//! widened to 32 bits and checked and scaled each one.

use super::along::table_blocks;
use super::iter::{collect_in_parallel, threads_available, SendPtr};
use crate::{DType, Element, Result, Tensor};

/// Tables one block interleaves (element `i` counts into table `i % LANES`) when they fit
/// in L1: a run of equal values then bumps different counters in turn instead of waiting on
/// the same one's store (a run of one value was 2.4× slower than random values with one
/// table).
const LANES: usize = 4;
const LANES_MAX_BINS: usize = 1024;

/// `out[v]` = how many elements of `values` equal `v`: `values` is a 1-D host tensor of an
/// unsigned integer dtype whose every value is below `bins`. A fresh `Int64` tensor `[bins]`.
pub(crate) fn count_values(values: &Tensor, bins: usize) -> Result<Tensor> {
    let (ptr, stride) = (
        SendPtr(values.const_data_ptr().cast_mut()),
        values.strides()[0],
    );
    count_in_blocks(values.numel(), bins, |range| match values.dtype() {
        DType::UInt8 => count_run(range, bins, reader::<u8>(ptr, stride, |v| v as usize)),
        DType::UInt16 => count_run(range, bins, reader::<u16>(ptr, stride, |v| v as usize)),
        DType::UInt32 => count_run(range, bins, reader::<u32>(ptr, stride, |v| v as usize)),
        _ => count_run(
            range,
            bins,
            reader::<u64>(ptr, stride, |v| usize::try_from(v).unwrap_or(usize::MAX)),
        ),
    })
}

/// `torch.histc`'s counts: how many elements of `values`, a 1-D host tensor of a float
/// dtype, fall in each of `bins` equal bins over `[lo, hi]` (finite, `lo < hi`). Element `x`
/// with `lo <= x <= hi` counts in bin `⌊(x − lo) · bins / (hi − lo)⌋`, computed in `f64`,
/// `hi` itself in the last bin; the others (and NaN) count nowhere. A fresh `Int64` tensor
/// `[bins]`.
pub(crate) fn histogram_values(
    values: &Tensor,
    bins: usize,
    (lo, hi): (f64, f64),
) -> Result<Tensor> {
    let (ptr, stride) = (
        SendPtr(values.const_data_ptr().cast_mut()),
        values.strides()[0],
    );
    let (scale, last) = (bins as f64, bins - 1);
    let bin = move |x: f64| -> usize {
        if x >= lo && x <= hi {
            (((x - lo) * scale / (hi - lo)) as usize).min(last)
        } else {
            usize::MAX
        }
    };
    fn run<T: Element>(
        n: usize,
        bins: usize,
        (ptr, stride): (SendPtr<u8>, isize),
        bin: impl Fn(f64) -> usize + Sync,
    ) -> Result<Tensor> {
        count_in_blocks(n, bins, |range| {
            count_run(range, bins, reader::<T>(ptr, stride, |v| bin(v.to_f64())))
        })
    }
    let (n, at) = (values.numel(), (ptr, stride));
    match values.dtype() {
        DType::Float32 => run::<f32>(n, bins, at, bin),
        DType::Float64 => run::<f64>(n, bins, at, bin),
        DType::Float16 => run::<half::f16>(n, bins, at, bin),
        DType::BFloat16 => run::<half::bf16>(n, bins, at, bin),
        other => unreachable!("histc reads float dtypes only (checked by the op), not {other}"),
    }
}

/// Counts of `n` elements into `bins`, `count(range)` counting a run of them: long inputs
/// in parallel blocks, each into its own table, the tables then added (exact in any order).
fn count_in_blocks(
    n: usize,
    bins: usize,
    count: impl Fn(std::ops::Range<usize>) -> Vec<i64> + Sync,
) -> Result<Tensor> {
    // The scatter's blocked-sum rule; counts are exact in any order, so with one thread
    // the tables are not worth making.
    let blocks = if threads_available() {
        table_blocks(n, bins)
    } else {
        1
    };
    let per = n.div_ceil(blocks).max(1);
    let tables = collect_in_parallel(n.div_ceil(per), |b| count(b * per..((b + 1) * per).min(n)));
    let mut total = vec![0i64; bins];
    for table in tables {
        for (t, c) in total.iter_mut().zip(table) {
            *t += c;
        }
    }
    Tensor::from_data(&total, &[bins])
}

/// `bin(element i)` of the 1-D view at `ptr` (its data pointer, read only) with
/// `stride`, for `i` below the view's length.
fn reader<T: Copy>(
    ptr: SendPtr<u8>,
    stride: isize,
    bin: impl Fn(T) -> usize,
) -> impl Fn(usize) -> usize {
    let p = ptr.get().cast_const().cast::<T>();
    move |i| {
        // SAFETY: `i` lies below the view's `numel` (`count_in_blocks` splits `0..n`), so the
        // element at `p + i·stride` is in its live storage; unaligned, as borrowed memory
        // need not be aligned to the element's size.
        bin(unsafe { p.offset(i as isize * stride).read_unaligned() })
    }
}

/// The counts of the elements `range` into `bins`, `at(i)` being element `i`'s bin
/// (`bins` or more: counted nowhere).
fn count_run(range: std::ops::Range<usize>, bins: usize, at: impl Fn(usize) -> usize) -> Vec<i64> {
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
