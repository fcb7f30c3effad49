//! Host memory used in place by the GPU, through `VK_EXT_external_memory_host`.
//!
//! When the adapter offers the extension, the device is opened with it ([`open`]) and
//! [`HostImport`] can wrap a page-aligned range of host memory as a `VkDeviceMemory`, bound
//! to a `VkBuffer` that wgpu then uses like any buffer of its own (`create_buffer_from_hal`).
//! It serves two paths:
//! - on a *unified-memory* device (one whose memory is host memory: a CPU device such as
//!   lavapipe, an integrated GPU), `.to("gpu:N")` of a host tensor is the import itself
//!   ([`alias`]): no bytes move and no pool memory is reserved; kernels read and write the
//!   caller's pages, and `.to("cpu")` gives back a view of them ([`host_view`]);
//! - on a discrete device, a source tagged `pinned_for` the device is imported and copied by
//!   the GPU straight from the caller's pages, with no staging buffer (`transfer::upload`).
//!
//! Lifetimes. The device tensor's storage owns an [`Imported`]. Dropping the last one takes
//! its address out of the queue's table and drops our handle on the wgpu buffer; wgpu keeps
//! the buffer while recorded or submitted commands use it, and when it finally destroys it,
//! the drop callback frees the Vulkan objects and only then gives the host storage to the
//! queue's graveyard, which is emptied outside every wgpu lock (a deleter may call back into
//! Python). So the host owner outlives every use of its pages by the GPU and is released
//! exactly once, by the storage's own contract (borrowed: never; adopted: its deleter).
//!
//! `CLIKA_RT_GPU_IMPORT` chooses, when a GPU starts: `auto` (the default: import where the
//! device allows), `pinned` (only the pinned copy path, as on a discrete device), `off` (the
//! staging copies only; the extension is not even enabled).

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use ash::vk;
use wgpu::hal::api::Vulkan;

use super::alloc::{release_addresses, reserve_addresses};
use super::queue::{Queue, Segment};
use super::Gpu;
use crate::error::Result;
use crate::memory::Pool;
use crate::storage::{Owner, Storage};
use crate::Tensor;

/// How a GPU may use host memory in place (`CLIKA_RT_GPU_IMPORT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Alias on unified-memory devices, import pinned sources elsewhere.
    Auto,
    /// Only the pinned copy path, whatever the device (how a discrete GPU behaves).
    Pinned,
    /// Staging copies only.
    Off,
}

impl Mode {
    pub(super) fn from_env() -> Mode {
        parse_mode(std::env::var("CLIKA_RT_GPU_IMPORT").ok().as_deref())
    }
}

fn parse_mode(value: Option<&str>) -> Mode {
    let value = value.map(|v| v.trim().to_ascii_lowercase());
    match value.as_deref() {
        None | Some("" | "auto" | "on" | "1") => Mode::Auto,
        Some("pinned") => Mode::Pinned,
        Some("off" | "0" | "none") => Mode::Off,
        Some(other) => {
            log::warn!(
                "clika-rt: CLIKA_RT_GPU_IMPORT={other:?} is not one of auto, pinned, off; \
                 using auto"
            );
            Mode::Auto
        }
    }
}

const HOST_ALLOCATION: vk::ExternalMemoryHandleTypeFlags =
    vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;

/// Opens a device on `adapter` with `desc`, adding `VK_EXT_external_memory_host` when the
/// adapter offers it and `mode` allows; also says whether it was added. A device that
/// refuses the extension is opened again without it.
pub(super) fn open(
    adapter: &wgpu::Adapter,
    desc: &wgpu::DeviceDescriptor<'_>,
    mode: Mode,
) -> std::result::Result<(wgpu::Device, wgpu::Queue, bool), wgpu::RequestDeviceError> {
    if mode != Mode::Off {
        // SAFETY: the hal adapter is only asked about its extensions and to open a device
        // with wgpu's own extension list plus ones it reports supported; the guard is
        // dropped before the wgpu adapter is used again.
        let opened = unsafe { adapter.as_hal::<Vulkan>() }.and_then(|hal| {
            let caps = hal.physical_device_capabilities();
            let api = hal
                .shared_instance()
                .instance_api_version()
                .min(caps.properties().api_version);
            if api < vk::API_VERSION_1_1
                || !caps.supports_extension(ash::ext::external_memory_host::NAME)
            {
                return None;
            }
            let callback: Box<wgpu::hal::vulkan::CreateDeviceCallback<'_>> =
                Box::new(|args| args.extensions.push(ash::ext::external_memory_host::NAME));
            // SAFETY: the features and limits are the ones `desc` asks of this adapter
            // (validated by wgpu when the device is wrapped below).
            unsafe {
                hal.open_with_callback(
                    desc.required_features,
                    &desc.required_limits,
                    &desc.memory_hints,
                    Some(callback),
                )
            }
            .map_err(|e| log::debug!("clika-rt: opening with host import failed: {e}"))
            .ok()
        });
        if let Some(open) = opened {
            // SAFETY: `open` was created from this adapter's hal adapter, with exactly the
            // features `desc` requires.
            match unsafe { adapter.create_device_from_hal(open, desc) } {
                Ok((wdev, wqueue)) => return Ok((wdev, wqueue, true)),
                Err(e) => log::debug!("clika-rt: wrapping the hal device failed: {e}"),
            }
        }
    }
    let (wdev, wqueue) = pollster::block_on(adapter.request_device(desc))?;
    Ok((wdev, wqueue, false))
}

