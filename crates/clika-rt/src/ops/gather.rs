//! Gathers and scatters along one dim (PyTorch's `gather`, `scatter`, `scatter_add`;
//! numpy's `take_along_axis`, `put_along_axis`, `np.add.at`): an index tensor of the
//! source's rank picks, for each of its positions, the element at that position with the
//! coordinate along `dim` replaced by the index value.
//!
//! Each is planned as an [`AlongPlan`] (the shapes checked, the index on the tensor's device
//! in a dtype the backend reads); the backend walks the index and checks its values.

use super::{BinaryOp, Scalar};
use crate::backend::backend;
use crate::error::dims_i64;
use crate::layout::{normalize_dim, DimVec};
use crate::{DType, Error, Result, Tensor};

/// A gather or scatter along one dim, checked but for the index values (the backend checks
/// those): `index` has `t`'s rank, at least 1, an `Int32` or `Int64` dtype, lives on `t`'s
/// device, does not share `t`'s memory and, off `dim`, is no larger than `t`; `t`'s `dim` is
/// not empty unless `index` is.
#[derive(Debug)]
pub(crate) struct AlongPlan {
    /// The tensor gathered from or scattered into.
    pub(crate) t: Tensor,
    /// The dim the index values pick along.
    pub(crate) dim: usize,
    /// The index, of `t`'s rank.
    pub(crate) index: Tensor,
    /// Whether `t` is a private copy its caller discards on error, so a scatter may write
    /// before every index value is checked.
    pub(crate) fresh: bool,
}

/// How a scatter combines each value with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScatterMode {
    /// `target = value` (`scatter_`).
    Write,
    /// `target += value` (`scatter_add_`; wrapping for integers, `or` for Bool).
    Add,
    /// `target *= value` (wrapping for integers, `and` for Bool).
    Mul,
    /// `target = max(target, value)` (a NaN wins; `or` for Bool).
    Max,
    /// `target = min(target, value)` (a NaN wins; `and` for Bool).
    Min,
}

/// How [`scatter_reduce`] combines the values that reach one target (PyTorch's `reduce`
/// argument of `scatter_reduce`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScatterReduce {
    /// The sum (`"sum"`; integers wrap).
    Sum,
    /// The product (`"prod"`; integers wrap).
    Prod,
    /// The mean (`"mean"`; integers divide with the floor, as PyTorch's).
    Mean,
    /// The maximum (`"amax"`; a NaN wins).
    Amax,
    /// The minimum (`"amin"`; a NaN wins).
    Amin,
}

impl ScatterReduce {
    /// Every reduction, in the order of [`ScatterReduce::name`]s PyTorch documents.
    pub const ALL: [ScatterReduce; 5] = [
        ScatterReduce::Sum,
        ScatterReduce::Prod,
        ScatterReduce::Mean,
        ScatterReduce::Amax,
        ScatterReduce::Amin,
    ];

