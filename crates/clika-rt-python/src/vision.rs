//! The vision and inference functions (`crt.conv2d`, `crt.max_pool2d`, `crt.linear`,
//! `crt.pad`, …), with `torch.nn.functional`'s names, argument names and defaults, and the
//! image entry point `crt.normalize_image`.

use clika_rt::ops::{
    self, ColorConversion, ConvOptions, ConvTransposeOptions, InterpolateMode, InterpolateOptions,
    PadMode, Padding, PoolOptions, YuvMatrix, YuvRange,
};
use clika_rt::Tensor;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::ops::{run, tensor_arg};
use crate::tensor::PyTensor;

/// An int or a sequence of ints (PyTorch's `_size_any_t`), each non-negative.
fn sizes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<usize>> {
    let list: Vec<i64> = match obj.extract::<i64>() {
        Ok(v) => vec![v],
        Err(_) => obj.extract::<Vec<i64>>().map_err(|_| {
            PyTypeError::new_err(format!("{what} must be an int or a tuple of ints"))
        })?,
    };
    list.iter()
        .map(|&v| {
            usize::try_from(v)
                .map_err(|_| PyValueError::new_err(format!("{what} must be non-negative, got {v}")))
        })
        .collect()
}

/// [`sizes`] of an optional argument; `default` when absent or `None`.
fn sizes_or(
    obj: Option<&Bound<'_, PyAny>>,
    default: Vec<usize>,
    what: &str,
) -> PyResult<Vec<usize>> {
    match obj.filter(|o| !o.is_none()) {
        Some(o) => sizes(o, what),
        None => Ok(default),
    }
}

pub(crate) fn opt_tensor(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Tensor>> {
    obj.filter(|o| !o.is_none()).map(tensor_arg).transpose()
}

fn conv_options(
    stride: &Bound<'_, PyAny>,
    padding: &Bound<'_, PyAny>,
    dilation: &Bound<'_, PyAny>,
    groups: i64,
) -> PyResult<ConvOptions> {
    let padding = match padding.extract::<String>() {
        Ok(s) if s == "same" => Padding::Same,
        Ok(s) if s == "valid" => Padding::Valid,
        Ok(s) => {
            return Err(PyValueError::new_err(format!(
                "padding must be 'same', 'valid', an int or a tuple of ints, got '{s}'"
            )))
        }
        Err(_) => Padding::Explicit(sizes(padding, "padding")?),
    };
    Ok(ConvOptions {
        stride: sizes(stride, "stride")?,
        padding,
        dilation: sizes(dilation, "dilation")?,
        groups: usize::try_from(groups)
            .map_err(|_| PyValueError::new_err(format!("groups must be positive, got {groups}")))?,
    })
}

type ConvFn = fn(&Tensor, &Tensor, Option<&Tensor>, &ConvOptions) -> clika_rt::Result<Tensor>;

#[allow(clippy::too_many_arguments)]
fn conv(
    py: Python<'_>,
    f: ConvFn,
    input: &Bound<'_, PyAny>,
    weight: &Bound<'_, PyAny>,
    bias: Option<&Bound<'_, PyAny>>,
    stride: &Bound<'_, PyAny>,
    padding: &Bound<'_, PyAny>,
    dilation: &Bound<'_, PyAny>,
    groups: i64,
) -> PyResult<PyTensor> {
    let opts = conv_options(stride, padding, dilation, groups)?;
    with_weights(py, input, weight, bias, |x, w, b| f(x, w, b, &opts))
}

/// Runs `f(input, weight, bias)` with the arguments as tensors, off the GIL for big work.
fn with_weights(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weight: &Bound<'_, PyAny>,
    bias: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&Tensor, &Tensor, Option<&Tensor>) -> clika_rt::Result<Tensor> + Send,
) -> PyResult<PyTensor> {
    let (x, w, b) = (tensor_arg(input)?, tensor_arg(weight)?, opt_tensor(bias)?);
    let work = x
        .numel()
        .saturating_mul(w.numel() / w.shape().first().copied().unwrap_or(1).max(1));
    let inner = run(py, work, || f(&x, &w, b.as_ref()))?;
    Ok(PyTensor { inner })
}

