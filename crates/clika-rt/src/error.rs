//! The one structured error type of the runtime.
//!
//! Every fallible operation returns [`Result<T>`]. Each [`Error`] variant carries the operands
//! that caused it, and its message names the fix. [`Error::kind`] gives a stable [`ErrorKind`]
//! that the C ABI maps to status numbers and Python maps to exception classes.

use crate::{DType, Device};

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The stable category of an [`Error`]; the boundaries (C ABI, Python) map on this alone.
///
/// The discriminants are part of the C ABI (`CRT_STATUS_*` = discriminant) and never change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A null pointer where data was required.
    NullPointer = 1,
    /// A shape, stride or index that is out of range or overflows (`ValueError`).
    InvalidShape = 2,
    /// A pointer that is not aligned for its dtype (`ValueError`).
    Misaligned = 3,
    /// A dtype that does not fit the operation (`TypeError`).
    DType = 4,
    /// A memory layout the operation cannot take as is, e.g. non-contiguous (`TypeError`).
    Layout = 5,
    /// A dimension or element index out of range (`IndexError`).
    Index = 6,
    /// The device could not satisfy an allocation (`MemoryError`).
    OutOfMemory = 7,
    /// A device that is absent, failed, or does not match (`RuntimeError`).
    Device = 8,
    /// Memory that must not be written (`ValueError`).
    ReadOnly = 9,
    /// Any other invalid argument (`ValueError`).
    InvalidArgument = 10,
    /// A bug in the runtime or a panic caught at a boundary (`RuntimeError`).
    Internal = 11,
}

impl ErrorKind {
    /// The kind whose discriminant (C status number) is `code`, if any.
    pub fn from_code(code: u32) -> Option<ErrorKind> {
        use ErrorKind as K;
        [
            K::NullPointer,
            K::InvalidShape,
            K::Misaligned,
            K::DType,
            K::Layout,
            K::Index,
            K::OutOfMemory,
            K::Device,
            K::ReadOnly,
            K::InvalidArgument,
            K::Internal,
        ]
        .into_iter()
        .find(|&k| k as u32 == code)
    }
}

