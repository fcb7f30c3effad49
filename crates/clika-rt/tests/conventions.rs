//! Rust conventions (issue 20): `From`/`TryFrom`, typed slices and views, the element
//! iterator, operators with scalars on both sides, `+=`, `try_*`, `equal`/`allclose`, and —
//! with features `ndarray` / `serde` — ndarray and serde interop. Expected values are
//! computed here by index arithmetic over the source data, never copied from the runtime.

use clika_rt::half::{bf16, f16};
use clika_rt::{DType, ErrorKind, Tensor};

fn iota(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec((0..n).map(|i| i as f32).collect(), shape).unwrap()
}

/// The views every layout-generic reader must handle, with their row-major values computed
/// from `iota(&[3, 4])` (value = 4 * row + col).
fn views() -> Vec<(&'static str, Tensor, Vec<f32>)> {
    let t = iota(&[3, 4]);
    let at = |r: usize, c: usize| (4 * r + c) as f32;
    let mut out = vec![("contiguous", t.clone(), (0..12).map(|i| i as f32).collect())];
    let tt = t.t();
    out.push((
        "transposed",
        tt,
        (0..4).flat_map(|c| (0..3).map(move |r| at(r, c))).collect(),
    ));
    let sliced = t.slice(1, Some(1), None, 2).unwrap();
    out.push((
        "sliced with step",
        sliced,
        (0..3).flat_map(|r| [1, 3].map(|c| at(r, c))).collect(),
    ));
    let flipped = t.flip(&[0]).unwrap();
    out.push((
        "flipped (negative stride)",
        flipped,
        (0..3)
            .rev()
            .flat_map(|r| (0..4).map(move |c| at(r, c)))
            .collect(),
    ));
    let row = t.select(0, 1).unwrap().unsqueeze(0).unwrap();
    let broadcast = row.expand(&[2, 4]).unwrap();
    out.push((
        "broadcast",
        broadcast,
        (0..2).flat_map(|_| (0..4).map(|c| at(1, c))).collect(),
    ));
    out.push(("empty", t.narrow(0, 0, 0).unwrap(), vec![]));
    out.push((
        "0-d",
        t.select(0, 2).unwrap().select(0, 3).unwrap(),
        vec![at(2, 3)],
    ));
    out
}

#[test]
fn from_vec_box_slice_and_arrays() {
    let v = vec![1.5f64, -2.0, 3.25];
    let p = v.as_ptr();
    let t = Tensor::from(v);
    assert_eq!((t.shape(), t.dtype()), (&[3][..], DType::Float64));
    assert_eq!(t.const_data_ptr(), p.cast());
    let b: Box<[i16]> = vec![4, 5].into_boxed_slice();
    let pb = b.as_ptr();
    let tb = Tensor::from(b);
    assert_eq!(tb.const_data_ptr(), pb.cast());
    assert_eq!(tb.to_vec::<i16>().unwrap(), [4, 5]);

    let src = [7u8, 8, 9];
    let ts = Tensor::try_from(&src[..]).unwrap();
    assert_ne!(ts.const_data_ptr(), src.as_ptr()); // a copy
    assert_eq!(ts.to_vec::<u8>().unwrap(), src);
    let ta = Tensor::try_from([true, false]).unwrap();
    assert_eq!(ta.to_vec::<bool>().unwrap(), [true, false]);
    let t2 = Tensor::try_from([[1i64, 2, 3], [4, 5, 6]]).unwrap();
    assert_eq!(t2.shape(), &[2, 3]);
    let back: Vec<i64> = Vec::try_from(&t2.t()).unwrap();
    assert_eq!(back, [1, 4, 2, 5, 3, 6]);
    assert_eq!(
        Vec::<f32>::try_from(&t2).unwrap_err().kind(),
        ErrorKind::DType
    );
    let empty = Tensor::from(Vec::<f32>::new());
    assert_eq!((empty.shape(), empty.numel()), (&[0][..], 0));
}

