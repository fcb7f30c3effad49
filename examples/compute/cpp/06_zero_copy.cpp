// Chapter 06 — zero copy: memory someone else owns becomes a tensor without a copy.
//
//  * borrow: from_blob views your buffer; you keep ownership and must keep it alive;
//  * adopt: from_blob with a deleter takes ownership; the deleter runs exactly once, when the
//    last tensor or view over the memory is destroyed;
//  * strided: a region of a pitched image is viewed in place with the image's row pitch;
//  * copy: from_data copies, for a buffer that dies before the tensor does;
//  * processes: a producer puts frames in a shared segment (memfd) and a consumer process
//    (fork) maps the same pages with from_fd: no copy, and what it writes the producer sees
//    (docs/processes.md).
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

static int deleter_calls = 0;

static const char* yes(bool b) { return b ? "yes" : "no"; }

constexpr int kFrames = 3;
constexpr std::uint64_t kFrameBytes = 6 * sizeof(float);

// The consumer: each frame mapped from the descriptor it inherited, summed, and the sum
// written into its first element, in the producer's pages.
static int consumer(int fd) {
    for (int k = 0; k < kFrames; ++k) {
        Tensor frame = Tensor::from_fd(fd, DataType::Float32, {2, 3}, k * kFrameBytes);
        const double total = frame.sum().item<double>();
        const double mean = frame.mean().item<double>();
        frame.data_ptr<float>()[0] = static_cast<float>(total);
        std::printf("consumer: frame %d sum = %g, mean = %g\n", k, total, mean);
    }
    return 0;
}

// The producer: frames in one shared segment, a consumer process over the same pages.
static bool processes() {
    std::printf("-- processes: a producer hands frames to a consumer process, zero copy\n");
    // Frame k of 2x3 float32 holds 10k + 0..5, written into an anonymous segment.
    std::vector<float> values(kFrames * 6);
    for (int i = 0; i < kFrames * 6; ++i) values[i] = static_cast<float>((i / 6) * 10 + i % 6);
    const int fd = memfd_create("frames", MFD_CLOEXEC);
    const auto bytes = static_cast<ssize_t>(values.size() * sizeof(float));
    if (fd < 0 || pwrite(fd, values.data(), bytes, 0) != bytes) return false;
    const Tensor frames = Tensor::from_fd(fd, DataType::Float32, {kFrames, 2, 3});
    std::printf("producer: %d frames of 2x3 float32 in one shared segment\n", kFrames);
    // The child inherits the descriptor (and a copy of stdio's buffer: flush it first). The
    // producer touches no frame until the consumer has exited.
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        const int rc = consumer(fd);
        std::fflush(stdout);
        _exit(rc);
    }
    int status = 0;
    const bool ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                    WEXITSTATUS(status) == 0;
    close(fd);  // the tensor keeps its own duplicate
    const float* written = frames.data_ptr<float>();
    std::string firsts;
    bool same = ok;
    for (int k = 0; k < kFrames; ++k) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%g", k ? ", " : "", written[k * 6]);
        firsts += buf;
        float original_sum = 0;
        for (int i = 0; i < 6; ++i) original_sum += values[k * 6 + i];
        same = same && written[k * 6] == original_sum;
    }
    std::printf("producer: frame[0, 0] after the consumer wrote each sum there: %s\n",
                firsts.c_str());
    std::printf("same pages, nothing copied: %s\n", yes(same));
    return true;
}

int main() {
    std::printf("-- borrow: your buffer, viewed in place\n");
    std::vector<float> frame{1, 2, 3, 4, 5, 6};
    {
        const Tensor t = Tensor::from_blob(frame.data(), {2, 3}, DataType::Float32);
        std::printf("tensor data is the buffer: %s\n", yes(t.data_ptr() == frame.data()));
        std::printf("sum = %g\n", t.sum().item<double>());
        // The buffer is the tensor's memory: a write through one is seen through the other.
        static_cast<float*>(t.data_ptr())[0] = 100;
    }
    std::printf("after writing through the tensor, buffer[0] = %g\n", frame[0]);

    std::printf("-- adopt: ownership handed over with a deleter\n");
    float* raw = static_cast<float*>(std::malloc(4 * sizeof(float)));
    for (int i = 0; i < 4; ++i) raw[i] = 0.5F;
    std::optional<Tensor> adopted = Tensor::from_blob(raw, {4}, DataType::Float32, {}, [](void* p) {
        ++deleter_calls;
        std::free(p);
    });
    std::optional<Tensor> view = adopted->narrow(0, 1, 2);
    std::printf("mean = %g\n", ops::mean(*adopted).item<double>());
    adopted.reset();
    std::printf("tensor dropped, a view lives: deleter calls = %d\n", deleter_calls);
    view.reset();
    std::printf("last view dropped: deleter calls = %d\n", deleter_calls);

    std::printf("-- strided: a region of a pitched image, in place\n");
    // A 4x6 image, row-major: pixel (r, c) = r*10 + c. The 2x3 region at (1, 2) is viewed with
    // the image's row pitch (6) as its row stride.
    std::vector<float> image(24);
    for (int i = 0; i < 24; ++i) image[i] = static_cast<float>((i / 6) * 10 + i % 6);
    const Tensor roi = Tensor::from_blob(&image[8], {2, 3}, {6, 1}, DataType::Float32);
    std::printf("roi = %s\n", roi.to_string().c_str());
    std::printf("roi strides [%lld, %lld], contiguous %s, sum = %g\n",
                static_cast<long long>(roi.strides()[0]), static_cast<long long>(roi.strides()[1]),
                yes(roi.is_contiguous()), roi.sum().item<double>());

    std::printf("-- copy: from_data, for a buffer that dies first\n");
    std::optional<Tensor> copied;
    {
        std::vector<std::int32_t> scratch{1, 2, 3, 4, 5, 6};
        copied = Tensor::from_data(scratch, {3, 2});
        std::printf("separate memory: %s\n", yes(copied->data_ptr() != scratch.data()));
    }
    std::printf("after the buffer is gone: %s\n", copied->to_string().c_str());
    copied.reset();
    return processes() ? 0 : 1;
}
