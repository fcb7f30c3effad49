//! Mapped files are not pool memory: a file larger than the CPU pool's limit loads and is
//! read while the limit stands. Its own test binary, since it sets the process-wide limit.
//!
//! Not under Miri: it cannot map files (only anonymous memory).
#![cfg(not(miri))]

use clika_rt::{device, io, Device, ErrorKind, Tensor};

#[test]
fn a_file_larger_than_the_pool_limit_loads() {
    let path = std::env::temp_dir().join(format!("clika-rt-limit-{}.bin", std::process::id()));
    let n = 4 << 20; // 16 MiB of f32
    let ones: Vec<u8> = std::iter::repeat_n(1.0f32.to_ne_bytes(), n)
        .flatten()
        .collect();
    let header = format!(
        "{{\"w\":{{\"dtype\":\"F32\",\"shape\":[{n}],\"data_offsets\":[0,{}]}}}}",
        n * 4
    );
    let header = format!("{header:<width$}", width = header.len().div_ceil(8) * 8);
    let file = [
        &(header.len() as u64).to_le_bytes()[..],
        header.as_bytes(),
        &ones,
    ]
    .concat();
    std::fs::write(&path, file).unwrap();
    drop(ones);

    device::set_memory_limit(Device::cpu(), Some(4 << 20)).unwrap();
    let result = std::panic::catch_unwind(|| {
        let too_big = Tensor::zeros(&[n], clika_rt::DType::Float32).unwrap_err();
        assert_eq!(
            too_big.kind(),
            ErrorKind::OutOfMemory,
            "the limit is in force"
        );
        // SAFETY: the file is not modified while its tensors live.
        let loaded = unsafe { io::load_safetensors(&path) }.unwrap();
        assert_eq!(loaded[0].1.sum().unwrap().item::<f64>().unwrap(), n as f64);
        // SAFETY: as above.
        let raw = unsafe { Tensor::from_file(&path, clika_rt::DType::UInt8, &[8], 0) }.unwrap();
        assert_eq!(raw.numel(), 8);
    });
    device::set_memory_limit(Device::cpu(), None).unwrap();
    let _ = std::fs::remove_file(&path);
    result.unwrap();
}