#[test]
fn as_slice_checks_dtype_layout_and_bool() {
    let t = iota(&[3, 4]);
    assert_eq!(
        t.as_slice::<f32>().unwrap().as_ptr(),
        t.const_data_ptr().cast()
    );
    assert_eq!(t.as_slice::<f32>().unwrap()[5], 5.0);
    // A contiguous view that starts inside the storage.
    let rows = t.narrow(0, 1, 2).unwrap();
    assert_eq!(
        rows.as_slice::<f32>().unwrap(),
        &(4..12).map(|i| i as f32).collect::<Vec<_>>()[..]
    );
    let e = t.t().as_slice::<f32>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Layout);
    assert!(e.to_string().contains("contiguous()"), "{e}");
    assert_eq!(t.as_slice::<f64>().unwrap_err().kind(), ErrorKind::DType);
    let b = Tensor::from_owner(vec![2u8, 0, 1], &[3], DType::Bool).unwrap();
    assert_eq!(b.as_slice::<bool>().unwrap_err().kind(), ErrorKind::DType);
    assert_eq!(b.to_vec::<bool>().unwrap(), [true, false, true]);
    assert!(t
        .narrow(0, 0, 0)
        .unwrap()
        .as_slice::<f32>()
        .unwrap()
        .is_empty());
}

#[test]
fn as_mut_slice_needs_exclusive_writable_memory() {
    let mut t = Tensor::from(vec![0i32; 4]);
    let p = t.const_data_ptr();
    t.as_mut_slice::<i32>().unwrap()[2] = 7;
    assert_eq!(t.to_vec::<i32>().unwrap(), [0, 0, 7, 0]);
    assert_eq!(t.const_data_ptr(), p);
    let alias = t.clone();
    assert_eq!(
        t.as_mut_slice::<i32>().unwrap_err().kind(),
        ErrorKind::ReadOnly
    );
    drop(alias);
    assert!(t.as_mut_slice::<i32>().is_ok());
    let shared: std::sync::Arc<[f32]> = vec![1.0, 2.0].into();
    let mut ro = Tensor::from_owner(shared, &[2], DType::Float32).unwrap();
    let e = ro.as_mut_slice::<f32>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ReadOnly);
    assert!(e.to_string().contains("read-only"), "{e}");
    let mut strided = iota(&[2, 2]).t();
    assert_eq!(
        strided.as_mut_slice::<f32>().unwrap_err().kind(),
        ErrorKind::Layout
    );
}

#[test]
fn typed_view_and_iter_read_every_layout() {
    for (name, t, want) in views() {
        let got: Vec<f32> = t.iter::<f32>().unwrap().collect();
        assert_eq!(got, want, "iter over {name}");
        assert_eq!(t.iter::<f32>().unwrap().len(), want.len(), "{name}");
        let v = t.typed_view::<f32>().unwrap();
        let shape = t.shape().to_vec();
        assert_eq!(shape.iter().product::<usize>(), want.len(), "{name}");
        for (flat, &w) in want.iter().enumerate() {
            let mut idx = vec![0; shape.len()];
            let mut r = flat;
            for d in (0..shape.len()).rev() {
                idx[d] = r % shape[d];
                r /= shape[d];
            }
            assert_eq!(v[&idx[..]], w, "{name} at {idx:?}");
        }
        if !shape.is_empty() {
            assert_eq!(v.get(&shape), None, "{name}: index == size is out of range");
        }
    }
    let b = Tensor::from_owner(vec![3u8, 0], &[2], DType::Bool).unwrap();
    assert_eq!(b.iter::<bool>().unwrap().collect::<Vec<_>>(), [true, false]);
    assert!(b.typed_view::<bool>().is_err());
    assert_eq!(
        iota(&[2]).iter::<i32>().unwrap_err().kind(),
        ErrorKind::DType
    );
}

#[test]
#[should_panic(expected = "out of range")]
fn typed_view_index_out_of_range_panics() {
    let t = iota(&[2, 2]);
    let v = t.typed_view::<f32>().unwrap();
    let _ = v[[0, 2]];
}

