//! The CPU's normalization layers (`ops::vision::norm`): each row's statistics (two passes
//! over the row while it is in cache: the mean, then the squared deviations from it, both
//! summed in 32 lanes of the compute type and added into `f64` per 1024-element chunk), then one
//! pass writing `x·a + c` with `a = rstd·w`, `c = b − mean·a` per weight element. Rows run in
//! parallel on the runtime's pool, each compiled for AVX2 where the CPU has it. Float16/BFloat16
//! compute in `f32`.

use std::ops::Sub;

use super::iter::{for_each_item, SendPtr};
use super::vision::{elems, Real};
use super::vmath::{avx2, dispatch_avx2, SimdBody};
use crate::dtype::Element;
use crate::ops::vision::{NormPlan, NormStats};
use crate::{DType, Device, Result, Tensor};

/// Runs a planned normalization into a fresh contiguous tensor of the input's dtype.
pub(crate) fn norm(p: &NormPlan) -> Result<Tensor> {
    match p.x.dtype() {
        DType::Float64 => run::<f64>(p, &p.x, p.weight.as_ref(), p.bias.as_ref()),
        DType::Float32 => run::<f32>(p, &p.x, p.weight.as_ref(), p.bias.as_ref()),
        d => {
            let wide = |t: &Tensor| t.to_dtype(DType::Float32);
            let w = p.weight.as_ref().map(wide).transpose()?;
            let b = p.bias.as_ref().map(wide).transpose()?;
            run::<f32>(p, &wide(&p.x)?, w.as_ref(), b.as_ref())?.to_dtype(d)
        }
    }
}

/// `Σ f(x)` over `xs` in 32 lanes of `T` (four AVX2 vectors of `f32`: independent adds, so
/// the loop runs at the load rate, not the add's latency), chunk totals added in `f64`.
#[inline(always)]
fn lane_sum<T: Real + Element>(xs: &[T], f: impl Fn(T) -> T) -> f64 {
    let mut total = 0.0;
    for chunk in xs.chunks(1024) {
        let mut lanes = [T::default(); 32];
        let (body, tail) = chunk.as_chunks::<32>();
        for c in body {
            for k in 0..32 {
                lanes[k] = lanes[k] + f(c[k]);
            }
        }
        let t = tail.iter().fold(T::default(), |a, &v| a + f(v));
        total += Element::to_f64(lanes.iter().fold(t, |a, &l| a + l));
    }
    total
}

fn run<T: Real + Element + Sub<Output = T>>(
    p: &NormPlan,
    x: &Tensor,
    w: Option<&Tensor>,
    b: Option<&Tensor>,
) -> Result<Tensor> {
    let out = Tensor::alloc(x.shape(), T::DTYPE, Device::cpu(), false)?;
    if out.numel() == 0 || p.len == 0 {
        return Ok(out);
    }
    debug_assert_eq!(p.rows * p.len, out.numel());
    // SAFETY: `x`, `w`, `b` and the running statistics are contiguous CPU tensors of the
    // types read (the plan made them so) that nobody writes during the call.
    let (xs, ws, bs) = unsafe {
        (
            elems::<T>(x),
            w.map(|t| elems::<T>(t)),
            b.map(|t| elems::<T>(t)),
        )
    };
    let running = match &p.stats {
        NormStats::Row => None,
        // SAFETY: as above (Float64, `[C]`).
        NormStats::Running { mean, var } => unsafe {
            Some((elems::<f64>(mean), elems::<f64>(var)))
        },
    };
    let ys = SendPtr(out.data_ptr().cast::<T>());
    let simd = avx2();
    // Rows are handed out through the runtime's own sections in groups of at least 2^14
    // elements: short rows (layer_norm over 768 features) would otherwise cost more in
    // scheduling than in arithmetic, and a whole call is often a fraction of a millisecond.
    for_each_item(p.rows, p.len, |r| {
        // SAFETY: `out` is fresh, contiguous and exclusive (`rows·len` elements of `T`);
        // row `r` is written by this call alone (each `r` runs once), and `out` outlives the
        // loop.
        let y = unsafe { std::slice::from_raw_parts_mut(ys.get().add(r * p.len), p.len) };
        let body = Row {
            p,
            running,
            ws,
            bs,
            r,
            y,
            x: &xs[r * p.len..][..p.len],
        };
        dispatch_avx2(simd, body);
    });
    Ok(out)
}

/// One row's normalization as a [`SimdBody`], so that its loops compile inside the AVX2
/// dispatcher.
struct Row<'a, T> {
    p: &'a NormPlan,
    /// The running mean and variance (`batch_norm` in inference), else `None`.
    running: Option<(&'a [f64], &'a [f64])>,
    ws: Option<&'a [T]>,
    bs: Option<&'a [T]>,
    /// The row's index.
    r: usize,
    y: &'a mut [T],
    x: &'a [T],
}

impl<T: Real + Element + Sub<Output = T>> SimdBody for Row<'_, T> {
    #[inline(always)]
    fn run<const F: bool>(self) {
        let Row {
            p,
            running,
            ws,
            bs,
            r,
            y,
            x,
        } = self;
        let len = p.len as f64;
        let g = r % p.groups;
        let (mean, rstd) = match running {
            Some((m, v)) => (m[g], 1.0 / (v[g] + p.eps).sqrt()),
            None => {
                let mean = lane_sum(x, |v| v) / len;
                let m = <T as Element>::from_f64(mean);
                let var = lane_sum(x, |v| (v - m) * (v - m)) / len;
                (mean, 1.0 / (var + p.eps).sqrt())
            }
        };
        let base = g * p.per_group;
        // `y = x·a + c` with `a = rstd·w[k]`, `c = b[k] − mean·a` (in f64, then `T`).
        let coef = |k: usize| {
            let a = rstd * ws.map_or(1.0, |w| Element::to_f64(w[k]));
            let c = bs.map_or(0.0, |b| Element::to_f64(b[k])) - mean * a;
            (<T as Element>::from_f64(a), <T as Element>::from_f64(c))
        };
        if p.repeat == 1 {
            // One weight element per position (layer_norm; the others with one element per
            // channel).
            let (m, rs) = (
                <T as Element>::from_f64(mean),
                <T as Element>::from_f64(rstd),
            );
            let n = x.len();
            let w = ws.map(|w| &w[base..base + n]);
            let b = bs.map(|b| &b[base..base + n]);
            // One loop per affine form, over slices, so each vectorises.
            let xy = y.iter_mut().zip(x);
            match (w, b) {
                (Some(w), Some(b)) => xy
                    .zip(w.iter().zip(b))
                    .for_each(|((y, &x), (&w, &b))| *y = (x - m) * rs * w + b),
                (Some(w), None) => xy.zip(w).for_each(|((y, &x), &w)| *y = (x - m) * rs * w),
                (None, Some(b)) => xy.zip(b).for_each(|((y, &x), &b)| *y = (x - m) * rs + b),
                (None, None) => xy.for_each(|(y, &x)| *y = (x - m) * rs),
            }
        } else {
            for (blk, (y, x)) in y.chunks_mut(p.repeat).zip(x.chunks(p.repeat)).enumerate() {
                let (a, c) = coef(base + blk);
                y.iter_mut()
                    .zip(x)
                    .for_each(|(y, &x)| *y = x.fma::<F>(a, c));
            }
        }
    }
}
