//! Custom operators: a process-wide registry of named operators that the runtime calls like
//! its own, from Rust ([`call`]), C, C++ and Python.
//!
//! An operator is two functions:
//! - a **rule** computes the output's [`TensorSpec`] (shape and dtype) from the inputs' specs;
//!   its error is the call's error;
//! - a **kernel** computes the output. It receives the inputs as **read-only** tensors (views
//!   of the caller's memory that the runtime marks read-only, so a borrowed input can never be
//!   written through them) and an [`Output`], and produces the output in one of two ways:
//!   - **pooled**: [`Output::pooled`] / [`Output::pooled_slice`] allocate the output from the
//!     runtime's pool (on first use) and the kernel writes into it;
//!   - **adopted**: the kernel allocates its own buffer, wraps it with
//!     [`Tensor::from_blob_adopted`] and a deleter (or any other constructor), and hands it
//!     back with [`Output::set`]; the deleter runs exactly once, when the last tensor over the
//!     buffer drops.
//!
//! [`call`] checks that the output has the shape and dtype the rule promised. Rules and
//! kernels run on the calling thread, outside any runtime lock (a kernel may call [`call`]
//! itself); a panic in either is caught and reported as [`Error::Operator`] with
//! [`ErrorKind::Internal`].

use std::collections::BTreeMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, PoisonError, RwLock, RwLockWriteGuard};

use crate::dtype::Element;
use crate::error::dims_i64;
use crate::storage::{Owner, Storage};
use crate::{DType, Error, ErrorKind, Result, Tensor};

/// The shape and dtype of a tensor: what a rule sees of the inputs and promises of the output.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TensorSpec {
    /// Sizes of each dimension.
    pub shape: Vec<usize>,
    /// Element type.
    pub dtype: DType,
}

impl TensorSpec {
    /// A spec from its parts.
    pub fn new(shape: &[usize], dtype: DType) -> TensorSpec {
        TensorSpec {
            shape: shape.to_vec(),
            dtype,
        }
    }

    /// The spec of `t`.
    pub fn of(t: &Tensor) -> TensorSpec {
        TensorSpec::new(t.shape(), t.dtype())
    }
}

/// Computes the output's spec from the inputs' specs.
pub type Rule = dyn Fn(&[TensorSpec]) -> Result<TensorSpec> + Send + Sync;

/// Computes the output from read-only inputs into an [`Output`]; see [`register`].
pub type Kernel = dyn Fn(&[Tensor], &mut Output) -> Result<()> + Send + Sync;

/// Where a kernel puts its result: a pool allocation it writes, or a tensor it hands over.
pub struct Output {
    spec: TensorSpec,
    tensor: Option<Tensor>,
    /// Whether `tensor` came from [`Output::pooled`].
    pooled: bool,
}

impl Output {
    /// The shape and dtype the rule promised; the result must match it.
    pub fn spec(&self) -> &TensorSpec {
        &self.spec
    }

    /// The output as a tensor from the runtime's pool, of the promised spec: allocated on the
    /// first call (contents unspecified: the kernel writes every element), the same tensor on
    /// later calls (until [`set`](Output::set) replaces it).
    pub fn pooled(&mut self) -> Result<&mut Tensor> {
        let spec = &self.spec;
        let current = self.tensor.take().filter(|_| self.pooled);
        let t = match current {
            Some(t) => t,
            // Zeroed for `Bool`, so a slice of it only ever holds valid `bool`s.
            None if spec.dtype == DType::Bool => Tensor::zeros(&spec.shape, DType::Bool)?,
            None => Tensor::empty(&spec.shape, spec.dtype)?,
        };
        self.pooled = true;
        Ok(self.tensor.insert(t))
    }