/// `&t op s`, `s op &t` and the owned forms for one scalar type, against f64 arithmetic.
macro_rules! check_scalar {
    ($t:expr, $s:expr, $sf:expr) => {{
        let t: &Tensor = $t;
        let x: Vec<f64> = t.to_f64_vec().unwrap();
        let s = $sf;
        let cases: Vec<(Tensor, Box<dyn Fn(f64) -> f64>)> = vec![
            (t + $s, Box::new(move |a| a + s)),
            (t - $s, Box::new(move |a| a - s)),
            (t * $s, Box::new(move |a| a * s)),
            (t / $s, Box::new(move |a| a / s)),
            ($s + t, Box::new(move |a| s + a)),
            ($s - t, Box::new(move |a| s - a)),
            ($s * t, Box::new(move |a| s * a)),
            ($s / t, Box::new(move |a| s / a)),
            (t.clone() * $s, Box::new(move |a| a * s)),
            ($s - t.clone(), Box::new(move |a| s - a)),
        ];
        for (i, (r, f)) in cases.into_iter().enumerate() {
            assert_eq!(
                r.dtype(),
                DType::Float32,
                "case {i} with {}",
                stringify!($s)
            );
            let got = r.to_f64_vec().unwrap();
            for (k, (&g, &a)) in got.iter().zip(&x).enumerate() {
                let w = f(a) as f32 as f64;
                assert!(
                    (g - w).abs() <= 1e-6 * w.abs().max(1.0),
                    "case {i} [{k}]: {g} vs {w}"
                );
            }
        }
    }};
}

#[test]
fn scalar_operators_on_both_sides_for_every_numeric_type() {
    // A transposed (strided) float32 operand with no zeros.
    let t = (&iota(&[2, 3]) + 1.0f32).t();
    check_scalar!(&t, 2.0f32, 2.0);
    check_scalar!(&t, 2.5f64, 2.5);
    check_scalar!(&t, f16::from_f32(0.5), 0.5);
    check_scalar!(&t, bf16::from_f32(4.0), 4.0);
    check_scalar!(&t, 3i8, 3.0);
    check_scalar!(&t, -3i16, -3.0);
    check_scalar!(&t, 7i32, 7.0);
    check_scalar!(&t, -7i64, -7.0);
    check_scalar!(&t, 5u8, 5.0);
    check_scalar!(&t, 9u16, 9.0);
    check_scalar!(&t, 11u32, 11.0);
    // An integer tensor meets an integer scalar in its own dtype; a float scalar promotes.
    let i = Tensor::from(vec![1i16, 2, 3]);
    assert_eq!((&i * 3u8).dtype(), DType::Int16);
    assert_eq!((&i * 3u8).to_vec::<i16>().unwrap(), [3, 6, 9]);
    assert_eq!((10i64 - &i).to_vec::<i16>().unwrap(), [9, 8, 7]);
    assert!((&i * 0.5f64).dtype().is_float());
    // Owned and mixed tensor operands.
    let a = Tensor::from(vec![1.0f32, 2.0]);
    let b = Tensor::from(vec![10.0f32, 20.0]);
    assert_eq!(
        (a.clone() + b.clone()).to_vec::<f32>().unwrap(),
        [11.0, 22.0]
    );
    assert_eq!((&a - b.clone()).to_vec::<f32>().unwrap(), [-9.0, -18.0]);
    assert_eq!((-a.clone()).to_vec::<f32>().unwrap(), [-1.0, -2.0]);
}

