//! One test body per behaviour, run on every available device and compared with the CPU.
//! Accelerator cases print a message and skip where their driver is absent (`gpu:0` without
//! Vulkan; `cuda:0` without the `cuda` feature or an NVIDIA driver).
//!
//! Not under Miri: there the GPU backend is not built, so every body would only compare the
//! CPU with itself, at interpreter speed (the long reductions take tens of minutes); the CPU
//! kernels' unsafe code is covered by the other suites under Miri.
#![cfg(not(miri))]

use clika_rt::{ops, DType, Device, DeviceKind, Tensor};

/// The devices to run on: the CPU, GPU 0 (Vulkan) when a driver is present, and CUDA
/// device 0 when this build has the `cuda` feature and the machine an NVIDIA driver.
fn devices() -> Vec<Device> {
    let mut out = vec![Device::cpu()];
    for device in [Device::gpu(0), Device::cuda(0)] {
        match device.ensure_available() {
            Ok(()) => out.push(device),
            Err(e) => eprintln!("skipping {device} cases: {e}"),
        }
    }
    out
}

/// Runs the body (a `fn(Device)`) on every available device.
macro_rules! device_test {
    ($name:ident, $body:expr) => {
        #[test]
        fn $name() {
            let body: fn(Device) = $body;
            for device in devices() {
                body(device);
            }
        }
    };
}

/// The bytes of a contiguous host tensor.
fn raw_bytes(t: &Tensor) -> Vec<u8> {
    assert!(t.device().is_cpu() && t.is_contiguous());
    let n = t.numel() * t.dtype().size();
    if n == 0 {
        return Vec::new();
    }
    // SAFETY: a contiguous host tensor's `n` bytes from its data pointer are in bounds.
    unsafe { std::slice::from_raw_parts(t.const_data_ptr(), n) }.to_vec()
}

/// `n` elements of `dtype` with varied bit patterns (0/1 for bool).
fn patterned(dtype: DType, n: usize) -> Tensor {
    let bytes: Vec<u8> = (0..n * dtype.size())
        .map(|i| match dtype {
            DType::Bool => (i % 3 == 0) as u8,
            _ => (i * 37 + 11) as u8,
        })
        .collect();
    Tensor::from_bytes(&bytes, &[n], dtype).unwrap()
}

/// `t` with every NaN and infinity replaced by zero (floats only).
fn finite(t: Tensor) -> Tensor {
    if !t.dtype().is_float() {
        return t;
    }
    let f = t.to_dtype(DType::Float64).unwrap().to_f64_vec().unwrap();
    let f: Vec<f64> = f
        .into_iter()
        .map(|v| if v.is_finite() { v } else { 0.0 })
        .collect();
    Tensor::from_vec(f, &[t.numel()])
        .unwrap()
        .to_dtype(t.dtype())
        .unwrap()
}

device_test!(round_trip_every_dtype_bit_exact, |device| {
    for dtype in DType::ALL {
        for n in [0usize, 1, 3, 1000] {
            let src = patterned(dtype, n);
            let on = src.to(device).unwrap();
            assert_eq!(on.device(), device);
            let back = on.to(Device::cpu()).unwrap();
            assert_eq!(back.device(), Device::cpu());
            assert_eq!(back.dtype(), dtype);
            assert_eq!(back.shape(), src.shape());
            assert_eq!(
                raw_bytes(&back),
                raw_bytes(&src),
                "{dtype} x{n} via {device}"
            );
        }
    }
});

device_test!(non_contiguous_sources_are_gathered, |device| {
    for dtype in DType::ALL {
        let src = patterned(dtype, 24).reshape(&[4, 6]).unwrap();
        let view = src.transpose(0, 1).unwrap().narrow(0, 1, 3).unwrap();
        let expect = view.contiguous().unwrap();
        // Gathered on the way in…
        let on = view.to(device).unwrap();
        let host = on.to(Device::cpu()).unwrap().contiguous().unwrap();
        assert_eq!(raw_bytes(&host), raw_bytes(&expect));
        // …and on the way out, from a strided view of device memory.
        let dev_view = src.to(device).unwrap().transpose(0, 1).unwrap();
        let dev_view = dev_view.narrow(0, 1, 3).unwrap();
        let back = dev_view.to(Device::cpu()).unwrap().contiguous().unwrap();
        assert_eq!(raw_bytes(&back), raw_bytes(&expect), "{dtype} on {device}");
    }
});

