//! The CPU's reduction engine.
//!
//! The reduced dimensions are coalesced into rows (for order-free reductions they are first
//! sorted so the smallest stride is innermost, which turns a transposed or pitched view into
//! contiguous rows). Work is split across threads over output elements, or, when there are
//! few outputs, over the rows of each reduction, and partial results are combined.
//!
//! Rows are folded in chunks of at most 1024 elements by per-type lane loops (`fold`): `f32`
//! (and `Float16`/`BFloat16`, widened to `f32`) sums accumulate 32 `f32` lanes per chunk (8
//! in a chunk under 256 elements) and add the chunk sums in `f64`; `f64` sums use 16 `f64`
//! lanes (4 under 256); max/min/argmax/argmin compare
//! in the type's own lanes (NaN wins, ties keep the first index). The error of a float sum
//! grows with the chunk size plus `n / chunk`, not `n` (a 10^7-element float32 sum of 0.1 is
//! within 1e-7 relative). Integer and boolean sums and products wrap in `i64` and return
//! `Int64` (`UInt64` returns `UInt64`: the same wrapping bits read unsigned, i.e. the sum
//! modulo 2^64). When the kept dimension is the contiguous one, kept rows stream into per-output
//! accumulators instead (`reduce_outer`).

use super::reduce_outer::reduce_outer;
pub(super) use super::reduce_outer::use_outer;

use super::fold::{self, ProdLane, RedElem, Tree, CHUNK};
use super::iter::{collect_in_parallel, order_by_stride, Coalesced, SendPtr, PARALLEL_MIN_ELEMS};
use super::vmath::{avx2, dispatch_avx2, SimdBody};
use crate::dtype::Element;
use crate::layout::DimVec;
use crate::ops::{ReduceOp as Kind, ReducePlan};
use crate::{DType, Error, Result, Tensor};

/// The dimensions a reduction keeps and walks.
pub(super) struct Plan {
    pub(super) kept: Coalesced<1>,
    pub(super) red: Coalesced<1>,
    pub(super) count: usize,
}

/// The CPU's walk of `p` over `t`: kept and reduced dims coalesced (reduced ones ordered by
/// stride when the order is free).
pub(super) fn plan(p: &ReducePlan, t: &Tensor) -> Plan {
    let (shape, strides) = (t.shape(), t.strides());
    let mut red_dims: DimVec<usize> = p.dims(true).collect();
    if p.op.order_free() {
        let rs: DimVec<usize> = red_dims.iter().map(|&d| shape[d]).collect();
        let rst: DimVec<isize> = red_dims.iter().map(|&d| strides[d]).collect();
        red_dims = order_by_stride(&rs, &rst)
            .iter()
            .map(|&i| red_dims[i])
            .collect();
    }
    let pick = |ds: &mut dyn Iterator<Item = usize>| -> (DimVec<usize>, DimVec<isize>) {
        ds.map(|d| (shape[d], strides[d])).unzip()
    };
    let (ks, kst) = pick(&mut p.dims(false));
    let (rs, rst) = pick(&mut red_dims.iter().copied());
    Plan {
        count: p.count,
        kept: Coalesced::new(&ks, [&kst]),
        red: Coalesced::new(&rs, [&rst]),
    }
}

/// A reduction's running state for one element type: folded chunk by chunk, merged in index
/// order, and finished into the output type. One implementation per (op family, type), with
/// the per-type inner loops in `fold`.
pub(super) trait Fold<S: RedElem>: Copy + Send + Sync {
    /// Folds a contiguous chunk whose first element has logical index `idx0`, its lanes
    /// combined by `tree`.
    fn chunk(&mut self, tree: Tree, xs: &[S], idx0: i64);
    /// Combines with the state of a part that covers later indices.
    fn merge(self, later: Self) -> Self;
    /// The result over `count` elements.
    fn finish<D: Element>(self, count: usize) -> Result<D>;
}

/// Float sums and means (and integer means): chunk sums added in `f64`.
#[derive(Clone, Copy)]
struct SumF {
    t: f64,
    mean: bool,
}

