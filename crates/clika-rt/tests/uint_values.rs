//! The unsigned dtypes wider than a byte (`UInt16`, `UInt32`, `UInt64`): casts, wrapping
//! arithmetic, unsigned order, reductions and printing, with `UInt64` values above
//! `i64::MAX` (which would turn negative if any path went through `i64` and read it back
//! signed).

use clika_rt::ops::{BinaryOp, Scalar, UnaryOp};
use clika_rt::{DType, ErrorKind, Tensor};

const BIG: u64 = u64::MAX - 1; // above i64::MAX, and not 2^64 - 1 itself
const HALF: u64 = 1 << 63;

fn u64s(t: &Tensor) -> Vec<u64> {
    t.contiguous().unwrap().to_vec::<u64>().unwrap()
}

#[test]
fn u64_above_i64_max_survives_copies_and_casts() {
    let t = Tensor::from_vec(vec![BIG, HALF, 3, 0], &[4]).unwrap();
    assert_eq!(t.dtype(), DType::UInt64);
    assert_eq!(u64s(&t.to_dtype(DType::UInt64).unwrap()), [BIG, HALF, 3, 0]);
    // A strided copy (every other element, reversed layout through a transpose).
    let m = t.view(&[2, 2]).unwrap().transpose(0, 1).unwrap();
    assert_eq!(u64s(&m), [BIG, 3, HALF, 0]);
    let f = t.to_dtype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(f, [BIG as f64, HALF as f64, 3.0, 0.0]);
    assert!(f[0] > 1.8e19);
    // To a signed type: the two's-complement bits (numpy's astype); back: unchanged.
    let i = t.to_dtype(DType::Int64).unwrap();
    assert_eq!(i.to_vec::<i64>().unwrap(), [-2, i64::MIN, 3, 0]);
    assert_eq!(u64s(&i.to_dtype(DType::UInt64).unwrap()), [BIG, HALF, 3, 0]);
    // Float → unsigned saturates, negative → 0.
    let g = Tensor::from_vec(vec![-1.0f64, 1.5e19, 1e30, 70000.0], &[4]).unwrap();
    assert_eq!(
        u64s(&g.to_dtype(DType::UInt64).unwrap()),
        [0, 15_000_000_000_000_000_000, u64::MAX, 70000]
    );
    let u16s = g.to_dtype(DType::UInt16).unwrap().to_vec::<u16>().unwrap();
    assert_eq!(u16s, [0, u16::MAX, u16::MAX, u16::MAX]);
    // Narrowing between integers wraps.
    let w = Tensor::from_vec(vec![70000u32, u32::MAX], &[2]).unwrap();
    assert_eq!(
        w.to_dtype(DType::UInt16).unwrap().to_vec::<u16>().unwrap(),
        [(70000 - 65536) as u16, u16::MAX]
    );
    assert_eq!(
        w.to_dtype(DType::Int32).unwrap().to_vec::<i32>().unwrap(),
        [70000, -1]
    );
}

