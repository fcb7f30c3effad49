//! Custom operators: registration, both kernel kinds (pooled output, adopted output with a
//! deleter that runs exactly once), read-only inputs, contract checks and errors.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use clika_rt::ops::{self, Output, TensorSpec};
use clika_rt::{DType, Error, ErrorKind, OwnerKind, Result, Tensor};

fn same_spec(inputs: &[TensorSpec]) -> Result<TensorSpec> {
    match inputs {
        [one] => Ok(one.clone()),
        _ => Err(Error::OutOfRange {
            what: "number of inputs",
            value: inputs.len().to_string(),
        }),
    }
}

fn double_into_pool(inputs: &[Tensor], out: &mut Output) -> Result<()> {
    let x = inputs[0].as_slice::<f32>()?;
    for (o, v) in out.pooled_slice::<f32>()?.iter_mut().zip(x) {
        *o = 2.0 * v;
    }
    Ok(())
}

#[test]
fn a_pooled_kernel_writes_the_runtime_allocation() {
    ops::register("test.double", same_spec, double_into_pool).unwrap();
    let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
    let y = ops::call("test.double", &[&x]).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), [2.0, 4.0, 6.0]);
    assert_eq!(y.owner_kind(), OwnerKind::Pool);
    assert!(ops::registered().contains(&"test.double".to_string()));
}

#[test]
fn an_adopted_output_is_released_exactly_once() {
    let released = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&released);
    ops::register("test.iota_adopted", same_spec, move |inputs, out| {
        let n = inputs[0].numel();
        let buf: Box<[f32]> = (0..n).map(|i| i as f32).collect();
        let data = Box::into_raw(buf).cast::<f32>();
        let counter = Arc::clone(&counter);
        let deleter = move |p: *mut u8| {
            let slice = std::ptr::slice_from_raw_parts_mut(p.cast::<f32>(), n);
            // SAFETY: `p` is `data`, from `Box::into_raw` of a slice of `n` elements.
            drop(unsafe { Box::from_raw(slice) });
            counter.fetch_add(1, Ordering::SeqCst);
        };
        // SAFETY: `data` is a live `Box<[f32]>` of `n` elements that only the deleter frees.
        let t = unsafe { Tensor::from_blob_adopted(data.cast(), &[n], DType::Float32, deleter)? };
        out.set(t);
        Ok(())
    })
    .unwrap();
    let x = Tensor::zeros(&[4], DType::Float32).unwrap();
    let y = ops::call("test.iota_adopted", &[&x]).unwrap();
    assert_eq!(y.owner_kind(), OwnerKind::Adopted);
    let view = y.narrow(0, 1, 2).unwrap();
    drop(y);
    assert_eq!(released.load(Ordering::SeqCst), 0);
    assert_eq!(view.to_vec::<f32>().unwrap(), [1.0, 2.0]);
    std::thread::spawn(move || drop(view)).join().unwrap();
    assert_eq!(released.load(Ordering::SeqCst), 1);
}

#[test]
fn borrowed_inputs_are_read_only_and_never_written() {
    ops::register("test.try_write", same_spec, |inputs, out| {
        let mut alias = inputs[0].clone();
        assert!(!alias.storage().is_writable());
        let refused = alias.fill_(9.0).unwrap_err();
        assert_eq!(refused.kind(), ErrorKind::ReadOnly);
        out.set(inputs[0].clone());
        Ok(())
    })
    .unwrap();
    let mut buf = vec![1.0f32, 2.0, 3.0];
    // SAFETY: `buf` outlives `x` and is not written while the op reads it.
    let x = unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[3], DType::Float32) }.unwrap();
    let y = ops::call("test.try_write", &[&x]).unwrap();
    assert_eq!(y.const_data_ptr(), buf.as_ptr().cast(), "identity: no copy");
    drop((x, y));
    assert_eq!(buf, [1.0, 2.0, 3.0]);
}

#[test]
fn contract_breaches_and_unknown_names_are_clear_errors() {
    ops::register("test.wrong_shape", same_spec, |_, out| {
        out.set(Tensor::zeros(&[7], DType::Float32)?);
        Ok(())
    })
    .unwrap();
    ops::register("test.no_output", same_spec, |_, _| Ok(())).unwrap();
    ops::register("test.panics", same_spec, |_, _| panic!("kernel bug")).unwrap();
    let x = Tensor::zeros(&[2], DType::Float32).unwrap();
    let e = ops::call("test.wrong_shape", &[&x]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidShape);
    assert!(e.to_string().contains("rule promised shape [2]"), "{e}");
    let e = ops::call("test.no_output", &[&x]).unwrap_err();
    assert!(e.to_string().contains("without producing an output"), "{e}");
    let e = ops::call("test.panics", &[&x]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Internal);
    assert!(e.to_string().contains("kernel bug"), "{e}");
    let e = ops::call("test.wrong_shape", &[&x, &x]).unwrap_err();
    assert!(
        e.to_string().contains("number of inputs"),
        "the rule's error: {e}"
    );
    let e = ops::call("test.nope", &[&x]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    assert!(
        e.to_string().contains("\"test.wrong_shape\""),
        "lists names: {e}"
    );
    let again = ops::register("test.no_output", same_spec, |_, _| Ok(())).unwrap_err();
    assert!(matches!(again, Error::OperatorExists { .. }));
    assert!(ops::unregister("test.no_output"));
    assert!(!ops::unregister("test.no_output"));
    ops::register("test.no_output", same_spec, double_into_pool).unwrap();
}

#[test]
fn kernels_run_concurrently_and_may_call_operators() {
    ops::register("test.nested", same_spec, |inputs, out| {
        out.set(ops::call("test.double_again", &[&inputs[0]])?);
        Ok(())
    })
    .unwrap();
    ops::register("test.double_again", same_spec, double_into_pool).unwrap();
    let threads: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let x = Tensor::full(&[1000], i as f64, DType::Float32).unwrap();
                let y = ops::call("test.nested", &[&x]).unwrap();
                assert_eq!(y.sum().unwrap().item::<f64>().unwrap(), 2000.0 * i as f64);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}
