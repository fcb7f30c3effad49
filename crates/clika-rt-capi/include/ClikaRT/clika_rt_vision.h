// ClikaRT vision and inference operations (C++17), included by clika_rt.h: convolutions,
// pooling, linear, pad, interpolate and the normalization layers with PyTorch's semantics (torch.nn.functional), NCHW inputs, and
// the image entry point normalize_image (uint8 channels-last frames). Each is a thin wrapper over the crt_tensor_* function of the same name.
#ifndef CLIKA_RT_VISION_HPP
#define CLIKA_RT_VISION_HPP

#include <array>
#include <vector>

namespace ClikaRT {
namespace ops {

/// How a convolution pads.
enum class ConvPadding : crt_conv_padding {
    Explicit = CRT_CONV_PADDING_EXPLICIT,  ///< the `padding` values, zeros on both sides
    Valid = CRT_CONV_PADDING_VALID,        ///< no padding
    Same = CRT_CONV_PADDING_SAME,          ///< output size = input size (stride 1 only)
};

/// The options of conv2d (height, width); conv1d uses the second (width) entries.
struct ConvOptions {
    std::array<std::int64_t, 2> stride{1, 1};
    std::array<std::int64_t, 2> padding{0, 0};
    std::array<std::int64_t, 2> dilation{1, 1};
    std::int64_t groups = 1;
    ConvPadding mode = ConvPadding::Explicit;
};

/// PyTorch's conv2d: x [N, C, H, W] (or [C, H, W]), weight [O, C / groups, KH, KW], optional
/// bias [O]. Strided inputs are read as they are.
inline Tensor conv2d(const Tensor& x, const Tensor& weight,
                     const std::optional<Tensor>& bias = std::nullopt,
                     const ConvOptions& o = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_conv2d(x.get(), weight.get(), bias ? bias->get() : nullptr,
                                 o.stride[0], o.stride[1], o.padding[0], o.padding[1],
                                 o.dilation[0], o.dilation[1], o.groups,
                                 static_cast<crt_conv_padding>(o.mode), out, err);
    });
}

/// PyTorch's conv1d: x [N, C, L] (or [C, L]), weight [O, C / groups, K]; the options' second
/// entries (width) apply.
inline Tensor conv1d(const Tensor& x, const Tensor& weight,
                     const std::optional<Tensor>& bias = std::nullopt,
                     const ConvOptions& o = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_conv1d(x.get(), weight.get(), bias ? bias->get() : nullptr,
                                 o.stride[1], o.padding[1], o.dilation[1], o.groups,
                                 static_cast<crt_conv_padding>(o.mode), out, err);
    });
}

/// The options of conv_transpose2d (height, width); conv_transpose1d uses the second (width)
/// entries. `padding` is cropped from each side of the full result; `output_padding` (each
/// smaller than the stride or the dilation) is added on the far side.
struct ConvTransposeOptions {
    std::array<std::int64_t, 2> stride{1, 1};
    std::array<std::int64_t, 2> padding{0, 0};
    std::array<std::int64_t, 2> output_padding{0, 0};
    std::array<std::int64_t, 2> dilation{1, 1};
    std::int64_t groups = 1;
};

/// PyTorch's conv_transpose2d: x [N, C, H, W] (or [C, H, W]), weight [C, O / groups, KH, KW],
/// optional bias [O]; the output is (H - 1) * stride - 2 * padding + dilation * (KH - 1) +
/// output_padding + 1 high (likewise wide).
inline Tensor conv_transpose2d(const Tensor& x, const Tensor& weight,
                               const std::optional<Tensor>& bias = std::nullopt,
                               const ConvTransposeOptions& o = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_conv_transpose2d(
            x.get(), weight.get(), bias ? bias->get() : nullptr, o.stride[0], o.stride[1],
            o.padding[0], o.padding[1], o.output_padding[0], o.output_padding[1], o.dilation[0],
            o.dilation[1], o.groups, out, err);
    });
}

/// PyTorch's conv_transpose1d: x [N, C, L] (or [C, L]), weight [C, O / groups, K]; the
/// options' second entries (width) apply.
inline Tensor conv_transpose1d(const Tensor& x, const Tensor& weight,
                               const std::optional<Tensor>& bias = std::nullopt,
                               const ConvTransposeOptions& o = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_conv_transpose1d(x.get(), weight.get(), bias ? bias->get() : nullptr,
                                           o.stride[1], o.padding[1], o.output_padding[1],
                                           o.dilation[1], o.groups, out, err);
    });
}

