//! Fused `softmax` / `log_softmax` / `logsumexp` for every float dtype: each row along the
//! reduced dimension takes one pass for its maximum, one that writes `e^(x - max)` while
//! summing it (in lane-wide partial sums), and one that scales (or, for `log_softmax`,
//! writes `x - max - ln(sum)`), instead of five whole-tensor ops with their temporaries;
//! `logsumexp` writes no row, only `max + ln(sum)` per row. Passes 1 and 2 work on whole
//! chunks of [`LANES`] elements (vector instructions, the exponential of `vmath`) and one
//! padded ragged end; pass 3 is a plain element loop. `float16`/`bfloat16` rows are
//! widened once into an `f32` scratch row, which the passes then work in; the output is
//! rounded once (for long `float16` rows the widening is pass 1 and the rounding pass 3). Rows of at most 64 elements go 16 at a time, one row per lane (a
//! transposed tile), since a short row is all dependent chains. Rows go to threads
//! in blocks.
//! The dimension (for `logsumexp`, the reduced dimensions) is moved innermost (a contiguous
//! copy when it is not already), so every layout runs the same row kernel.

use std::ops::{Add, Mul, Sub};

use half::{bf16, f16};

use super::half_rows::{f16_to_f32_max, f32_to_f16_by, Finish};
use super::iter::{for_each_item, SendPtr};
use super::vmath::{dispatch, load, store, Exp, Lane, LaneElem, SimdBody, LANES};
use crate::ops::ReducePlan;
use crate::{DType, Result, Tensor};

/// A float lane type the row kernel works in.
trait Real:
    LaneElem<L = Self> + Lane + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    const NEG_INF: Self;
    const ZERO: Self;
    fn ln(self) -> Self;
    fn recip(self) -> Self;
    fn is_infinite(self) -> bool;
    fn max_nan(self, o: Self) -> Self;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            const NEG_INF: Self = <$t>::NEG_INFINITY;
            const ZERO: Self = 0.0;
            #[inline(always)]
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            #[inline(always)]
            fn recip(self) -> Self {
                1.0 / self
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            /// The larger, or NaN if either is.
            #[inline(always)]
            fn max_nan(self, o: Self) -> Self {
                if self > o || self.is_nan() {
                    self
                } else {
                    o
                }
            }
        }
    };
}

real!(f32);
real!(f64);

/// `softmax` (or `log_softmax` when `log`) of `x` along `dim`, when the CPU has a fused
/// kernel for `x`'s dtype (`None`: compose it from primitive ops).
pub(crate) fn softmax(x: &Tensor, dim: usize, log: bool) -> Option<Result<Tensor>> {
    if x.numel() == 0 {
        return None;
    }
    let mode = if log { Mode::LogSoftmax } else { Mode::Softmax };
    Some(match x.dtype() {
        DType::Float32 => run::<f32>(x, dim, mode),
        DType::Float64 => run::<f64>(x, dim, mode),
        DType::Float16 => run::<f16>(x, dim, mode),
        DType::BFloat16 => run::<bf16>(x, dim, mode),
        _ => return None,
    })
}

/// `logsumexp` of the float tensor `x` over the reduced dims of `plan` (a `Sum` plan over at
/// least one element), when the CPU has a fused kernel for `x`'s dtype (`None`: compose
/// it). The reduced dims are moved last and flattened, so each output is one row.
pub(crate) fn logsumexp(plan: &ReducePlan, x: &Tensor) -> Option<Result<Tensor>> {
    if plan.count == 0 || !x.dtype().is_float() {
        return None;
    }
    let order: Vec<isize> = plan
        .dims(false)
        .chain(plan.dims(true))
        .map(|d| d as isize)
        .collect();
    let rows = (|| {
        let flat = x.permute(&order)?.contiguous()?;
        let kept: usize = plan.dims(false).map(|d| x.shape()[d]).product();
        flat.reshape(&[kept as isize, plan.count as isize])
    })();
    let lse = |rows: Tensor| {
        let shape: Vec<isize> = plan.out_shape.iter().map(|&s| s as isize).collect();
        let r = match x.dtype() {
            DType::Float32 => run::<f32>(&rows, 1, Mode::LogSumExp),
            DType::Float16 => run::<f16>(&rows, 1, Mode::LogSumExp),
            DType::BFloat16 => run::<bf16>(&rows, 1, Mode::LogSumExp),
            _ => run::<f64>(&rows, 1, Mode::LogSumExp),
        };
        r?.reshape(&shape)
    };
    Some(rows.and_then(lse))
}