/// Every way a runtime operation can fail.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A null data pointer was given for a tensor with elements.
    #[error("data pointer is null but the shape {shape:?} has {numel} elements; pass a valid pointer (null is only allowed for empty tensors)")]
    NullPointer {
        /// The requested shape.
        shape: Vec<i64>,
        /// Its element count.
        numel: usize,
    },
    /// A dimension size is negative.
    #[error("dimension {dim} of shape {shape:?} is negative; sizes must be >= 0")]
    NegativeDim {
        /// The requested shape.
        shape: Vec<i64>,
        /// The offending dimension.
        dim: usize,
    },
    /// The shape's element count or byte extent does not fit the address space.
    #[error("shape {shape:?} with strides {strides:?} of {dtype} overflows the address space (element count or byte extent exceeds isize::MAX)")]
    ShapeOverflow {
        /// The requested shape.
        shape: Vec<i64>,
        /// The requested strides, in elements.
        strides: Vec<i64>,
        /// The element type.
        dtype: DType,
    },
    /// `strides` and `shape` have different lengths.
    #[error("shape has {shape_len} dimensions but strides has {strides_len}; pass one stride (in elements) per dimension")]
    StridesMismatch {
        /// Length of the shape.
        shape_len: usize,
        /// Length of the strides.
        strides_len: usize,
    },
    /// More dimensions than the runtime supports.
    #[error("{ndim} dimensions requested; at most {max} are supported")]
    TooManyDims {
        /// Requested rank.
        ndim: usize,
        /// The limit.
        max: usize,
    },
    /// The memory range `[ptr + min_offset, ptr + max_offset)` wraps around the address space.
    #[error("the memory described by pointer {ptr:#x}, shape {shape:?} and strides {strides:?} wraps around the address space")]
    AddressWrap {
        /// The base pointer.
        ptr: usize,
        /// The requested shape.
        shape: Vec<i64>,
        /// The requested strides.
        strides: Vec<i64>,
    },
    /// A pointer that is not aligned to the dtype's size.
    #[error("pointer {ptr:#x} is not aligned for {dtype} (needs {align}-byte alignment); copy into an aligned buffer or use from_data, which copies")]
    Misaligned {
        /// The pointer.
        ptr: usize,
        /// The element type.
        dtype: DType,
        /// Required alignment in bytes.
        align: usize,
    },
    /// A dimension argument outside `-ndim..ndim`.
    #[error("dimension {dim} is out of range for a tensor with {ndim} dimensions (expected {} to {})", -(*ndim as i64).max(1), (*ndim as i64).max(1) - 1)]
    DimOutOfRange {
        /// The requested dimension.
        dim: i64,
        /// The tensor's rank.
        ndim: usize,
    },
    /// The same dimension was named twice.
    #[error("dimension {dim} appears more than once in {dims:?}")]
    DuplicateDim {
        /// The repeated dimension (normalised).
        dim: usize,
        /// The list as given.
        dims: Vec<i64>,
    },
    /// An index outside a dimension's extent.
    #[error("index {index} is out of range for dimension {dim} of size {size}")]
    IndexOutOfRange {
        /// The requested index.
        index: i64,
        /// The dimension.
        dim: usize,
        /// Its size.
        size: usize,
    },
    /// Two shapes that should match (or broadcast) do not.
    #[error("{op}: shape {got:?} does not match {expected:?}")]
    ShapeMismatch {
        /// The operation.
        op: &'static str,
        /// The shape that was expected.
        expected: Vec<i64>,
        /// The shape that was given.
        got: Vec<i64>,
    },
    /// `a @ b` whose inner dimensions differ (`a.shape[-1] != b.shape[-2]`).
    #[error("matmul: inner dimensions differ: a has shape {a:?} (k = {k}, its last dimension) but b has shape {b:?} (k = {k2}, its {}); a @ b needs a.shape[-1] == b.shape[-2] (a transpose such as a @ b.T may be meant)", if b.len() == 1 { "only dimension" } else { "second-to-last dimension" })]
    MatmulInner {
        /// The left operand's shape.
        a: Vec<usize>,
        /// The right operand's shape.
        b: Vec<usize>,
        /// The left operand's inner size (its last dimension).
        k: usize,
        /// The right operand's inner size (its second-to-last dimension, or its only one).
        k2: usize,
    },
    /// A reshape whose element count differs, or with an unresolvable `-1`.
    #[error("cannot reshape a tensor of shape {from:?} ({numel} elements) into {to:?}")]
    ReshapeNumel {
        /// The current shape.
        from: Vec<i64>,
        /// Its element count.
        numel: usize,
        /// The requested shape.
        to: Vec<i64>,
    },
    /// `view` on strides that cannot express the new shape without a copy.
    #[error("view of shape {from:?} with strides {strides:?} as {to:?} needs a copy; call reshape() (which copies when needed) or contiguous() first")]
    NotViewable {
        /// The current shape.
        from: Vec<i64>,
        /// Its strides.
        strides: Vec<i64>,
        /// The requested shape.
        to: Vec<i64>,
    },
    /// A slice step of zero.
    #[error("slice step must not be zero")]
    ZeroStep,
    /// An element type that does not match the one requested.
    #[error("tensor has dtype {actual} but {expected} was requested; convert first with to_dtype({expected})")]
    DTypeMismatch {
        /// The dtype the caller asked for.
        expected: DType,
        /// The tensor's dtype.
        actual: DType,
    },
    /// An operation that does not support a dtype.
    #[error("{op} does not support dtype {dtype}")]
    UnsupportedDType {
        /// The operation.
        op: &'static str,
        /// The dtype given.
        dtype: DType,
    },
    /// `item()` on a tensor that does not have exactly one element.
    #[error("item() needs a tensor with exactly one element, but this one has {numel}; reduce it first (e.g. sum()) or index one element")]
    NotScalar {
        /// The element count.
        numel: usize,
    },
    /// Data whose length does not match the shape.
    #[error("{len} elements given for shape {shape:?}, which holds {numel}")]
    DataLength {
        /// Elements given.
        len: usize,
        /// Requested shape.
        shape: Vec<i64>,
        /// Elements the shape holds.
        numel: usize,
    },
    /// A buffer too small for the layout that should view it.
    #[error("a buffer of {nbytes} bytes is too small for shape {shape:?} of {dtype} at byte offset {offset_bytes} (needs {needed} bytes)")]
    BufferTooSmall {
        /// Buffer length in bytes.
        nbytes: usize,
        /// Requested shape.
        shape: Vec<i64>,
        /// Element type.
        dtype: DType,
        /// Start of the data in the buffer.
        offset_bytes: usize,
        /// Bytes the layout needs.
        needed: usize,
    },
    /// A write into memory the tensor may only read.
    #[error("the tensor's memory is read-only ({reason}); make a writable copy with contiguous_copy() or from_data()")]
    ReadOnly {
        /// Why the memory is read-only.
        reason: &'static str,
    },
    /// A file that could not be opened, inspected or mapped.
    #[error("cannot {action} {path:?}: {message}")]
    File {
        /// The file.
        path: String,
        /// What was being done (`open`, `map`, ...).
        action: &'static str,
        /// The operating system's message.
        message: String,
    },
    /// A file whose contents do not follow its format (a truncated or corrupt safetensors file).
    #[error("{path:?} is not a valid safetensors file: {message}")]
    FileFormat {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A byte range past the end of a file.
    #[error("{path:?}: {nbytes} bytes at byte offset {offset} do not fit in the file, which has {file_len} bytes; check the offset, shape and dtype")]
    FileRange {
        /// The file.
        path: String,
        /// Start of the range, in bytes.
        offset: u64,
        /// Length of the range, in bytes.
        nbytes: usize,
        /// Length of the file, in bytes.
        file_len: u64,
    },
    /// A tensor stored with an element type the runtime does not have.
    #[error("{path:?}: tensor {tensor:?} has dtype {dtype}, which the runtime does not support (supported: F32, F64, F16, BF16, I8, I16, I32, I64, U8, BOOL); convert it when saving")]
    UnsupportedFileDType {
        /// The file.
        path: String,
        /// The tensor's name.
        tensor: String,
        /// The file's dtype name.
        dtype: String,
    },
    /// `ops::call` with a name no operator was registered under.
    #[error("no custom operator named {name:?} is registered; registered: {registered:?}")]
    UnknownOperator {
        /// The name asked for.
        name: String,
        /// The names registered now, sorted.
        registered: Vec<String>,
    },
    /// `ops::register` with a name that is taken.
    #[error("a custom operator named {name:?} is already registered; pick another name or call ops::unregister first")]
    OperatorExists {
        /// The name.
        name: String,
    },
    /// A custom operator's rule or kernel failed, or broke its contract.
    #[error("custom operator {op:?}: {message}")]
    Operator {
        /// The operator's name.
        op: String,
        /// The stable kind the failure maps to at the boundaries.
        kind: ErrorKind,
        /// What went wrong.
        message: String,
    },
    /// A reduction without an identity over no elements.
    #[error(
        "{op}() of an empty tensor (or over an empty dimension) is undefined; check numel() first"
    )]
    EmptyReduction {
        /// The reduction.
        op: &'static str,
    },
    /// A safe in-place write to memory another tensor or view can see.
    #[error("{op}: the tensor shares its memory with other tensors or views, so a safe in-place write could race with them; drop the other references, write into contiguous_copy(), or use the unsafe *_shared form")]
    SharedWrite {
        /// The operation.
        op: &'static str,
    },
    /// A device string that does not parse.
    #[error("unknown device {text:?}; expected \"cpu\", \"gpu:N\", \"cuda:N\", \"vulkan:N\" or \"auto\"")]
    ParseDevice {
        /// The text given.
        text: String,
    },
    /// A dtype string that does not parse.
    #[error("unknown dtype {text:?}; expected one of float32, float64, float16, bfloat16, int8, int16, int32, int64, uint8, bool")]
    ParseDType {
        /// The text given.
        text: String,
    },
    /// A device that is not available in this build or on this machine.
    #[error("device {device} is not available: {reason}")]
    DeviceUnavailable {
        /// The device asked for.
        device: Device,
        /// Why.
        reason: String,
    },
    /// Operands on different devices.
    #[error("{op}: expected all tensors on {expected}, found one on {got}; move it first with .to({expected})")]
    DeviceMismatch {
        /// The operation.
        op: &'static str,
        /// The first operand's device.
        expected: Device,
        /// The mismatching device.
        got: Device,
    },
    /// An op the device's backend does not implement (for these dtypes or arguments).
    #[error("{op} is not implemented on {device} for {what}; move the inputs with .to(Device::cpu()) (Python: t.to('cpu')) and run it there")]
    UnsupportedOnDevice {
        /// The operation.
        op: String,
        /// The device.
        device: Device,
        /// What is missing (dtypes, arguments).
        what: String,
    },
    /// The device allocator could not satisfy a request, even after releasing its cache.
    #[error("out of memory on {device}: tried to allocate {requested} bytes; limit {}, {active} bytes active, {cached} bytes cached, largest free block {largest_free} bytes. Free tensors, call release_cached_memory(), or raise the limit", limit.map_or_else(|| "none".to_string(), |l| format!("{l} bytes")))]
    OutOfMemory {
        /// The device.
        device: Device,
        /// The requested byte count.
        requested: usize,
        /// The device's memory limit, if any.
        limit: Option<usize>,
        /// Bytes in use.
        active: usize,
        /// Bytes reserved but idle.
        cached: usize,
        /// Largest free block in the pool.
        largest_free: usize,
    },
    /// A value that does not fit the target type.
    #[error("{what}: value {value} is out of range")]
    OutOfRange {
        /// What was being converted.
        what: &'static str,
        /// The value, printed.
        value: String,
    },
    /// An argument that is invalid for the op (the message says which and why).
    #[error("{what}")]
    InvalidArgument {
        /// What is wrong, and the fix.
        what: String,
    },
    /// An operation that borrows the elements as one run needs a row-major tensor.
    #[error("{op} needs a contiguous (row-major, gap-free) tensor, but this one has shape {shape:?} and strides {strides:?}; call contiguous() first (it copies only when needed)")]
    NotContiguous {
        /// The operation.
        op: &'static str,
        /// The tensor's shape.
        shape: Vec<i64>,
        /// Its strides, in elements.
        strides: Vec<i64>,
    },
    /// A dtype an operation refuses for a reason its message gives with the fix (bitwise ops
    /// on floats, an in-place op whose result cannot be cast back, `int += float`).
    #[error("{what}")]
    DTypeRule {
        /// What is wrong, and the fix.
        what: String,
    },
    /// Integer division or remainder by zero (Python's `ZeroDivisionError`).
    #[error("{op}: integer division by zero; make the divisor non-zero, or convert to a float dtype first (float division by zero gives inf/nan)")]
    IntegerDivisionByZero {
        /// The operation.
        op: &'static str,
    },
    /// A panic or invariant violation inside the runtime, caught at a boundary.
    #[error("internal error: {message}")]
    Internal {
        /// What went wrong.
        message: String,
    },
}