impl<S: RedElem> Fold<S> for SumF {
    #[inline(always)]
    fn chunk(&mut self, tree: Tree, xs: &[S], _: i64) {
        self.t += S::sum_f(tree, xs);
    }
    fn merge(self, later: Self) -> Self {
        SumF {
            t: self.t + later.t,
            ..self
        }
    }
    fn finish<D: Element>(self, count: usize) -> Result<D> {
        Ok(D::from_f64(if self.mean {
            self.t / count as f64
        } else {
            self.t
        }))
    }
}

/// Integer and boolean sums: wrapping `i64`.
#[derive(Clone, Copy)]
struct SumI(i64);

impl<S: RedElem> Fold<S> for SumI {
    #[inline(always)]
    fn chunk(&mut self, _: Tree, xs: &[S], _: i64) {
        self.0 = self.0.wrapping_add(S::sum_i(xs));
    }
    fn merge(self, later: Self) -> Self {
        SumI(self.0.wrapping_add(later.0))
    }
    fn finish<D: Element>(self, _: usize) -> Result<D> {
        Ok(D::from_i64(self.0))
    }
}

/// Products in `LANES` independent lanes (one multiply chain per lane, so they pipeline and
/// vectorise), taken to one value by [`ProdLane`]; `mul` is the accumulator's product. The
/// remainder's groups of 4 (one AVX2 register of the 8-byte accumulator) go into the first
/// lanes, and only its last few elements multiply one after another.
#[inline(always)]
fn lane_product<S: Element, A: ProdLane, const LANES: usize>(
    tree: Tree,
    xs: &[S],
    one: A,
    of: impl Fn(S) -> A,
    mul: impl Fn(A, A) -> A,
) -> A {
    let mut lanes = [one; LANES];
    let mut it = xs.chunks_exact(LANES);
    for c in &mut it {
        for (l, &v) in lanes.iter_mut().zip(c) {
            *l = mul(*l, of(v));
        }
    }
    let rest = it.remainder();
    let (whole, tail) = rest.split_at(rest.len() - rest.len() % 4);
    for g in whole.chunks_exact(4) {
        for (l, &v) in lanes.iter_mut().zip(g) {
            *l = mul(*l, of(v));
        }
    }
    tail.iter()
        .fold(A::tree_prod(tree, &lanes), |a, &v| mul(a, of(v)))
}

/// Float products in `f64` (each chunk in 32 lanes: the order, and so the rounding,
/// depends on the shape only). Eight lanes were two AVX2 registers, two multiply chains
/// bound by the multiply's latency: `prod()` of 1M `f32` took 52 µs where the sum takes 25
/// and PyTorch's product 31; 32 lanes are eight chains, enough to fill the pipeline.
#[derive(Clone, Copy)]
struct ProdF(f64);

impl<S: RedElem> Fold<S> for ProdF {
    #[inline(always)]
    fn chunk(&mut self, tree: Tree, xs: &[S], _: i64) {
        self.0 *= lane_product::<S, f64, 32>(tree, xs, 1.0, S::to_f64, |a, b| a * b);
    }
    fn merge(self, later: Self) -> Self {
        ProdF(self.0 * later.0)
    }
    fn finish<D: Element>(self, _: usize) -> Result<D> {
        Ok(D::from_f64(self.0))
    }
}

/// Integer products: wrapping `i64`.
#[derive(Clone, Copy)]
struct ProdI(i64);

impl<S: RedElem> Fold<S> for ProdI {
    #[inline(always)]
    fn chunk(&mut self, tree: Tree, xs: &[S], _: i64) {
        // Wrapping products are exact in any order.
        let p = lane_product::<S, i64, 8>(tree, xs, 1, S::to_i64, i64::wrapping_mul);
        self.0 = self.0.wrapping_mul(p);
    }
    fn merge(self, later: Self) -> Self {
        ProdI(self.0.wrapping_mul(later.0))
    }
    fn finish<D: Element>(self, _: usize) -> Result<D> {
        Ok(D::from_i64(self.0))
    }
}