device_test!(host_reads_synchronise, |device| {
    let t = Tensor::from_vec(vec![1.5f32, -2.0, 3.25], &[3]).unwrap();
    let d = t.to(device).unwrap();
    d.synchronize().unwrap();
    assert_eq!(d.to_vec::<f32>().unwrap(), vec![1.5, -2.0, 3.25]);
    assert_eq!(d.narrow(0, 2, 1).unwrap().item::<f32>().unwrap(), 3.25);
    assert_eq!(d.to_f64_vec().unwrap(), vec![1.5, -2.0, 3.25]);
    let printed = d.to_string();
    assert!(printed.contains("data=[1.5, -2, 3.25]"), "{printed}");
});

/// `t` on the host.
fn host(t: Tensor) -> Tensor {
    t.to(Device::cpu()).unwrap()
}

/// `got` (on any device) equals `want` (CPU) within a float tolerance.
fn assert_close(got: &Tensor, want: &Tensor, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    assert_eq!(got.dtype(), want.dtype(), "{what}: dtype");
    let (g, w) = (got.to_f64_vec().unwrap(), want.to_f64_vec().unwrap());
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        let ok = (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-5 + 1e-5 * b.abs();
        assert!(ok, "{what}: element {i}: {a} vs {b}");
    }
}

/// A float32 tensor of `shape` with varied values in about [-2, 2].
fn values(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n)
        .map(|i| ((i * 7919 % 97) as f32 - 48.0) / 24.0)
        .collect();
    Tensor::from_vec(v, shape).unwrap()
}

device_test!(
    elementwise_matches_cpu_with_broadcasting_and_strides,
    |device| {
        use clika_rt::ops::{binary, unary, BinaryOp, Scalar, UnaryOp};
        let a = values(&[3, 4, 5]);
        let b = ops::add(
            &values(&[4, 1]),
            &Tensor::full(&[], 3.0, DType::Float32).unwrap(),
        )
        .unwrap();
        let at = a.transpose(0, 2).unwrap(); // [5, 4, 3], strided
        let (da, db) = (
            at.to(device).unwrap().transpose(0, 2).unwrap(),
            b.to(device).unwrap(),
        );
        let dat = da.transpose(0, 2).unwrap();
        // The integer-only ops (bitwise, shifts) run on integers: `ia` in [0, 16] (strided as
        // `da`), `ib` in [1, 5] (so shifts stay in range).
        let ia = ops::binary_scalar(BinaryOp::Mul, &at, Scalar::Float(4.0))
            .and_then(|t| ops::binary_scalar(BinaryOp::Add, &t, Scalar::Float(8.0)))
            .and_then(|t| t.to_dtype(DType::Int32))
            .unwrap();
        let ib = b.to_dtype(DType::Int32).unwrap();
        let (dia, dib) = (
            ia.to(device).unwrap().transpose(0, 2).unwrap(),
            ib.to(device).unwrap(),
        );
        let ia = ia.transpose(0, 2).unwrap();
        for op in BinaryOp::ALL {
            let (want, x, y) = match binary(op, &a, &b) {
                Ok(want) => (want, &da, &db),
                Err(_) => (binary(op, &ia, &ib).unwrap(), &dia, &dib),
            };
            match binary(op, x, y) {
                Ok(got) => {
                    assert_eq!(got.device(), device);
                    assert_close(&got.to(Device::cpu()).unwrap(), &want, op.name());
                }
                Err(e) => {
                    assert!(!device.is_cpu(), "{}: {e}", op.name());
                    assert!(e.to_string().contains(".to(Device::cpu())"), "{e}");
                }
            }
        }
        let diat = dia.transpose(0, 2).unwrap();
        let iat = ia.transpose(0, 2).unwrap();
        for op in UnaryOp::ALL {
            let (want, x) = match unary(op, &at) {
                Ok(want) => (want, &dat),
                Err(_) => (unary(op, &iat).unwrap(), &diat),
            };
            match unary(op, x) {
                Ok(got) => assert_close(&got.to(Device::cpu()).unwrap(), &want, op.name()),
                Err(e) => {
                    assert!(!device.is_cpu(), "{e}");
                    assert!(e.to_string().contains(".to(Device::cpu())"), "{e}");
                }
            }
        }
        // Integers, scalars, and a comparison's Bool result.
        let i = Tensor::arange(-6.0, 6.0, 1.0, DType::Int32)
            .unwrap()
            .reshape(&[3, 4])
            .unwrap();
        let di = i.to(device).unwrap();
        assert_close(
            &ops::mul(&di, &di).unwrap().to(Device::cpu()).unwrap(),
            &ops::mul(&i, &i).unwrap(),
            "int mul",
        );
        assert_close(
            &di.gt(&di.transpose(0, 1).unwrap().reshape(&[3, 4]).unwrap())
                .unwrap()
                .to(Device::cpu())
                .unwrap(),
            &i.gt(&i.transpose(0, 1).unwrap().reshape(&[3, 4]).unwrap())
                .unwrap(),
            "int gt",
        );
    }
);

