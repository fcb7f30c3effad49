//! Values of the first ops for every dtype, accuracy of float sums, printing, and the
//! guarantee that ops never write borrowed memory.

use clika_rt::dtype::{cast, Element};
use clika_rt::{dispatch_dtype, DType, OwnerKind, Tensor};

#[test]
#[cfg_attr(miri, ignore = "10^7 elements is too slow under Miri")]
fn float32_sum_of_ten_million_tenths_is_accurate() {
    let n = 10_000_000usize;
    let t = Tensor::full(&[n], 0.1, DType::Float32).unwrap();
    let got = t.sum().unwrap().item::<f64>().unwrap();
    let exact = n as f64 * (0.1f32 as f64);
    assert!(
        ((got - exact) / exact).abs() < 1e-5,
        "sum {got} vs exact {exact}"
    );
    // A naive running f32 sum misses by percent; make sure the test could tell.
    let naive = (0..n).fold(0f32, |a, _| a + 0.1f32) as f64;
    assert!(((naive - exact) / exact).abs() > 1e-3);
    let m = t.mean().unwrap().item::<f64>().unwrap();
    assert!((m - 0.1f32 as f64).abs() < 1e-7);
}

#[test]
fn sum_and_mean_for_every_dtype() {
    for dtype in DType::ALL {
        let t = Tensor::arange(0.0, 6.0, 1.0, dtype)
            .unwrap()
            .view(&[2, 3])
            .unwrap();
        let s = t.sum().unwrap();
        assert_eq!(s.dtype(), dtype.sum_dtype());
        assert_eq!(s.shape(), &[] as &[usize]);
        let want = if dtype == DType::Bool { 5.0 } else { 15.0 };
        assert_eq!(s.item::<f64>().unwrap(), want, "{dtype}");
        let rows = t.sum_dims(&[1], false).unwrap().to_f64_vec().unwrap();
        let want_rows = if dtype == DType::Bool {
            vec![2.0, 3.0]
        } else {
            vec![3.0, 12.0]
        };
        assert_eq!(rows, want_rows, "{dtype}");
        let cols = t.mean_dims(&[0], true).unwrap();
        assert_eq!(cols.shape(), &[1, 3]);
        assert_eq!(cols.dtype(), dtype.mean_dtype());
        if dtype != DType::Bool {
            assert_eq!(cols.to_f64_vec().unwrap(), [1.5, 2.5, 3.5], "{dtype}");
        }
    }
}

#[test]
fn integer_sums_widen_and_empty_reductions_are_defined() {
    let t = Tensor::full(&[1000], 200.0, DType::UInt8).unwrap();
    assert_eq!(t.sum().unwrap().item::<i64>().unwrap(), 200_000);
    let e = Tensor::zeros(&[0, 3], DType::Float32).unwrap();
    assert_eq!(e.sum().unwrap().item::<f32>().unwrap(), 0.0);
    assert!(e.mean().unwrap().item::<f32>().unwrap().is_nan());
    assert_eq!(
        e.sum_dims(&[0], false).unwrap().to_vec::<f32>().unwrap(),
        [0.0; 3]
    );
    let nothing = Tensor::arange(0.0, 4.0, 1.0, DType::Int32)
        .unwrap()
        .sum_dims(&[], false)
        .unwrap();
    assert_eq!(nothing.to_vec::<i64>().unwrap(), [0, 1, 2, 3]);
}

