// The second translation unit: including <ClikaRT/clika_rt.h> here as well proves the header
// is ODR-safe (everything inline), and these checks run through it.
#include <ClikaRT/clika_rt.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Tensor;

void run_second_tu_tests() {
    // A capturing, move-only lambda deleter (std::function could not hold it).
    auto count = std::make_shared<int>(0);
    auto owned = std::make_unique<std::string>("arena-7");
    auto* buf = new std::int32_t[6]{1, 2, 3, 4, 5, 6};
    {
        Tensor t = Tensor::from_blob(
            buf, {2, 3}, DataType::Int32, {},
            [count, tag = std::move(owned)](void* p) {
                if (*tag == "arena-7") ++*count;
                delete[] static_cast<std::int32_t*>(p);
            });
        CHECK(t.sum().item<std::int64_t>() == 21);
        CHECK(t.transpose(0, 1).contiguous().to_vector<std::int32_t>() ==
              (std::vector<std::int32_t>{1, 4, 2, 5, 3, 6}));
        CHECK(*count == 0);
    }
    CHECK(*count == 1);
    CHECK(count.use_count() == 1);  // the runtime freed the callable with its captures
    std::printf("ok    [tu2] capturing move-only lambda deleter runs once, captures freed\n");

    // The last reference dropped on another thread: the deleter runs there, once.
    std::thread::id deleted_on;
    int calls = 0;
    {
        auto* floats = new float[4]{1.0F, 2.0F, 3.0F, 4.0F};
        Tensor t = Tensor::from_blob(floats, {4}, DataType::Float32, {}, [&](void* p) {
            ++calls;
            deleted_on = std::this_thread::get_id();
            delete[] static_cast<float*>(p);
        });
        std::thread worker([moved = std::move(t)]() mutable {
            CHECK(moved.sum().item<float>() == 10.0F);
            moved = Tensor();  // the last reference, dropped on this thread
        });
        const std::thread::id worker_id = worker.get_id();
        worker.join();
        CHECK(deleted_on == worker_id);
    }
    CHECK(calls == 1);
    std::printf("ok    [tu2] the deleter runs once, on the thread that drops the last reference\n");

    // The same header types work across translation units.
    const Tensor z = Tensor::zeros({3}, DataType::Float64);
    CHECK(z.to_string() == "Tensor(shape=[3], dtype=Float64, device=CPU, numel=3, data=[0, 0, 0])");
    std::printf("ok    [tu2] header included from a second translation unit\n");
}
