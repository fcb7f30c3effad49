// DLPack in C++ (issue 20): Tensor::from_dlpack over a producer written here (its memory,
// strides, read-only flag and deleter), to_dlpack / to_dlpack_legacy read by a consumer
// written here, round trips that keep the data pointer, refusals that take nothing, and
// Tensor::format (the nested print form). Under ASan and valgrind a deleter that runs twice
// or never shows as an error or a leak.
#include "dlpack_structs.h"

#include <ClikaRT/clika_rt.h>

#include <cstdint>
#include <string>
#include <vector>

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;

namespace {

int deleted = 0;

// A producer's tensor: rows x cols floats 0, 1, 2, ... row-major, exposed as given by
// `transposed` (then cols x rows, column strides), with the managed struct it hands out.
struct Producer {
    std::vector<float> data;
    std::int64_t shape[2];
    std::int64_t strides[2];
    DLManagedTensorVersioned managed{};

    Producer(std::int64_t rows, std::int64_t cols, bool transposed)
        : data(static_cast<std::size_t>(rows * cols)) {
        for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i);
        shape[0] = transposed ? cols : rows;
        shape[1] = transposed ? rows : cols;
        strides[0] = transposed ? 1 : cols;
        strides[1] = transposed ? cols : 1;
        managed.version = {1, 0};
        managed.manager_ctx = this;
        managed.deleter = [](DLManagedTensorVersioned* self) {
            ++deleted;
            delete static_cast<Producer*>(self->manager_ctx);
        };
        managed.flags = 0;
        managed.dl_tensor.data = data.data();
        managed.dl_tensor.device = {TEST_DL_CPU, 0};
        managed.dl_tensor.ndim = 2;
        managed.dl_tensor.dtype = {TEST_DL_FLOAT, 32, 1};
        managed.dl_tensor.shape = shape;
        managed.dl_tensor.strides = strides;
        managed.dl_tensor.byte_offset = 0;
    }
};

void import_shares_the_producers_memory_and_deletes_once() {
    deleted = 0;
    auto* p = new Producer(2, 3, /*transposed=*/true);
    float* const raw = p->data.data();
    {
        Tensor t = Tensor::from_dlpack(&p->managed);
        CHECK(t.data_ptr() == raw);
        CHECK(t.shape() == (Shape{3, 2}) && t.strides() == (Shape{1, 3}));
        CHECK(t.to_vector<float>() == (std::vector<float>{0, 3, 1, 4, 2, 5}));
        CHECK(t.is_writable());
        // Writes reach the producer's buffer: it is the same memory.
        t.fill_(7.0);
        CHECK(raw[0] == 7.0F && raw[5] == 7.0F);
        // A view outlives the tensor it came from; the deleter waits for both.
        Tensor row = t.transpose(0, 1);
        t = Tensor::zeros({1});
        CHECK(deleted == 0);
        CHECK(row.data_ptr() == raw);
    }
    CHECK(deleted == 1);
}

void the_read_only_flag_is_honoured() {
    deleted = 0;
    auto* p = new Producer(2, 2, false);
    p->managed.flags = TEST_DL_FLAG_READ_ONLY;
    {
        Tensor t = Tensor::from_dlpack(&p->managed);
        CHECK(!t.is_writable());
        CHECK_THROWS(t.fill_(1.0), Status::ReadOnly);
        CHECK(p->data[0] == 0.0F && p->data[3] == 3.0F);
    }
    CHECK(deleted == 1);
}

void a_refused_import_takes_nothing() {
    deleted = 0;
    auto* p = new Producer(2, 2, false);
    p->managed.dl_tensor.dtype = {TEST_DL_COMPLEX, 64, 1};
    CHECK_THROWS(Tensor::from_dlpack(&p->managed), Status::DType);
    p->managed.dl_tensor.dtype = {TEST_DL_FLOAT, 32, 1};
    // A device type the runtime does not import (CUDA memory is imported where a driver
    // exists; a host pointer claimed as CUDA memory is refused by the driver check: Device
    // without a driver, InvalidArgument with one).
    p->managed.dl_tensor.device = {TEST_DL_OPENCL, 0};
    CHECK_THROWS(Tensor::from_dlpack(&p->managed), Status::InvalidArgument);
    p->managed.dl_tensor.device = {TEST_DL_CUDA, 0};
    try {
        static_cast<void>(Tensor::from_dlpack(&p->managed));
        CHECK(false);
    } catch (const ClikaRT::Error& e) {
        CHECK(e.status() == Status::Device || e.status() == Status::InvalidArgument);
    }
    p->managed.dl_tensor.device = {TEST_DL_CPU, 0};
    p->managed.version = {2, 0};
    CHECK_THROWS(Tensor::from_dlpack(&p->managed), Status::InvalidArgument);
    p->managed.version = {1, 0};
    p->managed.dl_tensor.byte_offset = 1;  // misaligned for float32
    CHECK_THROWS(Tensor::from_dlpack(&p->managed), Status::Misaligned);
    CHECK_THROWS(Tensor::from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)),
                 Status::NullPointer);
    // Nothing was taken: the deleter is still ours to run, once.
    CHECK(deleted == 0);
    p->managed.deleter(&p->managed);
    CHECK(deleted == 1);
}