    /// PyTorch's name: `"sum"`, `"prod"`, `"mean"`, `"amax"` or `"amin"`.
    pub fn name(self) -> &'static str {
        match self {
            ScatterReduce::Sum => "sum",
            ScatterReduce::Prod => "prod",
            ScatterReduce::Mean => "mean",
            ScatterReduce::Amax => "amax",
            ScatterReduce::Amin => "amin",
        }
    }

    /// The reduction PyTorch calls `name`.
    pub fn parse(name: &str) -> Result<ScatterReduce> {
        Self::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| Error::InvalidArgument {
                what: format!(
                    "scatter_reduce: unknown reduce {name:?}; use one of \"sum\", \"prod\", \
                     \"mean\", \"amax\", \"amin\""
                ),
            })
    }

    /// The scatter that folds one value into its target.
    fn mode(self) -> ScatterMode {
        match self {
            ScatterReduce::Sum | ScatterReduce::Mean => ScatterMode::Add,
            ScatterReduce::Prod => ScatterMode::Mul,
            ScatterReduce::Amax => ScatterMode::Max,
            ScatterReduce::Amin => ScatterMode::Min,
        }
    }

    /// The value a target starts from when it does not take part (`include_self` false):
    /// the reduction's identity in `dtype`.
    fn identity(self, dtype: DType) -> Scalar {
        let high = match self {
            ScatterReduce::Sum | ScatterReduce::Mean => return Scalar::Int(0),
            ScatterReduce::Prod => return Scalar::Int(1),
            ScatterReduce::Amax => false,
            ScatterReduce::Amin => true,
        };
        let (lo, hi): (i64, i64) = match dtype {
            DType::Bool => return Scalar::Bool(high),
            DType::Int8 => (i8::MIN.into(), i8::MAX.into()),
            DType::Int16 => (i16::MIN.into(), i16::MAX.into()),
            DType::Int32 => (i32::MIN.into(), i32::MAX.into()),
            DType::Int64 => (i64::MIN, i64::MAX),
            DType::UInt8 => (0, u8::MAX.into()),
            DType::UInt16 => (0, u16::MAX.into()),
            DType::UInt32 => (0, u32::MAX.into()),
            DType::UInt64 if high => return Scalar::UInt(u64::MAX),
            DType::UInt64 => (0, 0),
            _ => {
                return Scalar::Float(if high {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                })
            }
        };
        Scalar::Int(if high { hi } else { lo })
    }
}

/// The plan of `index` along `dim` of `t`: `index` has `t`'s rank and, off `dim`, is no
/// larger than `t` (PyTorch's rule); its values lie in `-size..size` of `t`'s `dim`
/// (negative values count from the end, as numpy's).
fn along(op: &'static str, t: &Tensor, dim: isize, index: &Tensor) -> Result<AlongPlan> {
    if !index.dtype().is_integer() {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the index must be an integer tensor, got {}; convert it with \
                 .to(int64)",
                index.dtype()
            ),
        });
    }
    if index.ndim() != t.ndim() {
        return Err(Error::InvalidArgument {
            what: format!(
                "{op}: the index has {} dims and the tensor {}: they must have the same \
                 number (unsqueeze the index)",
                index.ndim(),
                t.ndim()
            ),
        });
    }
    let nd = t.ndim();
    let d = normalize_dim(dim, nd.max(1))?;
    let shape = t.shape();
    for k in (0..nd).filter(|&k| k != d) {
        if index.shape()[k] > shape[k] {
            return Err(Error::ShapeMismatch {
                op: "gather/scatter (off `dim`, the index may not be larger than the tensor)",
                expected: dims_i64(shape),
                got: dims_i64(index.shape()),
            });
        }
    }
    let n = index.numel();
    let size = if nd == 0 { 1 } else { shape[d] };
    if n > 0 && size == 0 {
        return Err(Error::IndexOutOfRange {
            index: 0,
            dim: d,
            size,
        });
    }
    // The backend reads Int32 and Int64 indices as they are; others are converted.
    let mut index = match index.dtype() {
        DType::Int32 | DType::Int64 => index.to(t.device())?,
        _ => index.to(t.device())?.to_dtype(DType::Int64)?,
    };
    if index.storage().same_as(t.storage()) {
        // A scatter must not read indices it has overwritten.
        index = index.contiguous_copy()?;
    }
    let (t, index) = if nd == 0 {
        (t.unsqueeze(0)?, index.unsqueeze(0)?)
    } else {
        (t.clone(), index)
    };
    Ok(AlongPlan {
        t,
        dim: d,
        index,
        fresh: false,
    })
}

