//! Operations. Each is a free function here (mirroring the C++ `ClikaRT::ops` namespace) and
//! a method on [`Tensor`](crate::Tensor). Ops allocate their results from the pool and never
//! write their inputs, except the explicit in-place forms and the `*_owned` forms, which
//! reuse an input's memory only when nothing else can see it.

mod arith;
mod binary;
mod bincount;
mod copy;
mod elementwise_more;
mod gather;
mod index;
mod inplace;
mod join;
pub(crate) mod matmul;
mod methods;
mod operand;
mod out;
mod promote;
mod reduce;
mod reduce_more;
pub(crate) mod registry;
mod scan;
mod select;
mod sort;
mod sort_methods;
pub(crate) mod strided;
#[doc(hidden)]
pub mod test_ops;
mod unary;
pub(crate) mod vision;

pub use binary::{
    add, atan2, binary, binary_into_temporary, binary_owned, binary_scalar, bitwise_and,
    bitwise_left_shift, bitwise_or, bitwise_right_shift, bitwise_xor, broadcast_shapes, can_reuse,
    div, eq, floor_divide, fmod, ge, gt, hypot, le, logical_and, logical_or, logical_xor, lt,
    maximum, minimum, mul, ne, pow, remainder, scalar_binary, sub, BinaryOp,
};
pub(crate) use binary::{as_operand, BinaryPlan};
pub use bincount::{bincount, histc};
pub use copy::{contiguous, to_dtype};
pub(crate) use elementwise_more::{binary_dtypes_owned, divides};
pub use elementwise_more::{can_cast_in_place, check_in_place, round_decimals, tril, triu};
pub use gather::{gather, scatter, scatter_add, scatter_add_shared, scatter_shared};
pub use gather::{index_add, index_add_shared};
pub use gather::{scatter_reduce, scatter_reduce_shared, ScatterReduce};
pub(crate) use gather::{AlongPlan, ScatterMode};
pub(crate) use index::{for_each_row, IndexPlan};
pub use index::{
    index, index_put_, index_put_shared, index_select, masked_fill, masked_select, nonzero,
    TensorIndex,
};
pub use join::{cat, stack};
pub use matmul::{matmul, matmul_into, matmul_into_shared};
pub use operand::{binary_operands, clamp_operands, where_operands, Operand};
pub use out::{
    binary_into, binary_into_shared, reduce_into, reduce_into_shared, unary_into, unary_into_shared,
};
pub use promote::{float_type, result_type, scalar_result_type, Scalar};
pub(crate) use reduce::ReducePlan;
pub use reduce::{
    argmax, argmax_dim, argmin, argmin_dim, log_softmax, max, max_dims, mean, mean_dims, min,
    min_dims, prod, prod_dims, reduce, softmax, std_dims, sum, sum_dims, var_dims, ReduceOp,
};
pub use reduce_more::{all, any, logsumexp, norm};
pub use registry::{
    call, output_spec, register, registered, unregister, Kernel, Output, Rule, TensorSpec,
};
pub use scan::{cumprod, cumsum, roll, scan, ScanOp};
pub use select::{clamp, where_};
pub use sort::{
    argsort, kthvalue, max_dim, median, median_dim, min_dim, sort, topk, unique, unique_dim,
    RowSelect, Unique, ValuesIndices,
};
pub(crate) use unary::UnaryPlan;
pub use unary::{
    abs, acos, asin, atan, bitwise_not, ceil, cos, cosh, erf, exp, exp2, expm1, floor, gelu,
    isfinite, isinf, isnan, log, log10, log1p, log2, logical_not, neg, relu, round, rsqrt, sigmoid,
    sign, silu, sin, sinh, sqrt, tan, tanh, trunc, unary, unary_owned, UnaryOp,
};
pub use vision::{
    adaptive_avg_pool2d, avg_pool2d, batch_norm, conv1d, conv2d, conv_transpose1d,
    conv_transpose2d, cvt_color, group_norm, interpolate, layer_norm, linear, max_pool2d,
    normalize_image, pad, ColorConversion, ConvOptions, ConvTransposeOptions, InterpolateMode,
    InterpolateOptions, PadMode, Padding, PoolOptions, YuvMatrix, YuvRange,
};
