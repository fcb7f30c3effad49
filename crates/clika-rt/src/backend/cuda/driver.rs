//! Start-up of a CUDA device and its stream: the driver library is probed before any call
//! (cudarc's loader panics when it is missing), the device's primary context is retained,
//! one non-blocking stream carries every copy and kernel, and completion events on that
//! stream are the pool's [`Event`]s.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::result as cu;
use cudarc::driver::sys;

use super::alloc::{CudaAllocator, PinnedAllocator};
use super::kernels::Kernels;
use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::memory::{Event, Pool};
use crate::ops::vision::VisionPlan;
use crate::ops::{matmul::Plan as MatmulPlan, BinaryPlan, ReducePlan, UnaryPlan};
use crate::storage::Storage;
use crate::{Device, Tensor};

/// Setting this environment variable to `1` makes every `cuda:N` unavailable (tests of the
/// "no driver" path on machines that have one).
pub const CUDA_DISABLE_ENV: &str = "CLIKA_RT_CUDA_DISABLE";

/// The hint every "no CUDA" error ends with.
const FIX: &str = "install the NVIDIA driver (libcuda.so.1), or use Device::gpu(0) (Vulkan) or \
                   Device::cpu()";

/// A driver error as text (`CUDA_ERROR_OUT_OF_MEMORY`).
pub(super) fn why(e: cu::DriverError) -> String {
    match e.error_name() {
        Ok(name) => name.to_string_lossy().into_owned(),
        Err(_) => format!("{:?}", e.0),
    }
}

/// An internal error from a failed driver call.
pub(super) fn failed(what: &str, e: cu::DriverError) -> Error {
    Error::Internal {
        message: format!("CUDA {what} failed: {}", why(e)),
    }
}

/// How the device may read host memory without a copy (recorded at start-up; `.to()` still
/// copies: the free move is later work).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HostAccess {
    /// Discrete memory: host data must be copied (pageable or pinned).
    Copy,
    /// The device reads pageable host memory coherently through the host's page tables
    /// (ATS, e.g. Grace Hopper) or shares physical memory (integrated GPUs): a host tensor
    /// could be used in place.
    Direct,
}

/// The device attributes the host-access decision reads.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct HostAttrs {
    /// `CU_DEVICE_ATTRIBUTE_INTEGRATED`.
    pub integrated: bool,
    /// `CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`.
    pub pageable_access: bool,
    /// `CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES`.
    pub uses_host_page_tables: bool,
}

/// The decision: direct access only where the hardware reads pageable memory coherently
/// through the host's own page tables (no page migration, no HMM faults on a hot path), or
/// the memory is physically shared. Pageable access without host page tables (HMM) migrates
/// pages on fault, which is slower than one bulk copy for data read more than once.
pub(super) fn host_access(a: HostAttrs) -> HostAccess {
    if a.integrated || (a.pageable_access && a.uses_host_page_tables) {
        HostAccess::Direct
    } else {
        HostAccess::Copy
    }
}

/// The most recent event on a stream, recorded only when work was queued since the last
/// one: the pool asks on every free, and an event per free would cost a driver call each.
#[derive(Debug)]
pub(super) struct Latest<E> {
    work: u64,
    recorded: Option<(u64, Arc<E>)>,
}

impl<E> Default for Latest<E> {
    fn default() -> Self {
        Latest {
            work: 0,
            recorded: None,
        }
    }
}

impl<E> Latest<E> {
    /// Notes that work was queued.
    pub(super) fn note_work(&mut self) {
        self.work += 1;
    }

    /// The event covering all work noted so far: the cached one if nothing was queued since
    /// it was recorded, else a new one from `record` (`None` if recording failed).
    pub(super) fn event(&mut self, record: impl FnOnce() -> Option<E>) -> Option<Arc<E>> {
        if let Some((w, e)) = &self.recorded {
            if *w == self.work {
                return Some(Arc::clone(e));
            }
        }
        let e = Arc::new(record()?);
        self.recorded = Some((self.work, Arc::clone(&e)));
        Some(e)
    }
}