    /// The pooled output (see [`pooled`](Output::pooled)) as a mutable slice of `T`, which
    /// must be the promised dtype.
    pub fn pooled_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        let dtype = self.spec.dtype;
        if T::DTYPE != dtype {
            return Err(Error::DTypeMismatch {
                expected: T::DTYPE,
                actual: dtype,
            });
        }
        let t = self.pooled()?;
        if !t.is_exclusive() {
            return Err(Error::SharedWrite {
                op: "Output::pooled_slice",
            });
        }
        let (ptr, len) = (t.data_ptr().cast::<T>(), t.numel());
        if len == 0 {
            return Ok(&mut []);
        }
        // SAFETY: `t` is a contiguous pool allocation of `len` elements of `T` (checked dtype),
        // aligned for `T`, initialised (pool memory always is; zeroed for `bool`, so every
        // byte is a valid `bool`), and referenced only by `self` (checked exclusive), which
        // the returned borrow keeps mutably borrowed.
        Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
    }

    /// Hands the result over: any tensor of the promised spec, typically one wrapping the
    /// kernel's own buffer with [`Tensor::from_blob_adopted`]. Replaces a pooled output.
    pub fn set(&mut self, tensor: Tensor) {
        self.pooled = false;
        self.tensor = Some(tensor);
    }

    fn finish(self, name: &str) -> Result<Tensor> {
        let t = self.tensor.ok_or_else(|| Error::Operator {
            op: name.to_string(),
            kind: ErrorKind::InvalidArgument,
            message: "the kernel returned without producing an output; write into \
                      Output::pooled() or hand one over with Output::set()"
                .into(),
        })?;
        let got = TensorSpec::of(&t);
        if got != self.spec || !t.device().is_cpu() {
            return Err(Error::Operator {
                op: name.to_string(),
                kind: ErrorKind::InvalidShape,
                message: format!(
                    "the kernel produced shape {:?} of {} on {}, but the rule promised shape \
                     {:?} of {} on CPU",
                    dims_i64(&got.shape),
                    got.dtype,
                    t.device(),
                    dims_i64(&self.spec.shape),
                    self.spec.dtype
                ),
            });
        }
        Ok(t)
    }
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Output")
            .field("spec", &self.spec)
            .field("set", &self.tensor.is_some())
            .finish()
    }
}

struct Operator {
    rule: Box<Rule>,
    kernel: Box<Kernel>,
}

static REGISTRY: RwLock<BTreeMap<String, Arc<Operator>>> = RwLock::new(BTreeMap::new());

/// The registry's write lock, held by the forking thread while the process forks (see
/// `crate::fork`), so no other thread holds it in the child.
pub(crate) struct ForkGuard(
    #[allow(dead_code)] RwLockWriteGuard<'static, BTreeMap<String, Arc<Operator>>>,
);

/// Takes the registry's write lock for a `fork`.
pub(crate) fn lock_for_fork() -> ForkGuard {
    ForkGuard(REGISTRY.write().unwrap_or_else(PoisonError::into_inner))
}

/// Registers an operator under `name` for the whole process. A name already registered is
/// an error ([`Error::OperatorExists`]): call [`unregister`] first to replace it.
///
/// The **rule** computes the output's [`TensorSpec`] from the inputs' specs; its error is
/// the call's error. The **kernel** receives the inputs as read-only tensors (views of the
/// caller's memory marked read-only, so a borrowed input is never written) and an
/// [`Output`], and either writes the pool allocation from [`Output::pooled`] /
/// [`Output::pooled_slice`], or hands over its own buffer with [`Output::set`], typically
/// wrapped by [`Tensor::from_blob_adopted`] with a deleter that then runs exactly once.
/// [`call`] checks the output against the rule. Both run on the calling thread outside any
/// runtime lock, possibly concurrently; a panic in either becomes [`Error::Operator`]. The
/// guide is `docs/custom-operators.md`.
pub fn register(
    name: &str,
    rule: impl Fn(&[TensorSpec]) -> Result<TensorSpec> + Send + Sync + 'static,
    kernel: impl Fn(&[Tensor], &mut Output) -> Result<()> + Send + Sync + 'static,
) -> Result<()> {
    if name.is_empty() {
        return Err(Error::OutOfRange {
            what: "operator name",
            value: "\"\" (it must not be empty)".into(),
        });
    }
    crate::fork::register();
    let op = Arc::new(Operator {
        rule: Box::new(rule),
        kernel: Box::new(kernel),
    });
    let mut registry = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    if registry.contains_key(name) {
        return Err(Error::OperatorExists { name: name.into() });
    }
    registry.insert(name.to_string(), op);
    Ok(())
}

