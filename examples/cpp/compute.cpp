// Compute from C++: a tiny linear layer + softmax over memory the application owns, weak
// scalars, elementwise comparisons, and an in-place update through a view.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

int main() {
    std::vector<float> x_buf{1, 2, 3, 4, 5, 6};  // a batch of 2 inputs with 3 features
    std::vector<float> w_buf{1, 0, 0, 1, 1, -1};  // 2 outputs x 3 features (row-major)
    const Tensor x = Tensor::from_blob(x_buf.data(), {2, 3}, DataType::Float32);
    const Tensor w = Tensor::from_blob(w_buf.data(), {2, 3}, DataType::Float32);
    const Tensor bias = Tensor::from_data(std::vector<float>{0.5F, -0.5F}, {2});

    // x @ w^T reads the transposed view in place; the bias broadcasts over the batch.
    const Tensor logits = ops::matmul(x, w.transpose(0, 1)) + bias;
    std::printf("logits: %s\n", logits.to_string().c_str());
    std::printf("argmax: %s\n", ops::argmax(logits, 1).to_string().c_str());
    std::printf("softmax row sums: %s\n", ops::sum(ops::softmax(logits, -1), {1}).to_string().c_str());

    // Numbers are weak scalars: an Int8 tensor + 1 stays Int8, * 0.5f gives Float32.
    const Tensor small = Tensor::from_data(std::vector<std::int8_t>{1, 2, 3}, {3});
    std::printf("dtypes: %s %s\n", ClikaRT::dtype_name((small + 1).dtype()),
                ClikaRT::dtype_name((small * 0.5F).dtype()));
    std::printf("x > 3: %s\n", (x > 3).to_string().c_str());
    std::printf("mean, std over the batch: %s %s\n", ops::mean(x, {0}).to_string().c_str(),
                ops::std(x, {0}).to_string().c_str());

    // In place through a view of the application's buffer: x[1] = relu(x[1] - 5) * 10.
    Tensor second = x.select(0, 1);
    second.copy_(ops::relu(second - 5)) *= 10;
    std::printf("x_buf after the update: %g %g %g %g %g %g\n", x_buf[0], x_buf[1], x_buf[2],
                x_buf[3], x_buf[4], x_buf[5]);
    return 0;
}
