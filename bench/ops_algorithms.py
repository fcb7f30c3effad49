"""ClikaRT vs numpy (and PyTorch, when importable) for the sorting, selection, scan, roll,
creation and random operations, on the same data in one process, written like compare.py.

    python bench/ops_algorithms.py [--size N] [--repeats R]

Prints a table of medians and the ratio of our time to each peer's (below 1.0: we are
faster), and writes it to bench/results/ops_algorithms.md. `--size 64` checks that every row
runs in a second or two.
"""

import argparse

import numpy as np

# compare.py re-executes without the slow OpenBLAS variables on import and finds torch.
from compare import RESULTS, median_time, torch

import clika_runtime as crt


def rows(n):
    """(name, numpy fn, torch fn or None, clika_runtime fn) over an n x n float32 matrix."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float32)
    ints = rng.integers(0, max(n // 4, 2), size=n * n).astype(np.int64)
    c = crt.from_numpy(a)
    ci = crt.from_numpy(ints)
    t = torch.from_numpy(a) if torch is not None else None
    ti = torch.from_numpy(ints) if torch is not None else None
    # rows of 8 small ints with repeats: unique(dim=0) sorts and groups whole rows
    rows8 = rng.integers(0, 3, size=(n * n // 8, 8)).astype(np.int64)
    cr8 = crt.from_numpy(rows8)
    tr8 = torch.from_numpy(rows8) if torch is not None else None
    k = max(n // 16, 1)
    # gather/scatter: half a row of picks per row; scatter_add: a histogram of n bins
    picks = rng.integers(0, n, size=(n, max(n // 2, 1))).astype(np.int64)
    vals = rng.standard_normal(picks.shape).astype(np.float32)
    bins = (ints % n).astype(np.int64)
    ones = np.ones(bins.shape, np.float32)
    # an image's byte histogram: n·n uint8 values into 256 bins
    pixels = rng.integers(0, 256, size=n * n).astype(np.uint8)
    cpx = crt.from_numpy(pixels)
    tpx = torch.from_numpy(pixels) if torch is not None else None
    rows_idx = rng.integers(0, n, size=max(n // 2, 1)).astype(np.int64)
    cp, cv, cb, co, crows = (crt.from_numpy(x) for x in (picks, vals, bins, ones, rows_idx))
    tp, tv, tb, to, trows = (torch.from_numpy(x) for x in (picks, vals, bins, ones, rows_idx)) if torch is not None else (None,) * 5

    def np_scatter():
        b = a.copy()
        np.put_along_axis(b, picks, vals, 1)
        return b

    cols = np.arange(picks.shape[1])[None, :]

    def np_scatter_amax():
        b = a.copy()
        np.maximum.at(b, (picks, cols), vals)
        return b

    # index_add: half as many rows (or columns) of values as the target has, added at rows_idx
    add_rows = rng.standard_normal((rows_idx.size, n)).astype(np.float32)
    add_cols = np.ascontiguousarray(add_rows.T)
    car, cac = crt.from_numpy(add_rows), crt.from_numpy(add_cols)
    tar, tac = (torch.from_numpy(add_rows), torch.from_numpy(add_cols)) if torch is not None else (None, None)

    def np_index_add(axis):
        b = a.copy()
        np.add.at(b, (slice(None),) * axis + (rows_idx,), add_rows if axis == 0 else add_cols)
        return b

    # a[:, idx] = v on scratch copies (the same write each call)
    scratch = a.copy()
    c_scratch = crt.from_numpy(a.copy())
    t_scratch = torch.from_numpy(a.copy()) if torch is not None else None

    def np_put_cols():
        scratch[:, rows_idx] = add_cols

    def t_put_cols():
        t_scratch[:, trows] = tac

    def c_put_cols():
        c_scratch[:, crows] = cac

    def np_hist():
        h = np.zeros(n, np.float32)
        np.add.at(h, bins, ones)
        return h

    T = torch  # shorthand in the lambdas
    return [
        ("sort(dim=-1)", lambda: np.sort(a, axis=-1), t is not None and (lambda: T.sort(t, dim=-1)), lambda: c.sort(-1)),
        ("argsort(dim=0)", lambda: np.argsort(a, axis=0, kind="stable"), t is not None and (lambda: T.argsort(t, dim=0, stable=True)), lambda: c.argsort(0)),
        (f"topk(k={k})", lambda: np.argpartition(-a, k - 1, axis=-1)[:, :k], t is not None and (lambda: T.topk(t, k)), lambda: c.topk(k)),
        ("median(dim=-1)", lambda: np.median(a, axis=-1), t is not None and (lambda: T.median(t, dim=-1)), lambda: c.median(-1)),
        ("kthvalue(k=3)", lambda: np.partition(a, 2, axis=-1)[:, 2], t is not None and (lambda: T.kthvalue(t, 3)), lambda: c.kthvalue(3)),
        ("max(dim=1) values+indices", lambda: (a.max(1), a.argmax(1)), t is not None and (lambda: T.max(t, 1)), lambda: c.max(1)),
        ("cumsum(dim=1)", lambda: np.cumsum(a, axis=1), t is not None and (lambda: T.cumsum(t, 1)), lambda: c.cumsum(1)),
        ("cumprod(dim=0)", lambda: np.cumprod(a, axis=0), t is not None and (lambda: T.cumprod(t, 0)), lambda: c.cumprod(0)),
        ("logsumexp(dim=1)", lambda: np.log(np.exp(a).sum(1)), t is not None and (lambda: T.logsumexp(t, 1)), lambda: c.logsumexp(1)),
        ("norm(p=2)", lambda: np.linalg.norm(a), t is not None and (lambda: T.linalg.vector_norm(t)), lambda: c.norm()),
        ("any(dim=1)", lambda: a.any(1), t is not None and (lambda: T.any(t, 1)), lambda: c.any(1)),
        ("unique(counts)", lambda: np.unique(ints, return_counts=True), ti is not None and (lambda: T.unique(ti, return_counts=True)), lambda: ci.unique(return_counts=True)),
        ("unique(dim=0) rows", lambda: np.unique(rows8, axis=0), t is not None and (lambda: T.unique(tr8, dim=0)), lambda: cr8.unique(dim=0)),
        ("roll(3, dims=1)", lambda: np.roll(a, 3, axis=1), t is not None and (lambda: T.roll(t, 3, 1)), lambda: c.roll(3, 1)),
        ("gather(dim=1)", lambda: np.take_along_axis(a, picks, 1), t is not None and (lambda: T.gather(t, 1, tp)), lambda: c.gather(1, cp)),
        ("scatter(dim=1)", np_scatter, t is not None and (lambda: t.scatter(1, tp, tv)), lambda: c.scatter(1, cp, cv)),
        ("scatter_reduce(dim=0, amax)", np_scatter_amax, t is not None and (lambda: t.scatter_reduce(0, tp, tv, "amax")), lambda: c.scatter_reduce(0, cp, cv, "amax")),
        ("scatter_add histogram", np_hist, t is not None and (lambda: T.zeros(n).scatter_add_(0, tb, to)), lambda: crt.zeros(n).scatter_add_(0, cb, co)),
        ("bincount", lambda: np.bincount(bins, minlength=n), t is not None and (lambda: T.bincount(tb, minlength=n)), lambda: crt.bincount(cb, minlength=n)),
        ("bincount(uint8, 256 bins)", lambda: np.bincount(pixels, minlength=256), t is not None and (lambda: T.bincount(tpx, minlength=256)), lambda: crt.bincount(cpx, minlength=256)),
        ("histc(100 bins)", lambda: np.histogram(a, 100, (-3.0, 3.0))[0], t is not None and (lambda: T.histc(t, 100, -3.0, 3.0)), lambda: crt.histc(c, 100, -3.0, 3.0)),
        ("index_add(dim=0)", lambda: np_index_add(0), t is not None and (lambda: t.index_add(0, trows, tar)), lambda: c.index_add(0, crows, car)),
        ("index_add(dim=1)", lambda: np_index_add(1), t is not None and (lambda: t.index_add(1, trows, tac)), lambda: c.index_add(1, crows, cac)),
        ("index_select(dim=0)", lambda: np.take(a, rows_idx, 0), t is not None and (lambda: T.index_select(t, 0, trows)), lambda: crt.index_select(c, 0, crows)),
        ("index_select(dim=1)", lambda: np.take(a, rows_idx, 1), t is not None and (lambda: T.index_select(t, 1, trows)), lambda: crt.index_select(c, 1, crows)),
        ("a[:, idx] = v", lambda: np_put_cols(), t is not None and (lambda: t_put_cols()), lambda: c_put_cols()),
        ("masked_select(a > 0)", lambda: a[a > 0], t is not None and (lambda: T.masked_select(t, t > 0)), lambda: crt.masked_select(c, c > 0)),
        ("a[:, cols > 0] (mask over a dim)", lambda: a[:, a[0] > 0], t is not None and (lambda: t[:, t[0] > 0]), lambda: c[:, c[0] > 0]),
        ("masked_fill(a > 0, 0)", lambda: np.where(a > 0, np.float32(0), a), t is not None and (lambda: t.masked_fill(t > 0, 0.0)), lambda: c.masked_fill(c > 0, 0.0)),
        ("nonzero(a > 1)", lambda: np.argwhere(a > 1), t is not None and (lambda: T.nonzero(t > 1)), lambda: crt.nonzero(c > 1)),
        ("amax(dim=0)", lambda: a.max(0), t is not None and (lambda: T.amax(t, 0)), lambda: c.amax(0)),
        ("prod(dim=0)", lambda: a.prod(0), t is not None and (lambda: t.prod(0)), lambda: c.prod(0)),
        ("linspace", lambda: np.linspace(0, 1, n * n, dtype=np.float32), t is not None and (lambda: T.linspace(0, 1, n * n)), lambda: crt.linspace(0, 1, n * n)),
        ("eye", lambda: np.eye(n, dtype=np.float32), t is not None and (lambda: T.eye(n)), lambda: crt.eye(n)),
        ("rand", lambda: np.random.default_rng(1).random((n, n), dtype=np.float32), t is not None and (lambda: T.rand(n, n)), lambda: crt.rand(n, n)),
        ("randn", lambda: np.random.default_rng(1).standard_normal((n, n), dtype=np.float32), t is not None and (lambda: T.randn(n, n)), lambda: crt.randn(n, n)),
        ("randint", lambda: np.random.default_rng(1).integers(0, 100, (n, n)), t is not None and (lambda: T.randint(0, 100, (n, n))), lambda: crt.randint(0, 100, (n, n))),
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=2048, help="side of the square float32 input")
    p.add_argument("--repeats", type=int, default=9)
    args = p.parse_args()
    lines = [
        f"n = {args.size} (an {args.size} x {args.size} float32 matrix), median of {args.repeats}; ratio = ClikaRT / peer",
        "",
        "| op | numpy ms | torch ms | clika_runtime ms | vs numpy | vs torch |",
        "|---|---|---|---|---|---|",
    ]
    for name, np_fn, torch_fn, crt_fn in rows(args.size):
        tn = median_time(np_fn, args.repeats)
        tt = median_time(torch_fn, args.repeats) if torch_fn else None
        tc = median_time(crt_fn, args.repeats)
        torch_ms = f"{tt * 1e3:.3f}" if tt else "n/a"
        vs_torch = f"{tc / tt:.2f}" if tt else "n/a"
        lines.append(f"| {name} | {tn * 1e3:.3f} | {torch_ms} | {tc * 1e3:.3f} | {tc / tn:.2f} | {vs_torch} |")
        print(lines[-1], flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ops_algorithms.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