device_test!(scalar_operands_match_cpu, |device| {
    use clika_rt::ops::{binary_scalar, scalar_binary, BinaryOp, Scalar};
    let a = values(&[5, 3]);
    let d = a.to(device).unwrap();
    for op in [
        BinaryOp::Add,
        BinaryOp::Mul,
        BinaryOp::Sub,
        BinaryOp::Div,
        BinaryOp::Gt,
    ] {
        let want = binary_scalar(op, &a, Scalar::Float(2.5)).unwrap();
        let got = binary_scalar(op, &d, Scalar::Float(2.5)).unwrap();
        assert_eq!(got.device(), device);
        assert_close(&got.to(Device::cpu()).unwrap(), &want, op.name());
        let want = scalar_binary(op, Scalar::Int(3), &a).unwrap();
        let got = scalar_binary(op, Scalar::Int(3), &d).unwrap();
        assert_close(&got.to(Device::cpu()).unwrap(), &want, op.name());
    }
});

device_test!(reductions_match_cpu, |device| {
    let a = values(&[4, 6, 5]);
    let d = a.to(device).unwrap();
    assert_close(&host(d.sum().unwrap()), &a.sum().unwrap(), "sum");
    assert_close(&host(d.mean().unwrap()), &a.mean().unwrap(), "mean");
    assert_close(&host(d.max().unwrap()), &a.max().unwrap(), "max");
    assert_close(&host(d.min().unwrap()), &a.min().unwrap(), "min");
    for (dims, keep) in [
        (&[1isize][..], false),
        (&[0, 2][..], true),
        (&[-1][..], false),
    ] {
        assert_close(
            &host(d.sum_dims(dims, keep).unwrap()),
            &a.sum_dims(dims, keep).unwrap(),
            "sum_dims",
        );
        assert_close(
            &host(d.max_dims(dims, keep).unwrap()),
            &a.max_dims(dims, keep).unwrap(),
            "max_dims",
        );
        assert_close(
            &host(d.mean_dims(dims, keep).unwrap()),
            &a.mean_dims(dims, keep).unwrap(),
            "mean_dims",
        );
    }
    let t = d.transpose(0, 2).unwrap();
    assert_close(
        &host(t.min_dims(&[0], false).unwrap()),
        &a.transpose(0, 2).unwrap().min_dims(&[0], false).unwrap(),
        "strided min",
    );
    // Long enough for the two-pass all-reduce (partials of 16384), strided, odd length.
    // Sums are compared with the exact (float64) sum, within 1e-8 of the sum of |x|: the
    // values cancel (Σx ≈ 0.5, Σ|x| ≈ 3.0e5), so a float32 sum in any blocked order (the
    // CPU's chunks, a GPU's tree) is off by about 1e-3, while a plain running float32 sum
    // (error ~n·ε·Σ|x|) would not pass.
    let long = values(&[300_001]);
    let exact = long.to_dtype(DType::Float64).unwrap();
    let n = long.numel() as f64;
    let abs_sum = ops::unary(ops::UnaryOp::Abs, &exact)
        .unwrap()
        .sum()
        .unwrap();
    let abs_sum = abs_sum.item::<f64>().unwrap();
    let dl = long.to(device).unwrap();
    for (got, want, tol, what) in [
        (dl.sum(), exact.sum(), 1e-8 * abs_sum, "long sum"),
        (dl.mean(), exact.mean(), 1e-8 * abs_sum / n, "long mean"),
        (dl.max(), long.max(), 0.0, "long max"),
        (
            dl.narrow(0, 1, 200_000).unwrap().min(),
            long.narrow(0, 1, 200_000).unwrap().min(),
            0.0,
            "long min",
        ),
    ] {
        let (got, want) = (
            host(got.unwrap()).item::<f64>().unwrap(),
            want.unwrap().item::<f64>().unwrap(),
        );
        assert!(
            (got - want).abs() <= tol,
            "{what}: {got} vs {want} (±{tol})"
        );
    }
    let kept = host(d.sum_dims(&[0, 1, 2], true).unwrap());
    assert_eq!(kept.shape(), &[1, 1, 1]);
    let i = Tensor::arange(-5.0, 7.0, 1.0, DType::Int32).unwrap();
    assert_close(
        &host(i.to(device).unwrap().max().unwrap()),
        &i.max().unwrap(),
        "int max",
    );
});

