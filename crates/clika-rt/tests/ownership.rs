//! Hazard tests for the ownership contracts: deleters run exactly once, on the last drop,
//! never on a failed construction, and a panicking deleter does not take the process down.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::thread::{self, ThreadId};

use clika_rt::{BlobOptions, DType, Deleter, OwnerKind, Tensor};
use proptest::prelude::*;

/// A heap buffer of `n` floats handed over as a raw pointer, with a counting deleter that
/// frees it.
fn adopted(n: usize, calls: &Arc<AtomicUsize>) -> Tensor {
    let buf: Box<[f32]> = (0..n).map(|i| i as f32).collect();
    let ptr = Box::into_raw(buf).cast::<f32>();
    let calls = Arc::clone(calls);
    // SAFETY: `ptr` owns `n` initialised floats; the deleter rebuilds that very box once.
    unsafe {
        Tensor::from_blob_adopted(ptr.cast(), &[n], DType::Float32, move |p| {
            calls.fetch_add(1, Ordering::SeqCst);
            // SAFETY: `p` is the pointer `Box::into_raw` returned for `n` floats.
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                p.cast::<f32>(),
                n,
            )));
        })
    }
    .expect("valid descriptor")
}

#[derive(Debug, Clone)]
enum Step {
    Clone(usize),
    Drop(usize),
    Reshape(usize),
    Transpose(usize),
    Select(usize),
    Slice(usize),
    Expand(usize),
    Compute(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        any::<usize>().prop_map(Step::Clone),
        any::<usize>().prop_map(Step::Drop),
        any::<usize>().prop_map(Step::Reshape),
        any::<usize>().prop_map(Step::Transpose),
        any::<usize>().prop_map(Step::Select),
        any::<usize>().prop_map(Step::Slice),
        any::<usize>().prop_map(Step::Expand),
        any::<usize>().prop_map(Step::Compute),
    ]
}

/// Applies one step; returns a new tensor to keep, if any.
fn apply(live: &mut Vec<Tensor>, s: &Step) -> Option<Tensor> {
    let pick = |i: usize| i % live.len();
    let t = |i: usize| &live[pick(i)];
    match *s {
        Step::Clone(i) => Some(t(i).clone()),
        Step::Drop(i) => {
            let i = pick(i);
            live.swap_remove(i);
            None
        }
        Step::Reshape(i) => t(i).reshape(&[-1]).ok(),
        Step::Transpose(i) => {
            let x = t(i);
            if x.ndim() >= 2 {
                x.transpose(0, -1).ok()
            } else {
                x.unsqueeze(0).ok()
            }
        }
        Step::Select(i) => {
            let x = t(i);
            (x.ndim() > 0 && x.shape()[0] > 0)
                .then(|| x.select(0, (i % x.shape()[0]) as isize).unwrap())
        }
        Step::Slice(i) => {
            let x = t(i);
            (x.ndim() > 0).then(|| {
                x.slice(0, None, None, if i % 2 == 0 { 2 } else { -1 })
                    .unwrap()
            })
        }
        Step::Expand(i) => {
            let x = t(i);
            let mut sizes: Vec<isize> = vec![2];
            sizes.extend(x.shape().iter().map(|&d| d as isize));
            x.expand(&sizes).ok()
        }
        Step::Compute(i) => {
            // Results of ops are new storage: they must not keep the adopted buffer alive.
            let r = t(i).contiguous_copy().unwrap();
            assert_ne!(r.owner_kind(), OwnerKind::Adopted);
            None
        }
    }
}

/// The longest sequence of view steps (shorter under Miri: each step is interpreted).
const STEPS: usize = if cfg!(miri) { 12 } else { 40 };

proptest! {
    #[test]
    fn deleter_runs_once_after_the_last_view(steps in proptest::collection::vec(step(), 1..STEPS)) {
        let calls = Arc::new(AtomicUsize::new(0));
        let mut live = vec![adopted(24, &calls).view(&[4, 6]).unwrap()];
        for s in &steps {
            if live.is_empty() {
                break;
            }
            if let Some(t) = apply(&mut live, s) {
                live.push(t);
            }
            live.retain(|t| t.owner_kind() == OwnerKind::Adopted);
            let expect = usize::from(live.is_empty());
            prop_assert_eq!(calls.load(Ordering::SeqCst), expect);
        }
        live.clear();
        prop_assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn racing_threads_drop_last_reference_exactly_once() {
    let rounds = if cfg!(miri) { 4 } else { 200 };
    for _ in 0..rounds {
        let calls = Arc::new(AtomicUsize::new(0));
        let ran_on: Arc<Mutex<Option<ThreadId>>> = Arc::default();
        let buf: Box<[f32]> = vec![1.0; 64].into_boxed_slice();
        let ptr = Box::into_raw(buf).cast::<f32>();
        let (c, r) = (Arc::clone(&calls), Arc::clone(&ran_on));
        // SAFETY: `ptr` owns 64 floats; the deleter frees that box once.
        let t = unsafe {
            Tensor::from_blob_adopted(ptr.cast(), &[64], DType::Float32, move |p| {
                c.fetch_add(1, Ordering::SeqCst);
                *r.lock().unwrap() = Some(thread::current().id());
                // SAFETY: `p` came from `Box::into_raw` of 64 floats.
                drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    p.cast::<f32>(),
                    64,
                )));
            })
        }
        .unwrap();
        let barrier = Arc::new(Barrier::new(4));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (t, b, r) = (t.clone(), Arc::clone(&barrier), Arc::clone(&ran_on));
                thread::spawn(move || {
                    b.wait();
                    drop(t);
                    // Whoever's drop ran the deleter sees its own id recorded right after.
                    *r.lock().unwrap() == Some(thread::current().id())
                })
            })
            .collect();
        drop(t);
        let mine = *ran_on.lock().unwrap() == Some(thread::current().id());
        let ran: usize = handles
            .into_iter()
            .map(|h| usize::from(h.join().unwrap()))
            .sum();
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(
            ran + usize::from(mine),
            1,
            "exactly one thread ran the deleter"
        );
    }
}

