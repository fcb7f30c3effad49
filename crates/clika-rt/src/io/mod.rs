//! Tensors over memory that other formats describe, without copying: memory-mapped files
//! ([`load_safetensors`], [`Tensor::from_file`](crate::Tensor::from_file)) and DLPack
//! managed tensors ([`dlpack`]).
//!
//! A file is mapped read-only once; every tensor over it is a view into that one mapping,
//! whose owner ([`Owner::Keepalive`](crate::Owner::Keepalive) of an `Arc` of the map) unmaps
//! it when the last tensor drops. Nothing is read until used: the operating system pages the
//! bytes in on first touch, and mapped pages are not pool memory (they never count against
//! the pool's limit). The tensors are read-only; a safe in-place write gives
//! [`Error::ReadOnly`](crate::Error::ReadOnly).
//!
//! # The mapping contract
//! A mapped file is memory shared with the file system: if another process truncates or
//! rewrites the file while a tensor over it is alive, reads see the new bytes or the process
//! receives `SIGBUS`. Rust cannot rule that out, so the Rust entry points are `unsafe fn`; the
//! C and Python doors state the same contract in their documentation.

pub mod dlpack;
mod header;
mod mapped;
mod safetensors;

pub use self::safetensors::{load_safetensors, load_safetensors_copied};
