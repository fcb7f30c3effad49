//! Tensors over fd-backed shared memory: `share_memory`, `from_fd` (writes reach the file,
//! strides, read-only maps, bounds), `dense_span` (what pickling sends) and
//! `ForeignMemory::within`.
//!
//! Not under Miri: it does not support file-backed memory mappings.
#![cfg(not(miri))]

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsFd;

use clika_rt::{DType, Error, ForeignMemory, Tensor};

fn iota(n: usize) -> Tensor {
    Tensor::from_vec((0..n).map(|i| i as f32).collect(), &[n]).unwrap()
}

/// A file holding `n` f32 values 0, 1, 2, ...
fn file_of(n: usize) -> File {
    let mut f = tempfile();
    for i in 0..n {
        f.write_all(&(i as f32).to_ne_bytes()).unwrap();
    }
    f
}

fn tempfile() -> File {
    let dir = std::env::temp_dir();
    let path = dir.join(format!(
        "clika-rt-shared-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let f = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    f
}

#[test]
fn share_memory_copies_into_a_memfd_segment_once() {
    let t = iota(12).reshape(&[3, 4]).unwrap().t();
    assert!(!t.is_shared() && t.shared_region().is_none());
    let s = t.share_memory().unwrap();
    assert!(s.is_shared());
    assert_eq!(s.to_vec::<f32>().unwrap(), t.to_vec::<f32>().unwrap());
    assert!(s.is_contiguous());
    let region = s.shared_region().unwrap();
    assert_eq!(
        (region.segment_len, region.offset, region.read_only),
        (48, 0, false)
    );
    let again = s.share_memory().unwrap();
    assert_eq!(again.data_ptr(), s.data_ptr());
    let link = std::fs::read_link(format!("/proc/self/fd/{}", region.fd)).unwrap();
    assert!(link.to_string_lossy().starts_with("/memfd:clika-rt-shared"));
    // A view of a shared tensor is shared, at its own offset.
    let row = s.select(0, 2).unwrap();
    assert_eq!(row.shared_region().unwrap().offset, 24); // row 2 of a (4, 3) f32 tensor
}

#[test]
fn share_memory_of_empty_and_zero_d_tensors() {
    let e = Tensor::zeros(&[0, 3], DType::Int64)
        .unwrap()
        .share_memory()
        .unwrap();
    assert!(e.is_shared() && e.numel() == 0);
    let z = iota(5).select(0, 3).unwrap().share_memory().unwrap();
    assert_eq!(z.shape(), &[] as &[usize]);
    assert_eq!(z.item::<f32>().unwrap(), 3.0);
}

#[test]
fn from_fd_maps_the_file_shared_with_strides_and_offset() {
    let mut f = file_of(16);
    // SAFETY: nobody truncates the file while the tensors live.
    let t =
        unsafe { Tensor::from_fd(f.as_fd(), 16, DType::Float32, &[3, 4], None, false) }.unwrap();
    assert_eq!(
        t.to_vec::<f32>().unwrap(),
        (4..16).map(|i| i as f32).collect::<Vec<_>>()
    );
    // A write through the tensor reaches the file.
    let mut w = t.clone();
    drop(t);
    w.fill_(-1.0).unwrap();
    let mut bytes = [0u8; 4];
    f.seek(SeekFrom::Start(16)).unwrap();
    f.read_exact(&mut bytes).unwrap();
    assert_eq!(f32::from_ne_bytes(bytes), -1.0);
    // Transposed, through negative strides too.
    // SAFETY: as above.
    let tt = unsafe { Tensor::from_fd(f.as_fd(), 0, DType::Float32, &[2, 2], Some(&[1, 2]), true) }
        .unwrap();
    assert_eq!(tt.to_vec::<f32>().unwrap(), [0.0, 2.0, 1.0, 3.0]);
    // SAFETY: as above.
    let flipped =
        unsafe { Tensor::from_fd(f.as_fd(), 12, DType::Float32, &[4], Some(&[-1]), true) }.unwrap();
    assert_eq!(flipped.to_vec::<f32>().unwrap(), [3.0, 2.0, 1.0, 0.0]);
    assert!(!flipped.storage().is_writable());
}

#[test]
fn from_fd_refuses_what_does_not_fit() {
    let f = file_of(4);
    // SAFETY: nobody truncates the file while the tensors live.
    let map = |offset, shape: &[i64], strides: Option<&[i64]>| unsafe {
        Tensor::from_fd(f.as_fd(), offset, DType::Float32, shape, strides, true)
    };
    assert!(matches!(
        map(0, &[5], None),
        Err(Error::BufferTooSmall { .. })
    ));
    assert!(matches!(
        map(4, &[4], None),
        Err(Error::BufferTooSmall { .. })
    ));
    assert!(matches!(map(2, &[1], None), Err(Error::Misaligned { .. })));
    assert!(matches!(
        map(0, &[2], Some(&[-1])),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(map(64, &[0], None).is_ok());
    assert!(matches!(
        map(0, &[-1], None),
        Err(Error::NegativeDim { .. })
    ));
    let empty = tempfile();
    // SAFETY: as above.
    let none = unsafe { Tensor::from_fd(empty.as_fd(), 0, DType::Float32, &[1], None, true) };
    assert!(matches!(none, Err(Error::BufferTooSmall { .. })));
}

#[test]
fn dense_span_keeps_permutations_and_refuses_gaps() {
    let t = iota(24).reshape(&[2, 3, 4]).unwrap();
    let (bytes, offset) = t.permute(&[2, 0, 1]).unwrap().dense_span().unwrap();
    assert_eq!(
        (bytes.numel(), offset, bytes.dtype()),
        (96, 0, DType::UInt8)
    );
    let flipped = t.flip(&[1]).unwrap();
    let (bytes, offset) = flipped.dense_span().unwrap();
    assert_eq!((bytes.numel(), offset), (96, 8));
    assert_eq!(bytes.data_ptr(), t.data_ptr());
    assert!(t.narrow(2, 0, 2).unwrap().dense_span().is_none()); // gaps
    assert!(t.select(0, 1).unwrap().dense_span().is_some()); // a dense sub-block
    assert_eq!(
        t.select(0, 1).unwrap().dense_span().unwrap().0.data_ptr() as usize,
        t.data_ptr() as usize + 48
    );
    let b = iota(3).reshape(&[1, 3]).unwrap().expand(&[4, 3]).unwrap();
    assert!(b.dense_span().is_none()); // repeats
    assert!(Tensor::zeros(&[0], DType::Float32)
        .unwrap()
        .dense_span()
        .is_none());
}

#[test]
fn within_checks_both_ends_of_the_buffer() {
    let mut buf = [0u64; 8];
    let p = buf.as_mut_ptr().cast::<u8>();
    assert!(ForeignMemory::within(p, 64, 0, &[8], None, DType::Int64).is_ok());
    assert!(ForeignMemory::within(p, 64, 8, &[8], None, DType::Int64).is_err());
    assert!(ForeignMemory::within(p, 64, 56, &[8], Some(&[-1]), DType::Int64).is_ok());
    assert!(ForeignMemory::within(p, 64, 48, &[8], Some(&[-1]), DType::Int64).is_err());
    assert!(ForeignMemory::within(p, 64, 64, &[0], None, DType::Int64).is_ok());
}