macro_rules! conv_fn {
    ($name:ident, $core:path, $doc:expr) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(
            signature = (input, weight, bias=None, stride=None, padding=None, dilation=None, groups=1),
            text_signature = "(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)"
        )]
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            py: Python<'_>,
            input: &Bound<'_, PyAny>,
            weight: &Bound<'_, PyAny>,
            bias: Option<&Bound<'_, PyAny>>,
            stride: Option<&Bound<'_, PyAny>>,
            padding: Option<&Bound<'_, PyAny>>,
            dilation: Option<&Bound<'_, PyAny>>,
            groups: i64,
        ) -> PyResult<PyTensor> {
            let args = (input, weight, bias, stride, padding, dilation);
            conv_defaults(py, $core, args, groups)
        }
    };
}

conv_fn!(conv2d, ops::conv2d, include_str!("../pydoc/conv2d.md"));
conv_fn!(conv1d, ops::conv1d, include_str!("../pydoc/conv1d.md"));

/// The optional arguments of a convolution: input, weight, bias, stride, padding, dilation.
type ConvArgs<'a, 'py> = (
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    Option<&'a Bound<'py, PyAny>>,
    Option<&'a Bound<'py, PyAny>>,
    Option<&'a Bound<'py, PyAny>>,
    Option<&'a Bound<'py, PyAny>>,
);

fn conv_defaults(
    py: Python<'_>,
    f: ConvFn,
    (input, weight, bias, stride, padding, dilation): ConvArgs<'_, '_>,
    groups: i64,
) -> PyResult<PyTensor> {
    let one = 1i64.into_pyobject(py)?.into_any();
    let zero = 0i64.into_pyobject(py)?.into_any();
    conv(
        py,
        f,
        input,
        weight,
        bias,
        stride.unwrap_or(&one),
        padding.unwrap_or(&zero),
        dilation.unwrap_or(&one),
        groups,
    )
}

type ConvTransposeFn =
    fn(&Tensor, &Tensor, Option<&Tensor>, &ConvTransposeOptions) -> clika_rt::Result<Tensor>;

macro_rules! conv_transpose_fn {
    ($name:ident, $core:path, $doc:expr) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(
            signature = (input, weight, bias=None, stride=None, padding=None, output_padding=None, groups=1, dilation=None),
            text_signature = "(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)"
        )]
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            py: Python<'_>,
            input: &Bound<'_, PyAny>,
            weight: &Bound<'_, PyAny>,
            bias: Option<&Bound<'_, PyAny>>,
            stride: Option<&Bound<'_, PyAny>>,
            padding: Option<&Bound<'_, PyAny>>,
            output_padding: Option<&Bound<'_, PyAny>>,
            groups: i64,
            dilation: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyTensor> {
            let opts = ConvTransposeOptions {
                stride: sizes_or(stride, vec![1], "stride")?,
                padding: sizes_or(padding, vec![0], "padding")?,
                output_padding: sizes_or(output_padding, vec![0], "output_padding")?,
                dilation: sizes_or(dilation, vec![1], "dilation")?,
                groups: usize::try_from(groups).map_err(|_| {
                    PyValueError::new_err(format!("groups must be positive, got {groups}"))
                })?,
            };
            let f: ConvTransposeFn = $core;
            with_weights(py, input, weight, bias, |x, w, b| f(x, w, b, &opts))
        }
    };
}

conv_transpose_fn!(
    conv_transpose2d,
    ops::conv_transpose2d,
    include_str!("../pydoc/conv_transpose2d.md")
);
conv_transpose_fn!(
    conv_transpose1d,
    ops::conv_transpose1d,
    include_str!("../pydoc/conv_transpose1d.md")
);

