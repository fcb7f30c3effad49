// Tests of the C++ image entry points (ClikaRT::ops::normalize_image) against a naive loop
// written here, on a pitched frame borrowed in place (rows padded, from_blob with strides),
// a contiguous batch and an empty frame, and its errors; ops::cvt_color against the float
// BT.601/BT.709 formulas (within 1) on a pitched NV12 frame, and the RGB swaps and gray.
#include <ClikaRT/clika_rt.h>

#include <algorithm>
#include <array>
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

const std::vector<float> kMean{0.485f, 0.456f, 0.406f};
const std::vector<float> kStd{0.229f, 0.224f, 0.225f};

// (x / 255 - mean[c]) / std[c] of the NHWC frames at `px` (row pitch `pitch` bytes), as NCHW.
std::vector<float> naive(const std::uint8_t* px, std::int64_t n, std::int64_t h, std::int64_t w,
                         std::int64_t c, std::int64_t pitch) {
    std::vector<float> out;
    for (std::int64_t ni = 0; ni < n; ++ni)
        for (std::int64_t ci = 0; ci < c; ++ci)
            for (std::int64_t y = 0; y < h; ++y)
                for (std::int64_t x = 0; x < w; ++x) {
                    const float v = px[(ni * h + y) * pitch + x * c + ci];
                    const auto k = static_cast<std::size_t>(ci);
                    out.push_back((v / 255.0f - kMean[k]) / kStd[k]);
                }
    return out;
}

