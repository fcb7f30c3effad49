// Tests of the C++ vision API (ClikaRT::ops::conv2d, conv_transpose2d, pooling, linear, pad, interpolate) against naive
// reference loops written here, on a transposed (strided) input, and its errors.
#include <ClikaRT/clika_rt.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

namespace {

std::vector<double> vals(const Tensor& t) {
    return t.to_dtype(DataType::Float64).to_vector<double>();
}

Tensor ramp(const Shape& shape, double scale) {
    std::int64_t n = 1;
    for (std::int64_t d : shape) n *= d;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(static_cast<double>(i) * scale);
    return Tensor::from_data(v, shape);
}

bool close(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) {
        std::printf("      %zu elements, want %zu\n", got.size(), want.size());
        return false;
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::fabs(got[i] - want[i]) > 1e-9) {
            std::printf("      element %zu: got %.9g, want %.9g\n", i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

void conv2d_matches_naive_loops() {
    // x [1, 4, 5, 6] read through a transposed view of [1, 4, 6, 5].
    const Tensor x = ramp({1, 4, 6, 5}, 0.37).transpose(2, 3);
    const Tensor w = ramp({4, 2, 3, 2}, 0.91);
    const Tensor b = ramp({4}, 1.3);
    ops::ConvOptions o;
    o.stride = {2, 1};
    o.padding = {1, 0};
    o.dilation = {1, 2};
    o.groups = 2;
    const Tensor y = ops::conv2d(x, w, b, o);
    const std::vector<double> xv = vals(x), wv = vals(w), bv = vals(b);
    const std::int64_t ho = (5 + 2 - 3) / 2 + 1, wo = (6 - 3) / 1 + 1;
    std::vector<double> want;
    for (std::int64_t oc = 0; oc < 4; ++oc) {
        const std::int64_t g = oc / 2;
        for (std::int64_t oy = 0; oy < ho; ++oy) {
            for (std::int64_t ox = 0; ox < wo; ++ox) {
                double s = bv[static_cast<std::size_t>(oc)];
                for (std::int64_t ci = 0; ci < 2; ++ci) {
                    for (std::int64_t ki = 0; ki < 3; ++ki) {
                        for (std::int64_t kj = 0; kj < 2; ++kj) {
                            const std::int64_t iy = oy * 2 + ki - 1, ix = ox + kj * 2;
                            if (iy < 0 || iy >= 5 || ix >= 6) continue;
                            s += xv[static_cast<std::size_t>(((g * 2 + ci) * 5 + iy) * 6 + ix)] *
                                 wv[static_cast<std::size_t>(((oc * 2 + ci) * 3 + ki) * 2 + kj)];
                        }
                    }
                }
                want.push_back(s);
            }
        }
    }
    CHECK((y.shape() == Shape{1, 4, ho, wo}));
    CHECK(close(vals(y), want));
    // conv1d: the width entries of the options.
    ops::ConvOptions o1;
    o1.mode = ops::ConvPadding::Same;
    const Tensor x1 = ramp({1, 2, 7}, 0.5), w1 = ramp({3, 2, 3}, 0.7);
    const Tensor y1 = ops::conv1d(x1, w1, std::nullopt, o1);
    const Tensor y2 = ops::conv2d(x1.unsqueeze(2), w1.unsqueeze(2), std::nullopt, o1).squeeze(2);
    CHECK((y1.shape() == Shape{1, 3, 7}));
    CHECK(close(vals(y1), vals(y2)));
    std::printf("ok    conv2d/conv1d match naive loops (strided input, groups, dilation)\n");
}

void depthwise_matches_naive_loops() {
    // Depthwise with a channel multiplier of 2 (groups = 3 input channels, 6 out): the
    // kernels compiled per size (3x3, 5x5, 7x7) and the general one (3x2), stride 1 and 2
    // across (the stride-2 rows are split into column phases), narrow and wider rows, a
    // transposed (strided) input.
    struct Case {
        std::int64_t kh, kw, sy, sx, py, px, dy, dx, h, w;
    };
    const Case cases[] = {
        {3, 3, 1, 1, 1, 1, 1, 1, 9, 40}, {5, 5, 2, 2, 2, 2, 1, 1, 11, 37},
        {7, 7, 1, 2, 3, 3, 1, 1, 10, 20}, {3, 3, 2, 1, 0, 2, 2, 3, 12, 9},
        {3, 2, 1, 3, 1, 0, 1, 2, 8, 50},
    };
    for (const Case& c : cases) {
        const Tensor x = ramp({2, 3, c.w, c.h}, 0.29).transpose(2, 3);
        const Tensor w = ramp({6, 1, c.kh, c.kw}, 0.83);
        const Tensor b = ramp({6}, 1.7);
        ops::ConvOptions o;
        o.stride = {c.sy, c.sx};
        o.padding = {c.py, c.px};
        o.dilation = {c.dy, c.dx};
        o.groups = 3;
        const Tensor y = ops::conv2d(x, w, b, o);
        const std::vector<double> xv = vals(x), wv = vals(w), bv = vals(b);
        const std::int64_t ho = (c.h + 2 * c.py - c.dy * (c.kh - 1) - 1) / c.sy + 1;
        const std::int64_t wo = (c.w + 2 * c.px - c.dx * (c.kw - 1) - 1) / c.sx + 1;
        std::vector<double> want;
        for (std::int64_t n = 0; n < 2; ++n) {
            for (std::int64_t oc = 0; oc < 6; ++oc) {
                for (std::int64_t oy = 0; oy < ho; ++oy) {
                    for (std::int64_t ox = 0; ox < wo; ++ox) {
                        double s = bv[static_cast<std::size_t>(oc)];
                        for (std::int64_t ki = 0; ki < c.kh; ++ki) {
                            for (std::int64_t kj = 0; kj < c.kw; ++kj) {
                                const std::int64_t iy = oy * c.sy + ki * c.dy - c.py;
                                const std::int64_t ix = ox * c.sx + kj * c.dx - c.px;
                                if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
                                const std::int64_t xi = ((n * 3 + oc / 2) * c.h + iy) * c.w + ix;
                                const std::int64_t wi = (oc * c.kh + ki) * c.kw + kj;
                                s += xv[static_cast<std::size_t>(xi)] *
                                     wv[static_cast<std::size_t>(wi)];
                            }
                        }
                        want.push_back(s);
                    }
                }
            }
        }
        CHECK((y.shape() == Shape{2, 6, ho, wo}));
        CHECK(close(vals(y), want));
    }
    std::printf("ok    depthwise conv2d matches naive loops (3x3/5x5/7x7/3x2, strides, dilation)\n");
}

void conv_transpose_matches_naive_scatter() {
    // x [1, 4, 3, 5] read through a transposed view; weight [4, 2, 3, 2] (groups 2 → 4 out).
    const Tensor x = ramp({1, 4, 5, 3}, 0.41).transpose(2, 3);
    const Tensor w = ramp({4, 2, 3, 2}, 0.83);
    const Tensor b = ramp({4}, 1.1);
    ops::ConvTransposeOptions o;
    o.stride = {2, 3};
    o.padding = {1, 0};
    o.output_padding = {1, 2};
    o.dilation = {1, 2};
    o.groups = 2;
    const Tensor y = ops::conv_transpose2d(x, w, b, o);
    const std::int64_t ho = (3 - 1) * 2 - 2 + 1 * (3 - 1) + 1 + 1;  // 6
    const std::int64_t wo = (5 - 1) * 3 - 0 + 2 * (2 - 1) + 2 + 1;  // 17
    const std::vector<double> xv = vals(x), wv = vals(w), bv = vals(b);
    std::vector<double> want(static_cast<std::size_t>(4 * ho * wo));
    for (std::int64_t oc = 0; oc < 4; ++oc)
        for (std::int64_t i = 0; i < ho * wo; ++i)
            want[static_cast<std::size_t>(oc * ho * wo + i)] = bv[static_cast<std::size_t>(oc)];
    for (std::int64_t ci = 0; ci < 4; ++ci) {
        const std::int64_t g = ci / 2;
        for (std::int64_t iy = 0; iy < 3; ++iy)
            for (std::int64_t ix = 0; ix < 5; ++ix)
                for (std::int64_t oi = 0; oi < 2; ++oi)
                    for (std::int64_t ki = 0; ki < 3; ++ki)
                        for (std::int64_t kj = 0; kj < 2; ++kj) {
                            const std::int64_t oy = iy * 2 + ki - 1, ox = ix * 3 + kj * 2;
                            if (oy < 0 || oy >= ho || ox >= wo) continue;
                            const std::int64_t oc = g * 2 + oi;
                            want[static_cast<std::size_t>((oc * ho + oy) * wo + ox)] +=
                                xv[static_cast<std::size_t>((ci * 3 + iy) * 5 + ix)] *
                                wv[static_cast<std::size_t>(((ci * 2 + oi) * 3 + ki) * 2 + kj)];
                        }
    }
    CHECK((y.shape() == Shape{1, 4, ho, wo}));
    CHECK(close(vals(y), want));
    // conv_transpose1d: the width entries; the same as 2-D of height 1.
    ops::ConvTransposeOptions o1;
    o1.stride = {1, 2};
    o1.output_padding = {0, 1};
    const Tensor x1 = ramp({1, 2, 7}, 0.5), w1 = ramp({2, 3, 3}, 0.7);
    const Tensor y1 = ops::conv_transpose1d(x1, w1, std::nullopt, o1);
    const Tensor y2 =
        ops::conv_transpose2d(x1.unsqueeze(2), w1.unsqueeze(2), std::nullopt, o1).squeeze(2);
    CHECK((y1.shape() == Shape{1, 3, 16}));
    CHECK(close(vals(y1), vals(y2)));
    ops::ConvTransposeOptions bad;
    bad.output_padding = {1, 1};  // not below stride 1 or dilation 1
    CHECK_THROWS(ops::conv_transpose2d(x, w, b, bad), Status::InvalidArgument);
    CHECK_THROWS(ops::conv_transpose2d(x, Tensor()), Status::NullPointer);
    std::printf("ok    conv_transpose2d/1d match a naive scatter (strided input, groups, "
                "output padding, dilation)\n");
}

void pooling_linear_pad() {
    const Tensor x = ramp({1, 1, 4, 4}, 0.3);
    const std::vector<double> xv = vals(x);
    const Tensor m = ops::max_pool2d(x, {});
    std::vector<double> want;
    for (int oy = 0; oy < 2; ++oy) {
        for (int ox = 0; ox < 2; ++ox) {
            double mx = -INFINITY, sum = 0;
            for (int i = 0; i < 2; ++i) {
                for (int j = 0; j < 2; ++j) {
                    const double v = xv[static_cast<std::size_t>((oy * 2 + i) * 4 + ox * 2 + j)];
                    mx = std::fmax(mx, v);
                    sum += v;
                }
            }
            want.push_back(mx);
            (void)sum;
        }
    }
    CHECK(close(vals(m), want));
    ops::PoolOptions po;
    po.kernel = {4, 4};
    double total = 0;
    for (double v : xv) total += v;
    CHECK(close(vals(ops::avg_pool2d(x, po)), {total / 16}));
    CHECK(close(vals(ops::adaptive_avg_pool2d(x, 1, 1)), {total / 16}));

    const Tensor a = ramp({2, 3}, 0.4), w = ramp({2, 3}, 0.8), b = ramp({2}, 0.2);
    CHECK(close(vals(ops::linear(a, w, b)), vals(ops::matmul(a, w.transpose(0, 1)) + b)));

    const Tensor r = Tensor::from_data(std::vector<double>{1, 2, 3}, {3});
    CHECK(close(vals(ops::pad(r, {2, 1}, ops::PadMode::Reflect)), {3, 2, 1, 2, 3, 2}));
    CHECK(close(vals(ops::pad(r, {1, 1}, ops::PadMode::Constant, 7)), {7, 1, 2, 3, 7}));
    std::printf("ok    max/avg/adaptive pooling, linear, pad\n");
}

void interpolate_modes() {
    // 2x2 ramp -> 3x3 with aligned corners: exact halves.
    const Tensor x = Tensor::from_data(std::vector<double>{0, 1, 2, 3}, {1, 1, 2, 2});
    ops::InterpolateOptions o;
    o.size = {3, 3};
    o.mode = ops::InterpolateMode::Linear;
    o.align_corners = true;
    CHECK(close(vals(ops::interpolate(x, o)), {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3}));
    // Nearest by a scale factor of 2 repeats each element.
    ops::InterpolateOptions n;
    n.scale_factor = {2.0};
    CHECK(close(vals(ops::interpolate(x, n)),
                {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}));
    // Area to 1x1 is the mean; a channels-last view keeps channels innermost.
    ops::InterpolateOptions a;
    a.size = {1};
    a.mode = ops::InterpolateMode::Area;
    CHECK(close(vals(ops::interpolate(x, a)), {1.5}));
    const Tensor nhwc = ramp({1, 4, 5, 3}, 0.3);
    ops::InterpolateOptions b;
    b.size = {2, 3};
    b.mode = ops::InterpolateMode::Bicubic;
    b.antialias = true;
    const Tensor y = ops::interpolate(nhwc.permute({0, 3, 1, 2}), b);
    CHECK(y.shape() == Shape({1, 3, 2, 3}));
    CHECK(y.strides()[1] == 1);
    // Errors: neither size nor scale, align_corners with nearest, an unknown mode number.
    CHECK_THROWS(ops::interpolate(x, ops::InterpolateOptions{}), Status::InvalidArgument);
    ops::InterpolateOptions bad = n;
    bad.align_corners = true;
    CHECK_THROWS(ops::interpolate(x, bad), Status::InvalidArgument);
    crt_tensor* out = nullptr;
    crt_error* err = nullptr;
    const std::int64_t two[] = {2};
    CHECK(crt_tensor_interpolate(x.get(), two, 1, nullptr, 0, 99, 0, 0, 0, &out,
                                 &err) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(out == nullptr && err != nullptr);
    crt_error_free(err);
    std::printf("ok    interpolate: linear, nearest, area, bicubic antialias, errors\n");
}

void normalization_layers() {
    // layer_norm over the last dim: [1, 2, 3] -> [-a, 0, a], a = sqrt(3/2); then affine.
    const Tensor x = Tensor::from_data(std::vector<double>{1, 2, 3, 2, 2, 2}, {2, 3});
    const double a = std::sqrt(1.5);
    CHECK(close(vals(ops::layer_norm(x, {3}, std::nullopt, std::nullopt, 0.0)),
                {-a, 0, a, 0, 0, 0}));
    const Tensor w = Tensor::from_data(std::vector<double>{1, 2, 3}, {3});
    const Tensor b = Tensor::from_data(std::vector<double>{0, 1, 0}, {3});
    CHECK(close(vals(ops::layer_norm(x, {3}, w, b, 0.0)), {-a, 1, 3 * a, 0, 1, 0}));
    // group_norm with one channel per group is instance norm; two groups of two channels.
    const Tensor g = Tensor::from_data(std::vector<double>{0, 2, 4, 6, 1, 1, 5, 5}, {1, 4, 2});
    const double m = 3.0, s = std::sqrt(5.0);  // group 0: 0 2 4 6
    CHECK(close(vals(ops::group_norm(g, 2, std::nullopt, std::nullopt, 0.0)),
                {(0 - m) / s, (2 - m) / s, (4 - m) / s, (6 - m) / s, -1, -1, 1, 1}));
    // batch_norm with running statistics: (x - mean[c]) / sqrt(var[c]) * w[c] + b[c].
    const Tensor bx = Tensor::from_data(std::vector<double>{1, 2, 3, 4}, {2, 2});
    const Tensor rm = Tensor::from_data(std::vector<double>{1, 1}, {2});
    const Tensor rv = Tensor::from_data(std::vector<double>{4, 1}, {2});
    const Tensor bw = Tensor::from_data(std::vector<double>{2, 1}, {2});
    CHECK(close(vals(ops::batch_norm(bx, rm, rv, bw, std::nullopt, 0.0)), {0, 1, 2, 3}));
    CHECK_THROWS(ops::layer_norm(x, {2}), Status::InvalidArgument);
    CHECK_THROWS(ops::group_norm(g, 3), Status::InvalidArgument);
    CHECK_THROWS(ops::batch_norm(bx, w, rv), Status::InvalidArgument);
    std::printf("ok    layer_norm, group_norm, batch_norm\n");
}

void vision_errors() {
    const Tensor x = Tensor::zeros({1, 4, 5, 5});
    const Tensor w = Tensor::zeros({6, 3, 3, 3});
    CHECK_THROWS(ops::conv2d(x, w), Status::InvalidArgument);
    ops::ConvOptions bad;
    bad.groups = -1;
    CHECK_THROWS(ops::conv2d(x, Tensor::zeros({6, 4, 3, 3}), std::nullopt, bad),
                 Status::InvalidArgument);
    CHECK_THROWS(ops::conv2d(Tensor(), w), Status::NullPointer);
    ops::PoolOptions po;
    po.kernel = {2, 2};
    po.padding = {2, 2};
    CHECK_THROWS(ops::max_pool2d(x, po), Status::InvalidArgument);
    CHECK_THROWS(ops::pad(x, {9, 0}, ops::PadMode::Reflect), Status::InvalidArgument);
    std::printf("ok    vision errors throw with the right status\n");
}

}  // namespace

void run_vision_tests() {
    conv2d_matches_naive_loops();
    depthwise_matches_naive_loops();
    conv_transpose_matches_naive_scatter();
    pooling_linear_pad();
    interpolate_modes();
    normalization_layers();
    vision_errors();
}
