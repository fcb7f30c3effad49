//! # ClikaRT
//!
//! A tensor runtime in which memory that other code owns becomes a tensor **without a copy**,
//! with ownership spelled out:
//!
//! - **borrowed** ([`Tensor::from_blob`], `unsafe`): the caller keeps ownership and guarantees
//!   the memory outlives every tensor that sees it; the runtime never frees, reuses or writes
//!   scratch into it;
//! - **adopted** ([`Tensor::from_blob_adopted`], `unsafe`): the tensor owns the memory and
//!   calls the deleter exactly once when the last reference drops;
//! - **kept alive** ([`Tensor::from_vec`], [`Tensor::from_owner`], safe): any Rust value that
//!   owns bytes is held until the last reference drops;
//! - **pooled**: the runtime's own memory comes from a per-device pool, measured by
//!   [`device::memory_stats`] and given back by [`device::release_cached_memory`].
//!
//! ```
//! use clika_rt::{DType, Tensor};
//!
//! let mut buf = vec![1.0f32; 8]; // memory the application owns
//! // SAFETY: `buf` outlives `view` and is not written while an op reads it.
//! let view = unsafe { Tensor::from_blob(buf.as_mut_ptr().cast(), &[8], DType::Float32)? };
//! assert_eq!(view.const_data_ptr(), buf.as_ptr().cast());
//! assert_eq!(view.sum()?.item::<f32>()?, 8.0);
//! # Ok::<(), clika_rt::Error>(())
//! ```

pub mod backend;
pub mod device;
pub mod dtype;
pub mod error;
mod fork;
mod half_bits;
pub mod io;
pub mod layout;
pub mod memory;
pub mod ops;
pub mod storage;
pub mod tensor;
mod threads;

pub use device::{Device, DeviceKind};
pub use dtype::{DType, Element};
pub use error::{Error, ErrorKind, Result};
pub use layout::{Layout, MAX_DIMS};
pub use memory::MemoryStats;
pub use storage::{Deleter, Owner, OwnerKind, Storage};
pub use tensor::random::{manual_seed, Generator};
pub use tensor::{BlobOptions, ForeignMemory, PrintOptions, SharedRegion, StableBytes, Tensor};

/// This crate's version, `"MAJOR.MINOR.PATCH"`: the workspace version in the root
/// `Cargo.toml`, which is also the C library's `crt_version()` and the Python package's
/// `clika_runtime.__version__`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[doc(hidden)]
pub use half;

/// The Rust examples in `docs/` run as doctests of this crate (`cargo test`), so the guides
/// stay true; the C++ and Python ones run under `docs/check` and the test suites.
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../../../docs/memory-pool.md")]
    struct MemoryPool;
    #[doc = include_str!("../../../docs/zero-copy.md")]
    struct ZeroCopy;
    #[doc = include_str!("../../../docs/custom-operators.md")]
    struct CustomOperators;
    #[doc = include_str!("../../../docs/zero-copy-weights.md")]
    struct ZeroCopyWeights;
}