/// The options of max_pool2d / avg_pool2d (height, width); stride {0, 0} means the kernel.
struct PoolOptions {
    std::array<std::int64_t, 2> kernel{2, 2};
    std::array<std::int64_t, 2> stride{0, 0};
    std::array<std::int64_t, 2> padding{0, 0};
    std::array<std::int64_t, 2> dilation{1, 1};  ///< max pooling only
    bool ceil_mode = false;
    bool count_include_pad = true;  ///< average pooling only
};

/// PyTorch's max_pool2d (values only); keeps x's dtype.
inline Tensor max_pool2d(const Tensor& x, const PoolOptions& o = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_max_pool2d(x.get(), o.kernel[0], o.kernel[1], o.stride[0],
                                     o.stride[1], o.padding[0], o.padding[1], o.dilation[0],
                                     o.dilation[1], o.ceil_mode ? 1 : 0, out, err);
    });
}

/// PyTorch's avg_pool2d; x's floating dtype.
inline Tensor avg_pool2d(const Tensor& x, const PoolOptions& o = {}) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_avg_pool2d(x.get(), o.kernel[0], o.kernel[1], o.stride[0],
                                     o.stride[1], o.padding[0], o.padding[1],
                                     o.ceil_mode ? 1 : 0, o.count_include_pad ? 1 : 0, out,
                                     err);
    });
}

/// PyTorch's adaptive_avg_pool2d to out_h x out_w.
inline Tensor adaptive_avg_pool2d(const Tensor& x, std::int64_t out_h, std::int64_t out_w) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_adaptive_avg_pool2d(x.get(), out_h, out_w, out, err);
    });
}

/// x @ weight^T + bias (PyTorch's linear).
inline Tensor linear(const Tensor& x, const Tensor& weight,
                     const std::optional<Tensor>& bias = std::nullopt) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_linear(x.get(), weight.get(), bias ? bias->get() : nullptr, out, err);
    });
}

/// How pad fills.
enum class PadMode : crt_pad_mode {
    Constant = CRT_PAD_CONSTANT,
    Reflect = CRT_PAD_REFLECT,
    Replicate = CRT_PAD_REPLICATE,
    Circular = CRT_PAD_CIRCULAR,
};

/// PyTorch's pad: (before, after) pairs from the last dim ({left, right, top, bottom, ..}).
inline Tensor pad(const Tensor& x, const Shape& pads, PadMode mode = PadMode::Constant,
                  double value = 0.0) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_pad(x.get(), pads.data(), pads.size(),
                              static_cast<crt_pad_mode>(mode), value, out, err);
    });
}

/// PyTorch's layer_norm: normalizes the last normalized_shape.size() dims of x (which must
/// equal normalized_shape), then scales by weight and shifts by bias (each of
/// normalized_shape; omitted: 1 and 0).
inline Tensor layer_norm(const Tensor& x, const Shape& normalized_shape,
                         const std::optional<Tensor>& weight = std::nullopt,
                         const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-5) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_layer_norm(x.get(), normalized_shape.data(), normalized_shape.size(),
                                     weight ? weight->get() : nullptr,
                                     bias ? bias->get() : nullptr, eps, out, err);
    });
}

/// PyTorch's group_norm: the channels of x [N, C, *] in num_groups groups, each normalized
/// per image, then scaled and shifted per channel (weight, bias: [C]).
inline Tensor group_norm(const Tensor& x, std::int64_t num_groups,
                         const std::optional<Tensor>& weight = std::nullopt,
                         const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-5) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_group_norm(x.get(), num_groups, weight ? weight->get() : nullptr,
                                     bias ? bias->get() : nullptr, eps, out, err);
    });
}

/// PyTorch's batch_norm in inference mode: each channel of x [N, C, *] normalized with the
/// running statistics ([C], read only), then scaled and shifted (weight, bias: [C]).
inline Tensor batch_norm(const Tensor& x, const Tensor& running_mean, const Tensor& running_var,
                         const std::optional<Tensor>& weight = std::nullopt,
                         const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-5) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_batch_norm(x.get(), running_mean.get(), running_var.get(),
                                     weight ? weight->get() : nullptr,
                                     bias ? bias->get() : nullptr, eps, out, err);
    });
}

