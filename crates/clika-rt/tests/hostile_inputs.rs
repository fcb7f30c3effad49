//! Every untrusted descriptor that `from_blob` can be handed is refused with its typed error.

use clika_rt::{BlobOptions, DType, Error, ErrorKind, Tensor, MAX_DIMS};

fn wrap(
    ptr: *mut u8,
    shape: &[i64],
    strides: Option<&[i64]>,
    dtype: DType,
) -> Result<Tensor, Error> {
    // SAFETY: the descriptors in these tests are either refused before any access, or describe
    // memory the test owns for longer than the returned tensor.
    unsafe { Tensor::from_blob_with(ptr, shape, strides, dtype, BlobOptions::default()) }
}

/// An address that is never dereferenced (only refused): `addr` as a pointer.
fn fake(addr: usize) -> *mut u8 {
    std::ptr::without_provenance_mut(addr)
}

#[test]
fn null_pointer_with_elements() {
    let e = wrap(std::ptr::null_mut(), &[3], None, DType::Float32).unwrap_err();
    assert!(matches!(e, Error::NullPointer { numel: 3, .. }), "{e}");
    assert_eq!(e.kind(), ErrorKind::NullPointer);
    // ...but an empty tensor may have a null pointer.
    let t = wrap(std::ptr::null_mut(), &[0, 4], None, DType::Float32).unwrap();
    assert_eq!(t.numel(), 0);
    assert_eq!(t.sum().unwrap().item::<f32>().unwrap(), 0.0);
}

#[test]
fn negative_dimension() {
    let mut b = [0f32; 4];
    let e = wrap(b.as_mut_ptr().cast(), &[2, -2], None, DType::Float32).unwrap_err();
    assert!(matches!(e, Error::NegativeDim { dim: 1, .. }), "{e}");
    assert!(e.to_string().contains("negative"));
}

#[test]
fn shape_product_overflows() {
    let mut b = [0f32; 4];
    let e = wrap(b.as_mut_ptr().cast(), &[i64::MAX, 2], None, DType::Float32).unwrap_err();
    assert!(matches!(e, Error::ShapeOverflow { .. }), "{e}");
    let e = wrap(
        b.as_mut_ptr().cast(),
        &[1 << 32, 1 << 32],
        None,
        DType::Float32,
    )
    .unwrap_err();
    assert!(matches!(e, Error::ShapeOverflow { .. }), "{e}");
}

#[test]
fn byte_extent_overflows() {
    let mut b = [0f32; 4];
    let e = wrap(b.as_mut_ptr().cast(), &[1 << 61], None, DType::Float32).unwrap_err();
    assert!(matches!(e, Error::ShapeOverflow { .. }), "{e}");
}

#[test]
fn stride_times_extent_overflows() {
    let mut b = [0f32; 4];
    let e = wrap(
        b.as_mut_ptr().cast(),
        &[3],
        Some(&[i64::MAX / 2 + 1]),
        DType::Float32,
    )
    .unwrap_err();
    assert!(matches!(e, Error::ShapeOverflow { .. }), "{e}");
    let e = wrap(
        b.as_mut_ptr().cast(),
        &[3, 3],
        Some(&[i64::MIN / 4, i64::MIN / 4]),
        DType::Float32,
    )
    .unwrap_err();
    assert!(matches!(e, Error::ShapeOverflow { .. }), "{e}");
}

#[test]
fn pointer_plus_extent_wraps() {
    let high = fake(usize::MAX - 15);
    let e = wrap(high, &[100], None, DType::UInt8).unwrap_err();
    assert!(matches!(e, Error::AddressWrap { .. }), "{e}");
    // A negative stride reaching below address 0.
    let e = wrap(fake(16), &[100], Some(&[-1]), DType::UInt8).unwrap_err();
    assert!(matches!(e, Error::AddressWrap { .. }), "{e}");
}

#[test]
fn strides_and_shape_lengths_differ() {
    let mut b = [0f32; 4];
    let e = wrap(b.as_mut_ptr().cast(), &[2, 2], Some(&[1]), DType::Float32).unwrap_err();
    assert!(
        matches!(
            e,
            Error::StridesMismatch {
                shape_len: 2,
                strides_len: 1
            }
        ),
        "{e}"
    );
}