device_test!(contiguous_and_to_dtype_match_cpu, |device| {
    for dtype in DType::ALL {
        // Finite values: a device copy may quiet a signalling NaN's payload (the CPU keeps it).
        let src = finite(patterned(dtype, 60)).reshape(&[3, 4, 5]).unwrap();
        let view = src
            .to(device)
            .unwrap()
            .permute(&[2, 0, 1])
            .unwrap()
            .narrow(0, 1, 3)
            .unwrap();
        let got = view.contiguous().unwrap();
        assert!(got.is_contiguous());
        let want = src
            .permute(&[2, 0, 1])
            .unwrap()
            .narrow(0, 1, 3)
            .unwrap()
            .contiguous()
            .unwrap();
        assert_eq!(
            raw_bytes(&got.to(Device::cpu()).unwrap()),
            raw_bytes(&want),
            "{dtype}"
        );
    }
    let f = ops::mul(
        &values(&[7, 3]),
        &Tensor::full(&[], 50.0, DType::Float32).unwrap(),
    )
    .unwrap();
    for to in [
        DType::Int32,
        DType::UInt8,
        DType::Float16,
        DType::Int8,
        DType::Bool,
        DType::BFloat16,
    ] {
        let want = f.to_dtype(to).unwrap();
        let got = f.to(device).unwrap().to_dtype(to).unwrap();
        assert_close(
            &got.to(Device::cpu()).unwrap(),
            &want,
            &format!("float32 -> {to}"),
        );
        let back = want.to(device).unwrap().to_dtype(DType::Float32).unwrap();
        assert_close(
            &back.to(Device::cpu()).unwrap(),
            &want.to_dtype(DType::Float32).unwrap(),
            &format!("{to} -> float32"),
        );
    }
});

device_test!(matmul_matches_cpu, |device| {
    for (sa, sb) in [
        (&[5usize, 7][..], &[7usize, 3][..]),
        (&[2, 33, 17], &[17, 20]),
        (&[7], &[7, 4]),
    ] {
        let (a, b) = (values(sa), values(sb));
        let got = a
            .to(device)
            .unwrap()
            .matmul(&b.to(device).unwrap())
            .unwrap();
        assert_close(
            &got.to(Device::cpu()).unwrap(),
            &a.matmul(&b).unwrap(),
            "matmul",
        );
    }
    let a = values(&[6, 5]);
    let at = a.to(device).unwrap().transpose(0, 1).unwrap();
    assert_close(
        &at.matmul(&at.transpose(0, 1).unwrap())
            .unwrap()
            .to(Device::cpu())
            .unwrap(),
        &a.transpose(0, 1).unwrap().matmul(&a).unwrap(),
        "strided matmul",
    );
    // Broadcast batches, a padded row stride (a narrowed view) and a column-major operand:
    // the layouts a BLAS takes in place or must copy.
    let a = values(&[3, 1, 4, 12]);
    let b = values(&[2, 9, 5]);
    let (ad, bd) = (a.to(device).unwrap(), b.to(device).unwrap());
    let (an, bt) = (
        |t: &Tensor| t.narrow(3, 2, 9).unwrap(),
        |t: &Tensor| {
            t.transpose(1, 2)
                .unwrap()
                .contiguous()
                .unwrap()
                .transpose(1, 2)
                .unwrap()
        },
    );
    assert_close(
        &host(an(&ad).matmul(&bt(&bd)).unwrap()),
        &an(&a).matmul(&bt(&b)).unwrap(),
        "batched, padded and column-major matmul",
    );
    if device.kind() == DeviceKind::Gpu {
        return; // wgpu's matmul is float32 only
    }
    // Float64, and the half types (accumulated in float32, rounded once).
    let (a, b) = (values(&[4, 40, 24]), values(&[24, 31]));
    for dtype in [DType::Float64, DType::Float16, DType::BFloat16] {
        let (a, b) = (a.to_dtype(dtype).unwrap(), b.to_dtype(dtype).unwrap());
        let got = host(
            a.to(device)
                .unwrap()
                .matmul(&b.to(device).unwrap())
                .unwrap(),
        );
        let want = a.matmul(&b).unwrap();
        assert_eq!(got.dtype(), dtype);
        let ulp = if dtype == DType::BFloat16 { 8e-3 } else { 1e-3 };
        let (g, w) = (got.to_f64_vec().unwrap(), want.to_f64_vec().unwrap());
        for (i, (x, y)) in g.iter().zip(&w).enumerate() {
            assert!(
                (x - y).abs() <= 1e-6 + 2.0 * ulp * y.abs().max(1.0),
                "{dtype} matmul element {i}: {x} vs {y}"
            );
        }
    }
});