/// Variance (and, with `std`, its square root) in one pass over memory: each chunk's mean
/// and sum of squared deviations from it (a second pass over the chunk while it is in
/// cache), merged with the pairwise update of Chan, Golub and LeVeque, so a large common
/// offset costs no accuracy (unlike `Σx² − (Σx)²/n`) and no full-size temporary is made.
#[derive(Clone, Copy)]
pub(super) struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
    correction: usize,
    std: bool,
}

impl Moments {
    fn new(kind: Kind) -> Self {
        let (correction, std) = match kind {
            Kind::Var { correction } => (correction, false),
            Kind::Std { correction } => (correction, true),
            _ => unreachable!("Moments folds var and std only"),
        };
        Moments {
            n: 0.0,
            mean: 0.0,
            m2: 0.0,
            correction,
            std,
        }
    }

    /// The moments of `n` elements with this `mean` and `m2`, after those of `self`.
    #[inline]
    fn combine(self, n: f64, mean: f64, m2: f64) -> Self {
        if n == 0.0 {
            return self;
        }
        if self.n == 0.0 {
            return Moments {
                n,
                mean,
                m2,
                ..self
            };
        }
        let total = self.n + n;
        let d = mean - self.mean;
        Moments {
            n: total,
            mean: self.mean + d * (n / total),
            m2: self.m2 + m2 + d * d * (self.n * n / total),
            ..self
        }
    }

    /// The variance (or standard deviation) of `count` elements with squared deviations
    /// `m2`: `m2 / max(count - correction, 0)`, as PyTorch (NaN or inf when that is 0).
    pub(super) fn value(m2: f64, count: usize, correction: usize, std: bool) -> f64 {
        let v = m2 / count.saturating_sub(correction) as f64;
        if std {
            v.sqrt()
        } else {
            v
        }
    }
}

impl<S: RedElem> Fold<S> for Moments {
    #[inline(always)]
    fn chunk(&mut self, tree: Tree, xs: &[S], _: i64) {
        if xs.is_empty() {
            return;
        }
        let n = xs.len() as f64;
        let (mean, m2) = S::moments(tree, xs, S::sum_f(tree, xs) / n);
        *self = self.combine(n, mean, m2);
    }
    fn merge(self, later: Self) -> Self {
        self.combine(later.n, later.mean, later.m2)
    }
    fn finish<D: Element>(self, count: usize) -> Result<D> {
        Ok(D::from_f64(Moments::value(
            self.m2,
            count,
            self.correction,
            self.std,
        )))
    }
}

/// max / min (`MAX`), and with `ARG` the logical index of the first occurrence. Each chunk's
/// best is found in the type's lanes; only a chunk that improves on the running best is
/// searched again (in cache) for its first index. NaN wins and the first NaN stays.
#[derive(Clone, Copy)]
struct Best<W, const MAX: bool, const ARG: bool> {
    v: W,
    i: i64,
    set: bool,
}

impl<W: Default, const MAX: bool, const ARG: bool> Best<W, MAX, ARG> {
    fn new() -> Self {
        Best {
            v: W::default(),
            i: 0,
            set: false,
        }
    }
}

impl<S: RedElem, const MAX: bool, const ARG: bool> Fold<S> for Best<S::W, MAX, ARG> {
    #[inline(always)]
    fn chunk(&mut self, tree: Tree, xs: &[S], idx0: i64) {
        if xs.is_empty() {
            return;
        }
        let m = S::best::<MAX>(tree, xs);
        if !self.set || fold::better::<S::W, MAX>(self.v, m) {
            if ARG {
                self.i = idx0 + S::first_eq(xs, m) as i64;
            }
            self.v = m;
            self.set = true;
        }
    }
    fn merge(self, later: Self) -> Self {
        if !later.set || (self.set && !fold::better::<S::W, MAX>(self.v, later.v)) {
            self
        } else {
            later
        }
    }
    fn finish<D: Element>(self, _: usize) -> Result<D> {
        if !self.set {
            let op = match (MAX, ARG) {
                (true, false) => Kind::Max,
                (false, false) => Kind::Min,
                (true, true) => Kind::ArgMax,
                (false, true) => Kind::ArgMin,
            };
            return Err(Error::EmptyReduction { op: op.name() });
        }
        Ok(if ARG {
            D::from_i64(self.i)
        } else {
            S::w_out::<D>(self.v)
        })
    }
}