/// A context handle, usable from any thread once made current there.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ctx(pub(super) sys::CUcontext);
// SAFETY: a CUDA context is a process-wide driver object; the driver API is thread-safe and
// each thread binds the context (`bind`) before using it.
unsafe impl Send for Ctx {}
// SAFETY: as above; the handle is only passed to driver calls.
unsafe impl Sync for Ctx {}

impl Ctx {
    /// Makes the context current on this thread (cheap: a thread-local store in the driver).
    pub(super) fn bind(self) -> Result<()> {
        // SAFETY: the context is a retained primary context that is never released.
        unsafe { cu::ctx::set_current(self.0) }.map_err(|e| failed("cuCtxSetCurrent", e))
    }
}

/// A CUDA event recorded on the stream.
pub(super) struct CudaEvent {
    ctx: Ctx,
    event: sys::CUevent,
}

// SAFETY: events are driver objects usable from any thread with the context bound.
unsafe impl Send for CudaEvent {}
// SAFETY: as above; query/synchronize are thread-safe.
unsafe impl Sync for CudaEvent {}

impl Event for CudaEvent {
    fn is_complete(&self) -> bool {
        if self.ctx.bind().is_err() {
            return true;
        }
        // SAFETY: `event` is a live event created in `record`, destroyed only on drop.
        match unsafe { cu::event::query(self.event) } {
            Ok(()) => true,
            Err(e) if e.0 == sys::cudaError_enum::CUDA_ERROR_NOT_READY => false,
            // A failed context runs nothing more: the work will never complete or touch
            // memory again, so freeing is safe and waiting forever would leak.
            Err(e) => {
                log::error!("clika-rt: cuEventQuery: {}", why(e));
                true
            }
        }
    }

    fn wait(&self) {
        if self.ctx.bind().is_ok() {
            // SAFETY: as in `is_complete`.
            if let Err(e) = unsafe { cu::event::synchronize(self.event) } {
                log::error!("clika-rt: cuEventSynchronize: {}", why(e));
            }
        }
    }
}

impl Drop for CudaEvent {
    fn drop(&mut self) {
        if self.ctx.bind().is_ok() {
            // SAFETY: the event is ours and destroyed once; the driver releases an
            // incomplete event's resources when it completes.
            let _ = unsafe { cu::event::destroy(self.event) };
        }
    }
}

/// The device's stream with its bookkeeping: the latest event, and host sources kept alive
/// until the copies reading them complete.
pub(crate) struct Stream {
    pub(super) device: Device,
    pub(super) ctx: Ctx,
    pub(super) raw: sys::CUstream,
    latest: Mutex<Latest<CudaEvent>>,
    keep: Mutex<Vec<(Arc<CudaEvent>, Storage)>>,
}

// SAFETY: the stream handle is a driver object used only in driver calls, which are
// thread-safe; the bookkeeping is behind mutexes.
unsafe impl Send for Stream {}
// SAFETY: as above.
unsafe impl Sync for Stream {}

impl Stream {
    /// Binds the context; to call before any driver call on this thread.
    pub(super) fn bind(&self) -> Result<()> {
        self.ctx.bind()
    }

    /// Notes that work was queued on the stream (so the next event covers it).
    pub(super) fn note_work(&self) {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note_work();
    }

    fn record(&self) -> Option<CudaEvent> {
        self.bind().ok()?;
        let flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING;
        let event = cu::event::create(flags).ok()?;
        let made = CudaEvent {
            ctx: self.ctx,
            event,
        };
        // SAFETY: both handles are live (the stream is never destroyed).
        unsafe { cu::event::record(event, self.raw) }.ok()?;
        Some(made)
    }

    /// An event completing once all work queued so far completed. If the driver cannot
    /// record one, the stream is synchronised instead and `None` means "nothing pending".
    pub(super) fn event(&self) -> Option<Arc<CudaEvent>> {
        let got = self
            .latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .event(|| self.record());
        if got.is_none() {
            let _ = self.synchronize();
        }
        got
    }

