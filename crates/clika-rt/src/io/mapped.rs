//! One read-only file mapping shared by the tensors over it, and `Tensor::from_file`.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use memmap2::{Mmap, MmapOptions};

use crate::error::dims_i64;
use crate::layout::Layout;
use crate::storage::Owner;
use crate::{DType, Device, Error, ForeignMemory, Result, Tensor};

/// A read-only mapping of (part of) a file, or a private copy of it read into pool memory.
/// Shared through an `Arc` by every tensor over it; unmapped (or returned to the pool) when
/// the last one drops.
#[derive(Debug)]
pub(crate) struct Mapping {
    backing: Backing,
}

#[derive(Debug)]
enum Backing {
    Map(Mmap),
    /// `len` bytes read from the file into a pool block: immune to later changes of the file
    /// (no `SIGBUS`). Its tensors are read-only too, as over a mapping.
    Copy(crate::memory::Block, usize),
}

impl Mapping {
    /// Maps `len` bytes of `file` from byte `offset` read-only.
    ///
    /// # Safety
    /// The mapping contract of the [module](crate::io): nobody truncates or writes the file
    /// while the mapping lives.
    pub(crate) unsafe fn new(
        file: &File,
        offset: u64,
        len: usize,
        path: &Path,
    ) -> Result<Arc<Self>> {
        let options = {
            let mut o = MmapOptions::new();
            o.offset(offset).len(len);
            o
        };
        // SAFETY: the caller upholds the mapping contract (the file is not modified or
        // truncated while mapped); the map is read-only, so the runtime never writes it.
        let map = unsafe { options.map(file) }.map_err(|e| file_error(path, "map", &e))?;
        Ok(Arc::new(Mapping {
            backing: Backing::Map(map),
        }))
    }

    /// Reads `len` bytes of `file` from byte `offset` into runtime memory (a private copy,
    /// counted by the CPU pool). A file that shrank meanwhile is an error, never a `SIGBUS`.
    pub(crate) fn read(file: &File, offset: u64, len: usize, path: &Path) -> Result<Arc<Self>> {
        use std::io::{Read, Seek, SeekFrom};
        let block = crate::memory::allocate(Device::cpu(), len.max(1), false)?;
        // SAFETY: the block holds `len` initialised bytes (pool memory always is), exclusively
        // ours until it is moved into the mapping below.
        let bytes = unsafe { std::slice::from_raw_parts_mut(block.as_ptr(), len) };
        let mut reader = file;
        reader
            .seek(SeekFrom::Start(offset))
            .and_then(|_| reader.read_exact(bytes))
            .map_err(|e| file_error(path, "read", &e))?;
        Ok(Arc::new(Mapping {
            backing: Backing::Copy(block, len),
        }))
    }

    /// The mapped bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.backing {
            Backing::Map(map) => map,
            // SAFETY: the block holds `len` initialised bytes for as long as `self` lives, and
            // nothing writes it after `read` (its tensors are read-only).
            Backing::Copy(block, len) => unsafe {
                std::slice::from_raw_parts(block.as_ptr(), *len)
            },
        }
    }

    /// A read-only tensor over `range` of the mapping, which keeps the mapping alive.
    /// `range` must lie inside the mapping and be aligned for `dtype` (checked).
    pub(crate) fn tensor(
        self: &Arc<Self>,
        start: usize,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Tensor> {
        let nbytes = Layout::contiguous(shape, dtype.size())?.numel() * dtype.size();
        let len = self.bytes().len();
        let end = start.checked_add(nbytes).filter(|&e| e <= len);
        if end.is_none() {
            return Err(Error::BufferTooSmall {
                nbytes: len,
                shape: dims_i64(shape),
                dtype,
                offset_bytes: start,
                needed: start.saturating_add(nbytes),
            });
        }
        let ptr = self.bytes().as_ptr().wrapping_add(start).cast_mut();
        let memory = ForeignMemory::contiguous(ptr, shape, dtype, Device::cpu())?;
        // SAFETY: `start..start + nbytes` lies inside the mapping or the private copy
        // (checked), whose bytes stay readable and initialised for as long as the `Arc` the
        // owner holds lives; the storage is read-only, so nothing writes through `ptr`.
        // External writes to a mapped file are excluded by the mapping contract the caller
        // of `Mapping::new` accepted.
        Ok(unsafe { memory.wrap(Owner::keepalive(Arc::clone(self)), None, true) })
    }
}