/// Removes the operator `name`; returns whether it was registered. Calls already running
/// finish with the removed operator, which is dropped after the last of them.
pub fn unregister(name: &str) -> bool {
    // Drop the operator (its captured state may run foreign code) outside the lock.
    let removed = REGISTRY
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(name);
    removed.is_some()
}

/// The names of the registered operators, sorted.
pub fn registered() -> Vec<String> {
    let registry = REGISTRY.read().unwrap_or_else(PoisonError::into_inner);
    registry.keys().cloned().collect()
}

/// The output spec the operator `name` promises for inputs of `inputs`' specs (runs its
/// rule only). For bridges that must answer a rule question before calling.
pub fn output_spec(name: &str, inputs: &[TensorSpec]) -> Result<TensorSpec> {
    let op = lookup(name)?;
    guarded(name, || (op.rule)(inputs))
}

fn lookup(name: &str) -> Result<Arc<Operator>> {
    let op = {
        let registry = REGISTRY.read().unwrap_or_else(PoisonError::into_inner);
        registry.get(name).cloned()
    };
    op.ok_or_else(|| Error::UnknownOperator {
        name: name.into(),
        registered: registered(),
    })
}

/// Calls the operator `name` on `inputs`: runs its rule, then its kernel on read-only views
/// of the inputs, and checks the output against the rule's spec.
pub fn call(name: &str, inputs: &[&Tensor]) -> Result<Tensor> {
    let op = lookup(name)?;
    let specs: Vec<TensorSpec> = inputs.iter().map(|t| TensorSpec::of(t)).collect();
    let spec = guarded(name, || (op.rule)(&specs))?;
    let views = inputs
        .iter()
        .map(|t| read_only(t))
        .collect::<Result<Vec<_>>>()?;
    let mut output = Output {
        spec,
        tensor: None,
        pooled: false,
    };
    guarded(name, || (op.kernel)(&views, &mut output))?;
    drop(views);
    output.finish(name)
}

/// Runs a rule or kernel, turning a panic into an error.
fn guarded<T>(name: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = match payload.downcast_ref::<&str>() {
            Some(s) => (*s).to_string(),
            None => payload
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "a panic with a non-string payload".into()),
        };
        // A payload whose drop panics is leaked rather than unwound.
        if let Err(inner) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
            std::mem::forget(inner);
        }
        Err(Error::Operator {
            op: name.to_string(),
            kind: ErrorKind::Internal,
            message: format!("panicked: {message}"),
        })
    })
}

/// A read-only alias of `t`: the same bytes and layout, in a storage that keeps `t`'s alive
/// and refuses writes (so a kernel cannot write a borrowed input through safe methods).
fn read_only(t: &Tensor) -> Result<Tensor> {
    let source = t.storage().clone();
    let (ptr, nbytes, device) = (source.as_ptr(), source.nbytes(), source.device());
    let pinned = source.pinned_for();
    // SAFETY: the same range as `source`, which the owner keeps alive (its own guarantees
    // carry over); the alias is read-only, so it only narrows what may be done with it.
    let storage = unsafe {
        Storage::from_raw_parts(ptr, nbytes, device, Owner::keepalive(source), pinned, false)
    };
    Tensor::from_storage(storage, t.layout().clone(), t.dtype())
}