    /// Keeps `storage` alive until all work queued so far completed.
    pub(super) fn keep_until_done(&self, storage: Storage) -> Result<()> {
        match self.event() {
            Some(ev) => {
                // Earlier sources whose copies completed go first; this one waits at least
                // for the next kept copy or `synchronize`.
                let done = {
                    let mut keep = self.keep.lock().unwrap_or_else(|e| e.into_inner());
                    let done = take_done(&mut keep);
                    keep.push((ev, storage));
                    done
                };
                drop(done); // deleters run outside the lock
                Ok(())
            }
            None => self.synchronize(),
        }
    }

    /// Waits for all queued work and drops the sources it kept.
    pub(super) fn synchronize(&self) -> Result<()> {
        self.bind()?;
        // SAFETY: the stream is live.
        unsafe { cu::stream::synchronize(self.raw) }
            .map_err(|e| failed("cuStreamSynchronize", e))?;
        let done = take_done(&mut self.keep.lock().unwrap_or_else(|e| e.into_inner()));
        drop(done);
        Ok(())
    }
}

/// The kept entries whose events completed, removed from `keep` (dropped by the caller
/// after unlocking).
fn take_done<E: Event, T>(keep: &mut Vec<(Arc<E>, T)>) -> Vec<(Arc<E>, T)> {
    let (done, pending) = std::mem::take(keep)
        .into_iter()
        .partition(|(e, _)| e.is_complete());
    *keep = pending;
    done
}

/// The context of one CUDA device: its stream, pool and compiled kernels.
pub(crate) struct Cuda {
    pub(super) stream: Arc<Stream>,
    pub(super) pool: Arc<Pool>,
    /// The page-locked host pool whose tensors are pinned for this device.
    pub(super) pinned: Arc<Pool>,
    pub(super) name: String,
    /// Compute capability (major, minor): NVRTC compiles for it.
    pub(super) arch: (i32, i32),
    /// Streaming multiprocessors: reductions split to fill them.
    pub(super) sms: usize,
    /// Whether the device reads host memory in place (recorded; not used yet).
    #[allow(dead_code, reason = "the free host→device move is later work")]
    pub(super) host_access: HostAccess,
    pub(super) kernels: Kernels,
    /// The cuBLAS handle, made on the first matmul.
    pub(super) blas: super::blas::Slot,
}

/// The context of `device`, starting it on first use; a failed start is remembered.
pub(crate) fn context(device: Device) -> Result<&'static Cuda> {
    type Slot = std::result::Result<&'static Cuda, String>;
    static CTXS: OnceLock<Mutex<HashMap<u32, Slot>>> = OnceLock::new();
    let unavailable = |reason: String| Error::DeviceUnavailable { device, reason };
    if std::env::var(CUDA_DISABLE_ENV).is_ok_and(|v| v == "1") {
        return Err(unavailable(format!("disabled by {CUDA_DISABLE_ENV}=1")));
    }
    if let Some(why) = crate::backend::auto::disabled_reason() {
        return Err(unavailable(why));
    }
    let mut map = CTXS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let slot = map.entry(device.ordinal()).or_insert_with(|| {
        // cudarc's loader panics when a symbol or library is missing; never let it escape.
        catch_unwind(AssertUnwindSafe(|| start(device)))
            .unwrap_or_else(|_| Err(format!("the CUDA driver could not be loaded; {FIX}")))
            .map(|c| &*Box::leak(Box::new(c)))
    });
    slot.clone().map_err(unavailable)
}