/// Whether a device's memory is host memory: a CPU device or an integrated GPU, or (when the
/// driver does not say) every device-local heap reachable through a host-visible type. A
/// discrete GPU never is, even when resizable BAR makes its whole VRAM host-visible: host
/// memory is still across the bus for it, so aliasing would make every kernel read over PCIe.
pub(super) fn is_unified(
    kind: wgpu::DeviceType,
    memory: &vk::PhysicalDeviceMemoryProperties,
) -> bool {
    match kind {
        wgpu::DeviceType::Cpu | wgpu::DeviceType::IntegratedGpu => return true,
        wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::VirtualGpu => return false,
        wgpu::DeviceType::Other => {}
    }
    let types = &memory.memory_types[..memory.memory_type_count as usize];
    let heaps = &memory.memory_heaps[..memory.memory_heap_count as usize];
    let shared = vk::MemoryPropertyFlags::DEVICE_LOCAL | vk::MemoryPropertyFlags::HOST_VISIBLE;
    let mut local = heaps
        .iter()
        .enumerate()
        .filter(|(_, h)| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .peekable();
    local.peek().is_some()
        && local.all(|(i, _)| {
            types
                .iter()
                .any(|t| t.heap_index as usize == i && t.property_flags.contains(shared))
        })
}

/// One device's host-import capability (present only when the extension is enabled).
pub(super) struct HostImport {
    device: ash::Device,
    ext: ash::ext::external_memory_host::Device,
    /// Imported pointers and sizes are multiples of this: the driver's
    /// `minImportedHostPointerAlignment`, and at least the page size.
    align: usize,
    types: Vec<vk::MemoryPropertyFlags>,
    /// `.to(device)` aliases host memory (unified device and `Mode::Auto`).
    pub(super) aliases: bool,
}

impl std::fmt::Debug for HostImport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostImport")
            .field("align", &self.align)
            .field("aliases", &self.aliases)
            .finish()
    }
}

impl HostImport {
    /// The capability of `wdev` (opened by [`open`] with the extension), or `None`.
    pub(super) fn probe(
        wdev: &wgpu::Device,
        kind: wgpu::DeviceType,
        mode: Mode,
    ) -> Option<HostImport> {
        // SAFETY: the raw handles are cloned function tables over wgpu's device and
        // instance, which live as long as the (leaked) GPU context; we only create, bind and
        // destroy objects of our own with them.
        let hal = unsafe { wdev.as_hal::<Vulkan>() }?;
        if !hal
            .enabled_device_extensions()
            .contains(&ash::ext::external_memory_host::NAME)
        {
            return None;
        }
        let device = hal.raw_device().clone();
        let instance = hal.shared_instance().raw_instance().clone();
        let physical = hal.raw_physical_device();
        let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
        // SAFETY: a Vulkan 1.1 instance (checked in `open`) with a valid physical device;
        // the chained struct is the extension's, which the device supports.
        unsafe { instance.get_physical_device_properties2(physical, &mut props) };
        let align = usize::try_from(host.min_imported_host_pointer_alignment)
            .ok()?
            .max(page_size());
        if !align.is_power_of_two() {
            return None;
        }
        // SAFETY: as above.
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
        let types = memory.memory_types[..memory.memory_type_count as usize]
            .iter()
            .map(|t| t.property_flags)
            .collect();
        let ext = ash::ext::external_memory_host::Device::new(&instance, &device);
        let aliases = mode == Mode::Auto && is_unified(kind, &memory);
        Some(HostImport {
            device,
            ext,
            align,
            types,
            aliases,
        })
    }

