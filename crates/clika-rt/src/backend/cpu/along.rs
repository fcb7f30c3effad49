//! Gathers and scatters along one dim (`gather`, `scatter_`, `scatter_add_`): the index
//! tensor's positions walked in place, row by coalesced row, each target offset computed in
//! the loop from the index value read in its own dtype. Nothing is planned per element
//! beforehand, so no offset array is allocated and filled on one thread first.
//!
//! Work is split across threads by ranges of one dim of the index. A scatter splits along a
//! dim other than the scattered one: two positions can reach one target only when they agree
//! off that dim, so they land in the same task, which visits them in row-major order, and
//! repeated targets are written or accumulated in the documented order on any thread count.

use std::sync::atomic::{AtomicBool, Ordering};

use super::iter::{
    collect_in_parallel, items_in_parallel, threads_available, Coalesced, SendPtr,
    PARALLEL_MIN_ELEMS,
};
use super::num::Num;
use super::vmath::{avx2, dispatch, dispatch_avx2, Avx2, Call, SimdBody};
use crate::layout::DimVec;
use crate::ops::{AlongPlan, ScatterMode};
use crate::{DType, Error, Result, Tensor};

/// Index positions per parallel task, at least.
const TASK_ELEMS: usize = 1 << 15;

/// Index positions a scatter checks in one pass before it writes them (see
/// `scatter_with`): a few KiB of the index, still in L1 when the writes read it again.
const CHECK_BLOCK: usize = 512;

/// An index dtype the kernels read directly (the op converts others to `Int64`).
trait IndexValue: Copy + Send + Sync {
    fn get(self) -> i64;
}

impl IndexValue for i64 {
    #[inline(always)]
    fn get(self) -> i64 {
        self
    }
}

impl IndexValue for i32 {
    #[inline(always)]
    fn get(self) -> i64 {
        i64::from(self)
    }
}

/// Whether every value of `xs` lies in `0..size`: the compares `or`ed together with no
/// early exit, so the loop vectorises inside a dispatch.
#[inline(always)]
fn all_below<I: IndexValue>(xs: &[I], size: i64) -> bool {
    !xs.iter()
        .fold(false, |b, &i| b | (i.get() as u64 >= size as u64))
}

/// The index values of a plan: where they lie and what they may be.
#[derive(Clone, Copy)]
struct Picks<I> {
    index: SendPtr<I>,
    /// The target's size along the dim (values lie in `-size..size`).
    size: i64,
    /// The target's stride along the dim.
    stride: isize,
}

impl<I: IndexValue> Picks<I> {
    /// The target offset term of the index element at `p` (`value × stride`, a negative value
    /// counting from the end), and whether the value was in range; an out-of-range value
    /// gives the term of 0, so a caller that goes on before reporting reads in bounds.
    ///
    /// # Safety
    /// `p` is an element offset of the index.
    #[inline(always)]
    unsafe fn at(self, p: isize) -> (isize, bool) {
        // SAFETY: `p` is an element of the index (caller); unaligned, as borrowed memory need
        // not be aligned to the element's size.
        let i = unsafe { self.index.get().offset(p).read_unaligned() }.get();
        let k = i.wrapping_add(self.size & (i >> 63));
        let ok = (k as u64) < self.size as u64;
        ((if ok { k } else { 0 }) as isize * self.stride, ok)
    }

    /// Whether the `n` index elements from `p` (`s` apart) all lie in `0..size`, the common
    /// case, which [`Picks::at_direct`] then reads without a wrap or a check. A contiguous,
    /// aligned run is one vector pass under AVX2 (compares `or`ed together, no early exit);
    /// others a scalar pass of the same.
    ///
    /// # Safety
    /// The `n` offsets `p + j·s` are elements of the index.
    #[inline(always)]
    unsafe fn all_direct(self, simd: Option<Avx2>, p: isize, s: isize, n: usize) -> bool {
        // SAFETY: an element of the index (caller).
        let first = unsafe { self.index.get().offset(p) };
        if s == 1 && first.is_aligned() {
            // SAFETY: `n` contiguous, aligned elements of the index (caller).
            let xs = unsafe { std::slice::from_raw_parts(first.cast_const(), n) };
            let mut ok = false;
            dispatch_avx2(simd, Call(|| ok = all_below(xs, self.size)));
            return ok;
        }
        let mut bad = false;
        for j in 0..n as isize {
            // SAFETY: an element of the index (caller); unaligned, as in `at`.
            let i = unsafe { first.offset(j * s).read_unaligned() }.get();
            bad |= i as u64 >= self.size as u64;
        }
        !bad
    }

