// Chapter 04 — memory: the runtime's caching pool, measured and given back.
//
// Tensors the runtime allocates come from a per-device pool. Freed blocks stay cached for the
// next allocation (no page faults, no system calls); memory_stats measures it, and
// release_cached_memory hands the idle reserve back to the OS. A memory limit turns an
// oversized request into a clean, catchable out-of-memory error (ClikaRT::Error).
#include <cstdio>
#include <optional>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Device;
using ClikaRT::Tensor;
namespace device = ClikaRT::device;

static constexpr double kMiB = 1048576.0;

static double delta(std::uint64_t now, std::uint64_t then) {
    return (static_cast<double>(now) - static_cast<double>(then)) / kMiB;
}

static void report(const char* when, const device::MemoryStats& base) {
    const device::MemoryStats s = device::memory_stats(Device::cpu());
    std::printf("%-22s active %+7.1f MiB, cached %+7.1f MiB, reserved %+7.1f MiB\n", when,
                delta(s.active_bytes, base.active_bytes), delta(s.cached_bytes, base.cached_bytes),
                delta(s.reserved_bytes, base.reserved_bytes));
}

int main() {
    const Device cpu = Device::cpu();
    device::release_cached_memory(cpu);
    const device::MemoryStats base = device::memory_stats(cpu);

    std::printf("-- the pool measures every allocation (changes since the start)\n");
    {
        std::optional<Tensor> big = Tensor::zeros({64, 1024, 1024});  // 256 MiB
        report("256 MiB of zeros:", base);
        big.reset();
        report("dropped (cached):", base);
        const device::MemoryStats before = device::memory_stats(cpu);
        const Tensor again = Tensor::zeros({64, 1024, 1024});
        const device::MemoryStats s = device::memory_stats(cpu);
        std::printf("allocated again: served from the cache %s, new OS reservations %llu\n",
                    s.cache_hit_count > before.cache_hit_count ? "yes" : "no",
                    static_cast<unsigned long long>(s.os_reserve_count - before.os_reserve_count));
    }
    const std::size_t released = device::release_cached_memory(cpu);
    std::printf("release_cached_memory: %g MiB back to the OS\n", static_cast<double>(released) / kMiB);
    report("released:", base);

    std::printf("-- a memory limit, and a clean out-of-memory\n");
    device::set_memory_limit(cpu, std::size_t{64} << 20);
    try {
        const Tensor t = Tensor::zeros({64, 1024, 1024});
        std::printf("unexpected: 256 MiB fit under a 64 MiB limit\n");
    } catch (const ClikaRT::Error& e) {
        std::printf("256 MiB under a 64 MiB limit: refused, out of memory %s\n",
                    e.status() == ClikaRT::Status::OutOfMemory ? "yes" : "no");
        std::printf("  message: %s\n", e.what());
    }
    {
        const Tensor fits = Tensor::zeros({4, 1024, 1024});  // 16 MiB
        std::printf("16 MiB still fits: sum = %g\n", fits.sum().item<double>());
        std::printf("out-of-memory count: +%llu\n",
                    static_cast<unsigned long long>(device::memory_stats(cpu).oom_count - base.oom_count));
        device::set_memory_limit(cpu, std::nullopt);
    }
    device::release_cached_memory(cpu);
    report("limit lifted, released:", base);
    return 0;
}
