"""ClikaRT vs numpy (and PyTorch, when importable) on the elementwise ops of issue 14: one row
per op group (rounding, predicates, transcendental, Python's // and %, bitwise/shift,
logical, tril/triu), on the same data, in one process.

    python bench/ops_elementwise.py [--n N] [--repeats R]

Prints a table of medians and the ratio of our time to each peer's (below 1.0: we are
faster). Written like bench/compare.py; `--n 1000 --repeats 3` is a quick smoke run.
"""

import os
import sys

_SLOW_BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
if any(v in os.environ for v in _SLOW_BLAS_VARS):
    env = {k: v for k, v in os.environ.items() if k not in _SLOW_BLAS_VARS}
    os.execve(sys.executable, [sys.executable, *sys.argv], env)

import argparse  # noqa: E402

import numpy as np  # noqa: E402

import clika_runtime as crt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import median_time  # noqa: E402

try:
    import torch  # type: ignore[import-not-found]  # noqa: E402
except ImportError:  # pragma: no cover - depends on the machine
    torch = None


def rows(n):
    """(name, numpy fn, clika fn, torch fn or None) per op group, over `n` elements."""
    rng = np.random.default_rng(0)
    f = rng.uniform(-100, 100, n).astype(np.float32)
    g = rng.uniform(-100, 100, n).astype(np.float32)
    u = rng.uniform(-1, 1, n).astype(np.float32)
    i = rng.integers(-1000, 1000, n).astype(np.int32)
    d = rng.integers(1, 50, n).astype(np.int32)
    side = max(int(n**0.5), 1)
    m = rng.uniform(-1, 1, (side, side)).astype(np.float32)
    tf, ti, td, tm, tg, tu = (crt.from_numpy(x) for x in (f, i, d, m, g, u))
    pf, pi, pd, pm, pg, pu = (torch.from_numpy(x) for x in (f, i, d, m, g, u)) if torch else (None,) * 6
    tb = crt.from_numpy(f > 0)
    nb = f > 0
    pb = torch.from_numpy(nb) if torch else None

    def t(fn):
        return fn if torch else None

    return [
        ("round f32", lambda: np.round(f), lambda: tf.round(), t(lambda: torch.round(pf))),
        ("floor f32", lambda: np.floor(f), lambda: tf.floor(), t(lambda: torch.floor(pf))),
        ("isnan f32", lambda: np.isnan(f), lambda: tf.isnan(), t(lambda: torch.isnan(pf))),
        ("tan f32", lambda: np.tan(f), lambda: tf.tan(), t(lambda: torch.tan(pf))),
        ("log1p f32", lambda: np.log1p(np.abs(f)), lambda: tf.abs().log1p(), t(lambda: torch.log1p(pf.abs()))),
        ("atan2 f32", lambda: np.arctan2(f, g), lambda: crt.atan2(tf, tg), t(lambda: torch.atan2(pf, pg))),
        ("atan f32", lambda: np.arctan(f), lambda: tf.atan(), t(lambda: torch.atan(pf))),
        ("asin f32", lambda: np.arcsin(u), lambda: tu.asin(), t(lambda: torch.asin(pu))),
        ("i32 // i32", lambda: i // d, lambda: ti // td, t(lambda: pi // pd)),
        ("i32 % i32", lambda: i % d, lambda: ti % td, t(lambda: pi % pd)),
        ("f32 // 3.0", lambda: f // np.float32(3), lambda: tf // 3.0, t(lambda: pf // 3.0)),
        ("f32 % f32", lambda: f % g, lambda: tf % tg, t(lambda: pf % pg)),
        ("i32 & i32", lambda: i & d, lambda: ti & td, t(lambda: pi & pd)),
        ("i32 << 3", lambda: i << 3, lambda: ti << 3, t(lambda: pi << 3)),
        ("logical_and", lambda: np.logical_and(nb, nb), lambda: crt.logical_and(tb, tb), t(lambda: torch.logical_and(pb, pb))),
        ("tril f32", lambda: np.tril(m), lambda: tm.tril(), t(lambda: torch.tril(pm))),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 22)
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    print(f"{'op':<14} {'numpy ms':>10} {'torch ms':>10} {'clika ms':>10} {'vs numpy':>9} {'vs torch':>9}")
    for name, np_fn, crt_fn, torch_fn in rows(args.n):
        tn = median_time(np_fn, args.repeats)
        tc = median_time(crt_fn, args.repeats)
        tt = median_time(torch_fn, args.repeats) if torch_fn else None
        torch_ms = f"{tt * 1e3:10.3f}" if tt else f"{'n/a':>10}"
        vs_torch = f"{tc / tt:9.2f}" if tt else f"{'n/a':>9}"
        print(f"{name:<14} {tn * 1e3:10.3f} {torch_ms} {tc * 1e3:10.3f} {tc / tn:9.2f} {vs_torch}")


if __name__ == "__main__":
    main()
