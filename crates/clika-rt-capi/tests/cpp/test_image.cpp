// Tests of the C++ image entry points (ClikaRT::ops::normalize_image) against a naive loop
// written here, on a pitched frame borrowed in place (rows padded, from_blob with strides),
// a contiguous batch and an empty frame, and its errors.
#include <ClikaRT/clika_rt.h>

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

}  // namespace

void run_image_tests() {
    normalize_matches_naive_loop();
    normalize_errors();
}
