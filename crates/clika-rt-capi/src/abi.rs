//! The plain-data types of the C ABI and the signatures of the entry points other copies of
//! the runtime call, written once.
//!
//! This file is a module of the C ABI crate (cbindgen reads the types from here into
//! `clika_rt_c.h`) and is included as is, with `#[path]`, by the Python extension's bridge
//! to `libclika_rt` (`native_registry.rs`), which talks to a separately compiled library
//! through exactly this ABI. So it depends on nothing but `std`. A changed field, constant
//! or signature changes both sides at once, and `crt_entry_points!` makes the C ABI crate
//! check every listed signature against its real export at compile time.

use std::ffi::c_void;

/// A status code: `CRT_STATUS_OK` (0) or one of the error categories below. The numbers are
/// stable and equal the core's `ErrorKind` discriminants.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_status = u32;

/// Success.
pub const CRT_STATUS_OK: crt_status = 0;
/// A NULL handle, out-pointer or data pointer where one was required.
pub const CRT_STATUS_NULL_POINTER: crt_status = 1;
/// A shape, stride or size that is negative, out of range or overflows.
pub const CRT_STATUS_INVALID_SHAPE: crt_status = 2;
/// A data pointer not aligned for its dtype.
pub const CRT_STATUS_MISALIGNED: crt_status = 3;
/// A dtype that is unknown or does not fit the operation.
pub const CRT_STATUS_DTYPE: crt_status = 4;
/// A memory layout the operation cannot take as is (e.g. a view that needs a copy).
pub const CRT_STATUS_LAYOUT: crt_status = 5;
/// A dimension or element index out of range.
pub const CRT_STATUS_INDEX: crt_status = 6;
/// The device could not satisfy an allocation, even after releasing its cache.
pub const CRT_STATUS_OUT_OF_MEMORY: crt_status = 7;
/// A device that is unknown, absent, failed, or does not match.
pub const CRT_STATUS_DEVICE: crt_status = 8;
/// A write into memory that must not be written.
pub const CRT_STATUS_READ_ONLY: crt_status = 9;
/// Any other invalid argument.
pub const CRT_STATUS_INVALID_ARGUMENT: crt_status = 10;
/// A bug in the runtime, or a Rust panic caught at the C boundary.
pub const CRT_STATUS_INTERNAL: crt_status = 11;

/// An element type: one of the `CRT_DTYPE_*` numbers (stable; equal to the core's `DType`
/// discriminants). Unknown numbers are rejected with `CRT_STATUS_DTYPE`.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_dtype = u32;

/// IEEE 754 binary32 (`float`).
pub const CRT_DTYPE_FLOAT32: crt_dtype = 0;
/// IEEE 754 binary64 (`double`).
pub const CRT_DTYPE_FLOAT64: crt_dtype = 1;
/// IEEE 754 binary16, as `uint16_t` bits.
pub const CRT_DTYPE_FLOAT16: crt_dtype = 2;
/// bfloat16, as `uint16_t` bits.
pub const CRT_DTYPE_BFLOAT16: crt_dtype = 3;
/// `int8_t`.
pub const CRT_DTYPE_INT8: crt_dtype = 4;
/// `int16_t`.
pub const CRT_DTYPE_INT16: crt_dtype = 5;
/// `int32_t`.
pub const CRT_DTYPE_INT32: crt_dtype = 6;
/// `int64_t`.
pub const CRT_DTYPE_INT64: crt_dtype = 7;
/// `uint8_t`.
pub const CRT_DTYPE_UINT8: crt_dtype = 8;
/// A boolean stored as one byte; any non-zero byte reads as true.
pub const CRT_DTYPE_BOOL: crt_dtype = 9;
/// `uint16_t`.
pub const CRT_DTYPE_UINT16: crt_dtype = 10;
/// `uint32_t`.
pub const CRT_DTYPE_UINT32: crt_dtype = 11;
/// `uint64_t`.
pub const CRT_DTYPE_UINT64: crt_dtype = 12;

