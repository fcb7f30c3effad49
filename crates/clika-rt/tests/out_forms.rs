//! `out=` forms: results written straight into a caller's tensor, equal to the allocating op.

use clika_rt::ops::{self, BinaryOp, UnaryOp};
use clika_rt::{DType, ErrorKind, Tensor};

/// Asserts equal values, NaN matching NaN, within 1e-6 relative: the same kernels run both
/// ways, but Miri perturbs the last bits of transcendental float functions on each call.
fn assert_same(got: &Tensor, want: &Tensor, what: &str) {
    let (g, w) = (got.to_f64_vec().unwrap(), want.to_f64_vec().unwrap());
    assert_eq!(g.len(), w.len(), "{what}");
    for (x, y) in g.iter().zip(&w) {
        let same = (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-6 * y.abs().max(1.0);
        assert!(same, "{what}: {g:?} vs {w:?}");
    }
}

fn t(v: &[f32], shape: &[usize]) -> Tensor {
    Tensor::from_data(v, shape).unwrap()
}

#[test]
fn binary_into_matches_binary_for_every_op_with_broadcasting() {
    let a = t(&[1.0, -2.0, 3.5, 4.0, 0.5, -6.0], &[2, 3]);
    let b = t(&[2.0, 0.25, -1.0], &[3]);
    // The integer-only ops (bitwise, shifts) on integers: shifts by 1..3.
    let ia = Tensor::from_data(&[1i32, -2, 3, 4, 5, -6], &[2, 3]).unwrap();
    let ib = Tensor::from_data(&[2i32, 1, 3], &[3]).unwrap();
    for op in BinaryOp::ALL {
        let (a, b) = if ops::binary(op, &a, &b).is_ok() {
            (&a, &b)
        } else {
            (&ia, &ib)
        };
        let want = ops::binary(op, a, b).unwrap();
        let mut out = Tensor::empty(want.shape(), want.dtype()).unwrap();
        let before = out.data_ptr();
        ops::binary_into(op, a, b, &mut out).unwrap();
        assert_eq!(
            out.data_ptr(),
            before,
            "{op:?} must write into out, not replace it"
        );
        assert_same(&out, &want, &format!("{op:?}"));
    }
}

#[test]
fn unary_into_matches_unary_on_a_transposed_input() {
    let a = t(&[0.5, -1.0, 2.0, 3.0, -0.25, 1.5], &[2, 3]).t();
    for op in [
        UnaryOp::Neg,
        UnaryOp::Exp,
        UnaryOp::Tanh,
        UnaryOp::Relu,
        UnaryOp::Sigmoid,
    ] {
        let want = ops::unary(op, &a).unwrap();
        let mut out = Tensor::empty(&[3, 2], DType::Float32).unwrap();
        ops::unary_into(op, &a, &mut out).unwrap();
        assert_same(&out, &want, &format!("{op:?}"));
    }
}

#[test]
fn out_of_another_dtype_receives_the_converted_result() {
    let a = t(&[1.5, 2.5, -3.5], &[3]);
    let mut out = Tensor::zeros(&[3], DType::Int32).unwrap();
    ops::binary_into(BinaryOp::Mul, &a, &t(&[2.0], &[1]), &mut out).unwrap();
    assert_eq!(out.to_vec::<i32>().unwrap(), vec![3, 5, -7]);
    let mut f64_out = Tensor::zeros(&[3], DType::Float64).unwrap();
    ops::unary_into(UnaryOp::Abs, &a, &mut f64_out).unwrap();
    assert_eq!(f64_out.to_vec::<f64>().unwrap(), vec![1.5, 2.5, 3.5]);
}

#[test]
fn wrong_shape_and_shared_out_are_refused_and_out_is_untouched() {
    let a = t(&[1.0, 2.0, 3.0], &[3]);
    let mut small = Tensor::zeros(&[2], DType::Float32).unwrap();
    let e = ops::binary_into(BinaryOp::Add, &a, &a, &mut small).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidShape);
    // No broadcasting into out: [3] + [3] does not fill a [2, 3].
    let mut bigger = Tensor::zeros(&[2, 3], DType::Float32).unwrap();
    assert!(ops::binary_into(BinaryOp::Add, &a, &a, &mut bigger).is_err());
    assert_eq!(bigger.to_vec::<f32>().unwrap(), vec![0.0; 6]);

    let mut shared = Tensor::zeros(&[3], DType::Float32).unwrap();
    let view = shared.clone();
    let e = ops::binary_into(BinaryOp::Add, &a, &a, &mut shared).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ReadOnly, "{e}");
    assert_eq!(view.to_vec::<f32>().unwrap(), vec![0.0; 3]);
}

