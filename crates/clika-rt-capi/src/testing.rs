//! Exports for the C and C++ tests only. Not declared in the public header (cbindgen
//! excludes them); the tests declare them themselves.

use std::ffi::c_char;

use crate::boundary::guard;
use crate::error::{crt_error, crt_status};

/// Panics inside the runtime, to prove the boundary turns it into `CRT_STATUS_INTERNAL`.
///
/// # Safety
/// `err` satisfies the header's pointer contract.
#[doc(hidden)]
#[no_mangle]
pub unsafe extern "C" fn crt_testing_panic(err: *mut *mut crt_error) -> crt_status {
    guard(err, || panic!("provoked by crt_testing_panic"))
}

/// The library version (`"0.1.0"`). The string is static: never free it.
#[no_mangle]
pub extern "C" fn crt_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// How many outputs of `rust.iota` have been released (their deleter ran).
static RUST_IOTA_RELEASED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Registers `rust.iota` (once), an operator written in Rust whose kernel hands back its own
/// buffer through `from_blob_adopted`: its output has the input's shape, Float32, holding
/// 0, 1, 2, ... Its deleter counts into `crt_testing_rust_iota_released`. Lets the C++ tests
/// call an operator registered from Rust.
///
/// # Safety
/// `err` satisfies the header's pointer contract.
#[doc(hidden)]
#[no_mangle]
pub unsafe extern "C" fn crt_testing_register_rust_iota(err: *mut *mut crt_error) -> crt_status {
    use clika_rt::ops::{self, TensorSpec};
    use clika_rt::{DType, Tensor};
    use std::sync::atomic::Ordering;
    guard(err, || {
        if ops::registered().iter().any(|n| n == "rust.iota") {
            return Ok(());
        }
        let rule = |inputs: &[TensorSpec]| {
            Ok(TensorSpec::new(
                inputs.first().map_or(&[][..], |s| &s.shape),
                DType::Float32,
            ))
        };
        ops::register("rust.iota", rule, |inputs, out| {
            let shape = out.spec().shape.clone();
            let n = inputs.first().map_or(1, Tensor::numel);
            let data = Box::into_raw((0..n).map(|i| i as f32).collect::<Box<[f32]>>());
            let deleter = move |p: *mut u8| {
                let slice = std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), n);
                // SAFETY: `p` is `data`, from `Box::into_raw` of a slice of `n` elements.
                drop(unsafe { Box::from_raw(slice) });
                RUST_IOTA_RELEASED.fetch_add(1, Ordering::SeqCst);
            };
            // SAFETY: `data` is a live boxed slice of `n` floats, freed only by the deleter.
            let t =
                unsafe { Tensor::from_blob_adopted(data.cast(), &shape, DType::Float32, deleter) }?;
            out.set(t);
            Ok(())
        })?;
        Ok(())
    })
}

/// How many `rust.iota` outputs have been released so far.
#[doc(hidden)]
#[no_mangle]
pub extern "C" fn crt_testing_rust_iota_released() -> u64 {
    RUST_IOTA_RELEASED.load(std::sync::atomic::Ordering::SeqCst)
}
