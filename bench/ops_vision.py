"""Vision ops: ClikaRT vs numpy (and PyTorch, when importable) on the same data, in one process.

Each row times `conv2d` (3x3, depthwise 3x3 and 5x5 stride 2, 1x1), `conv_transpose2d` (4x4 stride 2), pooling,
`linear`, `pad`, `interpolate`, the normalization layers and `normalize_image` (a pitched 1080p
uint8 HWC frame to normalized float32 CHW) in interleaved rounds (bench/harness.py) and prints
the median of each peer's time divided by ours (above 1.0: we are faster).
numpy has no convolution: its row is a vectorised reference (sliding windows + `tensordot`,
per group), the fastest plain-numpy formulation, not a library kernel; for `normalize_image`
it is one float32 expression and a contiguous CHW copy, and PyTorch's is torchvision's
`ToTensor()` + `Normalize()` written out in torch ops; for `interpolate` it is separable
matrix products (weights built before timing); for the normalization layers the
textbook numpy expressions. `cvt_color` (NV12 -> RGB) is compared
with a float32 numpy formulation and, when importable, OpenCV's `cvtColor` (the cv2 column;
`cv2.resize` for the uint8 bilinear row). The last row is chapter 07's whole pipeline for
one frame (NV12 -> RGB -> antialiased resize -> normalize -> a small CNN -> softmax) in each
library. Writes the table to
bench/results/ops_vision.md unless `--out` names another file. `--quick` uses tiny sizes
(a smoke test, seconds).
"""

import os
import sys

_SLOW_BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
if any(v in os.environ for v in _SLOW_BLAS_VARS):
    env = {k: v for k, v in os.environ.items() if k not in _SLOW_BLAS_VARS}
    os.execve(sys.executable, [sys.executable, *sys.argv], env)

import argparse  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import sliding_window_view  # noqa: E402

import clika_runtime as crt  # noqa: E402
from harness import BLAS_SPIN, Case, markdown, run  # noqa: E402  (bench/ is the script's folder)

try:
    import cv2  # type: ignore[import-not-found]  # noqa: E402
except ImportError:  # pragma: no cover - depends on the machine
    cv2 = None

try:
    import torch  # type: ignore[import-not-found]  # noqa: E402
    import torch.nn.functional as F  # type: ignore[import-not-found]  # noqa: E402
except ImportError:  # pragma: no cover - depends on the machine
    torch = None
    F = None

RESULTS = Path(__file__).resolve().parent / "results"


def np_conv_transpose2d(x, w, stride=1, padding=0):
    """conv_transpose2d in numpy: one tensordot per kernel tap, added into a strided slice of
    the full result, then the padding cropped."""
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    full = np.zeros((n, o, (h - 1) * stride + kh, (wd - 1) * stride + kw), dtype=x.dtype)
    for ki in range(kh):
        for kj in range(kw):
            full[:, :, ki:ki + stride * (h - 1) + 1:stride, kj:kj + stride * (wd - 1) + 1:stride] += (
                np.tensordot(x, w[:, :, ki, kj], axes=([1], [0])).transpose(0, 3, 1, 2))
    return full[:, :, padding:full.shape[2] - padding, padding:full.shape[3] - padding]


def np_conv2d(x, w, stride=1, padding=0, groups=1):
    """conv2d in numpy: pad, sliding windows, one tensordot per group."""
    if padding:
        x = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    kh, kw = w.shape[2:]
    win = sliding_window_view(x, (kh, kw), axis=(2, 3))[:, :, ::stride, ::stride]
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    outs = []
    for g in range(groups):
        wg = w[g * og:(g + 1) * og]
        # win: [N, Cg, Ho, Wo, KH, KW] x wg: [Og, Cg, KH, KW] -> [N, Ho, Wo, Og]
        outs.append(np.tensordot(win[:, g * cg:(g + 1) * cg], wg, axes=([1, 4, 5], [1, 2, 3])))
    return np.concatenate(outs, axis=3).transpose(0, 3, 1, 2)


