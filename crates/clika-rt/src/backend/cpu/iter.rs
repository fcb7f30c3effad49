//! Iteration machinery shared by the kernels: dimension coalescing, row walking, and
//! splitting work across threads above a size threshold.

use crate::layout::DimVec;

/// Below this many elements an op runs on the calling thread: thread hand-off costs more
/// than it saves (measured on 2 cores: ~20 µs of overhead vs ~3 GB/s per core).
pub(crate) const PARALLEL_MIN_ELEMS: usize = 1 << 17;
/// Smallest piece of work handed to one thread.
const GRAIN: usize = 1 << 15;

/// Whether work may be handed to other threads: never under Miri (its strict-provenance mode
/// rejects the thread pool's own pointer tricks, and it is far too slow for big inputs), and
/// only with more than one thread in the pool.
pub(crate) fn threads_available() -> bool {
    !cfg!(miri) && crate::threads::current_num_threads() >= 2
}

/// A raw pointer that may cross threads: kernels hand disjoint output ranges to threads.
pub(crate) struct SendPtr<T>(pub *mut T);
// By hand: a derive would ask `T: Copy`, and the pointer is copyable whatever it points to.
impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SendPtr<T> {}
// SAFETY: `SendPtr` is only used to hand kernels pointers to memory that outlives the
// parallel loop, with each thread writing a disjoint range (see each use).
unsafe impl<T> Send for SendPtr<T> {}
// SAFETY: as above; shared use only reads the pointer value.
unsafe impl<T> Sync for SendPtr<T> {}

impl<T> SendPtr<T> {
    /// The pointer (a method, so closures capture the whole `SendPtr`, not its field).
    pub(crate) fn get(self) -> *mut T {
        self.0
    }
}

/// Shape and per-operand strides after merging dimensions that are contiguous with each
/// other in every operand (and dropping size-1 dimensions). Iterating the result visits the
/// same offsets in the same order as the original.
#[derive(Debug, Clone)]
pub(crate) struct Coalesced<const N: usize> {
    pub shape: DimVec<usize>,
    pub strides: [DimVec<isize>; N],
}

impl<const N: usize> Coalesced<N> {
    pub(crate) fn new(shape: &[usize], strides: [&[isize]; N]) -> Self {
        let mut out_shape: DimVec<usize> = DimVec::new();
        let mut out_strides: [DimVec<isize>; N] = std::array::from_fn(|_| DimVec::new());
        for d in 0..shape.len() {
            if shape[d] == 1 {
                continue;
            }
            let merge = out_shape.last().is_some_and(|&prev_n| {
                (0..N).all(|k| *out_strides[k].last().unwrap() == strides[k][d] * shape[d] as isize)
                    && prev_n > 0
            });
            if merge {
                *out_shape.last_mut().unwrap() *= shape[d];
                for k in 0..N {
                    *out_strides[k].last_mut().unwrap() = strides[k][d];
                }
            } else {
                out_shape.push(shape[d]);
                for k in 0..N {
                    out_strides[k].push(strides[k][d]);
                }
            }
        }
        if out_shape.is_empty() {
            out_shape.push(1);
            for s in &mut out_strides {
                s.push(0);
            }
        }
        Coalesced {
            shape: out_shape,
            strides: out_strides,
        }
    }

    /// Length of the innermost dimension (a "row").
    pub(crate) fn inner(&self) -> usize {
        *self.shape.last().unwrap()
    }

    /// Number of rows (product of the outer dimensions).
    pub(crate) fn rows(&self) -> usize {
        self.shape[..self.shape.len() - 1].iter().product()
    }

    /// Element offsets (relative) of the start of row `row` for each operand.
    pub(crate) fn row_offsets(&self, mut row: usize) -> [isize; N] {
        let mut offs = [0isize; N];
        let nd = self.shape.len();
        for d in (0..nd - 1).rev() {
            let i = row % self.shape[d];
            row /= self.shape[d];
            for (k, o) in offs.iter_mut().enumerate() {
                *o += i as isize * self.strides[k][d];
            }
        }
        offs
    }

    /// Innermost stride of each operand.
    pub(crate) fn inner_strides(&self) -> [isize; N] {
        std::array::from_fn(|k| *self.strides[k].last().unwrap())
    }
}

/// Runs `f(row, start, len)` over every row piece of a `rows × inner` iteration space,
/// in parallel when the space is large. Pieces of one row never overlap.
///
/// Only the sequential loop is generic (inlined per kernel); the parallel split takes `f` as
/// a `dyn Fn`, so rayon's job machinery is compiled once rather than once per kernel and
/// dtype — instantiated per call site it was over a third of the library's machine code.
/// The indirect call costs one per piece of at least `GRAIN` elements.
pub(crate) fn for_each_piece(
    rows: usize,
    inner: usize,
    f: impl Fn(usize, usize, usize) + Sync + Send,
) {
    let total = rows * inner;
    if total == 0 {
        // No element: callers must not even form row pointers into an empty storage.
        return;
    }
    if total < PARALLEL_MIN_ELEMS || !threads_available() {
        for r in 0..rows {
            f(r, 0, inner);
        }
        return;
    }
    pieces_in_parallel(rows, inner, &f);
}