    /// Wraps host bytes `[base, base + len)` (both multiples of `align`) as a wgpu buffer.
    /// `keep` (the storage owning the bytes) is held until wgpu destroys the buffer, then
    /// handed to `graveyard`.
    ///
    /// # Safety
    /// The range must be mapped host memory, readable (and writable if `keep` is), owned by
    /// `keep`: valid as long as `keep` lives.
    unsafe fn import(
        &self,
        queue: &Queue,
        base: usize,
        len: usize,
        keep: Storage,
        graveyard: Arc<Graveyard>,
    ) -> std::result::Result<wgpu::Buffer, String> {
        let dev = &self.device;
        let mut external =
            vk::ExternalMemoryBufferCreateInfo::default().handle_types(HOST_ALLOCATION);
        let info = vk::BufferCreateInfo::default()
            .size(len as u64)
            .usage(
                vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::TRANSFER_DST,
            )
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .push_next(&mut external);
        // SAFETY: a valid create info on wgpu's live device.
        let buffer = unsafe { dev.create_buffer(&info, None) }
            .map_err(|e| format!("vkCreateBuffer: {e}"))?;
        // SAFETY: `buffer` was just created on `dev` and is not used elsewhere.
        let destroy_buffer = || unsafe { dev.destroy_buffer(buffer, None) };
        // SAFETY: as above.
        let needs = unsafe { dev.get_buffer_memory_requirements(buffer) };
        let mut host = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: the extension is enabled on `dev`; `base` is an aligned host pointer (the
        // call only inspects it).
        let r = unsafe {
            (self.ext.fp().get_memory_host_pointer_properties_ext)(
                dev.handle(),
                HOST_ALLOCATION,
                base as *const c_void,
                &mut host,
            )
        };
        let bits = needs.memory_type_bits & host.memory_type_bits;
        if r != vk::Result::SUCCESS || bits == 0 || needs.size > len as u64 {
            destroy_buffer();
            return Err(format!(
                "the driver cannot import these pages ({r}, type bits {:#x} & {:#x}, size {} of {len})",
                needs.memory_type_bits, host.memory_type_bits, needs.size
            ));
        }
        let usable = |i: &usize| bits & (1 << i) != 0;
        let coherent = vk::MemoryPropertyFlags::HOST_COHERENT;
        let index = (0..self.types.len())
            .filter(usable)
            .find(|&i| self.types[i].contains(coherent))
            .or_else(|| (0..self.types.len()).find(usable))
            .unwrap_or(0) as u32;
        let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
            .handle_type(HOST_ALLOCATION)
            .host_pointer(base as *mut c_void);
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(len as u64)
            .memory_type_index(index)
            .push_next(&mut import);
        // SAFETY: the caller guarantees the pages stay valid while `keep` lives, and `keep`
        // is released only after this memory is freed (the drop callback below).
        let memory = match unsafe { dev.allocate_memory(&alloc, None) } {
            Ok(m) => m,
            Err(e) => {
                destroy_buffer();
                return Err(format!("importing the pages: {e}"));
            }
        };
        // SAFETY: fresh buffer and memory of the same device; the memory covers the buffer.
        if let Err(e) = unsafe { dev.bind_buffer_memory(buffer, memory, 0) } {
            // SAFETY: `memory` is ours and unused.
            unsafe { dev.free_memory(memory, None) };
            destroy_buffer();
            return Err(format!("binding the imported pages: {e}"));
        }
        let owner = dev.clone();
        let on_drop: wgpu::hal::DropCallback = Box::new(move || {
            // SAFETY: wgpu calls this once, after its last use of the buffer completed; the
            // buffer and memory are ours and nothing else refers to them.
            unsafe {
                owner.destroy_buffer(buffer, None);
                owner.free_memory(memory, None);
            }
            graveyard.bury(keep);
        });
        // SAFETY: `buffer` outlives the hal buffer (it is destroyed only by `on_drop`), its
        // memory is bound, and wgpu never maps it (the usages below exclude mapping).
        let hal = unsafe { wgpu::hal::vulkan::Buffer::from_raw_externally_owned(buffer, on_drop) };
        let desc = wgpu::BufferDescriptor {
            label: Some("clika-rt imported host memory"),
            size: len as u64,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        };
        // SAFETY: `hal` is a buffer of this device, `len` bytes, bound, with these usages;
        // wgpu treats it as initialised (it is: the host bytes are).
        queue.checked(|| unsafe { queue.wdev.create_buffer_from_hal::<Vulkan>(hal, &desc) })
    }
}

/// The system page size.
fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(n).unwrap_or(4096).max(4096)
}