def np_max_pool(x, k):
    return sliding_window_view(x, (k, k), axis=(2, 3))[:, :, ::k, ::k].max(axis=(4, 5))


def np_avg_pool(x, k):
    return sliding_window_view(x, (k, k), axis=(2, 3))[:, :, ::k, ::k].mean(axis=(4, 5))


def np_normalize(frame, mean, std):
    """(x / 255 - mean) / std as contiguous float32 CHW, numpy's fastest plain formulation."""
    m, sd = np.float32(mean), np.float32(std)
    y = (frame.astype(np.float32) * np.float32(1 / 255) - m) / sd
    return np.ascontiguousarray(y.transpose(2, 0, 1))


def torch_normalize(frame, mean, std):
    """torchvision's ToTensor() + Normalize(), in torch ops."""
    x = torch.from_numpy(np.ascontiguousarray(frame)).permute(2, 0, 1).float().div_(255)
    return x.sub_(mean).div_(std).contiguous()


def np_nv12_to_rgb(nv12):
    """BT.601 limited-range NV12 -> RGB in numpy float32, rounded and saturated."""
    h = nv12.shape[0] * 2 // 3
    y = np.maximum(nv12[:h].astype(np.float32) - 16, 0) * np.float32(255 / 219)  # as OpenCV
    uv = nv12[h:].reshape(h // 2, -1, 2).astype(np.float32) - 128
    uv = uv.repeat(2, axis=0).repeat(2, axis=1) * np.float32(255 / 224)
    u, v = uv[..., 0], uv[..., 1]
    rgb = np.stack([y + 1.402 * v, y - 0.344136 * u - 0.714136 * v, y + 1.772 * u], axis=-1)
    return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)


def np_linear_matrix(n_in, n_out, antialias=False):
    """PyTorch's bilinear weights along one dim (align_corners=False) as an (out, in) matrix,
    antialiased (the triangle filter widened by the scale) when asked."""
    m = np.zeros((n_out, n_in), np.float32)
    s = n_in / n_out
    for j in range(n_out):
        if antialias:
            support, inv = (s, 1 / s) if s >= 1 else (1.0, 1.0)
            c = s * (j + 0.5)
            lo, hi = max(int(c - support + 0.5), 0), min(int(c + support + 0.5), n_in)
            w = np.maximum(0, 1 - np.abs((np.arange(lo, hi) - c + 0.5) * inv))
            m[j, lo:hi] = w / w.sum()
        else:
            real = max(s * (j + 0.5) - 0.5, 0)
            i0 = min(int(real), n_in - 1)
            lam = real - i0
            m[j, i0] += 1 - lam
            m[j, min(i0 + 1, n_in - 1)] += lam
    return m


def np_resize(x, mh, mw):
    """Separable resize of the last two dims of `x` (NCHW) with (out, in) matrices."""
    return np.matmul(np.matmul(mh, x), mw.T)


def np_resize_hwc(frame, mh, mw):
    """The same for a uint8 HWC frame, rounded back to uint8."""
    h, w, c = frame.shape
    rows = (mh @ frame.reshape(h, w * c).astype(np.float32)).reshape(-1, w, c)
    out = np.matmul(mw, rows)  # (h, w, c) -> (h, o, c): one BLAS product per row
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def np_group_norm(x, g, w, b, eps=1e-5):
    n, c = x.shape[:2]
    xs = x.reshape(n, g, -1)
    m = xs.mean(axis=2, keepdims=True)
    v = xs.var(axis=2, keepdims=True)
    y = ((xs - m) / np.sqrt(v + eps)).reshape(x.shape)
    return y * w[None, :, None, None] + b[None, :, None, None]


def np_batch_norm(x, rm, rv, w, b, eps=1e-5):
    a = (w / np.sqrt(rv + eps)).astype(np.float32)
    return x * a[None, :, None, None] + (b - rm * a)[None, :, None, None]