/// A device kind: one of the `CRT_DEVICE_*` numbers (stable).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_device_kind = u32;

/// The host.
pub const CRT_DEVICE_CPU: crt_device_kind = 0;
/// A GPU (wgpu over Vulkan). Without a Vulkan driver, operations on it fail with
/// `CRT_STATUS_DEVICE`.
pub const CRT_DEVICE_GPU: crt_device_kind = 1;
/// Automatic placement: the best available accelerator, else the CPU (with one warning on
/// stderr, see `crt_device_set_fallback_warnings`). No tensor ever reports this kind.
pub const CRT_DEVICE_AUTO: crt_device_kind = 2;
/// An NVIDIA GPU through CUDA. Builds without the CUDA backend report it unavailable
/// (`CRT_STATUS_DEVICE`, with the reason).
pub const CRT_DEVICE_CUDA: crt_device_kind = 3;

/// A device: kind and ordinal. `{CRT_DEVICE_CPU, 0}` (all zero) is the host.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct crt_device {
    /// One of `CRT_DEVICE_*`.
    pub kind: crt_device_kind,
    /// The ordinal among devices of that kind (0 for the CPU).
    pub ordinal: u32,
}

/// A deleter for adopted memory: called exactly once as `deleter(data, ctx)`, with the
/// pointer given to `crt_tensor_from_blob` and the context from the options, when the last
/// tensor over the memory is freed, on whichever thread frees it. It must not unwind: a C++
/// deleter catches its exceptions (the C++ header's `Tensor::from_blob` does so for you; for
/// a raw function use the trampoline `ClikaRT::catching_deleter<fn>`, which swallows and
/// reports the exception, see `crt_deleter_report_failure`). A deleter that throws anyway
/// ends the process with a message saying so (Rust cannot catch C++ exceptions).
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_deleter_fn = Option<unsafe extern "C" fn(data: *mut c_void, ctx: *mut c_void)>;

/// `crt_blob_options.flags`: the runtime must never write this memory.
pub const CRT_BLOB_READ_ONLY: u32 = 1;

/// How `crt_tensor_from_blob` treats the memory. All-zero (or a NULL options pointer) means:
/// on the CPU, not pinned, borrowed, writable.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct crt_blob_options {
    /// Where the memory lives.
    pub device: crt_device,
    /// NULL, or the device the caller already page-locked these pages for (a tag only: it
    /// pins nothing). Borrowed: read during the call only.
    pub pinned_for: *const crt_device,
    /// NULL: borrowed (the caller keeps ownership and keeps the memory alive for as long as
    /// any tensor over it exists). Non-NULL: adopted; see `crt_deleter_fn`.
    pub deleter: crt_deleter_fn,
    /// Passed to `deleter` as its second argument; owned by the caller until the deleter
    /// runs. Unused when `deleter` is NULL.
    pub deleter_ctx: *mut c_void,
    /// `CRT_BLOB_READ_ONLY` or 0; other bits must be 0.
    pub flags: u32,
}

/// The most dimensions a tensor has (the length of `crt_op_spec.shape`).
pub const CRT_MAX_DIMS: usize = 64;

/// A tensor's shape and dtype, as a rule sees its inputs and describes its output.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct crt_op_spec {
    /// One of `CRT_DTYPE_*`.
    pub dtype: crt_dtype,
    /// The number of dimensions (at most `CRT_MAX_DIMS`).
    pub ndim: usize,
    /// The sizes of the first `ndim` dimensions; the rest are ignored.
    pub shape: [i64; CRT_MAX_DIMS],
}

