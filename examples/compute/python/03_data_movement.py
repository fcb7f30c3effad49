"""Chapter 03 — data movement: .to(device), synchronize(), and automatic placement with a
CPU fallback.

The accelerator is a portable GPU through wgpu (Vulkan; Mesa's software driver where there is
no GPU). Work on it is queued; synchronize() waits, and reading a device tensor on the host
(item(), printing, tolist()) synchronises first; numpy() refuses, naming t.to('cpu').
Device "auto" picks the GPU when it starts and falls back to the CPU — releasing the GPU's
cache and warning once (a RuntimeWarning) — when it does not. Run with CLIKA_RT_GPU_DISABLE=1
to see the fallback. (Pinned sources are a C++/Rust feature: numpy memory is never pinned.)
On a unified-memory GPU the move of a numpy array uses its memory in place.
"""
import sys
import time
import warnings

import numpy as np

import clika_runtime as crt


def name(d: crt.Device) -> str:
    return "CPU" if d.type == "cpu" else f"GPU:{d.index}"


def main() -> None:
    print("-- automatic placement")
    x = crt.tensor([[1, 2, 3], [4, 5, 6]], dtype=crt.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        xd = x.to("auto")  # resolves, then moves
    dev = xd.device
    print(f"Device::auto() resolves to {name(dev)}")

    print("-- moves")
    print(f"x.to({name(dev)}) is on {name(xd.device)}")
    y = (xd * 2.0 - 5.0).relu()  # queued on the device; nothing waits yet
    y.synchronize()  # waits for the device's queue (cheap on the CPU)
    print(f"relu(2x - 5) on {name(y.device)}: {y}")  # printing reads back
    print(f"sum on {name(y.device)} = {y.sum().item():g}")
    back = y.to("cpu")
    print(f"back on the CPU: {name(back.device)}")
    print(f"x.t() moved back: {xd.T.to('cpu')}")  # a strided view moves gathered

    print("-- numpy needs host memory")
    if dev.type != "cpu":
        try:
            y.numpy()
        except crt.ClikaError as e:
            print(f"numpy() on {name(dev)}: refused, naming t.to('cpu'): {'yes' if 't.to(' in str(e) else 'no'}")
    else:
        print("numpy() on CPU: a view, no copy")
    src = np.full(1024, 0.25, dtype=np.float32)
    moved = crt.from_numpy(src).to(dev, copy=True)
    # copy=True: a real transfer, read before .to() returns; the rewrite does not show.
    src[:] = 7
    print(f"source rewritten after a copying move; the moved sum = {moved.sum().item():g}")
    print(f"fallback warnings: {sum(issubclass(w.category, RuntimeWarning) for w in caught)}")

    print("-- moves in place on unified memory")
    # A GPU whose memory is host memory (an integrated GPU; lavapipe) imports the host pages
    # instead of copying them: nothing moves, nothing is reserved, and moving back returns the
    # same memory. Elsewhere (a discrete GPU) .to() copies. Timings go to stderr.
    frame = np.full(64 << 20, 0.5, dtype=np.float32)  # 256 MiB, e.g. a decoder's output
    host = crt.from_numpy(frame)
    before = crt.memory_stats(dev)
    t0 = time.perf_counter()
    on = host.to(dev)
    took_move = time.perf_counter() - t0
    after = crt.memory_stats(dev)
    if dev.type == "cpu":
        print(f"256 MiB to {name(dev)}: the same tensor")
    elif after.imported_bytes > before.imported_bytes:
        print(
            f"256 MiB to {name(dev)}: in place (imported {(after.imported_bytes - before.imported_bytes) >> 20} MiB, "
            f"reserved {(after.reserved_bytes - before.reserved_bytes) >> 20} MiB more)"
        )
    else:
        print(f"256 MiB to {name(dev)}: copied (reserved {(after.reserved_bytes - before.reserved_bytes) >> 20} MiB more)")
    frame[7] = 2.0
    seen = on[7].item() == 2.0
    print(f"a write to the source is seen through the moved tensor: {'yes' if seen else 'no'}")
    same = on.to("cpu").data_ptr() == frame.ctypes.data
    print(f"moved back: the same memory: {'yes' if same else 'no'}")
    t0 = time.perf_counter()
    copied = host.to(dev, copy=True)
    copied.synchronize()
    took_copy = time.perf_counter() - t0
    # New memory: a fresh host block, or the device pool's own.
    if dev.type == "cpu":
        fresh = copied.data_ptr() != frame.ctypes.data
    else:
        fresh = crt.memory_stats(dev).active_bytes >= after.active_bytes + (256 << 20)
    print(f"copy_to gives new memory: {'yes' if fresh else 'no'}")
    print(
        f"figures: to({name(dev)}) {took_move * 1e3:.3f} ms, copy=True {took_copy * 1e3:.1f} ms",
        file=sys.stderr,
    )
    del on, copied, host

    print("-- the device's own pool")
    del xd, y, moved
    print(f"{name(dev)}: active {crt.memory_stats(dev).active_bytes} bytes after the tensors dropped")
    crt.release_cached_memory(dev)
    print(f"{name(dev)}: cached {crt.memory_stats(dev).cached_bytes} bytes after release_cached_memory")


if __name__ == "__main__":
    main()