fn pieces_in_parallel(rows: usize, inner: usize, f: &(dyn Fn(usize, usize, usize) + Sync)) {
    if inner >= GRAIN {
        // Long rows: split each row into grains.
        let per_row = inner.div_ceil(GRAIN);
        items_in_parallel(rows * per_row, &|p| {
            let (r, piece) = (p / per_row, p % per_row);
            let start = piece * GRAIN;
            f(r, start, GRAIN.min(inner - start));
        });
    } else {
        let rows_per_task = GRAIN.div_ceil(inner.max(1)).max(1);
        items_in_parallel(rows.div_ceil(rows_per_task), &|t| {
            let lo = t * rows_per_task;
            for r in lo..(lo + rows_per_task).min(rows) {
                f(r, 0, inner);
            }
        });
    }
}

/// Runs `f(i)` for `i < items`, in parallel when `items × elems_per_item` is large (the
/// parallel path through a `dyn Fn`, as in [`for_each_piece`]). Small items are handed out
/// in groups of about [`TASK_ELEMS`] elements (at least 8 groups): the pool's shared counter
/// costs a contended atomic per task, which on rows of 62 elements (a padded image) took
/// most of the time.
pub(crate) fn for_each_item(items: usize, elems_per_item: usize, f: impl Fn(usize) + Sync + Send) {
    if items.saturating_mul(elems_per_item) < PARALLEL_MIN_ELEMS
        || items < 2
        || !threads_available()
    {
        (0..items).for_each(f);
    } else {
        for_each_group(items, elems_per_item, true, &|group| group.for_each(&f));
    }
}

/// Runs `f` over consecutive groups of `items` that together cover `0..items` once: when
/// `parallel` (and the pool has threads), groups of about [`TASK_ELEMS`] elements (at least
/// 8 groups when there are enough items) run on the pool; otherwise `f(0..items)` runs once
/// on this thread. The caller decides when an input is worth threads; a group is where
/// per-task scratch (a buffer, a sort's work space) is made once.
///
/// Everything is behind a `dyn Fn`, so rayon is compiled once for every caller (see
/// [`for_each_piece`]).
pub(crate) fn for_each_group(
    items: usize,
    elems_per_item: usize,
    parallel: bool,
    f: &(dyn Fn(std::ops::Range<usize>) + Sync),
) {
    let group = (TASK_ELEMS / elems_per_item.max(1)).clamp(1, (items / 8).max(1));
    if !parallel || items.div_ceil(group) < 2 || !threads_available() {
        if items > 0 {
            f(0..items);
        }
        return;
    }
    items_in_parallel(items.div_ceil(group), &|t| {
        f(t * group..((t + 1) * group).min(items))
    });
}

/// [`for_each_group`] over the `chunk`-element pieces of `dst` (the last may be shorter):
/// `f(first, part)` gets the index of its first piece and the run of whole pieces it owns,
/// disjoint from every other call's.
pub(crate) fn chunks_in_groups<T: Send>(
    dst: &mut [T],
    chunk: usize,
    elems_per_chunk: usize,
    parallel: bool,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let (n, chunk) = (dst.len(), chunk.max(1));
    let base = SendPtr(dst.as_mut_ptr());
    for_each_group(n.div_ceil(chunk), elems_per_chunk, parallel, &|pieces| {
        let lo = pieces.start * chunk;
        let len = (pieces.end * chunk).min(n) - lo;
        // SAFETY: `lo + len <= n`, inside `dst`, which is borrowed mutably for the whole
        // call; `for_each_group` hands out disjoint ranges of pieces, so no two calls' parts
        // overlap, and `dst` is not used otherwise while they run.
        let part = unsafe { std::slice::from_raw_parts_mut(base.get().add(lo), len) };
        f(pieces.start, part);
    });
}

/// The elements a task of [`for_each_item`] covers when its items are small.
const TASK_ELEMS: usize = 16 * 1024;

/// `f(i)` for every `i < items` on the runtime's pool, through a `dyn Fn` (see
/// [`for_each_piece`]): callers that decided to go parallel use it instead of generic rayon
/// pipelines.
pub(crate) fn items_in_parallel(items: usize, f: &(dyn Fn(usize) + Sync)) {
    crate::threads::for_each_index(items, f);
}

/// `(0..tasks).map(f).collect()`, the tasks run in parallel through [`items_in_parallel`]
/// (so rayon is not instantiated per result type). Results keep the task order. Tasks are
/// coarse (thousands of elements each), so one uncontended lock per result is free.
pub(crate) fn collect_in_parallel<T: Send>(tasks: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let slots: std::sync::Mutex<Vec<Option<T>>> =
        std::sync::Mutex::new((0..tasks).map(|_| None).collect());
    items_in_parallel(tasks, &|i| {
        let v = f(i);
        slots
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(v);
    });
    slots
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .map(|v| v.expect("items_in_parallel runs every task"))
        .collect()
}

pub(crate) use crate::layout::order_by_stride;
