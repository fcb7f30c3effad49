//! Operations. Each is a free function here (mirroring the C++ `ClikaRT::ops` namespace) and
//! a method on [`Tensor`](crate::Tensor). Ops allocate their results from the pool and never
//! write their inputs.

mod copy;
mod reduce;
pub(crate) mod strided;

pub use copy::{contiguous, to_dtype};
pub use reduce::{mean, mean_dims, sum, sum_dims};
