//! Chapter 02 — ops: elementwise with broadcasting, type promotion, reductions, matmul.
//!
//! Every op reads its inputs in place whatever their strides (a transposed or broadcast
//! input is never copied first) and writes a fresh result from the runtime's memory pool.

use clika_rt::ops::BinaryOp;
use clika_rt::tensor::format_g;
use clika_rt::{ops, DType, Result, Tensor};

fn main() -> Result<()> {
    let x = Tensor::from_data(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    println!("x = {x}");

    println!("-- elementwise, broadcasting like numpy");
    let row = Tensor::from_data(&[10.0f32, 20.0, 30.0], &[3])?;
    let col = Tensor::from_data(&[100.0f32, 200.0], &[2, 1])?;
    println!("x + [10, 20, 30] = {}", &x + &row);
    println!("x + [[100], [200]] = {}", &x + &col);
    println!("x * 2 - 1 = {}", &(&x * 2.0) - 1.0);
    println!("sigmoid(x - 3) = {}", ops::sigmoid(&(&x - 3.0))?);
    println!(
        "x > 3 = {}",
        ops::gt(&x, &Tensor::full(&[], 3.0, DType::Float32)?)?
    );
    let zero = Tensor::zeros(&[], DType::Float32)?;
    println!(
        "where(x > 3, x, 0) = {}",
        ops::where_(
            &ops::gt(&x, &Tensor::full(&[], 3.0, DType::Float32)?)?,
            &x,
            &zero
        )?
    );

    println!("-- type promotion (numpy/PyTorch rules; numbers are weak scalars)");
    let small = Tensor::from_data(&[1i8, 2, 3], &[3])?;
    println!("int8 + 1 = {}", small.binary_scalar(BinaryOp::Add, 1i64)?);
    println!("int8 / 2 = {}", &small / 2.0);
    println!(
        "int8 + int32 = {}",
        &small + &Tensor::from_data(&[1000i32], &[1])?
    );
    println!("to Float16 = {}", x.to_dtype(DType::Float16)?);

    println!("-- reductions");
    println!("sum = {}", format_g(x.sum()?.item::<f64>()?));
    println!("sum over dim 0 = {}", x.sum_dims(&[0], false)?);
    println!("mean over dim 1, keepdim = {}", x.mean_dims(&[1], true)?);
    println!(
        "max = {}, argmax over dim 1 = {}",
        format_g(x.max()?.item::<f64>()?),
        x.argmax_dim(1, false)?
    );
    println!("std over dim 0 = {}", x.std_dims(&[0], 1, false)?);
    println!(
        "softmax(x, dim 1) row sums = {}",
        x.softmax(1)?.sum_dims(&[1], false)?
    );

    println!("-- matmul, cat, stack");
    let w = Tensor::from_data(&[1.0f32, 0.0, 0.0, 1.0, 1.0, -1.0], &[2, 3])?;
    // x @ w^T reads the transposed view in place.
    println!("x @ w.t() = {}", x.matmul(&w.t())?);
    let batch = ops::stack(&[x.clone(), &x * 10.0], 0)?;
    println!(
        "stack([x, 10x]) shape {:?}, batched @ w.t() = {}",
        batch.shape(),
        batch.matmul(&w.t())?
    );
    println!(
        "cat([x, x], dim 1) = {}",
        ops::cat(&[x.clone(), x.clone()], 1)?
    );
    Ok(())
}
