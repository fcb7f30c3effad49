// Chapter 02 — ops: elementwise with broadcasting, type promotion, reductions, matmul.
//
// Every op reads its inputs in place whatever their strides (a transposed or broadcast input
// is never copied first) and writes a fresh result from the runtime's memory pool.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

static void show(const char* what, const Tensor& t) {
    std::printf("%s = %s\n", what, t.to_string().c_str());
}

int main() {
    const Tensor x = Tensor::from_data(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
    show("x", x);

    std::printf("-- elementwise, broadcasting like numpy\n");
    const Tensor row = Tensor::from_data(std::vector<float>{10, 20, 30}, {3});
    const Tensor col = Tensor::from_data(std::vector<float>{100, 200}, {2, 1});
    show("x + [10, 20, 30]", x + row);
    show("x + [[100], [200]]", x + col);
    show("x * 2 - 1", x * 2.0 - 1.0);
    show("sigmoid(x - 3)", ops::sigmoid(x - 3.0));
    show("x > 3", x > 3.0);
    show("where(x > 3, x, 0)", ops::where(x > 3.0, x, Tensor::zeros({})));

    std::printf("-- type promotion (numpy/PyTorch rules; numbers are weak scalars)\n");
    const Tensor small = Tensor::from_data(std::vector<std::int8_t>{1, 2, 3}, {3});
    show("int8 + 1", small + 1);
    show("int8 / 2", small / 2);
    show("int8 + int32", small + Tensor::from_data(std::vector<std::int32_t>{1000}, {1}));
    show("to Float16", x.to_dtype(DataType::Float16));

    std::printf("-- reductions\n");
    std::printf("sum = %g\n", x.sum().item<double>());
    show("sum over dim 0", ops::sum(x, {0}));
    show("mean over dim 1, keepdim", ops::mean(x, {1}, true));
    std::printf("max = %g, argmax over dim 1 = %s\n", ops::max(x).item<double>(),
                ops::argmax(x, 1).to_string().c_str());
    show("std over dim 0", ops::std(x, {0}));
    show("softmax(x, dim 1) row sums", ops::sum(ops::softmax(x, 1), {1}));

    std::printf("-- matmul, cat, stack\n");
    const Tensor w = Tensor::from_data(std::vector<float>{1, 0, 0, 1, 1, -1}, {2, 3});
    // x @ w^T reads the transposed view in place.
    show("x @ w.t()", ops::matmul(x, w.transpose(0, 1)));
    const Tensor batch = ops::stack({x, x * 10.0}, 0);
    const auto s = batch.shape();
    std::printf("stack([x, 10x]) shape [%lld, %lld, %lld], batched @ w.t() = %s\n",
                static_cast<long long>(s[0]), static_cast<long long>(s[1]),
                static_cast<long long>(s[2]), ops::matmul(batch, w.transpose(0, 1)).to_string().c_str());
    show("cat([x, x], dim 1)", ops::cat({x, x}, 1));
    return 0;
}