bool same(const std::vector<float>& got, const std::vector<float>& want) {
    if (got.size() != want.size()) {
        std::printf("      %zu elements, want %zu\n", got.size(), want.size());
        return false;
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i]) {
            std::printf("      element %zu: got %.9g, want %.9g\n", i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

std::vector<std::uint8_t> bytes(std::size_t n) {
    std::vector<std::uint8_t> v(n);
    std::uint32_t s = 12345;
    for (auto& b : v) {
        s = s * 1103515245u + 12345u;
        b = static_cast<std::uint8_t>(s >> 24);
    }
    return v;
}

void normalize_matches_naive_loop() {
    // A 7x10 RGB frame whose rows are pitched to 40 bytes, borrowed in place.
    const std::int64_t h = 7, w = 10, c = 3, pitch = 40;
    const std::vector<std::uint8_t> buf = bytes(static_cast<std::size_t>(h * pitch));
    const Tensor frame = Tensor::from_blob(buf.data(), {h, w, c}, {pitch, c, 1});
    CHECK(!frame.is_contiguous());
    const Tensor y = ops::normalize_image(frame, kMean, kStd);
    CHECK(y.shape() == (Shape{c, h, w}));
    CHECK(y.dtype() == DataType::Float32);
    CHECK(same(y.to_vector<float>(), naive(buf.data(), 1, h, w, c, pitch)));
    // A contiguous batch of two.
    const std::vector<std::uint8_t> b2 = bytes(static_cast<std::size_t>(2 * 4 * 5 * 3));
    const Tensor batch = Tensor::from_data(b2, {2, 4, 5, 3});
    const Tensor yb = ops::normalize_image(batch, kMean, kStd);
    CHECK(yb.shape() == (Shape{2, 3, 4, 5}));
    CHECK(same(yb.to_vector<float>(), naive(b2.data(), 2, 4, 5, 3, 15)));
    // An empty frame gives an empty result.
    CHECK(ops::normalize_image(Tensor::zeros({0, 5, 3}, DataType::UInt8), kMean, kStd).shape() ==
          (Shape{3, 0, 5}));
    std::printf("ok    normalize_image matches a naive loop on pitched and batched frames\n");
}

void normalize_errors() {
    const Tensor x = Tensor::zeros({4, 4, 3}, DataType::UInt8);
    CHECK_THROWS(ops::normalize_image(Tensor::zeros({4, 4, 3}), kMean, kStd),
                 Status::InvalidArgument);
    CHECK_THROWS(ops::normalize_image(x, {0.5f, 0.5f}, kStd), Status::InvalidArgument);
    CHECK_THROWS(ops::normalize_image(x, kMean, {1.0f, 0.0f, 1.0f}), Status::InvalidArgument);
    CHECK_THROWS(ops::normalize_image(x, {}, kStd), Status::InvalidArgument);
    CHECK_THROWS(ops::normalize_image(Tensor(), kMean, kStd), Status::NullPointer);
    std::printf("ok    normalize_image errors throw with the right status\n");
}

// The float YUV -> RGB of one pixel, rounded and saturated.
std::array<double, 3> yuv_rgb(int y, int u, int v, bool bt709, bool full) {
    const double kr = bt709 ? 0.2126 : 0.299, kb = bt709 ? 0.0722 : 0.114, kg = 1 - kr - kb;
    const double ys = full ? 1.0 : 255.0 / 219.0, cs = full ? 1.0 : 255.0 / 224.0;
    const double yy = ys * std::max(0, y - (full ? 0 : 16));
    const double uu = cs * (u - 128), vv = cs * (v - 128);
    auto c = [](double t) { return std::min(255.0, std::max(0.0, std::round(t))); };
    return {c(yy + 2 * (1 - kr) * vv),
            c(yy - 2 * kb * (1 - kb) / kg * uu - 2 * kr * (1 - kr) / kg * vv),
            c(yy + 2 * (1 - kb) * uu)};
}

void cvt_color_matches_formulas() {
    // A 6x8 NV12 frame (9 rows of 8 bytes) pitched to 12 bytes a row, borrowed in place.
    const std::int64_t h = 6, w = 8, pitch = 12;
    const std::vector<std::uint8_t> buf = bytes(static_cast<std::size_t>(h * 3 / 2 * pitch));
    const Tensor nv12 = Tensor::from_blob(buf.data(), {h * 3 / 2, w}, {pitch, 1});
    for (bool bt709 : {false, true}) {
        for (bool full : {false, true}) {
            const Tensor rgb = ops::cvt_color(
                nv12, ops::ColorConversion::YUV2RGB_NV12,
                bt709 ? ops::YuvMatrix::BT709 : ops::YuvMatrix::BT601, full);
            CHECK(rgb.shape() == (Shape{h, w, 3}));
            const std::vector<std::uint8_t> got = rgb.to_vector<std::uint8_t>();
            double worst = 0;
            for (std::int64_t y = 0; y < h; ++y)
                for (std::int64_t x = 0; x < w; ++x) {
                    const auto at = [&](std::int64_t r, std::int64_t c) {
                        return static_cast<int>(buf[static_cast<std::size_t>(r * pitch + c)]);
                    };
                    const std::int64_t cr = h + y / 2, cc = x / 2 * 2;
                    const auto want = yuv_rgb(at(y, x), at(cr, cc), at(cr, cc + 1), bt709, full);
                    for (std::size_t k = 0; k < 3; ++k)
                        worst = std::max(
                            worst, std::fabs(got[static_cast<std::size_t>((y * w + x) * 3) + k] -
                                             want[k]));
                }
            CHECK(worst <= 1.0);
        }
    }
    // RGB <-> BGR swaps the channels; gray is 0.299 R + 0.587 G + 0.114 B.
    const std::vector<std::uint8_t> px{10, 200, 30, 255, 0, 128};
    const Tensor rgb = Tensor::from_data(px, {1, 2, 3});
    CHECK((ops::cvt_color(rgb, ops::ColorConversion::RGB2BGR).to_vector<std::uint8_t>() ==
           std::vector<std::uint8_t>{30, 200, 10, 128, 0, 255}));
    const auto gray = ops::cvt_color(rgb, ops::ColorConversion::RGB2GRAY).to_vector<std::uint8_t>();
    CHECK(gray.size() == 2 && gray[0] == 124 && gray[1] == 91);
    CHECK_THROWS(ops::cvt_color(Tensor::zeros({5, 4}, DataType::UInt8),
                                ops::ColorConversion::YUV2RGB_NV12),
                 Status::InvalidArgument);
    CHECK_THROWS(ops::cvt_color(Tensor::zeros({4, 4, 3}), ops::ColorConversion::RGB2BGR),
                 Status::InvalidArgument);
    CHECK_THROWS(ops::cvt_color(rgb, static_cast<ops::ColorConversion>(99)),
                 Status::InvalidArgument);
    std::printf("ok    cvt_color within 1 of the formulas on a pitched NV12 frame; swaps, gray\n");
}

}  // namespace

void run_image_tests() {
    normalize_matches_naive_loop();
    normalize_errors();
    cvt_color_matches_formulas();
}