/// What a row writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `e^(x - max) / sum`, the row.
    Softmax,
    /// `x - max - ln(sum)`, the row.
    LogSoftmax,
    /// `max + ln(sum)`, one element (the maximum itself when it is infinite).
    LogSumExp,
}

fn run<E: LaneElem>(x: &Tensor, dim: usize, mode: Mode) -> Result<Tensor>
where
    E::L: Real,
{
    let last = x.ndim().saturating_sub(1);
    let moved = dim != last;
    if moved && mode != Mode::LogSumExp {
        let inner: usize = x.shape()[dim + 1..].iter().product();
        // Tiles of at least half a vector, and of at most 64K lanes (the tile is a
        // scratch of `n` vectors per block).
        if inner >= LANES / 2 && x.shape()[dim] <= 1 << 16 {
            return columns::<E>(&x.contiguous()?, dim, mode);
        }
    }
    let src = if moved {
        x.movedim(dim as isize, -1)?.contiguous()?
    } else {
        x.contiguous()?
    };
    let n = src.shape().last().copied().unwrap_or(1);
    let rows = src.numel() / n;
    let out = if mode == Mode::LogSumExp {
        Tensor::empty(&src.shape()[..last], src.dtype())?
    } else {
        Tensor::empty(src.shape(), src.dtype())?
    };
    let per_row = if mode == Mode::LogSumExp { 1 } else { n };
    let (ps, po) = (
        SendPtr(src.data_ptr().cast::<E>()),
        SendPtr(out.data_ptr().cast::<E>()),
    );
    let arch = pulp::Arch::new();
    let native = std::mem::size_of::<E>() == std::mem::size_of::<E::L>();
    // Long `float16` rows go through [`HalfRows`].
    let half = E::DTYPE == DType::Float16 && n > SHORT;
    // Rows in blocks of at least `BLOCK_ELEMS` elements: one dispatch per block, so short
    // rows do not pay a call each, and consecutive rows overlap in the CPU.
    let per_block = BLOCK_ELEMS.div_ceil(n).min(rows).max(1);
    let blocks = rows.div_ceil(per_block);
    for_each_item(blocks, per_block * n, |b| {
        let (r0, r1) = (b * per_block, ((b + 1) * per_block).min(rows));
        if half {
            // Initialised: the row kernels take it as a slice.
            let mut row = vec![0f32; n];
            // SAFETY: as for `Rows` below; `E` is `f16` (checked); `row` is this block's
            // `n` lanes of `f32`.
            let block = unsafe {
                HalfRows {
                    x: ps.get().add(r0 * n).cast_const().cast(),
                    o: po.get().add(r0 * per_row).cast(),
                    buf: row.as_mut_ptr(),
                    n,
                    rows: r1 - r0,
                    per_row,
                    mode,
                }
            };
            return dispatch(arch, block);
        }
        // The half types' scratch row: one allocation per block (of at least
        // `BLOCK_ELEMS` elements), written and read through its pointer only.
        let mut scratch = Vec::<E::L>::with_capacity(if native { 0 } else { n });
        let buf = if native {
            std::ptr::null_mut()
        } else {
            scratch.as_mut_ptr()
        };
        // SAFETY: `src` is contiguous with `rows × n` elements of type `E` (its dtype) and
        // `out` with `rows × per_row`, so rows `r0..r1` are in bounds for both; `out` is
        // fresh (disjoint from `src`), and blocks are disjoint, so each output element has
        // one writer. `buf` is null or this block's own allocation of `n` lanes.
        let block = unsafe {
            Rows {
                x: ps.get().add(r0 * n),
                o: po.get().add(r0 * per_row),
                buf,
                n,
                rows: r1 - r0,
                per_row,
                mode,
            }
        };
        dispatch(arch, block);
    });
    if moved && mode != Mode::LogSumExp {
        out.movedim(-1, dim as isize)?.contiguous()
    } else {
        Ok(out)
    }
}