    /// The target offset term of the index element at `p`, which lies in `0..size`.
    ///
    /// # Safety
    /// `p` is an element of the index, checked by [`Picks::all_direct`].
    #[inline(always)]
    unsafe fn at_direct(self, p: isize) -> isize {
        // SAFETY: as in `at`.
        let i = unsafe { self.index.get().offset(p).read_unaligned() }.get();
        i as isize * self.stride
    }

    /// Whether the index element at `p` lies in `-size..size`.
    ///
    /// # Safety
    /// As for [`Picks::at`].
    #[inline(always)]
    unsafe fn in_range(self, p: isize) -> bool {
        // SAFETY: as in `at`.
        let i = unsafe { self.index.get().offset(p).read_unaligned() }.get();
        (i.wrapping_add(self.size) as u64) < 2 * self.size as u64
    }
}

/// One task's part of the walk: the index shape with one dim cut to a range, and the element
/// offsets, under each layout, of the range's first position.
struct Part {
    shape: DimVec<usize>,
    start: [isize; 3],
}

/// The walk of a plan: the index's shape and three layouts over it (the index; the target
/// with the dim's stride zeroed, the index value supplying it; the other operand).
struct Walk<'a> {
    shape: &'a [usize],
    strides: [&'a [isize]; 3],
    start: [isize; 3],
}

impl Walk<'_> {
    /// Calls `row(offsets, len, steps)` for every coalesced row of `part`, in row-major order.
    fn rows(&self, part: &Part, mut row: impl FnMut([isize; 3], usize, [isize; 3])) {
        let c = Coalesced::<3>::new(&part.shape, self.strides);
        let (len, steps) = (c.inner(), c.inner_strides());
        if part.shape.contains(&0) {
            return;
        }
        let outer = c.shape.len() - 1;
        let mut idx = [0usize; crate::layout::MAX_DIMS];
        let mut o = part.start;
        loop {
            row(o, len, steps);
            let mut d = outer;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                idx[d] += 1;
                for (k, o) in o.iter_mut().enumerate() {
                    *o += c.strides[k][d];
                }
                if idx[d] < c.shape[d] {
                    break;
                }
                for (k, o) in o.iter_mut().enumerate() {
                    *o -= c.strides[k][d] * c.shape[d] as isize;
                }
                idx[d] = 0;
            }
        }
    }

    /// Runs `task(part)` over parts covering the walk, in parallel when it is large and
    /// `parallel` holds; with `keep` set, never splitting along that dim.
    fn split(&self, parallel: bool, keep: Option<usize>, task: impl Fn(&Part) + Sync) {
        let n: usize = self.shape.iter().product();
        let whole = || Part {
            shape: self.shape.iter().copied().collect(),
            start: self.start,
        };
        let along = (0..self.shape.len()).find(|&d| Some(d) != keep && self.shape[d] > 1);
        let large = parallel && n >= PARALLEL_MIN_ELEMS && threads_available();
        let Some(d) = along.filter(|_| large) else {
            return task(&whole());
        };
        let ext = self.shape[d];
        // Parts of about TASK_ELEMS; but a split of the innermost dim (the columns of an
        // index add along dim 0) cuts every row, and short runs of many rows are slow (1.96
        // -> 0.20 ms for 1024 rows of 2048 floats), so there each thread takes one strip.
        let mut per_task = TASK_ELEMS.div_ceil(n / ext).max(1);
        if d + 1 == self.shape.len() {
            per_task = per_task.max(ext.div_ceil(crate::threads::current_num_threads()));
        }
        let tasks = ext.div_ceil(per_task);
        if tasks < 2 {
            return task(&whole());
        }
        items_in_parallel(tasks, &|t| {
            let lo = t * per_task;
            let mut part = whole();
            part.shape[d] = per_task.min(ext - lo);
            for (k, s) in part.start.iter_mut().enumerate() {
                *s += lo as isize * self.strides[k][d];
            }
            task(&part);
        });
    }
}

