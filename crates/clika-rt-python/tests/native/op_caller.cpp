// A small C++ library linked against libclika_rt, loaded by test_custom_ops_native.py with
// ctypes: the C++ side of "one operator registry per process". It calls operators by name
// through ClikaRT::ops (whoever registered them: Python, Rust, C++), and registers one of
// its own for Python to call. Every entry point catches exceptions: nothing throws into
// ctypes.
#include <ClikaRT/clika_rt.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

void put(char* msg, std::size_t cap, const std::string& text) {
    if (msg == nullptr || cap == 0) return;
    const std::size_t n = std::min(cap - 1, text.size());
    std::memcpy(msg, text.data(), n);
    msg[n] = '\0';
}

}  // namespace

// Calls operator `name` on a float32 input of `n` elements that this function owns and
// lends to the runtime (borrowed, not copied), copies the result (n float32) into `out`,
// and reports the input's and the result's data pointers. The result is destroyed before
// returning. Returns 0 on success, 1 on error (message in `msg`), 2 if the borrowed input
// was changed by the call.
extern "C" int op_caller_call_f32(const char* name, const float* in, std::size_t n, float* out,
                                  std::uintptr_t* in_ptr, std::uintptr_t* out_ptr, char* msg,
                                  std::size_t cap) {
    try {
        std::vector<float> mine(in, in + n);
        {
            const ClikaRT::Tensor x = ClikaRT::Tensor::from_blob(
                mine.data(), {static_cast<std::int64_t>(n)}, ClikaRT::DataType::Float32);
            const ClikaRT::Tensor y = ClikaRT::ops::call(name, {x});
            *in_ptr = reinterpret_cast<std::uintptr_t>(mine.data());
            *out_ptr = reinterpret_cast<std::uintptr_t>(y.data_ptr());
            const std::vector<float> v = y.to_vector<float>();
            if (v.size() != n) {
                put(msg, cap, "result has " + std::to_string(v.size()) + " elements, expected " +
                                  std::to_string(n));
                return 1;
            }
            std::copy(v.begin(), v.end(), out);
        }
        return std::equal(mine.begin(), mine.end(), in) ? 0 : 2;
    } catch (const std::exception& e) {
        put(msg, cap, e.what());
        return 1;
    }
}

// Registers "cpp.negate" in libclika_rt: float32 in, float32 out of the same shape, written
// into the pooled output.
extern "C" int op_caller_register_negate(char* msg, std::size_t cap) {
    try {
        ClikaRT::ops::register_op(
            "cpp.negate",
            [](const std::vector<ClikaRT::ops::TensorSpec>& in) {
                if (in.size() != 1 || in[0].dtype != ClikaRT::DataType::Float32)
                    throw ClikaRT::Error(ClikaRT::Status::InvalidArgument,
                                         "cpp.negate takes one float32 tensor");
                return in[0];
            },
            [](const std::vector<ClikaRT::Tensor>& in, ClikaRT::ops::Output& out) {
                const ClikaRT::Tensor x = in[0].contiguous();
                const ClikaRT::Tensor y = out.pooled();
                const auto* src = static_cast<const float*>(x.const_data_ptr());
                auto* dst = static_cast<float*>(y.data_ptr());
                for (std::int64_t i = 0; i < x.numel(); ++i) dst[i] = -src[i];
            });
        return 0;
    } catch (const std::exception& e) {
        put(msg, cap, e.what());
        return 1;
    }
}

// Unregisters `name` in libclika_rt: 1 if it was registered, 0 if not, -1 on error.
extern "C" int op_caller_unregister(const char* name) {
    try {
        return ClikaRT::ops::unregister_op(name) ? 1 : 0;
    } catch (const std::exception&) {
        return -1;
    }
}

// libclika_rt's operator names, one per line, into `msg`.
extern "C" int op_caller_registered(char* msg, std::size_t cap) {
    try {
        std::string all;
        for (const std::string& n : ClikaRT::ops::registered()) all += n + "\n";
        put(msg, cap, all);
        return 0;
    } catch (const std::exception& e) {
        put(msg, cap, e.what());
        return 1;
    }
}