#[doc = include_str!("../pydoc/max_pool2d.md")]
#[pyfunction]
#[pyo3(
    signature = (input, kernel_size, stride=None, padding=None, dilation=None, ceil_mode=false),
    text_signature = "(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)"
)]
pub fn max_pool2d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    kernel_size: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
    padding: Option<&Bound<'_, PyAny>>,
    dilation: Option<&Bound<'_, PyAny>>,
    ceil_mode: bool,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let opts = PoolOptions {
        kernel: sizes(kernel_size, "kernel_size")?,
        stride: sizes_or(stride, Vec::new(), "stride")?,
        padding: sizes_or(padding, vec![0], "padding")?,
        dilation: sizes_or(dilation, vec![1], "dilation")?,
        ceil_mode,
        count_include_pad: true,
    };
    let inner = run(py, x.numel(), || ops::max_pool2d(&x, &opts))?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/avg_pool2d.md")]
#[pyfunction]
#[pyo3(
    signature = (input, kernel_size, stride=None, padding=None, ceil_mode=false, count_include_pad=true),
    text_signature = "(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)"
)]
pub fn avg_pool2d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    kernel_size: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
    padding: Option<&Bound<'_, PyAny>>,
    ceil_mode: bool,
    count_include_pad: bool,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let opts = PoolOptions {
        kernel: sizes(kernel_size, "kernel_size")?,
        stride: sizes_or(stride, Vec::new(), "stride")?,
        padding: sizes_or(padding, vec![0], "padding")?,
        dilation: vec![1],
        ceil_mode,
        count_include_pad,
    };
    let inner = run(py, x.numel(), || ops::avg_pool2d(&x, &opts))?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/adaptive_avg_pool2d.md")]
#[pyfunction]
pub fn adaptive_avg_pool2d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    output_size: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let size = sizes(output_size, "output_size")?;
    let inner = run(py, x.numel(), || ops::adaptive_avg_pool2d(&x, &size))?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/linear.md")]
#[pyfunction]
#[pyo3(signature = (input, weight, bias=None))]
pub fn linear(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weight: &Bound<'_, PyAny>,
    bias: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let (x, w, b) = (tensor_arg(input)?, tensor_arg(weight)?, opt_tensor(bias)?);
    let inner = run(py, x.numel().max(w.numel()), || {
        ops::linear(&x, &w, b.as_ref())
    })?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/pad.md")]
#[pyfunction]
#[pyo3(signature = (input, pad, mode="constant", value=None))]
pub fn pad(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    pad: Vec<isize>,
    mode: &str,
    value: Option<f64>,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let m = match mode {
        "constant" => PadMode::Constant,
        "reflect" => PadMode::Reflect,
        "replicate" => PadMode::Replicate,
        "circular" => PadMode::Circular,
        _ => {
            return Err(PyValueError::new_err(format!(
                "mode must be 'constant', 'reflect', 'replicate' or 'circular', got '{mode}'"
            )))
        }
    };
    let inner = run(py, x.numel(), || {
        ops::pad(&x, &pad, m, value.unwrap_or(0.0))
    })?;
    Ok(PyTensor { inner })
}

#[doc = include_str!("../pydoc/interpolate.md")]
#[pyfunction]
#[pyo3(signature = (input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                    recompute_scale_factor=None, antialias=false))]
#[expect(
    clippy::too_many_arguments,
    reason = "torch.nn.functional.interpolate's signature"
)]
pub fn interpolate(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    scale_factor: Option<&Bound<'_, PyAny>>,
    mode: &str,
    align_corners: Option<bool>,
    recompute_scale_factor: Option<bool>,
    antialias: bool,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let mode = InterpolateMode::for_input(mode, x.ndim()).map_err(crate::error::to_py)?;
    let interpolating = matches!(mode, InterpolateMode::Linear | InterpolateMode::Bicubic);
    if align_corners.is_some() && !interpolating {
        // PyTorch's rule: the option is refused, even as False, for the other modes.
        return Err(PyValueError::new_err(
            "align_corners can only be set with the interpolating modes: linear, bilinear, \
             bicubic, trilinear; leave it None",
        ));
    }
    let opts = InterpolateOptions {
        size: sizes_or(size, Vec::new(), "size")?,
        scale_factor: match scale_factor.filter(|o| !o.is_none()) {
            Some(o) => match o.extract::<f64>() {
                Ok(v) => vec![v],
                Err(_) => o.extract::<Vec<f64>>().map_err(|_| {
                    PyTypeError::new_err("scale_factor must be a float or a sequence of floats")
                })?,
            },
            None => Vec::new(),
        },
        mode,
        align_corners: align_corners.unwrap_or(false),
        antialias,
        recompute_scale_factor: recompute_scale_factor.unwrap_or(false),
    };
    let inner = run(py, x.numel(), || ops::interpolate(&x, &opts))?;
    Ok(PyTensor { inner })
}