/// Elements per dispatched block of rows (rows are not split).
const BLOCK_ELEMS: usize = 4096;

/// Rows of at most this many elements run [`LANES`] at a time, one row per lane.
const SHORT: usize = 64;

/// [`LANES`] rows at once, one row per lane, with element `j` of every row in lane array
/// `t[j]`: consecutive short rows (`n ≤ SHORT`, a transposed tile: `xr = n`, `xj = 1`),
/// or `lanes` adjacent columns of a softmax over an outer dimension (`xr = 1`, `xj` the
/// stride of that dimension), whose tile is a row of whole vectors. The maximum, the
/// exponentials and the sum are vector operations across the rows with no horizontal
/// reduction, and the per-row dependent chains of [`passes`] (which dominate a row of a
/// few dozen elements) run side by side. Same arithmetic per element as `passes`, but each
/// row's sum adds in element order. Lanes past `lanes` compute on zeros and are not
/// written.
///
/// # Safety
/// With `n = t.len()`: element `j` of row `r` (`r < lanes`, `j < n`) is valid at
/// `x + r·xr + j·xj`, and at `o + r·or + j·oj` (or, for [`Mode::LogSumExp`], its one value
/// at `o + r·or`), writable and disjoint from `x`.
#[inline(always)]
unsafe fn across_rows<E: LaneElem, const F: bool>(
    (x, xr, xj): (*const E, usize, usize),
    (o, or, oj): (*mut E, usize, usize),
    t: &mut [[E::L; LANES]],
    lanes: usize,
    mode: Mode,
) where
    E::L: Real,
{
    // SAFETY: every element read or written is one of the caller's (`r < lanes`, `j < n`).
    unsafe {
        if xr == 1 {
            for (j, tj) in t.iter_mut().enumerate() {
                *tj = load(x.add(j * xj), 1, 0, lanes);
            }
        } else {
            // Row by row, in memory order.
            for r in 0..lanes {
                for (j, tj) in t.iter_mut().enumerate() {
                    tj[r] = x.add(r * xr + j * xj).read().to_lane();
                }
            }
        }
        let mut m = [E::L::NEG_INF; LANES];
        for tj in t.iter() {
            for (mr, &v) in m.iter_mut().zip(tj) {
                *mr = mr.max_nan(v);
            }
        }
        let mut sum = [E::L::ZERO; LANES];
        for tj in t.iter_mut() {
            let mut c = *tj;
            for (cr, &mr) in c.iter_mut().zip(&m) {
                *cr = *cr - mr;
            }
            let c = E::L::apply::<Exp, F>(&c);
            for (sr, &cr) in sum.iter_mut().zip(&c) {
                *sr = *sr + cr;
            }
            if mode == Mode::Softmax {
                *tj = c;
            }
        }
        if mode == Mode::LogSumExp {
            for r in 0..lanes {
                let v = if m[r].is_infinite() {
                    m[r]
                } else {
                    m[r] + sum[r].ln()
                };
                o.add(r * or).write(E::from_lane(v));
            }
            return;
        }
        // Per row: the scale (softmax) or `ln(sum)` (log_softmax, `(x - max) - ln(sum)`).
        let mut k = [E::L::ZERO; LANES];
        for (kr, &sr) in k.iter_mut().zip(&sum) {
            *kr = match mode {
                Mode::Softmax => sr.recip(),
                _ => sr.ln(),
            };
        }
        for (j, tj) in t.iter().enumerate() {
            let mut y = *tj;
            for ((yr, &kr), &mr) in y.iter_mut().zip(&k).zip(&m) {
                *yr = match mode {
                    Mode::Softmax => *yr * kr,
                    _ => (*yr - mr) - kr,
                };
            }
            store::<E>(&y, o.add(j * oj), or as isize, 0, lanes);
        }
    }
}

