// Chapter 03 — data movement: .to(device), synchronize(), pinned sources, and automatic
// placement with a CPU fallback.
//
// The accelerator is a portable GPU through wgpu (Vulkan; Mesa's software driver where there
// is no GPU). Work on it is queued; synchronize() waits, and reading a device tensor on the
// host (item, to_string, to_vector) synchronises first. Device::auto_() picks the GPU when it
// starts and falls back to the CPU — releasing the GPU's cache and warning once on stderr —
// when it does not. Run with CLIKA_RT_GPU_DISABLE=1 to see the fallback.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Device;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;
namespace device = ClikaRT::device;

static int released = 0;

int main() {
    std::printf("-- automatic placement\n");
    const Tensor x = Tensor::from_data(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
    std::optional<Tensor> xd = x.to(Device::auto_());  // resolves, then moves
    const Device dev = xd->device();
    std::printf("Device::auto() resolves to %s\n", dev.str().c_str());

    std::printf("-- moves\n");
    std::printf("x.to(%s) is on %s\n", dev.str().c_str(), xd->device().str().c_str());
    // Queued on the device; nothing waits yet.
    std::optional<Tensor> y = ops::relu(*xd * 2.0 - 5.0);
    y->synchronize();  // waits for the device's queue (cheap on the CPU)
    std::printf("relu(2x - 5) on %s: %s\n", y->device().str().c_str(), y->to_string().c_str());
    std::printf("sum on %s = %g\n", y->device().str().c_str(), y->sum().item<double>());
    const Tensor back = y->to(Device::cpu());
    std::printf("back on the CPU: %s\n", back.device().str().c_str());
    std::optional<Tensor> t = xd->transpose(0, 1);  // a strided view moves gathered
    std::printf("x.t() moved back: %s\n", t->to(Device::cpu()).to_string().c_str());

    std::printf("-- pinned sources\n");
    // pinned_for tags memory you page-locked yourself; the runtime keeps a tagged source
    // alive until its copy completed, so an adopted buffer's deleter cannot run early.
    // copy_to is a real transfer everywhere (to() would use the pages in place on a
    // unified-memory GPU, as the next part shows).
    float* buf = new float[1024];
    for (int i = 0; i < 1024; ++i) buf[i] = 0.25F;
    ClikaRT::BlobOptions options;
    options.pinned_for = dev;
    std::optional<Tensor> src = Tensor::from_blob(buf, {1024}, DataType::Float32, options, [](void* p) {
        ++released;
        delete[] static_cast<float*>(p);
    });
    std::optional<Tensor> moved = src->copy_to(dev);
    src.reset();
    moved->synchronize();
    std::printf("pinned source copied; after synchronize its deleter ran %d time(s); sum = %g\n",
                released, moved->sum().item<double>());
    moved.reset();
    std::printf("copy dropped: deleter ran %d time(s)\n", released);

    std::printf("-- moves in place on unified memory\n");
    // A GPU whose memory is host memory (an integrated GPU; lavapipe) imports the host pages
    // instead of copying them: nothing moves, nothing is reserved, and moving back returns
    // the same memory. Elsewhere (a discrete GPU) to() copies. Timings go to stderr.
    {
        std::vector<float> frame(std::size_t{64} << 20, 0.5F);  // 256 MiB
        std::optional<Tensor> host =
            Tensor::from_blob(frame.data(), {std::int64_t{64} << 20}, DataType::Float32);
        const auto before = device::memory_stats(dev);
        const auto t0 = std::chrono::steady_clock::now();
        std::optional<Tensor> on = host->to(dev);
        const auto t1 = std::chrono::steady_clock::now();
        const auto after = device::memory_stats(dev);
        const auto mib = [](std::uint64_t b) { return static_cast<unsigned long long>(b >> 20); };
        if (dev.is_cpu()) {
            std::printf("256 MiB to %s: the same tensor\n", dev.str().c_str());
        } else if (after.imported_bytes > before.imported_bytes) {
            std::printf("256 MiB to %s: in place (imported %llu MiB, reserved %llu MiB more)\n",
                        dev.str().c_str(), mib(after.imported_bytes - before.imported_bytes),
                        mib(after.reserved_bytes - before.reserved_bytes));
        } else {
            std::printf("256 MiB to %s: copied (reserved %llu MiB more)\n", dev.str().c_str(),
                        mib(after.reserved_bytes - before.reserved_bytes));
        }
        frame[7] = 2.0F;
        const bool seen = on->narrow(0, 7, 1).item<float>() == 2.0F;
        std::printf("a write to the source is seen through the moved tensor: %s\n", seen ? "yes" : "no");
        const bool same = on->to(Device::cpu()).data_ptr() == frame.data();
        std::printf("moved back: the same memory: %s\n", same ? "yes" : "no");
        const auto t2 = std::chrono::steady_clock::now();
        std::optional<Tensor> copied = host->copy_to(dev);
        copied->synchronize();
        const auto t3 = std::chrono::steady_clock::now();
        // New memory: a fresh host block, or the device pool's own.
        const bool fresh = dev.is_cpu() ? copied->data_ptr() != frame.data()
                                        : device::memory_stats(dev).active_bytes >=
                                              after.active_bytes + (std::uint64_t{256} << 20);
        std::printf("copy_to gives new memory: %s\n", fresh ? "yes" : "no");
        const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
        std::fprintf(stderr, "figures: to(%s) %.3f ms, copy_to(%s) %.1f ms\n", dev.str().c_str(),
                     ms(t1 - t0), dev.str().c_str(), ms(t3 - t2));
        on.reset();
        copied.reset();
        host.reset();
    }

    std::printf("-- the device's own pool\n");
    xd.reset();
    y.reset();
    t.reset();
    std::printf("%s: active %llu bytes after the tensors dropped\n", dev.str().c_str(),
                static_cast<unsigned long long>(device::memory_stats(dev).active_bytes));
    device::release_cached_memory(dev);
    std::printf("%s: cached %llu bytes after release_cached_memory\n", dev.str().c_str(),
                static_cast<unsigned long long>(device::memory_stats(dev).cached_bytes));
    return 0;
}