/// Feeds `n` elements from `p` (stride `s`) to `f` as contiguous chunks of at most [`CHUNK`]
/// with the row index of each chunk's first element; strided rows are gathered into a stack
/// buffer first, so every op has one inner loop over slices.
///
/// # Safety
/// Every element `p + i * s`, `i < n`, must be readable as `S`.
#[inline]
unsafe fn for_chunks<S: Element>(p: *const S, s: isize, n: usize, mut f: impl FnMut(&[S], usize)) {
    if n == 0 {
        return;
    }
    if s == 1 {
        // SAFETY: a stride-1 row of `n` readable elements is a slice.
        let row = unsafe { std::slice::from_raw_parts(p, n) };
        for (k, c) in row.chunks(CHUNK).enumerate() {
            f(c, k * CHUNK);
        }
        return;
    }
    // SAFETY: `n > 0`, so element 0 is readable.
    let mut buf = [unsafe { S::load(p) }; CHUNK];
    let mut start = 0;
    while start < n {
        let len = CHUNK.min(n - start);
        for (i, b) in buf[..len].iter_mut().enumerate() {
            // SAFETY: `start + i < n`.
            *b = unsafe { S::load(p.offset((start + i) as isize * s)) };
        }
        f(&buf[..len], start);
        start += len;
    }
}

/// Folds `n` elements from `p` (stride `s`) whose first has logical index `index0`.
///
/// # Safety
/// As [`for_chunks`].
#[inline]
unsafe fn fold_row<S: RedElem, F: Fold<S>>(
    mut acc: F,
    p: *const S,
    s: isize,
    n: usize,
    index0: i64,
) -> F {
    // Each chunk's fold (the hot loop) runs compiled for AVX2 where the CPU has it.
    let simd = avx2();
    // SAFETY: forwarded from the caller.
    unsafe {
        for_chunks(p, s, n, |xs, i| {
            let idx0 = index0 + i as i64;
            dispatch_avx2(
                simd,
                FoldChunk {
                    acc: &mut acc,
                    xs,
                    idx0,
                },
            )
        })
    };
    acc
}

/// One chunk's fold as a [`SimdBody`]. A struct, not a closure in `vmath::Call`: a closure
/// is not `#[inline(always)]`, and when LLVM declined to inline it the fold compiled
/// outside the AVX2 copy, as SSE2 code (`max` over 10^6 `f32` ran 2.7× slower).
struct FoldChunk<'a, S, F> {
    acc: &'a mut F,
    xs: &'a [S],
    idx0: i64,
}

impl<S: RedElem, F: Fold<S>> SimdBody for FoldChunk<'_, S, F> {
    #[inline(always)]
    fn run<const FMA: bool>(self) {
        self.acc.chunk(Tree::PLAIN, self.xs, self.idx0);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v3(self, simd: pulp::x86::V3) {
        self.acc.chunk(Tree::v3(simd), self.xs, self.idx0);
    }
}