/// `softmax`/`log_softmax` over a dimension that is not the innermost, of a contiguous `x`
/// seen as `outer × n × inner`: [`across_rows`] on tiles of [`LANES`] adjacent columns,
/// each read once from `x` and written once to the result. Moving the dimension innermost
/// instead cost two transposing copies around the row kernel (`softmax(dim=0)` of
/// 1024×976 `f32`: 0.78 ms, PyTorch 0.52).
fn columns<E: LaneElem>(x: &Tensor, dim: usize, mode: Mode) -> Result<Tensor>
where
    E::L: Real,
{
    let shape = x.shape();
    let n = shape[dim];
    let inner: usize = shape[dim + 1..].iter().product();
    let outer: usize = shape[..dim].iter().product();
    let out = Tensor::empty(shape, x.dtype())?;
    let (ps, po) = (
        SendPtr(x.data_ptr().cast::<E>()),
        SendPtr(out.data_ptr().cast::<E>()),
    );
    let tiles = inner.div_ceil(LANES);
    let items = outer * tiles;
    // At most 16 blocks (each zeroes one scratch tile), of at least `BLOCK_ELEMS`.
    let per_block = BLOCK_ELEMS
        .div_ceil(n * LANES)
        .max(items.div_ceil(16))
        .min(items)
        .max(1);
    let arch = pulp::Arch::new();
    for_each_item(items.div_ceil(per_block), per_block * n * LANES, |b| {
        let block = Columns {
            x: ps,
            o: po,
            n,
            inner,
            tiles,
            items: b * per_block..((b + 1) * per_block).min(items),
            mode,
        };
        dispatch(arch, block);
    });
    Ok(out)
}

/// A block of column tiles of [`columns`]: tile `i` is columns `(i % tiles)·LANES..` of
/// outer index `i / tiles`.
struct Columns<E> {
    x: SendPtr<E>,
    o: SendPtr<E>,
    n: usize,
    inner: usize,
    tiles: usize,
    items: std::ops::Range<usize>,
    mode: Mode,
}

impl<E: LaneElem> SimdBody for Columns<E>
where
    E::L: Real,
{
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Columns {
            x,
            o,
            n,
            inner,
            tiles,
            items,
            mode,
        } = self;
        let mut tile = vec![[E::L::ZERO; LANES]; n];
        for i in items {
            let (q, c0) = (i / tiles, (i % tiles) * LANES);
            let at = q * n * inner + c0;
            // A whole tile runs with its lane count a constant (whole-vector loads and
            // stores); the ragged one with its count.
            let lanes = LANES.min(inner - c0);
            let (x, o) = (
                x.get().cast_const().wrapping_add(at),
                o.get().wrapping_add(at),
            );
            // SAFETY: `x` and the fresh `out` are contiguous `outer × n × inner` (see
            // `columns`): the `lanes` columns from `c0` of outer index `q`, each `n`
            // elements `inner` apart, are in bounds for both; blocks hold disjoint tiles,
            // so each output element has one writer.
            unsafe {
                if lanes == LANES {
                    across_rows::<E, F>((x, 1, inner), (o, 1, inner), &mut tile, LANES, mode);
                } else {
                    across_rows::<E, F>((x, 1, inner), (o, 1, inner), &mut tile, lanes, mode);
                }
            }
        }
    }
}

/// `rows` consecutive rows of `n` contiguous elements: input `x`, output `o` (disjoint;
/// `per_row` = `n` elements a row, or one for [`Mode::LogSumExp`]), and for
/// `float16`/`bfloat16` the scratch `buf` (room for `n` lanes; null for
/// `float32`/`float64`).
struct Rows<E: LaneElem> {
    x: *const E,
    o: *mut E,
    buf: *mut E::L,
    n: usize,
    rows: usize,
    per_row: usize,
    mode: Mode,
}

/// The three passes over a row of `n` lanes at `x`, keeping `e^(x - max)` at `e` (which
/// may be `x` itself or the output's memory) and writing `D`s to `o`: [`row_max`],
/// [`exp_sum`] and [`finish`].
///
/// # Safety
/// `x` and `e` are valid for `n` lanes, `o` for `n` elements (one for
/// [`Mode::LogSumExp`]); `e` is writable, and `o` overlaps neither unless it is `e`
/// itself (same type and place), which may be `x` too (each element is read before its
/// place is written).
#[inline(always)]
unsafe fn passes<L: Real, D: LaneElem<L = L>, const F: bool>(
    x: *const L,
    e: *mut L,
    o: *mut D,
    n: usize,
    mode: Mode,
) {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        let mx = row_max(x, n);
        let sum = exp_sum::<L, F>(x, e, n, mx, mode == Mode::Softmax);
        finish(x, e, o, n, mode, mx, sum);
    }
}