device_test!(
    mixed_devices_and_missing_kernels_give_clear_errors,
    |device| {
        if device.is_cpu() {
            return;
        }
        let a = values(&[4]);
        let err = ops::add(&a.to(device).unwrap(), &a).unwrap_err();
        assert!(err.to_string().contains(".to("), "{err}");
        let err = a.to(device).unwrap().argmax().unwrap_err();
        assert!(err.to_string().contains(".to(Device::cpu())"), "{err}");
        // Ops without a device kernel refuse rather than touch device memory from the host.
        let on = a.to(device).unwrap();
        let mask = on.gt(&on).unwrap();
        let err = ops::where_(&mask, &on, &on).unwrap_err();
        assert!(err.to_string().contains(".to(Device::cpu())"), "{err}");
        if device.kind() == DeviceKind::Gpu {
            // WGSL has no 64-bit floats (CUDA does).
            let f64s = Tensor::zeros(&[2], DType::Float64)
                .unwrap()
                .to(device)
                .unwrap();
            let err = ops::exp(&f64s).unwrap_err();
            assert!(err.to_string().contains(".to(Device::cpu())"), "{err}");
        }
    }
);

device_test!(
    fill_copy_and_cat_run_through_the_device_copy_kernel,
    |device| {
        let a = values(&[2, 3]);
        let mut on = values(&[2, 3]).to(device).unwrap();
        on.fill_(2.5).unwrap();
        let full = Tensor::full(&[2, 3], 2.5, DType::Float32).unwrap();
        assert_close(&on.to(Device::cpu()).unwrap(), &full, "fill_");
        let mut dst = Tensor::zeros(&[2, 3], DType::Float32)
            .unwrap()
            .to(device)
            .unwrap();
        dst.copy_(&a.to(device).unwrap()).unwrap();
        assert_close(&dst.to(Device::cpu()).unwrap(), &a, "copy_");
        // The second slab starts mid-storage: device kernels store at its word offset.
        let both = ops::cat(&[on, dst], 0).unwrap();
        let want = ops::cat(&[full, a], 0).unwrap();
        assert_close(&both.to(Device::cpu()).unwrap(), &want, "cat");
        // uint8 slabs of 3 bytes: the second would start inside a word, which the device's
        // whole-word stores refuse (naming the CPU); the CPU joins them.
        let bytes = Tensor::arange(0.0, 3.0, 1.0, DType::UInt8)
            .unwrap()
            .to(device)
            .unwrap();
        let joined = ops::cat(&[bytes.clone(), bytes], 0);
        if device.kind() == DeviceKind::Gpu {
            let err = joined.unwrap_err();
            assert!(err.to_string().contains(".to(Device::cpu())"), "{err}");
        } else {
            assert_eq!(
                joined.unwrap().to_vec::<u8>().unwrap(),
                vec![0, 1, 2, 0, 1, 2]
            );
        }
    }
);