/// The plan's walk, with `other` (the output or the scattered values) as the third layout,
/// and the target's dim stride zeroed in `walk_strides`. Its offsets count from each
/// tensor's first element ([`Tensor::data_ptr`], which already includes a view's offset).
fn walk<'a>(
    plan: &'a AlongPlan,
    other: &'a Tensor,
    walk_strides: &'a mut DimVec<isize>,
) -> Walk<'a> {
    *walk_strides = plan.t.strides().iter().copied().collect();
    walk_strides[plan.dim] = 0;
    Walk {
        shape: plan.index.shape(),
        strides: [plan.index.strides(), walk_strides, other.strides()],
        start: [0; 3],
    }
}

fn picks<I>(plan: &AlongPlan) -> Picks<I> {
    Picks {
        index: SendPtr(plan.index.data_ptr().cast::<I>()),
        size: plan.t.shape()[plan.dim] as i64,
        stride: plan.t.strides()[plan.dim],
    }
}

/// Whether no two elements of the layout share an offset (a sufficient test: each dim's
/// stride, smallest first, exceeds the span of those before it).
pub(super) fn non_overlapping(shape: &[usize], strides: &[isize]) -> bool {
    let mut dims: DimVec<(usize, usize)> = shape
        .iter()
        .zip(strides)
        .filter(|&(&n, _)| n > 1)
        .map(|(&n, &s)| (s.unsigned_abs(), n))
        .collect();
    dims.sort_unstable();
    let mut span = 0usize;
    for (stride, n) in dims {
        if stride <= span {
            return false;
        }
        span += stride * (n - 1);
    }
    true
}

/// The error for the first out-of-range value of the plan's index (one is).
fn out_of_range(plan: &AlongPlan) -> Error {
    let size = plan.t.shape()[plan.dim];
    let values = plan
        .index
        .to_dtype(DType::Int64)
        .and_then(|v| v.to_vec::<i64>());
    let index = values
        .ok()
        .and_then(|v| {
            v.into_iter()
                .find(|i| !(-(size as i64)..size as i64).contains(i))
        })
        .unwrap_or(i64::MIN);
    Error::IndexOutOfRange {
        index,
        dim: plan.dim,
        size,
    }
}

/// Whether every index value of the plan is in range.
fn check<I: IndexValue>(plan: &AlongPlan) -> bool {
    let mut zeroed = DimVec::new();
    let w = walk(plan, &plan.index, &mut zeroed);
    let p = picks::<I>(plan);
    let bad = AtomicBool::new(false);
    w.split(true, None, |part| {
        let mut any = false;
        w.rows(part, |o, len, s| {
            // Locals: the closure's captures would be reloaded every element.
            let (p, (o, s), mut bad) = (p, (o[0], s[0]), false);
            // A row of one index value (an index broadcast along it) is one check.
            let len = if s == 0 { len.min(1) } else { len };
            for j in 0..len as isize {
                // SAFETY: the walk reaches only elements of the index.
                bad |= !unsafe { p.in_range(o + j * s) };
            }
            any |= bad;
        });
        if any {
            bad.store(true, Ordering::Relaxed);
        }
    });
    !bad.load(Ordering::Relaxed)
}

/// Runs `$body` with `$I` the plan's index type.
macro_rules! by_index {
    ($plan:expr, $I:ident => $body:expr) => {
        match $plan.index.dtype() {
            DType::Int32 => {
                type $I = i32;
                $body
            }
            DType::Int64 => {
                type $I = i64;
                $body
            }
            other => unreachable!("the op converts {other} indices to int64"),
        }
    };
}

/// See `Backend::gather_along`.
///
/// # Safety
/// As for `Backend::gather_along`.
pub(crate) unsafe fn gather(plan: &AlongPlan, out: &Tensor) -> Result<()> {
    let ok = by_index!(plan, I => by_size!(plan.t.dtype().size(), T => {
        // SAFETY: forwarded from the caller.
        unsafe { gather_as::<I, T>(plan, out) }
    }));
    if ok {
        Ok(())
    } else {
        Err(out_of_range(plan))
    }
}

