//! `pad` in one pass: each output row (all dims but the last) is the constant, or one input
//! row read through the last dim's map: its longest run of consecutive input positions is
//! copied as one (a slice copy when the input's last stride is 1), the few other positions
//! (the borders) through a list of offsets. Any
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

/// The last dim's map, split for copying: its longest stretch of consecutive input positions
/// (`len` outputs from `at`, reading from input position `src`), copied as one run, and
/// every other output position (a reflected or replicated border: a few elements) with its
/// input element's offset in a row, or listed apart when it is the constant.
struct RowPlan {
    at: usize,
    src: usize,
    len: usize,
    read: Vec<(usize, isize)>,
    constant: Vec<usize>,
}

impl RowPlan {
    fn new(map: &[i64], stride: isize) -> RowPlan {
        let (mut best, mut at) = ((0, 0, 0), 0);
        for i in 1..=map.len() {
            let ends = i == map.len() || map[i] < 0 || map[i] != map[i - 1] + 1;
            if ends || map[at] < 0 {
                if map[at] >= 0 && i - at > best.2 {
                    best = (at, map[at] as usize, i - at);
                }
                at = i;
            }
        }
        let (at, src, len) = best;
        let rest = (0..map.len()).filter(|i| !(at..at + len).contains(i));
        RowPlan {
            at,
            src,
            len,
            read: (rest.clone().filter(|&i| map[i] >= 0))
                .map(|i| (i, map[i] as isize * stride))
                .collect(),
            constant: rest.filter(|&i| map[i] < 0).collect(),
        }
    }

    /// Writes output row `o`: the constant where `row0` is `None`, else input row `row0`
    /// (last stride `sl`) read through the plan.
    ///
    /// # Safety
    /// `row0.offset(s * sl)` must be an element nobody writes for every position `s` the
    /// plan maps (`s < ` the input's last dim).
    #[inline(always)]
    unsafe fn fill<E: Copy>(&self, o: &mut [E], row0: Option<*const E>, sl: isize, value: E) {
        let Some(row0) = row0 else {
            o.fill(value);
            return;
        };
        let run = &mut o[self.at..self.at + self.len];
        if sl == 1 {
            // SAFETY: the run's `len` positions from `src` are all mapped (the contract).
            let from = unsafe { std::slice::from_raw_parts(row0.add(self.src), self.len) };
            if self.len <= 64 {
                // A short row inline: a `memcpy` call cost as much as the copy.
                run.iter_mut().zip(from).for_each(|(o, &v)| *o = v);
            } else {
                run.copy_from_slice(from);
            }
        } else {
            // SAFETY: positions `src + k` are mapped for `k < len` (the contract).
            let mut at = unsafe { row0.offset(self.src as isize * sl) };
            for v in run.iter_mut() {
                // SAFETY: as above; `at` steps over the run's input elements, and is not
                // read once past the last one.
                *v = unsafe { *at };
                at = at.wrapping_offset(sl);
            }
        }
        for &(i, s) in &self.read {
            // SAFETY: `s` is a mapped position's offset in a row (the contract).
            o[i] = unsafe { *row0.offset(s) };
        }
        for &i in &self.constant {
            o[i] = value;
        }
    }
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
    let plan = RowPlan::new(&p.maps[nd - 1], sl);
    let rows = out.numel() / w;
    let outer = &p.maps[..nd - 1];
    // Each outer dim's map as element offsets into `x` (`None`: the constant).
    let offsets: Vec<Vec<Option<isize>>> = outer
        .iter()
        .zip(x.strides())
        .map(|(map, &st)| {
            map.iter()
                .map(|&s| (s >= 0).then(|| s as isize * st))
                .collect()
        })
        .collect();
    let row = |r: usize, base: Option<isize>| {
        // SAFETY: `out` is fresh and contiguous; row `r` (`w` elements) is written by this
        // call alone (each `r` runs once), and `out` outlives the loop.
        let o = unsafe { std::slice::from_raw_parts_mut(dst.get().add(r * w), w) };
        // SAFETY: `base` is the offset of an input row (every outer position is inside
        // `x`'s shape: the maps hold only in-range positions or -1); nobody writes `x`
        // during the call.
        let row0 = base.map(|b| unsafe { src.get().cast_const().offset(b) });
        // SAFETY: as just said.
        unsafe { plan.fill(o, row0, sl, value) };
    };
    // Rows in groups: the outer position of a group's first row is found by division, the
    // next ones by stepping it (rows of a small image are a few dozen elements, where a
    // division per dim per row was a large part of the time).
    let parallel = rows > 1 && rows * w >= PARALLEL_MIN_ELEMS;
    for_each_group(rows, w, parallel, &|group| {
        if outer.is_empty() {
            return row(0, Some(0));
        }
        let mut at: Vec<usize> = vec![0; outer.len()];
        let mut rem = group.start;
        for (d, map) in outer.iter().enumerate().rev() {
            at[d] = rem % map.len();
            rem /= map.len();
        }
        // The input offset of the outer dims but the last (`None`: the constant), found
        // again only when the last one wraps: every row of a plane shares it.
        let (last, offsets_last) = (outer.len() - 1, &offsets[outer.len() - 1]);
        let prefix = |at: &[usize]| {
            offsets[..last]
                .iter()
                .zip(at)
                .try_fold(0isize, |b, (offs, &i)| offs[i].map(|o| b + o))
        };
        let mut base = prefix(&at);
        for r in group {
            row(r, base.and_then(|b| offsets_last[at[last]].map(|o| b + o)));
            at[last] += 1;
            if at[last] < outer[last].len() {
                continue;
            }
            at[last] = 0;
            for d in (0..last).rev() {
                at[d] += 1;
                if at[d] < outer[d].len() {
                    break;
                }
                at[d] = 0;
            }
            base = prefix(&at);
        }
    });
}
