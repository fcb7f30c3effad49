//! Random tensors: `crt.manual_seed`, `crt.Generator`, `rand`, `randn`, `randint`, `normal`,
//! `uniform`, `bernoulli` over the core's counter-based generator.

use std::sync::Arc;

use clika_rt::tensor::random::default_generator;
use clika_rt::{DType, Device, Generator, Tensor};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::args;
use crate::dtype as dt;
use crate::error::IntoPyResult;
use crate::ops::{run, tensor_arg};
use crate::tensor::PyTensor;

#[doc = include_str!("../pydoc/Generator.md")]
#[pyclass(name = "Generator", module = "clika_runtime", frozen)]
pub struct PyGenerator {
    /// `None`: the process-wide default generator.
    inner: Option<Arc<Generator>>,
}

impl PyGenerator {
    fn core(&self) -> &Generator {
        self.inner.as_deref().unwrap_or_else(|| default_generator())
    }
}

#[pymethods]
impl PyGenerator {
    /// A new generator with PyTorch's default seed (`device` is accepted for PyTorch's
    /// signature: values are generated on the host and moved).
    #[new]
    #[pyo3(signature = (device=None))]
    fn new(device: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        if let Some(d) = device.filter(|d| !d.is_none()) {
            crate::device::resolve(d)?;
        }
        Ok(PyGenerator {
            inner: Some(Arc::new(Generator::default())),
        })
    }

    #[doc = include_str!("../pydoc/Generator.manual_seed.md")]
    fn manual_seed(slf: Bound<'_, Self>, seed: u64) -> Bound<'_, Self> {
        slf.get().core().manual_seed(seed);
        slf
    }

    #[doc = include_str!("../pydoc/Generator.initial_seed.md")]
    fn initial_seed(&self) -> u64 {
        self.core().initial_seed()
    }

    /// Calls made since seeding (each random call advances it by one).
    #[getter]
    fn offset(&self) -> u64 {
        self.core().offset()
    }
}

#[doc = include_str!("../pydoc/manual_seed.md")]
#[pyfunction]
pub fn manual_seed(seed: u64) -> PyGenerator {
    default_generator().manual_seed(seed);
    PyGenerator { inner: None }
}

/// The shape from `rand(2, 3)`, `rand((2, 3))` or `size=(2, 3)`.
fn size_of(shape: &Bound<'_, PyTuple>, size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
    match size.filter(|s| !s.is_none()) {
        Some(s) if shape.is_empty() => args::shape_of(s),
        Some(_) => Err(PyTypeError::new_err(
            "pass the shape either positionally or as size=, not both",
        )),
        None => args::shape(shape),
    }
}

fn device_of(device: Option<&Bound<'_, PyAny>>) -> PyResult<Device> {
    let d = crate::device::resolve_opt(device)?;
    d.ensure_available().py()?;
    Ok(d)
}

fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

macro_rules! shaped_fns {
    ($($name:ident => $method:ident, $doc:expr;)*) => {$(
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (*shape, size=None, generator=None, dtype=None, device=None))]
        pub fn $name(
            py: Python<'_>,
            shape: &Bound<'_, PyTuple>,
            size: Option<&Bound<'_, PyAny>>,
            generator: Option<Bound<'_, PyGenerator>>,
            dtype: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyTensor> {
            let shape = size_of(shape, size)?;
            let dtype = dt::resolve_or(dtype, DType::Float32)?;
            let device = device_of(device)?;
            let g = generator_ref(&generator);
            let inner = run(py, numel(&shape), || g.$method(&shape, dtype, device))?;
            Ok(PyTensor { inner })
        }
    )*};
}

/// The generator as a `Send` handle for the call without the GIL.
fn generator_ref(g: &Option<Bound<'_, PyGenerator>>) -> GenRef {
    match g {
        Some(g) => match &g.get().inner {
            Some(arc) => GenRef(Some(arc.clone())),
            None => GenRef(None),
        },
        None => GenRef(None),
    }
}

struct GenRef(Option<Arc<Generator>>);

