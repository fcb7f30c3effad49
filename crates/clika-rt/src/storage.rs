//! Storage: a pointer, a byte length, a device, and the value that owns the bytes.
//!
//! The owner is stored next to the pointer ([`Owner`]), so every way memory can enter the
//! runtime (its own pool, a foreign buffer with a deleter, a Rust value that owns bytes, a
//! borrowed buffer) is one type with one drop path. [`Storage`] is an `Arc`: cloning a tensor
//! or taking a view is a reference-count bump, and the owner is released exactly once, when
//! the last reference drops, on whichever thread drops it.

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};

use crate::memory::Block;
use crate::Device;

/// A function that releases adopted memory; it receives the data pointer that was wrapped.
pub struct Deleter(Box<dyn FnOnce(*mut u8) + Send + 'static>);

impl Deleter {
    /// Wraps any `FnOnce(*mut u8) + Send` as a deleter.
    pub fn new(f: impl FnOnce(*mut u8) + Send + 'static) -> Deleter {
        Deleter(Box::new(f))
    }
}

impl fmt::Debug for Deleter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Deleter(..)")
    }
}

/// Who owns a storage's bytes and how they are released.
pub enum Owner {
    /// Runtime memory from the device's pool; returned to the pool on the last drop.
    Pool(Block),
    /// Foreign memory handed over with a deleter, which runs exactly once on the last drop,
    /// with the pointer that was wrapped (`data`). A panic in it is caught and swallowed.
    Adopted {
        /// The pointer given to the deleter (the wrapped data pointer, not the storage base).
        data: *mut u8,
        /// The deleter; taken out exactly once, by `Drop`. The mutex only makes the `Send`
        /// closure shareable between threads; it is never locked (drop uses `get_mut`).
        deleter: Mutex<Option<Deleter>>,
    },
    /// A Rust value that owns the bytes (a `Vec`, a `Box<[T]>`, a memory map, a Python
    /// object); dropping the value releases them. The mutex is locked only briefly by
    /// [`Storage::keepalive_as`] (to recognise a shared-memory segment), never by `Drop`.
    Keepalive(Mutex<Box<dyn Any + Send>>),
    /// Memory the caller keeps owning; the runtime never frees, reuses or writes scratch into
    /// it.
    Borrowed,
}

impl Owner {
    /// An adopted owner for `data`, released by `deleter(data)`.
    pub fn adopted(data: *mut u8, deleter: Deleter) -> Owner {
        Owner::Adopted {
            data,
            deleter: Mutex::new(Some(deleter)),
        }
    }

    /// A keep-alive owner: `value` is dropped when the last reference goes.
    pub fn keepalive(value: impl Send + 'static) -> Owner {
        Owner::Keepalive(Mutex::new(Box::new(value)))
    }

    /// The kind of owner, for inspection.
    pub fn kind(&self) -> OwnerKind {
        match self {
            Owner::Pool(_) => OwnerKind::Pool,
            Owner::Adopted { .. } => OwnerKind::Adopted,
            Owner::Keepalive(_) => OwnerKind::Keepalive,
            Owner::Borrowed => OwnerKind::Borrowed,
        }
    }
}

impl fmt::Debug for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.kind())
    }
}

/// The four ownership contracts, without their payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OwnerKind {
    /// Runtime pool memory.
    Pool,
    /// Foreign memory with a deleter.
    Adopted,
    /// Memory owned by a Rust value kept alive by the storage.
    Keepalive,
    /// Memory the caller owns.
    Borrowed,
}

impl OwnerKind {
    /// Whether the runtime may reuse this memory as scratch for results (never for
    /// borrowed memory, nor for memory another value can still see).
    pub fn runtime_may_reuse(self) -> bool {
        matches!(self, OwnerKind::Pool | OwnerKind::Adopted)
    }
}

struct Inner {
    ptr: *mut u8,
    nbytes: usize,
    device: Device,
    pinned_for: Option<Device>,
    writable: bool,
    owner: Owner,
}

// SAFETY: `Inner` is immutable after construction except in `Drop`, which has exclusive
// access. The raw pointer is only a value here; who may read or write through it, and when,
// is governed by the tensor API (safe code never writes to storage another reference can
// see) and by the `unsafe` constructors' contracts for foreign memory. The owner's payloads
// are `Send` and are only touched in `Drop`.
unsafe impl Send for Inner {}
// SAFETY: shared references expose only the pointer value and plain metadata; see `Send`.
unsafe impl Sync for Inner {}

