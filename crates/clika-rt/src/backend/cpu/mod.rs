//! The CPU backend: host memory from the CPU pool, ops run eagerly on the calling thread and
//! split across rayon's pool above a size threshold.
//!
//! - `iter`: dimension coalescing, row walking, the threading threshold;
//! - `kernel`: the elementwise and copy loops over any layout;
//! - `num`: arithmetic per element type;
//! - `elementwise`, `reduce`, `matmul`: the kernels behind [`Backend`]'s methods;
//! - `vmath`: vectorised transcendental functions (lane kernels dispatched with `pulp`);
//! - `softmax`: fused softmax / log_softmax rows;
//! - `along`, `index`: gathers and scatters along a dim, and advanced indexing.

/// Runs `$body` with `$T` an unsigned integer of `$size` bytes (every dtype's size is 1, 2,
/// 4 or 8), so a kernel that only moves elements does it with one load and one store each,
/// whatever the dtype. Defined before the kernel modules, which use it.
macro_rules! by_size {
    ($size:expr, $T:ident => $body:expr) => {
        match $size {
            1 => {
                type $T = u8;
                $body
            }
            2 => {
                type $T = u16;
                $body
            }
            4 => {
                type $T = u32;
                $body
            }
            8 => {
                type $T = u64;
                $body
            }
            other => unreachable!("no dtype is {other} bytes"),
        }
    };
}

mod along;
mod count;
mod elementwise;
mod elementwise_more;
mod fold;
mod half_rows;
mod image;
mod index;
pub(crate) mod iter;
pub(crate) mod kernel;
mod matmul;
mod nonzero;
mod norm;
pub(crate) mod num;
mod reduce;
mod reduce_outer;
mod reorder;
mod resize;
mod softmax;
mod sort;
mod sort_keys;
mod vector_norm;
mod vision;
mod vmath;

/// The host's random-number kernels (`tensor/random.rs` draws the bits).
pub(crate) mod random {
    pub(crate) use super::vmath::{
        map_group, normal_group, Draw, LaneElem, Unit, Words, BLOCKS, GROUP,
    };
}

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use super::Backend;
use crate::error::Result;
use crate::memory::{CpuAllocator, Event, ManualEvent, Pool};
use crate::ops::vision::{PadPlan, VisionPlan};
use crate::ops::{
    as_operand, matmul::Plan as MatmulPlan, AlongPlan, BinaryPlan, IndexPlan, ReducePlan,
    RowSelect, ScanOp, ScatterMode, UnaryPlan,
};
use crate::{Device, Tensor};

/// The host: its pool, and kernels that read and write memory directly.
#[derive(Debug)]
pub(crate) struct Cpu {
    pool: Arc<Pool>,
}

static CPU: OnceLock<Cpu> = OnceLock::new();

/// The CPU backend, created on first use with the limit from `CLIKA_RT_CPU_MEMORY_LIMIT`
/// (and the fork handlers registered, which keep its pool's lock consistent across `fork`).
pub(crate) fn context() -> &'static Cpu {
    CPU.get_or_init(|| {
        crate::fork::register();
        let pool = Pool::new(Device::cpu(), Arc::new(CpuAllocator::default()));
        pool.set_limit(crate::memory::env_limit());
        Cpu { pool }
    })
}

/// The CPU pool, started on first use.
pub(crate) fn pool() -> &'static Arc<Pool> {
    &context().pool
}

/// `t` in dtype `dtype` and shape `shape`: itself when it already is, else a converted or
/// broadcast view.
#[inline]
fn operand<'t>(t: &'t Tensor, dtype: crate::DType, shape: &[usize]) -> Result<Cow<'t, Tensor>> {
    if t.dtype() == dtype && t.shape() == shape {
        Ok(Cow::Borrowed(t))
    } else {
        Ok(Cow::Owned(as_operand(t, dtype, shape)?))
    }
}

impl Backend for Cpu {
    fn device(&self) -> Device {
        Device::cpu()
    }

    fn name(&self) -> String {
        "host CPU".to_string()
    }

    fn pool(&self) -> &Arc<Pool> {
        &self.pool
    }

    fn upload(&self, src: &Tensor) -> Result<Tensor> {
        Ok(src.clone())
    }

    fn download(&self, src: &Tensor) -> Result<Tensor> {
        Ok(src.clone())
    }

