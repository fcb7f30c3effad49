// Chapter 01 — tensors: create them, inspect them, take views, print them.
//
// A tensor is a shape and strides (in elements) over a block of storage. Views (transpose,
// select, narrow, reshape) make a new shape and strides over the *same* storage: nothing is
// copied until you ask for it with contiguous().
#include <cstdio>
#include <string>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Tensor;

static std::string dims(const std::vector<std::int64_t>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}
static const char* yes(bool b) { return b ? "yes" : "no"; }

int main() {
    std::printf("-- create\n");
    const Tensor a = Tensor::arange(0, 6, 1, DataType::Float32).reshape({2, 3});
    std::printf("a = arange(6).reshape(2, 3): %s\n", a.to_string().c_str());
    std::printf("zeros([2, 2], Int32): %s\n", Tensor::zeros({2, 2}, DataType::Int32).to_string().c_str());
    std::printf("full([3], 0.5): %s\n", Tensor::full({3}, 0.5).to_string().c_str());
    // from_data copies your values into memory the runtime owns.
    const Tensor d = Tensor::from_data(std::vector<double>{1.5, -2.0, 3.25}, {3});
    std::printf("from_data([1.5, -2, 3.25]): %s\n", d.to_string().c_str());

    std::printf("-- inspect\n");
    std::printf("a: shape %s, strides %s, numel %lld, contiguous %s\n", dims(a.shape()).c_str(),
                dims(a.strides()).c_str(), static_cast<long long>(a.numel()),
                yes(a.is_contiguous()));

    std::printf("-- views share memory\n");
    const Tensor at = a.transpose(0, 1);
    std::printf("a.t(): %s\n", at.to_string().c_str());
    std::printf("a.t(): shape %s, strides %s, contiguous %s, same memory as a %s\n",
                dims(at.shape()).c_str(), dims(at.strides()).c_str(), yes(at.is_contiguous()),
                yes(at.data_ptr() == a.data_ptr()));
    std::printf("a[1] (select): %s\n", a.select(0, 1).to_string().c_str());
    std::printf("a[:, 1:] (narrow): %s\n", a.narrow(1, 1, 2).to_string().c_str());
    std::printf("a.reshape(3, 2): %s\n", a.reshape({3, 2}).to_string().c_str());

    std::printf("-- contiguous() copies only when it must\n");
    const Tensor c1 = a.contiguous();
    const Tensor c2 = at.contiguous();
    std::printf("a.contiguous() is a: %s\n", yes(c1.data_ptr() == a.data_ptr()));
    std::printf("a.t().contiguous() is a copy: %s, strides %s: %s\n",
                yes(c2.data_ptr() != a.data_ptr()), dims(c2.strides()).c_str(),
                c2.to_string().c_str());

    std::printf("-- scalars and long tensors\n");
    std::printf("a.sum().item() = %g\n", a.sum().item<double>());
    std::printf("arange(100): %s\n",
                Tensor::arange(0, 100, 1, DataType::Int64).to_string().c_str());
    return 0;
}