#[test]
fn arithmetic_wraps_and_promotes() {
    let a = Tensor::from_vec(vec![65535u16, 1, 300], &[3]).unwrap();
    let b = Tensor::from_vec(vec![1u16, 2, 300], &[3]).unwrap();
    let s = &a + &b;
    assert_eq!(s.dtype(), DType::UInt16);
    assert_eq!(s.to_vec::<u16>().unwrap(), [0, 3, 600]);
    let p = a.binary(BinaryOp::Mul, &b).unwrap();
    assert_eq!(
        p.to_vec::<u16>().unwrap(),
        [65535, 2, (90000u32 % 65536) as u16]
    );
    let d = b.binary(BinaryOp::Sub, &a).unwrap();
    assert_eq!(d.to_vec::<u16>().unwrap(), [2, 1, 0]);
    // Negation wraps (numpy); abs is the identity.
    let n = a.unary(UnaryOp::Neg).unwrap();
    assert_eq!(n.to_vec::<u16>().unwrap(), [1, 65535, 65236]);
    assert_eq!(
        a.unary(UnaryOp::Abs).unwrap().to_vec::<u16>().unwrap(),
        [65535, 1, 300]
    );
    // Mixed with signed types: the smallest signed type holding both; UInt64 + Int64 → Float64.
    let i16s = Tensor::from_vec(vec![-1i16, -2, -3], &[3]).unwrap();
    let m = &a + &i16s;
    assert_eq!(m.dtype(), DType::Int32);
    assert_eq!(m.to_vec::<i32>().unwrap(), [65534, -1, 297]);
    let big = Tensor::from_vec(vec![BIG, 1, 2], &[3]).unwrap();
    let i64s = Tensor::from_vec(vec![-1i64, -1, 5], &[3]).unwrap();
    let f = &big + &i64s;
    assert_eq!(f.dtype(), DType::Float64);
    assert_eq!(f.to_vec::<f64>().unwrap(), [BIG as f64, 0.0, 7.0]);
    // A weak scalar keeps the dtype and wraps; a u64 scalar above i64::MAX is exact.
    let x = big
        .binary_scalar(BinaryOp::Add, Scalar::from(1u64))
        .unwrap();
    assert_eq!(u64s(&x), [u64::MAX, 2, 3]);
    let y = big
        .binary_scalar(BinaryOp::Sub, Scalar::from(u64::MAX))
        .unwrap();
    assert_eq!(u64s(&y), [u64::MAX, 2, 3]);
    let u32s = Tensor::from_vec(vec![u32::MAX, 7], &[2]).unwrap();
    let z = u32s.binary_scalar(BinaryOp::Add, 2i64).unwrap();
    assert_eq!(z.dtype(), DType::UInt32);
    assert_eq!(z.to_vec::<u32>().unwrap(), [1, 9]);
    // Broadcast against a column.
    let col = Tensor::from_vec(vec![1u32, 2], &[2, 1]).unwrap();
    let bc = &col + &u32s.view(&[1, 2]).unwrap();
    assert_eq!(bc.to_vec::<u32>().unwrap(), [0, 8, 1, 9]);
}

#[test]
fn comparisons_max_sort_and_argmax_use_unsigned_order() {
    let t = Tensor::from_vec(vec![5, BIG, HALF, 0, u64::MAX, 7], &[6]).unwrap();
    let gt = t.binary_scalar(BinaryOp::Gt, 10i64).unwrap();
    assert_eq!(
        gt.to_vec::<bool>().unwrap(),
        [false, true, true, false, true, false]
    );
    let other = Tensor::from_vec(vec![6u64, 1, HALF + 1, 0, 0, 7], &[6]).unwrap();
    let mx = t.binary(BinaryOp::Maximum, &other).unwrap();
    assert_eq!(u64s(&mx), [6, BIG, HALF + 1, 0, u64::MAX, 7]);
    let mn = t.binary(BinaryOp::Minimum, &other).unwrap();
    assert_eq!(u64s(&mn), [5, 1, HALF, 0, 0, 7]);
    assert_eq!(t.max().unwrap().item::<u64>().unwrap(), u64::MAX);
    assert_eq!(t.min().unwrap().item::<u64>().unwrap(), 0);
    assert_eq!(t.argmax().unwrap().item::<i64>().unwrap(), 4);
    assert_eq!(t.argmin().unwrap().item::<i64>().unwrap(), 3);
    let sorted = t.sort(0, false).unwrap();
    assert_eq!(u64s(&sorted.values), [0, 5, 7, HALF, BIG, u64::MAX]);
    assert_eq!(sorted.indices.to_vec::<i64>().unwrap(), [3, 0, 5, 2, 1, 4]);
    // Column reductions (the kept dim contiguous) too.
    let m = t.view(&[2, 3]).unwrap();
    assert_eq!(
        u64s(&m.max_dim(0, false).unwrap().values),
        [5, u64::MAX, HALF]
    );
    assert_eq!(u64s(&m.min_dim(1, false).unwrap().values), [5, 0]);
    let u16s = Tensor::from_vec(vec![40000u16, 2, 65535, 3], &[4]).unwrap();
    assert_eq!(u16s.max().unwrap().item::<u16>().unwrap(), 65535);
    assert_eq!(
        u16s.sort(0, true).unwrap().values.to_vec::<u16>().unwrap(),
        [65535, 40000, 3, 2]
    );
}

