"""Chapter 04 — memory: the runtime's caching pool, measured and given back.

Tensors the runtime allocates come from a per-device pool. Freed blocks stay cached for the
next allocation (no page faults, no system calls); memory_stats measures it, and
release_cached_memory hands the idle reserve back to the OS. A memory limit turns an
oversized request into a clean, catchable out-of-memory error.
"""
import clika_runtime as crt

MIB = 1048576.0


def report(when: str, base: crt.MemoryStats) -> None:
    s = crt.memory_stats("cpu")
    print(f"{when:<22} active {(s.active_bytes - base.active_bytes) / MIB:+7.1f} MiB, "
          f"cached {(s.cached_bytes - base.cached_bytes) / MIB:+7.1f} MiB, "
          f"reserved {(s.reserved_bytes - base.reserved_bytes) / MIB:+7.1f} MiB")


def main() -> None:
    crt.release_cached_memory("cpu")
    base = crt.memory_stats("cpu")

    print("-- the pool measures every allocation (changes since the start)")
    big = crt.zeros(64, 1024, 1024, dtype=crt.float32)  # 256 MiB
    report("256 MiB of zeros:", base)
    del big
    report("dropped (cached):", base)
    before = crt.memory_stats("cpu")
    again = crt.zeros(64, 1024, 1024, dtype=crt.float32)
    s = crt.memory_stats("cpu")
    print(f"allocated again: served from the cache "
          f"{'yes' if s.cache_hit_count > before.cache_hit_count else 'no'}, "
          f"new OS reservations {s.os_reserve_count - before.os_reserve_count}")
    del again
    released = crt.release_cached_memory("cpu")
    print(f"release_cached_memory: {released / MIB:g} MiB back to the OS")
    report("released:", base)

    print("-- a memory limit, and a clean out-of-memory")
    crt.set_memory_limit(64 << 20, "cpu")
    try:
        crt.zeros(64, 1024, 1024, dtype=crt.float32)
        print("unexpected: 256 MiB fit under a 64 MiB limit")
    except crt.OutOfMemoryError as e:  # also a MemoryError
        print(f"256 MiB under a 64 MiB limit: refused, out of memory {'yes' if isinstance(e, MemoryError) else 'no'}")
        print(f"  message: {e}")
    fits = crt.zeros(4, 1024, 1024, dtype=crt.float32)  # 16 MiB
    print(f"16 MiB still fits: sum = {fits.sum().item():g}")
    print(f"out-of-memory count: +{crt.memory_stats('cpu').oom_count - base.oom_count}")
    crt.set_memory_limit(None, "cpu")
    del fits
    crt.release_cached_memory("cpu")
    report("limit lifted, released:", base)


if __name__ == "__main__":
    main()
