//! Tensors over file-descriptor-backed shared memory: `share_memory` (move a tensor's values
//! into an anonymous `memfd` segment another process can map), `from_fd` (map a segment or
//! file another process or a C producer handed over), and the bounds check every wrapper of
//! a foreign byte buffer uses (`ForeignMemory::within`).
//!
//! A segment is a [`SharedSegment`]: the mapping plus its own duplicate of the descriptor,
//! kept open so the tensor can be sent on (Python's `multiprocessing` passes the descriptor,
//! never the bytes). An anonymous segment has no name in any file system: its pages are
//! freed by the kernel when the last descriptor and the last mapping of it are gone, in
//! whichever process, including one that was killed, so nothing can leak.

use std::fs::File;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::sync::Arc;

use memmap2::{Mmap, MmapMut, MmapOptions};

use super::Tensor;
use crate::error::{dims_i64, Error, Result};
use crate::storage::Owner;
use crate::{DType, Device, ForeignMemory};

/// A whole fd-backed segment mapped shared (`MAP_SHARED`), and the descriptor it came from.
#[derive(Debug)]
pub struct SharedSegment {
    file: File,
    map: Option<SegmentMap>,
    len: usize,
}

#[derive(Debug)]
enum SegmentMap {
    Write(MmapMut),
    Read(Mmap),
}

/// Where a shared tensor's bytes lie, for sending it to another process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedRegion {
    /// The segment's descriptor, owned by the segment: valid while the tensor lives.
    pub fd: RawFd,
    /// The segment's length in bytes.
    pub segment_len: usize,
    /// Byte offset of element `[0, …, 0]` from the segment's start.
    pub offset: usize,
    /// Whether the segment is mapped read-only in this process.
    pub read_only: bool,
}

fn fd_error(fd: RawFd, action: &'static str, e: &std::io::Error) -> Error {
    Error::File {
        path: format!("<file descriptor {fd}>"),
        action,
        message: e.to_string(),
    }
}