void export_is_read_by_a_consumer_after_the_tensor_is_gone() {
    std::vector<std::int32_t> values{1, 2, 3, 4, 5, 6};
    DLManagedTensorVersioned* m = nullptr;
    {
        const Tensor t = Tensor::from_data(values, {2, 3}).transpose(0, 1);
        m = t.to_dlpack();
        CHECK(m->dl_tensor.data == t.data_ptr());
    }
    // The consumer: the tensor handle is freed, the managed tensor keeps the memory.
    CHECK(m->version.major == 1 && m->flags == 0);
    CHECK(m->dl_tensor.device.device_type == TEST_DL_CPU && m->dl_tensor.ndim == 2);
    CHECK(m->dl_tensor.dtype.code == TEST_DL_INT && m->dl_tensor.dtype.bits == 32 &&
          m->dl_tensor.dtype.lanes == 1);
    CHECK(m->dl_tensor.shape[0] == 3 && m->dl_tensor.shape[1] == 2);
    CHECK(m->dl_tensor.strides[0] == 1 && m->dl_tensor.strides[1] == 3);
    const auto* base = static_cast<const std::int32_t*>(m->dl_tensor.data);
    // Element [i][j] of the transposed view is values[j * 3 + i].
    CHECK(base[2 * m->dl_tensor.strides[0] + 1 * m->dl_tensor.strides[1]] == values[5]);
    m->deleter(m);
}

void read_only_exports_say_so_and_the_legacy_form_refuses() {
    const std::vector<float> frozen{1, 2, 3};
    const Tensor t = Tensor::from_blob(frozen.data(), {3});
    DLManagedTensorVersioned* m = t.to_dlpack();
    CHECK((m->flags & TEST_DL_FLAG_READ_ONLY) != 0);
    m->deleter(m);
    CHECK_THROWS(t.to_dlpack_legacy(), Status::ReadOnly);
}

void round_trips_keep_the_data_pointer() {
    const Tensor a = Tensor::arange(0, 12, 1, DataType::Int64).reshape({3, 4});
    const Tensor b = Tensor::from_dlpack(a.to_dlpack());
    CHECK(b.data_ptr() == a.data_ptr() && b.shape() == a.shape() && b.is_writable());
    CHECK(b.to_vector<std::int64_t>() == a.to_vector<std::int64_t>());
    // Legacy: the caller states writability.
    const Tensor c = Tensor::from_dlpack(a.to_dlpack_legacy(), /*read_only=*/true);
    CHECK(c.data_ptr() == a.data_ptr() && !c.is_writable());
    const Tensor d = Tensor::from_dlpack(a.to_dlpack_legacy(), /*read_only=*/false);
    CHECK(d.is_writable());
}

void format_prints_the_nested_form() {
    const std::vector<std::int32_t> v{1, 2, 3, 40};
    const Tensor t = Tensor::from_data(v, {2, 2});
    CHECK(t.format() == "Tensor([[ 1,  2],\n        [ 3, 40]], dtype=Int32, device=CPU)");
    const std::vector<float> f{1.0F / 3.0F, 2.0F / 3.0F};
    ClikaRT::PrintOptions two;
    two.precision = 2;
    const Tensor thirds = Tensor::from_data(f, {2});
    CHECK(thirds.format(two) == "Tensor([0.33, 0.67], dtype=Float32, device=CPU)");
    CHECK(thirds.format() == "Tensor([0.3333, 0.6667], dtype=Float32, device=CPU)");
    // Summarised past the threshold, edge items kept.
    ClikaRT::PrintOptions small;
    small.threshold = 4;
    small.edgeitems = 1;
    const Tensor r = Tensor::arange(0, 10, 1, DataType::Int64);
    CHECK(r.format(small) == "Tensor([0, ..., 9], dtype=Int64, device=CPU)");
    // The one-line form is unchanged.
    CHECK(t.to_string().rfind("Tensor(shape=[2, 2], dtype=Int32", 0) == 0);
}

}  // namespace

void run_dlpack_tests() {
    import_shares_the_producers_memory_and_deletes_once();
    the_read_only_flag_is_honoured();
    a_refused_import_takes_nothing();
    export_is_read_by_a_consumer_after_the_tensor_is_gone();
    read_only_exports_say_so_and_the_legacy_form_refuses();
    round_trips_keep_the_data_pointer();
    format_prints_the_nested_form();
}
