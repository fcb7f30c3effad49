//! `load_safetensors`: every tensor of a safetensors file as a view into one mapping.

use std::path::Path;
use std::sync::Arc;

use safetensors::tensor::{Metadata, TensorInfo};
use safetensors::Dtype;

use super::header::{self, HEADER_LEN_BYTES};
use super::mapped::{open, Mapping};
use crate::{DType, Error, Result, Tensor};

/// Loads every tensor of the safetensors file `path`, in file order (by data offset), as
/// `(name, tensor)` pairs, without reading or copying the data.
///
/// The file is mapped read-only once; each tensor is a view into that one mapping, which
/// stays mapped until the last tensor (or clone or view) drops, however long after the
/// returned `Vec`. The header is read once and validated by the `safetensors` crate's `Metadata` (sizes,
/// contiguous in-bounds offsets) and against the file's length; a name given twice is refused. Dtypes `F32 F64 F16 BF16 I8 I16 I32 I64
/// U8 U16 U32 U64 BOOL` are supported; any other gives [`Error::UnsupportedFileDType`]. The tensors are
/// read-only.
///
/// The format does not align tensors: a tensor whose bytes are not aligned for its dtype
/// (possible when a tensor with an odd byte length precedes it) cannot be viewed soundly, so
/// it is **copied** into runtime memory (its [`owner_kind`](Tensor::owner_kind) is then
/// `Pool` instead of `Keepalive`). Files written by the reference implementations align every
/// tensor and are never copied.
///
/// # Safety
/// The [mapping contract](crate::io#the-mapping-contract): nobody truncates or writes the
/// file while any of the tensors is alive.
pub unsafe fn load_safetensors(path: impl AsRef<Path>) -> Result<Vec<(String, Tensor)>> {
    // SAFETY: the caller upholds the mapping contract.
    unsafe { load(path.as_ref(), false) }
}

/// [`load_safetensors`] without a mapping: the whole file is **read** into one block of
/// runtime memory (counted by the CPU pool) and the tensors are read-only views into it, so
/// a file truncated or rewritten afterwards cannot affect them or raise `SIGBUS`; safe for
/// that reason. Costs one read of the file (page-cache bandwidth) and its size in memory.
pub fn load_safetensors_copied(path: impl AsRef<Path>) -> Result<Vec<(String, Tensor)>> {
    // SAFETY: `copy = true` reads the file and maps nothing, so no contract applies.
    unsafe { load(path.as_ref(), true) }
}

/// `load_safetensors` / `load_safetensors_copied`.
///
/// # Safety
/// Unless `copy`, the mapping contract.
unsafe fn load(path: &Path, copy: bool) -> Result<Vec<(String, Tensor)>> {
    if cfg!(target_endian = "big") {
        return Err(format_error(path, "safetensors data is little-endian"));
    }
    let (file, file_len) = open(path)?;
    let len = usize::try_from(file_len)
        .ok()
        .filter(|&l| l >= HEADER_LEN_BYTES)
        .ok_or_else(|| format_error(path, format!("the file has {file_len} bytes")))?;
    let mapping = if copy {
        Mapping::read(&file, 0, len, path)?
    } else {
        // SAFETY: the caller upholds the mapping contract.
        unsafe { Mapping::new(&file, 0, len, path) }?
    };
    let (header, metadata) = header::read(mapping.bytes()).map_err(|e| format_error(path, e))?;
    let data_start = HEADER_LEN_BYTES + header;
    metadata
        .offset_keys()
        .into_iter()
        .map(|name| {
            let tensor = load_one(&mapping, &metadata, &name, data_start, path)?;
            Ok((name, tensor))
        })
        .collect()
}

/// The tensor `name`: a view into the mapping, or a copy when its bytes are misaligned.
fn load_one(
    mapping: &Arc<Mapping>,
    metadata: &Metadata,
    name: &str,
    data_start: usize,
    path: &Path,
) -> Result<Tensor> {
    let info: &TensorInfo = metadata
        .info(name)
        .ok_or_else(|| format_error(path, format!("tensor {name:?} has no entry")))?;
    let dtype = runtime_dtype(info.dtype).ok_or_else(|| Error::UnsupportedFileDType {
        path: path.display().to_string(),
        tensor: name.to_string(),
        dtype: format!("{:?}", info.dtype),
    })?;
    // `header::read` checked that the offsets tile the data and end at the file's end.
    let (begin, end) = info.data_offsets;
    let start = data_start + begin;
    let aligned = (mapping.bytes().as_ptr() as usize + start).is_multiple_of(dtype.size());
    if aligned {
        mapping.tensor(start, &info.shape, dtype)
    } else {
        let bytes = &mapping.bytes()[start..data_start + end];
        Tensor::from_bytes(bytes, &info.shape, dtype)
    }
}

/// The runtime's dtype for a safetensors dtype, if it has one.
fn runtime_dtype(dtype: Dtype) -> Option<DType> {
    Some(match dtype {
        Dtype::F32 => DType::Float32,
        Dtype::F64 => DType::Float64,
        Dtype::F16 => DType::Float16,
        Dtype::BF16 => DType::BFloat16,
        Dtype::I8 => DType::Int8,
        Dtype::I16 => DType::Int16,
        Dtype::I32 => DType::Int32,
        Dtype::I64 => DType::Int64,
        Dtype::U8 => DType::UInt8,
        Dtype::U16 => DType::UInt16,
        Dtype::U32 => DType::UInt32,
        Dtype::U64 => DType::UInt64,
        Dtype::BOOL => DType::Bool,
        _ => return None,
    })
}

fn format_error(path: &Path, message: impl Into<String>) -> Error {
    Error::FileFormat {
        path: path.display().to_string(),
        message: message.into(),
    }
}
