// Tests of tensors over shared memory: Tensor::from_fd (a memfd another "process" could
// hold), Tensor::from_shm (a named POSIX object a producer made and unlinked), writes that
// reach the object, strides, read-only maps, and the errors.
#include <ClikaRT/clika_rt.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"

using ClikaRT::DataType;
using ClikaRT::Shape;
using ClikaRT::Status;
using ClikaRT::Tensor;

namespace {

// A named object of `n` floats 0, 1, 2, ... made the way a producer process would.
int make_shm(const std::string& name, int n) {
    const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) return -1;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
    const auto bytes = static_cast<ssize_t>(v.size() * sizeof(float));
    if (ftruncate(fd, bytes) != 0 || pwrite(fd, v.data(), v.size() * sizeof(float), 0) != bytes) {
        close(fd);
        return -1;
    }
    return fd;
}

void from_shm_maps_the_producers_pages() {
    const std::string name = "/clika-rt-cpp-test-" + std::to_string(getpid());
    const int fd = make_shm(name, 64);
    CHECK(fd >= 0);
    if (fd < 0) return;
    {
        Tensor t = Tensor::from_shm(name, DataType::Float32, Shape{8, 8});
        shm_unlink(name.c_str());  // the mapping keeps the pages
        std::vector<float> got = t.to_vector<float>();
        CHECK(got.size() == 64 && got[9] == 9.0f && got[63] == 63.0f);
        // A write through the tensor reaches the object (and so every process mapping it).
        static_cast<float*>(t.data_ptr())[5] = -2.5f;
        float back = 0;
        CHECK(pread(fd, &back, sizeof back, 5 * sizeof(float)) == sizeof back);
        CHECK(back == -2.5f);
        // Strides and offset: a transposed 4x4 view starting at element 16.
        Tensor s = Tensor::from_fd(fd, DataType::Float32, Shape{4, 4}, 16 * sizeof(float),
                                   Shape{1, 4});
        std::vector<float> sv = s.to_vector<float>();
        CHECK(sv[0] == 16.0f && sv[1] == 20.0f && sv[4] == 17.0f);
        CHECK(s.strides() == (Shape{1, 4}));
    }
    close(fd);
    CHECK_THROWS(Tensor::from_shm(name, DataType::Float32, Shape{1}), Status::InvalidArgument);
    std::printf("ok    Tensor::from_shm / from_fd map the producer's pages\n");
}

void from_fd_read_only_and_errors() {
    const int fd = memfd_create("clika-rt-cpp-test", MFD_CLOEXEC);
    CHECK(fd >= 0);
    if (fd < 0) return;
    CHECK(ftruncate(fd, 64) == 0);
    Tensor ro = Tensor::from_fd(fd, DataType::Int32, Shape{16}, 0, Shape{}, true);
    CHECK(ro.numel() == 16 && ro.to_vector<std::int32_t>()[3] == 0);
    CHECK_THROWS(ro.fill_(1.0), Status::ReadOnly);
    CHECK_THROWS(Tensor::from_fd(fd, DataType::Int32, Shape{17}), Status::InvalidShape);
    CHECK_THROWS(Tensor::from_fd(fd, DataType::Int32, Shape{2}, 2), Status::Misaligned);
    CHECK_THROWS(Tensor::from_fd(fd, DataType::Int32, Shape{2, 2}, 0, Shape{1}),
                 Status::InvalidShape);
    CHECK_THROWS(Tensor::from_fd(fd, DataType::Int32, Shape{2}, 0, Shape{-1}),
                 Status::InvalidArgument);  // reaches before the start
    close(fd);
    CHECK_THROWS(Tensor::from_fd(fd, DataType::Int32, Shape{1}), Status::InvalidArgument);
    // The tensor keeps its own duplicate: still readable after the caller closed theirs.
    CHECK(ro.to_vector<std::int32_t>().size() == 16);
    std::printf("ok    Tensor::from_fd read-only maps and errors\n");
}

}  // namespace

void run_shared_tests() {
    from_shm_maps_the_producers_pages();
    from_fd_read_only_and_errors();
}
