//! Chapter 01 — tensors: create them, inspect them, take views, print them.
//!
//! A tensor is a shape and strides (in elements) over a block of storage. Views (transpose,
//! select, narrow, reshape) make a new shape and strides over the *same* storage: nothing
//! is copied until you ask for it with `contiguous()`.

use clika_rt::tensor::format_g;
use clika_rt::{DType, Result, Tensor};

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn main() -> Result<()> {
    println!("-- create");
    let a = Tensor::arange(0.0, 6.0, 1.0, DType::Float32)?.reshape(&[2, 3])?;
    println!("a = arange(6).reshape(2, 3): {a}");
    println!(
        "zeros([2, 2], Int32): {}",
        Tensor::zeros(&[2, 2], DType::Int32)?
    );
    println!(
        "full([3], 0.5): {}",
        Tensor::full(&[3], 0.5, DType::Float32)?
    );
    // from_data copies your values into memory the runtime owns.
    let d = Tensor::from_data(&[1.5f64, -2.0, 3.25], &[3])?;
    println!("from_data([1.5, -2, 3.25]): {d}");

    println!("-- inspect");
    println!(
        "a: shape {:?}, strides {:?}, numel {}, contiguous {}",
        a.shape(),
        a.strides(),
        a.numel(),
        yes(a.is_contiguous())
    );

    println!("-- views share memory");
    let at = a.t();
    println!("a.t(): {at}");
    println!(
        "a.t(): shape {:?}, strides {:?}, contiguous {}, same memory as a {}",
        at.shape(),
        at.strides(),
        yes(at.is_contiguous()),
        yes(at.data_ptr() == a.data_ptr())
    );
    println!("a[1] (select): {}", a.select(0, 1)?);
    println!("a[:, 1:] (narrow): {}", a.narrow(1, 1, 2)?);
    println!("a.reshape(3, 2): {}", a.reshape(&[3, 2])?);

    println!("-- contiguous() copies only when it must");
    let c1 = a.contiguous()?;
    let c2 = at.contiguous()?;
    println!(
        "a.contiguous() is a: {}",
        yes(c1.data_ptr() == a.data_ptr())
    );
    println!(
        "a.t().contiguous() is a copy: {}, strides {:?}: {c2}",
        yes(c2.data_ptr() != a.data_ptr()),
        c2.strides()
    );

    println!("-- scalars and long tensors");
    println!("a.sum().item() = {}", format_g(a.sum()?.item::<f64>()?));
    println!(
        "arange(100): {}",
        Tensor::arange(0.0, 100.0, 1.0, DType::Int64)?
    );
    Ok(())
}