#[test]
fn shared_out_may_alias_an_input_or_overlap_it() {
    // out is a exactly: a += b.
    let x = t(&[1.0, 2.0, 3.0, 4.0], &[4]);
    let y = x.clone();
    // SAFETY: this thread is the only one using `x`'s memory.
    unsafe { ops::binary_into_shared(BinaryOp::Add, &y, &t(&[10.0], &[1]), &x).unwrap() };
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![11.0, 12.0, 13.0, 14.0]);

    // out = x[1:], input = x[:-1]: the input is read in full before anything is written,
    // so the result is the shifted original, not a running prefix.
    let out = x.narrow(0, 1, 3).unwrap();
    let src = x.narrow(0, 0, 3).unwrap();
    // SAFETY: as above.
    unsafe { ops::unary_into_shared(UnaryOp::Neg, &src, &out).unwrap() };
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![11.0, -11.0, -12.0, -13.0]);
}

#[test]
fn zero_size_out_is_fine() {
    let a = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    let mut out = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    ops::binary_into(BinaryOp::Add, &a, &a, &mut out).unwrap();
    ops::unary_into(UnaryOp::Exp, &a, &mut out).unwrap();
}

/// Every shape rule of matmul (1-D either side, batches broadcasting, empty sizes) into a
/// fresh `out`, a transposed `out` and an `out` of another dtype, equal to `ops::matmul`.
#[test]
fn matmul_into_matches_matmul_for_every_shape_rule_and_out_layout() {
    let cases: [(&[usize], &[usize]); 8] = [
        (&[3, 4], &[4, 5]),
        (&[4], &[4, 5]),
        (&[3, 4], &[4]),
        (&[4], &[4]),
        (&[2, 1, 3, 4], &[3, 4, 2]),
        (&[0, 4], &[4, 5]),
        (&[3, 0], &[0, 5]),
        (&[2, 3, 4], &[4, 0]),
    ];
    for (sa, sb) in cases {
        let na: usize = sa.iter().product();
        let nb: usize = sb.iter().product();
        let a = Tensor::arange(0.0, na as f64, 1.0, DType::Float32)
            .unwrap()
            .reshape(&sa.iter().map(|&d| d as isize).collect::<Vec<_>>())
            .unwrap();
        let b = Tensor::arange(0.0, nb as f64, 1.0, DType::Float32)
            .unwrap()
            .reshape(&sb.iter().map(|&d| d as isize).collect::<Vec<_>>())
            .unwrap();
        let b = ops::binary(BinaryOp::Mul, &b, &t(&[0.5], &[1])).unwrap();
        let want = ops::matmul(&a, &b).unwrap();
        let what = format!("{sa:?} @ {sb:?}");

        let mut out = Tensor::empty(want.shape(), DType::Float32).unwrap();
        let before = out.data_ptr();
        ops::matmul_into(&a, &b, &mut out).unwrap();
        assert_eq!(out.data_ptr(), before, "{what}: written into out");
        assert_same(&out, &want, &what);

        // A transposed out (its last two dims swapped in memory) receives the same values.
        if want.ndim() >= 2 {
            let nd = want.ndim();
            let mut perm: Vec<isize> = (0..nd as isize).collect();
            perm.swap(nd - 2, nd - 1);
            let shape: Vec<usize> = perm.iter().map(|&p| want.shape()[p as usize]).collect();
            let store = Tensor::zeros(&shape, DType::Float32).unwrap();
            let mut tout = store.permute(&perm).unwrap();
            drop(store);
            ops::matmul_into(&a, &b, &mut tout).unwrap();
            assert_same(&tout, &want, &format!("{what}, transposed out"));
        }

        // Float64 out: converted.
        let mut wide = Tensor::zeros(want.shape(), DType::Float64).unwrap();
        ops::matmul_into(&a, &b, &mut wide).unwrap();
        assert_same(&wide, &want, &format!("{what}, float64 out"));
    }
}

