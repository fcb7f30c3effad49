//! Tensors over mapped files: `io::load_safetensors` and `Tensor::from_file`. Values for every
//! dtype, one shared mapping that outlives the loader's list, lazy paging (RSS), read-only
//! tensors, and hostile files (clear errors, never a panic).
//!
//! Not under Miri: it cannot map files (only anonymous memory).
#![cfg(not(miri))]

use std::io::Write;
use std::path::{Path, PathBuf};

use clika_rt::{io, DType, ErrorKind, OwnerKind, Tensor};
use safetensors::tensor::TensorView;
use safetensors::Dtype;

/// A fresh temporary directory for one test, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("clika-rt-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Loads a file the test wrote and keeps unchanged while the tensors live.
fn load(path: &Path) -> clika_rt::Result<Vec<(String, Tensor)>> {
    // SAFETY: the test's files are not modified while their tensors live.
    unsafe { io::load_safetensors(path) }
}

/// Writes a safetensors file by hand: `entries` are (name, dtype name, shape, bytes), in order.
fn write_raw(path: &Path, entries: &[(&str, &str, Vec<usize>, Vec<u8>)]) {
    let mut header = String::from("{");
    let mut at = 0;
    for (i, (name, dtype, shape, bytes)) in entries.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let end = at + bytes.len();
        header += &format!(
            "{sep}\"{name}\":{{\"dtype\":\"{dtype}\",\"shape\":{shape:?},\"data_offsets\":[{at},{end}]}}"
        );
        at = end;
    }
    header += "}";
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(&(header.len() as u64).to_le_bytes()).unwrap();
    f.write_all(header.as_bytes()).unwrap();
    for (_, _, _, bytes) in entries {
        f.write_all(bytes).unwrap();
    }
}

fn bytes_of<T: Copy>(v: &[T]) -> Vec<u8> {
    // SAFETY: `T` is a plain number type here; its bytes are initialised.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
        .to_vec()
}

