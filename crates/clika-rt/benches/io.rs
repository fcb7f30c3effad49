//! Opening a safetensors file: `load_safetensors` of a 1 GiB file of 16 float32 tensors
//! (sparse on disk: the tensors are views that read nothing until used), so the figure is
//! the header's parse and validation, the mapping and the 16 views. Python's `make bench`
//! row "load 1024 MiB safetensors" measures the same call beside numpy's and PyTorch's
//! loaders. Run with `make bench` (or `cargo bench -p clika-rt --bench io`).

use std::fs::File;
use std::hint::black_box;
use std::io::Write;

use clika_rt::io::load_safetensors;
use criterion::{criterion_group, criterion_main, Criterion};

/// A sparse safetensors file of `count` float32 tensors of `rows`×1024 elements each.
fn write_file(path: &std::path::Path, count: usize, rows: usize) {
    let bytes = rows * 1024 * 4;
    let entries: Vec<String> = (0..count)
        .map(|i| {
            format!(
                r#""layers.{i}.weight":{{"dtype":"F32","shape":[{rows},1024],"data_offsets":[{},{}]}}"#,
                i * bytes,
                (i + 1) * bytes
            )
        })
        .collect();
    let mut header = format!("{{{}}}", entries.join(","));
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let mut f = File::create(path).unwrap();
    f.write_all(&(header.len() as u64).to_le_bytes()).unwrap();
    f.write_all(header.as_bytes()).unwrap();
    f.set_len((8 + header.len() + count * bytes) as u64)
        .unwrap();
}

fn open_safetensors(c: &mut Criterion) {
    let path = std::env::temp_dir().join(format!("clika-bench-{}.safetensors", std::process::id()));
    write_file(&path, 16, 16384);
    c.bench_function("load_safetensors/1GiB_16_tensors", |b| {
        // SAFETY: nothing writes or truncates the file while the tensors live (each
        // iteration drops them before the next).
        b.iter(|| black_box(unsafe { load_safetensors(&path) }.unwrap()))
    });
    std::fs::remove_file(&path).ok();
}

criterion_group!(benches, open_safetensors);
criterion_main!(benches);
