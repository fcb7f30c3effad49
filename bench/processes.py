"""Sending one tensor to another process: ClikaRT vs a pickled numpy array vs PyTorch.

Each row times, in the sending process, `queue.put(x)` until the consumer (started once,
with `spawn`) has received the object and answered with one element of it:

- clika shared: a `share_memory_()` tensor through a multiprocessing queue (the segment's
  file descriptor travels; the consumer maps the same pages);
- clika pickled: the same tensor, not shared (pickled in band: copied in and out);
- numpy pickled: a numpy array of the same bytes through the same queue;
- torch shared: a `share_memory_()` torch tensor through `torch.multiprocessing`, when
  torch imports.

Usage: `python bench/processes.py [--mib 64] [--repeat 7]`. Prints medians in ms and each
peer's time over ours. `--mib` takes fractions (`--mib 0.01`) for a quick check.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import time
from typing import Any, Callable, List


def consumer(q_in: Any, q_out: Any) -> None:
    import numpy as np  # noqa: F401

    import clika_runtime  # noqa: F401  (registers the reducer)

    try:
        import torch  # noqa: F401
    except ImportError:
        pass
    while True:
        x = q_in.get()
        if x is None:
            return
        q_out.put(float(x[0]))
        del x


def time_row(ctx: Any, make: Callable[[], Any], repeat: int) -> List[float]:
    q_in, q_out = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=consumer, args=(q_in, q_out), daemon=True)
    p.start()
    x = make()
    q_in.put(x)  # warm-up: imports, first mapping
    q_out.get(timeout=300)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        q_in.put(x)
        q_out.get(timeout=300)
        times.append(time.perf_counter() - t0)
    q_in.put(None)
    p.join(60)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=float, default=64.0)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()

    import numpy as np

    import clika_runtime as crt

    n = max(1, int(args.mib * (1 << 20)) // 4)
    data = np.arange(n, dtype=np.float32)
    rows = {
        "clika shared (fd, no copy)": (mp.get_context("spawn"), lambda: crt.tensor(data).share_memory_()),
        "clika pickled (in band)": (mp.get_context("spawn"), lambda: crt.tensor(data)),
        "numpy pickled": (mp.get_context("spawn"), lambda: data.copy()),
    }
    try:
        import torch
        import torch.multiprocessing as tmp

        rows["torch shared (torch.multiprocessing)"] = (
            tmp.get_context("spawn"),
            lambda: torch.from_numpy(data.copy()).share_memory_(),
        )
    except ImportError:
        print("torch does not import here: no torch row")

    print(f"sending {n * 4 / (1 << 20):.3g} MiB (float32, {n} elements) to another process, median of {args.repeat}")
    results = {name: statistics.median(time_row(ctx, make, args.repeat)) for name, (ctx, make) in rows.items()}
    ours = results["clika shared (fd, no copy)"]
    print(f"{'':40s} {'median ms':>10s} {'vs ours':>8s}")
    for name, t in results.items():
        print(f"{name:40s} {t * 1e3:10.3f} {t / ours:8.2f}")


if __name__ == "__main__":
    main()
