"""ClikaRT vs numpy (and PyTorch, when importable) on the same data, in one process.

Run by `make bench` (after the criterion benches). Prints a table of medians, the ratio of
our time to each peer's (below 1.0: we are faster) and the bandwidth (GB/s) or throughput
(GFLOP/s), and writes it to bench/results/compare.md and bench/results/compare.png.

This machine's environment sets OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, which slow current
numpy's OpenBLAS; they are read when numpy is imported, so the script re-executes itself
without them before importing anything that loads BLAS.
"""

import os
import sys

_SLOW_BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
if any(v in os.environ for v in _SLOW_BLAS_VARS):
    env = {k: v for k, v in os.environ.items() if k not in _SLOW_BLAS_VARS}
    os.execve(sys.executable, [sys.executable, *sys.argv], env)
# Mesa's Vulkan driver (the gpu:0 rows) complains on stderr without a private runtime dir.
if not os.path.isdir(os.environ.get("XDG_RUNTIME_DIR", "")):
    import tempfile

    os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="xdg-")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import clika_runtime as crt  # noqa: E402

try:
    import torch  # type: ignore[import-not-found]  # noqa: E402
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

RESULTS = Path(__file__).resolve().parent / "results"


def median_time(fn, repeats, warmup=1):
    """Median seconds of one call of `fn` over `repeats` timed calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def per_call(fn, repeats, calls):
    """Median seconds per call, timing loops of `calls` calls (for sub-microsecond work)."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times)


class Row:
    def __init__(self, name, unit, work, times):
        self.name = name
        self.unit = unit  # "GB/s", "GFLOP/s" or "us" (per call)
        self.work = work  # bytes or flops for one call; None for per-call rows
        self.times = times  # {"numpy": s | None, "torch": s | None | "n/a", "clika_runtime": s}


def blas_info():
    lines = []
    try:
        from threadpoolctl import threadpool_info

        for p in threadpool_info():
            lines.append(
                f"{p.get('internal_api')} {p.get('version')} ({p.get('user_api')}), "
                f"{p.get('num_threads')} threads, arch {p.get('architecture')}: {p.get('filepath')}"
            )
    except ImportError:
        lines.append("threadpoolctl not installed: BLAS details unknown")
    return lines


def fma_peak():
    """This machine's FP32 FMA throughput (GFLOP/s, all CPUs) measured by bench/peak_fma.c,
    or None without a C compiler. The limit the matmul row is read against."""
    import shutil
    import subprocess
    import tempfile

    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "peak_fma"
        src = Path(__file__).resolve().parent / "peak_fma.c"
        built = subprocess.run([cc, "-O3", "-march=native", str(src), "-o", str(exe), "-lpthread"],
                               capture_output=True, text=True)
        if built.returncode != 0:
            return None
        out = subprocess.run([str(exe), str(os.cpu_count() or 1)], capture_output=True, text=True)
        try:
            return float(out.stdout.strip())
        except ValueError:
            return None


