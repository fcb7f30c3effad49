//! The safetensors header, read in one pass. The `safetensors` crate's own reader keeps the
//! last of two equal keys (a JSON map), so a file naming a tensor twice would silently load
//! one of two different descriptions; it also buffers the whole header through serde's
//! `flatten`. Here the header's entries are read once, in order, into the crate's own
//! [`TensorInfo`]s, a repeated name is refused, and the crate's [`Metadata::new`] validates
//! the result (sizes, offsets that tile the data from 0) as its reader would.

use std::collections::{HashMap, HashSet};
use std::fmt;

use safetensors::tensor::{Metadata, TensorInfo};
use serde::de::{Deserializer, MapAccess, Visitor};

/// Bytes of the little-endian header length that opens a safetensors file.
pub(super) const HEADER_LEN_BYTES: usize = 8;

/// The largest header accepted (the `safetensors` crate's limit).
const MAX_HEADER_BYTES: usize = 100_000_000;

/// The name of the optional string-to-string map beside the tensors.
const METADATA_KEY: &str = "__metadata__";

/// The header of the safetensors file whose bytes are `file`: its length in bytes and its
/// validated metadata, or why the file is not a valid safetensors file.
pub(super) fn read(file: &[u8]) -> Result<(usize, Metadata), String> {
    let Some(prefix) = file.first_chunk::<HEADER_LEN_BYTES>() else {
        return Err(format!("the file has {} bytes", file.len()));
    };
    let n = u64::from_le_bytes(*prefix);
    let header = usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_HEADER_BYTES)
        .ok_or_else(|| {
            format!("the header length {n} is over the limit of {MAX_HEADER_BYTES} bytes")
        })?;
    let bytes = file
        .get(HEADER_LEN_BYTES..HEADER_LEN_BYTES + header)
        .ok_or_else(|| {
            format!(
                "the header length {header} runs past the end of the file ({} bytes)",
                file.len()
            )
        })?;
    let entries = serde_json::Deserializer::from_slice(bytes)
        .deserialize_map(EntriesVisitor)
        .map_err(|e| format!("the header is not valid: {e}"))?;
    let mut tensors = entries.tensors;
    let mut names = HashSet::with_capacity(tensors.len());
    if let Some((name, _)) = tensors
        .iter()
        .find(|(name, _)| !names.insert(name.as_str()))
    {
        return Err(format!(
            "the header names {name:?} twice; each tensor must appear once (rewrite the file with one entry per name)"
        ));
    }
    if entries.metadata_twice {
        return Err(format!(
            "the header names {METADATA_KEY:?} twice; it must appear at most once"
        ));
    }
    tensors.sort_by_key(|(_, info)| info.data_offsets);
    // `Metadata::new` checks that the offsets tile the data from 0, so the last one ends it.
    let data = tensors.last().map_or(0, |(_, info)| info.data_offsets.1);
    let metadata = Metadata::new(entries.metadata, tensors).map_err(|e| e.to_string())?;
    let expected = HEADER_LEN_BYTES + header;
    if expected.checked_add(data) != Some(file.len()) {
        return Err(format!(
            "the header describes {data} bytes of data after its {expected}, but the file has {} bytes",
            file.len()
        ));
    }
    Ok((header, metadata))
}

/// The header's entries in file order.
#[derive(Default)]
struct Entries {
    metadata: Option<HashMap<String, String>>,
    metadata_twice: bool,
    tensors: Vec<(String, TensorInfo)>,
}

struct EntriesVisitor;

impl<'de> Visitor<'de> for EntriesVisitor {
    type Value = Entries;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object of tensor entries")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
        let mut entries = Entries::default();
        while let Some(key) = map.next_key::<String>()? {
            if key == METADATA_KEY {
                let value = map.next_value::<Option<HashMap<String, String>>>()?;
                entries.metadata_twice |= entries.metadata.is_some();
                entries.metadata = value;
            } else {
                let info = map.next_value::<TensorInfo>()?;
                entries.tensors.push((key, info));
            }
        }
        Ok(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    fn file(header: &str, data: usize) -> Vec<u8> {
        let mut f = (header.len() as u64).to_le_bytes().to_vec();
        f.extend_from_slice(header.as_bytes());
        f.resize(f.len() + data, 0);
        f
    }

    #[test]
    fn reads_entries_and_metadata() {
        let h = r#"{"__metadata__": {"k": "v"}, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}, "a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]}}"#;
        let (len, m) = read(&file(h, 12)).unwrap();
        assert_eq!(len, h.len());
        assert_eq!(m.offset_keys(), ["a", "b"]);
        assert_eq!(m.metadata().as_ref().unwrap()["k"], "v");
    }

    #[test]
    fn refuses_what_the_format_forbids() {
        let one = r#""a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}"#;
        let err = |h: &str, data| read(&file(h, data)).unwrap_err();
        assert!(err(&format!("{{{one}, {one}}}"), 4).contains("\"a\" twice"));
        assert!(err(&format!("{{{one}}}"), 5).contains("the file has"));
        assert!(err(&format!("{{{one}}}"), 3).contains("the file has"));
        assert!(err("[1, 2]", 0).contains("not valid"));
        assert!(err(
            r#"{"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}"#,
            4
        )
        .contains("invalid shape"));
        assert!(read(&[1, 0]).unwrap_err().contains("2 bytes"));
        let mut long = file("{}", 0);
        long[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(read(&long).unwrap_err().contains("over the limit"));
        long[..8].copy_from_slice(&100u64.to_le_bytes());
        assert!(read(&long).unwrap_err().contains("past the end"));
    }
}
