//! DLPack, both ways, for every binding: the managed-tensor structs (from the `dlpark` crate)
//! built from a tensor, and tensors built over a producer's managed tensor.
//!
//! - Export ([`export_versioned`], [`export_legacy`]): a heap-allocated managed tensor whose
//!   `DLTensor` describes the tensor's own memory (no copy); it keeps the tensor's storage
//!   alive until the consumer calls its deleter, exactly once. The versioned struct carries
//!   the read-only flag; the legacy one cannot say "read-only", so a read-only tensor is
//!   refused there (the fix: the versioned form, or a copy).
//! - Import ([`import_versioned`], [`import_legacy`]): a tensor over the producer's memory,
//!   every check done once by [`ForeignMemory::check`]; the producer's deleter runs exactly
//!   once, when the last tensor over that memory drops. On failure nothing is taken: the
//!   caller still owns the managed tensor (and runs its deleter).
//!
//! Host memory (`kDLCPU`, `kDLCUDAHost`) and CUDA device memory (`kDLCUDA`, `kDLCUDAManaged`)
//! cross; wgpu tensors are refused with the move that works. Stream ordering (DLPack's
//! `stream` argument) is the binding's job: see [`crate::backend::stream_handle`].
//! The Python binding wraps these in capsules (`__dlpack__`, `crt.from_dlpack`); the C ABI
//! exposes them as `crt_tensor_from_dlpack` / `crt_tensor_to_dlpack`.

use std::sync::atomic::{AtomicIsize, Ordering};

pub use dlpark::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned,
    DLPackVersion, DLTensor,
};
pub use dlpark::DlpackFlags;

use crate::error::{Error, Result};
use crate::{DType, Device, DeviceKind, ForeignMemory, Owner, Tensor};

/// The DLPack version this module produces (and the newest a producer is asked for).
pub const VERSION: DLPackVersion = DLPackVersion { major: 1, minor: 1 };

/// Exported managed tensors whose deleter has not run yet.
static LIVE_EXPORTS: AtomicIsize = AtomicIsize::new(0);

/// How many managed tensors this process exported whose deleter has not run yet (a leak
/// check for tests: it returns to its earlier value once every consumer is done).
pub fn live_exports() -> isize {
    LIVE_EXPORTS.load(Ordering::SeqCst)
}

/// The DLPack `(device_type, device_id)` of a device.
pub fn device_of(device: Device) -> (i32, i32) {
    let kind = match device.kind() {
        DeviceKind::Cpu | DeviceKind::Auto => DLDeviceType::CPU,
        DeviceKind::Gpu => DLDeviceType::VULKAN,
        DeviceKind::Cuda => DLDeviceType::CUDA,
    };
    (kind.0 as i32, device.ordinal() as i32)
}

/// The DLPack data type of a dtype.
pub fn dl_dtype(dtype: DType) -> DLDataType {
    let code = match dtype {
        DType::Float32 | DType::Float64 | DType::Float16 => DLDataTypeCode::FLOAT,
        DType::BFloat16 => DLDataTypeCode::BFLOAT,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => DLDataTypeCode::INT,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => DLDataTypeCode::UINT,
        DType::Bool => DLDataTypeCode::BOOL,
    };
    DLDataType {
        code,
        bits: (dtype.size() * 8) as u8,
        lanes: 1,
    }
}

/// The dtype of a DLPack data type, or an error naming what is supported.
pub fn dtype_of(dl: DLDataType) -> Result<DType> {
    let found = DType::ALL
        .into_iter()
        .find(|&d| {
            let want = dl_dtype(d);
            want.code == dl.code && want.bits == dl.bits && dl.lanes == 1
        })
        .ok_or_else(|| Error::DTypeRule {
            what: format!(
                "from_dlpack: DLPack dtype (code {}, bits {}, lanes {}) is not supported; the \
                 runtime takes {}",
                dl.code.0,
                dl.bits,
                dl.lanes,
                DType::ALL.map(DType::short_name).join(", ")
            ),
        })?;
    Ok(found)
}