impl std::ops::Deref for GenRef {
    type Target = Generator;
    fn deref(&self) -> &Generator {
        self.0.as_deref().unwrap_or_else(|| default_generator())
    }
}

shaped_fns! {
    rand => rand, include_str!("../pydoc/rand.md");
    randn => randn, include_str!("../pydoc/randn.md");
}

#[doc = include_str!("../pydoc/randint.md")]
#[pyfunction]
#[pyo3(signature = (*args, size=None, generator=None, dtype=None, device=None))]
pub fn randint(
    py: Python<'_>,
    args: &Bound<'_, PyTuple>,
    size: Option<&Bound<'_, PyAny>>,
    generator: Option<Bound<'_, PyGenerator>>,
    dtype: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let usage =
        || PyTypeError::new_err("randint(high, size) or randint(low, high, size): size is a tuple");
    let given: Vec<Bound<'_, PyAny>> = args.iter().collect();
    let size_arg = size.filter(|s| !s.is_none()).cloned();
    let (low, high, shape) = match (given.as_slice(), size_arg) {
        ([h], Some(s)) => (0, h.extract::<i64>()?, s),
        ([l, h], Some(s)) => (l.extract::<i64>()?, h.extract::<i64>()?, s),
        ([h, s], None) => (0, h.extract::<i64>()?, s.clone()),
        ([l, h, s], None) => (l.extract::<i64>()?, h.extract::<i64>()?, s.clone()),
        _ => return Err(usage()),
    };
    let shape = args::shape_of(&shape)?;
    let dtype = dt::resolve_or(dtype, DType::Int64)?;
    let device = device_of(device)?;
    let g = generator_ref(&generator);
    let inner = run(py, numel(&shape), || {
        g.randint(low, high, &shape, dtype, device)
    })?;
    Ok(PyTensor { inner })
}

macro_rules! two_param_fns {
    ($($name:ident($a:ident = $da:literal, $b:ident = $db:literal), $text:literal, $doc:expr;)*) => {$(
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(
            signature = ($a=$da, $b=$db, size=None, *, generator=None, dtype=None, device=None),
            text_signature = $text
        )]
        #[allow(clippy::too_many_arguments, reason = "numpy's and PyTorch's keywords")]
        pub fn $name(
            py: Python<'_>,
            $a: f64,
            $b: f64,
            size: Option<&Bound<'_, PyAny>>,
            generator: Option<Bound<'_, PyGenerator>>,
            dtype: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyTensor> {
            let shape = match size.filter(|s| !s.is_none()) {
                Some(s) => args::shape_of(s)?,
                None => Vec::new(),
            };
            let dtype = dt::resolve_or(dtype, DType::Float32)?;
            let device = device_of(device)?;
            let g = generator_ref(&generator);
            let inner = run(py, numel(&shape), || g.$name(&shape, $a, $b, dtype, device))?;
            Ok(PyTensor { inner })
        }
    )*};
}

two_param_fns! {
    normal(mean = 0.0, std = 1.0),
        "(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None)",
        include_str!("../pydoc/normal.md");
    uniform(low = 0.0, high = 1.0),
        "(low=0.0, high=1.0, size=None, *, generator=None, dtype=None, device=None)",
        include_str!("../pydoc/uniform.md");
}

#[doc = include_str!("../pydoc/bernoulli.md")]
#[pyfunction]
#[pyo3(signature = (input, p=None, *, generator=None))]
pub fn bernoulli(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    p: Option<f64>,
    generator: Option<Bound<'_, PyGenerator>>,
) -> PyResult<PyTensor> {
    let t: Tensor = tensor_arg(input)?;
    let g = generator_ref(&generator);
    let inner = run(py, t.numel(), || match p {
        Some(p) => g.bernoulli_p(t.shape(), p, t.dtype(), t.device()),
        None => g.bernoulli(&t),
    })?;
    Ok(PyTensor { inner })
}

/// Adds the class and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGenerator>()?;
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(
        manual_seed,
        rand,
        randn,
        randint,
        normal,
        uniform,
        bernoulli
    );
    Ok(())
}
