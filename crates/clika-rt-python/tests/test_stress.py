"""A bounded multi-threaded stress run (issue 21): threads doing random ops, views, numpy and
DLPack round trips, `memory_stats` and `release_cached_memory` at once, every result checked
against numpy; at the end `active_bytes` is back where it started. About 3 seconds."""

from __future__ import annotations

import gc
import random
import threading
import time
from typing import Any, Callable, List, Tuple

import numpy as np

import clika_runtime as crt

SECONDS = 3.0
THREADS = 4


def random_case(rng: random.Random) -> Tuple[np.ndarray, crt.Tensor]:
    """A random array and a tensor over equal values: a copy, a borrow, a DLPack import, or a
    view (transpose, slice, step) of one."""
    shape = (rng.randint(1, 40), rng.randint(1, 40))
    a = np.asarray(rng.random() * 4 - 2 + np.arange(shape[0] * shape[1]).reshape(shape) % 7,
                   dtype=np.float32)
    how = rng.randrange(3)
    t = crt.tensor(a) if how == 0 else crt.from_numpy(a) if how == 1 else crt.from_dlpack(a)
    view = rng.randrange(4)
    if view == 1:
        a, t = a.T, t.T
    elif view == 2 and shape[0] > 2:
        a, t = a[1:-1], t[1:-1]
    elif view == 3:
        a, t = a[:, ::2], t[:, ::2]
    return a, t


OPS: List[Tuple[str, Callable[[Any], Any]]] = [
    ("add", lambda x: x + 1.5),
    ("mul", lambda x: x * x),
    ("neg", lambda x: -x),
    ("abs", lambda x: abs(x)),
    ("sum0", lambda x: x.sum(0) if isinstance(x, np.ndarray) else x.sum(dim=0)),
    ("sum", lambda x: x.sum()),
    ("matmul", lambda x: x @ x.T),
    ("exp", lambda x: np.exp(x) if isinstance(x, np.ndarray) else x.exp()),
]


def worker(seed: int, deadline: float, errors: List[str], counts: List[int]) -> None:
    rng = random.Random(seed)
    n = 0
    try:
        while time.monotonic() < deadline:
            a, t = random_case(rng)
            name, op = OPS[rng.randrange(len(OPS))]
            want = np.asarray(op(a))
            got = op(t)
            got_np = np.asarray(got.numpy() if rng.random() < 0.5 else np.from_dlpack(got))
            if not np.allclose(got_np, want, rtol=1e-4, atol=1e-3):
                errors.append(f"{name} on {a.shape}: {got_np} != {want}")
            # Round trip the result through numpy and DLPack again.
            back = crt.from_dlpack(np.from_dlpack(got))
            if not np.array_equal(back.numpy(), got_np):
                errors.append(f"{name}: DLPack round trip changed values")
            r = rng.random()
            if r < 0.1:
                crt.release_cached_memory()
            elif r < 0.3:
                s = crt.memory_stats()
                if s.active_bytes < 0 or s.reserved_bytes < s.active_bytes:
                    errors.append(f"inconsistent stats {s}")
            n += 1
    except Exception as e:  # noqa: BLE001 - reported as a failure below
        errors.append(f"{type(e).__name__}: {e}")
    counts.append(n)


def test_threads_mixing_ops_views_round_trips_and_pool_controls() -> None:
    gc.collect()
    start = crt.memory_stats().active_bytes
    errors: List[str] = []
    counts: List[int] = []
    deadline = time.monotonic() + SECONDS
    threads = [threading.Thread(target=worker, args=(i, deadline, errors, counts))
               for i in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=SECONDS + 60)
    assert not any(th.is_alive() for th in threads), "a stress thread hung"
    assert not errors, errors[:5]
    assert sum(counts) > THREADS * 10, counts
    gc.collect()
    assert crt.memory_stats().active_bytes == start
    crt.release_cached_memory()