/// `out[p] = t[p with p[dim] = index[p]]` for every position `p` of `index` (PyTorch's
/// `gather`, numpy's `take_along_axis`): a new tensor of `index`'s shape and `t`'s dtype.
/// `index` has `t`'s rank and, off `dim`, is no larger than `t`; negative values count from
/// the end.
pub fn gather(t: &Tensor, dim: isize, index: &Tensor) -> Result<Tensor> {
    let plan = along("gather", t, dim, index)?;
    let out = Tensor::alloc(index.shape(), t.dtype(), t.device(), false)?;
    if out.numel() > 0 {
        let view = if t.ndim() == 0 {
            out.unsqueeze(0)?
        } else {
            out.clone()
        };
        // SAFETY: `out` is fresh, exclusive, of the index's shape (`view` as the plan's) and
        // `t`'s dtype, on `t`'s device.
        unsafe { backend(t.device())?.gather_along(&plan, &view)? };
    }
    Ok(out)
}

/// What a scatter writes: `src` cut to `index`'s shape (each dim of `src` at least as long)
/// and converted to `t`'s dtype, read in full first when it shares `t`'s memory.
fn scatter_values(op: &'static str, t: &Tensor, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let mut v = if src.ndim() == 0 {
        let sizes: DimVec<isize> = index.shape().iter().map(|&d| d as isize).collect();
        src.expand(&sizes)?
    } else if src.ndim() != index.ndim()
        || src.shape().iter().zip(index.shape()).any(|(&s, &i)| s < i)
    {
        return Err(Error::ShapeMismatch {
            op: match op {
                "scatter_add" => {
                    "scatter_add (src must be at least as large as the index in every dim)"
                }
                _ => "scatter (src must be at least as large as the index in every dim)",
            },
            expected: dims_i64(index.shape()),
            got: dims_i64(src.shape()),
        });
    } else {
        let mut v = src.clone();
        for (k, &i) in index.shape().iter().enumerate() {
            v = v.narrow(k as isize, 0, i)?;
        }
        v
    };
    v = v.to(t.device())?.to_dtype(t.dtype())?;
    if v.storage().same_as(t.storage()) {
        v = v.contiguous_copy()?;
    }
    Ok(v)
}