/// A float or a sequence of floats.
fn floats(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<f32>> {
    match obj.extract::<f32>() {
        Ok(v) => Ok(vec![v]),
        Err(_) => obj.extract::<Vec<f32>>().map_err(|_| {
            PyTypeError::new_err(format!("{what} must be a float or a sequence of floats"))
        }),
    }
}

/// Fused image normalization: a uint8 image to a normalized float32 CHW tensor.
///
/// Computes ``(x / 255 - mean[c]) / std[c]`` for a frame as cameras and decoders give it
/// (uint8, channels last) in one pass, reading the frame in place: a strided view (a
/// pitched frame whose rows are padded, a crop, a channel flip) is not copied first. Each
/// value is the float32 result of the expression as written (bit-identical to numpy's
/// ``(x.astype(np.float32) / 255 - mean) / std`` in float32). Not torchvision's
/// ``normalize``, which takes an already-float CHW tensor.
///
/// Parameters
/// ----------
/// input : Tensor or numpy.ndarray
///     A uint8 image ``(H, W, C)`` or batch ``(N, H, W, C)``, any strides.
/// mean : float or sequence of float
///     One value per channel (``C`` values), or one for every channel.
/// std : float or sequence of float
///     As ``mean``; every value finite and non-zero.
///
/// Returns
/// -------
/// Tensor
///     A new contiguous float32 tensor ``(C, H, W)``, or ``(N, C, H, W)`` for a batch.
///
/// Raises
/// ------
/// InvalidArgumentError
///     The input is not uint8, not 3-D/4-D, ``mean``/``std`` do not match the channel
///     count, or a ``std`` is zero or not finite.
/// DeviceError
///     The input is on a GPU (move it with ``.to("cpu")``).
///
/// Examples
/// --------
/// >>> import numpy as np, clika_runtime as crt
/// >>> frame = np.zeros((480, 640, 3), np.uint8)
/// >>> x = crt.normalize_image(frame, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
/// >>> x.shape
/// (3, 480, 640)
#[pyfunction]
#[pyo3(signature = (input, mean, std))]
pub fn normalize_image(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    mean: &Bound<'_, PyAny>,
    std: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let x = tensor_arg(input)?;
    let (mean, std) = (floats(mean, "mean")?, floats(std, "std")?);
    let inner = run(py, x.numel(), || ops::normalize_image(&x, &mean, &std))?;
    Ok(PyTensor { inner })
}

/// Colour conversion of a uint8 frame, like OpenCV's ``cv2.cvtColor``.
///
/// Results are rounded to nearest and saturated (within 1 of OpenCV's; BT.601 limited range
/// uses OpenCV's own constants). The frame may be a strided view (a pitched frame is read in
/// place); the result is a new contiguous uint8 tensor.
///
/// Parameters
/// ----------
/// input : Tensor or numpy.ndarray
///     uint8: ``(H, W, 3)`` for ``"RGB2BGR"``/``"BGR2RGB"``/``"RGB2GRAY"``/``"BGR2GRAY"``;
///     one ``(H * 3 / 2, W)`` plane for ``"YUV2RGB_NV12"``, ``"YUV2BGR_NV12"``,
///     ``"YUV2RGB_I420"``, ``"YUV2BGR_I420"`` (H, W even); ``(H, W, 2)`` for
///     ``"YUV2RGB_YUYV"``/``"YUV2BGR_YUYV"`` (W even).
/// code : str
///     The conversion, named as OpenCV's ``COLOR_*`` constant without the prefix.
/// matrix : str
///     ``"bt601"`` (default; OpenCV's) or ``"bt709"``; YUV conversions only.
/// full_range : bool
///     YUV in 0..255 (JPEG/"PC") instead of the limited 16..235 (default; OpenCV's).
///
/// Returns
/// -------
/// Tensor
///     uint8 ``(H, W, 3)``, or ``(H, W)`` for the gray conversions.
///
/// Raises
/// ------
/// InvalidArgumentError
///     Not uint8, a shape the conversion does not take, odd sizes for chroma subsampling.
/// ValueError
///     An unknown ``code`` or ``matrix``.
///
/// Examples
/// --------
/// >>> import numpy as np, clika_runtime as crt
/// >>> nv12 = np.full((6, 4), 128, np.uint8)  # a 4x4 frame
/// >>> crt.cvt_color(nv12, "YUV2RGB_NV12").shape
/// (4, 4, 3)
#[pyfunction]
#[pyo3(signature = (input, code, matrix="bt601", full_range=false))]
pub fn cvt_color(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    code: &str,
    matrix: &str,
    full_range: bool,
) -> PyResult<PyTensor> {
    use ColorConversion as C;
    let x = tensor_arg(input)?;
    let conv = match code.to_ascii_uppercase().as_str() {
        "RGB2BGR" | "BGR2RGB" => C::RgbToBgr,
        "RGB2GRAY" => C::RgbToGray,
        "BGR2GRAY" => C::BgrToGray,
        "YUV2RGB_NV12" => C::Nv12ToRgb,
        "YUV2BGR_NV12" => C::Nv12ToBgr,
        "YUV2RGB_I420" | "YUV2RGB_IYUV" => C::I420ToRgb,
        "YUV2BGR_I420" | "YUV2BGR_IYUV" => C::I420ToBgr,
        "YUV2RGB_YUYV" | "YUV2RGB_YUY2" => C::YuyvToRgb,
        "YUV2BGR_YUYV" | "YUV2BGR_YUY2" => C::YuyvToBgr,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown code '{code}'; use RGB2BGR, BGR2RGB, RGB2GRAY, BGR2GRAY or \
                 YUV2RGB/YUV2BGR with _NV12, _I420 or _YUYV"
            )))
        }
    };
    let m = match matrix.to_ascii_lowercase().as_str() {
        "bt601" => YuvMatrix::Bt601,
        "bt709" => YuvMatrix::Bt709,
        _ => {
            return Err(PyValueError::new_err(format!(
                "matrix must be 'bt601' or 'bt709', got '{matrix}'"
            )))
        }
    };
    let r = if full_range {
        YuvRange::Full
    } else {
        YuvRange::Limited
    };
    let inner = run(py, x.numel(), || ops::cvt_color(&x, conv, m, r))?;
    Ok(PyTensor { inner })
}

/// Adds every function above to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(
        conv1d,
        conv2d,
        conv_transpose1d,
        conv_transpose2d,
        max_pool2d,
        avg_pool2d,
        adaptive_avg_pool2d,
        linear,
        pad,
        interpolate,
        normalize_image,
        cvt_color
    );
    Ok(())
}
