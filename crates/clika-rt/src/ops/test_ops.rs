//! Operators written in Rust that the C++ and Python test suites call by name, to show an
//! operator registered from Rust being called from the other languages (each front door
//! links its own copy of the core, so the registration must happen in that copy). Hidden
//! from the docs; not part of the API.

use std::sync::atomic::{AtomicU64, Ordering};

use super::registry::{register, registered, TensorSpec};
use crate::{DType, Result, Tensor};

/// How many `rust.iota` outputs have been released (their deleter ran).
pub static IOTA_RELEASED: AtomicU64 = AtomicU64::new(0);

/// Registers (once) `rust.iota`: the output has the first input's shape, Float32, holding
/// 0, 1, 2, ... in a buffer the kernel allocates and hands back with `from_blob_adopted`,
/// whose deleter counts into [`IOTA_RELEASED`]; and `rust.double`, which writes `2 * x`
/// (Float32) into the pooled output.
pub fn register_test_ops() -> Result<()> {
    if registered().iter().any(|n| n == "rust.iota") {
        return Ok(());
    }
    let first = |inputs: &[TensorSpec]| {
        let shape = inputs.first().map_or(&[][..], |s| &s.shape[..]);
        Ok(TensorSpec::new(shape, DType::Float32))
    };
    register("rust.iota", first, |_, out| {
        let shape = out.spec().shape.clone();
        let n: usize = shape.iter().product();
        let data = Box::into_raw((0..n).map(|i| i as f32).collect::<Box<[f32]>>());
        let deleter = move |p: *mut u8| {
            let slice = std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), n);
            // SAFETY: `p` is `data`, from `Box::into_raw` of a slice of `n` elements.
            drop(unsafe { Box::from_raw(slice) });
            IOTA_RELEASED.fetch_add(1, Ordering::SeqCst);
        };
        // SAFETY: `data` is a live boxed slice of `n` floats, freed only by the deleter.
        let t = unsafe { Tensor::from_blob_adopted(data.cast(), &shape, DType::Float32, deleter) }?;
        out.set(t);
        Ok(())
    })?;
    register("rust.double", first, |inputs, out| {
        let x = inputs[0].to_dtype(DType::Float32)?.contiguous()?;
        for (o, v) in out
            .pooled_slice::<f32>()?
            .iter_mut()
            .zip(x.as_slice::<f32>()?)
        {
            *o = 2.0 * v;
        }
        Ok(())
    })
}
