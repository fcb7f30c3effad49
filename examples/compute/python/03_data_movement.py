"""Chapter 03 — data movement: .to(device), synchronize(), and automatic placement with a
CPU fallback.

The accelerator is a portable GPU through wgpu (Vulkan; Mesa's software driver where there is
no GPU). Work on it is queued; synchronize() waits, and reading a device tensor on the host
(item(), printing, tolist()) synchronises first; numpy() refuses, naming t.to('cpu').
Device "auto" picks the GPU when it starts and falls back to the CPU — releasing the GPU's
cache and warning once (a RuntimeWarning) — when it does not. Run with CLIKA_RT_GPU_DISABLE=1
to see the fallback. (Pinned sources are a C++/Rust feature: numpy memory is never pinned.)
"""
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
    moved = crt.from_numpy(src).to(dev)
    # An untagged source is read before .to() returns (on a GPU); on the CPU the "move" is
    # the same memory, so the rewrite shows through.
    src[:] = 7
    print(f"source rewritten after the move; the moved sum = {moved.sum().item():g}")
    print(f"fallback warnings: {sum(issubclass(w.category, RuntimeWarning) for w in caught)}")

    print("-- the device's own pool")
    del xd, y, moved
    print(f"{name(dev)}: active {crt.memory_stats(dev).active_bytes} bytes after the tensors dropped")
    crt.release_cached_memory(dev)
    print(f"{name(dev)}: cached {crt.memory_stats(dev).cached_bytes} bytes after release_cached_memory")


if __name__ == "__main__":
    main()