/// Loads the driver, opens device `device.ordinal()` and creates its stream and pool.
fn start(device: Device) -> std::result::Result<Cuda, String> {
    // SAFETY: only tries to dlopen the candidate library names.
    if !unsafe { sys::is_culib_present() } {
        return Err(format!(
            "the NVIDIA driver library (libcuda.so) was not found; {FIX}"
        ));
    }
    fn step(what: &'static str) -> impl Fn(cu::DriverError) -> String {
        move |e| format!("{what} failed: {}; {FIX}", why(e))
    }
    cu::init().map_err(step("cuInit"))?;
    let count = cu::device::get_count().map_err(step("cuDeviceGetCount"))?;
    let ordinal = device.ordinal() as i32;
    if ordinal >= count {
        return Err(format!(
            "no CUDA device number {ordinal} (the driver reports {count}); {FIX}"
        ));
    }
    let dev = cu::device::get(ordinal).map_err(step("cuDeviceGet"))?;
    // SAFETY: `dev` came from cuDeviceGet; the primary context is retained for the life of
    // the process (never released: contexts outlive every tensor).
    let ctx = unsafe { cu::primary_ctx::retain(dev) }.map_err(step("cuDevicePrimaryCtxRetain"))?;
    let ctx = Ctx(ctx);
    ctx.bind().map_err(|e| e.to_string())?;
    let raw =
        cu::stream::create(cu::stream::StreamKind::NonBlocking).map_err(step("cuStreamCreate"))?;
    let name = cu::device::get_name(dev).unwrap_or_else(|_| "CUDA device".to_string());
    let attr = |a: sys::CUdevice_attribute| {
        // SAFETY: `dev` came from cuDeviceGet.
        unsafe { cu::device::get_attribute(dev, a) }.unwrap_or(0)
    };
    use sys::CUdevice_attribute as A;
    let arch = (
        attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
        attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
    );
    let sms = attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).max(1) as usize;
    let host_access = host_access(HostAttrs {
        integrated: attr(A::CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0,
        pageable_access: attr(A::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) != 0,
        uses_host_page_tables: attr(
            A::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
        ) != 0,
    });
    log::debug!(
        "clika-rt: {device} is {name:?} (sm_{}{}, {sms} SMs, host access {host_access:?})",
        arch.0,
        arch.1
    );
    let stream = Arc::new(Stream {
        device,
        ctx,
        raw,
        latest: Mutex::default(),
        keep: Mutex::default(),
    });
    let raw_alloc = Arc::new(CudaAllocator::new(Arc::clone(&stream)));
    let pinned = Pool::new(
        Device::cpu(),
        Arc::new(PinnedAllocator::new(Arc::clone(&stream))),
    );
    Ok(Cuda {
        pool: Pool::new(device, raw_alloc),
        pinned,
        stream,
        name,
        arch,
        sms,
        host_access,
        kernels: Kernels::default(),
        blas: super::blas::Slot::new(),
    })
}

