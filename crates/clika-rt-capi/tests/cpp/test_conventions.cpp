// C++ conventions (issue 20): shapes and strides from any contiguous integer range, typed and
// const from_blob overloads (a const buffer gives a read-only tensor whose writes throw),
// data_ptr<T>() with its dtype and writability checks, accessor<T, N>(), and item<T>() for
// every dtype. Expected values come from index arithmetic over the buffers written here.
#include <ClikaRT/clika_rt.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;

namespace {

// Compile-time checks: what must compile, and what must not.
template <class P, class = void>
struct can_wrap : std::false_type {};
template <class P>
struct can_wrap<P, std::void_t<decltype(Tensor::from_blob(std::declval<P>(), Shape{1}))>>
    : std::true_type {};
static_assert(can_wrap<float*>::value, "from_blob(float*, shape) infers Float32");
static_assert(can_wrap<const float*>::value, "from_blob(const float*, shape) needs no const_cast");
static_assert(can_wrap<const std::int64_t*>::value, "const int64 buffers wrap");
static_assert(!can_wrap<const char*>::value, "char has no dtype: no typed overload");
static_assert(!can_wrap<void*>::value, "untyped memory needs a DataType");
static_assert(std::is_same<decltype(std::declval<const Tensor&>().data_ptr<const float>()),
                           const float*>::value,
              "data_ptr<const T>() is a const pointer");
static_assert(
    !std::is_assignable<decltype(*std::declval<const Tensor&>().data_ptr<const float>()),
                        float>::value,
    "a const element cannot be written");
static_assert(!std::is_assignable<
                  decltype(std::declval<ClikaRT::TensorAccessor<const float, 2>>()[0][0]),
                  float>::value,
              "a const accessor cannot be written");
static_assert(std::is_same<decltype(std::declval<ClikaRT::TensorAccessor<float, 2>>()[0][0]),
                           float&>::value,
              "a mutable accessor yields references");
static_assert(!std::is_convertible<std::vector<char>, Shape>::value, "characters are not sizes");

void shapes_from_any_integer_range() {
    std::vector<float> buf(6);
    const std::vector<std::size_t> vs{2, 3};
    const std::array<int, 2> arr{2, 3};
    const std::array<std::uint32_t, 2> strides_u{1, 2};
    const int c_array[2] = {2, 3};
    const std::size_t rows = 2;
    const std::size_t cols = 3;
    const Shape want{2, 3};
    CHECK(Tensor::from_blob(buf.data(), vs).shape() == want);
    CHECK(Tensor::from_blob(buf.data(), arr).shape() == want);
    CHECK(Tensor::from_blob(buf.data(), c_array).shape() == want);
    CHECK(Tensor::from_blob(buf.data(), {rows, cols}).shape() == want);
    CHECK(Tensor::from_blob(buf.data(), {2, 3}).shape() == want);
    CHECK(Tensor::from_blob(buf.data(), std::vector<std::int64_t>{2, 3}).shape() == want);
    CHECK(Tensor::from_blob(static_cast<void*>(buf.data()), vs, DataType::Float32).shape() ==
          want);
    CHECK(Tensor::zeros(vs).shape() == want && Tensor::ones(arr).numel() == 6);
    CHECK(Tensor::zeros({rows, cols}).reshape(std::array<long, 1>{6}).shape() == Shape{6});
    // Strides from a range too: a column-major (transposed) view of the buffer.
    for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(i);
    const Tensor t = Tensor::from_blob(buf.data(), vs, strides_u);
    CHECK(t.strides() == (Shape{1, 2}) &&
          t.to_vector<float>() == (std::vector<float>{0, 2, 4, 1, 3, 5}));
#if __cplusplus >= 202002L
    const std::span<const std::size_t> sp(vs);
    CHECK(Tensor::from_blob(buf.data(), sp).shape() == want);
#endif
    const std::vector<std::uint64_t> huge{std::uint64_t{1} << 63U};
    CHECK_THROWS(Tensor::zeros(huge), Status::InvalidShape);
    std::printf("ok    shapes and strides from vector<size_t>, array, C array, span, brace lists\n");
}

template <class T>
void typed_from_blob_infers(DataType want) {
    T buf[4] = {T(1), T(0), T(1), T(1)};
    const Tensor t = Tensor::from_blob(buf, {2, 2});
    CHECK(t.dtype() == want && t.data_ptr<T>() == buf && t.is_writable());
    const Tensor c = Tensor::from_blob(static_cast<const T*>(buf), {4});
    CHECK(c.dtype() == want && c.data_ptr<const T>() == buf && !c.is_writable());
}

void typed_and_const_from_blob() {
    typed_from_blob_infers<float>(DataType::Float32);
    typed_from_blob_infers<double>(DataType::Float64);
    typed_from_blob_infers<std::int8_t>(DataType::Int8);
    typed_from_blob_infers<std::int16_t>(DataType::Int16);
    typed_from_blob_infers<std::int32_t>(DataType::Int32);
    typed_from_blob_infers<std::int64_t>(DataType::Int64);
    typed_from_blob_infers<std::uint8_t>(DataType::UInt8);
    typed_from_blob_infers<bool>(DataType::Bool);

    // A const buffer: reads work, every write throws, the buffer is untouched.
    const float weights[6] = {1, 2, 3, 4, 5, 6};
    Tensor w = Tensor::from_blob(weights, {2, 3});
    CHECK(!w.is_writable() && w.const_data_ptr() == weights);
    CHECK(w.sum().item<double>() == 21.0);
    CHECK_THROWS(w.fill_(0), Status::ReadOnly);
    CHECK_THROWS(w += 1, Status::ReadOnly);
    CHECK_THROWS(w.copy_(Tensor::zeros({2, 3})), Status::ReadOnly);
    CHECK_THROWS(w.select(0, 1).mul_(2), Status::ReadOnly);
    CHECK_THROWS(w.data_ptr<float>(), Status::ReadOnly);
    CHECK_THROWS((w.accessor<float, 2>()), Status::ReadOnly);
    CHECK(w.data_ptr<const float>() == weights);
    CHECK((w.accessor<const float, 2>()[1][2] == 6.0F));
    const Tensor strided = Tensor::from_blob(weights, {3, 2}, {1, 3});
    CHECK(!strided.is_writable() && (strided.accessor<const float, 2>()[2][1] == 6.0F));
    const std::uint16_t half_bits[2] = {0x3C00, 0x4000};  // 1.0 and 2.0 as IEEE half
    const Tensor h =
        Tensor::from_blob(static_cast<const void*>(half_bits), {2}, DataType::Float16);
    CHECK(!h.is_writable() && h.sum().item<float>() == 3.0F);
    CHECK_THROWS(Tensor(h).fill_(1), Status::ReadOnly);
    CHECK(weights[0] == 1 && weights[5] == 6 && half_bits[0] == 0x3C00);
    // Results of ops on read-only inputs are fresh, writable tensors.
    const Tensor r = w * 2;
    CHECK(r.is_writable() && r.data_ptr<float>()[5] == 12.0F);
    CHECK_THROWS(w.data_ptr<double>(), Status::DType);
    std::printf(
        "ok    typed from_blob infers the dtype; const buffers are read-only and refuse writes\n");
}

void accessors_on_any_strides() {
    std::vector<float> buf(12);
    for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<float>(i);
    const Tensor t = Tensor::from_blob(buf.data(), {3, 4});
    const Tensor tt = t.transpose(0, 1);  // 4 x 3, strides (1, 4)
    const auto a = tt.accessor<float, 2>();
    bool all = a.size(0) == 4 && a.size(1) == 3 && a.stride(0) == 1 && a.stride(1) == 4;
    for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t j = 0; j < 3; ++j)
            all = all && a[i][j] == static_cast<float>(j * 4 + i);
    CHECK(all);
    a[3][2] = -1.0F;  // element (2, 3) of the buffer
    CHECK(buf[11] == -1.0F && a.at(3, 2) == -1.0F);
    CHECK_THROWS(a.at(4, 0), Status::Index);
    CHECK_THROWS(a.at(0, -1), Status::Index);
    CHECK_THROWS((t.accessor<float, 3>()), Status::InvalidShape);
    CHECK_THROWS((t.accessor<double, 2>()), Status::DType);
    const auto row = t.select(0, 1).accessor<float, 1>();
    CHECK(row[0] == 4.0F && row[3] == 7.0F);
    std::printf("ok    accessor<T, N>() reads and writes strided views and checks at()\n");
}

