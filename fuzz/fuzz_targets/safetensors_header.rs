//! Arbitrary bytes as a safetensors file: loading (copied, so the file can be rewritten
//! each run) must return tensors or an error, never crash; every tensor it returns must be
//! fully readable.
#![no_main]

use std::sync::OnceLock;

use clika_rt::{io, DType};
use libfuzzer_sys::fuzz_target;

fn path() -> &'static std::path::Path {
    static PATH: OnceLock<std::path::PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("clika-fuzz-{}.safetensors", std::process::id())))
}

fuzz_target!(|data: &[u8]| {
    // Mostly well-formed-looking input: a length prefix that matches a JSON header.
    let mut bytes = Vec::with_capacity(data.len() + 8);
    if data.first().is_some_and(|b| b % 2 == 0) && data.len() > 1 {
        let header_len = (data.len() - 1).min(u16::from_le_bytes([data[0], *data.get(1).unwrap_or(&0)]) as usize);
        bytes.extend_from_slice(&(header_len as u64).to_le_bytes());
        bytes.extend_from_slice(&data[1..]);
    } else {
        bytes.extend_from_slice(data);
    }
    if std::fs::write(path(), &bytes).is_err() {
        return;
    }
    if let Ok(tensors) = io::load_safetensors_copied(path()) {
        for (_, t) in tensors {
            let _ = t.to_dtype(DType::Float64).and_then(|f| f.to_vec::<f64>());
        }
    }
});
