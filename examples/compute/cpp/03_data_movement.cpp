// Chapter 03 — data movement: .to(device), synchronize(), pinned sources, and automatic
// placement with a CPU fallback.
//
// The accelerator is a portable GPU through wgpu (Vulkan; Mesa's software driver where there
// is no GPU). Work on it is queued; synchronize() waits, and reading a device tensor on the
// host (item, to_string, to_vector) synchronises first. Device::auto_() picks the GPU when it
// starts and falls back to the CPU — releasing the GPU's cache and warning once on stderr —
// when it does not. Run with CLIKA_RT_GPU_DISABLE=1 to see the fallback.
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
    float* buf = new float[1024];
    for (int i = 0; i < 1024; ++i) buf[i] = 0.25F;
    ClikaRT::BlobOptions options;
    options.pinned_for = dev;
    std::optional<Tensor> src = Tensor::from_blob(buf, {1024}, DataType::Float32, options, [](void* p) {
        ++released;
        delete[] static_cast<float*>(p);
    });
    std::optional<Tensor> moved = src->to(dev);
    src.reset();
    moved->synchronize();
    std::printf(
        "pinned source moved; after synchronize its deleter ran %d time(s) (0 while it is the "
        "same tensor on the CPU); sum = %g\n",
        released, moved->sum().item<double>());
    moved.reset();
    std::printf("moved tensor dropped: deleter ran %d time(s)\n", released);

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