/// Folds the whole reduction of the output whose first input element is at `base`.
///
/// # Safety
/// `base` must be the offset of an element whose kept index is fixed; `t` is of type `S`.
unsafe fn reduce_one<S: RedElem, F: Fold<S>>(
    init: F,
    t: &Tensor,
    plan: &Plan,
    base: isize,
    parallel: bool,
) -> F {
    if plan.count == 0 {
        // Nothing to read: no pointer into the (possibly empty) storage is formed.
        return init;
    }
    let p = SendPtr(t.storage().as_ptr().cast::<S>());
    let red = &plan.red;
    let (inner, [s]) = (red.inner(), red.inner_strides());
    let row = |r: usize| {
        let [o] = red.row_offsets(r);
        // SAFETY: row `r` of the reduced dims from `base` is inside `t` by L3.
        unsafe { fold_row(init, p.get().offset(base + o), s, inner, (r * inner) as i64) }
    };
    if parallel && red.rows() > 1 {
        // Rows are grouped so that each task folds at least ~64K elements.
        let per_task = (1usize << 16).div_ceil(inner.max(1)).max(1);
        let rows = red.rows();
        collect_in_parallel(rows.div_ceil(per_task), |t| {
            let lo = t * per_task;
            (lo..(lo + per_task).min(rows)).fold(init, |a, r| a.merge(row(r)))
        })
        .into_iter()
        .fold(init, F::merge)
    } else if parallel && inner >= PARALLEL_MIN_ELEMS {
        // One long row: split it into pieces (whole chunks, so the summation order is the
        // same as on one thread).
        const PIECE: usize = 1 << 16;
        let pieces = inner.div_ceil(PIECE);
        // The pieces' partials merge left to right: the same order on every run (rayon's
        // own reduce merges in a tree whose shape follows the work stealing).
        collect_in_parallel(pieces, |k| {
            let (lo, n) = (k * PIECE, PIECE.min(inner - k * PIECE));
            // SAFETY: elements `lo..lo + n` of the single row are inside `t`.
            unsafe {
                fold_row(
                    init,
                    p.get().offset(base + lo as isize * s),
                    s,
                    n,
                    lo as i64,
                )
            }
        })
        .into_iter()
        .fold(init, F::merge)
    } else {
        (0..red.rows()).fold(init, |a, r| a.merge(row(r)))
    }
}