fn check_cast<S: Element, D: Element>(src: &Tensor, dense_permuted: bool) {
    let want: Vec<D> = src
        .to_vec::<S>()
        .unwrap()
        .into_iter()
        .map(cast::<S, D>)
        .collect();
    let got = src.to_dtype(D::DTYPE).unwrap();
    assert_eq!(got.dtype(), D::DTYPE);
    if S::DTYPE == D::DTYPE {
        assert!(
            got.storage().same_as(src.storage()),
            "same dtype is not a copy"
        );
    } else if dense_permuted {
        // PyTorch's `to` and numpy's `astype` keep a transpose's layout.
        assert_eq!(got.strides(), src.strides(), "{} -> {}", S::DTYPE, D::DTYPE);
    } else {
        assert!(got.is_contiguous(), "{} -> {}", S::DTYPE, D::DTYPE);
    }
    assert_eq!(
        got.to_vec::<D>().unwrap(),
        want,
        "{} -> {}",
        S::DTYPE,
        D::DTYPE
    );
}

/// Contiguous casts between `f32` and the half types go through slice conversions (F16C
/// where present); they must round exactly as the per-element cast does, bit for bit,
/// including ties, subnormals, overflow to infinity, signed zeros and NaN.
#[test]
#[cfg_attr(miri, ignore = "thousands of elements are slow under Miri")]
fn contiguous_half_casts_match_the_element_cast_bit_for_bit() {
    let mut vals: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        65504.0,
        65520.0,
        65519.99,
        1e-8,
        -1e-8,
        6.1e-5,
        5.96e-8,
        2.98e-8,
        3e38,
        -3e38,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::MIN_POSITIVE,
        1e-40,
        1.0 + f32::EPSILON,
        2049.0,
        2051.0,
        1.0 + 1.0 / 2048.0, // an f16 rounding tie (to even: down)
        1.0 + 3.0 / 2048.0, // an f16 rounding tie (to even: up)
    ];
    // A dense sweep of exponents and mantissas (odd length: a SIMD tail too).
    vals.extend((0..3001).map(|i| f32::from_bits(0x3380_0000u32.wrapping_add(i * 0x0001_3579))));
    let bits16 = |t: &Tensor| -> Vec<u16> {
        match t.dtype() {
            DType::Float16 => t
                .to_vec::<half::f16>()
                .unwrap()
                .iter()
                .map(|v| v.to_bits())
                .collect(),
            _ => t
                .to_vec::<half::bf16>()
                .unwrap()
                .iter()
                .map(|v| v.to_bits())
                .collect(),
        }
    };
    let src = Tensor::from_data(&vals, &[vals.len()]).unwrap();
    let h = src.to_dtype(DType::Float16).unwrap();
    let want: Vec<u16> = vals
        .iter()
        .map(|&v| cast::<f32, half::f16>(v).to_bits())
        .collect();
    assert_eq!(bits16(&h), want);
    let b = src.to_dtype(DType::BFloat16).unwrap();
    let want: Vec<u16> = vals
        .iter()
        .map(|&v| cast::<f32, half::bf16>(v).to_bits())
        .collect();
    assert_eq!(bits16(&b), want);
    for t in [h, b] {
        let back: Vec<u32> = t
            .to_dtype(DType::Float32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        let want: Vec<u32> = t
            .to_f64_vec()
            .unwrap()
            .iter()
            .map(|&v| (v as f32).to_bits())
            .collect();
        // NaNs keep their sign; the quiet bit may be set either way.
        for (g, w) in back.iter().zip(&want) {
            let nan = |x: u32| f32::from_bits(x).is_nan();
            assert!(
                g == w || (nan(*g) && nan(*w) && g >> 31 == w >> 31),
                "{g:#x} vs {w:#x}"
            );
        }
    }
}

#[test]
fn to_dtype_every_pair_on_a_strided_view() {
    let vals = [
        -3.5, -1.0, 0.0, 0.5, 1.0, 2.0, 127.0, 300.7, -200.2, 7.0, 1e6, -0.0,
    ];
    let wide: Vec<f64> = vals.iter().chain(&vals).copied().collect();
    for s in DType::ALL {
        // A transpose (dense: the result keeps its layout), and a transpose of every
        // other column of a wider matrix (gaps: the result is row-major).
        let t = Tensor::from_data(&vals, &[3, 4])
            .unwrap()
            .to_dtype(s)
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        let gapped = Tensor::from_data(&wide, &[3, 8])
            .unwrap()
            .to_dtype(s)
            .unwrap()
            .slice(1, Some(0), None, 2)
            .unwrap()
            .transpose(0, 1)
            .unwrap();
        for d in DType::ALL {
            dispatch_dtype!(s, S => dispatch_dtype!(d, D => {
                check_cast::<S, D>(&t, true);
                check_cast::<S, D>(&gapped, false);
            }));
        }
    }
}