impl Drop for Inner {
    fn drop(&mut self) {
        let foreign = matches!(self.owner, Owner::Adopted { .. } | Owner::Keepalive(_));
        if foreign && !self.device.is_cpu() {
            // Work queued on the device may still read or write this memory; its owner gets
            // it back only once that work is done.
            if let Ok(b) = crate::backend::backend(self.device) {
                b.before_foreign_release();
            }
        }
        match &mut self.owner {
            Owner::Adopted { data, deleter } => {
                let deleter = deleter
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take();
                if let Some(Deleter(f)) = deleter {
                    let data = *data;
                    run_swallowing_panics(move || f(data));
                }
            }
            Owner::Keepalive(value) => {
                let value = std::mem::replace(
                    value.get_mut().unwrap_or_else(PoisonError::into_inner),
                    Box::new(()),
                );
                run_swallowing_panics(move || drop(value));
            }
            Owner::Pool(_) | Owner::Borrowed => {}
        }
    }
}

/// Runs `f`, swallowing a panic. Dropping the panic's payload can itself panic (a payload
/// with a panicking destructor); that is caught too, a few levels deep, and a payload that
/// still panics after that is leaked rather than allowed to unwind out of a destructor.
fn run_swallowing_panics(f: impl FnOnce()) {
    const MAX_NESTED_PAYLOADS: usize = 8;
    let mut outcome = catch_unwind(AssertUnwindSafe(f));
    for _ in 0..MAX_NESTED_PAYLOADS {
        match outcome {
            Ok(()) => return,
            Err(payload) => outcome = catch_unwind(AssertUnwindSafe(move || drop(payload))),
        }
    }
    if let Err(payload) = outcome {
        std::mem::forget(payload);
    }
}

/// Reference-counted memory with its owner; see the module docs.
#[derive(Clone)]
pub struct Storage {
    inner: Arc<Inner>,
}

impl Storage {
    /// Wraps memory with its owner.
    ///
    /// # Safety
    /// - If `nbytes > 0`, `ptr` must be valid for reads of `nbytes` bytes (and for writes, if
    ///   `writable`) until `owner` is released, and must not be freed by anyone else before.
    /// - The bytes must be initialised.
    /// - While any tensor over this storage is in use, no code outside the runtime may write
    ///   the bytes concurrently with a runtime operation reading them.
    pub unsafe fn from_raw_parts(
        ptr: *mut u8,
        nbytes: usize,
        device: Device,
        owner: Owner,
        pinned_for: Option<Device>,
        writable: bool,
    ) -> Storage {
        Storage {
            inner: Arc::new(Inner {
                ptr,
                nbytes,
                device,
                pinned_for,
                writable,
                owner,
            }),
        }
    }

    /// Start of the bytes.
    pub fn as_ptr(&self) -> *mut u8 {
        self.inner.ptr
    }

    /// Length in bytes.
    pub fn nbytes(&self) -> usize {
        self.inner.nbytes
    }

    /// Where the bytes live.
    pub fn device(&self) -> Device {
        self.inner.device
    }

    /// The device the caller asserted these pages are page-locked for, if any (a tag only).
    pub fn pinned_for(&self) -> Option<Device> {
        self.inner.pinned_for
    }

    /// Whether the runtime may write these bytes at a caller's request (false for read-only
    /// sources such as shared `Arc<[T]>` or read-only maps).
    pub fn is_writable(&self) -> bool {
        self.inner.writable
    }

    /// The ownership contract of these bytes.
    pub fn owner_kind(&self) -> OwnerKind {
        self.inner.owner.kind()
    }

    /// Whether this is the only reference to the storage (no other tensor or view sees it).
    pub fn is_unique(&self) -> bool {
        Arc::strong_count(&self.inner) == 1
    }

    /// A clone of the keep-alive owner's value when it is a `T` (for example the shared
    /// segment of a tensor from `share_memory`); `None` for any other owner.
    pub fn keepalive_as<T: Any + Clone>(&self) -> Option<T> {
        match &self.inner.owner {
            Owner::Keepalive(value) => value
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .downcast_ref::<T>()
                .cloned(),
            _ => None,
        }
    }

    /// Whether two storages are the same allocation.
    pub fn same_as(&self, other: &Storage) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl fmt::Debug for Storage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Storage")
            .field("ptr", &self.inner.ptr)
            .field("nbytes", &self.inner.nbytes)
            .field("device", &self.inner.device)
            .field("owner", &self.inner.owner)
            .field("pinned_for", &self.inner.pinned_for)
            .finish()
    }
}