/// How interpolate computes each output value.
enum class InterpolateMode : crt_interpolate_mode {
    Nearest = CRT_INTERPOLATE_NEAREST,             ///< "nearest": floor(dst * scale)
    NearestExact = CRT_INTERPOLATE_NEAREST_EXACT,  ///< "nearest-exact": the nearest centre
    Linear = CRT_INTERPOLATE_LINEAR,               ///< "linear" / "bilinear" / "trilinear"
    Bicubic = CRT_INTERPOLATE_BICUBIC,             ///< "bicubic"
    Area = CRT_INTERPOLATE_AREA,                   ///< "area" (adaptive average pooling)
};

/// The options of interpolate: give `size` or `scale_factor` (one value for every spatial
/// dim, or one per dim) and leave the other empty.
struct InterpolateOptions {
    std::vector<std::int64_t> size;
    std::vector<double> scale_factor;
    InterpolateMode mode = InterpolateMode::Nearest;
    bool align_corners = false;           ///< Linear and Bicubic only
    bool antialias = false;               ///< Linear and Bicubic only
    bool recompute_scale_factor = false;  ///< with scale_factor: step from the sizes
};

/// PyTorch's interpolate of the spatial dims of x ([N, C, L], [N, C, H, W] or
/// [N, C, D, H, W]; float or uint8). A strided input is read in place; the result keeps
/// its memory order (channels-last in, channels-last out).
inline Tensor interpolate(const Tensor& x, const InterpolateOptions& opts) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_interpolate(x.get(), opts.size.data(), opts.size.size(),
                                      opts.scale_factor.data(), opts.scale_factor.size(),
                                      static_cast<crt_interpolate_mode>(opts.mode),
                                      static_cast<std::uint8_t>(opts.align_corners),
                                      static_cast<std::uint8_t>(opts.antialias),
                                      static_cast<std::uint8_t>(opts.recompute_scale_factor),
                                      out, err);
    });
}

/// Fused image normalization: a uint8 frame (H, W, C) or batch (N, H, W, C), in any strides
/// (a pitched frame is read in place), to float32 (C, H, W) / (N, C, H, W) holding
/// (x / 255 - mean[c]) / stddev[c]. mean and stddev hold one value per channel, or one for
/// all; every stddev finite and non-zero.
inline Tensor normalize_image(const Tensor& x, const std::vector<float>& mean,
                              const std::vector<float>& stddev) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_normalize_image(x.get(), mean.data(), mean.size(), stddev.data(),
                                          stddev.size(), out, err);
    });
}

/// Which conversion cvt_color does (OpenCV's COLOR_* codes).
enum class ColorConversion : crt_color_conversion {
    RGB2BGR = CRT_COLOR_RGB2BGR,            ///< (H, W, 3), channels reversed (also BGR2RGB)
    RGB2GRAY = CRT_COLOR_RGB2GRAY,          ///< (H, W, 3) -> (H, W)
    BGR2GRAY = CRT_COLOR_BGR2GRAY,          ///< (H, W, 3) -> (H, W)
    YUV2RGB_NV12 = CRT_COLOR_YUV2RGB_NV12,  ///< (H * 3 / 2, W) -> (H, W, 3)
    YUV2BGR_NV12 = CRT_COLOR_YUV2BGR_NV12,
    YUV2RGB_I420 = CRT_COLOR_YUV2RGB_I420,  ///< (H * 3 / 2, W) -> (H, W, 3)
    YUV2BGR_I420 = CRT_COLOR_YUV2BGR_I420,
    YUV2RGB_YUYV = CRT_COLOR_YUV2RGB_YUYV,  ///< (H, W, 2) -> (H, W, 3)
    YUV2BGR_YUYV = CRT_COLOR_YUV2BGR_YUYV,
};

/// The YUV matrix of cvt_color.
enum class YuvMatrix : crt_yuv_matrix { BT601 = CRT_YUV_BT601, BT709 = CRT_YUV_BT709 };

/// Colour conversion of a uint8 frame like OpenCV's cvtColor (rounded, saturated); a pitched
/// frame is read in place. YUV: BT.601 limited range (OpenCV's) unless told otherwise.
inline Tensor cvt_color(const Tensor& x, ColorConversion code,
                        YuvMatrix matrix = YuvMatrix::BT601, bool full_range = false) {
    return detail::result([&](crt_tensor** out, crt_error** err) {
        return crt_tensor_cvt_color(x.get(), static_cast<crt_color_conversion>(code),
                                    static_cast<crt_yuv_matrix>(matrix), full_range ? 1 : 0,
                                    out, err);
    });
}

}  // namespace ops
}  // namespace ClikaRT

#endif  // CLIKA_RT_VISION_HPP