void item_for_every_dtype() {
    const DataType all[] = {DataType::Float32, DataType::Float64, DataType::Float16,
                            DataType::BFloat16, DataType::Int8,    DataType::Int16,
                            DataType::Int32,   DataType::Int64,   DataType::UInt8};
    bool ok = true;
    for (const DataType d : all) {
        const Tensor one = Tensor::full({1, 1}, 3.0, d);
        const bool this_ok = one.item<double>() == 3.0 && one.item<float>() == 3.0F &&
                             one.item<int>() == 3 && one.item<std::int64_t>() == 3 &&
                             one.item<std::uint8_t>() == 3 && one.item<bool>();
        if (!this_ok) std::printf("      item<T>() of %s\n", ClikaRT::dtype_name(d));
        ok = ok && this_ok;
    }
    const Tensor b = Tensor::full({1}, 1.0, DataType::Bool);
    ok = ok && b.item<bool>() && b.item<int>() == 1 && b.item<double>() == 1.0;
    CHECK(ok);
    CHECK_THROWS(Tensor::zeros({2}).item<float>(), Status::InvalidArgument);
    std::printf("ok    item<T>() converts from every dtype\n");
}

void nbytes_and_element_size() {
    // numpy's and PyTorch's rule: a view counts the elements it shows (a strided view fewer
    // than its storage, a broadcast view more), empty tensors none.
    const Tensor t = Tensor::zeros({3, 4}, DataType::Float64);
    const Tensor strided = t.slice(1, 0, 4, 2);
    const Tensor wide = Tensor::zeros({1, 4}, DataType::Int16).expand({5, 4});
    CHECK(t.nbytes() == 96 && t.element_size() == 8);
    CHECK(strided.nbytes() == 48 && strided.element_size() == 8);
    CHECK(wide.nbytes() == 40 && wide.element_size() == 2);
    CHECK(Tensor::zeros({0, 3}, DataType::UInt8).nbytes() == 0);
    CHECK(Tensor::zeros({0}, DataType::BFloat16).element_size() == 2);
    CHECK(Tensor::zeros({}, DataType::Int64).nbytes() == 8);
    std::printf("ok    nbytes() and element_size() count the elements a view shows\n");
}

}  // namespace

void run_conventions_tests() {
    shapes_from_any_integer_range();
    typed_and_const_from_blob();
    accessors_on_any_strides();
    item_for_every_dtype();
    nbytes_and_element_size();
}