#[test]
fn sums_widen_to_int64_except_uint64_which_wraps_modulo_2_64() {
    let a = Tensor::from_vec(vec![u32::MAX; 4], &[2, 2]).unwrap();
    let s = a.sum().unwrap();
    assert_eq!(s.dtype(), DType::Int64);
    assert_eq!(s.item::<i64>().unwrap(), 4 * i64::from(u32::MAX));
    let cols = a.sum_dims(&[0], false).unwrap();
    assert_eq!(cols.to_vec::<i64>().unwrap(), [2 * i64::from(u32::MAX); 2]);
    let u16s = Tensor::from_vec(vec![65535u16; 3], &[3]).unwrap();
    assert_eq!(u16s.sum().unwrap().item::<i64>().unwrap(), 3 * 65535);
    let b = Tensor::from_vec(vec![HALF, HALF - 1, 5], &[3]).unwrap();
    let s = b.sum().unwrap();
    assert_eq!(s.dtype(), DType::UInt64);
    assert_eq!(s.item::<u64>().unwrap(), u64::MAX.wrapping_add(5));
    let c = Tensor::from_vec(vec![HALF, 7], &[2]).unwrap();
    assert_eq!(c.sum().unwrap().item::<u64>().unwrap(), HALF + 7);
    // Mean in Float64, read unsigned.
    assert_eq!(
        c.mean().unwrap().item::<f64>().unwrap(),
        (HALF as f64 + 7.0) / 2.0
    );
    let cs = c.cumsum(0, None).unwrap();
    assert_eq!(cs.dtype(), DType::UInt64);
    assert_eq!(u64s(&cs), [HALF, HALF + 7]);
}

#[test]
fn bitwise_shift_and_integer_division() {
    let a = Tensor::from_vec(vec![0xf0f0u16, 0xffff, 7], &[3]).unwrap();
    let b = Tensor::from_vec(vec![0x0ff0u16, 0x00ff, 2], &[3]).unwrap();
    let x = a.binary(BinaryOp::BitwiseXor, &b).unwrap();
    assert_eq!(x.to_vec::<u16>().unwrap(), [0xff00, 0xff00, 5]);
    let n = a.unary(UnaryOp::BitwiseNot).unwrap();
    assert_eq!(n.to_vec::<u16>().unwrap(), [0x0f0f, 0, 0xfff8]);
    let big = Tensor::from_vec(vec![u64::MAX, HALF, 9], &[3]).unwrap();
    let sh = Tensor::from_vec(vec![63u64, 64, 1], &[3]).unwrap();
    // Logical (not arithmetic) right shift; shifts past the width give 0.
    assert_eq!(
        u64s(&big.binary(BinaryOp::BitwiseRightShift, &sh).unwrap()),
        [1, 0, 4]
    );
    assert_eq!(
        u64s(&big.binary(BinaryOp::BitwiseLeftShift, &sh).unwrap()),
        [HALF, 0, 18]
    );
    let d = Tensor::from_vec(vec![10u64, 3, 4], &[3]).unwrap();
    assert_eq!(
        u64s(&big.binary(BinaryOp::FloorDivide, &d).unwrap()),
        [u64::MAX / 10, HALF / 3, 2]
    );
    assert_eq!(
        u64s(&big.binary(BinaryOp::Remainder, &d).unwrap()),
        [5, HALF % 3, 1]
    );
    let zero = Tensor::from_vec(vec![1u32, 0], &[2]).unwrap();
    let e = zero.binary(BinaryOp::FloorDivide, &zero).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
}

#[test]
fn printing_shows_unsigned_values() {
    let t = Tensor::from_vec(vec![u64::MAX, 1], &[2]).unwrap();
    let s = t.to_string();
    assert!(s.contains("18446744073709551615"), "{s}");
    assert!(s.contains("UInt64"), "{s}");
    let p = format!("{t:#}");
    assert!(p.contains("18446744073709551615"), "{p}");
    assert!(!p.contains('-'), "{p}");
    let u = Tensor::from_vec(vec![65535u16], &[1]).unwrap();
    assert!(u.to_string().contains("65535"));
}