impl Error {
    /// The stable category of this error.
    pub fn kind(&self) -> ErrorKind {
        use Error as E;
        match self {
            E::NullPointer { .. } => ErrorKind::NullPointer,
            E::NegativeDim { .. }
            | E::ShapeOverflow { .. }
            | E::StridesMismatch { .. }
            | E::TooManyDims { .. }
            | E::AddressWrap { .. }
            | E::ShapeMismatch { .. }
            | E::MatmulInner { .. }
            | E::ReshapeNumel { .. }
            | E::DataLength { .. }
            | E::BufferTooSmall { .. } => ErrorKind::InvalidShape,
            E::Misaligned { .. } => ErrorKind::Misaligned,
            E::DimOutOfRange { .. } | E::DuplicateDim { .. } | E::IndexOutOfRange { .. } => {
                ErrorKind::Index
            }
            E::NotViewable { .. } | E::NotContiguous { .. } => ErrorKind::Layout,
            E::DTypeMismatch { .. }
            | E::UnsupportedDType { .. }
            | E::ParseDType { .. }
            | E::DTypeRule { .. } => ErrorKind::DType,
            E::IntegerDivisionByZero { .. } => ErrorKind::InvalidArgument,
            E::NotScalar { .. }
            | E::EmptyReduction { .. }
            | E::ZeroStep
            | E::ParseDevice { .. }
            | E::OutOfRange { .. }
            | E::InvalidArgument { .. } => ErrorKind::InvalidArgument,
            E::ReadOnly { .. } | E::SharedWrite { .. } => ErrorKind::ReadOnly,
            E::DeviceUnavailable { .. }
            | E::DeviceMismatch { .. }
            | E::UnsupportedOnDevice { .. } => ErrorKind::Device,
            E::OutOfMemory { .. } => ErrorKind::OutOfMemory,
            E::Internal { .. } => ErrorKind::Internal,
            E::File { .. } | E::FileFormat { .. } => ErrorKind::InvalidArgument,
            E::FileRange { .. } => ErrorKind::InvalidShape,
            E::UnsupportedFileDType { .. } => ErrorKind::DType,
            E::UnknownOperator { .. } | E::OperatorExists { .. } => ErrorKind::InvalidArgument,
            E::Operator { kind, .. } => *kind,
        }
    }
}

/// Converts a `usize` slice to the `i64` form errors carry.
pub(crate) fn dims_i64(dims: &[usize]) -> Vec<i64> {
    dims.iter().map(|&d| d as i64).collect()
}

/// Converts an `isize` slice to the `i64` form errors carry.
pub(crate) fn strides_i64(strides: &[isize]) -> Vec<i64> {
    strides.iter().map(|&s| s as i64).collect()
}
