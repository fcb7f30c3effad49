//! Fused `softmax` / `log_softmax` / `logsumexp` for `float32`/`float64`: each row along the
//! reduced dimension takes one pass for its maximum, one that writes `e^(x - max)` while
//! summing it (in lane-wide partial sums), and one that scales (or, for `log_softmax`,
//! writes `x - max - ln(sum)`), instead of five whole-tensor ops with their temporaries;
//! `logsumexp` writes no row, only `max + ln(sum)` per row. Rows are split across threads.
//! The dimension (for `logsumexp`, the reduced dimensions) is moved innermost (a contiguous
//! copy when it is not already), so every layout runs the same row kernel.

use std::ops::{Add, Mul, Sub};

use super::iter::{for_each_item, SendPtr};
use super::vmath::{dispatch, Exp, Lane, LaneElem, SimdBody, LANES};
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
        _ => return None,
    })
}

/// `logsumexp` of the float tensor `x` over the reduced dims of `plan` (a `Sum` plan over at
/// least one element), when the CPU has a fused kernel for `x`'s dtype (`None`: compose
/// it). The reduced dims are moved last and flattened, so each output is one row.
pub(crate) fn logsumexp(plan: &ReducePlan, x: &Tensor) -> Option<Result<Tensor>> {
    if plan.count == 0 || !matches!(x.dtype(), DType::Float32 | DType::Float64) {
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

fn run<T: Real>(x: &Tensor, dim: usize, mode: Mode) -> Result<Tensor> {
    let last = x.ndim().saturating_sub(1);
    let moved = dim != last;
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
        SendPtr(src.data_ptr().cast::<T>()),
        SendPtr(out.data_ptr().cast::<T>()),
    );
    let arch = pulp::Arch::new();
    for_each_item(rows, n, |r| {
        // SAFETY: `src` is contiguous with `rows × n` elements of type `T` (its dtype) and
        // `out` with `rows × per_row`, so row `r` is in bounds for both; `out` is fresh
        // (disjoint from `src`), and rows are disjoint, so each output element has one
        // writer.
        let row = unsafe {
            Row {
                x: ps.get().add(r * n),
                o: po.get().add(r * per_row),
                n,
                mode,
            }
        };
        dispatch(arch, row);
    });
    if moved && mode != Mode::LogSumExp {
        out.movedim(-1, dim as isize)?.contiguous()
    } else {
        Ok(out)
    }
}

/// One row of `n` contiguous elements: input `x`, output `o` (disjoint; `n` elements, or
/// one for [`Mode::LogSumExp`]).
struct Row<T> {
    x: *const T,
    o: *mut T,
    n: usize,
    mode: Mode,
}

impl<T: Real> SimdBody for Row<T> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Row { x, o, n, mode } = self;
        let full = n - n % LANES;
        // SAFETY: `x` and `o` are valid for `n` elements (see `run`), every index below is
        // `< n`, and they do not overlap.
        unsafe {
            // Pass 1: the maximum, in lanes (NaN-propagating).
            let mut m = [T::NEG_INF; LANES];
            for i in (0..full).step_by(LANES) {
                for (j, mj) in m.iter_mut().enumerate() {
                    *mj = mj.max_nan(*x.add(i + j));
                }
            }
            let mut mx = m.iter().fold(T::NEG_INF, |a, &b| a.max_nan(b));
            for i in full..n {
                mx = mx.max_nan(*x.add(i));
            }
            // Pass 2: e^(x - max), written (softmax) and summed in lane-wide partial sums.
            let mut acc = [T::ZERO; LANES];
            let mut i = 0;
            while i < n {
                let k = LANES.min(n - i);
                let mut c = [T::ZERO; LANES];
                for (j, cj) in c.iter_mut().enumerate().take(k) {
                    *cj = *x.add(i + j) - mx;
                }
                // Padding lanes hold 0 - max's exponent; they are not summed.
                let e = T::apply::<Exp, F>(&c);
                for j in 0..k {
                    acc[j] = acc[j] + e[j];
                    if mode == Mode::Softmax {
                        o.add(i + j).write(e[j]);
                    }
                }
                i += k;
            }
            let sum = acc.iter().fold(T::ZERO, |a, &b| a + b);
            // Pass 3: scale, or subtract the log of the sum; or the row's one value (an
            // infinite maximum is the answer: `x - max` would be NaN).
            match mode {
                Mode::LogSumExp => {
                    o.write(if mx.is_infinite() { mx } else { mx + sum.ln() });
                }
                Mode::LogSoftmax => {
                    let ls = sum.ln();
                    for i in 0..n {
                        o.add(i).write((*x.add(i) - mx) - ls);
                    }
                }
                Mode::Softmax => {
                    let inv = sum.recip();
                    for i in 0..n {
                        o.add(i).write(*o.add(i) * inv);
                    }
                }
            }
        }
    }
}