/// Runs the primitive reduction `rp` over the host tensor `t` into a fresh tensor.
pub(crate) fn reduce(rp: &ReducePlan, t: &Tensor) -> Result<Tensor> {
    let kind = rp.op;
    if matches!(kind, Kind::Var { .. } | Kind::Std { .. }) && rp.out_dtype != DType::Float64 {
        // Var/Std fold in `f64` and write `f64` (one rounding, as writing the type itself),
        // then cast the (reduced, so small) result: the kernels exist once per input type,
        // not once per (input, output) pair.
        let wide = ReducePlan {
            out_dtype: DType::Float64,
            ..rp.clone()
        };
        return reduce(&wide, t)?.to_dtype(rp.out_dtype);
    }
    if t.dtype() == DType::Bool {
        // Booleans reduce as `u8` (the same results: sums count, max/min are any/all), and
        // max/min turn back into booleans (a cast of the small reduced tensor).
        let bytes = ReducePlan {
            out_dtype: kind.out_dtype(DType::UInt8),
            ..rp.clone()
        };
        let r = reduce(&bytes, &t.to_dtype(DType::UInt8)?)?;
        return if r.dtype() == rp.out_dtype {
            Ok(r)
        } else {
            r.to_dtype(rp.out_dtype)
        };
    }
    let plan = plan(rp, t);
    let od = rp.out_dtype;
    let planned = match kind {
        Kind::Var { .. } | Kind::Std { .. } => DType::Float64,
        _ => kind.out_dtype(t.dtype()),
    };
    if od != planned {
        return Err(Error::Internal {
            message: format!(
                "{}: a {} reduction planned to give {od}, not {planned}",
                kind.name(),
                t.dtype()
            ),
        });
    }
    let out = Tensor::alloc(&rp.out_shape, od, t.device(), false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    if plan.count == 0 && !rp.op.has_identity() {
        return Err(Error::EmptyReduction { op: kind.name() });
    }
    // Each op is compiled only for the output type it returns for its input type
    // (`ReduceOp::out_dtype`), not for every (input, output) pair.
    super::num::dispatch_num!(t.dtype(), S => match kind {
        Kind::Sum | Kind::Prod => sums::<S, <S as RedElem>::Sum>(kind, t, &plan, &out)?,
        Kind::Mean => sums::<S, <S as RedElem>::Mean>(kind, t, &plan, &out)?,
        Kind::Max | Kind::Min => best::<S, S>(kind, t, &plan, &out)?,
        Kind::ArgMax | Kind::ArgMin => best::<S, i64>(kind, t, &plan, &out)?,
        Kind::Var { .. } | Kind::Std { .. } => {
            if use_outer(&plan) {
                // SAFETY: `out` is fresh and exclusive with one element per kept index.
                unsafe { reduce_outer::<S, f64>(kind, t, &plan, &out) };
            } else {
                reduce_inner::<S, f64, _>(Moments::new(kind), t, &plan, &out)?;
            }
        }
    }, bool => unreachable!("bool inputs are read as UInt8"));
    Ok(out)
}

/// Sums, means and products of `src` (type `S`) into `out` (type `D`).
fn sums<S: RedElem, D: Element>(kind: Kind, src: &Tensor, plan: &Plan, out: &Tensor) -> Result<()> {
    debug_assert_eq!((S::DTYPE, D::DTYPE), (src.dtype(), out.dtype()));
    if use_outer(plan) {
        // SAFETY: `out` is fresh and exclusive with one element per kept index.
        unsafe { reduce_outer::<S, D>(kind, src, plan, out) };
        return Ok(());
    }
    let float = S::DTYPE.is_float();
    match kind {
        Kind::Sum | Kind::Mean if float || kind == Kind::Mean => {
            let mean = kind == Kind::Mean;
            reduce_inner::<S, D, _>(SumF { t: 0.0, mean }, src, plan, out)
        }
        Kind::Prod if float => reduce_inner::<S, D, _>(ProdF(1.0), src, plan, out),
        Kind::Prod => reduce_inner::<S, D, _>(ProdI(1), src, plan, out),
        _ => reduce_inner::<S, D, _>(SumI(0), src, plan, out),
    }
}

/// Max/min (`D = S`) and argmax/argmin (`D = i64`) of `src` into `out`.
fn best<S: RedElem, D: Element>(kind: Kind, src: &Tensor, plan: &Plan, out: &Tensor) -> Result<()> {
    debug_assert_eq!((S::DTYPE, D::DTYPE), (src.dtype(), out.dtype()));
    if use_outer(plan) {
        // SAFETY: `out` is fresh and exclusive with one element per kept index.
        unsafe { reduce_outer::<S, D>(kind, src, plan, out) };
        return Ok(());
    }
    match kind {
        Kind::Max => reduce_inner::<S, D, _>(Best::<S::W, true, false>::new(), src, plan, out),
        Kind::Min => reduce_inner::<S, D, _>(Best::<S::W, false, false>::new(), src, plan, out),
        Kind::ArgMax => reduce_inner::<S, D, _>(Best::<S::W, true, true>::new(), src, plan, out),
        _ => reduce_inner::<S, D, _>(Best::<S::W, false, true>::new(), src, plan, out),
    }
}

/// Inner reduction: each output folds its own rows. Few outputs → parallel inside each
/// reduction; many → parallel across outputs, grouped so a task folds ≥ 2^15 elements.
/// Outputs that each fold one row of at most [`CHUNK`] go through [`one_row_each`].
pub(super) fn reduce_inner<S: RedElem, D: Element, F: Fold<S>>(
    init: F,
    src: &Tensor,
    plan: &Plan,
    out: &Tensor,
) -> Result<()> {
    let n_out = out.numel();
    let big = n_out * plan.count.max(1) >= PARALLEL_MIN_ELEMS && super::iter::threads_available();
    let par_inside = big && n_out < 2 * crate::threads::current_num_threads();
    if !par_inside
        && plan.red.rows() == 1
        && plan.red.inner_strides() == [1]
        && (1..=CHUNK).contains(&plan.count)
    {
        return one_row_each::<S, D, F>(init, src, plan, out, big);
    }
    let dst = SendPtr(out.data_ptr().cast::<D>());
    let one = |k: usize| -> Result<()> {
        let [o] = plan.kept.row_offsets(k / plan.kept.inner());
        let j = (k % plan.kept.inner()) as isize * plan.kept.inner_strides()[0];
        let base = src.layout().offset() as isize + o + j;
        // SAFETY: `base` is the offset of output element `k`'s first input element.
        let acc = unsafe { reduce_one::<S, F>(init, src, plan, base, par_inside) };
        let v = acc.finish::<D>(plan.count)?;
        // SAFETY: `out` is a fresh exclusive allocation of `n_out` elements and `k < n_out`;
        // each `k` is written by exactly one task.
        unsafe { dst.get().add(k).write(v) };
        Ok(())
    };
    if big && !par_inside {
        let per_task = (1usize << 15).div_ceil(plan.count.max(1)).max(1);
        collect_in_parallel(n_out.div_ceil(per_task), |t| {
            let lo = t * per_task;
            (lo..(lo + per_task).min(n_out)).try_for_each(one)
        })
        .into_iter()
        .collect()
    } else {
        (0..n_out).try_for_each(one)
    }
}

/// Many outputs that each fold one contiguous row of at most [`CHUNK`] elements (a
/// classifier's scores, a pixel's channels, the rows of a matrix): outputs go in tasks of
/// ≥ 2^15 elements, and
/// each task is one AVX2 dispatch whose loop folds its rows one after another. Through
/// [`reduce_one`] every row paid a dispatch, a chunk walk and its own set-up, more than
/// the fold itself on a row of ten (`amax(dim=1)` of 100000×10 `f32`: 1650 → 270 µs).
/// Each row folds as one chunk, the same as on the general path.
fn one_row_each<S: RedElem, D: Element, F: Fold<S>>(
    init: F,
    src: &Tensor,
    plan: &Plan,
    out: &Tensor,
    parallel: bool,
) -> Result<()> {
    let n_out = out.numel();
    let per_task = (1usize << 15).div_ceil(plan.count).max(1);
    let body = RowTask {
        init,
        p: SendPtr(src.storage().as_ptr().cast::<S>()),
        dst: SendPtr(out.data_ptr().cast::<D>()),
        plan,
        base: src.layout().offset() as isize,
        outputs: 0..0,
    };
    let simd = avx2();
    let task = |t: usize| -> Result<()> {
        let lo = t * per_task;
        let mut res = Ok(());
        let outputs = lo..(lo + per_task).min(n_out);
        dispatch_avx2(simd, (RowTask { outputs, ..body }, &mut res));
        res
    };
    if parallel {
        collect_in_parallel(n_out.div_ceil(per_task), task)
            .into_iter()
            .collect()
    } else {
        (0..n_out.div_ceil(per_task)).try_for_each(task)
    }
}

/// The outputs `outputs` of [`one_row_each`], each folding its one row.
struct RowTask<'a, S, D, F> {
    init: F,
    p: SendPtr<S>,
    dst: SendPtr<D>,
    plan: &'a Plan,
    base: isize,
    outputs: std::ops::Range<usize>,
}

