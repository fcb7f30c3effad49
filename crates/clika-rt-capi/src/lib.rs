//! # ClikaRT C ABI
//!
//! The C face of the runtime: opaque handles, `crt_<noun>_<verb>` functions, stable numbered
//! status codes and an out-parameter error object. It only translates: every operation is
//! the core's ([`clika_rt`]). The header `include/ClikaRT/clika_rt_c.h` is generated from
//! this crate by cbindgen (`make header`) and committed; `make lint` fails when it is stale.
//! `include/ClikaRT/clika_rt.h` is the header-only C++17 API over it.
//!
//! Conventions every export follows:
//! - it runs inside a panic boundary (`boundary.rs`): a Rust panic becomes
//!   `CRT_STATUS_INTERNAL`, never an abort or an unwind into C;
//! - fallible functions return a [`crt_status`] and take `crt_error **err` last: on failure,
//!   when `err` is not NULL, `*err` receives an error the caller frees with
//!   [`crt_error_free`](error::crt_error_free); on success `*err` is set to NULL;
//! - NULL handles and NULL out-pointers are rejected with `CRT_STATUS_NULL_POINTER`;
//! - out-pointers are checked before any work is done, and handle out-pointers are set to
//!   NULL on failure;
//! - raw pointers are turned into references in one module (`ffi.rs`) only.

pub mod abi;
mod abi_check;
pub mod access;
pub mod algorithms;
mod boundary;
pub mod compute;
pub mod custom_ops;
pub mod deleters;
pub mod device;
pub mod dlpack;
pub mod elementwise_more;
pub mod error;
mod ffi;
pub mod image;
pub mod indexing;
pub mod io;
pub mod norm;
pub mod op_codes;
pub mod out_forms;
pub mod shared;
pub mod tensor;
pub mod testing;
pub mod types;
pub mod views;
pub mod views_more;
pub mod vision;

pub use compute::{crt_binary_op, crt_operand, crt_reduce_op, crt_scalar, crt_unary_op};
pub use error::{crt_error, crt_status};
pub use tensor::crt_tensor;
pub use types::{crt_blob_options, crt_device, crt_dtype, crt_memory_stats};

/// Every export by name, for the compile-time signature check of `abi.rs`.
mod exports {
    pub(crate) use crate::access::{
        crt_string_free, crt_tensor_data_ptr, crt_tensor_device, crt_tensor_dtype,
        crt_tensor_is_writable, crt_tensor_shape, crt_tensor_strides,
    };
    pub(crate) use crate::custom_ops::{
        crt_error_new, crt_op_call, crt_op_output_set, crt_op_register, crt_op_registered,
        crt_op_unregister,
    };
    pub(crate) use crate::error::{crt_error_free, crt_error_message, crt_error_status};
    pub(crate) use crate::tensor::{crt_tensor_clone, crt_tensor_free, crt_tensor_from_blob};
}