impl SharedSegment {
    /// A new anonymous segment of `len` bytes (at least one), zero-filled, sealed against
    /// shrinking and growing so no holder can truncate it under another's mapping.
    #[cfg(target_os = "linux")]
    fn create(len: usize) -> Result<SharedSegment> {
        use std::os::fd::{FromRawFd, OwnedFd};
        let len = len.max(1);
        // SAFETY: the name is a NUL-terminated literal; the flags are valid for memfd_create.
        let raw = unsafe {
            libc::memfd_create(
                c"clika-rt-shared".as_ptr(),
                libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
            )
        };
        if raw < 0 {
            return Err(fd_error(-1, "create", &std::io::Error::last_os_error()));
        }
        // SAFETY: `raw` is a descriptor memfd_create just opened, owned by nobody else.
        let file = File::from(unsafe { OwnedFd::from_raw_fd(raw) });
        file.set_len(len as u64)
            .map_err(|e| fd_error(raw, "size", &e))?;
        let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
        // SAFETY: F_ADD_SEALS on a descriptor we own; failure is reported, not UB.
        if unsafe { libc::fcntl(raw, libc::F_ADD_SEALS, seals) } < 0 {
            return Err(fd_error(raw, "seal", &std::io::Error::last_os_error()));
        }
        // SAFETY: a fresh anonymous file sealed against resizing: it cannot be truncated
        // under the mapping, and nobody else has it yet.
        let map = unsafe { MmapOptions::new().len(len).map_mut(&file) }
            .map_err(|e| fd_error(raw, "map", &e))?;
        Ok(SharedSegment {
            file,
            map: Some(SegmentMap::Write(map)),
            len,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn create(_len: usize) -> Result<SharedSegment> {
        Err(Error::InvalidArgument {
            what: "share_memory needs memfd_create (Linux); on this system share the bytes \
                   with a named segment and wrap it with from_fd"
                .to_string(),
        })
    }

    /// Maps all of `file` shared.
    ///
    /// # Safety
    /// Nobody truncates the file while the mapping lives (reading past its end raises
    /// `SIGBUS`).
    unsafe fn map(file: File, read_only: bool) -> Result<SharedSegment> {
        let fd = file.as_raw_fd();
        let len = file
            .metadata()
            .map_err(|e| fd_error(fd, "inspect", &e))?
            .len();
        let len = usize::try_from(len).map_err(|_| Error::OutOfRange {
            what: "from_fd: the file's length does not fit in the address space",
            value: len.to_string(),
        })?;
        let map = if len == 0 {
            None
        } else {
            let options = {
                let mut o = MmapOptions::new();
                o.len(len);
                o
            };
            Some(if read_only {
                // SAFETY: the caller promises the file is not truncated while mapped; the
                // map is read-only.
                let map = unsafe { options.map(&file) };
                SegmentMap::Read(map.map_err(|e| fd_error(fd, "map", &e))?)
            } else {
                // SAFETY: the caller promises the file is not truncated while mapped.
                let map = unsafe { options.map_mut(&file) };
                SegmentMap::Write(map.map_err(|e| {
                    fd_error(
                        fd,
                        "map read-write (open it read-write, or pass read_only)",
                        &e,
                    )
                })?)
            })
        };
        Ok(SharedSegment { file, map, len })
    }

    fn ptr(&self) -> *mut u8 {
        match &self.map {
            Some(SegmentMap::Write(m)) => m.as_ptr().cast_mut(),
            Some(SegmentMap::Read(m)) => m.as_ptr().cast_mut(),
            None => std::ptr::null_mut(),
        }
    }

    fn read_only(&self) -> bool {
        !matches!(self.map, Some(SegmentMap::Write(_)))
    }

    /// A tensor over the segment: element `[0, …, 0]` at byte `offset`, `strides` in elements
    /// (row-major when `None`). Every reachable element must lie inside the segment.
    fn tensor(
        self: Arc<Self>,
        offset: usize,
        dtype: DType,
        shape: &[i64],
        strides: Option<&[i64]>,
        read_only: bool,
    ) -> Result<Tensor> {
        let memory = ForeignMemory::within(self.ptr(), self.len, offset, shape, strides, dtype)?;
        let read_only = read_only || self.read_only();
        // SAFETY: every reachable element lies inside the mapping (checked by `within`),
        // which the owner keeps mapped until the last tensor drops; a segment that may be
        // written is mapped writable; truncation is excluded by `map`'s contract or by the
        // seals of a segment `create` made.
        Ok(unsafe { memory.wrap(Owner::keepalive(self), None, read_only) })
    }
}

impl ForeignMemory {
    /// [`ForeignMemory::check`] for a byte buffer of `len` bytes at `buffer`: element
    /// `[0, …, 0]` lies at byte `offset`, and every reachable element must lie inside the
    /// buffer (else [`Error::BufferTooSmall`], or [`Error::InvalidArgument`] when negative
    /// strides reach before its start).
    pub fn within(
        buffer: *mut u8,
        len: usize,
        offset: usize,
        shape: &[i64],
        strides: Option<&[i64]>,
        dtype: DType,
    ) -> Result<ForeignMemory> {
        let data = buffer.wrapping_add(offset);
        let memory = match ForeignMemory::check(data, shape, strides, dtype, Device::cpu()) {
            // An empty buffer (a file of length 0) has no address: say it is too small.
            Err(Error::NullPointer { numel, .. }) if buffer.is_null() => {
                return Err(Error::BufferTooSmall {
                    nbytes: len,
                    shape: shape.to_vec(),
                    dtype,
                    offset_bytes: offset,
                    needed: offset.saturating_add(numel.saturating_mul(dtype.size())),
                })
            }
            other => other?,
        };
        if memory.numel() == 0 {
            return Ok(memory);
        }
        let (low, nbytes) = memory.reach();
        let start = (low as usize).checked_sub(buffer as usize);
        let Some(start) = start.filter(|_| !buffer.is_null() && offset <= len) else {
            return Err(Error::InvalidArgument {
                what: format!(
                    "shape {shape:?} with strides {strides:?} at byte offset {offset} reaches \
                     before the start of the buffer ({len} bytes); raise the offset"
                ),
            });
        };
        if start.checked_add(nbytes).is_none_or(|end| end > len) {
            return Err(Error::BufferTooSmall {
                nbytes: len,
                shape: shape.to_vec(),
                dtype,
                offset_bytes: offset,
                needed: start.saturating_add(nbytes),
            });
        }
        Ok(memory)
    }
}

impl Tensor {
    /// This tensor's values in an anonymous shared-memory segment (`memfd`), which another
    /// process can map through the segment's descriptor (see [`Tensor::shared_region`]): a
    /// contiguous copy, or this tensor itself when it is already shared. The segment is
    /// freed when the last tensor over it, in every process, is gone.
    ///
    /// Errors on device tensors (move them with `.to(Device::cpu())` first) and where
    /// `memfd_create` is missing (non-Linux).
    pub fn share_memory(&self) -> Result<Tensor> {
        if self.is_shared() {
            return Ok(self.clone());
        }
        if !self.device().is_cpu() {
            return Err(Error::UnsupportedOnDevice {
                op: "share_memory".to_string(),
                device: self.device(),
                what: "device memory (shared segments are host memory)".to_string(),
            });
        }
        let src = self.contiguous()?;
        let nbytes = src.numel() * src.dtype().size();
        let segment = Arc::new(SharedSegment::create(nbytes)?);
        if nbytes > 0 {
            // SAFETY: `src` is contiguous host memory of `nbytes` initialised bytes; the
            // segment is a fresh writable mapping of at least `nbytes` that nothing else
            // references yet, so the ranges cannot overlap.
            unsafe { std::ptr::copy_nonoverlapping(src.data_ptr(), segment.ptr(), nbytes) };
        }
        segment.tensor(0, self.dtype(), &dims_i64(self.shape()), None, false)
    }

    /// Whether the storage is a shared segment (from [`Tensor::share_memory`] or
    /// [`Tensor::from_fd`]).
    pub fn is_shared(&self) -> bool {
        self.storage()
            .keepalive_as::<Arc<SharedSegment>>()
            .is_some()
    }

    /// The segment under a shared tensor and where its elements lie in it; `None` if the
    /// tensor is not shared.
    pub fn shared_region(&self) -> Option<SharedRegion> {
        let segment = self.storage().keepalive_as::<Arc<SharedSegment>>()?;
        Some(SharedRegion {
            fd: segment.file.as_raw_fd(),
            segment_len: segment.len,
            offset: self.data_ptr() as usize - segment.ptr() as usize,
            read_only: segment.read_only() || !self.storage().is_writable(),
        })
    }

    /// Maps the whole file or shared-memory segment `fd` (`MAP_SHARED`; the descriptor is
    /// duplicated, so the caller may close theirs) and views `shape` elements of `dtype`
    /// with element `[0, …, 0]` at byte `offset` and `strides` in elements (row-major when
    /// `None`). Writes through the tensor reach the file and every other process mapping
    /// it. `read_only` maps it read-only (needed for a descriptor opened read-only).
    ///
    /// # Safety
    /// Nobody truncates the file while any tensor over it lives (reading past the end of a
    /// mapped file raises `SIGBUS`), and nobody writes the elements while a runtime
    /// operation reads them.
    pub unsafe fn from_fd(
        fd: BorrowedFd<'_>,
        offset: u64,
        dtype: DType,
        shape: &[i64],
        strides: Option<&[i64]>,
        read_only: bool,
    ) -> Result<Tensor> {
        let raw = fd.as_raw_fd();
        let file = File::from(
            fd.try_clone_to_owned()
                .map_err(|e| fd_error(raw, "duplicate", &e))?,
        );
        let offset = usize::try_from(offset).map_err(|_| Error::OutOfRange {
            what: "from_fd: byte offset",
            value: offset.to_string(),
        })?;
        // SAFETY: the caller's contract is `map`'s.
        let segment = Arc::new(unsafe { SharedSegment::map(file, read_only)? });
        segment.tensor(offset, dtype, shape, strides, read_only)
    }
}

impl Tensor {
    /// When the elements fill their span exactly, each once (row-major, or any permutation
    /// or flip of it, such as `t.T`): the span's bytes as a 1-D `UInt8` view of the same
    /// storage, and the element offset of element `[0, …, 0]` from the span's start. `None`
    /// for empty tensors and for views with gaps or repeats (steps, broadcasts), which a
    /// sender compacts first. Pickling sends these bytes with the strides, so a transposed
    /// tensor arrives transposed.
    pub fn dense_span(&self) -> Option<(Tensor, usize)> {
        let (lo, _) = self.layout().element_range()?;
        let mut dims: Vec<(usize, usize)> = self
            .shape()
            .iter()
            .zip(self.strides())
            .filter(|(&d, _)| d > 1)
            .map(|(&d, &s)| (s.unsigned_abs(), d))
            .collect();
        dims.sort_unstable();
        let mut expected = 1usize;
        for (stride, size) in dims {
            if stride != expected {
                return None;
            }
            expected *= size;
        }
        let size = self.dtype().size();
        let layout = crate::Layout::contiguous(&[self.numel() * size], 1)
            .ok()?
            .with_offset(lo * size);
        let bytes = Tensor::from_parts(self.storage().clone(), layout, DType::UInt8);
        Some((bytes, self.storage_offset() - lo))
    }
}
