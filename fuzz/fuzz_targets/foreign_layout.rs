//! Foreign descriptors (shape, strides, dtype, as C, Python and DLPack hand them over) over
//! a fixed buffer: `Layout::from_foreign` must accept or refuse without panicking, and when
//! the span it reports fits the buffer, a tensor made with `from_blob_strided` must read
//! every element, view and copy inside the buffer (AddressSanitizer checks the reads).
#![no_main]

use clika_rt::{DType, Layout, Tensor};
use libfuzzer_sys::fuzz_target;

const BUF_BYTES: usize = 4096;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else { return };
    let dtype = [DType::Float32, DType::Float64, DType::Int8, DType::UInt8, DType::Int16, DType::Bool]
        [usize::from(head) % 6];
    let ndim = usize::from(head >> 4) % 5;
    let words: Vec<i64> = rest
        .chunks(2)
        .map(|c| i64::from(i16::from_le_bytes([c[0], *c.get(1).unwrap_or(&0)])))
        .collect();
    if words.len() < 2 * ndim {
        return;
    }
    let shape: Vec<i64> = words[..ndim].iter().map(|&s| s % 64).collect();
    let strides: Vec<i64> = words[ndim..2 * ndim].to_vec();
    let Ok(foreign) = Layout::from_foreign(&shape, Some(&strides), dtype) else { return };
    let size = dtype.size();
    if foreign.span.saturating_mul(size) > BUF_BYTES {
        return;
    }
    // A u64 buffer: aligned for every dtype; Bool bytes are normalised on read.
    let mut buf = vec![0x0101_0101_0101_0101u64; BUF_BYTES / 8];
    let base = buf.as_mut_ptr().cast::<u8>();
    // SAFETY: the lowest reachable element is `offset` elements below `data`, and the span
    // fits the buffer (checked), which outlives the tensor.
    let t = unsafe {
        let data = base.add(foreign.layout.offset() * size);
        let shape: Vec<usize> = foreign.layout.shape().to_vec();
        let strides: Vec<isize> = foreign.layout.strides().to_vec();
        Tensor::from_blob_strided(data, &shape, &strides, dtype)
    };
    let Ok(t) = t else { return };
    let _ = t.contiguous().and_then(|c| c.sum());
    let _ = t.to_dtype(DType::Float64).and_then(|f| f.to_vec::<f64>());
    if t.ndim() >= 2 {
        let _ = t.transpose(0, 1).and_then(|v| v.contiguous());
    }
    drop(t);
});