/// Pass 1: the maximum of the `n` lanes at `x`, in lanes of whole chunks
/// (NaN-propagating), then the ragged end.
///
/// # Safety
/// `x` is valid for `n` lanes.
#[inline(always)]
unsafe fn row_max<L: Real>(x: *const L, n: usize) -> L {
    let full = n - n % LANES;
    let mut m = [L::NEG_INF; LANES];
    // SAFETY: every index is `< n`.
    unsafe {
        for i in (0..full).step_by(LANES) {
            let c = load(x, 1, i, LANES);
            for (mj, &cj) in m.iter_mut().zip(&c) {
                *mj = mj.max_nan(cj);
            }
        }
        let mut mx = m.iter().fold(L::NEG_INF, |a, &b| a.max_nan(b));
        for i in full..n {
            mx = mx.max_nan(x.add(i).read());
        }
        mx
    }
}

/// Pass 2: `e^(x - mx)` over the `n` lanes at `x`, summed in lane-wide partial sums and,
/// with `keep`, written to `e`; returns the sum.
///
/// # Safety
/// `x` is valid for `n` lanes and, with `keep`, `e` writable for `n` lanes (it may be `x`).
#[inline(always)]
unsafe fn exp_sum<L: Real, const F: bool>(
    x: *const L,
    e: *mut L,
    n: usize,
    mx: L,
    keep: bool,
) -> L {
    let full = n - n % LANES;
    let mut acc = [L::ZERO; LANES];
    // SAFETY: every index is `< n`; a chunk is read before the same chunk is written.
    unsafe {
        for i in (0..full).step_by(LANES) {
            let mut c = load(x, 1, i, LANES);
            for cj in &mut c {
                *cj = *cj - mx;
            }
            let c = L::apply::<Exp, F>(&c);
            for (a, &cj) in acc.iter_mut().zip(&c) {
                *a = *a + cj;
            }
            if keep {
                store(&c, e, 1, i, LANES);
            }
        }
        if full < n {
            // Padding lanes hold e^0; they are neither summed nor kept.
            let mut c = [L::ZERO; LANES];
            for (j, cj) in c.iter_mut().enumerate().take(n - full) {
                *cj = x.add(full + j).read() - mx;
            }
            let c = L::apply::<Exp, F>(&c);
            for (j, &cj) in c.iter().enumerate().take(n - full) {
                acc[j] = acc[j] + cj;
                if keep {
                    e.add(full + j).write(cj);
                }
            }
        }
    }
    acc.iter().fold(L::ZERO, |a, &b| a + b)
}

/// Pass 3: scale the exponentials at `e`, or subtract the log of the sum from `x - mx`; or
/// the row's one value (an infinite maximum is the answer: `x - max` would be NaN).
///
/// # Safety
/// As [`passes`], with `e` holding the row's exponentials for [`Mode::Softmax`].
#[inline(always)]
unsafe fn finish<L: Real, D: LaneElem<L = L>>(
    x: *const L,
    e: *const L,
    o: *mut D,
    n: usize,
    mode: Mode,
    mx: L,
    sum: L,
) {
    // SAFETY: the caller's contract; every index is `< n`.
    unsafe {
        match mode {
            Mode::LogSumExp => o.write(D::from_lane(log_sum_exp(mx, sum))),
            // Plain element loops: the compiler vectorises them along the row (written
            // as chunk loops, it vectorised across chunks, into gathers and scatters).
            Mode::LogSoftmax => {
                let ls = sum.ln();
                for i in 0..n {
                    o.add(i).write(D::from_lane((x.add(i).read() - mx) - ls));
                }
            }
            Mode::Softmax => {
                let inv = sum.recip();
                for i in 0..n {
                    o.add(i).write(D::from_lane(e.add(i).read() * inv));
                }
            }
        }
    }
}