#[test]
fn misaligned_pointer() {
    let mut b = [0f64; 4];
    let p = b.as_mut_ptr().cast::<u8>().wrapping_add(4);
    let e = wrap(p, &[2], None, DType::Float64).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Misaligned {
                align: 8,
                dtype: DType::Float64,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.kind(), ErrorKind::Misaligned);
    // The same pointer is fine for a 4-byte type.
    assert!(wrap(p, &[2], None, DType::Float32).is_ok());
}

#[test]
fn too_many_dimensions() {
    let mut b = [0f32; 1];
    let e = wrap(
        b.as_mut_ptr().cast(),
        &[1; MAX_DIMS + 1],
        None,
        DType::Float32,
    )
    .unwrap_err();
    assert!(matches!(e, Error::TooManyDims { ndim: 65, max: 64 }), "{e}");
    assert!(wrap(b.as_mut_ptr().cast(), &[1; MAX_DIMS], None, DType::Float32).is_ok());
}

#[test]
fn safe_entry_points_refuse_bad_lengths_without_panicking() {
    assert!(matches!(
        Tensor::from_vec(vec![1.0f32; 5], &[2, 3]).unwrap_err(),
        Error::DataLength {
            len: 5,
            numel: 6,
            ..
        }
    ));
    assert!(Tensor::from_data(&[1u8; 3], &[4]).is_err());
    assert!(Tensor::from_bytes(&[0u8; 7], &[2], DType::Float32).is_err());
    assert!(Tensor::zeros(&[usize::MAX, 2], DType::Float32).is_err());
    assert!(Tensor::arange(0.0, 1.0, 0.0, DType::Float32).is_err());
    let t = Tensor::zeros(&[2, 3], DType::Float32).unwrap();
    assert!(matches!(
        t.item::<f32>().unwrap_err(),
        Error::NotScalar { numel: 6 }
    ));
    assert!(matches!(
        t.to_vec::<f64>().unwrap_err(),
        Error::DTypeMismatch { .. }
    ));
    assert!(matches!(
        t.transpose(0, 2).unwrap_err(),
        Error::DimOutOfRange { dim: 2, ndim: 2 }
    ));
    assert!(matches!(
        t.select(1, 3).unwrap_err(),
        Error::IndexOutOfRange { .. }
    ));
    assert!(matches!(
        t.slice(0, None, None, 0).unwrap_err(),
        Error::ZeroStep
    ));
    assert!(matches!(
        t.permute(&[0, 0]).unwrap_err(),
        Error::DuplicateDim { .. }
    ));
    assert!(matches!(
        t.view(&[4, -1]).unwrap_err(),
        Error::ReshapeNumel { .. }
    ));
    assert!(matches!(
        t.transpose(0, 1).unwrap().view(&[6]).unwrap_err(),
        Error::NotViewable { .. }
    ));
    assert!(matches!(
        t.expand(&[3, 3]).unwrap_err(),
        Error::ShapeMismatch { .. }
    ));
    assert!(matches!(
        t.sum_dims(&[0, -2], false).unwrap_err(),
        Error::DuplicateDim { .. }
    ));
    assert!(t.narrow(1, 2, 2).is_err());
}

#[test]
fn pinning_for_a_device_without_a_pinned_pool_says_why() {
    let t = clika_rt::Tensor::zeros(&[4], clika_rt::DType::Float32).unwrap();
    for device in [clika_rt::Device::cpu(), clika_rt::Device::gpu(0)] {
        let e = t.pin_memory(device).unwrap_err().to_string();
        // The GPU may be absent here; either way the error says why.
        assert!(
            e.contains("pinned pool") || e.contains("not available"),
            "{e}"
        );
        assert!(clika_rt::Tensor::empty_pinned(&[4], clika_rt::DType::Float32, device).is_err());
        assert!(clika_rt::device::pinned_memory_stats(device).is_err());
    }
}