/// [`Tensor::scatter_`] through a possibly shared `t`.
///
/// # Safety
/// `t`'s memory must be writable, and no other thread may read or write the elements the
/// scatter reaches during the call.
pub unsafe fn scatter_shared(t: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<()> {
    // SAFETY: forwarded from the caller.
    unsafe { scatter_as("scatter", ScatterMode::Write, t, dim, index, src, false) }
}

/// [`Tensor::scatter_add_`] through a possibly shared `t`.
///
/// # Safety
/// As for [`scatter_shared`].
pub unsafe fn scatter_add_shared(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
) -> Result<()> {
    // SAFETY: forwarded from the caller.
    unsafe { scatter_as("scatter_add", ScatterMode::Add, t, dim, index, src, false) }
}

/// A scatter of `mode` through a possibly shared `t`; `fresh` when `t` is a private copy
/// the caller drops on error (so it may be left half-written).
///
/// # Safety
/// As for [`scatter_shared`].
unsafe fn scatter_as(
    op: &'static str,
    mode: ScatterMode,
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    fresh: bool,
) -> Result<()> {
    t.ensure_writable()?;
    let plan = AlongPlan {
        fresh,
        ..along(op, t, dim, index)?
    };
    let mut value = scatter_values(op, t, index, src)?;
    if plan.index.numel() == 0 {
        return Ok(());
    }
    if t.ndim() == 0 {
        value = value.unsqueeze(0)?;
    }
    // SAFETY: forwarded from the caller; `value` has the index's shape and `t`'s dtype, lives
    // on `t`'s device and does not share its memory.
    unsafe { backend(t.device())?.scatter_along(&plan, &value, mode) }
}

/// A copy of `t` with `src`'s elements written where `index` points along `dim` (see
/// [`Tensor::scatter_`]).
pub fn scatter(t: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let out = t.contiguous_copy()?;
    // SAFETY: `out` is a fresh copy nobody else sees, dropped on error.
    unsafe { scatter_as("scatter", ScatterMode::Write, &out, dim, index, src, true)? };
    Ok(out)
}

/// A copy of `t` with `src`'s elements added where `index` points along `dim` (see
/// [`Tensor::scatter_add_`]).
pub fn scatter_add(t: &Tensor, dim: isize, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let out = t.contiguous_copy()?;
    // SAFETY: `out` is a fresh copy nobody else sees, dropped on error.
    unsafe { scatter_as("scatter_add", ScatterMode::Add, &out, dim, index, src, true)? };
    Ok(out)
}

/// `t` with `alpha · source` added along `dim` at `index` (PyTorch's `index_add`; numpy's
/// `np.add.at(t, (…, index), source)`): a new contiguous tensor; see [`Tensor::index_add_`].
pub fn index_add(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    source: &Tensor,
    alpha: Scalar,
) -> Result<Tensor> {
    let out = t.contiguous_copy()?;
    // SAFETY: `out` is a fresh copy nobody else sees, dropped on error.
    unsafe { index_add_as(&out, dim, index, source, alpha, true)? };
    Ok(out)
}

/// [`Tensor::index_add_`] through a possibly shared `t`.
///
/// # Safety
/// As for [`scatter_shared`].
pub unsafe fn index_add_shared(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    source: &Tensor,
    alpha: Scalar,
) -> Result<()> {
    // SAFETY: forwarded from the caller.
    unsafe { index_add_as(t, dim, index, source, alpha, false) }
}

/// An index add as the scatter add it is: the 1-D `index` laid along `dim` and broadcast (by
/// stride 0) to `source`'s shape, so every element of `source`'s slice `i` along `dim` goes to
/// slice `index[i]` of `t`.
///
/// # Safety
/// As for [`scatter_as`].
unsafe fn index_add_as(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    source: &Tensor,
    alpha: Scalar,
    fresh: bool,
) -> Result<()> {
    const OP: &str = "index_add";
    t.ensure_writable()?;
    // An empty index of any dtype is no index (numpy's `[]`, which is float for us).
    if (!index.dtype().is_integer() && index.numel() > 0) || index.ndim() > 1 {
        return Err(Error::InvalidArgument {
            what: format!(
                "{OP}: the index must be a 1-D integer tensor, got {} dims of {}; flatten it \
                 and convert it with .to(int64)",
                index.ndim(),
                index.dtype()
            ),
        });
    }
    if !super::can_cast_in_place(source.dtype(), t.dtype()) {
        return Err(Error::DTypeRule {
            what: format!(
                "{OP}: a {} source cannot be added into this {} tensor without losing values \
                 (PyTorch refuses too); convert the source or the tensor first with .to(...)",
                source.dtype(),
                t.dtype()
            ),
        });
    }
    if matches!(alpha, Scalar::Float(_)) && !t.dtype().is_float() {
        return Err(Error::DTypeRule {
            what: format!(
                "{OP}: alpha {} is a float but the tensor is {}; pass an integer alpha, or \
                 convert the tensor to a float dtype first",
                alpha.to_f64(),
                t.dtype()
            ),
        });
    }
    let nd = t.ndim();
    let d = normalize_dim(dim, nd.max(1))?;
    let n = index.numel();
    // The source's expected shape: `t`'s, with `index`'s length along `dim`.
    let mut expected: DimVec<usize> = t.shape().iter().copied().collect();
    if nd > 0 {
        expected[d] = n;
    }
    if source.shape() != expected.as_slice() || (nd == 0 && n != 1) {
        return Err(Error::ShapeMismatch {
            op: "index_add (the source is the tensor's shape with the index's length along dim)",
            expected: dims_i64(&expected),
            got: dims_i64(source.shape()),
        });
    }
    // `index[i]` at every position of source slice `i`.
    let mut lined: DimVec<isize> = std::iter::repeat_n(1, nd).collect();
    let sizes: DimVec<isize> = expected.iter().map(|&e| e as isize).collect();
    if nd > 0 {
        lined[d] = n as isize;
    }
    let index = if index.dtype().is_integer() {
        index.clone()
    } else {
        index.to_dtype(DType::Int64)?
    };
    let spread = index.reshape(&lined)?.expand(&sizes)?;
    let unit = matches!(alpha, Scalar::Bool(true) | Scalar::Int(1) | Scalar::UInt(1))
        || alpha == Scalar::Float(1.0);
    let values = if unit {
        source.clone()
    } else {
        source
            .to_dtype(t.dtype())?
            .binary_scalar(BinaryOp::Mul, alpha)?
            .to_dtype(t.dtype())?
    };
    // SAFETY: forwarded from the caller.
    unsafe { scatter_as(OP, ScatterMode::Add, t, dim, &spread, &values, fresh) }
}

/// [`Tensor::scatter_reduce_`] into a copy of `t` (PyTorch's `scatter_reduce`).
pub fn scatter_reduce(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    reduce: ScatterReduce,
    include_self: bool,
) -> Result<Tensor> {
    let out = t.contiguous_copy()?;
    // SAFETY: `out` is a fresh copy nobody else sees, dropped on error.
    unsafe { reduce_into(&out, dim, index, src, reduce, include_self, true) }
}

/// [`Tensor::scatter_reduce_`] through a possibly shared `t`.
///
/// # Safety
/// As for [`scatter_shared`].
pub unsafe fn scatter_reduce_shared(
    t: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    reduce: ScatterReduce,
    include_self: bool,
) -> Result<()> {
    t.ensure_writable()?;
    if include_self && reduce != ScatterReduce::Mean {
        // One scatter, which writes nothing unless every index value is in range.
        // SAFETY: forwarded from the caller.
        return unsafe { scatter_as("scatter_reduce", reduce.mode(), t, dim, index, src, false) };
    }
    // Several steps: on a copy, which replaces `t` only when all succeeded.
    let r = scatter_reduce(t, dim, index, src, reduce, include_self)?;
    // SAFETY: forwarded from the caller; `r` is fresh, so it does not overlap `t`.
    unsafe { t.copy_shared(&r) }
}

/// The steps of a reduction into `out`, a fresh contiguous copy when `fresh`; the result
/// (`out`, or a new tensor for a mean).
///
/// # Safety
/// As for [`scatter_shared`].
unsafe fn reduce_into(
    out: &Tensor,
    dim: isize,
    index: &Tensor,
    src: &Tensor,
    reduce: ScatterReduce,
    include_self: bool,
    fresh: bool,
) -> Result<Tensor> {
    const OP: &str = "scatter_reduce";
    if reduce == ScatterReduce::Mean && out.dtype() == DType::Bool {
        return Err(Error::InvalidArgument {
            what: "scatter_reduce: the mean of booleans is not a boolean; convert the \
                   tensor to a float dtype first (.to(float32))"
                .to_string(),
        });
    }
    if !include_self {
        // The targets the index reaches start from the identity, so only the values count.
        let identity = reduce.identity(out.dtype()).to_tensor(out.dtype())?;
        // SAFETY: forwarded from the caller.
        unsafe { scatter_as(OP, ScatterMode::Write, out, dim, index, &identity, fresh)? };
    }
    // SAFETY: forwarded from the caller.
    unsafe { scatter_as(OP, reduce.mode(), out, dim, index, src, fresh)? };
    if reduce != ScatterReduce::Mean {
        return Ok(out.clone());
    }
    // How many values each target averages: the ones that reached it, and itself when it
    // takes part; at least 1, so a target nothing reached keeps its value (PyTorch's rule).
    let start = f64::from(u8::from(include_self));
    let count = Tensor::full(out.shape(), start, out.dtype())?.to(out.device())?;
    let ones = Tensor::full(&[], 1.0, out.dtype())?;
    // SAFETY: `count` is fresh; the index was checked by the scatter above.
    unsafe { scatter_as(OP, ScatterMode::Add, &count, dim, index, &ones, true)? };
    let count = count.binary(BinaryOp::Maximum, &ones.to(out.device())?)?;
    let op = if out.dtype().is_float() {
        BinaryOp::Div
    } else {
        BinaryOp::FloorDivide
    };
    out.binary(op, &count)
}

impl Tensor {
    /// See [`gather`].
    pub fn gather(&self, dim: isize, index: &Tensor) -> Result<Tensor> {
        gather(self, dim, index)
    }

    /// `self[p with p[dim] = index[p]] = src[p]` for every position `p` of `index` (PyTorch's
    /// `scatter_`, numpy's `put_along_axis`). `src` is a tensor at least as large as `index`
    /// in every dim (its leading part is used) or a 0-d value, converted to this dtype.
    /// Where `index` repeats a target, the last write in row-major order wins.
    pub fn scatter_(&mut self, dim: isize, index: &Tensor, src: &Tensor) -> Result<()> {
        self.ensure_exclusive("scatter_")?;
        // SAFETY: exclusive (checked).
        unsafe { scatter_shared(self, dim, index, src) }
    }

    /// `self[p with p[dim] = index[p]] += src[p]` for every position `p` of `index`, repeated
    /// targets accumulating in row-major order (PyTorch's `scatter_add_`, numpy's
    /// `np.add.at`). Integers wrap; a Bool target is or-ed. A sum of at least 131,072
    /// positions along the index's only dim longer than 1 into a target under a quarter of
    /// its size (a histogram) runs in parallel as up to 16 fixed blocks of positions, each
    /// summed from zero and added to the target in order: float results are the same on any
    /// thread count and may differ from one pass in the last bits (as PyTorch's).
    pub fn scatter_add_(&mut self, dim: isize, index: &Tensor, src: &Tensor) -> Result<()> {
        self.ensure_exclusive("scatter_add_")?;
        // SAFETY: exclusive (checked).
        unsafe { scatter_add_shared(self, dim, index, src) }
    }

    /// `self[…, index[i], …] += alpha · source[…, i, …]` for every `i` of the 1-D `index`,
    /// along `dim` (PyTorch's `index_add_`; numpy's `np.add.at`). `source` has this tensor's
    /// shape but for `dim`, where it has `index`'s length; a repeated index accumulates, in
    /// order (into a 1-D tensor from a long index, in fixed blocks added in order, as
    /// [`scatter_add_`](Tensor::scatter_add_) describes). Negative indices count from the end. A float source is refused for an integer
    /// or bool tensor, and so is a float `alpha`; integers wrap and a Bool tensor is or-ed.
    /// On any error, nothing is written.
    pub fn index_add_(
        &mut self,
        dim: isize,
        index: &Tensor,
        source: &Tensor,
        alpha: impl Into<Scalar>,
    ) -> Result<()> {
        self.ensure_exclusive("index_add_")?;
        // SAFETY: exclusive (checked).
        unsafe { index_add_shared(self, dim, index, source, alpha.into()) }
    }

    /// See [`index_add`].
    pub fn index_add(
        &self,
        dim: isize,
        index: &Tensor,
        source: &Tensor,
        alpha: impl Into<Scalar>,
    ) -> Result<Tensor> {
        index_add(self, dim, index, source, alpha.into())
    }

    /// `self[p with p[dim] = index[p]]` combined with `src[p]` by `reduce` for every position
    /// `p` of `index` (PyTorch's `scatter_reduce_`). With `include_self`, each target's own
    /// value takes part; without, a target the index reaches ends as the reduction of the
    /// values that reach it alone. Targets the index does not reach keep their value.
    /// Values combine in row-major order of `index` on any thread count; `src` is as for
    /// [`scatter_`](Tensor::scatter_). On any error, nothing is written.
    pub fn scatter_reduce_(
        &mut self,
        dim: isize,
        index: &Tensor,
        src: &Tensor,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<()> {
        self.ensure_exclusive("scatter_reduce_")?;
        // SAFETY: exclusive (checked).
        unsafe { scatter_reduce_shared(self, dim, index, src, reduce, include_self) }
    }
}
