//! `pad` in one pass: each output row (all dims but the last) is the constant, or one input
//! row read through the last dim's map: runs of consecutive input positions are copied as
//! runs (a slice copy when the input's last stride is 1), the rest element by element. Any
//! input strides (transposed, broadcast, at an offset) are read in place; rows run in
//! parallel on the runtime's pool.

use super::super::iter::{for_each_group, SendPtr, PARALLEL_MIN_ELEMS};
use crate::ops::vision::PadPlan;
use crate::{Device, Result, Tensor};

/// A planned `pad` into a fresh contiguous tensor of `x`'s dtype.
pub(crate) fn pad(p: &PadPlan) -> Result<Tensor> {
    let shape: Vec<usize> = p.maps.iter().map(Vec::len).collect();
    let out = Tensor::alloc(&shape, p.x.dtype(), Device::cpu(), false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    // The fill value's bits in the dtype (a 1-element tensor converts it as `full` does).
    let fill = Tensor::full(&[1], p.value, p.x.dtype())?;
    match p.x.dtype().size() {
        1 => run::<u8>(p, &out, &fill),
        2 => run::<u16>(p, &out, &fill),
        4 => run::<u32>(p, &out, &fill),
        _ => run::<u64>(p, &out, &fill),
    }
    Ok(out)
}

/// A stretch of an output row: `len` elements from output position `at`, read from input
/// position `src` onward in steps of `step` (1 inside the input, -1 across a reflected
/// border, 0 along a replicated one), or the constant when `src` is `None`.
struct Run {
    at: usize,
    src: Option<usize>,
    len: usize,
    step: isize,
}

/// The last dim's map as runs of input positions in one direction (and of constants): a
/// reflected or replicated border is one run, not one per element.
fn runs(map: &[i64]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (i, &s) in map.iter().enumerate() {
        let src = usize::try_from(s).ok();
        if let Some(r) = out.last_mut() {
            match (r.src, src) {
                (None, None) => {
                    r.len += 1;
                    continue;
                }
                (Some(a), Some(b)) => {
                    let d = b as isize - a as isize;
                    if r.len == 1 && d.abs() <= 1 {
                        r.step = d;
                    }
                    if d == r.step * r.len as isize {
                        r.len += 1;
                        continue;
                    }
                }
                _ => {}
            }
        }
        out.push(Run {
            at: i,
            src,
            len: 1,
            step: 1,
        });
    }
    out
}

/// [`pad`] for elements of `E`'s size (bits moved unchanged).
fn run<E: Copy + Send + Sync + 'static>(p: &PadPlan, out: &Tensor, fill: &Tensor) {
    let x = &p.x;
    let nd = x.ndim();
    // SAFETY: `fill` is a fresh 1-element CPU tensor of `x`'s dtype, whose size is `E`'s.
    let value = unsafe { *fill.const_data_ptr().cast::<E>() };
    let dst = SendPtr(out.data_ptr().cast::<E>());
    let src = SendPtr(x.const_data_ptr().cast::<E>().cast_mut());
    if nd == 0 {
        // SAFETY: one element each: `out` fresh, `x`'s element inside its storage (L3).
        unsafe { *dst.get() = *src.get().cast_const() };
        return;
    }
    let (w, sl) = (p.maps[nd - 1].len(), x.strides()[nd - 1]);
    let row_runs = runs(&p.maps[nd - 1]);
    let rows = out.numel() / w;
    let outer = &p.maps[..nd - 1];
    let row = |r: usize, base: Option<isize>| {
        // SAFETY: `out` is fresh and contiguous; row `r` (`w` elements) is written by this
        // call alone (each `r` runs once), and `out` outlives the loop.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.get().add(r * w), w) };
        let Some(base) = base else {
            o.fill(value);
            return;
        };
        // SAFETY: `base` is the offset of an input row (every outer position is inside
        // `x`'s shape: the maps hold only in-range positions or -1), so `row0.offset(s * sl)`
        // for a mapped `s < x.shape()[nd - 1]` is an element of `x`; nobody writes `x`
        // during the call.
        let row0 = unsafe { src.get().cast_const().offset(base) };
        for run in &row_runs {
            let o = &mut o[run.at..run.at + run.len];
            match run.src {
                None => o.fill(value),
                // Long forward runs of a contiguous row as one copy; short runs (a border's
                // few elements) element by element, as a call each cost more than the copy.
                Some(s) if sl == 1 && run.step == 1 && run.len >= 16 => {
                    // SAFETY: as above; the run's `len` positions from `s` are all mapped.
                    let from = unsafe { std::slice::from_raw_parts(row0.add(s), run.len) };
                    o.copy_from_slice(from);
                }
                Some(s) => {
                    let step = run.step * sl;
                    let first = s as isize * sl;
                    for (k, v) in o.iter_mut().enumerate() {
                        // SAFETY: as above: position `s + k·step` is mapped for `k < len`.
                        *v = unsafe { *row0.offset(first + k as isize * step) };
                    }
                }
            }
        }
    };
    // Rows in groups: the outer position of a group's first row is found by division, the
    // next ones by stepping it (rows of a small image are a few dozen elements, where a
    // division per dim per row was a large part of the time).
    let parallel = rows > 1 && rows * w >= PARALLEL_MIN_ELEMS;
    for_each_group(rows, w, parallel, &|group| {
        let mut at: Vec<usize> = vec![0; outer.len()];
        let mut rem = group.start;
        for (d, map) in outer.iter().enumerate().rev() {
            at[d] = rem % map.len();
            rem /= map.len();
        }
        for r in group {
            // The input row: the outer dims' positions through their maps.
            let mut base = Some(0isize);
            for (d, map) in outer.iter().enumerate() {
                base = match (base, map[at[d]]) {
                    (Some(b), s) if s >= 0 => Some(b + s as isize * x.strides()[d]),
                    _ => None,
                };
            }
            row(r, base);
            for d in (0..outer.len()).rev() {
                at[d] += 1;
                if at[d] < outer[d].len() {
                    break;
                }
                at[d] = 0;
            }
        }
    });
}