def run(repeats, quick):
    big = 1 << 24 if quick else 64 << 20
    side = 2048 if quick else 4096
    rng = np.random.default_rng(0)
    rows = []
    have_torch = torch is not None

    def peers(np_fn, torch_fn, crt_fn, timer):
        times = {"numpy": timer(np_fn) if np_fn else None}
        times["torch"] = timer(torch_fn) if (have_torch and torch_fn) else ("n/a" if torch_fn else None)
        times["clika_runtime"] = timer(crt_fn)
        return times

    big_timer = lambda f: median_time(f, repeats)  # noqa: E731

    # sum of a large contiguous float32 array
    a = rng.standard_normal(big, dtype=np.float32)
    ta, ca = (torch.from_numpy(a) if have_torch else None), crt.from_numpy(a)
    rows.append(
        Row(
            f"sum of {big >> 20} M float32",
            "GB/s",
            a.nbytes,
            peers(lambda: a.sum(), lambda: ta.sum(), lambda: ca.sum(), big_timer),
        )
    )
    del a, ta, ca

    # a pitched view: side x side of a side x 2*side array
    base = rng.standard_normal((side, 2 * side), dtype=np.float32)
    pv = base[:, :side]
    tp = torch.from_numpy(base)[:, :side] if have_torch else None
    cp = crt.from_numpy(base)[:, :side]
    nbytes = side * side * 4
    rows.append(
        Row(
            f"sum of a {side}x{side} view, row pitch {2 * side}",
            "GB/s",
            nbytes,
            peers(lambda: pv.sum(), lambda: tp.sum(), lambda: cp.sum(), big_timer),
        )
    )

    sq = rng.standard_normal((side, side), dtype=np.float32)
    st = sq.T
    tt = torch.from_numpy(sq).T if have_torch else None
    ct = crt.from_numpy(sq).T
    rows.append(
        Row(
            f"sum of the transposed {side}x{side} view",
            "GB/s",
            nbytes,
            peers(lambda: st.sum(), lambda: tt.sum(), lambda: ct.sum(), big_timer),
        )
    )
    rows.append(
        Row(
            "contiguous() of the pitched view (read + write)",
            "GB/s",
            2 * nbytes,
            peers(lambda: np.ascontiguousarray(pv), lambda: tp.contiguous(), lambda: cp.contiguous(), big_timer),
        )
    )
    rows.append(
        Row(
            "contiguous() of the transposed view (read + write)",
            "GB/s",
            2 * nbytes,
            peers(lambda: np.ascontiguousarray(st), lambda: tt.contiguous(), lambda: ct.contiguous(), big_timer),
        )
    )
    del base, pv, tp, cp, sq, st, tt, ct

    # a + b, fresh result
    n = (10 << 20) // (4 if quick else 1)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    tx, ty = (torch.from_numpy(x), torch.from_numpy(y)) if have_torch else (None, None)
    cx, cy = crt.from_numpy(x), crt.from_numpy(y)
    rows.append(
        Row(
            f"a + b, {n / (1 << 20):g} M float32, fresh result",
            "GB/s",
            3 * x.nbytes,
            peers(lambda: x + y, lambda: tx + ty, lambda: cx + cy, big_timer),
        )
    )
    del x, y, tx, ty, cx, cy

    # matmul
    m = 512 if quick else 1024
    p = rng.standard_normal((m, m), dtype=np.float32)
    q = rng.standard_normal((m, m), dtype=np.float32)
    tp_, tq = (torch.from_numpy(p), torch.from_numpy(q)) if have_torch else (None, None)
    cp_, cq = crt.from_numpy(p), crt.from_numpy(q)
    rows.append(
        Row(
            f"matmul {m}x{m}x{m} float32",
            "GFLOP/s",
            2 * m**3,
            peers(lambda: p @ q, lambda: tp_ @ tq, lambda: cp_ @ cq, big_timer),
        )
    )

    # per-call overhead
    calls = 2000 if quick else 20000
    small_timer = lambda f: per_call(f, repeats, calls)  # noqa: E731
    s = rng.standard_normal(1000, dtype=np.float32)
    s2 = rng.standard_normal(1000, dtype=np.float32)
    ts, ts2 = (torch.from_numpy(s), torch.from_numpy(s2)) if have_torch else (None, None)
    cs, cs2 = crt.from_numpy(s), crt.from_numpy(s2)
    rows.append(Row("sum of 1,000 float32, per call", "us", None,
                    peers(lambda: s.sum(), lambda: ts.sum(), lambda: cs.sum(), small_timer)))
    rows.append(Row("a + b of 1,000 float32, per call", "us", None,
                    peers(lambda: s + s2, lambda: ts + ts2, lambda: cs + cs2, small_timer)))
    rows.append(Row("from_numpy, per call", "us", None,
                    peers(None, lambda: torch.from_numpy(s), lambda: crt.from_numpy(s), small_timer)))
    rows.append(Row("t.numpy(), per call", "us", None,
                    peers(None, lambda: ts.numpy(), lambda: cs.numpy(), small_timer)))
    rows.extend(safetensors_rows(repeats, quick))
    rows.extend(device_rows(repeats, quick))
    return rows