#[test]
fn compound_assignment_in_place_or_rebinding() {
    // Exclusive: written in place, the buffer stays.
    let mut a = Tensor::from(vec![1.0f32, 2.0, 3.0]);
    let p = a.const_data_ptr();
    a += &Tensor::from(vec![1.0f32, 1.0, 1.0]);
    a *= 2u8;
    a -= 0.5f64;
    a /= Tensor::from(vec![2.0f32]); // broadcast
    assert_eq!(a.const_data_ptr(), p);
    assert_eq!(a.to_vec::<f32>().unwrap(), [1.75, 2.75, 3.75]);
    // Shared: rebound, the alias keeps its values.
    let alias = a.clone();
    a += 1i32;
    assert_ne!(a.const_data_ptr(), p);
    assert_eq!(alias.to_vec::<f32>().unwrap(), [1.75, 2.75, 3.75]);
    assert_eq!(a.to_vec::<f32>().unwrap(), [2.75, 3.75, 4.75]);
    // The dtype is kept, in both paths; a float result is not stored into an integer
    // tensor (numpy's and PyTorch's casting rule), in both paths.
    let mut i = Tensor::from(vec![1i32, 2]);
    i += 3u8;
    assert_eq!(
        (i.dtype(), i.to_vec::<i32>().unwrap()),
        (DType::Int32, vec![4, 5])
    );
    assert_eq!(
        i.try_add_assign(0.75f32).unwrap_err().kind(),
        ErrorKind::DType
    );
    let keep = i.clone();
    i *= 2i64;
    assert_eq!(
        (i.dtype(), i.to_vec::<i32>().unwrap()),
        (DType::Int32, vec![8, 10])
    );
    assert_eq!(
        i.try_mul_assign(2.5f64).unwrap_err().kind(),
        ErrorKind::DType
    );
    assert_eq!(i.to_vec::<i32>().unwrap(), [8, 10]);
    assert_eq!(keep.to_vec::<i32>().unwrap(), [4, 5]);
    drop(keep);
    // A right-hand side that would grow the tensor is an error, in both paths.
    let mut small = Tensor::from(vec![1.0f32, 2.0]);
    let big = iota(&[3, 2]);
    assert_eq!(
        small.try_add_assign(&big).unwrap_err().kind(),
        ErrorKind::InvalidShape
    );
    let _alias = small.clone();
    assert_eq!(
        small.try_add_assign(&big).unwrap_err().kind(),
        ErrorKind::InvalidShape
    );
    assert_eq!(small.to_vec::<f32>().unwrap(), [1.0, 2.0]);
}

#[test]
fn read_only_memory_is_never_written_by_compound_assignment() {
    let shared: std::sync::Arc<[f32]> = vec![1.0, 2.0].into();
    let mut t = Tensor::from_owner(shared.clone(), &[2], DType::Float32).unwrap();
    t += 5.0f32;
    assert_eq!(t.to_vec::<f32>().unwrap(), [6.0, 7.0]);
    assert_eq!(&shared[..], &[1.0, 2.0]);
}

#[test]
fn try_forms_return_the_errors_operators_panic_with() {
    let a = iota(&[2, 3]);
    let b = iota(&[4]);
    let e = a.try_add(&b).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidShape);
    let msg = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| &a + &b))
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    assert_eq!(*msg, e.to_string());
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut x = iota(&[2, 3]);
        x -= &b;
    }))
    .is_err());
    let bools = Tensor::from(vec![true, false]);
    assert_eq!(bools.try_sub(true).unwrap_err().kind(), ErrorKind::DType);
    assert_eq!(
        a.try_mul(2i8).unwrap().to_f64_vec().unwrap(),
        [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    );
    assert_eq!(
        a.try_div(a.try_add(1u8).unwrap())
            .unwrap()
            .to_f64_vec()
            .unwrap()[1],
        0.5
    );
    assert_eq!(a.try_neg().unwrap().to_f64_vec().unwrap()[2], -2.0);
}

#[test]
fn equal_and_allclose_follow_numpy() {
    let a = Tensor::from(vec![1.0f32, f32::INFINITY, 3.0]);
    assert!(a.equal(&a.clone()).unwrap());
    assert!(a
        .equal(&Tensor::from(vec![1.0f64, f64::INFINITY, 3.0]))
        .unwrap());
    assert!(!a
        .equal(&Tensor::from(vec![1.0f32, f32::INFINITY, 3.5]))
        .unwrap());
    assert!(!a.equal(&a.reshape(&[3, 1]).unwrap()).unwrap());
    let nan = Tensor::from(vec![f32::NAN]);
    assert!(!nan.equal(&nan).unwrap());
    assert!(!nan.allclose(&nan, 1e-5, 1e-8).unwrap());
    // rtol is relative to |b|; infinities are close only to themselves.
    let x = Tensor::from(vec![100.0f64, f64::INFINITY]);
    assert!(x
        .allclose(&Tensor::from(vec![100.0009f64, f64::INFINITY]), 1e-5, 0.0)
        .unwrap());
    assert!(!x
        .allclose(&Tensor::from(vec![100.0011f64, f64::INFINITY]), 1e-5, 0.0)
        .unwrap());
    assert!(!x
        .allclose(&Tensor::from(vec![100.0f64, f64::NEG_INFINITY]), 1e-5, 0.0)
        .unwrap());
    assert!(!Tensor::from(vec![1e300f64])
        .allclose(&Tensor::from(vec![f64::INFINITY]), 1e-5, 1e-8)
        .unwrap());
    // Broadcasting, strided and empty operands.
    let m = iota(&[2, 3]).t();
    let col = Tensor::try_from([[0.0f32, 3.0]]).unwrap();
    assert!(!m.allclose(&col, 0.0, 0.5).unwrap());
    assert!(m.allclose(&col, 0.0, 2.0).unwrap());
    let empty = iota(&[0, 3]);
    assert!(empty.allclose(&empty, 0.0, 0.0).unwrap());
    assert!(empty.equal(&empty).unwrap());
    assert_eq!(
        m.allclose(&iota(&[5]), 0.0, 0.0).unwrap_err().kind(),
        ErrorKind::InvalidShape
    );
}