/// Opens `path` for reading, with its length.
pub(crate) fn open(path: &Path) -> Result<(File, u64)> {
    let file = File::open(path).map_err(|e| file_error(path, "open", &e))?;
    let len = file
        .metadata()
        .map_err(|e| file_error(path, "inspect", &e))?
        .len();
    Ok((file, len))
}

/// An [`Error::File`] for `path`.
pub(crate) fn file_error(path: &Path, action: &'static str, e: &std::io::Error) -> Error {
    Error::File {
        path: path.display().to_string(),
        action,
        message: e.to_string(),
    }
}

impl Tensor {
    /// Maps `shape` elements of `dtype` stored row-major at byte `offset` of the raw binary
    /// file `path`, read-only and without copying: the bytes are read when used.
    ///
    /// Errors: the file cannot be opened or mapped ([`Error::File`]); the range lies past the
    /// end of the file ([`Error::FileRange`]); `offset` is not a multiple of the dtype's size
    /// ([`Error::OutOfRange`]: pick an aligned offset, or read the bytes and use
    /// [`Tensor::from_bytes`], which copies). An empty shape maps nothing.
    ///
    /// # Safety
    /// The [mapping contract](crate::io#the-mapping-contract): nobody truncates or writes the
    /// file while the tensor, or any clone or view of it, is alive.
    pub unsafe fn from_file(
        path: impl AsRef<Path>,
        dtype: DType,
        shape: &[usize],
        offset: u64,
    ) -> Result<Tensor> {
        // SAFETY: the caller upholds the mapping contract.
        unsafe { file_tensor(path.as_ref(), dtype, shape, offset, false) }
    }

    /// [`Tensor::from_file`] without a mapping: the bytes are **read** into runtime memory
    /// (counted by the CPU pool) at once, so a file truncated or rewritten later cannot
    /// affect the tensor or raise `SIGBUS`; safe for that reason. The tensor is read-only,
    /// like a mapped one. Costs one read of the range (page-cache bandwidth) and its memory.
    pub fn from_file_copied(
        path: impl AsRef<Path>,
        dtype: DType,
        shape: &[usize],
        offset: u64,
    ) -> Result<Tensor> {
        // SAFETY: `copy = true` reads the file and maps nothing, so no contract applies.
        unsafe { file_tensor(path.as_ref(), dtype, shape, offset, true) }
    }
}

/// `from_file` / `from_file_copied`.
///
/// # Safety
/// Unless `copy`, the mapping contract.
unsafe fn file_tensor(
    path: &Path,
    dtype: DType,
    shape: &[usize],
    offset: u64,
    copy: bool,
) -> Result<Tensor> {
    let layout = Layout::contiguous(shape, dtype.size())?;
    let nbytes = layout.numel() * dtype.size();
    let (file, file_len) = open(path)?;
    let fits = offset
        .checked_add(nbytes as u64)
        .is_some_and(|end| end <= file_len);
    if !fits {
        return Err(Error::FileRange {
            path: path.display().to_string(),
            offset,
            nbytes,
            file_len,
        });
    }
    if !offset.is_multiple_of(dtype.size() as u64) {
        return Err(Error::OutOfRange {
            what: "from_file: the byte offset must be a multiple of the dtype's size",
            value: format!("{offset} (for {dtype}, {} bytes)", dtype.size()),
        });
    }
    if nbytes == 0 {
        return Tensor::empty(shape, dtype);
    }
    let mapping = if copy {
        Mapping::read(&file, offset, nbytes, path)?
    } else {
        // SAFETY: the caller upholds the mapping contract.
        unsafe { Mapping::new(&file, offset, nbytes, path) }?
    };
    mapping.tensor(0, shape, dtype)
}
