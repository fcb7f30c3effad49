//! `CLIKA_RT_CPU_MEMORY_LIMIT` caps the CPU pool when it is created. One test function: the
//! variable must be set before anything in this binary allocates.
#![cfg(not(miri))]

use clika_rt::device::memory_stats;
use clika_rt::memory::CPU_MEMORY_LIMIT_ENV;
use clika_rt::{DType, Device, ErrorKind, Tensor};

#[test]
fn env_var_sets_the_cpu_limit() {
    std::env::set_var(CPU_MEMORY_LIMIT_ENV, "8MiB");
    assert_eq!(memory_stats(Device::cpu()).limit_bytes, Some(8 << 20));
    let err = Tensor::zeros(&[4 << 20], DType::Float32).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfMemory);
    assert!(Tensor::zeros(&[1 << 20], DType::Float32).is_ok());
}
