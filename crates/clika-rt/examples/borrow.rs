//! The specification's `borrow.cpp` in Rust: borrow a buffer and compute on it.

use clika_rt::{ops, DType, Tensor};

fn main() -> clika_rt::Result<()> {
    let mut buf = vec![1.0f32; 8]; // memory the application owns

    // SAFETY: `buf` outlives `view`, is not reallocated while `view` lives, and is only
    // written between ops, never during one.
    let view = unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[8], DType::Float32)? };
    let shares = view.const_data_ptr() == buf.as_ptr().cast();
    println!(
        "shares memory: {}",
        if shares { "yes (no copy)" } else { "no" }
    );
    println!(
        "sum = {}",
        clika_rt::tensor::format_g(ops::sum(&view)?.item::<f64>()?)
    );

    // Write through the buffer (a raw pointer keeps the write visible to the tensor without
    // invalidating its pointer)...
    // SAFETY: element 0 of `buf` is in bounds and no op is running.
    unsafe { buf.as_mut_ptr().write(100.0) };
    println!(
        "sum after buf[0] = 100: {}",
        clika_rt::tensor::format_g(ops::sum(&view)?.item::<f64>()?)
    );
    Ok(())
}