/// [`gather`] with index type `I`, moving elements as `T`; whether every value was in range.
///
/// # Safety
/// As for [`gather`].
unsafe fn gather_as<I: IndexValue, T: Copy>(plan: &AlongPlan, out: &Tensor) -> bool {
    let mut zeroed = DimVec::new();
    let w = walk(plan, out, &mut zeroed);
    let p = picks::<I>(plan);
    let src = SendPtr(plan.t.data_ptr().cast::<T>());
    let dst = SendPtr(out.data_ptr().cast::<T>());
    let bad = AtomicBool::new(false);
    let arch = pulp::Arch::new();
    w.split(true, None, |part| {
        let (src, dst) = (src.get().cast_const(), dst.get());
        let mut any = false;
        w.rows(part, |o, len, s| {
            let (p, mut bad) = (p, false);
            if s[0] == 1 && s[2] == 1 {
                // SAFETY: as below, the row's index and output elements being contiguous.
                let row = unsafe {
                    GatherRow {
                        first: o[0],
                        src: src.offset(o[1]),
                        step: s[1],
                        dst: dst.offset(o[2]),
                        len,
                        p,
                        bad: &mut bad,
                    }
                };
                dispatch(arch, row);
                any |= bad;
                return;
            }
            for j in 0..len as isize {
                // SAFETY: the walk reaches elements of the index, of `out` and (with the
                // value's term, 0 when out of range) of the target; `out` is disjoint from
                // the target. Unaligned, as borrowed memory need not be aligned.
                unsafe {
                    let (k, ok) = p.at(o[0] + j * s[0]);
                    bad |= !ok;
                    let v = src.offset(o[1] + j * s[1] + k).read_unaligned();
                    dst.offset(o[2] + j * s[2]).write_unaligned(v);
                }
            }
            any |= bad;
        });
        if any {
            bad.store(true, Ordering::Relaxed);
        }
    });
    !bad.load(Ordering::Relaxed)
}

/// One row of a gather whose index and output are contiguous along it, the loop compiled
/// inside the CPU's widest dispatch with those unit strides constant (the general row loop
/// multiplies three strides read at run time per element): 2048² floats `gather(dim=1)` on
/// 2 threads 3.9 → 3.4 ms, PyTorch 2.6; `float64` 6.5 → 5.7, PyTorch 14. LLVM keeps the
/// random reads scalar (its cost model finds vector gathers no faster), unrolled.
struct GatherRow<'a, I, T> {
    /// The offset of the row's first index value.
    first: isize,
    /// The target at the row's first position (the dim's term excluded).
    src: *const T,
    /// The target's step along the row.
    step: isize,
    dst: *mut T,
    len: usize,
    p: Picks<I>,
    /// Set when a value was out of range.
    bad: &'a mut bool,
}

impl<I: IndexValue, T: Copy> SimdBody for GatherRow<'_, I, T> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let GatherRow {
            first,
            src,
            step,
            dst,
            len,
            p,
            bad,
        } = self;
        let mut any = false;
        // SAFETY: the row's first index element (the walk's bounds).
        let idx = unsafe { p.index.get().offset(first) }.cast_const();
        // Blocks checked in one vector pass first, then read without a wrap and a check per
        // value where all were in `0..size` (as `scatter_with`): 2048² floats with 2048×1024
        // picks on one thread 3.6 → 3.0 ms, PyTorch 2.7.
        let mut j0 = 0;
        while j0 < len {
            let end = len.min(j0 + CHECK_BLOCK);
            // SAFETY: elements `j0..end` of the row's contiguous index run, aligned.
            let direct = idx.is_aligned()
                && all_below(
                    unsafe { std::slice::from_raw_parts(idx.add(j0), end - j0) },
                    p.size,
                );
            for j in j0..end {
                // SAFETY: the row's `len` index and output elements are in bounds and
                // contiguous, the target position `j · step` plus the value's term (0 when
                // out of range; known in range when `direct`) is an element of the target
                // (the walk's bounds), and the output is disjoint from the target.
                // Unaligned, as borrowed memory need not be aligned.
                unsafe {
                    let k = if direct {
                        p.at_direct(first + j as isize)
                    } else {
                        let (k, ok) = p.at(first + j as isize);
                        any |= !ok;
                        k
                    };
                    let v = src.offset(j as isize * step + k).read_unaligned();
                    dst.add(j).write_unaligned(v);
                }
            }
            j0 = end;
        }
        *bad |= any;
    }
}

