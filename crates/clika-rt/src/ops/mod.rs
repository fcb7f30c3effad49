//! Operations. Each is a free function here (mirroring the C++ `ClikaRT::ops` namespace) and
//! a method on [`Tensor`](crate::Tensor). Ops allocate their results from the pool and never
//! write their inputs, except the explicit in-place forms and the `*_owned` forms, which
//! reuse an input's memory only when nothing else can see it.

mod binary;
mod copy;
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

pub use binary::{
    add, binary, binary_owned, binary_scalar, broadcast_shapes, can_reuse, div, eq, ge, gt, le, lt,
    maximum, minimum, mul, ne, pow, scalar_binary, sub, BinaryOp,
};
pub(crate) use binary::{as_operand, BinaryPlan};
pub use copy::{contiguous, to_dtype};
pub(crate) use index::IndexPlan;
pub use index::{
    index, index_put_, index_put_shared, index_select, masked_fill, masked_select, nonzero,
    TensorIndex,
};
pub use join::{cat, stack};
pub use matmul::matmul;
pub use operand::{binary_operands, clamp_operands, where_operands, Operand};
pub use out::{binary_into, binary_into_shared, unary_into, unary_into_shared};
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
    argsort, kthvalue, max_dim, median, median_dim, min_dim, sort, topk, unique, RowSelect, Unique,
    ValuesIndices,
};
pub(crate) use unary::UnaryPlan;
pub use unary::{
    abs, cos, erf, exp, gelu, log, neg, relu, rsqrt, sigmoid, silu, sin, sqrt, tanh, unary,
    unary_owned, UnaryOp,
};