/// The task, and where its first error goes, as a [`SimdBody`]: the row loop compiles
/// inside the AVX2 copy with the fold inlined into it.
impl<S: RedElem, D: Element, F: Fold<S>> SimdBody for (RowTask<'_, S, D, F>, &mut Result<()>) {
    #[inline(always)]
    fn run<const FMA: bool>(self) {
        let (t, res) = self;
        t.fold_rows(Tree::PLAIN, res);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn run_v3(self, simd: pulp::x86::V3) {
        let (t, res) = self;
        t.fold_rows(Tree::v3(simd), res);
    }
}

impl<S: RedElem, D: Element, F: Fold<S>> RowTask<'_, S, D, F> {
    /// Folds and writes each output's row; the first error goes to `res`.
    #[inline(always)]
    fn fold_rows(self, tree: Tree, res: &mut Result<()>) {
        let (kept, red) = (&self.plan.kept, &self.plan.red);
        let ([ks], [s], ki) = (kept.inner_strides(), red.inner_strides(), kept.inner());
        let n = self.plan.count;
        debug_assert_eq!(s, 1);
        let p = self.p.get().cast_const();
        for k in self.outputs {
            let [o] = kept.row_offsets(k / ki);
            let row = self.base + o + (k % ki) as isize * ks;
            // SAFETY: output `k`'s row of `n` contiguous elements is inside `src` (L3).
            let xs = unsafe { std::slice::from_raw_parts(p.offset(row), n) };
            let mut acc = self.init;
            acc.chunk(tree, xs, 0);
            match acc.finish::<D>(n) {
                // SAFETY: `out` is a fresh exclusive allocation with `k < n_out`, and each
                // output is written by exactly one task.
                Ok(v) => unsafe { self.dst.get().add(k).write(v) },
                Err(e) => {
                    *res = Err(e);
                    return;
                }
            }
        }
    }
}
