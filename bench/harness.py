"""A small timing harness shared by the bench scripts: interleaved rounds, medians, and a
markdown table of ratios.

Each case has one callable per implementation ("clika", "numpy", "torch"). A round calls
every implementation of every case once (after a warm-up call each), in an order that
rotates from round to round, so slow drifts of the machine (other processes, frequency)
fall on all peers alike; the figure kept is the median over rounds. Calls shorter than
`min_time` are repeated inside one timing and divided.

Before each timing the implementation runs untimed for `settle` seconds (longer after a
case that sets `spin_after`: see `BLAS_SPIN`). The previous slot's library may still hold
the cores: PyTorch's OpenMP (libgomp) threads spin for milliseconds after each call and
OpenBLAS's for 0.1–0.15 s after a BLAS call, so whoever came next was timed on a shared
machine (on 2 cores, 1M-element `mul`: ours 203 µs alone, 360 µs right
after PyTorch's slot, 178 µs after settling; PyTorch's own figure also fell, 253 → 198 µs,
once it stopped following ours).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence


@dataclass
class Case:
    """One row: an operation on one input, timed in each implementation it has."""

    op: str
    case: str
    impls: Dict[str, Callable[[], object]]
    bytes_moved: Optional[int] = None
    note: str = ""
    # Floating-point operations of one call, for compute-bound rows (convolutions, matrix
    # products): the rate column then reads GFLOP/s instead of GB/s.
    flops: Optional[int] = None
    medians: Dict[str, float] = field(default_factory=dict)
    # Seconds the slot after any of this case's slots settles for, when longer than
    # `run`'s `settle`: [`BLAS_SPIN`] for cases whose numpy peer calls OpenBLAS.
    spin_after: float = 0.0


# numpy's OpenBLAS threads spin for 0.1–0.15 s after a BLAS call before they sleep, on the
# cores the next slot needs: our 1M-element `add` (two threads) read 140 µs up to 0.1 s after
# numpy's 976×976 matmul and 70 µs from 0.25 s on, and the slot after numpy's matmul in
# bench/ops.py (PyTorch's matmul, then ours with out=) and the first row of each size (which
# follows the last slot, a matmul) read about 2× slow.
BLAS_SPIN = 0.25


def _calls_for(fn: Callable[[], object], min_time: float) -> int:
    """How many calls make one timing last at least `min_time`, from a call timed after an
    untimed one. The first call of a library pays its lazy set-up (thread pools, dispatch
    tables): timed alone, it made the first row of every size (`add`, ours and PyTorch's)
    a timing of 6 calls instead of about 600, which read 3–5× slower per call than its
    neighbours."""
    fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    return max(1, min(10_000, int(min_time / one) + 1))


def run(cases: Sequence[Case], rounds: int = 7, min_time: float = 2e-3, settle: float = 0.02) -> None:
    """Times every implementation of every case over `rounds` interleaved rounds and
    stores the medians (seconds per call) in `case.medians`; each timing follows `settle`
    seconds of untimed calls of the same implementation."""
    slots, calls = [], []
    for c in cases:
        for name, fn in list(c.impls.items()):
            try:
                calls.append(_calls_for(fn, min_time))
            except Exception as e:  # a peer without the case (torch's uint16 arithmetic)
                if name == "clika":
                    raise
                del c.impls[name]
                c.note = (c.note + "; " if c.note else "") + f"{name}: {type(e).__name__}"
                continue
            slots.append((c, name, fn))
    samples: List[List[float]] = [[] for _ in slots]
    # The calls above ran every slot once: the first timing follows them.
    spin = max((c.spin_after for c in cases), default=0.0)
    for r in range(rounds):
        shift = r % max(1, len(slots))
        for i in list(range(shift, len(slots))) + list(range(shift)):
            case, _, fn = slots[i]
            n = calls[i]
            until = time.perf_counter() + max(settle, spin)
            while time.perf_counter() < until:
                fn()
            spin = case.spin_after
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            samples[i].append((time.perf_counter() - t0) / n)
    for (c, name, _), s in zip(slots, samples):
        c.medians[name] = statistics.median(s)


def _fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    return f"{s * 1e3:.2f} ms"


def markdown(cases: Sequence[Case], peers: Sequence[str] = ("numpy", "torch")) -> str:
    """A table: our median, each peer's, and peer ÷ ours (above 1.0: we are faster)."""
    head = ["operation", "case", "clika"] + list(peers) + [f"{p} ÷ clika" for p in peers]
    rates = any(c.flops for c in cases)  # mixed units: each cell names its own
    head.append("rate" if rates else "GB/s")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cases:
        ours = c.medians.get("clika")
        row = [f"`{c.op}`", c.case, _fmt_time(ours) if ours else "—"]
        row += [_fmt_time(c.medians[p]) if p in c.medians else "—" for p in peers]
        row += [
            f"{c.medians[p] / ours:.2f}" if ours and p in c.medians else "—" for p in peers
        ]
        if ours and c.flops:
            row.append(f"{c.flops / ours / 1e9:.1f} GFLOP/s")
        elif ours and c.bytes_moved:
            row.append(f"{c.bytes_moved / ours / 1e9:.1f}" + (" GB/s" if rates else ""))
        else:
            row.append("—")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"
