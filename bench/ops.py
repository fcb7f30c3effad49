"""Every operation of the Python package against numpy and PyTorch (when importable), in one
process, rounds interleaved (bench/harness.py), writing bench/results/ops.md.

    .venv/bin/python bench/ops.py                  # sizes 1e3, 1e6, 1e7 (make bench)
    .venv/bin/python bench/ops.py --sizes 1000 --rounds 3 --out /tmp/ops.md   # a quick check

Rows: elementwise ops on contiguous, transposed and broadcast float32 operands (and int8 and
uint16 for the integer paths), reductions over all elements and over each dimension of a matrix,
softmax/log_softmax, casts (uint16 → float32 among them), copies of transposed and pitched
layouts, in-place add, joins, matmul. A peer without the operation shows "—". The GB/s
column counts the bytes read and written once (inputs + result) for the memory-bound rows.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

_SLOW_BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
if any(v in os.environ for v in _SLOW_BLAS_VARS):
    env = {k: v for k, v in os.environ.items() if k not in _SLOW_BLAS_VARS}
    os.execve(sys.executable, [sys.executable, *sys.argv], env)

import numpy as np  # noqa: E402

import clika_runtime as crt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import BLAS_SPIN, Case, markdown, run  # noqa: E402

try:
    import torch  # type: ignore[import-not-found]  # noqa: E402

    torch.set_num_threads(os.cpu_count() or 1)
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

RESULTS = Path(__file__).resolve().parent / "results"


def shape_for(n: int) -> tuple:
    """A matrix of about `n` elements, as square as a power of two allows."""
    rows = 2 ** max(0, round(math.log2(max(1, n)) / 2))
    return (rows, max(1, n // rows))


def peers(
    a: List[np.ndarray],
    ours: Callable[..., object],
    np_fn: Optional[Callable[..., object]],
    torch_fn: Optional[Callable[..., object]],
    view: Callable[[object], object] = lambda t: t,
) -> Dict[str, Callable[[], object]]:
    """The callables of one row: each library's operands built once, outside the timing.
    Strided arrays (the pitched image) are borrowed through DLPack, which keeps their
    strides; from_numpy borrows C-contiguous arrays only."""
    ct = [view(crt.from_numpy(x) if x.flags.c_contiguous else crt.from_dlpack(x)) for x in a]
    impls: Dict[str, Callable[[], object]] = {"clika": lambda: ours(*ct)}
    if np_fn is not None:
        nt = [view(x) for x in a]
        impls["numpy"] = lambda: np_fn(*nt)
    if torch is not None and torch_fn is not None:
        tt = [view(torch.from_numpy(x)) for x in a]
        impls["torch"] = lambda: torch_fn(*tt)
    return impls


def peers_if_torch_can(
    a: List[np.ndarray],
    ours: Callable[..., object],
    np_fn: Optional[Callable[..., object]],
    torch_fn: Optional[Callable[..., object]],
) -> Dict[str, Callable[[], object]]:
    """`peers`, leaving torch out when its `from_numpy` lacks the dtype (uint16 before 2.3)."""
    try:
        return peers(a, ours, np_fn, torch_fn)
    except (TypeError, RuntimeError):
        return peers(a, ours, np_fn, None)


def transposed(t: object) -> object:
    return t.T if isinstance(t, np.ndarray) else t.transpose(0, 1)  # type: ignore[attr-defined]


def cases_for(n: int, rng: np.random.Generator) -> List[Case]:
    r, c = shape_for(n)
    x = rng.standard_normal((r, c), dtype=np.float32)
    y = rng.standard_normal((r, c), dtype=np.float32)
    pos = np.abs(x) + np.float32(0.5)
    row = rng.standard_normal((1, c), dtype=np.float32)
    i8a = rng.integers(-100, 100, (r, c), dtype=np.int8)
    i8b = rng.integers(-100, 100, (r, c), dtype=np.int8)
    u16a = rng.integers(0, 65535, (r, c), dtype=np.uint16, endpoint=True)
    u16b = rng.integers(0, 65535, (r, c), dtype=np.uint16, endpoint=True)
    size = f"{r}×{c}"
    f4 = 4 * r * c
    out: List[Case] = []

    binary = {
        "add": (crt.add, np.add, "add"),
        "sub": (crt.sub, np.subtract, "sub"),
        "mul": (crt.mul, np.multiply, "mul"),
        "div": (crt.div, np.divide, "div"),
        "pow": (crt.pow, np.power, "pow"),
        "maximum": (crt.maximum, np.maximum, "maximum"),
        "minimum": (crt.minimum, np.minimum, "minimum"),
        "eq": (crt.eq, np.equal, "eq"),
        "lt": (crt.lt, np.less, "lt"),
        "ge": (crt.ge, np.greater_equal, "ge"),
    }
    for name, (ours, np_fn, tname) in binary.items():
        tf = getattr(torch, tname) if torch is not None else None
        out.append(Case(name, f"f32 {size}", peers([x, pos], ours, np_fn, tf), 3 * f4))
        out.append(
            Case(name, f"f32 {size} transposed", peers([x, pos], ours, np_fn, tf, transposed))
        )
        out.append(Case(name, f"f32 {size} + row", peers([x, row], ours, np_fn, tf), 2 * f4))
    for name in ("add", "mul"):
        ours, np_fn, tname = binary[name]
        tf = getattr(torch, tname) if torch is not None else None
        out.append(Case(name, f"i8 {size}", peers([i8a, i8b], ours, np_fn, tf), 3 * r * c))
    # 16-bit images and depth maps: uint16 arithmetic wraps as numpy's does.
    tadd = torch.add if torch is not None else None
    out.append(Case("add", f"u16 {size}", peers_if_torch_can([u16a, u16b], crt.add, np.add, tadd), 6 * r * c))

    def sigmoid_np(v: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-v))

    unary = {
        "neg": (crt.neg, np.negative, "neg", x),
        "abs": (crt.abs, np.abs, "abs", x),
        "exp": (crt.exp, np.exp, "exp", x),
        "log": (crt.log, np.log, "log", pos),
        "sqrt": (crt.sqrt, np.sqrt, "sqrt", pos),
        "rsqrt": (crt.rsqrt, lambda v: 1 / np.sqrt(v), "rsqrt", pos),
        "sin": (crt.sin, np.sin, "sin", x),
        "cos": (crt.cos, np.cos, "cos", x),
        "tanh": (crt.tanh, np.tanh, "tanh", x),
        "sigmoid": (crt.sigmoid, sigmoid_np, "sigmoid", x),
        "relu": (crt.relu, lambda v: np.maximum(v, 0), "relu", x),
        "gelu": (crt.gelu, None, "nn.functional.gelu", x),
        "silu": (crt.silu, lambda v: v * sigmoid_np(v), "nn.functional.silu", x),
        "erf": (crt.erf, None, "erf", x),
    }
    for name, (ours, np_fn, tname, v) in unary.items():
        tf = None
        if torch is not None:
            tf = torch
            for part in tname.split("."):
                tf = getattr(tf, part)
        out.append(Case(name, f"f32 {size}", peers([v], ours, np_fn, tf), 2 * f4))
        out.append(Case(name, f"f32 {size} transposed", peers([v], ours, np_fn, tf, transposed)))

    reductions = {
        "sum": (crt.sum, np.sum, "sum"),
        "mean": (crt.mean, np.mean, "mean"),
        "prod": (crt.prod, np.prod, "prod"),
        # One int dim returns values and indices, as torch.max/min does (numpy's max returns
        # values only: its figure is the cheaper job).
        "max": (crt.max, np.max, "max"),
        "min": (crt.min, np.min, "min"),
        # Values only, in all three: the like-for-like row for numpy's max/min.
        "amax": (crt.amax, np.amax, "amax"),
        "amin": (crt.amin, np.amin, "amin"),
        "argmax": (crt.argmax, np.argmax, "argmax"),
        "argmin": (crt.argmin, np.argmin, "argmin"),
        "var": (crt.var, lambda v, axis=None: np.var(v, axis=axis, ddof=1), "var"),
        "std": (crt.std, lambda v, axis=None: np.std(v, axis=axis, ddof=1), "std"),
    }
    for name, (ours, np_fn, tname) in reductions.items():
        tf = getattr(torch, tname) if torch is not None else None
        out.append(Case(name, f"f32 {size} all", peers([x], ours, np_fn, tf), f4))
        for d in (0, 1):
            out.append(
                Case(
                    name,
                    f"f32 {size} dim={d}",
                    peers(
                        [x],
                        lambda t, d=d, f=ours: f(t, d),
                        lambda t, d=d, f=np_fn: f(t, axis=d),
                        (lambda t, d=d, f=tf: f(t, d)) if tf is not None else None,
                    ),
                    f4,
                )
            )

    # Many short rows (a classifier's ten scores): every output folds a row of ten.
    xc = x.reshape(-1)[: (x.size // 10) * 10].reshape(-1, 10)
    for name in ("sum", "amax", "argmax"):
        ours, np_fn = getattr(crt, name), getattr(np, name)
        tf = getattr(torch, name) if torch is not None else None
        out.append(
            Case(
                name,
                f"f32 {xc.shape[0]}×10 dim=1",
                peers(
                    [xc],
                    lambda t, f=ours: f(t, 1),
                    lambda v, f=np_fn: f(v, axis=1),
                    (lambda t, f=tf: f(t, 1)) if tf is not None else None,
                ),
                4 * xc.size,
            )
        )

    def softmax_np(v: np.ndarray) -> np.ndarray:
        e = np.exp(v - v.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def log_softmax_np(v: np.ndarray) -> np.ndarray:
        s = v - v.max(axis=-1, keepdims=True)
        return s - np.log(np.exp(s).sum(axis=-1, keepdims=True))

    tsm = torch.softmax if torch is not None else None
    tlsm = torch.log_softmax if torch is not None else None
    out.append(
        Case(
            "softmax",
            f"f32 {size} dim=-1",
            peers([x], lambda t: crt.softmax(t, -1), softmax_np, tsm and (lambda t: tsm(t, -1))),
            2 * f4,
        )
    )
    out.append(
        Case(
            "log_softmax",
            f"f32 {size} dim=-1",
            peers(
                [x], lambda t: crt.log_softmax(t, -1), log_softmax_np, tlsm and (lambda t: tlsm(t, -1))
            ),
            2 * f4,
        )
    )

    # float16 rows (computed in float32 lanes, rounded once) and the non-innermost dim.
    xh = x.astype(np.float16)
    out.append(
        Case(
            "softmax",
            f"f16 {size} dim=-1",
            peers([xh], lambda t: crt.softmax(t, -1), None, tsm and (lambda t: tsm(t, -1))),
            2 * 2 * r * c,
        )
    )
    out.append(
        Case(
            "softmax",
            f"f32 {size} dim=0",
            peers(
                [x],
                lambda t: crt.softmax(t, 0),
                lambda v: np.exp(v - v.max(axis=0)) / np.exp(v - v.max(axis=0)).sum(axis=0),
                tsm and (lambda t: tsm(t, 0)),
            ),
            2 * f4,
        )
    )
    # Over the channels of an image batch (a segmentation head's per-pixel classes).
    side = max(int((x.size / 64) ** 0.5), 1)
    nchw = rng.standard_normal((4, 16, side, side)).astype(np.float32)
    out.append(
        Case(
            "softmax",
            f"f32 {nchw.shape[0]}×16×{side}×{side} dim=1",
            peers(
                [nchw],
                lambda t: crt.softmax(t, 1),
                lambda v: np.exp(v - v.max(axis=1, keepdims=True))
                / np.exp(v - v.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True),
                tsm and (lambda t: tsm(t, 1)),
            ),
            2 * 4 * nchw.size,
        )
    )

    # Class scores: many rows of 10 (a classifier's logits).
    out.append(
        Case(
            "softmax",
            f"f32 {xc.shape[0]}×10 dim=-1",
            peers([xc], lambda t: crt.softmax(t, -1), softmax_np, tsm and (lambda t: tsm(t, -1))),
            2 * 4 * xc.size,
        )
    )

    # Copies and casts.
    out.append(
        Case(
            "contiguous",
            f"f32 {size} transposed",
            peers([x], lambda t: t.contiguous(), np.ascontiguousarray, lambda t: t.contiguous(), transposed),
            2 * f4,
        )
    )
    frame = rng.integers(0, 255, (max(1, r // 2), max(1, c // 3), 3), dtype=np.uint8)
    pitched = np.pad(frame, ((0, 0), (0, 8), (0, 0)))[:, : frame.shape[1], :]
    out.append(
        Case(
            "contiguous",
            f"u8 pitched HWC→CHW {frame.shape}",
            peers(
                [pitched],
                lambda t: t.permute(2, 0, 1).contiguous(),
                lambda v: np.ascontiguousarray(v.transpose(2, 0, 1)),
                lambda t: t.permute(2, 0, 1).contiguous(),
            ),
            2 * frame.size,
        )
    )
    out.append(
        Case(
            "to",
            f"f32→f16 {size}",
            peers([x], lambda t: t.to(crt.float16), lambda v: v.astype(np.float16), lambda t: t.to(torch.float16)),
            6 * r * c,
        )
    )
    out.append(
        Case(
            "to",
            f"f32→i32 {size}",
            peers([x], lambda t: t.to(crt.int32), lambda v: v.astype(np.int32), lambda t: t.to(torch.int32)),
            8 * r * c,
        )
    )
    # The other directions and widths: the half types both ways, integers to float, and
    # float to a narrow integer (quantization's last step).
    xh16 = x.astype(np.float16)
    xi32 = (x * 1000).astype(np.int32)
    for label, src, ours, np_to, torch_to, moved in (
        ("f16→f32", xh16, crt.float32, np.float32, "float32", 6),
        ("f32→bf16", x, crt.bfloat16, None, "bfloat16", 6),
        ("i32→f32", xi32, crt.float32, np.float32, "float32", 8),
        ("f32→i8", x * 50, crt.int8, np.int8, "int8", 5),
        ("f32→i64", x * 1000, crt.int64, np.int64, "int64", 12),
    ):
        out.append(
            Case(
                "to",
                f"{label} {size}",
                peers(
                    [src],
                    lambda t, d=ours: t.to(d),
                    (lambda v, d=np_to: v.astype(d)) if np_to is not None else None,
                    (lambda t, d=torch_to: t.to(getattr(torch, d))) if torch is not None else None,
                ),
                moved * r * c,
            )
        )

    # A transpose converts keeping its layout (numpy's astype order "K", PyTorch's
    # preserve_format); a row-major copy of a transposed float16 moves 2-byte tiles.
    out.append(
        Case(
            "to",
            f"f32→f16 {size} transposed",
            peers(
                [x],
                lambda t: t.to(crt.float16),
                lambda v: v.astype(np.float16),
                lambda t: t.to(torch.float16),
                transposed,
            ),
            6 * r * c,
        )
    )
    out.append(
        Case(
            "contiguous",
            f"f16 {size} transposed",
            peers([xh16], lambda t: t.contiguous(), np.ascontiguousarray, lambda t: t.contiguous(), transposed),
            4 * r * c,
        )
    )
    out.append(
        Case(
            "to",
            f"u16→f32 {size}",
            peers_if_torch_can(
                [u16a],
                lambda t: t.to(crt.float32),
                lambda v: v.astype(np.float32),
                lambda t: t.to(torch.float32),
            ),
            6 * r * c,
        )
    )

    # In place, where, clamp, joins, matmul.
    xa, ya = x.copy(), y
    out.append(
        Case(
            "add_",
            f"f32 {size}",
            peers([xa, ya], lambda a, b: a.add_(b), lambda a, b: np.add(a, b, out=a), lambda a, b: a.add_(b)),
            3 * f4,
        )
    )
    cond = x > 0
    out.append(
        Case(
            "where",
            f"f32 {size}",
            peers([cond, x, y], crt.where, np.where, torch.where if torch is not None else None),
            3 * f4 + r * c,
        )
    )
    out.append(
        Case(
            "where",
            f"f32 {size} transposed",
            peers([cond, x, y], crt.where, np.where, torch.where if torch is not None else None, transposed),
        )
    )
    out.append(
        Case(
            "where",
            f"f32 {size}, scalar other",
            peers(
                [cond, x],
                lambda m, t: crt.where(m, t, 0.0),
                lambda m, v: np.where(m, v, np.float32(0)),
                torch and (lambda m, t: torch.where(m, t, 0.0)),
            ),
            2 * f4 + r * c,
        )
    )
    # Masked writes in place (each call writes the same values, so repeats are alike).
    xm = x.copy()
    out.append(
        Case(
            "masked_fill_",
            f"f32 {size}",
            peers(
                [xm, cond],
                lambda t, m: t.masked_fill_(m, 0.0),
                lambda v, m: np.putmask(v, m, np.float32(0)),
                lambda t, m: t.masked_fill_(m, 0.0),
            ),
            2 * f4 + r * c,
        )
    )

    def set_masked(t: object, m: object) -> None:
        t[m] = 0.0  # type: ignore[index]

    out.append(Case("x[mask] = v", f"f32 {size}", peers([xm, cond], set_masked, set_masked, set_masked), 2 * f4 + r * c))
    for suffix, view, nbytes in (("", lambda t: t, 2 * f4), (" transposed", transposed, None)):
        out.append(
            Case(
                "clamp",
                f"f32 {size}{suffix}",
                peers(
                    [x],
                    lambda t: crt.clamp(t, -0.5, 0.5),
                    lambda v: np.clip(v, -0.5, 0.5),
                    lambda t: torch.clamp(t, -0.5, 0.5),
                    view,
                ),
                nbytes,
            )
        )
    for name, ours, np_fn, tname in (("cat", crt.cat, np.concatenate, "cat"), ("stack", crt.stack, np.stack, "stack")):
        tf = getattr(torch, tname) if torch is not None else None
        out.append(
            Case(
                name,
                f"2 × f32 {size}",
                peers([x, y], lambda a, b, f=ours: f([a, b], 0), lambda a, b, f=np_fn: f([a, b], 0), tf and (lambda a, b, f=tf: f([a, b], 0))),
                4 * f4,
            )
        )
    m = min(r, c, 1024)
    a2 = rng.standard_normal((m, m), dtype=np.float32)
    out.append(
        Case(
            "matmul",
            f"f32 {m}×{m}",
            peers([a2, a2], crt.matmul, np.matmul, torch.matmul if torch is not None else None),
            spin_after=BLAS_SPIN,
        )
    )
    mo = np.empty((m, m), np.float32)
    out.append(
        Case(
            "matmul out=",
            f"f32 {m}×{m}",
            peers(
                [a2, a2, mo],
                lambda a, b, o: crt.matmul(a, b, out=o),
                lambda a, b, o: np.matmul(a, b, out=o),
                torch and (lambda a, b, o: torch.matmul(a, b, out=o)),
            ),
            spin_after=BLAS_SPIN,
        )
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,1000000,10000000", help="element counts, comma-separated")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default=str(RESULTS / "ops.md"))
    ap.add_argument("--only", default="", help="operations to run, comma-separated (default: all)")
    args = ap.parse_args()
    only = {o for o in args.only.split(",") if o}
    rng = np.random.default_rng(0)
    parts = [
        "# Every operation: ClikaRT vs numpy and PyTorch\n",
        f"Medians of {args.rounds} interleaved rounds, one process "
        f"(numpy {np.__version__}, torch {torch.__version__ if torch else 'not installed'}, "
        f"{os.cpu_count()} CPUs). Ratios are peer time ÷ ours: above 1.0 we are faster.\n",
    ]
    for n in (int(s) for s in args.sizes.split(",")):
        cases = [c for c in cases_for(n, rng) if not only or c.op in only]
        run(cases, rounds=args.rounds)
        parts.append(f"\n## About {n:,} elements\n\n")
        parts.append(markdown(cases))
    text = "".join(parts)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