#[test]
fn every_dtype_written_by_the_safetensors_crate_loads_without_a_copy() {
    let dir = TempDir::new("dtypes");
    let path = dir.file("all.safetensors");
    let f16: Vec<half::f16> = [1.5f32, -2.0, 0.25].map(half::f16::from_f32).to_vec();
    let bf16: Vec<half::bf16> = [1.5f32, -2.0, 0.25].map(half::bf16::from_f32).to_vec();
    let data: Vec<(&str, Dtype, Vec<usize>, Vec<u8>)> = vec![
        (
            "f32",
            Dtype::F32,
            vec![2, 2],
            bytes_of(&[1.0f32, 2.0, -3.5, 4.0]),
        ),
        ("f64", Dtype::F64, vec![3], bytes_of(&[1.0f64, -2.0, 1e300])),
        ("f16", Dtype::F16, vec![3], bytes_of(&f16)),
        ("bf16", Dtype::BF16, vec![3], bytes_of(&bf16)),
        ("i8", Dtype::I8, vec![4], bytes_of(&[-128i8, -1, 0, 127])),
        ("i16", Dtype::I16, vec![2], bytes_of(&[-30000i16, 30000])),
        ("i32", Dtype::I32, vec![2], bytes_of(&[i32::MIN, i32::MAX])),
        ("i64", Dtype::I64, vec![1, 2], bytes_of(&[i64::MIN, 7])),
        ("u8", Dtype::U8, vec![4], vec![0, 1, 200, 255]),
        (
            "u16",
            Dtype::U16,
            vec![3],
            bytes_of(&[0u16, 40000, u16::MAX]),
        ),
        ("u32", Dtype::U32, vec![2], bytes_of(&[3u32, u32::MAX])),
        ("u64", Dtype::U64, vec![2], bytes_of(&[u64::MAX, 1 << 63])),
        ("bool", Dtype::BOOL, vec![3], vec![1, 0, 1]),
        ("empty", Dtype::F32, vec![0, 4], vec![]),
    ];
    let views: Vec<(String, TensorView<'_>)> = data
        .iter()
        .map(|(n, d, s, b)| (n.to_string(), TensorView::new(*d, s.clone(), b).unwrap()))
        .collect();
    safetensors::serialize_to_file(views, None, &path).unwrap();

    let loaded = load(&path).unwrap();
    assert_eq!(loaded.len(), data.len());
    for (name, t) in &loaded {
        let (_, _, shape, bytes) = data.iter().find(|d| d.0 == name).unwrap();
        assert_eq!(t.shape(), &shape[..], "{name}");
        let got = if t.numel() == 0 {
            vec![]
        } else {
            // SAFETY: `t` is contiguous and its bytes stay mapped while `t` lives.
            unsafe { std::slice::from_raw_parts(t.const_data_ptr(), t.numel() * t.dtype().size()) }
                .to_vec()
        };
        assert_eq!(&got, bytes, "{name}");
        if t.numel() > 0 {
            assert_eq!(t.owner_kind(), OwnerKind::Keepalive, "{name}: not copied");
        }
    }
    let get = |n: &str| loaded.iter().find(|(k, _)| k == n).unwrap().1.clone();
    assert_eq!(get("f32").dtype(), DType::Float32);
    assert_eq!(get("f32").to_vec::<f32>().unwrap(), [1.0, 2.0, -3.5, 4.0]);
    assert_eq!(get("bf16").dtype(), DType::BFloat16);
    assert_eq!(get("bool").to_vec::<bool>().unwrap(), [true, false, true]);
    assert_eq!(get("u16").dtype(), DType::UInt16);
    assert_eq!(get("u16").to_vec::<u16>().unwrap(), [0, 40000, u16::MAX]);
    assert_eq!(get("u32").dtype(), DType::UInt32);
    assert_eq!(get("u64").to_vec::<u64>().unwrap(), [u64::MAX, 1 << 63]);
    assert_eq!(get("u64").max().unwrap().item::<u64>().unwrap(), u64::MAX);
    assert_eq!(
        get("i64").sum().unwrap().item::<i64>().unwrap(),
        i64::MIN + 7
    );
}

#[test]
fn tensors_share_one_mapping_that_outlives_the_list() {
    let dir = TempDir::new("share");
    let path = dir.file("w.safetensors");
    let a: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    let b: Vec<i32> = (0..10).collect();
    write_raw(
        &path,
        &[
            ("a", "F32", vec![1000], bytes_of(&a)),
            ("b", "I32", vec![10], bytes_of(&b)),
        ],
    );
    let file_len = std::fs::metadata(&path).unwrap().len() as usize;
    let mut loaded = load(&path).unwrap();
    assert_eq!(loaded[0].0, "a", "file order");
    let (pa, pb) = (
        loaded[0].1.const_data_ptr() as usize,
        loaded[1].1.const_data_ptr() as usize,
    );
    assert_eq!(pb - pa, 4000, "b follows a in the same mapping");
    assert!(pb + 40 - pa < file_len);
    let kept = loaded.pop().unwrap().1.narrow(0, 2, 3).unwrap();
    drop(loaded);
    assert_eq!(kept.to_vec::<i32>().unwrap(), [2, 3, 4]);
    let mut ro = kept.clone();
    drop(kept);
    assert_eq!(ro.fill_(1.0).unwrap_err().kind(), ErrorKind::ReadOnly);
}

fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    // SAFETY: `sysconf` has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages * usize::try_from(page).unwrap()
}

#[test]
fn only_touched_pages_become_resident() {
    let dir = TempDir::new("rss");
    let path = dir.file("big.safetensors");
    let small: Vec<f32> = vec![2.5; 16];
    let big = ("big", "U8", vec![256 << 20], vec![0u8; 256 << 20]);
    write_raw(&path, &[("small", "F32", vec![16], bytes_of(&small)), big]);
    let before = resident_bytes();
    let loaded = load(&path).unwrap();
    assert_eq!(loaded[0].1.sum().unwrap().item::<f64>().unwrap(), 40.0);
    let grown = resident_bytes().saturating_sub(before);
    assert!(
        grown < 32 << 20,
        "RSS grew by {grown} bytes for a 64-byte read"
    );
    assert_eq!(loaded[1].1.numel(), 256 << 20);
}