device_test!(owned_forms_reuse_or_recompute_on_every_device, |device| {
    // An exclusive view that does not start at its storage's first element: the CPU writes
    // it in place, a device computes a fresh result; the values are the same either way.
    let x = Tensor::arange(0.0, 8.0, 1.0, DType::Float32)
        .unwrap()
        .to(device)
        .unwrap();
    let view = x.narrow(0, 2, 4).unwrap();
    drop(x);
    let one = Tensor::ones(&[1], DType::Float32)
        .unwrap()
        .to(device)
        .unwrap();
    let sum = ops::binary_owned(ops::BinaryOp::Add, view, &one).unwrap();
    assert_eq!(sum.device(), device);
    assert_eq!(sum.to_vec::<f32>().unwrap(), vec![3.0, 4.0, 5.0, 6.0]);
    let neg = ops::unary_owned(ops::UnaryOp::Neg, sum).unwrap();
    assert_eq!(neg.to_vec::<f32>().unwrap(), vec![-3.0, -4.0, -5.0, -6.0]);
    // The fresh path of a whole tensor reuses its memory where the backend can.
    let y = Tensor::ones(&[4], DType::Float32)
        .unwrap()
        .to(device)
        .unwrap();
    let z = ops::binary_owned(ops::BinaryOp::Mul, y, &one).unwrap();
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![1.0; 4]);
});

#[test]
fn cuda_devices_work_or_say_why_not() {
    let cuda: Device = "cuda:0".parse().unwrap();
    assert_eq!(cuda, Device::cuda(0));
    match Tensor::ones(&[2], DType::Float32).unwrap().to(cuda) {
        Ok(t) => assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.0, 1.0]),
        Err(err) => {
            assert_eq!(err.kind(), clika_rt::ErrorKind::Device);
            // Without the feature the message names it; with it, the missing driver.
            let msg = err.to_string();
            if cfg!(feature = "cuda") {
                assert!(
                    msg.contains("NVIDIA driver") || msg.contains("CUDA"),
                    "{msg}"
                );
            } else {
                assert!(msg.contains("`cuda` cargo feature"), "{msg}");
            }
        }
    }
    // A device number past the count is refused everywhere, never a crash.
    let err = Tensor::ones(&[2], DType::Float32)
        .unwrap()
        .to(Device::cuda(97))
        .unwrap_err();
    assert_eq!(err.kind(), clika_rt::ErrorKind::Device);
}

device_test!(
    unsigned_arithmetic_matches_cpu_or_is_refused_clearly,
    |device| {
        use clika_rt::ops::{binary, BinaryOp};
        // UInt16 computes on every device (wgpu in i32, wrapping at the store); UInt32 and
        // UInt64 compute on the CPU and CUDA, and wgpu refuses them as "unsupported".
        let a = Tensor::from_vec(vec![65535u16, 1, 40000, 7, 0, 300], &[2, 3]).unwrap();
        let b = Tensor::from_vec(vec![1u16, 2, 30000, 8, 5, 300], &[2, 3]).unwrap();
        for dtype in [DType::UInt16, DType::UInt32, DType::UInt64] {
            let (ha, hb) = (a.to_dtype(dtype).unwrap(), b.to_dtype(dtype).unwrap());
            let (Ok(da), Ok(db)) = (ha.to(device), hb.to(device)) else {
                panic!("{dtype} should move to {device}");
            };
            for op in [
                BinaryOp::Add,
                BinaryOp::Mul,
                BinaryOp::Sub,
                BinaryOp::Gt,
                BinaryOp::Maximum,
            ] {
                let want = binary(op, &ha, &hb).unwrap();
                match binary(
                    op,
                    &da.transpose(0, 1).unwrap(),
                    &db.transpose(0, 1).unwrap(),
                ) {
                    Ok(got) => {
                        let got = got.to(Device::cpu()).unwrap().contiguous().unwrap();
                        let want = want.transpose(0, 1).unwrap().contiguous().unwrap();
                        assert_eq!(
                            got.dtype(),
                            want.dtype(),
                            "{} {dtype} on {device}",
                            op.name()
                        );
                        assert_eq!(
                            raw_bytes(&got),
                            raw_bytes(&want),
                            "{} {dtype} on {device}",
                            op.name()
                        );
                    }
                    Err(e) => {
                        assert!(
                            device.kind() == DeviceKind::Gpu && dtype != DType::UInt16,
                            "{} {dtype} on {device}: {e}",
                            op.name()
                        );
                        assert_eq!(e.kind(), clika_rt::ErrorKind::Device, "{e}");
                    }
                }
            }
            // Back to the host bit-exactly, whatever the device computes.
            assert_eq!(
                raw_bytes(&da.to(Device::cpu()).unwrap()),
                raw_bytes(&ha),
                "{dtype} via {device}"
            );
        }
    }
);
