// Tests of sorting, selection, scans, roll, the composed reductions, creation and random
// tensors through the C++ header (and so the C ABI), against values written out here.
#include <ClikaRT/clika_rt.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Generator;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;
using ClikaRT::ValuesIndices;
namespace ops = ClikaRT::ops;

namespace {

std::vector<double> vals(const Tensor& t) { return t.to_dtype(DataType::Float64).to_vector<double>(); }
std::vector<std::int64_t> ints(const Tensor& t) { return t.to_vector<std::int64_t>(); }

void sorting_and_selection() {
    const std::vector<float> d{3.0F, 1.0F, 2.0F, 3.0F, NAN, -1.0F};
    const Tensor t = Tensor::from_data(d, Shape{2, 3});
    const ValuesIndices s = ops::sort(t, 1);
    const std::vector<double> v = vals(s.values);
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == -1 && v[4] == 3 && std::isnan(v[5]));
    CHECK((ints(s.indices) == std::vector<std::int64_t>{1, 2, 0, 2, 0, 1}));
    const ValuesIndices d0 = ops::sort(t, 0, true);
    CHECK((ints(d0.indices) == std::vector<std::int64_t>{0, 1, 0, 1, 0, 1}));  // NaN first, ties in order
    CHECK((ints(ops::argsort(t, -1, true)) == std::vector<std::int64_t>{0, 2, 1, 1, 0, 2}));
    const ValuesIndices k = ops::topk(t, 2, 1);
    CHECK(k.values.shape() == (Shape{2, 2}));
    CHECK((ints(k.indices) == std::vector<std::int64_t>{0, 2, 1, 0}));
    CHECK_THROWS(ops::topk(t, 4, 1), Status::InvalidArgument);
    const ValuesIndices kv = ops::kthvalue(t, 2, 1);
    CHECK(vals(kv.values)[0] == 2 && ints(kv.indices)[0] == 2);
    const ValuesIndices m = ops::median(t, 1);
    CHECK(vals(m.values)[0] == 2 && std::isnan(vals(m.values)[1]) && ints(m.indices)[1] == 1);
    CHECK(std::isnan(ops::median(t).item<float>()));
    const ValuesIndices mx = ops::max_dim(t, 1, true);
    CHECK(mx.values.shape() == (Shape{2, 1}) && ints(mx.indices)[0] == 0);
    const std::vector<std::int32_t> u{3, 1, 3, 2};
    const ops::UniqueResult un = ops::unique(Tensor::from_data(u, Shape{4}));
    CHECK((ints(un.values.to_dtype(DataType::Int64)) == std::vector<std::int64_t>{1, 2, 3}));
    CHECK((ints(un.inverse) == std::vector<std::int64_t>{2, 0, 2, 1}));
    CHECK((ints(un.counts) == std::vector<std::int64_t>{1, 1, 2}));
    // unique(dim): distinct rows (dim 0) and columns (dim 1) of a 3x2, lexicographic order.
    const std::vector<std::int32_t> rows{2, 1, 0, 5, 2, 1};
    const ops::UniqueResult ur = ops::unique(Tensor::from_data(rows, Shape{3, 2}), 0);
    CHECK(ur.values.shape() == (Shape{2, 2}));
    CHECK((ints(ur.values.to_dtype(DataType::Int64)) == std::vector<std::int64_t>{0, 5, 2, 1}));
    CHECK((ints(ur.inverse) == std::vector<std::int64_t>{1, 0, 1}));
    CHECK((ints(ur.counts) == std::vector<std::int64_t>{1, 2}));
    const ops::UniqueResult uc = ops::unique(Tensor::from_data(rows, Shape{3, 2}).transpose(0, 1), 1);
    CHECK(uc.values.shape() == (Shape{2, 2}) && (ints(uc.counts) == std::vector<std::int64_t>{1, 2}));
    CHECK_THROWS(ops::unique(Tensor::from_data(rows, Shape{3, 2}), 2), Status::Index);
    std::printf("ok    sort/argsort/topk/kthvalue/median/max_dim/unique\n");
}

void scans_reductions_creation() {
    const std::vector<std::int32_t> d{1, 2, 3, 4, 5, 6};
    const Tensor t = Tensor::from_data(d, Shape{2, 3});
    const Tensor c = ops::cumsum(t, 1);
    CHECK(c.dtype() == DataType::Int64 && (ints(c) == std::vector<std::int64_t>{1, 3, 6, 4, 9, 15}));
    CHECK((ints(ops::cumprod(t, 0)) == std::vector<std::int64_t>{1, 2, 3, 4, 10, 18}));
    CHECK((vals(ops::roll(t, Shape{1}, Shape{1})) == std::vector<double>{3, 1, 2, 6, 4, 5}));
    CHECK((vals(ops::roll(t, Shape{2})) == std::vector<double>{5, 6, 1, 2, 3, 4}));
    CHECK(ops::any(t).item<bool>() && ops::all(t).item<bool>());
    CHECK(!ops::all(t - 1).item<bool>());
    CHECK((vals(ops::any(t - 1, Shape{1})) == std::vector<double>{1, 1}));
    const double lse = ops::logsumexp(t, Shape{1}).to_dtype(DataType::Float64).to_vector<double>()[0];
    CHECK(std::fabs(lse - std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0))) < 1e-5);
    CHECK(std::fabs(ops::norm(t).item<float>() - std::sqrt(91.0F)) < 1e-4F);
    CHECK(ops::norm(t, INFINITY).item<float>() == 6.0F && ops::norm(t, 1.0).item<float>() == 21.0F);
    CHECK((vals(ops::linspace(0, 1, 3)) == std::vector<double>{0, 0.5, 1}));
    CHECK((vals(ops::logspace(0, 2, 3, 10.0, DataType::Float64)) == std::vector<double>{1, 10, 100}));
    CHECK((vals(ops::eye(2)) == std::vector<double>{1, 0, 0, 1}));
    CHECK(ops::zeros_like(t).dtype() == DataType::Int32 && ops::sum(ops::ones_like(t)).item<std::int64_t>() == 6);
    std::printf("ok    cumsum/cumprod/roll/any/all/logsumexp/norm/linspace/logspace/eye/*_like\n");
}

void random_tensors() {
    Generator g(42);
    const std::vector<double> a = vals(ops::rand(Shape{100}, DataType::Float32, &g));
    g.manual_seed(42);
    CHECK(vals(ops::rand(Shape{100}, DataType::Float32, &g)) == a);
    bool in_range = true;
    for (double x : a) in_range = in_range && x >= 0.0 && x < 1.0;
    CHECK(in_range);
    ClikaRT::manual_seed(5);
    const std::vector<double> n1 = vals(ops::randn(Shape{10}));
    ClikaRT::manual_seed(5);
    CHECK(vals(ops::randn(Shape{10})) == n1);
    const std::vector<std::int64_t> r = ints(ops::randint(-2, 3, Shape{200}, DataType::Int64, &g));
    bool ints_in_range = true;
    for (std::int64_t x : r) ints_in_range = ints_in_range && x >= -2 && x < 3;
    CHECK(ints_in_range);
    const std::vector<float> p{0.0F, 1.0F};
    CHECK((vals(ops::bernoulli(Tensor::from_data(p, Shape{2}), &g)) == std::vector<double>{0, 1}));
    CHECK_THROWS(ops::rand(Shape{2}, DataType::Int32), Status::InvalidArgument);
    std::printf("ok    Generator, manual_seed, rand/randn/randint/bernoulli\n");
}

}  // namespace

void run_algorithm_tests() {
    sorting_and_selection();
    scans_reductions_creation();
    random_tensors();
}