def device_rows(repeats, quick):
    """The same work on gpu:0 where a device exists (in CI and on this machine: Mesa's
    software Vulkan driver, several times slower than the CPU kernels; reported as measured).
    The numpy column is numpy on the CPU; ours includes waiting for the queue."""
    try:
        probe = crt.zeros(1).to("gpu:0")
        probe.synchronize()
    except crt.ClikaError as e:
        print(f"no GPU rows: {e}")
        return []
    n = 1 << 20 if quick else 4 << 20
    rng = np.random.default_rng(1)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    ca = crt.from_numpy(a)
    ga, gb = ca.to("gpu:0"), crt.from_numpy(b).to("gpu:0")
    ga.synchronize()
    timer = lambda f: median_time(f, max(3, repeats // 2))  # noqa: E731

    def add():
        (ga + gb).synchronize()

    def total():
        return ga.sum().item()

    def upload_copy():
        ca.to("gpu:0", copy=True).synchronize()

    # Host memory in place (a unified-memory GPU such as lavapipe imports the pages; a
    # discrete one copies either way): 256 MiB, and a camera frame's whole trip.
    big = np.full((256 if not quick else 64) << 18, 0.5, dtype=np.float32)
    cbig = crt.from_numpy(big)
    frame = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
    mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    std = np.array([0.229, 0.224, 0.225], dtype=np.float32)
    gmean = crt.from_numpy(mean).to("gpu:0", copy=True)
    gstd = crt.from_numpy(std).to("gpu:0", copy=True)

    def frame_trip(copy):
        def run():
            on = crt.from_numpy(frame).to("gpu:0", copy=copy)
            x = (on.to(crt.float32) * (1.0 / 255.0) - gmean) / gstd
            return x.to("cpu").numpy()
        return run

    # The image kernels on the device, on a frame already there (uploaded once, viewed
    # pitched); numpy's column is the same work on the CPU in float32 numpy.
    gframe = crt.from_numpy(frame).to("gpu:0", copy=True)[:, :1904]
    nframe = frame[:, :1904]
    nv12 = rng.integers(0, 256, (1080 * 3 // 2, 1920), dtype=np.uint8)
    gnv12 = crt.from_numpy(nv12).to("gpu:0", copy=True)
    gnchw = gframe.permute(2, 0, 1).unsqueeze(0)

    def np_nv12():
        y = nv12[:1080].astype(np.float32) - 16.0
        uv = nv12[1080:].reshape(540, 960, 2).astype(np.float32) - 128.0
        uv = uv.repeat(2, axis=0).repeat(2, axis=1)
        u, v = uv[..., 0], uv[..., 1]
        rgb = np.stack([1.164 * y + 1.596 * v, 1.164 * y - 0.392 * u - 0.813 * v,
                        1.164 * y + 2.017 * u], axis=-1)
        return np.clip(rgb + 0.5, 0, 255).astype(np.uint8)

    def g_sync(f):
        return lambda: f().synchronize()

    label = f"{n >> 20} M float32"
    big_label = f"{big.nbytes >> 20} MiB float32"
    return [
        Row(f"upload {big_label} to gpu:0, copying (.to(copy=True) + synchronize)", "GB/s",
            big.nbytes, {"numpy": None, "torch": None,
                         "clika_runtime": timer(lambda: cbig.to("gpu:0", copy=True).synchronize())}),
        Row(f"upload {big_label} to gpu:0, .to (in place on unified memory)", "GB/s", big.nbytes,
            {"numpy": None, "torch": None,
             "clika_runtime": timer(lambda: cbig.to("gpu:0").synchronize())}),
        Row("uint8 1080p frame: wrap, to gpu:0, normalize, back (numpy: CPU), copying", "ms", None,
            {"numpy": timer(lambda: (frame.astype(np.float32) * (1.0 / 255.0) - mean) / std),
             "torch": None, "clika_runtime": timer(frame_trip(True))}),
        Row("uint8 1080p frame: wrap, to gpu:0, normalize, back (numpy: CPU), .to in place", "ms",
            None, {"numpy": None, "torch": None, "clika_runtime": timer(frame_trip(False))}),
        Row("normalize_image of a pitched uint8 1080p frame on gpu:0 (numpy: CPU)", "ms", None,
            {"numpy": timer(lambda: ((nframe.astype(np.float32) / 255 - mean) / std)
                            .transpose(2, 0, 1).copy()),
             "torch": None,
             "clika_runtime": timer(g_sync(lambda: crt.normalize_image(gframe, mean, std)))}),
        Row("cvt_color NV12 -> RGB, 1080p, on gpu:0 (numpy: CPU, float32)", "ms", None,
            {"numpy": timer(np_nv12), "torch": None,
             "clika_runtime": timer(g_sync(lambda: crt.cvt_color(gnv12, "YUV2RGB_NV12")))}),
        Row("interpolate bilinear uint8 1080p HWC -> 540x960 on gpu:0", "ms", None,
            {"numpy": None, "torch": None,
             "clika_runtime": timer(g_sync(lambda: crt.interpolate(gnchw, size=(540, 960),
                                                                   mode="bilinear")))}),
        Row(f"upload {label} to gpu:0 (.to(copy=True) + synchronize)", "GB/s", a.nbytes,
            {"numpy": None, "torch": None, "clika_runtime": timer(upload_copy)}),
        Row(f"a + b, {label}, on gpu:0 (numpy: CPU)", "GB/s", 3 * a.nbytes,
            {"numpy": timer(lambda: a + b), "torch": None, "clika_runtime": timer(add)}),
        Row(f"sum of {label} on gpu:0 (numpy: CPU)", "GB/s", a.nbytes,
            {"numpy": timer(lambda: a.sum()), "torch": None, "clika_runtime": timer(total)}),
    ]


def safetensors_rows(repeats, quick):
    """Loading a 1 GiB safetensors file (16 float32 tensors, written to a temporary
    directory, so both sides read it from the page cache): crt.load_safetensors maps it and
    reads nothing until used; safetensors.numpy.load_file reads every byte into numpy
    arrays. The second row touches everything: load, then sum every tensor."""
    try:
        from safetensors.numpy import load_file, save_file
    except ImportError:  # pragma: no cover - `make bench` installs it
        return []
    import tempfile

    total = (256 if quick else 1024) << 20
    n = 16
    each = total // n // 4
    rng = np.random.default_rng(1)
    timer = lambda f: median_time(f, min(repeats, 5))  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "weights.safetensors")
        save_file({f"layer{i}": rng.standard_normal(each, dtype=np.float32) for i in range(n)}, path)
        name = f"{total >> 20} MiB safetensors"

        def theirs_touch():
            return [a.sum() for a in load_file(path).values()]

        def ours_touch():
            return [t.sum() for t in crt.load_safetensors(path).values()]

        rows = [
            Row(f"load {name} (ours: mapped, lazy; numpy: safetensors.numpy.load_file reads)", "GB/s", None,
                {"numpy": timer(lambda: load_file(path)), "torch": None,
                 "clika_runtime": timer(lambda: crt.load_safetensors(path))}),
            Row(f"load {name} + sum of every tensor", "GB/s", total,
                {"numpy": timer(theirs_touch), "torch": None, "clika_runtime": timer(ours_touch)}),
        ]
    return rows


def fmt_time(t):
    if t is None:
        return "—"
    if t == "n/a":
        return "not installed"
    if t < 1e-3:
        return f"{t * 1e6:.2f} µs"
    return f"{t * 1e3:.2f} ms"


def fmt_rate(row, t):
    if not isinstance(t, float) or row.work is None:
        return ""
    scale = 1e9
    return f" ({row.work / t / scale:.1f} {row.unit})"


def fmt_ratio(ours, theirs):
    if not isinstance(theirs, float):
        return "—"
    return f"{ours / theirs:.2f}"


def table(rows):
    head = "| operation | numpy | PyTorch | clika_runtime | ours / numpy | ours / torch |"
    lines = [head, "|---|---|---|---|---|---|"]
    for r in rows:
        ours = r.times["clika_runtime"]
        cells = [
            r.name,
            fmt_time(r.times["numpy"]) + fmt_rate(r, r.times["numpy"]),
            fmt_time(r.times["torch"]) + fmt_rate(r, r.times["torch"]),
            fmt_time(ours) + fmt_rate(r, ours),
            fmt_ratio(ours, r.times["numpy"]),
            fmt_ratio(ours, r.times["torch"]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def chart(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    libs = ["numpy", "torch", "clika_runtime"]
    colors = {"numpy": "#4c72b0", "torch": "#dd8452", "clika_runtime": "#55a868"}
    fig, ax = plt.subplots(figsize=(11, 0.55 * len(rows) + 1.5))
    h = 0.27
    for i, r in enumerate(rows):
        refs = [r.times[p] for p in ("numpy", "torch") if isinstance(r.times[p], float)]
        for j, lib in enumerate(libs):
            t = r.times[lib]
            if not isinstance(t, float):
                continue
            if not refs:  # no peer to compare with: print the time only
                ax.text(0.98, i, f"{lib}: {fmt_time(t)} (no numpy equivalent) ", va="center", ha="right", fontsize=7)
                continue
            x = t / refs[0]
            ax.barh(i + (j - 1) * h, x, height=h, color=colors[lib])
            ax.text(x, i + (j - 1) * h, " " + fmt_time(t), va="center", fontsize=6)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r.name for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.axvline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("median time relative to numpy (PyTorch where numpy has none); log scale, lower is faster")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[lib]) for lib in libs if any(isinstance(r.times[lib], float) for r in rows)]
    names = [lib for lib in libs if any(isinstance(r.times[lib], float) for r in rows)]
    ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.set_title("clika_runtime vs numpy" + (" vs PyTorch" if "torch" in names else " (PyTorch not installed)"))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=11, help="timed calls per row (median reported)")
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run, not for the report)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="where compare.md and compare.png go")
    args = ap.parse_args()

    env_lines = [
        f"Python {sys.version.split()[0]}, numpy {np.__version__}, "
        + (f"PyTorch {torch.__version__} ({torch.get_num_threads()} threads)" if torch else "PyTorch not installed")
        + f", {os.cpu_count()} CPUs",
        *("numpy BLAS: " + line for line in blas_info()),
        "OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE: unset for this process",
    ]
    for line in env_lines:
        print(line)
    rows = run(args.repeats, args.quick)
    peak = fma_peak()
    if peak is not None:
        mm = next(r for r in rows if r.name.startswith("matmul"))
        ours = mm.work / mm.times["clika_runtime"] / 1e9
        line = (f"FP32 FMA peak measured on this machine (bench/peak_fma.c, {os.cpu_count()} threads): "
                f"{peak:.0f} GFLOP/s; our matmul reaches {100 * ours / peak:.0f} % of it")
    else:
        line = "FP32 FMA peak: not measured (no C compiler)"
    env_lines.append(line)
    print(line)
    text = table(rows)
    print()
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    md = args.out / "compare.md"
    md.write_text(
        "# clika_runtime vs numpy vs PyTorch\n\n"
        + "".join(f"- {line}\n" for line in env_lines)
        + f"- medians of {args.repeats} timed runs each (per-call rows: loops of calls); ratios are time ratios, below 1.00 means clika_runtime is faster\n\n"
        + text
        + "\n"
    )
    chart(rows, args.out / "compare.png")
    print(f"\nwrote {md} and {args.out / 'compare.png'}")


if __name__ == "__main__":
    main()