/// What an exported managed tensor owns: the tensor (keeping its storage alive) and the
/// shape and strides its `DLTensor` points at. `M` (the managed struct) comes first, so a
/// pointer to it is a pointer to the whole export.
#[repr(C)]
struct Export<M> {
    managed: M,
    tensor: Tensor,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

/// Boxes `tensor` with the `DLTensor` describing it. The shape and strides buffers are heap
/// allocations, so the pointers taken here stay valid when the vectors move into the box.
fn boxed<M>(tensor: Tensor, managed: impl FnOnce(DLTensor) -> M) -> Result<*mut M> {
    if tensor.device().kind() == DeviceKind::Gpu {
        return Err(Error::UnsupportedOnDevice {
            op: "to_dlpack".to_string(),
            device: tensor.device(),
            what: "DLPack export of wgpu buffers (they have no address another library can \
                   use); move the tensor with .to(\"cpu\") or use a cuda:N device"
                .to_string(),
        });
    }
    let mut shape: Vec<i64> = tensor.shape().iter().map(|&d| d as i64).collect();
    let mut strides: Vec<i64> = tensor.strides().iter().map(|&s| s as i64).collect();
    let (dev_type, dev_id) = device_of(tensor.device());
    let dl = DLTensor {
        data: tensor.data_ptr().cast(),
        device: DLDevice {
            device_type: DLDeviceType(dev_type as u32),
            device_id: dev_id,
        },
        ndim: shape.len() as i32,
        dtype: dl_dtype(tensor.dtype()),
        shape: shape.as_mut_ptr(),
        strides: strides.as_mut_ptr(),
        byte_offset: 0,
    };
    LIVE_EXPORTS.fetch_add(1, Ordering::SeqCst);
    let export = Box::new(Export {
        managed: managed(dl),
        tensor,
        shape,
        strides,
    });
    Ok(Box::into_raw(export).cast::<M>())
}

unsafe extern "C" fn delete_versioned(p: *mut DLManagedTensorVersioned) {
    // SAFETY: `p` came from `Box::into_raw` of an `Export<DLManagedTensorVersioned>` (the
    // managed struct is its first field), and DLPack calls the deleter once.
    drop(unsafe { Box::from_raw(p.cast::<Export<DLManagedTensorVersioned>>()) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::SeqCst);
}

unsafe extern "C" fn delete_legacy(p: *mut DLManagedTensor) {
    // SAFETY: as for `delete_versioned`, with the legacy struct.
    drop(unsafe { Box::from_raw(p.cast::<Export<DLManagedTensor>>()) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::SeqCst);
}

/// A versioned (DLPack ≥ 1.0) managed tensor over `tensor`'s memory, flagged read-only when
/// the tensor is, and `IS_COPIED` when `copied` (the caller made `tensor` as a copy). The
/// consumer owns the result and calls its deleter exactly once.
pub fn export_versioned(tensor: Tensor, copied: bool) -> Result<*mut DLManagedTensorVersioned> {
    let mut flags = DlpackFlags::empty();
    flags.set(DlpackFlags::READ_ONLY, !tensor.storage().is_writable());
    flags.set(DlpackFlags::IS_COPIED, copied);
    boxed(tensor, |dl_tensor| DLManagedTensorVersioned {
        version: VERSION,
        manager_ctx: std::ptr::null_mut(),
        deleter: Some(delete_versioned),
        flags,
        dl_tensor,
    })
}

/// A legacy (pre-1.0) managed tensor over `tensor`'s memory. Legacy DLPack has no read-only
/// flag, so a read-only tensor is refused ([`Error::ReadOnly`]).
pub fn export_legacy(tensor: Tensor) -> Result<*mut DLManagedTensor> {
    if !tensor.storage().is_writable() {
        return Err(Error::ReadOnly {
            reason: "legacy DLPack cannot mark memory read-only: export the versioned form, \
                     or export a copy",
        });
    }
    boxed(tensor, |dl_tensor| DLManagedTensor {
        dl_tensor,
        manager_ctx: std::ptr::null_mut(),
        deleter: Some(delete_legacy),
    })
}

/// Runs a producer's deleter exactly once, when the last tensor over its memory drops.
struct ProducerGuard<M: Managed>(*mut M);

// SAFETY: the pointee is a managed tensor whose only use here is its deleter, which the
// DLPack contract allows on any thread.
unsafe impl<M: Managed> Send for ProducerGuard<M> {}

impl<M: Managed> Drop for ProducerGuard<M> {
    fn drop(&mut self) {
        // SAFETY: the guard is made only for a live managed tensor whose deleter nobody else
        // runs (see `import`), and drops once.
        unsafe {
            if let Some(d) = (*self.0).deleter() {
                d(self.0)
            }
        }
    }
}

/// The two managed-tensor structs, as far as an import needs them.
trait Managed: 'static {
    fn tensor(&self) -> &DLTensor;
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)>;
}

impl Managed for DLManagedTensorVersioned {
    fn tensor(&self) -> &DLTensor {
        &self.dl_tensor
    }
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
}

impl Managed for DLManagedTensor {
    fn tensor(&self) -> &DLTensor {
        &self.dl_tensor
    }
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
}

/// The device of a DLPack device: host memory (`kDLCPU`, and `kDLCUDAHost`: page-locked
/// host memory, which the CPU reads in place), or a CUDA device (`kDLCUDA`, and
/// `kDLCUDAManaged` memory, wrapped on the device that reports it).
pub fn device_from_dl(dev: DLDevice) -> Result<Device> {
    let ordinal = u32::try_from(dev.device_id).map_err(|_| Error::InvalidArgument {
        what: format!("from_dlpack: device id {} is negative", dev.device_id),
    })?;
    match dev.device_type {
        DLDeviceType::CPU | DLDeviceType::CUDAHOST => Ok(Device::cpu()),
        DLDeviceType::CUDA | DLDeviceType::CUDAMANAGED => Ok(Device::cuda(ordinal)),
        other => Err(Error::InvalidArgument {
            what: format!(
                "from_dlpack: DLPack device type {} is not one this runtime imports (host \
                 memory: 1 and 3, CUDA: 2 and 13); copy it to the host first",
                other.0
            ),
        }),
    }
}

/// Checks `dl` and describes its memory; takes nothing.
fn describe(dl: &DLTensor) -> Result<ForeignMemory> {
    let device = device_from_dl(dl.device)?;
    let dtype = dtype_of(dl.dtype)?;
    let ndim = usize::try_from(dl.ndim).map_err(|_| Error::InvalidArgument {
        what: format!("from_dlpack: ndim {} is negative", dl.ndim),
    })?;
    if ndim > crate::MAX_DIMS {
        return Err(Error::TooManyDims {
            ndim,
            max: crate::MAX_DIMS,
        });
    }
    if ndim > 0 && dl.shape.is_null() {
        return Err(Error::InvalidArgument {
            what: "from_dlpack: the DLTensor has ndim > 0 and no shape".to_string(),
        });
    }
    let read = |p: *mut i64| -> &[i64] {
        if ndim == 0 {
            &[]
        } else {
            // SAFETY: DLPack guarantees `ndim` entries behind a non-null shape/strides, and
            // the caller of `import_*` guarantees the managed tensor is live.
            unsafe { std::slice::from_raw_parts(p, ndim) }
        }
    };
    let shape = read(dl.shape);
    // Null strides: row-major (DLPack ≥ 0.6 allows it).
    let strides = (!dl.strides.is_null() || ndim == 0).then(|| read(dl.strides));
    let data = dl.data.cast::<u8>().wrapping_add(dl.byte_offset as usize);
    // Every check (sizes, overflow, null, alignment, wrap-around) is the core's.
    ForeignMemory::check(data, shape, strides, dtype, device)
}

/// A tensor over `p`'s memory owning its deleter.
///
/// # Safety
/// As for [`import_versioned`].
unsafe fn import<M: Managed>(p: *mut M, read_only: bool) -> Result<Tensor> {
    if p.is_null() {
        return Err(Error::InvalidArgument {
            what: "from_dlpack: the managed tensor pointer is null".to_string(),
        });
    }
    // SAFETY: the caller guarantees `p` is a live managed tensor.
    let memory = describe(unsafe { (*p).tensor() })?;
    let guard = ProducerGuard(p);
    // SAFETY: the checked range stays valid until the producer's deleter runs, which the
    // guard does only when this storage drops; the caller handed the deleter to us.
    Ok(unsafe { memory.wrap(Owner::keepalive(guard), None, read_only) })
}

/// A tensor over the memory of a versioned (DLPack 1.x) managed tensor, read-only when its
/// `READ_ONLY` flag is set. On success the tensor owns `p`: its deleter runs exactly once,
/// when the last tensor over the memory drops. On failure nothing was taken.
///
/// # Safety
/// `p` is null or a live managed tensor whose memory stays valid (for reads, and for writes
/// unless flagged read-only) until its deleter is called, and whose deleter nobody else will
/// call once this returns `Ok`.
pub unsafe fn import_versioned(p: *mut DLManagedTensorVersioned) -> Result<Tensor> {
    if !p.is_null() {
        // SAFETY: the caller guarantees a non-null `p` is live.
        let version = unsafe { (*p).version };
        if version.major != VERSION.major {
            return Err(Error::InvalidArgument {
                what: format!(
                    "from_dlpack: DLPack {}.{} is not supported ({}.x is)",
                    version.major, version.minor, VERSION.major
                ),
            });
        }
    }
    // SAFETY: checked non-null in `import` before the read; the flags are read only then.
    let read_only = !p.is_null() && unsafe { (*p).flags.contains(DlpackFlags::READ_ONLY) };
    // SAFETY: the caller's contract.
    unsafe { import(p, read_only) }
}

/// A tensor over the memory of a legacy (pre-1.0) managed tensor. Legacy DLPack cannot say
/// whether the memory may be written, so the caller says it: `read_only` gives a tensor that
/// refuses writes. Ownership as for [`import_versioned`].
///
/// # Safety
/// As for [`import_versioned`]; the memory must be writable unless `read_only`.
pub unsafe fn import_legacy(p: *mut DLManagedTensor, read_only: bool) -> Result<Tensor> {
    // SAFETY: the caller's contract.
    unsafe { import(p, read_only) }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The tests of this binary run in parallel, so they follow one storage's references
    // (`is_unique`) rather than the process-wide `live_exports` count.

    #[test]
    fn a_round_trip_shares_memory_and_runs_the_deleter_once() {
        let t = Tensor::from_data(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
        let view = t.transpose(0, 1).unwrap();
        let p = export_versioned(view.clone(), false).unwrap();
        drop(view);
        assert!(
            !t.storage().is_unique(),
            "the export keeps the storage alive"
        );
        // SAFETY: `p` is the live export just made; its deleter is ours to hand over.
        let back = unsafe { import_versioned(p) }.unwrap();
        assert_eq!(back.data_ptr(), t.data_ptr());
        assert_eq!(back.shape(), &[3, 2]);
        assert_eq!(back.strides(), &[1, 3]);
        assert_eq!(
            back.to_vec::<f32>().unwrap(),
            [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
        );
        assert!(back.storage().is_writable());
        drop(back);
        assert!(
            t.storage().is_unique(),
            "dropping the import ran the export's deleter"
        );
    }

    #[test]
    fn read_only_survives_the_versioned_form_and_is_refused_by_the_legacy_one() {
        let data = [1i32, 2, 3];
        // SAFETY: `data` outlives every tensor over it in this test.
        let t = unsafe {
            Tensor::from_blob_with(
                data.as_ptr().cast_mut().cast(),
                &[3],
                None,
                DType::Int32,
                crate::BlobOptions {
                    read_only: true,
                    ..Default::default()
                },
            )
        }
        .unwrap();
        assert!(matches!(
            export_legacy(t.clone()),
            Err(Error::ReadOnly { .. })
        ));
        let p = export_versioned(t, false).unwrap();
        // SAFETY: as above.
        let mut back = unsafe { import_versioned(p) }.unwrap();
        assert!(!back.storage().is_writable());
        assert!(back.fill_(0.0).is_err());
        assert_eq!(data, [1, 2, 3]);
    }

    #[test]
    fn a_refused_import_takes_nothing() {
        let t = Tensor::from_data(&[1u8, 2], &[2]).unwrap();
        let p = export_legacy(t.clone()).unwrap();
        // SAFETY: `p` is live; its dtype is changed to one the runtime lacks.
        unsafe { (*p).dl_tensor.dtype.code = DLDataTypeCode::COMPLEX };
        // SAFETY: `p` is live; on failure it stays ours.
        let err = unsafe { import_legacy(p, false) }.unwrap_err();
        assert!(err.to_string().contains("not supported"), "{err}");
        assert!(
            !t.storage().is_unique(),
            "a refused import must not run the deleter"
        );
        // SAFETY: still ours: run its deleter once.
        unsafe { ((*p).deleter.unwrap())(p) };
        assert!(t.storage().is_unique());
    }
}
