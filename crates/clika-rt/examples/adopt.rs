//! The specification's `adopt.cpp` in Rust: hand ownership over with a deleter.

use clika_rt::{ops, DType, Tensor};

const COUNT: usize = 8; // elements in the caller-owned buffer

fn main() -> clika_rt::Result<()> {
    let buf: Box<[f32]> = (0..COUNT).map(|i| i as f32).collect();
    let ptr = Box::into_raw(buf).cast::<f32>();
    {
        // SAFETY: `ptr` owns `COUNT` initialised floats; the tensor takes that ownership and
        // the deleter rebuilds and drops the very box `into_raw` gave up, exactly once.
        let adopted = unsafe {
            Tensor::from_blob_adopted(ptr.cast(), &[COUNT], DType::Float32, |p| {
                println!("deleter: buffer released");
                // SAFETY: `p` is the pointer `Box::into_raw` returned for `COUNT` floats.
                drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    p.cast::<f32>(),
                    COUNT,
                )));
            })?
        };
        println!(
            "mean = {}",
            clika_rt::tensor::format_g(ops::mean(&adopted)?.item::<f64>()?)
        );
        println!("leaving the tensor's scope...");
    }
    println!("scope closed");
    Ok(())
}