#[test]
fn unaligned_tensors_are_copied_and_correct() {
    let dir = TempDir::new("unaligned");
    let path = dir.file("u.safetensors");
    let f: Vec<f32> = vec![1.0, 2.0];
    write_raw(
        &path,
        &[
            ("odd", "U8", vec![3], vec![7, 8, 9]),
            ("f", "F32", vec![2], bytes_of(&f)),
        ],
    );
    let loaded = load(&path).unwrap();
    assert_eq!(loaded[1].1.to_vec::<f32>().unwrap(), [1.0, 2.0]);
    assert_eq!(loaded[1].1.owner_kind(), OwnerKind::Pool, "copied");
    assert_eq!(loaded[0].1.owner_kind(), OwnerKind::Keepalive);
}

#[test]
fn hostile_files_give_clear_errors() {
    let dir = TempDir::new("hostile");
    let good = dir.file("good.safetensors");
    write_raw(&good, &[("x", "F32", vec![4], bytes_of(&[1.0f32; 4]))]);
    let full = std::fs::read(&good).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("short", vec![1, 2, 3]),
        ("truncated", full[..full.len() - 3].to_vec()),
        ("header past end", {
            let mut v = full.clone();
            v[..8].copy_from_slice(&(1u64 << 40).to_le_bytes());
            v
        }),
        ("not json", {
            let mut v = full.clone();
            v[8] = b'!';
            v
        }),
        ("extra bytes", [full.clone(), vec![0; 4]].concat()),
    ];
    for (what, bytes) in cases {
        let p = dir.file(what);
        std::fs::write(&p, bytes).unwrap();
        let e = load(&p).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{what}: {e}");
        assert!(
            e.to_string().contains("not a valid safetensors file"),
            "{what}: {e}"
        );
    }
    let offsets = dir.file("offsets");
    write_raw(&offsets, &[("x", "F32", vec![8], bytes_of(&[1.0f32; 4]))]);
    assert!(load(&offsets).is_err());
    let unsupported = dir.file("f8");
    write_raw(&unsupported, &[("x", "F8_E4M3", vec![2], vec![0; 2])]);
    let e = load(&unsupported).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DType);
    assert!(e.to_string().contains("F8_E4M3"), "{e}");
    let missing = load(&dir.file("missing")).unwrap_err();
    assert!(missing.to_string().contains("cannot open"), "{missing}");
}

#[test]
fn from_file_maps_raw_binary_at_an_offset() {
    let dir = TempDir::new("raw");
    let path = dir.file("raw.bin");
    let v: Vec<f32> = (0..12).map(|i| i as f32).collect();
    std::fs::write(&path, [vec![0u8; 8], bytes_of(&v)].concat()).unwrap();
    // SAFETY: the file is not modified while the tensors live.
    let t = unsafe { Tensor::from_file(&path, DType::Float32, &[3, 4], 8) }.unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), v);
    assert_eq!(t.owner_kind(), OwnerKind::Keepalive);
    // SAFETY: as above.
    let past = unsafe { Tensor::from_file(&path, DType::Float32, &[4, 4], 8) }.unwrap_err();
    assert_eq!(past.kind(), ErrorKind::InvalidShape);
    assert!(
        past.to_string().contains("do not fit in the file"),
        "{past}"
    );
    // SAFETY: as above.
    let odd = unsafe { Tensor::from_file(&path, DType::Float32, &[2], 2) }.unwrap_err();
    assert!(odd.to_string().contains("multiple of the dtype"), "{odd}");
    // SAFETY: as above.
    let empty = unsafe { Tensor::from_file(&path, DType::Float32, &[0], 56) }.unwrap();
    assert_eq!(empty.numel(), 0);
}