#[test]
fn matmul_into_may_write_over_an_operand_and_refuses_bad_outs() {
    // out is `a` itself: a = a @ b with b square; `a` is read before it is written.
    let a = t(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
    let b = t(&[0.0, 1.0, 1.0, 0.0], &[2, 2]);
    let want = ops::matmul(&a, &b).unwrap();
    let alias = a.clone();
    // SAFETY: this thread is the only one using `a`'s memory.
    unsafe { ops::matmul_into_shared(&alias, &b, &a).unwrap() };
    assert_same(&a, &want, "a = a @ b");
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![2.0, 1.0, 4.0, 3.0]);

    // Wrong shape: refused, out untouched.
    let mut wrong = Tensor::zeros(&[2, 3], DType::Float32).unwrap();
    let e = ops::matmul_into(&a, &b, &mut wrong).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidShape, "{e}");
    assert_eq!(wrong.to_vec::<f32>().unwrap(), vec![0.0; 6]);

    // An out that another handle shares: refused by the safe form.
    let mut shared = Tensor::zeros(&[2, 2], DType::Float32).unwrap();
    let _view = shared.clone();
    let e = ops::matmul_into(&a, &b, &mut shared).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ReadOnly, "{e}");

    // An out whose elements repeat (a stride of 0): refused, naming the fix.
    let row = Tensor::zeros(&[1, 2], DType::Float32).unwrap();
    let bcast = row.expand(&[2, 2]).unwrap();
    // SAFETY: this thread is the only one using `row`'s memory.
    let e = unsafe { ops::matmul_into_shared(&a, &b, &bcast) }.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    assert!(e.to_string().contains("distinct"), "{e}");
    assert_eq!(row.to_vec::<f32>().unwrap(), vec![0.0; 2]);
}

#[test]
fn reduce_into_matches_reduce_for_every_op_on_strided_empty_and_overlapping_inputs() {
    use clika_rt::ops::ReduceOp;
    let a = t(&[1.0, -2.0, 3.5, 4.0, 0.5, -6.0, 2.0, 8.0], &[2, 4]);
    let views = [
        a.clone(),
        a.transpose(0, 1).unwrap(),
        a.slice(1, Some(0), None, 2).unwrap(),
    ];
    // Every op, and numpy's population variance besides PyTorch's default.
    let opsl = ReduceOp::ALL
        .into_iter()
        .chain([ReduceOp::Std { correction: 0 }]);
    for v in &views {
        for op in opsl.clone() {
            for (dims, keep) in [
                (Some(&[0isize][..]), false),
                (Some(&[-1][..]), true),
                (None, false),
            ] {
                let want = ops::reduce(op, v, dims, keep).unwrap();
                // Into the result's dtype, and into float64 (converted; not under Miri,
                // where the conversion's unsafe code is another test's).
                for dt in [want.dtype(), DType::Float64]
                    .into_iter()
                    .take(if cfg!(miri) { 1 } else { 2 })
                {
                    let mut out = Tensor::zeros(want.shape(), dt).unwrap();
                    ops::reduce_into(op, v, dims, keep, &mut out).unwrap();
                    assert_same(&out, &want, &format!("{op:?} {dims:?} {keep} {dt}"));
                }
            }
        }
    }
    // Wrong shape: refused, out untouched.
    let mut out = Tensor::full(&[3], 7.0, DType::Float32).unwrap();
    let e = ops::reduce_into(ReduceOp::Sum, &a, Some(&[0]), false, &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidShape, "{e}");
    assert_eq!(out.to_vec::<f32>().unwrap(), vec![7.0; 3]);
    // A shared out is refused by the safe form; the shared form may write over its input.
    let shared = out.clone();
    assert_eq!(
        ops::reduce_into(
            ReduceOp::Sum,
            &a,
            None,
            false,
            &mut out.select(0, 0).unwrap()
        )
        .unwrap_err()
        .kind(),
        ErrorKind::ReadOnly
    );
    let x = t(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
    let first_row = x.select(0, 0).unwrap();
    // SAFETY: this thread is the only one using `x`'s memory.
    unsafe { ops::reduce_into_shared(ReduceOp::Sum, &x, Some(&[0]), false, &first_row).unwrap() };
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![4.0, 6.0, 3.0, 4.0]);
    drop(shared);
    // Empty: a sum over an empty dim is zeros, an empty result writes nothing.
    let e = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    let mut sums = Tensor::full(&[3], 5.0, DType::Float32).unwrap();
    ops::reduce_into(ReduceOp::Sum, &e, Some(&[0]), false, &mut sums).unwrap();
    assert_eq!(sums.to_vec::<f32>().unwrap(), vec![0.0; 3]);
    let mut none = Tensor::zeros(&[0], DType::Float32).unwrap();
    ops::reduce_into(ReduceOp::Max, &e, Some(&[1]), false, &mut none).unwrap();
}