#[test]
fn bool_bytes_from_foreign_memory_are_normalised() {
    let mut raw = [0u8, 2, 255, 1];
    // SAFETY: `raw` outlives `t` and is not written while it lives.
    let t = unsafe { Tensor::from_blob(raw.as_mut_ptr(), &[4], DType::Bool) }.unwrap();
    assert_eq!(t.to_vec::<bool>().unwrap(), [false, true, true, true]);
    assert_eq!(t.sum().unwrap().item::<i64>().unwrap(), 3);
    let u = t.to_dtype(DType::UInt8).unwrap();
    assert_eq!(u.to_vec::<u8>().unwrap(), [0, 1, 1, 1]);
    let copy = t.slice(0, None, None, -1).unwrap().contiguous().unwrap();
    assert_eq!(
        copy.to_dtype(DType::UInt8).unwrap().to_vec::<u8>().unwrap(),
        [1, 1, 1, 0]
    );
}

#[test]
fn printing_follows_the_spec_format() {
    let t = Tensor::arange(0.0, 6.0, 1.0, DType::Float32)
        .unwrap()
        .view(&[2, 3])
        .unwrap();
    assert_eq!(
        t.to_string(),
        "Tensor(shape=[2, 3], dtype=Float32, device=CPU, numel=6, data=[0, 1, 2, 3, 4, 5])"
    );
    let s = Tensor::full(&[], 0.1, DType::Float64).unwrap();
    assert_eq!(
        s.to_string(),
        "Tensor(shape=[], dtype=Float64, device=CPU, numel=1, data=[0.1])"
    );
    let b = Tensor::from_data(&[true, false], &[2]).unwrap();
    assert!(b.to_string().ends_with("data=[true, false])"));
    let long = Tensor::arange(0.0, 100.0, 1.0, DType::Int64).unwrap();
    assert_eq!(
        long.to_string(),
        "Tensor(shape=[100], dtype=Int64, device=CPU, numel=100, data=[0, 1, 2, 3, 4, 5, 6, 7, ..., 92, 93, 94, 95, 96, 97, 98, 99])"
    );
}

#[test]
fn contiguous_shares_when_possible_and_copies_otherwise() {
    let t = Tensor::arange(0.0, 12.0, 1.0, DType::Int16)
        .unwrap()
        .view(&[3, 4])
        .unwrap();
    assert!(t.contiguous().unwrap().storage().same_as(t.storage()));
    let tt = t.t();
    let c = tt.contiguous().unwrap();
    assert!(!c.storage().same_as(t.storage()));
    assert_eq!(c.owner_kind(), OwnerKind::Pool);
    assert_eq!(c.strides(), &[3, 1]);
    assert_eq!(c.to_vec::<i16>().unwrap(), tt.to_vec::<i16>().unwrap());
}