/// Expands `$callback! { name(args) -> ret; … }` with the signature of every entry point a
/// separately compiled copy of the runtime calls (the Python extension's operator bridge).
/// The handle types are spelled `Tensor`, `Error` and `Output`, and the callbacks' pointer
/// types `RuleFn`, `KernelFn`, `DropFn` (`crt_op_drop_fn`): each expansion site names what they are (the C ABI
/// crate its own handle types, the bridge `c_void`), so one list serves both and the C ABI
/// crate checks it against its exports.
macro_rules! crt_entry_points {
    ($callback:ident) => {
        $callback! {
            crt_op_register(
                name: *const c_char,
                rule: RuleFn,
                kernel: KernelFn,
                user_data: *mut c_void,
                drop_user_data: DropFn,
                err: *mut *mut Error,
            ) -> crt_status;
            crt_op_unregister(name: *const c_char, removed: *mut u8, err: *mut *mut Error)
                -> crt_status;
            crt_op_call(
                name: *const c_char,
                inputs: *const *const Tensor,
                n_inputs: usize,
                out: *mut *mut Tensor,
                err: *mut *mut Error,
            ) -> crt_status;
            crt_op_registered(out: *mut *mut c_char, err: *mut *mut Error) -> crt_status;
            crt_op_output_set(output: *mut Output, tensor: *const Tensor, err: *mut *mut Error)
                -> crt_status;
            crt_error_new(status: crt_status, message: *const c_char) -> *mut Error;
            crt_error_status(err: *const Error) -> crt_status;
            crt_error_message(err: *const Error) -> *const c_char;
            crt_error_free(err: *mut Error) -> ();
            crt_string_free(s: *mut c_char) -> ();
            crt_tensor_shape(
                tensor: *const Tensor,
                shape_out: *mut *const i64,
                ndim_out: *mut usize,
                err: *mut *mut Error,
            ) -> crt_status;
            crt_tensor_strides(
                tensor: *const Tensor,
                strides_out: *mut *const i64,
                ndim_out: *mut usize,
                err: *mut *mut Error,
            ) -> crt_status;
            crt_tensor_dtype(tensor: *const Tensor, out: *mut crt_dtype, err: *mut *mut Error)
                -> crt_status;
            crt_tensor_device(tensor: *const Tensor, out: *mut crt_device, err: *mut *mut Error)
                -> crt_status;
            crt_tensor_data_ptr(tensor: *const Tensor, out: *mut *mut c_void, err: *mut *mut Error)
                -> crt_status;
            crt_tensor_is_writable(tensor: *const Tensor, out: *mut u8, err: *mut *mut Error)
                -> crt_status;
            crt_tensor_clone(tensor: *const Tensor, out: *mut *mut Tensor, err: *mut *mut Error)
                -> crt_status;
            crt_tensor_free(tensor: *mut Tensor) -> ();
            crt_tensor_from_blob(
                data: *mut c_void,
                shape: *const i64,
                ndim: usize,
                strides: *const i64,
                dtype: crt_dtype,
                options: *const crt_blob_options,
                out: *mut *mut Tensor,
                err: *mut *mut Error,
            ) -> crt_status;
        }
    };
}
pub(crate) use crt_entry_points;

/// A rule's signature, with the expansion site's handle types (see [`crt_entry_points!`]).
macro_rules! crt_rule_fn {
    ($error:ty) => {
        Option<
            unsafe extern "C" fn(
                user_data: *mut c_void,
                inputs: *const crt_op_spec,
                n_inputs: usize,
                output: *mut crt_op_spec,
                err: *mut *mut $error,
            ) -> crt_status,
        >
    };
}
pub(crate) use crt_rule_fn;

/// A kernel's signature, with the expansion site's handle types.
macro_rules! crt_kernel_fn {
    ($tensor:ty, $output:ty, $error:ty) => {
        Option<
            unsafe extern "C" fn(
                user_data: *mut c_void,
                inputs: *const *const $tensor,
                n_inputs: usize,
                output: *mut $output,
                err: *mut *mut $error,
            ) -> crt_status,
        >
    };
}
pub(crate) use crt_kernel_fn;

/// Releases an operator's `user_data`, once, when the operator is unregistered (and no call
/// is running any more). Runs on whichever thread drops the operator last.
#[expect(
    non_camel_case_types,
    reason = "the C header spells its types as C does"
)]
pub type crt_op_drop_fn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;