/// Host storages whose imports wgpu has destroyed, waiting to be dropped outside wgpu's
/// locks (see the module docs).
#[derive(Default)]
pub(super) struct Graveyard(Mutex<Vec<Storage>>);

impl Graveyard {
    fn bury(&self, s: Storage) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(s);
    }

    /// Drops the buried storages (call with no lock held).
    pub(super) fn empty(&self) {
        let dead = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        drop(dead);
    }
}

/// The owner of a device storage over imported host memory.
#[derive(Clone)]
pub(super) struct Imported(Arc<Inner>);

struct Inner {
    queue: Arc<Queue>,
    pool: Arc<Pool>,
    /// The device storage's synthetic address (its key in the queue's table).
    addr: usize,
    len: usize,
    /// The host storage whose pages these are.
    host: Storage,
    /// Host element offset = device element offset − `shift`.
    shift: isize,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(seg) = self.queue.remove_segment(self.addr) {
            // Our handle only: wgpu destroys the buffer when no recorded command uses it.
            drop(seg.buffer);
            // SAFETY: the reservation was made for this import and leaves the table here, so
            // it is returned exactly once; nothing resolves it any more.
            unsafe { release_addresses(seg.addresses) };
        }
        self.pool.count_imported(self.len, false);
        self.queue.graveyard.empty();
    }
}

/// `src` (a host tensor) as a tensor of `gpu` over the same memory, or `None` where this
/// device cannot import it (no extension, an empty tensor, a misaligned element, a driver
/// refusal): the caller copies instead.
pub(super) fn alias(gpu: &Gpu, src: &Tensor) -> Option<Tensor> {
    let imp = gpu.import.as_ref()?;
    let isz = src.dtype().size();
    let (lo, hi) = src.layout().element_range()?;
    let start = src.storage().as_ptr() as usize;
    let first = start + lo * isz;
    let end = start + (hi + 1) * isz;
    let limits = gpu.queue.wdev.limits();
    // Kernels bind a storage from its start, which must sit on the binding alignment; the
    // tensor's first element is then at a whole element offset inside the binding.
    let binding = (limits.min_storage_buffer_offset_alignment as usize)
        .max(4)
        .max(isz);
    if !first.is_multiple_of(isz) {
        return None;
    }
    let bound = first - first % binding;
    let base = first - first % imp.align;
    let len = end.next_multiple_of(imp.align) - base;
    if len as u64 > limits.max_buffer_size {
        return None;
    }
    let (addr, addresses) = reserve_addresses(len, imp.align)?;
    let addr = addr.as_ptr() as usize;
    let storage = src.storage().clone();
    // SAFETY: `[base, base + len)` is the span of whole aligned pages that encloses the
    // tensor's bytes, which lie in `storage` (L3): those pages are mapped and readable as long
    // as `storage` lives, and the import holds `storage` until wgpu is done with the buffer.
    let made = unsafe {
        imp.import(
            &gpu.queue,
            base,
            len,
            storage.clone(),
            Arc::clone(&gpu.queue.graveyard),
        )
    };
    let buffer = match made {
        Ok(b) => b,
        Err(why) => {
            log::debug!(
                "clika-rt: {} copies instead of importing: {why}",
                gpu.queue.device
            );
            // SAFETY: reserved just above and never published.
            unsafe { release_addresses(addresses) };
            return None;
        }
    };
    gpu.queue.add_segment(
        addr,
        Segment {
            buffer,
            nbytes: len,
            addresses,
        },
    );
    gpu.pool.count_imported(len, true);
    let device_offset = src.storage_offset() - lo + (first - bound) / isz;
    let owner = Imported(Arc::new(Inner {
        queue: Arc::clone(&gpu.queue),
        pool: Arc::clone(&gpu.pool),
        addr,
        len,
        host: storage.clone(),
        shift: device_offset as isize - src.storage_offset() as isize,
    }));
    // SAFETY: a synthetic device address (never dereferenced on the host; kernels and copies
    // resolve it to the imported buffer) for the `end - bound` bytes from the binding
    // boundary at or before the tensor's first byte to its last; the owner keeps the import
    // and the host storage. Writable exactly when the host memory was lent writable (kernels
    // store whole words, and never past the storage's end unless it is pool memory).
    let dev_storage = unsafe {
        Storage::from_raw_parts(
            (addr + (bound - base)) as *mut u8,
            end - bound,
            gpu.queue.device,
            Owner::keepalive(owner),
            None,
            storage.is_writable(),
        )
    };
    let layout = src.layout().with_offset(device_offset);
    Tensor::from_storage(dev_storage, layout, src.dtype()).ok()
}

