// Custom operators and mapped files through the C++ API: operators registered from C++ and
// from Rust called by name, both kernel kinds (pooled output, adopted output whose deleter
// runs exactly once), read-only borrowed inputs, errors; load_safetensors and from_file.
#include <ClikaRT/clika_rt.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "check.h"

// Test-only exports of the library (not in the public header).
extern "C" crt_status crt_testing_register_rust_iota(crt_error** err);
extern "C" std::uint64_t crt_testing_rust_iota_released();

namespace {

using ClikaRT::DataType;
using ClikaRT::Status;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

int g_cpp_released = 0;

ops::TensorSpec same_spec(const std::vector<ops::TensorSpec>& in) {
    if (in.size() != 1) throw ClikaRT::Error(Status::InvalidArgument, "expected one input");
    return in[0];
}

void pooled_kernel_from_cpp() {
    ops::register_op("cpp.triple", same_spec, [](const std::vector<Tensor>& in, ops::Output& out) {
        const std::vector<float> x = in[0].contiguous().to_vector<float>();
        Tensor y = out.pooled();
        float* p = static_cast<float*>(y.data_ptr());
        for (std::size_t i = 0; i < x.size(); ++i) p[i] = 3.0F * x[i];
    });
    const Tensor x = Tensor::from_data(std::vector<float>{1, 2, 3}, {3});
    const Tensor y = ops::call("cpp.triple", {x});
    CHECK((y.to_vector<float>() == std::vector<float>{3, 6, 9}));
}

void adopted_output_released_once() {
    ops::register_op("cpp.adopt", same_spec, [](const std::vector<Tensor>& in, ops::Output& out) {
        const std::int64_t n = in[0].numel();
        float* buf = new float[static_cast<std::size_t>(n)];
        for (std::int64_t i = 0; i < n; ++i) buf[i] = static_cast<float>(10 * i);
        out.set(Tensor::from_blob(buf, {n}, DataType::Float32, {}, [](void* p) {
            delete[] static_cast<float*>(p);
            ++g_cpp_released;
        }));
    });
    {
        const Tensor y = ops::call("cpp.adopt", {Tensor::zeros({4})});
        const Tensor view = y.narrow(0, 1, 2);
        CHECK((view.to_vector<float>() == std::vector<float>{10, 20}));
        CHECK(g_cpp_released == 0);
    }
    CHECK(g_cpp_released == 1);
}

void rust_registered_operator() {
    crt_error* err = nullptr;
    CHECK(crt_testing_register_rust_iota(&err) == CRT_STATUS_OK);
    crt_error_free(err);
    const std::uint64_t before = crt_testing_rust_iota_released();
    {
        const Tensor y = ops::call("rust.iota", {Tensor::zeros({2, 2})});
        CHECK((y.shape() == ClikaRT::Shape{2, 2}));
        CHECK((y.to_vector<float>() == std::vector<float>{0, 1, 2, 3}));
    }
    CHECK(crt_testing_rust_iota_released() == before + 1);
}

void borrowed_inputs_are_never_written() {
    bool refused = false;
    ops::register_op("cpp.try_write", same_spec,
                     [&refused](const std::vector<Tensor>& in, ops::Output& out) {
                         Tensor alias = in[0];
                         try {
                             alias.fill_(9.0);
                         } catch (const ClikaRT::Error& e) {
                             refused = e.status() == Status::ReadOnly;
                         }
                         out.set(in[0]);
                     });
    std::vector<float> buf{1, 2, 3};
    {
        const Tensor x = Tensor::from_blob(buf.data(), {3}, DataType::Float32);
        const Tensor y = ops::call("cpp.try_write", {x});
        CHECK(y.data_ptr() == buf.data());
    }
    CHECK(refused);
    CHECK((buf == std::vector<float>{1, 2, 3}));
    CHECK(ops::unregister_op("cpp.try_write"));
    CHECK(!ops::unregister_op("cpp.try_write"));
}

void operator_errors() {
    ops::register_op(
        "cpp.throws", same_spec, [](const std::vector<Tensor>&, ops::Output&) {
            throw ClikaRT::Error(Status::DType, "this kernel only takes int8");
        });
    ops::register_op("cpp.throws_std", same_spec, [](const std::vector<Tensor>&, ops::Output&) {
        throw std::runtime_error("plain exception");
    });
    const Tensor x = Tensor::zeros({2});
    CHECK_THROWS(ops::call("cpp.throws", {x}), Status::DType);
    CHECK_THROWS(ops::call("cpp.throws_std", {x}), Status::Internal);
    CHECK_THROWS(ops::call("cpp.throws", {x, x}), Status::InvalidArgument);  // the rule refuses
    CHECK_THROWS(ops::call("cpp.nope", {x}), Status::InvalidArgument);
    CHECK_THROWS(ops::register_op("cpp.throws", same_spec, nullptr), Status::InvalidArgument);
    try {
        static_cast<void>(ops::call("cpp.throws", {x}));
    } catch (const ClikaRT::Error& e) {
        CHECK(std::strstr(e.what(), "only takes int8") != nullptr);
    }
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void mapped_files() {
    const std::string path = "/tmp/clika_rt_cpp_test.safetensors";
    const std::string truncated = "/tmp/clika_rt_cpp_test_truncated.safetensors";
    std::string header =
        R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"b":{"dtype":"I64","shape":[2],"data_offsets":[16,32]}})";
    while (header.size() % 8 != 0) header += ' ';
    std::string file(8, '\0');
    const std::uint64_t n = header.size();
    std::memcpy(&file[0], &n, 8);
    file += header;
    const float w[4] = {1, 2, 3, 4};
    const std::int64_t b[2] = {-5, 6};
    file.append(reinterpret_cast<const char*>(w), sizeof w);
    file.append(reinterpret_cast<const char*>(b), sizeof b);
    write_bytes(path, file);

    Tensor kept;
    {
        const auto loaded = ClikaRT::load_safetensors(path);
        CHECK(loaded.size() == 2);
        CHECK(loaded[0].first == "w" && loaded[1].first == "b");
        CHECK((loaded[0].second.to_vector<float>() == std::vector<float>{1, 2, 3, 4}));
        kept = loaded[1].second;
    }
    CHECK((kept.to_vector<std::int64_t>() == std::vector<std::int64_t>{-5, 6}));
    CHECK_THROWS(kept.fill_(0), Status::ReadOnly);

    const Tensor raw = Tensor::from_file(path, DataType::Float32, {4}, 8 + n);
    CHECK((raw.to_vector<float>() == std::vector<float>{1, 2, 3, 4}));
    CHECK_THROWS(Tensor::from_file(path, DataType::Float32, {100}, 0), Status::InvalidShape);
    CHECK_THROWS(ClikaRT::load_safetensors("/nonexistent/x.safetensors"), Status::InvalidArgument);
    write_bytes(truncated, file.substr(0, file.size() - 4));  // a clear error, no crash
    CHECK_THROWS(ClikaRT::load_safetensors(truncated), Status::InvalidArgument);
    std::remove(truncated.c_str());
}

}  // namespace

void run_custom_ops_tests() {
    pooled_kernel_from_cpp();
    adopted_output_released_once();
    rust_registered_operator();
    borrowed_inputs_are_never_written();
    operator_errors();
    mapped_files();
}