impl Backend for Cuda {
    fn device(&self) -> Device {
        self.stream.device
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn pool(&self) -> &Arc<Pool> {
        &self.pool
    }

    fn upload(&self, src: &Tensor) -> Result<Tensor> {
        super::transfer::upload(self, src)
    }

    fn download(&self, src: &Tensor) -> Result<Tensor> {
        super::transfer::download(self, src)
    }

    fn record_event(&self) -> Arc<dyn Event> {
        match self.stream.event() {
            Some(e) => e,
            // Recording failed and the stream was synchronised: nothing is pending.
            None => {
                let done = crate::memory::ManualEvent::new();
                done.complete();
                Arc::new(done)
            }
        }
    }

    fn synchronize(&self) -> Result<()> {
        self.stream.synchronize()
    }

    fn pinned_pool(&self) -> Result<&Arc<Pool>> {
        Ok(&self.pinned)
    }

    fn check_foreign(&self, base: *mut u8, nbytes: usize) -> Result<()> {
        super::interop::check_foreign(self, base, nbytes)
    }

    fn before_foreign_release(&self) {
        if let Err(e) = self.stream.synchronize() {
            log::error!(
                "clika-rt: waiting for {} before releasing foreign memory: {e}",
                self.stream.device
            );
        }
    }

    fn stream_handle(&self) -> Result<usize> {
        Ok(self.stream.raw as usize)
    }

    fn order_with_stream(&self, external: usize, ours_waits: bool) -> Result<()> {
        super::interop::order_with_stream(self, external, ours_waits)
    }

    unsafe fn unary(&self, plan: &UnaryPlan, src: &Tensor, out: &Tensor) -> Result<()> {
        super::kernels::unary(self, plan, src, out)
    }

    unsafe fn binary(&self, plan: &BinaryPlan, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
        super::kernels::binary(self, plan, a, b, out)
    }

    unsafe fn copy(&self, src: &Tensor, out: &Tensor) -> Result<()> {
        super::kernels::copy(self, src, out)
    }

    fn reduce(&self, plan: &ReducePlan, t: &Tensor) -> Result<Tensor> {
        super::kernels::reduce(self, plan, t)
    }

    fn matmul(&self, plan: &MatmulPlan) -> Result<Tensor> {
        super::kernels::matmul(self, plan)
    }

    fn vision(&self, plan: &VisionPlan) -> Result<Tensor> {
        super::vision::vision(self, plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::ManualEvent;

    #[test]
    fn host_access_is_direct_only_with_host_page_tables_or_shared_memory() {
        let discrete = HostAttrs::default();
        assert_eq!(host_access(discrete), HostAccess::Copy);
        // HMM (pageable access through migration) still copies.
        let hmm = HostAttrs {
            pageable_access: true,
            ..discrete
        };
        assert_eq!(host_access(hmm), HostAccess::Copy);
        let ats = HostAttrs {
            pageable_access: true,
            uses_host_page_tables: true,
            ..discrete
        };
        assert_eq!(host_access(ats), HostAccess::Direct);
        let integrated = HostAttrs {
            integrated: true,
            ..discrete
        };
        assert_eq!(host_access(integrated), HostAccess::Direct);
    }

    #[test]
    fn latest_event_is_recorded_once_per_batch_of_work() {
        let mut latest = Latest::<ManualEvent>::default();
        let recorded = std::cell::Cell::new(0);
        let rec = || {
            recorded.set(recorded.get() + 1);
            Some(ManualEvent::new())
        };
        let a = latest.event(rec).unwrap();
        let b = latest.event(rec).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "no work between: the same event");
        latest.note_work();
        let c = latest.event(rec).unwrap();
        assert!(!Arc::ptr_eq(&a, &c), "new work: a new event");
        assert_eq!(recorded.get(), 2);
        // A failed record is reported, and the next call tries again.
        latest.note_work();
        assert!(latest.event(|| None).is_none());
        assert!(latest.event(rec).is_some());
        assert_eq!(recorded.get(), 3);
    }

    #[test]
    fn kept_sources_drop_only_when_their_event_completed() {
        let first = Arc::new(ManualEvent::new());
        let second = Arc::new(ManualEvent::new());
        let mut keep = vec![(Arc::clone(&first), 1), (Arc::clone(&second), 2)];
        assert!(take_done(&mut keep).is_empty());
        second.complete();
        let done: Vec<i32> = take_done(&mut keep).into_iter().map(|(_, v)| v).collect();
        assert_eq!(done, [2]);
        assert_eq!(keep.len(), 1);
        first.complete();
        assert_eq!(take_done(&mut keep).len(), 1);
        assert!(keep.is_empty());
    }

    #[test]
    fn a_machine_without_the_driver_reports_unavailable_not_a_crash() {
        // On this machine either the driver is absent (the reason names it) or it starts;
        // both must be answers, never a panic.
        match context(Device::cuda(0)) {
            Ok(c) => assert_eq!(c.stream.device, Device::cuda(0)),
            Err(Error::DeviceUnavailable { reason, .. }) => assert!(!reason.is_empty()),
            Err(e) => panic!("unexpected error {e}"),
        }
        // A device past the count is unavailable everywhere.
        assert!(matches!(
            context(Device::cuda(999)),
            Err(Error::DeviceUnavailable { .. })
        ));
    }
}