/// See `Backend::scatter_along`.
///
/// A value out of range must leave the target as it was, so the writes wait for every value
/// to be checked: by a first pass over the index, or, when the target is small beside the
/// index (a histogram), by scattering into a private copy of the target, checking as it
/// goes, and copying it back once all were in range; the index is then read once. A target
/// the caller will discard on error (`plan.fresh`) takes the writes directly.
///
/// # Safety
/// As for `Backend::scatter_along`.
pub(crate) unsafe fn scatter(plan: &AlongPlan, value: &Tensor, mode: ScatterMode) -> Result<()> {
    debug_assert_eq!(plan.t.dtype(), value.dtype());
    let index_bytes = plan.index.numel() * plan.index.dtype().size();
    // A copy reads and writes the target twice.
    let copy_bytes = 4 * plan.t.numel() * plan.t.dtype().size();
    let blocks = sum_blocks(plan, mode);
    let ok = if blocks > 1 {
        // SAFETY: forwarded from the caller.
        unsafe { scatter_add_in_blocks(plan, value, blocks)? }
    } else if plan.fresh {
        // SAFETY: forwarded from the caller.
        unsafe { scatter_checked(plan, value, mode) }
    } else if copy_bytes < index_bytes {
        let scratch = plan.t.contiguous_copy()?;
        let private = AlongPlan {
            t: scratch,
            dim: plan.dim,
            index: plan.index.clone(),
            fresh: true,
        };
        // SAFETY: `private.t` is a fresh copy nobody else sees, disjoint from `value`.
        let ok = unsafe { scatter_checked(&private, value, mode) };
        if ok {
            // SAFETY: forwarded from the caller; `private.t` is fresh, so it does not overlap.
            unsafe { plan.t.copy_shared(&private.t)? };
        }
        ok
    } else if by_index!(plan, I => check::<I>(plan)) {
        // SAFETY: forwarded from the caller; every value is in range.
        unsafe { scatter_checked(plan, value, mode) }
    } else {
        false
    };
    if ok {
        Ok(())
    } else {
        Err(out_of_range(plan))
    }
}

/// How many blocks `n` elements are cut into, each summing or counting into a private table
/// of `table` elements that the blocks' results are then added from: up to 16 blocks of at
/// least 65,536 elements, and only where the tables (zeroed, then added) stay small beside
/// the input (`2 · blocks · table <= n`); 1 where blocks do not pay. It depends on the
/// sizes only, never on the thread count.
pub(super) fn table_blocks(n: usize, table: usize) -> usize {
    let blocks = (n / (1 << 16)).min(16);
    if blocks > 1 && 2 * blocks * table <= n {
        blocks
    } else {
        1
    }
}

/// How many blocks [`scatter_add_in_blocks`] cuts the plan into, or 1 where it is not used.
///
/// A sum along the only dim of the index longer than 1, into a target small beside the
/// index (a histogram: a million positions into a thousand bins), has nothing to split off
/// the dim, so it ran on one thread at the memory speed of one core (4M positions into 2048
/// bins: 5.0 ms, PyTorch 2.9). Cut along the dim into blocks that each sum into a private
/// zeroed target, it runs on every thread. The count depends on the shapes only, never on
/// the thread count, so the result does not either. An index with other dims keeps one
/// pass in row-major order: the split off the dim already runs it in parallel.
fn sum_blocks(plan: &AlongPlan, mode: ScatterMode) -> usize {
    let n = plan.index.numel();
    let ext = plan.index.shape()[plan.dim];
    if mode == ScatterMode::Add && n == ext && non_overlapping(plan.t.shape(), plan.t.strides()) {
        table_blocks(n, plan.t.numel())
    } else {
        1
    }
}

