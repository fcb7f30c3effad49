// Tests of the newer elementwise ops through the C++ header (issue 14): rounding half to
// even (and with decimals), predicates, Python's // and % signs and integer division by
// zero, the bitwise operators and their compound forms, tril/triu, and the in-place
// casting rule (int += float throws). Another translation unit including the header.
#include <ClikaRT/clika_rt.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

#include "check.h"

using ClikaRT::BinaryOp;
using ClikaRT::DataType;
using ClikaRT::Scalar;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;
using ClikaRT::UnaryOp;
namespace ops = ClikaRT::ops;

namespace {

std::vector<double> dvals(const Tensor& t) {
    return t.to_dtype(DataType::Float64).to_vector<double>();
}

bool same(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return false;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const bool both_nan = std::isnan(got[i]) && std::isnan(want[i]);
        if (!both_nan && std::fabs(got[i] - want[i]) > 1e-6 * std::fmax(1.0, std::fabs(want[i]))) {
            std::printf("      element %zu: got %.9g, want %.9g\n", i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

void rounding_and_predicates() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const Tensor x = Tensor::from_data(std::vector<float>{-2.5F, -1.5F, -0.5F, 0.5F, 1.5F, 2.5F}, {2, 3});
    std::vector<double> want;
    for (double v : dvals(x)) want.push_back(std::nearbyint(v));  // ties to even by default
    CHECK(same(dvals(ops::round(x)), want));
    // A transposed view rounds the same values.
    std::vector<double> want_t;
    const std::vector<double> xt = dvals(x.mT());
    for (double v : xt) want_t.push_back(std::nearbyint(v));
    CHECK(same(dvals(ops::round(x.mT())), want_t));
    CHECK(same(dvals(ops::floor(x)), {-3, -2, -1, 0, 1, 2}));
    CHECK(same(dvals(ops::ceil(x)), {-2, -1, -0.0, 1, 2, 3}));
    CHECK(same(dvals(ops::trunc(x)), {-2, -1, 0, 0, 1, 2}));
    CHECK(same(dvals(ops::sign(x)), {-1, -1, -1, 1, 1, 1}));
    const Tensor d = Tensor::from_data(std::vector<double>{1.2345, -2.675, 1234.5}, {3});
    CHECK(same(dvals(ops::round(d, 2)), {std::nearbyint(1.2345 * 100) / 100,
                                         std::nearbyint(-2.675 * 100) / 100, 1234.5}));
    CHECK(same(dvals(ops::round(d, -2)), {0, -0.0, 1200}));

    const Tensor s = Tensor::from_data(std::vector<double>{1.0, nan, inf, -inf}, {4});
    const Tensor isn = ops::isnan(s);
    CHECK(isn.dtype() == DataType::Bool);
    CHECK(same(dvals(isn), {0, 1, 0, 0}));
    CHECK(same(dvals(ops::isinf(s)), {0, 0, 1, 1}));
    CHECK(same(dvals(ops::isfinite(s)), {1, 0, 0, 0}));
    CHECK(same(dvals(ops::log1p(Tensor::from_data(std::vector<double>{1e-10}, {1}))), {std::log1p(1e-10)}));
    CHECK(same(dvals(ops::atan2(Tensor::from_data(std::vector<float>{1, -1}, {2}), 2.0)),
               {std::atan2(1.0F, 2.0F), std::atan2(-1.0F, 2.0F)}));

    // Integers keep their dtype through rounding and sign.
    const Tensor i = Tensor::from_data(std::vector<std::int32_t>{-7, 0, 9}, {3});
    CHECK(ops::floor(i).dtype() == DataType::Int32);
    CHECK(same(dvals(ops::sign(i)), {-1, 0, 1}));
}

void integer_operators() {
    const Tensor a = Tensor::from_data(std::vector<std::int64_t>{7, -7, 7, -7}, {4});
    const Tensor b = Tensor::from_data(std::vector<std::int64_t>{2, 2, -2, -2}, {4});
    CHECK(same(dvals(ops::floor_divide(a, b)), {3, -4, -4, 3}));
    CHECK(same(dvals(a % b), {1, 1, -1, -1}));
    CHECK(same(dvals(ops::fmod(a, b)), {1, -1, 1, -1}));
    CHECK(same(dvals(a % 3), {1, 2, 1, 2}));
    CHECK_THROWS(ops::floor_divide(a, 0), Status::InvalidArgument);
    CHECK_THROWS(a % Tensor::from_data(std::vector<std::int64_t>{1, 0, 1, 1}, {4}),
                 Status::InvalidArgument);

    const Tensor p = Tensor::from_data(std::vector<std::int32_t>{12, -1, 5, 255}, {4});
    const Tensor q = Tensor::from_data(std::vector<std::int32_t>{10, 3, 1, 4}, {4});
    CHECK(same(dvals(p & q), {12 & 10, -1 & 3, 5 & 1, 255 & 4}));
    CHECK(same(dvals(p | q), {12 | 10, -1 | 3, 5 | 1, 255 | 4}));
    CHECK(same(dvals(p ^ q), {12 ^ 10, -1 ^ 3, 5 ^ 1, 255 ^ 4}));
    CHECK(same(dvals(~p), {~12, ~-1, ~5, ~255}));
    CHECK(same(dvals(p << 2), {48, -4, 20, 1020}));
    CHECK(same(dvals(p >> q), {0, -1, 2, 15}));
    // Broadcast: a column against a row.
    const Tensor col = p.reshape({4, 1});
    CHECK((col & q).shape() == (Shape{4, 4}));
    // Bool tensors: logical forms; floats are refused.
    const Tensor t = Tensor::from_data(std::vector<std::uint8_t>{1, 1, 0, 0}, {4}).to_dtype(DataType::Bool);
    const Tensor u = Tensor::from_data(std::vector<std::uint8_t>{1, 0, 1, 0}, {4}).to_dtype(DataType::Bool);
    CHECK(same(dvals(t ^ u), {0, 1, 1, 0}));
    CHECK(same(dvals(ops::logical_and(p, q)), {1, 1, 1, 1}));
    CHECK(same(dvals(ops::logical_not(t)), {0, 0, 1, 1}));
    const Tensor f = Tensor::from_data(std::vector<float>{1, 2}, {2});
    CHECK_THROWS(f & f, Status::DType);
    CHECK_THROWS(~f, Status::DType);

    // Compound assignment writes through shared views.
    Tensor w = Tensor::from_data(std::vector<std::int32_t>{9, 10, 11}, {3}).contiguous();
    Tensor view = w.slice(0, 1, 3, 1);
    view %= 4;
    view <<= 1;
    CHECK(same(dvals(w), {9, 4, 6}));
}

void in_place_casting_and_triangles() {
    Tensor i = Tensor::from_data(std::vector<std::int32_t>{1, 2, 3}, {3}).contiguous();
    CHECK_THROWS(i += 1.5, Status::DType);
    CHECK_THROWS(i.mul_(Tensor::from_data(std::vector<float>{0.5F}, {1})), Status::DType);
    CHECK_THROWS(i /= 2, Status::DType);
    CHECK(same(dvals(i), {1, 2, 3}));
    i += 2;
    CHECK(same(dvals(i), {3, 4, 5}));
    i.clamp_(Scalar(4), std::nullopt);
    CHECK(same(dvals(i), {4, 4, 5}));
    CHECK_THROWS(i.clamp_(Scalar(0.5), std::nullopt), Status::DType);
    i.zero_();
    CHECK(same(dvals(i), {0, 0, 0}));

    const Tensor m = Tensor::from_data(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
    CHECK(same(dvals(ops::tril(m)), {1, 0, 0, 4, 5, 0, 7, 8, 9}));
    CHECK(same(dvals(ops::triu(m, 1)), {0, 2, 3, 0, 0, 6, 0, 0, 0}));
    CHECK(same(dvals(ops::tril(m.mT(), -1)), {0, 0, 0, 2, 0, 0, 3, 6, 0}));
    CHECK_THROWS(ops::tril(Tensor::from_data(std::vector<float>{1}, {1})), Status::InvalidArgument);
}

// A fresh element-wise result keeps the layout its operands share (a transposed pair, or a
// transposed tensor and a number), as PyTorch's and numpy's do; a broadcast row or an operand
// of another layout gives a row-major result. Values match the row-major computation.
void results_keep_a_shared_permuted_layout() {
    const Tensor base = Tensor::arange(0, 6000).reshape({60, 100});
    const Tensor a = base.mT();
    const Tensor b = (base * 0.5 + 1).mT();
    const Tensor ca = a.contiguous();
    const Tensor cb = b.contiguous();
    const Tensor sum = a + b;
    CHECK(sum.strides() == a.strides() && sum.mT().is_contiguous());
    CHECK(same(dvals(sum), dvals(ca + cb)));
    CHECK((a * 2.0).strides() == a.strides());
    CHECK(same(dvals(a * 2.0), dvals(ca * 2.0)));
    const Tensor e = ops::exp(a / 6000.0);
    CHECK(e.strides() == a.strides());
    CHECK(same(dvals(e), dvals(ops::exp(ca / 6000.0))));
    CHECK(ops::clamp(a, 100, 5000).strides() == a.strides());
    CHECK(same(dvals(ops::clamp(a, 100, 5000)), dvals(ops::clamp(ca, 100, 5000))));
    CHECK(ops::where(a < b, a, b).strides() == a.strides());
    CHECK(same(dvals(ops::where(a < b, a, b)), dvals(ops::where(ca < cb, ca, cb))));
    CHECK((a < b).strides() == a.strides());
    CHECK(same(dvals(a < b), dvals(ca < cb)));
    CHECK((a + cb).is_contiguous());
    CHECK(same(dvals(a + cb), dvals(ca + cb)));
    CHECK((a + a.narrow(0, 0, 1)).is_contiguous());
    CHECK(same(dvals(a + a.narrow(0, 0, 1)), dvals(ca + ca.narrow(0, 0, 1))));
    // Conversions keep the layout too (PyTorch's `to`); a view with gaps converts row-major.
    const Tensor half = a.to_dtype(DataType::Float16);
    CHECK(half.dtype() == DataType::Float16 && half.strides() == a.strides());
    CHECK(same(dvals(half), dvals(ca.to_dtype(DataType::Float16))));
    const Tensor gapped = a.slice(1, 0, 60, 2).to_dtype(DataType::Int32);
    CHECK(gapped.is_contiguous());
    CHECK(same(dvals(gapped), dvals(ca.slice(1, 0, 60, 2).to_dtype(DataType::Int32))));
}

}  // namespace

void run_elementwise_tests() {
    rounding_and_predicates();
    integer_operators();
    in_place_casting_and_triangles();
    results_keep_a_shared_permuted_layout();
}
