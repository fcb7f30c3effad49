// Chapter 05 — a custom operator: your kernel, called by name like a built-in op.
//
// An operator is a *rule* (the output's shape and dtype, from the inputs') and a *kernel*.
// The kernel reads its inputs in place (read-only: a borrowed input cannot be written) and
// produces the output either in memory the runtime allocated from its pool, or in a buffer
// it allocated itself and hands back with from_blob and a deleter — the way the
// custom-operator guide (docs/custom-operators.md) returns a hand-written kernel's output.
// Rules and kernels are any callables; an exception becomes the call's ClikaRT::Error.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

static int released = 0;

static std::vector<std::string> demo_ops() {
    std::vector<std::string> names;
    for (const std::string& n : ops::registered())
        if (n.rfind("demo.", 0) == 0) names.push_back(n);
    return names;
}

int main() {
    // One Float32 input; the output has its shape and dtype.
    const auto one_f32 = [](const std::vector<ops::TensorSpec>& in) {
        if (in.size() != 1 || in[0].dtype != DataType::Float32)
            throw ClikaRT::Error(ClikaRT::Status::InvalidArgument, "takes one Float32 tensor");
        return in[0];
    };
    std::printf("-- register: a rule and a kernel under a name\n");
    // softsign(x) = x / (1 + |x|), written into pooled memory.
    ops::register_op("demo.softsign", one_f32, [](const std::vector<Tensor>& in, ops::Output& out) {
        const std::vector<float> x = in[0].contiguous().to_vector<float>();
        float* y = static_cast<float*>(out.pooled().data_ptr());
        for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] / (1 + std::fabs(x[i]));
    });
    // The running sum, in a buffer the kernel allocates and hands over with a deleter.
    ops::register_op("demo.cumsum", one_f32, [](const std::vector<Tensor>& in, ops::Output& out) {
        const std::vector<float> x = in[0].contiguous().to_vector<float>();
        float* sums = new float[x.size()];
        float acc = 0;
        for (std::size_t i = 0; i < x.size(); ++i) sums[i] = acc += x[i];
        out.set(Tensor::from_blob(sums, {static_cast<std::int64_t>(x.size())}, DataType::Float32,
                                  {}, [](void* p) {
                                      ++released;
                                      delete[] static_cast<float*>(p);
                                  }));
    });
    std::string names;
    for (const std::string& n : demo_ops()) names += (names.empty() ? "" : ", ") + n;
    std::printf("registered: %s\n", names.c_str());

    std::printf("-- call by name\n");
    std::vector<float> frame{-1, 0, 3, 1};
    const std::vector<float> before = frame;
    {
        const Tensor x = Tensor::from_blob(frame.data(), {4}, DataType::Float32);
        std::printf("softsign(x) = %s\n", ops::call("demo.softsign", {x}).to_string().c_str());
        std::optional<Tensor> c = ops::call("demo.cumsum", {x});
        std::printf("cumsum(x) = %s (adopted: the kernel's own buffer)\n", c->to_string().c_str());
        std::optional<Tensor> tail = c->narrow(0, 2, 2);
        c.reset();
        std::printf("output dropped, a view lives: deleter calls = %d\n", released);
        tail.reset();
        std::printf("last view dropped: deleter calls = %d\n", released);
    }
    std::printf("the borrowed input is unchanged: %s\n", frame == before ? "yes" : "no");

    std::printf("-- errors are ordinary errors\n");
    const Tensor t = Tensor::zeros({2});
    try {
        static_cast<void>(ops::call("demo.softsign", {t, t}));
        std::printf("unexpected: two inputs accepted\n");
    } catch (const ClikaRT::Error&) {
        std::printf("two inputs: refused by the rule\n");
    }
    try {
        static_cast<void>(ops::call("demo.nope", {t}));
        std::printf("unexpected: an unknown name ran\n");
    } catch (const ClikaRT::Error&) {
        std::printf("unknown name: refused\n");
    }
    ops::unregister_op("demo.softsign");
    ops::unregister_op("demo.cumsum");
    std::printf("unregistered: %zu left\n", demo_ops().size());
    return 0;
}