/// A scatter-add as `blocks` sums along the dim, each of a run of the index's positions (in
/// row-major order) into a private zeroed target, run in parallel; then, once every value was
/// found in range, the target plus the blocks' sums in block order is written back. Integers
/// give the result of one pass (wrapping sums do not depend on the order); floats may differ
/// from it in the last bits, as a pairwise sum does, and are the same on any thread count.
/// Whether every value was in range (the target is untouched if not).
///
/// # Safety
/// As for [`scatter`].
unsafe fn scatter_add_in_blocks(plan: &AlongPlan, value: &Tensor, blocks: usize) -> Result<bool> {
    let ext = plan.index.shape()[plan.dim];
    let per = ext.div_ceil(blocks);
    let dim = plan.dim as isize;
    let sums = collect_in_parallel(ext.div_ceil(per), |b| -> Result<(Tensor, bool)> {
        let (lo, len) = (b * per, per.min(ext - b * per));
        let part = AlongPlan {
            t: Tensor::zeros(plan.t.shape(), plan.t.dtype())?,
            dim: plan.dim,
            index: plan.index.narrow(dim, lo as isize, len)?,
            fresh: true,
        };
        let value = value.narrow(dim, lo as isize, len)?;
        // SAFETY: `part.t` is a fresh zeroed target nobody else sees; the index and the
        // values are the caller's, narrowed along the dim to the block's positions.
        let ok = unsafe { scatter_checked(&part, &value, ScatterMode::Add) };
        Ok((part.t, ok))
    });
    let mut total = plan.t.contiguous_copy()?;
    for sum in sums {
        let (sum, ok) = sum?;
        if !ok {
            return Ok(false);
        }
        crate::dispatch_num!(total.dtype(), T => {
            accumulate::<T>(&mut total, &sum, Num::add)
        }, bool => accumulate::<u8>(&mut total, &sum, |a, b| a | b));
    }
    // SAFETY: forwarded from the caller; `total` is fresh, so it does not overlap the target.
    unsafe { plan.t.copy_shared(&total)? };
    Ok(true)
}

/// `total = f(total, x)` element by element, over two contiguous host tensors of one shape
/// and dtype, of elements of `T`'s size.
fn accumulate<T: Copy>(total: &mut Tensor, x: &Tensor, f: impl Fn(T, T) -> T) {
    debug_assert!(total.is_contiguous() && x.is_contiguous() && total.numel() == x.numel());
    debug_assert_eq!(total.dtype().size(), size_of::<T>());
    let n = total.numel();
    // SAFETY: both are contiguous host tensors of `n` initialised elements of `T`'s size
    // (caller), aligned (runtime allocations), and distinct allocations; `total` is borrowed
    // mutably.
    let (t, x) = unsafe {
        (
            std::slice::from_raw_parts_mut(total.data_ptr().cast::<T>(), n),
            std::slice::from_raw_parts(x.const_data_ptr().cast::<T>(), n),
        )
    };
    for (t, &x) in t.iter_mut().zip(x) {
        *t = f(*t, x);
    }
}

/// The scatter, writing as it checks: whether every value was in range (an out-of-range one
/// reaches the dim's first element instead).
///
/// # Safety
/// As for [`scatter`].
unsafe fn scatter_checked(plan: &AlongPlan, value: &Tensor, mode: ScatterMode) -> bool {
    by_index!(plan, I => match mode {
        ScatterMode::Write => by_size!(plan.t.dtype().size(), T => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, T>(plan, value, |_, v| v) }
        }),
        ScatterMode::Add => crate::dispatch_num!(plan.t.dtype(), T => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, T>(plan, value, Num::add) }
        }, bool => {
            // Booleans are bytes 0 or 1: their sum saturates, an `or`.
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, u8>(plan, value, |a, b| a | b) }
        }),
        ScatterMode::Mul => crate::dispatch_num!(plan.t.dtype(), T => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, T>(plan, value, Num::mul) }
        }, bool => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, u8>(plan, value, |a, b| a & b) }
        }),
        ScatterMode::Max => crate::dispatch_num!(plan.t.dtype(), T => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, T>(plan, value, Num::max) }
        }, bool => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, u8>(plan, value, |a, b| a | b) }
        }),
        ScatterMode::Min => crate::dispatch_num!(plan.t.dtype(), T => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, T>(plan, value, Num::min) }
        }, bool => {
            // SAFETY: forwarded from the caller.
            unsafe { scatter_with::<I, u8>(plan, value, |a, b| a & b) }
        }),
    })
}

