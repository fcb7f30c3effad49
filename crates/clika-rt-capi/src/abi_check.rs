//! Compile-time proof that the signatures in `abi.rs` (which a separately compiled copy of
//! the runtime uses to call this library) are this crate's exports: each listed entry point
//! is assigned to a function pointer of the listed type, which compiles only if they match.

use std::ffi::{c_char, c_void};

use crate::abi::{
    crt_blob_options, crt_device, crt_dtype, crt_entry_points, crt_kernel_fn, crt_op_spec,
    crt_rule_fn, crt_status,
};
use crate::custom_ops::{crt_op_drop_fn, crt_op_kernel_fn, crt_op_output, crt_op_rule_fn};
use crate::error::crt_error;
use crate::tensor::crt_tensor;

type Tensor = crt_tensor;
type Error = crt_error;
type Output = crt_op_output;
type RuleFn = crt_rule_fn!(crt_error);
type KernelFn = crt_kernel_fn!(crt_tensor, crt_op_output, crt_error);
type DropFn = crt_op_drop_fn;

// The callback types the bridge builds from the macros are the ones this crate declares.
const _: fn(crt_op_rule_fn) -> RuleFn = |f| f;
const _: fn(crt_op_kernel_fn) -> KernelFn = |f| f;

macro_rules! check_signatures {
    ($($name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;)*) => {
        $(
            const _: unsafe extern "C" fn($($ty),*) -> $ret = crate::exports::$name;
        )*
    };
}

crt_entry_points!(check_signatures);