#[cfg(feature = "ndarray")]
mod with_ndarray {
    use super::*;
    use ndarray::{s, Array, Array2, ArrayD, ShapeBuilder};

    #[test]
    fn owned_arrays_move_without_a_copy_in_any_layout() {
        let c = Array2::from_shape_fn((3, 4), |(r, k)| (10 * r + k) as i32);
        let f = Array2::from_shape_fn((3, 4).f(), |(r, k)| (10 * r + k) as i32);
        let flipped = c.clone().slice_move(s![..;-1, 1..;2]);
        for (name, arr) in [("c", c), ("fortran", f), ("flipped+sliced", flipped)] {
            let want: Vec<i32> = arr.iter().copied().collect();
            let shape = arr.shape().to_vec();
            let p = arr.as_ptr();
            let t = Tensor::try_from(arr).unwrap();
            assert_eq!(t.shape(), &shape[..], "{name}");
            assert_eq!(t.const_data_ptr(), p.cast(), "{name}: moved, not copied");
            assert_eq!(t.iter::<i32>().unwrap().collect::<Vec<_>>(), want, "{name}");
            // And back: the view borrows the same memory.
            let v = t.as_array_view::<i32>().unwrap();
            assert_eq!(v.as_ptr(), p, "{name}");
            assert_eq!(v.iter().copied().collect::<Vec<_>>(), want, "{name}");
        }
        let empty = Array::<f32, _>::zeros((0, 5));
        let te = Tensor::try_from(empty).unwrap();
        assert_eq!(te.shape(), &[0, 5]);
        assert_eq!(te.as_array_view::<f32>().unwrap().shape(), &[0, 5]);
    }

    #[test]
    fn array_views_of_every_tensor_layout() {
        for (name, t, want) in views() {
            let v = t.as_array_view::<f32>().unwrap();
            assert_eq!(v.shape(), t.shape(), "{name}");
            assert_eq!(v.iter().copied().collect::<Vec<_>>(), want, "{name}");
            let owned = ArrayD::<f32>::try_from(&t).unwrap();
            assert_eq!(owned.iter().copied().collect::<Vec<_>>(), want, "{name}");
            let copied = Tensor::try_from(v).unwrap();
            assert_eq!(copied.to_vec::<f32>().unwrap(), want, "{name}");
        }
        assert_eq!(
            iota(&[2]).as_array_view::<f64>().unwrap_err().kind(),
            ErrorKind::DType
        );
    }

    #[test]
    fn mutable_array_views_need_exclusive_non_overlapping_memory() {
        let mut t = iota(&[2, 3]).t();
        {
            let mut v = t.as_array_view_mut::<f32>().unwrap();
            v[[2, 1]] = 100.0;
        }
        assert_eq!(
            t.iter::<f32>().unwrap().collect::<Vec<_>>(),
            [0.0, 3.0, 1.0, 4.0, 2.0, 100.0]
        );
        let mut b = iota(&[1, 3]).expand(&[4, 3]).unwrap();
        assert_eq!(
            b.as_array_view_mut::<f32>().unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        let _alias = t.clone();
        assert_eq!(
            t.as_array_view_mut::<f32>().unwrap_err().kind(),
            ErrorKind::ReadOnly
        );
    }
}

#[cfg(feature = "serde")]
mod with_serde {
    use super::*;