    fn record_event(&self) -> Arc<dyn Event> {
        // CPU work completes before its call returns.
        let e = ManualEvent::new();
        e.complete();
        Arc::new(e)
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    unsafe fn unary(&self, plan: &UnaryPlan, src: &Tensor, out: &Tensor) -> Result<()> {
        if let Some(r) = reorder::reorder(&[src], out) {
            let s = r.operand(src, plan.compute)?;
            let target = r.target(out)?;
            // SAFETY: the trait's contract, seen in memory order: `target` is `out`
            // permuted (an input exactly, or disjoint from it) or a fresh scratch; then the
            // contract for the copy into `out`.
            unsafe {
                elementwise::run_unary(plan.op, &s, &target);
                return r.finish(self, &target, out);
            }
        }
        let src = src.to_dtype(plan.compute)?;
        // SAFETY: forwarded from the trait's contract; a converted `src` is fresh, so it is
        // disjoint from `out`.
        unsafe { elementwise::run_unary(plan.op, &src, out) };
        Ok(())
    }

    unsafe fn binary(&self, plan: &BinaryPlan, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
        // Operands already in the compute dtype and the result's shape (the common case:
        // `a + b` of like tensors) run as they are; only the others are converted/broadcast.
        if let Some(r) = reorder::reorder(&[a, b], out) {
            let (a, b) = (r.operand(a, plan.compute)?, r.operand(b, plan.compute)?);
            elementwise_more::check_divisor(plan.op, &b)?;
            let target = r.target(out)?;
            // SAFETY: the trait's contract, seen in memory order: `target` is `out`
            // permuted (an input exactly, or disjoint from both) or a fresh scratch; then
            // the contract for the copy into `out`.
            unsafe {
                elementwise::run_binary(plan.op, &a, &b, &target, plan.compute);
                return r.finish(self, &target, out);
            }
        }
        let a = operand(a, plan.compute, &plan.shape)?;
        let b = operand(b, plan.compute, &plan.shape)?;
        elementwise_more::check_divisor(plan.op, &b)?;
        // SAFETY: forwarded from the trait's contract; converted operands are fresh and
        // broadcast ones are views of the inputs, so `out` is still an input exactly or
        // disjoint from both.
        unsafe { elementwise::run_binary(plan.op, &a, &b, out, plan.compute) };
        Ok(())
    }

    unsafe fn clamp(
        &self,
        t: &Tensor,
        lo: Option<&Tensor>,
        hi: Option<&Tensor>,
        out: &Tensor,
    ) -> Result<bool> {
        if let Some(r) = reorder::reorder(&[t], out).filter(|r| r.direct) {
            // SAFETY: the trait's contract, seen in memory order (`out` laid out as `t`:
            // `t` itself, or disjoint from it).
            return unsafe {
                elementwise::clamp(&*r.operand(t, t.dtype())?, lo, hi, &r.target(out)?)
            };
        }
        // SAFETY: forwarded from the trait's contract.
        unsafe { elementwise::clamp(t, lo, hi, out) }
    }

    unsafe fn copy(&self, src: &Tensor, out: &Tensor) -> Result<()> {
        let same = src.dtype() == out.dtype() && src.dtype() != crate::DType::Bool;
        // SAFETY: forwarded from the trait's contract; one dtype, not `Bool`.
        if same && unsafe { kernel::copy_rows(src, out) } {
            return Ok(());
        }
        crate::dispatch_dtype!(src.dtype(), S => crate::dispatch_dtype!(out.dtype(), D => {
            if out.is_contiguous() {
                // SAFETY: forwarded from the trait's contract, with `out` contiguous.
                unsafe { kernel::copy_cast::<S, D>(src, out) }
            } else {
                // SAFETY: forwarded from the trait's contract.
                unsafe { kernel::map1::<S, D>(src, out, crate::dtype::cast::<S, D>) }
            }
        }));
        Ok(())
    }

    fn reduce(&self, plan: &ReducePlan, t: &Tensor) -> Result<Tensor> {
        reduce::reduce(plan, t)
    }

    fn moments(&self, plan: &ReducePlan, t: &Tensor) -> Option<Result<Tensor>> {
        Some(reduce::reduce(plan, t))
    }

    fn vector_norm(&self, plan: &ReducePlan, p: f64, t: &Tensor) -> Option<Result<Tensor>> {
        vector_norm::vector_norm(plan, p, t)
    }

    fn logsumexp(&self, plan: &ReducePlan, t: &Tensor) -> Option<Result<Tensor>> {
        softmax::logsumexp(plan, t)
    }

    fn softmax(&self, t: &Tensor, dim: usize, log: bool) -> Option<Result<Tensor>> {
        softmax::softmax(t, dim, log)
    }

    fn pad(&self, plan: &PadPlan) -> Option<Result<Tensor>> {
        Some(vision::pad(plan))
    }

    fn matmul(&self, plan: &MatmulPlan) -> Result<Tensor> {
        matmul::matmul(plan)
    }

    unsafe fn matmul_into(&self, plan: &MatmulPlan, out: &Tensor) -> Result<()> {
        // SAFETY: forwarded contract.
        unsafe { matmul::matmul_into(plan, out) }
    }

    fn vision(&self, plan: &VisionPlan) -> Result<Tensor> {
        vision::run(plan)
    }

    unsafe fn gather(&self, plan: &IndexPlan, out: &Tensor) -> Result<()> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { index::gather(plan, out) };
        Ok(())
    }

    unsafe fn scatter(&self, plan: &IndexPlan, value: &Tensor) -> Result<()> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { index::scatter(plan, value) };
        Ok(())
    }

    unsafe fn gather_along(&self, plan: &AlongPlan, out: &Tensor) -> Result<()> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { along::gather(plan, out) }
    }

    unsafe fn scatter_along(
        &self,
        plan: &AlongPlan,
        value: &Tensor,
        mode: ScatterMode,
    ) -> Result<()> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { along::scatter(plan, value, mode) }
    }

    fn count_values(&self, values: &Tensor, bins: usize) -> Result<Option<Tensor>> {
        count::count_values(values, bins).map(Some)
    }

    fn histogram_values(&self, values: &Tensor, bins: usize, range: (f64, f64)) -> Result<Tensor> {
        count::histogram_values(values, bins, range)
    }

    fn nonzero(&self, mask: &Tensor) -> Result<Tensor> {
        nonzero::nonzero(mask)
    }

    fn select_rows(&self, op: RowSelect, rows: &Tensor) -> Result<(Tensor, Tensor)> {
        sort::select_rows(op, rows)
    }

    fn scan_rows(&self, op: ScanOp, rows: &Tensor) -> Result<Tensor> {
        sort::scan_rows(op, rows)
    }
}
