// Tests of the C++ compute API: ClikaRT::ops::, the Tensor operators (with tensors and
// arithmetic scalars), elementwise comparisons, the in-place forms through views, and errors.
// A third translation unit including <ClikaRT/clika_rt.h>.
#include <ClikaRT/clika_rt.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "check.h"

using ClikaRT::BinaryOp;
using ClikaRT::DataType;
using ClikaRT::ReduceOp;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;
using ClikaRT::UnaryOp;
namespace ops = ClikaRT::ops;

namespace {

std::vector<double> vals(const Tensor& t) { return t.to_dtype(DataType::Float64).to_vector<double>(); }

bool near(const Tensor& t, const std::vector<double>& want) {
    const std::vector<double> got = vals(t);
    if (got.size() != want.size()) {
        std::printf("      %zu elements, want %zu\n", got.size(), want.size());
        return false;
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::fabs(got[i] - want[i]) > 1e-5) {
            std::printf("      element %zu: got %.7g, want %.7g\n", i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

Tensor a23() { return Tensor::from_data(std::vector<float>{0, 1, 2, 3, 4, 5}, {2, 3}); }
Tensor row3() { return Tensor::from_data(std::vector<float>{10, 20, 30}, {3}); }

void operators_broadcast_and_promote() {
    const Tensor a = a23();
    const Tensor b = row3();
    CHECK(near(a + b, {10, 21, 32, 13, 24, 35}) && (a + b).shape() == (Shape{2, 3}));
    CHECK(near(b - a, {10, 19, 28, 7, 16, 25}));
    CHECK(near(a * 2.0F, {0, 2, 4, 6, 8, 10}));
    CHECK(near(1 - a, {1, 0, -1, -2, -3, -4}));
    CHECK(near(a / 2, {0, 0.5, 1, 1.5, 2, 2.5}));
    CHECK(near(2.0 / (a + 1), {2, 1, 2.0 / 3, 0.5, 0.4, 2.0 / 6}));
    CHECK(near(-a, {0, -1, -2, -3, -4, -5}));
    CHECK(near(a.reshape({2, 3, 1}) * b.reshape({1, 3}),
               {0, 0, 0, 10, 20, 30, 20, 40, 60, 30, 60, 90, 40, 80, 120, 50, 100, 150}));

    // Comparisons are elementwise and give Bool tensors.
    static_assert(std::is_same<decltype(a == a), Tensor>::value, "== is elementwise");
    const Tensor gt = a > 2;
    CHECK(gt.dtype() == DataType::Bool && ops::sum(gt).item<int>() == 3);
    CHECK(ops::sum(a == a).item<int>() == 6 && ops::sum(a != a).item<int>() == 0);
    CHECK(near(a <= 1.5, {1, 1, 0, 0, 0, 0}) && near(3 >= a, {1, 1, 1, 1, 0, 0}));
    CHECK(near(a < b.narrow(0, 0, 1), {1, 1, 1, 1, 1, 1}));

    // Promotion: weak scalars only matter across kinds; tensors promote as numpy.
    const Tensor i8 = Tensor::from_data(std::vector<std::int8_t>{1, 2, 127}, {3});
    CHECK((i8 + 0.5F).dtype() == DataType::Float32 && near(i8 + 0.5F, {1.5, 2.5, 127.5}));
    CHECK((i8 + 1).dtype() == DataType::Int8 && near(i8 + 1, {2, 3, -128}));
    CHECK((Tensor::ones({2}, DataType::Bool) + 1).dtype() == DataType::Int64);
    CHECK((Tensor::ones({2}, DataType::Bool) * true).dtype() == DataType::Bool);
    CHECK((i8 + Tensor::ones({3}, DataType::UInt8)).dtype() == DataType::Int16);
    CHECK((i8 + Tensor::ones({3}, DataType::Int32)).dtype() == DataType::Int32);
    CHECK((i8 / i8).dtype() == DataType::Float32);
    CHECK((a + Tensor::ones({3}, DataType::Float64)).dtype() == DataType::Float64);
    std::printf("ok    operators: broadcasting, scalars on either side, comparisons, promotion\n");
}

void named_ops() {
    const Tensor a = a23();
    CHECK(near(ops::add(a, 1), {1, 2, 3, 4, 5, 6}) && near(ops::sub(10, a), {10, 9, 8, 7, 6, 5}));
    CHECK(near(ops::pow(a, 2), {0, 1, 4, 9, 16, 25}));
    CHECK(near(ops::pow(2, a), {1, 2, 4, 8, 16, 32}));
    CHECK(near(ops::maximum(a, 2.5), {2.5, 2.5, 2.5, 3, 4, 5}));
    CHECK(near(ops::minimum(a, row3() / 10), {0, 1, 2, 1, 2, 3}));
    CHECK(near(ops::eq(a, 3), {0, 0, 0, 1, 0, 0}) && ops::ge(a, a).dtype() == DataType::Bool);
    CHECK(near(ops::binary(BinaryOp::Mul, a, a), {0, 1, 4, 9, 16, 25}));
    CHECK(near(ops::exp(Tensor::zeros({2})), {1, 1}) && near(ops::log(ops::exp(a)), vals(a)));
    CHECK(near(ops::relu(a - 2), {0, 0, 0, 1, 2, 3}) && near(ops::abs(a - 2), {2, 1, 0, 1, 2, 3}));
    CHECK(near(ops::sqrt(a * a), vals(a)) && near(ops::rsqrt(Tensor::full({1}, 4.0)), {0.5}));
    CHECK(near(ops::sigmoid(Tensor::zeros({1})), {0.5}) && near(ops::tanh(Tensor::zeros({1})), {0}));
    CHECK(near(ops::sin(Tensor::zeros({1})), {0}) && near(ops::cos(Tensor::zeros({1})), {1}));
    CHECK(near(ops::gelu(Tensor::ones({1})), {0.8413447}) && near(ops::silu(Tensor::ones({1})), {0.7310586}));
    CHECK(near(ops::erf(Tensor::ones({1})), {0.8427008}) && near(ops::neg(a), vals(-a)));
    CHECK(near(ops::unary(UnaryOp::Abs, -a), vals(a)));
    const Tensor ints = Tensor::from_data(std::vector<std::int32_t>{-3, 4}, {2});
    CHECK(ops::abs(ints).dtype() == DataType::Int32 && ops::exp(ints).dtype() == DataType::Float32);

    // Reductions over all elements or any set of dims, with keepdim.
    CHECK(ops::sum(a).item<float>() == 15.0F && ops::mean(a).item<float>() == 2.5F);
    CHECK(ops::sum(a, {1}, true).shape() == (Shape{2, 1}) && near(ops::sum(a, {1}, true), {3, 12}));
    CHECK(near(ops::mean(a, {0}), {1.5, 2.5, 3.5}) && near(ops::mean(a, {-1}), {1, 4}));
    CHECK(near(ops::prod(a + 1), {720}) && near(ops::prod(a + 1, {0}), {4, 10, 18}));
    CHECK(near(ops::max(a), {5}) && near(ops::max(a, {0}), {3, 4, 5}));
    CHECK(near(ops::min(a), {0}) && near(ops::min(a, {1}, true), {0, 3}));
    CHECK(ops::argmax(a).item<std::int64_t>() == 5 && ops::argmin(a).item<std::int64_t>() == 0);
    CHECK(ops::argmax(a, 1).dtype() == DataType::Int64 && near(ops::argmax(a, 1), {2, 2}));
    CHECK(ops::argmin(a, 0, true).shape() == (Shape{1, 3}));
    CHECK(near(ops::var(a, {1}), {1, 1}) && near(ops::var(a, {1}, 0), {2.0 / 3, 2.0 / 3}));
    CHECK(near(ops::var(a), {3.5}) && near(ops::std(a, {0, 1}, 0, true), {std::sqrt(35.0 / 12)}));
    CHECK(ops::std(a, {0}, 1, true).shape() == (Shape{1, 3}) && near(ops::std(a), {std::sqrt(3.5)}));
    CHECK(near(ops::reduce(ReduceOp::Sum, a, {0, 1}), {15}));
    CHECK(near(ops::reduce(ReduceOp::ArgMax, a, {0}), {1, 1, 1}));
    CHECK(near(ops::reduce(ReduceOp::Prod, a + 1), {720}));
    CHECK(near(ops::reduce_all(ReduceOp::Var, a, 0), {35.0 / 12}));
    CHECK(near(ops::sum(ops::softmax(a, 1), {1}), {1, 1}));
    CHECK(near(ops::softmax(a, 1), {0.0900306, 0.2447285, 0.6652410, 0.0900306, 0.2447285, 0.6652410}));
    CHECK(near(ops::log_softmax(a, 0), {-3.0485873, -3.0485873, -3.0485873, -0.0485873, -0.0485873, -0.0485873}));
    // The spellings of the first release still work.
    CHECK(a.sum({0, 1}).item<float>() == 15.0F && ops::contiguous(a.transpose(0, 1)).is_contiguous());
    std::printf("ok    ops:: binary, unary, reductions over dims with keepdim, softmax\n");
}

void matmul_join_select() {
    const Tensor a = a23();
    const Tensor at = a.transpose(0, 1);
    CHECK(!at.is_contiguous());
    const Tensor m = ops::matmul(a, at);
    CHECK(m.shape() == (Shape{2, 2}) && near(m, {5, 14, 14, 50}));
    CHECK(near(ops::matmul(at, a), {9, 12, 15, 12, 17, 22, 15, 22, 29}));
    CHECK(near(ops::matmul(row3(), at), {80, 260}));  // 1-D @ 2-D
    CHECK(ops::matmul(a.unsqueeze(0).expand({4, 2, 3}), at).shape() == (Shape{4, 2, 2}));
    CHECK(ops::cat({a, a}, 1).shape() == (Shape{2, 6}));
    CHECK(near(ops::cat({a, row3().unsqueeze(0)}), {0, 1, 2, 3, 4, 5, 10, 20, 30}));
    CHECK(ops::cat({a, Tensor::ones({1, 3}, DataType::Float64)}).dtype() == DataType::Float64);
    CHECK(ops::stack({a, a}, 1).shape() == (Shape{2, 2, 3}));
    CHECK(near(ops::stack({row3(), row3()}, -1), {10, 10, 20, 20, 30, 30}));
    CHECK(near(ops::where(a > 2, a, Tensor::zeros({1})), {0, 0, 0, 3, 4, 5}));
    CHECK(near(ops::where(a > 2, Tensor::ones({1}), -a), {0, -1, -2, 1, 1, 1}));
    CHECK(near(ops::clamp(a, 1, 4), {1, 1, 2, 3, 4, 4}));
    CHECK(near(ops::clamp(a, std::nullopt, 1.5), {0, 1, 1.5, 1.5, 1.5, 1.5}));
    CHECK(near(ops::clamp(a, 3.5, std::nullopt), {3.5, 3.5, 3.5, 3.5, 4, 5}));
    CHECK(ops::clamp(Tensor::from_data(std::vector<std::int32_t>{-5, 5}, {2}), 0, 3).dtype() ==
          DataType::Int32);
    CHECK(ops::to_dtype(a, DataType::Int8).dtype() == DataType::Int8);
    // Numbers and tensors mix in where/clamp: weak scalars, tensor bounds broadcast.
    CHECK(near(ops::where(a > 2, a, 0.5), {0.5, 0.5, 0.5, 3, 4, 5}));
    CHECK(near(ops::where(a > 2, -1, a), {0, 1, 2, -1, -1, -1}));
    const Tensor ints = Tensor::from_data(std::vector<std::int32_t>{1, 2, 3}, {3});
    CHECK(ops::where(ints > 1, ints, 7).dtype() == DataType::Int32);
    CHECK(ops::where(ints > 1, ints, 0.5).dtype() == DataType::Float32);
    CHECK(ops::where(ints > 1, 1, 2).dtype() == DataType::Int64);
    const Tensor lo = Tensor::from_data(std::vector<float>{1, 2, 3}, {3});
    CHECK(near(ops::clamp(a, lo, std::nullopt), {1, 2, 3, 3, 4, 5}));
    CHECK(near(ops::clamp(a, lo, 4), {1, 2, 3, 3, 4, 4}));
    CHECK(near(ops::clamp(a, 1, lo.unsqueeze(0) + 1.0F), {1, 1, 2, 2, 3, 4}));
    const std::optional<ClikaRT::Scalar> none, two = ClikaRT::Scalar(2);
    CHECK(near(ops::clamp(a, none, two), {0, 1, 2, 2, 2, 2}));
    CHECK_THROWS(ops::where(a > 2, a, std::nullopt), Status::InvalidArgument);
    // Indexing: gather along a dim, masks, nonzero, masked_fill_ through a view.
    const Tensor idx = Tensor::from_data(std::vector<std::int64_t>{2, 0, -1}, {3});
    CHECK(ops::index_select(a, 1, idx).shape() == (Shape{2, 3}));
    CHECK(near(ops::index_select(a, 1, idx), {2, 0, 2, 5, 3, 5}));
    CHECK(near(ops::masked_select(a, a > 3), {4, 5}));
    CHECK(ops::nonzero(a > 3).shape() == (Shape{2, 2}));
    CHECK(ops::nonzero(a > 3).to_vector<std::int64_t>() == (std::vector<std::int64_t>{1, 1, 1, 2}));
    const Tensor b = ops::contiguous(a) + 0.0F;
    ops::masked_fill_(b, b > 3, -1);
    CHECK(near(b, {0, 1, 2, 3, -1, -1}));
    const Tensor gi = Tensor::from_data(std::vector<std::int64_t>{2, 2, 0, -1}, {2, 2});
    const Tensor g = ops::gather(a, 1, gi);
    CHECK(g.shape() == (Shape{2, 2}) && near(g, {2, 2, 3, 5}));
    CHECK(near(ops::scatter_add(a, 1, gi, g), {0, 1, 6, 6, 4, 10}));
    CHECK(near(ops::scatter(a, 1, gi, g), {0, 1, 2, 3, 4, 5}));
    ops::scatter_add_(b, 1, gi, g);
    CHECK(near(b, {0, 1, 6, 6, -1, 4}));
    ops::scatter_(b, 1, gi, Tensor::from_data(std::vector<float>{9}, {}));
    CHECK(near(b, {0, 1, 9, 9, -1, 9}));
    // scatter_reduce of gp = g + 1 ({3, 3, 4, 6}): gi's row 0 reaches column 2 twice, row 1
    // columns 0 and 2 once each.
    const Tensor gp = g + 1.0F;
    CHECK(near(ops::scatter_reduce(a, 1, gi, gp, ops::ScatterReduce::Amax), {0, 1, 3, 4, 4, 6}));
    CHECK(near(ops::scatter_reduce(a, 1, gi, gp, ops::ScatterReduce::Prod, false),
               {0, 1, 9, 4, 4, 6}));
    CHECK(near(ops::scatter_reduce(a, 1, gi, gp, ops::ScatterReduce::Mean),
               {0, 1, 8.0 / 3, 3.5, 4, 5.5}));
    const Tensor r = ops::contiguous(a) + 0.0F;
    ops::scatter_reduce_(r, 1, gi, gp, ops::ScatterReduce::Sum, false);
    CHECK(near(r, {0, 1, 6, 4, 4, 6}));
    CHECK_THROWS(ops::scatter_reduce_(r, 1, gi + 1, gp, ops::ScatterReduce::Amin),
                 Status::Index);
    CHECK(near(r, {0, 1, 6, 4, 4, 6}));
    // index_add along dim 1 with idx {2, 0, -1}: columns 2, 0 and 2 again take alpha times
    // source columns 0, 1 and 2.
    const Tensor src = ops::index_select(a, 1, idx);  // {2, 0, 2, 5, 3, 5}
    CHECK(near(ops::index_add(a, 1, idx, src), {0, 1, 6, 6, 4, 15}));
    CHECK(near(ops::index_add(a, 1, idx, src, 0.5), {0, 1, 4, 4.5, 4, 10}));
    const Tensor ia = ops::contiguous(a) + 0.0F;
    ops::index_add_(ia, 0, Tensor::from_data(std::vector<std::int32_t>{1, 1}, {2}), a, -1);
    CHECK(near(ia, {0, 1, 2, 0, -1, -2}));
    CHECK_THROWS(ops::index_add_(ia, 0, idx, a), Status::InvalidShape);
    CHECK_THROWS(ops::index_add_(ia, 1, idx.unsqueeze(0), src), Status::InvalidArgument);
    CHECK_THROWS(ops::index_add(a, 1, idx + 1, src), Status::Index);
    CHECK_THROWS(ops::index_add(ints, 0, idx, src.flatten().narrow(0, 0, 3)), Status::DType);
    CHECK(near(ia, {0, 1, 2, 0, -1, -2}));
    // bincount: a strided view, minlength, Float32 weights stay Float32; the errors.
    const Tensor vals = Tensor::from_data(std::vector<std::int32_t>{3, 9, 0, 9, 3, 9, 1, 9}, {8});
    const Tensor every = vals.slice(0, 0, std::nullopt, 2);
    CHECK(ops::bincount(every).dtype() == DataType::Int64 &&
          near(ops::bincount(every), {1, 1, 0, 2}));
    CHECK(near(ops::bincount(every, std::nullopt, 6), {1, 1, 0, 2, 0, 0}));
    const Tensor wts = Tensor::from_data(std::vector<float>{0.5F, 1, 2, 4}, {4});
    CHECK(ops::bincount(every, wts).dtype() == DataType::Float32 &&
          near(ops::bincount(every, wts), {1, 4, 0, 2.5}));
    CHECK(ops::bincount(every, wts.to_dtype(DataType::Int32)).dtype() == DataType::Float64);
    CHECK_THROWS(ops::bincount(-every), Status::InvalidArgument);
    CHECK_THROWS(ops::bincount(every, std::nullopt, -1), Status::InvalidArgument);
    CHECK_THROWS(ops::bincount(every, a), Status::InvalidShape);
    CHECK_THROWS(ops::bincount(a), Status::InvalidArgument);
    // A broadcast input (value 1 five times, weight 1 broadcast too) and empty inputs.
    const Tensor five = every.narrow(0, 3, 1).expand({5});
    CHECK(near(ops::bincount(five), {0, 5}));
    CHECK(near(ops::bincount(five, wts.narrow(0, 1, 1).expand({5}), 3), {0, 5, 0}));
    const Tensor nothing = Tensor::from_data(std::vector<std::int64_t>{}, {0});
    CHECK(ops::bincount(nothing, std::nullopt, 3).dtype() == DataType::Int64 &&
          near(ops::bincount(nothing, std::nullopt, 3), {0, 0, 0}));
    CHECK(ops::bincount(nothing).numel() == 0);
    // histc: a strided 2-D view, the data's own range, values on the edges, out of range.
    const Tensor hv = Tensor::from_data(std::vector<float>{0, 9, 1, 9, 2, 9, 3, 9, 4, 9}, {5, 2});
    const Tensor hcol = hv.slice(1, 0, 1);  // {0, 1, 2, 3, 4} in a column
    CHECK(ops::histc(hcol, 4, 1, 3).dtype() == DataType::Float32 &&
          near(ops::histc(hcol, 4, 1, 3), {1, 0, 1, 1}));
    CHECK(near(ops::histc(hcol, 2), {2, 3}));
    CHECK(near(ops::histc(hv.narrow(1, 1, 1), 3), {0, 5, 0}));
    CHECK(ops::histc(Tensor::from_data(std::vector<double>{}, {0}), 3).numel() == 3);
    CHECK(near(ops::histc(hcol.narrow(0, 2, 1).expand({2, 3}), 4, 1, 3), {0, 0, 6, 0}));
    CHECK_THROWS(ops::histc(hcol, 0), Status::InvalidArgument);
    CHECK_THROWS(ops::histc(hcol, 4, 3, 1), Status::InvalidArgument);
    CHECK_THROWS(ops::histc(vals, 4), Status::InvalidArgument);
    CHECK_THROWS(ops::histc(Tensor::from_data(std::vector<float>{0, std::numeric_limits<float>::infinity()}, {2}), 4),
                 Status::InvalidArgument);
    CHECK_THROWS(ops::gather(a, 1, idx), Status::InvalidArgument);
    CHECK_THROWS(ops::gather(a, 1, gi + 1), Status::Index);
    CHECK_THROWS(ops::index_select(a, 1, Tensor::from_data(std::vector<std::int64_t>{3}, {1})),
                 Status::Index);
    // More views and pieces: flip, movedim, mT, diagonal, split/chunk/unbind, repeat/tile.
    CHECK(near(a.flip({1}), {2, 1, 0, 5, 4, 3}));
    CHECK(a.flip({0, 1}).data_ptr() != a.data_ptr());  // negative strides from the last element
    CHECK(a.unsqueeze(0).movedim(0, 2).shape() == (Shape{2, 3, 1}));
    CHECK(a.mT().shape() == (Shape{3, 2}));
    CHECK(near(a.diagonal(1), {1, 5}));
    const std::vector<Tensor> parts = a.split(2, 1);
    CHECK(parts.size() == 2 && parts[1].shape() == (Shape{2, 1}) && near(parts[1], {2, 5}));
    CHECK(a.chunk(2, 0).size() == 2 && a.unbind(1).size() == 3 && near(a.unbind(1)[2], {2, 5}));
    CHECK(near(a.repeat({1, 2}), {0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
    CHECK(a.tile({2}).shape() == (Shape{2, 6}));
    CHECK_THROWS(a.repeat({2}), Status::InvalidArgument);
    std::printf("ok    matmul (transposed view, 1-D, batched), cat/stack, where, clamp\n");
}

void in_place_through_views() {
    Tensor t = Tensor::zeros({2, 3});
    Tensor row = t.select(0, 1);
    row += 5;  // through the view: the parent sees it
    CHECK(near(t, {0, 0, 0, 5, 5, 5}));
    row.add_(row3());
    CHECK(near(t, {0, 0, 0, 15, 25, 35}));
    t.select(1, 0).fill_(-1);
    CHECK(near(t, {-1, 0, 0, -1, 25, 35}));
    t.narrow(1, 1, 2).copy_(Tensor::full({2}, 9.0));  // broadcast over the rows
    CHECK(near(t, {-1, 9, 9, -1, 9, 9}));
    t *= 2;
    t -= Tensor::ones({3});
    t /= 2.0;
    CHECK(near(t, {-1.5, 8.5, 8.5, -1.5, 8.5, 8.5}));
    Tensor copy = t;  // a copy shares memory, like a view
    copy.mul_(0).add_(1.5).sub_(0.5).div_(Tensor::full({1}, 2.0));
    CHECK(near(t, {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}));
    CHECK(&(t += t) == &t);
    CHECK(near(t, {1, 1, 1, 1, 1, 1}));
    t.binary_(BinaryOp::Maximum, row3().narrow(0, 0, 1)).binary_(BinaryOp::Sub, 3);
    CHECK(near(t, {7, 7, 7, 7, 7, 7}));
    Tensor ints = Tensor::full({2}, 7.0, DataType::Int32);
    // A float result cannot be stored back in an integer tensor (numpy and PyTorch refuse).
    CHECK_THROWS(ints /= 2, Status::DType);
    CHECK_THROWS(ints += 0.75, Status::DType);
    CHECK(near(ints, {7, 7}));
    ints.binary_(BinaryOp::FloorDivide, 2);
    CHECK(ints.dtype() == DataType::Int32 && near(ints, {3, 3}));
    std::printf("ok    in place: += -= *= /=, add_, fill_, copy_ through views and copies\n");
}

void out_forms() {
    const Tensor a = a23();
    Tensor out = Tensor::empty({2, 3});
    void* const where = out.data_ptr();
    CHECK(ops::add(a, row3(), out).data_ptr() == where);
    CHECK(near(out, {10, 21, 32, 13, 24, 35}));
    ops::unary_into(UnaryOp::Neg, a, out);
    CHECK(near(out, {0, -1, -2, -3, -4, -5}));
    Tensor ints = Tensor::zeros({2, 3}, DataType::Int32);
    ops::div(a, Tensor::full({1}, 2.0), ints);  // converted into out's dtype
    CHECK(ints.dtype() == DataType::Int32 && near(ints, {0, 0, 1, 1, 2, 2}));
    // An input overlapping out is read before anything is written.
    Tensor x = Tensor::arange(1, 5);
    ops::unary_into(UnaryOp::Neg, x.narrow(0, 0, 3), x.narrow(0, 1, 3));
    CHECK(near(x, {1, -1, -2, -3}));
    CHECK_THROWS(ops::add(a, a, ints.narrow(0, 0, 1)), Status::InvalidShape);
    CHECK_THROWS(ops::add(a, Tensor(), out), Status::NullPointer);
    // matmul into out: written in place; a transposed out; out = the left operand itself.
    Tensor mm = Tensor::empty({2, 2});
    void* const mm_where = mm.data_ptr();
    CHECK(ops::matmul(a, a.transpose(0, 1), mm).data_ptr() == mm_where);
    CHECK(near(mm, {5, 14, 14, 50}));
    Tensor mt = Tensor::zeros({2, 2}).transpose(0, 1);
    ops::matmul(a, a.transpose(0, 1), mt);
    CHECK(near(mt, {5, 14, 14, 50}));
    Tensor sq = Tensor::from_data(std::vector<float>{1, 2, 3, 4}, {2, 2});
    ops::matmul(sq, Tensor::from_data(std::vector<float>{0, 1, 1, 0}, {2, 2}), sq);
    CHECK(near(sq, {2, 1, 4, 3}));
    Tensor mm_ints = Tensor::zeros({2, 2}, DataType::Int64);
    ops::matmul(a, a.transpose(0, 1), mm_ints);  // converted into out's dtype
    CHECK(mm_ints.dtype() == DataType::Int64 && near(mm_ints, {5, 14, 14, 50}));
    CHECK_THROWS(ops::matmul(a, a.transpose(0, 1), out), Status::InvalidShape);
    // Reductions into out (at::sum_out): over dims of a transposed view, over all, with
    // keepdim and a converted dtype; a wrong shape is refused and out left as it was.
    Tensor sums = Tensor::empty({2});
    void* const sums_where = sums.data_ptr();
    CHECK(ops::reduce_into(ReduceOp::Sum, a.transpose(0, 1), {0}, sums).data_ptr() == sums_where);
    CHECK(near(sums, {3, 12}));
    Tensor maxes = Tensor::zeros({1, 3}, DataType::Float64);
    ops::reduce_into(ReduceOp::Max, a, {0}, maxes, true);
    CHECK(near(maxes, {3, 4, 5}));
    Tensor var = Tensor::empty({});
    ops::reduce_all_into(ReduceOp::Var, a, var, 0);
    CHECK(near(var, {35.0 / 12.0}));
    Tensor idx = Tensor::zeros({3}, DataType::Int64);
    ops::reduce_into(ReduceOp::ArgMin, a, {0}, idx);
    CHECK(near(idx, {0, 0, 0}));
    Tensor keep = Tensor::full({3}, 9.0);
    CHECK_THROWS(ops::reduce_into(ReduceOp::Sum, a, {1}, keep), Status::InvalidShape);
    CHECK(near(keep, {9, 9, 9}));
    CHECK_THROWS(ops::reduce_all_into(ReduceOp::Sum, a, keep), Status::InvalidShape);
    std::printf("ok    out= forms write into the given tensor\n");
}

void errors() {
    const Tensor a = a23();
    CHECK_THROWS(a + Tensor::zeros({4}), Status::InvalidShape);
    CHECK_THROWS(ops::binary(static_cast<BinaryOp>(99), a, a), Status::InvalidArgument);
    CHECK_THROWS(ops::unary(static_cast<UnaryOp>(99), a), Status::InvalidArgument);
    CHECK_THROWS(ops::reduce(static_cast<ReduceOp>(99), a), Status::InvalidArgument);
    CHECK_THROWS(ops::reduce(ReduceOp::ArgMax, a, {0, 1}), Status::InvalidArgument);
    CHECK_THROWS(ops::sum(a, {2}), Status::Index);
    CHECK_THROWS(ops::softmax(a, -3), Status::Index);
    CHECK_THROWS(ops::matmul(a, a), Status::InvalidShape);
    CHECK_THROWS(ops::cat({}, 0), Status::InvalidArgument);
    CHECK_THROWS(ops::cat({a, Tensor()}, 0), Status::NullPointer);
    CHECK_THROWS(ops::stack({a, a.transpose(0, 1)}), Status::InvalidShape);
    CHECK_THROWS(Tensor() + a, Status::NullPointer);
    CHECK_THROWS(a * Tensor(), Status::NullPointer);
    CHECK_THROWS(-Tensor(), Status::NullPointer);
    CHECK_THROWS(ops::where(Tensor(), a, a), Status::NullPointer);
    CHECK_THROWS(ops::max(Tensor::zeros({0})), Status::InvalidArgument);
    CHECK_THROWS(Tensor::ones({2}, DataType::Bool) - true, Status::DType);
    Tensor t = Tensor::zeros({2, 3});
    CHECK_THROWS(t.select(0, 0) += a, Status::InvalidShape);
    CHECK_THROWS(t.copy_(Tensor::zeros({3, 2})), Status::InvalidShape);
    CHECK_THROWS(Tensor().fill_(1), Status::NullPointer);
    float buf[3] = {1, 2, 3};
    ClikaRT::BlobOptions ro;
    ro.read_only = true;
    Tensor frozen = Tensor::from_blob(buf, {3}, DataType::Float32, ro);
    CHECK_THROWS(frozen += 1, Status::ReadOnly);
    CHECK_THROWS(frozen.fill_(0), Status::ReadOnly);
    CHECK(buf[0] == 1.0F && buf[2] == 3.0F && near(frozen + 1, {2, 3, 4}));
    CHECK(near(t, {0, 0, 0, 0, 0, 0}));
    std::printf("ok    bad input throws ClikaRT::Error with the right status\n");
}

}  // namespace

// softmax/log_softmax of float16 and bfloat16 along either dim of a 3×40 matrix (and of its
// transposed view): the result keeps the dtype and matches a double-precision reference
// computed from the same rounded inputs, within the type's rounding (its last bits).
void half_softmax() {
    for (const DataType dt : {DataType::Float16, DataType::BFloat16}) {
        const double tol = dt == DataType::Float16 ? 1e-3 : 8e-3;
        const Tensor x = (Tensor::arange(0, 120).reshape({3, 40}) * 0.37 - 20).to_dtype(dt);
        for (const bool transposed : {false, true}) {
            const Tensor in = transposed ? x.transpose(0, 1) : x;
            const std::vector<double> v = vals(in);
            const std::int64_t rows = in.shape()[0], cols = in.shape()[1];
            for (const std::int64_t dim : {0, 1}) {
                for (const bool log : {false, true}) {
                    const Tensor r = log ? ops::log_softmax(in, dim) : ops::softmax(in, dim);
                    CHECK(r.dtype() == dt && r.shape() == in.shape());
                    const std::vector<double> got = vals(r);
                    const std::int64_t n = dim == 1 ? cols : rows, m = dim == 1 ? rows : cols;
                    bool ok = true;
                    for (std::int64_t k = 0; k < m; ++k) {
                        auto at = [&](std::int64_t j) { return dim == 1 ? k * cols + j : j * cols + k; };
                        double top = -INFINITY, sum = 0;
                        for (std::int64_t j = 0; j < n; ++j) top = std::fmax(top, v[at(j)]);
                        for (std::int64_t j = 0; j < n; ++j) sum += std::exp(v[at(j)] - top);
                        for (std::int64_t j = 0; j < n; ++j) {
                            const double want = log ? v[at(j)] - top - std::log(sum)
                                                    : std::exp(v[at(j)] - top) / sum;
                            ok = ok && std::fabs(got[at(j)] - want) <= tol * std::fmax(1.0, std::fabs(want));
                        }
                    }
                    CHECK(ok);
                }
            }
        }
    }
    std::printf("ok    ops:: softmax/log_softmax of float16 and bfloat16 along each dim, transposed\n");
}

void run_ops_tests() {
    operators_broadcast_and_promote();
    named_ops();
    half_softmax();
    matmul_join_select();
    in_place_through_views();
    out_forms();
    errors();
}