def np_layer_norm(x, w, b, eps=1e-5):
    m = x.mean(axis=-1, keepdims=True)
    v = x.var(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b


def chapter07():
    """Chapter 07's pipeline for one frame (examples/compute/python/07_vision.py): ours, and
    the same steps in numpy and in PyTorch (its NV12 conversion written in torch ops, as
    PyTorch has none), over the chapter's pitched frame and mapped weights."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "examples/compute/python/07_vision.py"
    spec = importlib.util.spec_from_file_location("chapter07", path)
    ch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ch)
    buf = np.zeros((ch.H * 3 // 2, ch.PITCH), np.uint8)
    ch.decode(buf, 1)
    nv12 = buf[:, : ch.W]
    frame = crt.from_dlpack(nv12)
    weights = crt.load_safetensors(ch.DATA / "vision_net.safetensors")
    wn = {k: v.numpy() for k, v in weights.items()}
    mh, mw = np_linear_matrix(ch.H, ch.SIDE, True), np_linear_matrix(ch.W, ch.SIDE, True)

    def np_fn():
        x = np_normalize(np_resize_hwc(np_nv12_to_rgb(nv12), mh, mw), ch.MEAN, ch.STD)[None]
        for name, stride, pool in (("conv1", 1, True), ("conv2", 1, True), ("conv3", 2, False)):
            x = np_conv2d(x, wn[name + ".weight"], stride, 1) + wn[name + ".bias"][:, None, None]
            x = np.maximum(x, 0)
            x = np_max_pool(x, 2) if pool else x
        z = x.mean(axis=(2, 3)) @ wn["fc.weight"].T + wn["fc.bias"]
        e = np.exp(z - z.max())
        return (e / e.sum())[0]

    torch_fn = None
    if torch is not None:
        wt = {k: torch.from_numpy(v) for k, v in wn.items()}
        tn = torch.from_numpy(nv12)
        tmean = torch.tensor(ch.MEAN).reshape(3, 1, 1)
        tstd = torch.tensor(ch.STD).reshape(3, 1, 1)

        def torch_fn():
            h = ch.H
            y = (tn[:h].float() - 16).clamp_(min=0) * (255 / 219)
            uv = (tn[h:].reshape(h // 2, -1, 2).float() - 128) * (255 / 224)
            uv = uv.repeat_interleave(2, 0).repeat_interleave(2, 1)
            u, v = uv[..., 0], uv[..., 1]
            rgb = torch.stack([y + 1.402 * v, y - 0.344136 * u - 0.714136 * v, y + 1.772 * u], 0)
            rgb = rgb.round_().clamp_(0, 255).to(torch.uint8)[None]
            x = F.interpolate(rgb, size=(ch.SIDE, ch.SIDE), mode="bilinear", antialias=True)
            x = (x.float().div_(255) - tmean) / tstd
            x = F.max_pool2d(F.relu(F.conv2d(x, wt["conv1.weight"], wt["conv1.bias"], padding=1)), 2)
            x = F.max_pool2d(F.relu(F.conv2d(x, wt["conv2.weight"], wt["conv2.bias"], padding=1)), 2)
            x = F.relu(F.conv2d(x, wt["conv3.weight"], wt["conv3.bias"], stride=2, padding=1))
            x = F.adaptive_avg_pool2d(x, (1, 1)).flatten(1)
            return F.softmax(F.linear(x, wt["fc.weight"], wt["fc.bias"]), dim=1)[0]

    return np_fn, torch_fn, lambda: ch.classify(frame, weights)


def rows(quick):
    r = np.random.default_rng(0)
    n, c, s = (1, 8, 16) if quick else (8, 64, 56)
    x = r.standard_normal((n, c, s, s)).astype(np.float32)
    w3 = r.standard_normal((c, c, 3, 3)).astype(np.float32)
    wd = r.standard_normal((c, 1, 3, 3)).astype(np.float32)
    wd5 = r.standard_normal((c, 1, 5, 5)).astype(np.float32)
    w1 = r.standard_normal((2 * c, c, 1, 1)).astype(np.float32)
    wt = r.standard_normal((c, c // 2, 4, 4)).astype(np.float32)
    feats, outf = (64, 32) if quick else (2048, 1000)
    xl = r.standard_normal((n * 4, feats)).astype(np.float32)
    wl = r.standard_normal((outf, feats)).astype(np.float32)
    fh, fw = (36, 64) if quick else (1080, 1920)
    frame = r.integers(0, 256, (fh, fw + 64, 3), dtype=np.uint8)[:, :fw]  # rows pitched
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    nv12 = r.integers(0, 256, (fh * 3 // 2, fw), dtype=np.uint8)
    tmean, tstd = (torch.tensor(v).reshape(3, 1, 1) if torch else None for v in (mean, std))
    tx, tw3, twd, twd5, tw1, twt = (crt.from_numpy(a) for a in (x, w3, wd, wd5, w1, wt))
    txl, twl = crt.from_numpy(xl), crt.from_numpy(wl)
    flops3 = 2 * n * c * c * 9 * s * s
    # interpolate: numpy's rows are separable matrix products with the weights built
    # beforehand (not timed); the frame rows read the pitched HWC frame through a permuted
    # view (NCHW order, channels-last memory), as PyTorch's channels-last tensors.
    mh_up = np_linear_matrix(s, 2 * s)
    mh_half, mw_half = np_linear_matrix(fh, fh // 2), np_linear_matrix(fw, fw // 2)
    mh_aa, mw_aa = np_linear_matrix(fh, 224, True), np_linear_matrix(fw, 224, True)
    gw = r.standard_normal(c).astype(np.float32)
    gv = np.abs(gw) + 0.5
    tgw, tgv = crt.from_numpy(gw), crt.from_numpy(gv)
    ln = r.standard_normal((64, 96) if quick else (8192, 768)).astype(np.float32)
    lw = r.standard_normal(ln.shape[1]).astype(np.float32)
    tln, tlw = crt.from_numpy(ln), crt.from_numpy(lw)
    cframe = crt.from_dlpack(frame).permute(2, 0, 1).unsqueeze(0)  # pitched, no copy
    tframe = torch.from_numpy(frame).permute(2, 0, 1).unsqueeze(0) if torch else None
    table = [
        ("conv2d 3x3 pad 1", flops3,
         lambda: np_conv2d(x, w3, padding=1),
         (lambda: F.conv2d(torch.from_numpy(x), torch.from_numpy(w3), padding=1)) if F else None,
         lambda: crt.conv2d(tx, tw3, padding=1)),
        ("conv2d depthwise 3x3", 2 * n * c * 9 * s * s,
         lambda: np_conv2d(x, wd, padding=1, groups=c),
         (lambda: F.conv2d(torch.from_numpy(x), torch.from_numpy(wd), padding=1, groups=c)) if F else None,
         lambda: crt.conv2d(tx, twd, padding=1, groups=c)),
        ("conv2d depthwise 5x5 stride 2", 2 * n * c * 25 * (s // 2) ** 2,
         lambda: np_conv2d(x, wd5, stride=2, padding=2, groups=c),
         (lambda: F.conv2d(torch.from_numpy(x), torch.from_numpy(wd5), stride=2, padding=2,
                           groups=c)) if F else None,
         lambda: crt.conv2d(tx, twd5, stride=2, padding=2, groups=c)),
        ("conv2d 1x1", 2 * n * c * 2 * c * s * s,
         lambda: np_conv2d(x, w1),
         (lambda: F.conv2d(torch.from_numpy(x), torch.from_numpy(w1))) if F else None,
         lambda: crt.conv2d(tx, tw1)),
        ("conv_transpose2d 4x4 stride 2 (upsample x2)", 2 * n * c * (c // 2) * 16 * s * s,
         lambda: np_conv_transpose2d(x, wt, stride=2, padding=1),
         (lambda: F.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(wt), stride=2, padding=1)) if F else None,
         lambda: crt.conv_transpose2d(tx, twt, stride=2, padding=1)),
        ("max_pool2d 2", x.nbytes,
         lambda: np_max_pool(x, 2),
         (lambda: F.max_pool2d(torch.from_numpy(x), 2)) if F else None,
         lambda: crt.max_pool2d(tx, 2)),
        ("avg_pool2d 2", x.nbytes,
         lambda: np_avg_pool(x, 2),
         (lambda: F.avg_pool2d(torch.from_numpy(x), 2)) if F else None,
         lambda: crt.avg_pool2d(tx, 2)),
        ("adaptive_avg_pool2d 1", x.nbytes,
         lambda: x.mean(axis=(2, 3), keepdims=True),
         (lambda: F.adaptive_avg_pool2d(torch.from_numpy(x), 1)) if F else None,
         lambda: crt.adaptive_avg_pool2d(tx, 1)),
        (f"linear {xl.shape[0]}x{feats} -> {outf}", 2 * xl.shape[0] * feats * outf,
         lambda: xl @ wl.T,
         (lambda: F.linear(torch.from_numpy(xl), torch.from_numpy(wl))) if F else None,
         lambda: crt.linear(txl, twl)),
        ("pad reflect 3", x.nbytes,
         lambda: np.pad(x, ((0, 0), (0, 0), (3, 3), (3, 3)), mode="reflect"),
         (lambda: F.pad(torch.from_numpy(x), (3, 3, 3, 3), mode="reflect")) if F else None,
         lambda: crt.pad(tx, [3, 3, 3, 3], mode="reflect")),
        (f"normalize_image {fh}x{fw} pitched", frame.nbytes,
         lambda: np_normalize(frame, mean, std),
         (lambda: torch_normalize(frame, tmean, tstd)) if torch else None,
         lambda: crt.normalize_image(frame, mean, std)),
        (f"cvt_color NV12->RGB {fh}x{fw}", nv12.nbytes,
         lambda: np_nv12_to_rgb(nv12),
         None,
         lambda: crt.cvt_color(nv12, "YUV2RGB_NV12")),
        (f"interpolate bilinear {n}x{c}x{s}^2 -> {2 * s}^2", x.nbytes,
         lambda: np_resize(x, mh_up, mh_up),
         (lambda: F.interpolate(torch.from_numpy(x), size=2 * s, mode="bilinear")) if F else None,
         lambda: crt.interpolate(tx, size=2 * s, mode="bilinear")),
        (f"interpolate nearest x2 {n}x{c}x{s}^2", x.nbytes,
         lambda: x.repeat(2, axis=2).repeat(2, axis=3),
         (lambda: F.interpolate(torch.from_numpy(x), scale_factor=2)) if F else None,
         lambda: crt.interpolate(tx, scale_factor=2)),
        (f"interpolate bilinear uint8 HWC {fh}x{fw} -> {fh // 2}x{fw // 2}", frame.nbytes,
         lambda: np_resize_hwc(frame, mh_half, mw_half),
         (lambda: F.interpolate(tframe, size=(fh // 2, fw // 2), mode="bilinear")) if F else None,
         lambda: crt.interpolate(cframe, size=(fh // 2, fw // 2), mode="bilinear")),
        (f"interpolate bilinear antialias uint8 HWC {fh}x{fw} -> 224^2", frame.nbytes,
         lambda: np_resize_hwc(frame, mh_aa, mw_aa),
         (lambda: F.interpolate(tframe, size=224, mode="bilinear", antialias=True)) if F else None,
         lambda: crt.interpolate(cframe, size=224, mode="bilinear", antialias=True)),
        (f"group_norm {c // 2} groups {n}x{c}x{s}^2", x.nbytes,
         lambda: np_group_norm(x, c // 2, gw, gw),
         (lambda: F.group_norm(torch.from_numpy(x), c // 2, torch.from_numpy(gw), torch.from_numpy(gw))) if F else None,
         lambda: crt.group_norm(tx, c // 2, tgw, tgw)),
        (f"batch_norm (inference) {n}x{c}x{s}^2", x.nbytes,
         lambda: np_batch_norm(x, gw, gv, gw, gw),
         (lambda: F.batch_norm(torch.from_numpy(x), *(torch.from_numpy(a) for a in (gw, gv, gw, gw)))) if F else None,
         lambda: crt.batch_norm(tx, tgw, tgv, tgw, tgw)),
        (f"layer_norm {ln.shape[0]}x{ln.shape[1]}", ln.nbytes,
         lambda: np_layer_norm(ln, lw, lw),
         (lambda: F.layer_norm(torch.from_numpy(ln), ln.shape[1:], torch.from_numpy(lw), torch.from_numpy(lw))) if F else None,
         lambda: crt.layer_norm(tln, ln.shape[1], tlw, tlw)),
    ]
    np_07, torch_07, crt_07 = chapter07()
    table.append(("pipeline chapter 07: one 320x240 NV12 frame -> top-5", 0, np_07, torch_07, crt_07))
    BLAS_ROWS.update(
        row[0] for row in table if any(k in row[0] for k in ("conv", "linear", "bilinear", "pipeline")))
    # The results agree before anything is timed.
    for name, _, np_fn, _, crt_fn in table:
        got, want = crt_fn().numpy(), np_fn()
        if got.ndim == 4 and got.shape[0] == 1 and want.ndim == 3:  # HWC frame rows
            got = got[0].transpose(1, 2, 0)
        if got.dtype == np.uint8:  # integer results: within 1
            assert np.abs(got.astype(int) - want).max(initial=0) <= 1, name
        else:
            np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3, err_msg=name)
    CV2_ROWS["cvt_color"] = lambda: cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12)
    CV2_ROWS[f"interpolate bilinear uint8 HWC {fh}x{fw} -> {fh // 2}x{fw // 2}"] = (
        lambda: cv2.resize(frame, (fw // 2, fh // 2), interpolation=cv2.INTER_LINEAR))
    return table


# The ops OpenCV has (first word of the row's name -> a call), filled by rows().
CV2_ROWS = {}
# The rows whose numpy peer calls OpenBLAS (tensordot, matmul), filled by rows(): the slot
# after theirs settles for `BLAS_SPIN`.
BLAS_ROWS = set()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--out", type=Path, default=RESULTS / "ops_vision.md")
    args = ap.parse_args()
    rounds = args.rounds or (2 if args.quick else 11)
    cases = []
    for name, work, np_fn, torch_fn, crt_fn in rows(args.quick):
        op, _, case = name.partition(" ")
        impls = {"clika": crt_fn, "numpy": np_fn}
        if torch_fn:
            impls["torch"] = torch_fn
        cv_fn = CV2_ROWS.get(name, CV2_ROWS.get(op)) if cv2 else None
        if cv_fn:
            impls["cv2"] = cv_fn
        flops = work if "conv" in op or op == "linear" else None
        cases.append(Case(
            op, case, impls, bytes_moved=None if flops else work or None, flops=flops,
            spin_after=BLAS_SPIN if name in BLAS_ROWS else 0.0))
    run(cases, rounds=rounds)
    peers = ("numpy", "torch") + (("cv2",) if cv2 else ())
    text = (
        "# Vision ops: ClikaRT vs numpy, PyTorch and OpenCV\n\n"
        f"Medians of {rounds} interleaved rounds, one process (numpy {np.__version__}, "
        f"torch {torch.__version__ if torch else 'not installed'}, "
        f"OpenCV {cv2.__version__ if cv2 else 'not installed'}, {os.cpu_count()} CPUs). "
        "Ratios are peer time ÷ ours: above 1.0 we are faster. The rate is of our time: "
        "GFLOP/s for convolutions and `linear`, input GB/s for the rest.\n\n"
        + markdown(cases, peers)
    )
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)


if __name__ == "__main__":
    main()
