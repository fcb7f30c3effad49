//! Chapter 05 — a custom operator: your kernel, called by name like a built-in op.
//!
//! An operator is a *rule* (the output's shape and dtype, from the inputs') and a *kernel*.
//! The kernel reads its inputs in place (read-only: a borrowed input cannot be written) and
//! produces the output either in memory the runtime allocated from its pool, or in a buffer
//! it allocated itself and hands back with `from_blob_adopted` and a deleter — the way the
//! custom-operator guide (`docs/custom-operators.md`) returns a hand-written kernel's output.

use std::sync::atomic::{AtomicUsize, Ordering};

use clika_rt::ops::{self, Output, TensorSpec};
use clika_rt::{DType, Error, ErrorKind, Result, Tensor};

static RELEASED: AtomicUsize = AtomicUsize::new(0);

/// One Float32 input; the output has its shape and dtype.
fn one_f32(inputs: &[TensorSpec]) -> Result<TensorSpec> {
    match inputs {
        [x] if x.dtype == DType::Float32 => Ok(x.clone()),
        _ => Err(Error::Operator {
            op: "demo".into(),
            kind: ErrorKind::InvalidArgument,
            message: "takes one Float32 tensor".into(),
        }),
    }
}

/// softsign(x) = x / (1 + |x|), written into pooled memory.
fn softsign(inputs: &[Tensor], out: &mut Output) -> Result<()> {
    let x = inputs[0].contiguous()?;
    for (o, v) in out
        .pooled_slice::<f32>()?
        .iter_mut()
        .zip(x.as_slice::<f32>()?)
    {
        *o = v / (1.0 + v.abs());
    }
    Ok(())
}

/// The running sum of the input, in a buffer the kernel allocates and hands over.
fn cumsum(inputs: &[Tensor], out: &mut Output) -> Result<()> {
    let x = inputs[0].contiguous()?;
    let mut acc = 0.0f32;
    let sums: Box<[f32]> = x
        .as_slice::<f32>()?
        .iter()
        .map(|v| {
            acc += v;
            acc
        })
        .collect();
    let n = sums.len();
    let data = Box::into_raw(sums).cast::<f32>();
    let deleter = move |p: *mut u8| {
        RELEASED.fetch_add(1, Ordering::SeqCst);
        // SAFETY: `p` is `data`, a boxed slice of `n` floats; the runtime calls this once.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), n)) });
    };
    let shape = out.spec().shape.clone();
    // SAFETY: `data` holds `n` initialised floats (the spec's element count) that only the
    // deleter frees.
    out.set(unsafe { Tensor::from_blob_adopted(data.cast(), &shape, DType::Float32, deleter)? });
    Ok(())
}

fn main() -> Result<()> {
    println!("-- register: a rule and a kernel under a name");
    ops::register("demo.softsign", one_f32, softsign)?;
    ops::register("demo.cumsum", one_f32, cumsum)?;
    println!(
        "registered: {}",
        ops::registered()
            .iter()
            .filter(|n| n.starts_with("demo."))
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    );

    println!("-- call by name");
    let mut frame = vec![-1.0f32, 0.0, 3.0, 1.0];
    let before = frame.clone();
    // SAFETY: `frame` outlives `x` and is not touched while `x` lives.
    let x = unsafe { Tensor::from_blob(frame.as_mut_ptr().cast(), &[4], DType::Float32)? };
    println!("softsign(x) = {}", ops::call("demo.softsign", &[&x])?);
    {
        let c = ops::call("demo.cumsum", &[&x])?;
        println!("cumsum(x) = {c} (adopted: the kernel's own buffer)");
        let tail = c.narrow(0, 2, 2)?;
        drop(c);
        println!(
            "output dropped, a view lives: deleter calls = {}",
            RELEASED.load(Ordering::SeqCst)
        );
        drop(tail);
    }
    println!(
        "last view dropped: deleter calls = {}",
        RELEASED.load(Ordering::SeqCst)
    );
    drop(x);
    println!(
        "the borrowed input is unchanged: {}",
        if frame == before { "yes" } else { "no" }
    );

    println!("-- errors are ordinary errors");
    let t = Tensor::zeros(&[2], DType::Float32)?;
    match ops::call("demo.softsign", &[&t, &t]) {
        Ok(_) => println!("unexpected: two inputs accepted"),
        Err(_) => println!("two inputs: refused by the rule"),
    }
    match ops::call("demo.nope", &[&t]) {
        Ok(_) => println!("unexpected: an unknown name ran"),
        Err(_) => println!("unknown name: refused"),
    }
    ops::unregister("demo.softsign");
    ops::unregister("demo.cumsum");
    println!(
        "unregistered: {} left",
        ops::registered()
            .iter()
            .filter(|n| n.starts_with("demo."))
            .count()
    );
    Ok(())
}