/// [`scatter_checked`] with index type `I` and element type `T`: `target = f(target,
/// value)` at each position.
///
/// # Safety
/// As for [`scatter`], with `T` of the dtype's size.
unsafe fn scatter_with<I: IndexValue, T: Copy>(
    plan: &AlongPlan,
    value: &Tensor,
    f: impl Fn(T, T) -> T + Sync,
) -> bool {
    let mut zeroed = DimVec::new();
    let w = walk(plan, value, &mut zeroed);
    let p = picks::<I>(plan);
    let dst = SendPtr(plan.t.data_ptr().cast::<T>());
    let src = SendPtr(value.data_ptr().cast::<T>());
    let bad = AtomicBool::new(false);
    let simd = avx2();
    // Distinct positions reach distinct elements only when no two of the target's do
    // overlap (an expanded or hand-strided view may); otherwise one thread does it all.
    let parallel = non_overlapping(plan.t.shape(), plan.t.strides());
    w.split(parallel, Some(plan.dim), |part| {
        let (dst, src) = (dst.get(), src.get().cast_const());
        let mut any = false;
        w.rows(part, |o, len, s| {
            let (p, f, mut bad) = (p, &f, false);
            if s[0] == 0 {
                // One index value for the whole row (an index broadcast along it, as
                // `index_add`'s): one check, then a run of the target against a run of
                // the values.
                // SAFETY: as below, for the row's first index element.
                let (k, ok) = unsafe { p.at(o[0]) };
                // SAFETY: as below: the row's elements of the target and of `value`.
                unsafe { row_apply(dst.offset(o[1] + k), s[1], src.offset(o[2]), s[2], len, f) };
                any |= !ok;
                return;
            }
            // Blocks of the row: a first pass finds whether every index value of the block
            // lies in `0..size` (nearly always), and then the block scatters without a wrap
            // and a check per value, about half the instructions of the checked loop, which
            // takes a block with a negative or out-of-range value. (4M positions into 2048
            // bins on one thread: 5.0 → 2.95 ms, PyTorch 2.6; two threads 2.55 → 1.5.)
            let mut j0 = 0;
            while j0 < len {
                let end = len.min(j0 + CHECK_BLOCK);
                let (lo, hi) = (j0 as isize, end as isize);
                j0 = end;
                // SAFETY: positions `lo..hi` of the row are elements of the index (the walk).
                if unsafe { p.all_direct(simd, o[0] + lo * s[0], s[0], (hi - lo) as usize) } {
                    for j in lo..hi {
                        // SAFETY: as below, every index value now known in range.
                        unsafe {
                            let at = dst.offset(o[1] + j * s[1] + p.at_direct(o[0] + j * s[0]));
                            let v = src.offset(o[2] + j * s[2]).read_unaligned();
                            at.write_unaligned(f(at.read_unaligned(), v));
                        }
                    }
                    continue;
                }
                for j in lo..hi {
                    // SAFETY: the walk reaches elements of the index, of `value` and (with
                    // the value's term, 0 when out of range) of the target; `value` is
                    // disjoint from the target, and tasks reach disjoint targets (split off
                    // the dim). Unaligned, as above.
                    unsafe {
                        let (k, ok) = p.at(o[0] + j * s[0]);
                        bad |= !ok;
                        let at = dst.offset(o[1] + j * s[1] + k);
                        let v = src.offset(o[2] + j * s[2]).read_unaligned();
                        at.write_unaligned(f(at.read_unaligned(), v));
                    }
                }
            }
            any |= bad;
        });
        if any {
            bad.store(true, Ordering::Relaxed);
        }
    });
    !bad.load(Ordering::Relaxed)
}

/// `dst[j · ds] = f(dst[j · ds], src[j · ss])` for `j < len`: through slices, which the
/// compiler vectorizes, when both runs are dense and aligned; element by element otherwise.
///
/// # Safety
/// Both runs lie in live allocations, no other thread touches the target's, and the runs do
/// not overlap each other.
#[inline(always)]
unsafe fn row_apply<T: Copy>(
    dst: *mut T,
    ds: isize,
    src: *const T,
    ss: isize,
    len: usize,
    f: &impl Fn(T, T) -> T,
) {
    if ds == 1 && ss == 1 && dst.is_aligned() && src.is_aligned() {
        // SAFETY: dense, aligned and disjoint runs of `len` live elements (the caller's
        // promise), the target's touched by no other thread.
        let (d, v) = unsafe {
            (
                std::slice::from_raw_parts_mut(dst, len),
                std::slice::from_raw_parts(src, len),
            )
        };
        for (d, &v) in d.iter_mut().zip(v) {
            *d = f(*d, v);
        }
        return;
    }
    for j in 0..len as isize {
        // SAFETY: elements of the runs (the caller's promise); unaligned, as the walk's.
        unsafe {
            let at = dst.offset(j * ds);
            at.write_unaligned(f(at.read_unaligned(), src.offset(j * ss).read_unaligned()));
        }
    }
}
