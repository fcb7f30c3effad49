//! `serde` support (feature `serde`): a tensor serialises as a struct of its `shape`, its
//! `dtype` (the short name, `"float32"`) and `data`, the row-major elements as
//! little-endian bytes. Any layout or device serialises (it is gathered first); a
//! deserialised tensor is a fresh contiguous host tensor.
//!
//! ```
//! use clika_rt::Tensor;
//! let t = Tensor::try_from([[1.5f32, 2.0], [3.0, 4.0]])?;
//! let json = serde_json::to_string(&t.t()).unwrap();
//! let back: Tensor = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.shape(), &[2, 2]);
//! assert_eq!(back.to_vec::<f32>()?, [1.5, 3.0, 2.0, 4.0]);
//! # Ok::<(), clika_rt::Error>(())
//! ```

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Tensor;
use crate::DType;

const FIELDS: &[&str] = &["shape", "dtype", "data"];

/// Native-order bytes to little-endian (or back): a no-op on little-endian targets.
fn swap_to_le(bytes: &mut [u8], size: usize) {
    if cfg!(target_endian = "big") {
        for chunk in bytes.chunks_mut(size) {
            chunk.reverse();
        }
    }
}

struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl Serialize for Tensor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let host = self
            .to(crate::Device::cpu())
            .and_then(|t| t.contiguous())
            .map_err(serde::ser::Error::custom)?;
        let n = host.numel() * host.dtype().size();
        let mut bytes = if n == 0 {
            Vec::new()
        } else {
            // SAFETY: a contiguous host tensor's `n` bytes from `data_ptr` are its elements,
            // initialised and in bounds (L3); they are copied out at once.
            unsafe { std::slice::from_raw_parts(host.const_data_ptr(), n) }.to_vec()
        };
        swap_to_le(&mut bytes, host.dtype().size());
        let mut st = s.serialize_struct("Tensor", 3)?;
        st.serialize_field("shape", host.shape())?;
        st.serialize_field("dtype", host.dtype().short_name())?;
        st.serialize_field("data", &Bytes(&bytes))?;
        st.end()
    }
}

struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes or a sequence of bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ByteBuf, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(ByteBuf(out))
            }
        }
        d.deserialize_byte_buf(V)
    }
}

impl<'de> Deserialize<'de> for Tensor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tensor;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tensor (shape, dtype, data)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tensor, A::Error> {
                let missing = |i| de::Error::invalid_length(i, &self);
                let shape: Vec<usize> = seq.next_element()?.ok_or_else(|| missing(0))?;
                let dtype: String = seq.next_element()?.ok_or_else(|| missing(1))?;
                let data: ByteBuf = seq.next_element()?.ok_or_else(|| missing(2))?;
                build(shape, &dtype, data.0)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tensor, A::Error> {
                let (mut shape, mut dtype, mut data) = (None, None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "shape" => shape = Some(map.next_value::<Vec<usize>>()?),
                        "dtype" => dtype = Some(map.next_value::<String>()?),
                        "data" => data = Some(map.next_value::<ByteBuf>()?.0),
                        other => return Err(de::Error::unknown_field(other, FIELDS)),
                    }
                }
                build(
                    shape.ok_or_else(|| de::Error::missing_field("shape"))?,
                    &dtype.ok_or_else(|| de::Error::missing_field("dtype"))?,
                    data.ok_or_else(|| de::Error::missing_field("data"))?,
                )
            }
        }
        d.deserialize_struct("Tensor", FIELDS, V)
    }
}

fn build<E: de::Error>(shape: Vec<usize>, dtype: &str, mut data: Vec<u8>) -> Result<Tensor, E> {
    let dtype: DType = dtype.parse().map_err(E::custom)?;
    // Checked before allocating, so a forged shape cannot ask for a huge buffer.
    let numel = crate::layout::checked_numel(&shape);
    if numel.and_then(|n| n.checked_mul(dtype.size())) != Some(data.len()) {
        return Err(E::custom(format!(
            "data has {} bytes but shape {shape:?} of {dtype} needs numel x {}",
            data.len(),
            dtype.size()
        )));
    }
    swap_to_le(&mut data, dtype.size());
    Tensor::from_bytes(&data, &shape, dtype).map_err(E::custom)
}