struct PanicOnDrop;
impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        panic!("payload panics while being dropped");
    }
}

#[test]
fn panicking_deleters_are_swallowed_and_counted_once() {
    let calls = Arc::new(AtomicUsize::new(0));
    for payload_panics in [false, true] {
        let mut buf = vec![0u8; 16];
        let c = Arc::clone(&calls);
        // SAFETY: `buf` outlives the tensor; the deleter does not free it.
        let t = unsafe {
            Tensor::from_blob_adopted(buf.as_mut_ptr(), &[16], DType::UInt8, move |_| {
                c.fetch_add(1, Ordering::SeqCst);
                if payload_panics {
                    std::panic::panic_any(PanicOnDrop);
                }
                panic!("deleter panics");
            })
        }
        .unwrap();
        let v = t.clone();
        drop(t);
        drop(v);
        drop(buf);
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[test]
fn failed_construction_never_calls_the_deleter() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut buf = vec![0f32; 8];
    let p = buf.as_mut_ptr().cast::<u8>();
    type Descriptor = (*mut u8, Vec<i64>, Option<Vec<i64>>);
    let bad: [Descriptor; 6] = [
        (std::ptr::null_mut(), vec![8], None),
        (p.wrapping_add(1), vec![4], None),
        (p, vec![-1], None),
        (p, vec![2, 4], Some(vec![4])),
        (p, vec![1; 65], None),
        (p, vec![i64::MAX, 4], None),
    ];
    for (ptr, shape, strides) in bad {
        let c = Arc::clone(&calls);
        let opts = BlobOptions {
            deleter: Some(Deleter::new(move |_| {
                c.fetch_add(1, Ordering::SeqCst);
            })),
            ..BlobOptions::default()
        };
        // SAFETY: every descriptor here is invalid and must be refused before use.
        let r = unsafe {
            Tensor::from_blob_with(ptr, &shape, strides.as_deref(), DType::Float32, opts)
        };
        assert!(r.is_err(), "{shape:?} must be refused");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    buf[0] = 1.0; // the caller still owns the buffer
}

#[test]
fn keepalive_owners_drop_once_with_the_last_view() {
    struct Counted(Vec<f32>, Arc<AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.1.fetch_add(1, Ordering::SeqCst);
        }
    }
    // SAFETY: the inner Vec's buffer is stable across moves and exclusively owned.
    unsafe impl clika_rt::StableBytes for Counted {
        fn bytes_ptr(&self) -> *mut u8 {
            self.0.as_ptr().cast_mut().cast()
        }
        fn bytes_len(&self) -> usize {
            self.0.len() * 4
        }
        fn writable(&self) -> bool {
            true
        }
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let owner = Counted(vec![1.0; 6], Arc::clone(&drops));
    let ptr = owner.0.as_ptr();
    let t = Tensor::from_owner(owner, &[2, 3], DType::Float32).unwrap();
    assert_eq!(t.const_data_ptr(), ptr.cast());
    let v = t.transpose(0, 1).unwrap();
    drop(t);
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    assert_eq!(v.sum().unwrap().item::<f32>().unwrap(), 6.0);
    drop(v);
    assert_eq!(drops.load(Ordering::SeqCst), 1);

    // A failed from_owner drops the owner at once (nothing else holds it).
    let owner = Counted(vec![1.0; 5], Arc::clone(&drops));
    assert!(Tensor::from_owner(owner, &[2, 3], DType::Float32).is_err());
    assert_eq!(drops.load(Ordering::SeqCst), 2);
}

#[test]
fn from_vec_is_zero_copy_and_from_data_copies() {
    let v: Vec<i32> = (0..6).collect();
    let ptr = v.as_ptr();
    let t = Tensor::from_vec(v, &[2, 3]).unwrap();
    assert_eq!(t.const_data_ptr(), ptr.cast());
    assert_eq!(t.owner_kind(), OwnerKind::Keepalive);
    let src = [1u8, 2, 3];
    let c = Tensor::from_data(&src, &[3]).unwrap();
    assert_ne!(c.const_data_ptr(), src.as_ptr());
    assert_eq!(c.owner_kind(), OwnerKind::Pool);
    assert_eq!(c.to_vec::<u8>().unwrap(), src);
}