/// A row's `logsumexp` from its maximum and `Σ e^(x - max)`.
#[inline(always)]
fn log_sum_exp<L: Real>(mx: L, sum: L) -> L {
    if mx.is_infinite() {
        mx
    } else {
        mx + sum.ln()
    }
}

/// [`Rows`] of `float16` longer than [`SHORT`], in the `f32` scratch `buf`: the row is
/// widened there with its maximum taken on the way (F16C where the CPU has it), the
/// exponentials are kept there, and the last pass maps and rounds into the output in one
/// loop ([`f32_to_f16_by`]). The element-wise bit formulas of the generic path cost a
/// `float16` softmax 56% over `float32`'s (1024×976, one thread: 860 µs against 552);
/// a widening pass and a rounding pass around the three passes, 21% (666; two threads
/// 484 → 344, PyTorch 320); folded into the first and last passes, five passes over the
/// scratch row became three. A body of its own, so the other dtypes' code is what it was
/// (one body with both paths ran `float32` rows 9% slower).
struct HalfRows {
    x: *const f16,
    o: *mut f16,
    buf: *mut f32,
    n: usize,
    rows: usize,
    per_row: usize,
    mode: Mode,
}

impl SimdBody for HalfRows {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let HalfRows {
            x,
            o,
            buf,
            n,
            rows,
            per_row,
            mode,
        } = self;
        // SAFETY: as for `Rows` (`x` and `o` hold `rows` rows of `f16`, `n` and `per_row`
        // apart; `buf` is this block's `n` initialised lanes, borrowed as a slice only
        // for the one call that takes it).
        unsafe {
            for r in 0..rows {
                let (x, o) = (x.add(r * n), o.add(r * per_row));
                let mx = f16_to_f32_max(
                    std::slice::from_raw_parts(x, n),
                    std::slice::from_raw_parts_mut(buf, n),
                );
                let keep = mode == Mode::Softmax;
                let sum = exp_sum::<f32, F>(buf, buf, n, mx, keep);
                let how = match mode {
                    Mode::LogSumExp => {
                        o.write(f16::from_f32(log_sum_exp(mx, sum)));
                        continue;
                    }
                    Mode::LogSoftmax => Finish::Shift(mx, sum.ln()),
                    Mode::Softmax => Finish::Scale(sum.recip()),
                };
                f32_to_f16_by(
                    std::slice::from_raw_parts(buf, n),
                    std::slice::from_raw_parts_mut(o, n),
                    how,
                );
            }
        }
    }
}

impl<E: LaneElem> SimdBody for Rows<E>
where
    E::L: Real,
{
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Rows {
            x,
            o,
            buf,
            n,
            rows,
            per_row,
            mode,
        } = self;
        // SAFETY: `x` and `o` are valid for `rows` rows (`n` and `per_row` elements apart)
        // and disjoint (see `run`); `buf`, when not null, for `n` lanes, private to this
        // block.
        unsafe {
            // Short rows go `LANES` at a time with the rows in the lanes (`across`); the
            // rest (long rows, and the last `rows % LANES` short ones) one by one.
            let across = if n <= SHORT { rows - rows % LANES } else { 0 };
            let mut tile = vec![[E::L::ZERO; LANES]; if across > 0 { n } else { 0 }];
            for r in (0..across).step_by(LANES) {
                let (x, o) = (x.add(r * n), o.add(r * per_row));
                across_rows::<E, F>((x, n, 1), (o, per_row, 1), &mut tile, LANES, mode);
            }
            for r in across..rows {
                let (x, o) = (x.add(r * n), o.add(r * per_row));
                if buf.is_null() {
                    // `float32`/`float64`: `E` is its own lane type; the output keeps the
                    // exponentials between passes 2 and 3.
                    passes::<E::L, E, F>(x.cast(), o.cast(), o, n, mode);
                } else {
                    // `float16`/`bfloat16`: the row widened once into `buf`, which then
                    // keeps the exponentials; the output is rounded once, in pass 3.
                    for i in 0..n {
                        buf.add(i).write(x.add(i).read().to_lane());
                    }
                    passes::<E::L, E, F>(buf, buf, o, n, mode);
                }
            }
        }
    }
}
