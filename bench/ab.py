"""A/B one benchmark script across two builds of clika_runtime, rounds interleaved.

    python bench/ab.py --a OLD_SITE --b NEW_SITE [--rounds 5] SCRIPT [SCRIPT ARGS...]

OLD_SITE / NEW_SITE are folders holding a `clika_runtime` package (an unpacked wheel, or a
checkout's `crates/clika-rt-python/python` after `maturin develop`); each is put first on
PYTHONPATH of a fresh interpreter that runs SCRIPT, alternating A, B, A, B... so the
machine's drift lands on both. SCRIPT must be a `bench/compare.py`-style report: it writes a
markdown table (`| operation | ... | clika_runtime | ...`) to `--out DIR`/compare.md. The
median of each row's clika_runtime time over the rounds is printed for A and B with B/A
(above 1.00: B is slower).

Used to check that a refactor made no row slower (issue 12): A is the commit before it.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(cell):
    """The time at the start of a table cell ("12.30 ms (5.4 GB/s)"), or None."""
    m = re.match(r"\s*([0-9.]+)\s*(ns|µs|us|ms|s)\b", cell)
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def rows_of(md):
    """{operation: clika_runtime seconds} from a compare.md table."""
    out, col = {}, None
    for line in md.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "clika_runtime" in cells:
            col = cells.index("clika_runtime")
            continue
        if col is None or set(cells[0]) <= set("-"):
            continue
        t = seconds(cells[col])
        if t is not None:
            out[cells[0]] = t
    return out


def one_round(site, script, args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory(prefix="ab-") as out:
        cmd = [sys.executable, str(script), *args, "--out", out]
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
        return rows_of((Path(out) / "compare.md").read_text())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", type=Path, required=True, help="site folder of build A (before)")
    ap.add_argument("--b", type=Path, required=True, help="site folder of build B (after)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("script", type=Path)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    ns = ap.parse_args()
    runs = {"A": [], "B": []}
    for i in range(ns.rounds):
        for side, site in (("A", ns.a), ("B", ns.b)):
            runs[side].append(one_round(site, ns.script, ns.args))
            print(f"round {i + 1}/{ns.rounds} {side} done", file=sys.stderr, flush=True)
    names = [n for n in runs["A"][0] if all(n in r for rs in runs.values() for r in rs)]
    print(f"| row (clika_runtime, median of {ns.rounds} interleaved runs) | A | B | B / A |")
    print("|---|---|---|---|")
    for n in names:
        a = statistics.median(r[n] for r in runs["A"])
        b = statistics.median(r[n] for r in runs["B"])
        print(f"| {n} | {fmt(a)} | {fmt(b)} | {b / a:.2f} |")


def fmt(t):
    return f"{t * 1e6:.2f} µs" if t < 1e-3 else f"{t * 1e3:.2f} ms"


if __name__ == "__main__":
    main()