    #[test]
    fn json_round_trips_keep_shape_dtype_and_values() {
        for (name, t, want) in views() {
            let json = serde_json::to_string(&t).unwrap();
            let back: Tensor = serde_json::from_str(&json).unwrap();
            assert_eq!(back.shape(), t.shape(), "{name}");
            assert_eq!(back.to_vec::<f32>().unwrap(), want, "{name}");
        }
        let h = Tensor::from(vec![f16::from_f32(1.5), f16::from_f32(-2.0)]);
        let back: Tensor = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
        assert_eq!(back.dtype(), DType::Float16);
        assert!(back.equal(&h).unwrap());
        let json = serde_json::to_string(&Tensor::from(vec![258i16])).unwrap();
        assert_eq!(json, r#"{"shape":[1],"dtype":"int16","data":[2,1]}"#);
        let forged = r#"{"shape":[1000000000000],"dtype":"float32","data":[0,0,0,0]}"#;
        let e = serde_json::from_str::<Tensor>(forged).unwrap_err();
        assert!(e.to_string().contains("needs"), "{e}");
    }
}

#[test]
fn pretty_printing_is_nested_aligned_and_summarised() {
    use clika_rt::PrintOptions;
    let t = Tensor::try_from([[1i32, 2], [3, 40]]).unwrap();
    assert_eq!(
        format!("{t:#}"),
        "Tensor([[ 1,  2],\n        [ 3, 40]], dtype=Int32, device=CPU)"
    );
    // The one-line form is untouched.
    assert!(format!("{t}").starts_with("Tensor(shape=[2, 2], dtype=Int32"));
    assert_eq!(format!("{t}"), t.to_string());
    // Three dimensions: a blank line between blocks; layout does not matter.
    let c = Tensor::from_vec((0..8).map(|i| i as i64).collect(), &[2, 2, 2]).unwrap();
    let want = "Tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]], dtype=Int64, device=CPU)";
    assert_eq!(format!("{c:#}"), want);
    let perm = c.permute(&[2, 1, 0]).unwrap();
    assert_eq!(
        format!("{perm:#}"),
        format!("{:#}", perm.contiguous_copy().unwrap())
    );
    // Summarised past the threshold: edge items around "...".
    let big = Tensor::arange(0.0, 2000.0, 1.0, DType::Int64)
        .unwrap()
        .reshape(&[2, 1000])
        .unwrap();
    let row = |r: i64| {
        let cells: Vec<String> = [0, 1, 2]
            .iter()
            .map(|c| format!("{:>4}", 1000 * r + c))
            .chain(std::iter::once("...".to_string()))
            .chain(
                [997, 998, 999]
                    .iter()
                    .map(|c| format!("{:>4}", 1000 * r + c)),
            )
            .collect();
        format!("[{}]", cells.join(", "))
    };
    assert_eq!(
        format!("{big:#}"),
        format!(
            "Tensor([{},\n        {}], dtype=Int64, device=CPU)",
            row(0),
            row(1)
        )
    );
    let opts = PrintOptions {
        precision: 2,
        threshold: 3,
        edgeitems: 1,
    };
    let f = Tensor::from(vec![1.0f64 / 3.0, 2.0, 0.5, -1.0]);
    assert_eq!(
        f.to_pretty_string(&opts),
        "Tensor([ 0.33, ..., -1.  ], dtype=Float64, device=CPU)"
    );
    let s = Tensor::from(vec![1e-5f32, 1.0, f32::NAN, f32::NEG_INFINITY]);
    assert_eq!(
        format!("{s:#}"),
        "Tensor([1.0000e-5,  1.0000e0,       nan,      -inf], dtype=Float32, device=CPU)"
    );
    let b = Tensor::from(vec![true, false]);
    assert_eq!(
        format!("{b:#}"),
        "Tensor([ true, false], dtype=Bool, device=CPU)"
    );
    let zero_d = Tensor::from(vec![7u8]).reshape(&[]).unwrap();
    assert_eq!(format!("{zero_d:#}"), "Tensor(7, dtype=UInt8, device=CPU)");
    let empty = iota(&[0, 3]);
    assert_eq!(
        format!("{empty:#}"),
        "Tensor([], shape=[0, 3], dtype=Float32, device=CPU)"
    );
}
