//! The wgpu (Vulkan) backend: one [`Gpu`] context per `gpu:N`, created on first use.
//!
//! - `queue`: the command batch, submissions and completion events;
//! - `alloc`: device memory for the pool, addressed by synthetic host addresses;
//! - `transfer`: host ↔ device copies;
//! - `import`: host memory used in place (unified devices, pinned sources);
//! - `kernels`: WGSL compute shaders behind the op entry points;
//! - `vision`: the image kernels (`interpolate`, `cvt_color`, `normalize_image`).

mod alloc;
mod import;
mod kernels;
mod launch;
mod queue;
mod reduce;
mod shaders;
mod transfer;
mod vision;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use self::alloc::DeviceAllocator;
use self::queue::Queue;
use super::Backend;
use crate::error::{Error, Result};
use crate::memory::{Event, Pool};
use crate::ops::vision::VisionPlan;
use crate::ops::{matmul::Plan as MatmulPlan, BinaryPlan, ReducePlan, UnaryPlan};
use crate::{Device, Tensor};

/// The hint every "no GPU" error ends with.
const FIX: &str = "install a Vulkan driver (Debian/Ubuntu: apt-get install mesa-vulkan-drivers \
     libvulkan1) or use Device::cpu()";

/// The context of one GPU: the wgpu device and queue, its pool and compiled kernels.
pub(crate) struct Gpu {
    queue: Arc<Queue>,
    pool: Arc<Pool>,
    /// Host-memory import, where the device has it (see `import`).
    import: Option<import::HostImport>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("device", &self.queue.device)
            .finish()
    }
}

/// The context of `device` (a GPU), starting it on first use. A failed start is remembered:
/// later calls fail with the same reason without probing again.
pub(crate) fn context(device: Device) -> Result<&'static Gpu> {
    type Slot = std::result::Result<&'static Gpu, String>;
    static GPUS: OnceLock<Mutex<HashMap<u32, Slot>>> = OnceLock::new();
    let unavailable = |reason: String| Error::DeviceUnavailable { device, reason };
    if let Some(reason) = super::auto::disabled_reason() {
        return Err(unavailable(reason));
    }
    // A context does not survive `fork` (driver state and threads stay in the parent); checked
    // before taking `GPUS`, which a parent thread may have held at the fork.
    static STARTED_BY: AtomicU32 = AtomicU32::new(0);
    let (pid, started_by) = (std::process::id(), STARTED_BY.load(Ordering::Acquire));
    if started_by != 0 && started_by != pid {
        return Err(unavailable(format!(
            "this process ({pid}) was forked from process {started_by} after that process started \
             the GPU, and a GPU context does not survive fork; start worker processes with the \
             'spawn' (or 'forkserver') method, e.g. multiprocessing.get_context('spawn'), or \
             use the CPU in the child"
        )));
    }
    let mut map = GPUS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let slot = map.entry(device.ordinal()).or_insert_with(|| {
        // wgpu panics in a few set-up paths (no backend compiled in); never let that escape.
        catch_unwind(AssertUnwindSafe(|| start(device)))
            .unwrap_or_else(|_| Err("the wgpu backend panicked while starting".to_string()))
            .map(|gpu| &*Box::leak(Box::new(gpu)))
    });
    if slot.is_ok() {
        let _ = STARTED_BY.compare_exchange(0, pid, Ordering::AcqRel, Ordering::Acquire);
    }
    slot.clone().map_err(unavailable)
}

/// Creates the instance, picks adapter `device.ordinal()` and opens a device on it.
fn start(device: Device) -> std::result::Result<Gpu, String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let adapter = adapters
        .into_iter()
        .nth(device.ordinal() as usize)
        .ok_or_else(|| {
            format!(
                "no Vulkan adapter number {} was found; {FIX}",
                device.ordinal()
            )
        })?;
    let info = adapter.get_info();
    let mut features = wgpu::Features::empty();
    if adapter.features().contains(wgpu::Features::SHADER_F16) {
        features |= wgpu::Features::SHADER_F16;
    }
    let mode = import::Mode::from_env();
    let desc = wgpu::DeviceDescriptor {
        label: Some("clika-rt"),
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    };
    let (wdev, wqueue, with_import) = import::open(&adapter, &desc, mode).map_err(|e| {
        format!(
            "the adapter {:?} refused to open a device ({e}); {FIX}",
            info.name
        )
    })?;
    // The default handler panics on any validation error; log instead (each call site
    // that can fail checks with an error scope).
    wdev.on_uncaptured_error(Arc::new(|e: wgpu::Error| log::error!("clika-rt GPU: {e}")));
    log::debug!("clika-rt: {device} is {:?} ({:?})", info.name, info.backend);
    let import = with_import
        .then(|| import::HostImport::probe(&wdev, info.device_type, mode))
        .flatten();
    log::debug!("clika-rt: {device} host import: {import:?}");
    let queue = Arc::new(Queue::new(device, wdev, wqueue, info.name));
    let raw = Arc::new(DeviceAllocator::new(Arc::clone(&queue)));
    Ok(Gpu {
        pool: Pool::new(device, raw),
        queue,
        import,
    })
}

impl Backend for Gpu {
    fn device(&self) -> Device {
        self.queue.device
    }

    fn pool(&self) -> &Arc<Pool> {
        &self.pool
    }

    fn upload(&self, src: &Tensor) -> Result<Tensor> {
        transfer::upload(self, src)
    }

    fn download(&self, src: &Tensor) -> Result<Tensor> {
        transfer::download(self, src)
    }

    fn upload_copy(&self, src: &Tensor) -> Result<Tensor> {
        transfer::upload_copy(self, src)
    }

    fn download_copy(&self, src: &Tensor) -> Result<Tensor> {
        transfer::read_back(self, src)
    }

    fn record_event(&self) -> Arc<dyn Event> {
        self.queue.event()
    }

    fn synchronize(&self) -> Result<()> {
        self.queue.synchronize()
    }

    fn name(&self) -> String {
        self.queue.adapter_name.clone()
    }

    unsafe fn unary(&self, plan: &UnaryPlan, src: &Tensor, out: &Tensor) -> Result<()> {
        kernels::unary(self, plan, src, out)
    }

    unsafe fn binary(&self, plan: &BinaryPlan, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
        kernels::binary(self, plan, a, b, out)
    }

    unsafe fn copy(&self, src: &Tensor, out: &Tensor) -> Result<()> {
        kernels::copy(self, src, out)
    }

    fn reduce(&self, plan: &ReducePlan, t: &Tensor) -> Result<Tensor> {
        reduce::reduce(self, plan, t)
    }

    fn matmul(&self, plan: &MatmulPlan) -> Result<Tensor> {
        kernels::matmul(self, plan)
    }

    fn vision(&self, plan: &VisionPlan) -> Result<Tensor> {
        vision::vision(self, plan)
    }
}