/// For a tensor over imported memory, the host tensor over the same bytes once the GPU's
/// queued work is done: `.to("cpu")` without a copy. `None` for any other tensor.
pub(super) fn host_view(gpu: &Gpu, src: &Tensor) -> Option<Result<Tensor>> {
    let Imported(imp) = src.storage().keepalive_as::<Imported>()?;
    let offset = usize::try_from(src.storage_offset() as isize - imp.shift).ok()?;
    let view = Tensor::from_storage(
        imp.host.clone(),
        src.layout().with_offset(offset),
        src.dtype(),
    )
    .ok()?;
    Some(gpu.queue.synchronize().map(|()| view))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(
        types: &[(u32, vk::MemoryPropertyFlags)],
        heaps: &[vk::MemoryHeapFlags],
    ) -> vk::PhysicalDeviceMemoryProperties {
        let mut memory_types = [vk::MemoryType::default(); vk::MAX_MEMORY_TYPES];
        for (slot, &(heap_index, property_flags)) in memory_types.iter_mut().zip(types) {
            *slot = vk::MemoryType {
                property_flags,
                heap_index,
            };
        }
        let mut memory_heaps = [vk::MemoryHeap::default(); vk::MAX_MEMORY_HEAPS];
        for (slot, &flags) in memory_heaps.iter_mut().zip(heaps) {
            *slot = vk::MemoryHeap {
                size: 1 << 30,
                flags,
            };
        }
        vk::PhysicalDeviceMemoryProperties {
            memory_type_count: types.len() as u32,
            memory_types,
            memory_heap_count: heaps.len() as u32,
            memory_heaps,
        }
    }

    #[test]
    fn unified_is_decided_by_the_device_kind_then_the_heaps() {
        use vk::MemoryHeapFlags as H;
        use vk::MemoryPropertyFlags as P;
        // A discrete GPU with resizable BAR: VRAM host-visible, still not unified.
        let rebar = memory(
            &[
                (0, P::DEVICE_LOCAL),
                (0, P::DEVICE_LOCAL | P::HOST_VISIBLE),
                (1, P::HOST_VISIBLE),
            ],
            &[H::DEVICE_LOCAL, H::empty()],
        );
        assert!(!is_unified(wgpu::DeviceType::DiscreteGpu, &rebar));
        assert!(is_unified(wgpu::DeviceType::Cpu, &rebar));
        assert!(is_unified(wgpu::DeviceType::IntegratedGpu, &rebar));
        // Unknown kind: unified when every device-local heap is host-visible.
        assert!(is_unified(wgpu::DeviceType::Other, &rebar));
        let split = memory(
            &[
                (0, P::DEVICE_LOCAL),
                (1, P::DEVICE_LOCAL),
                (1, P::DEVICE_LOCAL | P::HOST_VISIBLE),
            ],
            &[H::DEVICE_LOCAL, H::DEVICE_LOCAL],
        );
        assert!(!is_unified(wgpu::DeviceType::Other, &split));
        let no_local = memory(&[(0, P::HOST_VISIBLE)], &[H::empty()]);
        assert!(!is_unified(wgpu::DeviceType::Other, &no_local));
    }

    #[test]
    fn the_mode_comes_from_the_environment_value() {
        assert_eq!(parse_mode(None), Mode::Auto);
        assert_eq!(parse_mode(Some("auto")), Mode::Auto);
        assert_eq!(parse_mode(Some(" Pinned ")), Mode::Pinned);
        assert_eq!(parse_mode(Some("off")), Mode::Off);
        assert_eq!(parse_mode(Some("0")), Mode::Off);
        assert_eq!(parse_mode(Some("bogus")), Mode::Auto);
    }
}