/// Runs every op in the crate on `t`.
fn every_op(t: &Tensor) {
    let _ = t.sum().unwrap();
    let _ = t.mean().unwrap();
    let _ = t.sum_dims(&[0], true).unwrap();
    let _ = t.mean_dims(&[-1], false).unwrap();
    let _ = t.contiguous().unwrap();
    let _ = t.contiguous_copy().unwrap();
    let _ = t.t().contiguous().unwrap();
    for d in DType::ALL {
        let _ = t.to_dtype(d).unwrap();
    }
    let _ = t.reshape(&[-1]).unwrap();
    let _ = t.t().reshape(&[-1]).unwrap();
    let _ = t.flatten(0, -1).unwrap();
    let _ = t.slice(1, None, None, -2).unwrap().contiguous().unwrap();
    let _ = t.select(0, 1).unwrap().item::<f64>().map_err(|_| ());
    let _ = t.expand(&[2, -1, -1]).unwrap().contiguous().unwrap();
    let _ = t.to_string();
    let _ = t.to_f64_vec().unwrap();
    let _ = t
        .narrow(0, 0, 1)
        .unwrap()
        .squeeze(None)
        .unwrap()
        .unsqueeze(0)
        .unwrap()
        .sum()
        .unwrap();
    t.synchronize().unwrap();
}

#[test]
fn ops_never_write_borrowed_memory() {
    for dtype in DType::ALL {
        let n = 4 * 6 * dtype.size();
        // Arbitrary bytes, including non-canonical bools and NaN patterns.
        let mut buf: Vec<u64> = (0..n.div_ceil(8) as u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let before = buf.clone();
        // SAFETY: `buf` outlives `t`, is 8-aligned and holds at least 24 elements.
        let t = unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[4, 6], dtype) }.unwrap();
        assert_eq!(t.owner_kind(), OwnerKind::Borrowed);
        every_op(&t);
        drop(t);
        assert_eq!(buf, before, "{dtype}: borrowed memory changed");
    }
}

/// Contiguous float → integer casts run vectorised (AVX-512 where the CPU has it); they must
/// truncate and saturate as Rust's `as` does (NaN → 0), at every type's bounds, for `f32`
/// and `f64` sources, in the vector body and the tail alike.
#[test]
#[cfg_attr(miri, ignore = "thousands of elements are slow under Miri")]
fn contiguous_float_to_int_casts_saturate_as_as_does() {
    let mut vals: Vec<f64> = vec![0.0, -0.0, 0.5, -0.5, -0.99, f64::NAN, -f64::NAN];
    vals.extend([f64::INFINITY, f64::NEG_INFINITY, 1e300, -1e300]);
    for edge in [
        128.0f64,
        256.0,
        32768.0,
        65536.0,
        2_147_483_648.0,
        4_294_967_296.0,
        9_223_372_036_854_775_808.0,
        18_446_744_073_709_551_616.0,
    ] {
        for v in [edge, -edge, -edge - 1.0] {
            // The value, the next floats either side in both widths.
            let f = v as f32;
            vals.extend([v, v.next_down(), v.next_up()]);
            vals.extend([f.next_down(), f.next_up()].map(f64::from));
        }
    }
    // A sweep of magnitudes (odd length: a SIMD tail too).
    vals.extend((0..2001).map(|i| {
        f64::from(i as f32 * 1.37e16_f32.powf(i as f32 / 2000.0))
            * if i % 2 == 0 { 1.0 } else { -1.0 }
    }));
    let f32s: Vec<f32> = vals.iter().map(|&v| v as f32).collect();
    let t64 = Tensor::from_vec(vals.clone(), &[vals.len()]).unwrap();
    let t32 = Tensor::from_vec(f32s.clone(), &[f32s.len()]).unwrap();
    macro_rules! check {
        ($($t:ty),*) => {$(
            let got = t64.to_dtype(<$t as Element>::DTYPE).unwrap().to_vec::<$t>().unwrap();
            let want: Vec<$t> = vals.iter().map(|&v| v as $t).collect();
            assert_eq!(got, want, "f64 -> {}", stringify!($t));
            let got = t32.to_dtype(<$t as Element>::DTYPE).unwrap().to_vec::<$t>().unwrap();
            let want: Vec<$t> = f32s.iter().map(|&v| v as $t).collect();
            assert_eq!(got, want, "f32 -> {}", stringify!($t));
        )*};
    }
    check!(i8, u8, i16, u16, i32, u32, i64, u64);
}
