// Tests of the unsigned dtypes wider than a byte through the C++ header: a UInt16 tensor
// borrowed (from_blob) over a std::vector<uint16_t>, wrapping addition, a sum that widens
// to Int64, promotion with signed types, and a UInt64 value above INT64_MAX kept exactly.
#include <ClikaRT/clika_rt.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

namespace {

void uint16_from_blob_add_and_sum() {
    std::vector<std::uint16_t> a{65535, 1, 40000, 7};
    std::vector<std::uint16_t> b{1, 2, 30000, 8};
    const Tensor ta = Tensor::from_blob(a.data(), {2, 2}, DataType::UInt16);
    const Tensor tb = Tensor::from_blob(b.data(), {2, 2}, DataType::UInt16);
    CHECK(ta.dtype() == DataType::UInt16);
    CHECK(ta.data_ptr<std::uint16_t>() == a.data());  // borrowed, not copied
    const Tensor s = ta + tb;
    CHECK(s.dtype() == DataType::UInt16);
    std::vector<std::uint16_t> want;
    for (std::size_t i = 0; i < a.size(); ++i)
        want.push_back(static_cast<std::uint16_t>(a[i] + b[i]));  // wraps modulo 2^16
    CHECK(s.to_vector<std::uint16_t>() == want);
    CHECK(want[0] == 0 && want[2] == 4464);
    // The sum widens to Int64, as PyTorch's does: no wrap at 2^16.
    const Tensor total = ops::sum(ta);
    CHECK(total.dtype() == DataType::Int64);
    CHECK(total.item<std::int64_t>() == 65535 + 1 + 40000 + 7);
    // A transposed view sums its columns the same way.
    const Tensor cols = ops::sum(ta.mT(), {1});
    CHECK((cols.to_vector<std::int64_t>() == std::vector<std::int64_t>{65535 + 40000, 1 + 7}));
    // With a signed 16-bit tensor: Int32 holds both.
    const Tensor neg = Tensor::from_data(std::vector<std::int16_t>{-1, -1, -1, -1}, {2, 2});
    const Tensor mixed = ta + neg;
    CHECK(mixed.dtype() == DataType::Int32);
    CHECK((mixed.to_vector<std::int32_t>() == std::vector<std::int32_t>{65534, 0, 39999, 6}));
    CHECK(std::string(ClikaRT::dtype_name(DataType::UInt16)) == "UInt16");
    std::printf("ok    uint16 from_blob, add, sum\n");
}

void uint64_above_int64_max() {
    const std::uint64_t big = std::numeric_limits<std::uint64_t>::max() - 1;
    std::vector<std::uint64_t> v{big, 1};
    const Tensor t = Tensor::from_blob(v.data(), {2}, DataType::UInt64);
    CHECK(ops::max(t).item<std::uint64_t>() == big);
    CHECK(ops::argmax(t).item<std::int64_t>() == 0);
    const Tensor plus = t + 1;
    CHECK((plus.to_vector<std::uint64_t>() ==
           std::vector<std::uint64_t>{big + 1, 2}));
    CHECK(t.to_dtype(DataType::Float64).to_vector<double>()[0] > 1.8e19);
    CHECK(t.to_string().find("18446744073709551614") != std::string::npos);
    std::printf("ok    uint64 above INT64_MAX\n");
}

}  // namespace

void run_uint_tests() {
    uint16_from_blob_add_and_sum();
    uint64_above_int64_max();
}
