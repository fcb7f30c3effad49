"""interpolate against numpy references written here from PyTorch's definitions (the
direct per-output formulas, not the runtime's separable passes), on contiguous, strided,
channels-last, broadcast and empty inputs, in float32/float64/float16/uint8; hypothesis over
random shapes, sizes and options; errors. Where torch is installed (``make bench``
installs it) the same cases are also checked against torch itself."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt

settings.register_profile("interpolate", max_examples=60, deadline=None)
settings.load_profile("interpolate")

try:
    import torch
except ImportError:  # make test does not install torch
    torch = None


def step(n_in, n_out, align, factor):
    if align:
        return (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    return 1.0 / factor if factor is not None else n_in / n_out


def src_index(s, j, align, cubic):
    if align:
        return s * j
    v = s * (j + 0.5) - 0.5
    return v if cubic or v >= 0 else 0.0


def cubic1(x, a):
    return ((a + 2) * x - (a + 3)) * x * x + 1


def cubic2(x, a):
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def nearest_index(n_in, n_out, factor, exact, shortcuts=True):
    """PyTorch's source indices; its 2-D kernel alone maps sizes that stay or double
    directly (``shortcuts``)."""
    out = []
    s = np.float32(1.0 / factor) if factor is not None else np.float32(n_in) / np.float32(n_out)
    for j in range(n_out):
        if shortcuts and not exact and n_out == n_in:
            out.append(j)
        elif shortcuts and not exact and n_out == 2 * n_in:
            out.append(j >> 1)
        else:
            at = np.float32(j) + np.float32(0.5) if exact else np.float32(j)
            out.append(min(int(np.floor(np.float32(at * s))), n_in - 1))
    return np.array(out)


def aa_matrix(n_in, n_out, align, factor, cubic, antialias=True):
    """PyTorch's separable weights (_compute_indices_min_size_weights_aa) as a matrix: its
    antialiased filter, which it also runs without antialiasing for uint8 inputs."""
    half = 2.0 if cubic else 1.0
    a = -0.5 if antialias else -0.75

    def filt(x):
        x = abs(x)
        if not cubic:
            return max(0.0, 1.0 - x)
        return cubic1(x, a) if x < 1 else cubic2(x, a) if x < 2 else 0.0

    s = step(n_in, n_out, align, factor)
    if antialias:
        support, inv = (half * s, 1.0 / s) if s >= 1.0 else (half, 1.0)
        most = math.ceil(support) * 2 + 1
    else:
        support, inv, most = half, 1.0, int(2 * half)
    delta = 0.5 if align and not antialias else 0.0
    m = np.zeros((n_out, n_in))
    for j in range(n_out):
        c = s * (j + 0.5 - delta)
        lo = max(int(c - support + 0.5 + delta), 0)
        hi = min(int(c + support + 0.5 + delta), n_in)
        hi = lo + min(max(hi - lo, 0), most)
        w = np.array([filt((i - c + 0.5 - delta) * inv) for i in range(lo, hi)])
        if w.sum() != 0:
            w = w / w.sum()
        m[j, lo:hi] = w
    return m


def ref_interpolate(x, size, mode, align=False, factors=None, antialias=False):
    """PyTorch's interpolate in numpy (float64) for 1-3 spatial dims."""
    x = np.asarray(x, dtype=np.float64)
    sp = x.ndim - 2
    ins = x.shape[2:]
    fac = factors or [None] * sp
    if mode in ("nearest", "nearest-exact"):
        for d in range(sp):
            idx = nearest_index(ins[d], size[d], fac[d], mode == "nearest-exact", sp == 2)
            x = np.take(x, idx, axis=2 + d)
        return x
    if mode == "area":
        out = np.zeros(x.shape[:2] + tuple(size))
        for pos in np.ndindex(*size):
            win = tuple(
                slice(p * n // o, -(-((p + 1) * n) // o)) for p, n, o in zip(pos, ins, size)
            )
            out[(Ellipsis,) + pos] = x[(Ellipsis,) + win].mean(axis=tuple(range(2, 2 + sp)))
        return out
    if antialias:
        for d in range(sp):
            if ins[d] == size[d]:
                continue  # PyTorch copies a dim that keeps its size
            m = aa_matrix(ins[d], size[d], align, fac[d], mode == "bicubic", antialias)
            x = np.moveaxis(np.tensordot(m, np.moveaxis(x, 2 + d, 0), axes=1), 0, 2 + d)
        return x
    # Direct form: every output element sums its full 2^sp (linear) or 4^sp (cubic) grid.
    per_dim = []
    for d in range(sp):
        if mode != "bicubic" and ins[d] == size[d]:
            per_dim.append([[(j, 1.0)] for j in range(size[d])])  # copied, as PyTorch
            continue
        s = step(ins[d], size[d], align, fac[d])
        taps = []
        for j in range(size[d]):
            real = src_index(s, j, align, mode == "bicubic")
            if mode == "bicubic":
                i = min(math.floor(real), ins[d] - 1)
                t = min(max(real - i, 0.0), 1.0)
                w = [cubic2(t + 1, -0.75), cubic1(t, -0.75), cubic1(1 - t, -0.75),
                     cubic2(2 - t, -0.75)]
                taps.append([(min(max(i - 1 + k, 0), ins[d] - 1), w[k]) for k in range(4)])
            else:
                i0 = min(math.floor(real), ins[d] - 1)
                lam = min(max(real - i0, 0.0), 1.0)
                i1 = i0 + 1 if i0 < ins[d] - 1 else i0
                taps.append([(i0, 1 - lam), (i1, lam)])
        per_dim.append(taps)
    out = np.zeros(x.shape[:2] + tuple(size))
    for pos in np.ndindex(*size):
        acc = np.zeros(x.shape[:2])
        grids = [per_dim[d][pos[d]] for d in range(sp)]
        for combo in np.ndindex(*[len(g) for g in grids]):
            w = 1.0
            src = []
            for d, k in enumerate(combo):
                i, wk = grids[d][k]
                w *= wk
                src.append(i)
            acc += w * x[(Ellipsis,) + tuple(src)]
        out[(Ellipsis,) + pos] = acc
    return out


MODES_2D = ["nearest", "nearest-exact", "bilinear", "bicubic", "area"]


def check(x_np, got, want, dtype=np.float32):
    got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    assert got.shape == want.shape
    if dtype == np.uint8:
        assert got.dtype == np.uint8
        diff = np.abs(got.astype(np.int64) - np.clip(np.round(want), 0, 255).astype(np.int64))
        assert diff.max(initial=0) <= 1
    else:
        tol = {np.float64: 1e-10, np.float32: 2e-5, np.float16: 2e-2}[dtype]
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("mode", MODES_2D)
@pytest.mark.parametrize("size", [(7, 5), (3, 2), (4, 6), (1, 1), (10, 13)])
def test_modes_match_the_reference(mode, size):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 4, 6)).astype(np.float32)
    got = crt.interpolate(x, size=size, mode=mode)
    check(x, got, ref_interpolate(x, size, mode))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("size", [(3, 2), (9, 11), (5, 1)])
def test_align_corners_and_antialias(mode, align, antialias, size):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 8, 7))
    got = crt.interpolate(x, size=size, mode=mode, align_corners=align, antialias=antialias)
    check(x, got, ref_interpolate(x, size, mode, align, antialias=antialias), np.float64)


@pytest.mark.parametrize("mode,ndim", [("linear", 3), ("trilinear", 5), ("nearest", 3),
                                       ("nearest", 5), ("area", 3), ("area", 5),
                                       ("nearest-exact", 5)])
def test_one_and_three_spatial_dims(mode, ndim):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2) + (5, 4, 6)[: ndim - 2])
    size = (3, 7, 4)[: ndim - 2]
    got = crt.interpolate(x, size=size, mode=mode)
    check(x, got, ref_interpolate(x, size, mode), np.float64)


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic", "area"])
@pytest.mark.parametrize("recompute", [False, True])
def test_scale_factor(mode, recompute):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 2, 5, 7))
    for f in [2.0, 0.5, 1.7, (1.5, 0.4)]:
        fs = list(f) if isinstance(f, tuple) else [f, f]
        size = [math.floor(n * s) for n, s in zip(x.shape[2:], fs)]
        got = crt.interpolate(x, scale_factor=f, mode=mode, recompute_scale_factor=recompute)
        keep = not recompute and mode != "area"
        want = ref_interpolate(x, size, mode, factors=fs if keep else None)
        check(x, got, want, np.float64)


def test_strided_channels_last_and_broadcast_inputs_are_read_in_place():
    rng = np.random.default_rng(5)
    nhwc = rng.standard_normal((2, 9, 11, 3)).astype(np.float32)
    t = crt.tensor(nhwc)
    x = t.permute(0, 3, 1, 2)  # channels-last view, no copy
    got = crt.interpolate(x, size=(5, 6), mode="bilinear")
    check(None, got, ref_interpolate(nhwc.transpose(0, 3, 1, 2), (5, 6), "bilinear"))
    # The result keeps the input's memory order: channels innermost, in every dtype (the
    # half types compute in float32 and convert back in the same order).
    assert got.strides[1] == 1 and got.strides[3] == 3
    for dt in (crt.float16, crt.bfloat16, crt.float64, crt.uint8):
        xd = t.to(dt).permute(0, 3, 1, 2)  # converted NHWC, viewed as NCHW
        for kw in (dict(mode="bilinear"), dict(mode="nearest"), dict(mode="bicubic", antialias=True)):
            assert crt.interpolate(xd, size=(5, 6), **kw).strides == got.strides, (dt, kw)
    # A crop with a step, a transposed plane and a flip, each a view of the same memory.
    base = rng.standard_normal((2, 3, 20, 30)).astype(np.float32)
    t = crt.tensor(base)
    views = [
        (t[:, :, 2:17:2, 1:29:3], base[:, :, 2:17:2, 1:29:3]),
        (t.permute(0, 1, 3, 2), base.transpose(0, 1, 3, 2)),
        (t.flip([1, 2]), base[:, ::-1, ::-1]),
    ]
    for view, want_src in views:
        got = crt.interpolate(view, size=(6, 4), mode="bicubic")
        check(None, got, ref_interpolate(want_src, (6, 4), "bicubic"))
    # Broadcast batch and channels (stride 0).
    plane = rng.standard_normal((1, 1, 6, 5)).astype(np.float32)
    wide = crt.tensor(plane).expand(3, 4, 6, 5)
    got = crt.interpolate(wide, size=(4, 8), mode="bilinear")
    check(None, got, ref_interpolate(np.broadcast_to(plane, (3, 4, 6, 5)), (4, 8), "bilinear"))


def test_empty_batch_and_channels():
    for shape in [(0, 3, 4, 4), (2, 0, 4, 4)]:
        x = np.zeros(shape, np.float32)
        got = crt.interpolate(x, size=(7, 2), mode="bilinear")
        assert got.shape == shape[:2] + (7, 2)


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic", "area"])
def test_uint8_rounds_and_saturates(mode):
    rng = np.random.default_rng(6)
    x = rng.integers(0, 256, (1, 3, 12, 16), dtype=np.uint8)
    for size in [(5, 7), (25, 30)]:
        for aa in ([False, True] if mode in ("bilinear", "bicubic") else [False]):
            got = crt.interpolate(x, size=size, mode=mode, antialias=aa)
            check(x, got, ref_interpolate(x, size, mode, antialias=aa), np.uint8)
    # A frame as cameras give it: HWC uint8, resized through a permuted view.
    frame = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    got = crt.interpolate(crt.tensor(frame).permute(2, 0, 1).unsqueeze(0), size=(15, 20),
                          mode="bilinear", antialias=True)
    want = ref_interpolate(frame.transpose(2, 0, 1)[None], (15, 20), "bilinear", antialias=True)
    check(None, got, want, np.uint8)


def test_float16_and_float64_keep_their_dtype():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 2, 6, 6))
    for dt in (np.float16, np.float64):
        got = crt.interpolate(x.astype(dt), size=(4, 9), mode="bilinear")
        assert got.numpy().dtype == dt
        check(None, got, ref_interpolate(x.astype(dt), (4, 9), "bilinear"), dt)


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.bool_, np.float16])
def test_nearest_moves_any_dtype(dtype):
    x = (np.arange(2 * 3 * 4 * 5) % 7).astype(dtype).reshape(2, 3, 4, 5)
    for mode in ("nearest", "nearest-exact"):
        got = crt.interpolate(crt.tensor(x).permute(0, 1, 3, 2), size=(7, 3), mode=mode)
        want = ref_interpolate(x.transpose(0, 1, 3, 2), (7, 3), mode)
        assert got.numpy().dtype == dtype
        np.testing.assert_array_equal(got.numpy(), want.astype(dtype))


def test_same_size_is_a_fresh_copy():
    x = crt.tensor(np.arange(12.0, dtype=np.float32).reshape(1, 1, 3, 4))
    y = crt.interpolate(x, size=(3, 4), mode="bilinear")
    assert np.array_equal(y.numpy(), x.numpy())
    y[0, 0, 0, 0] = 99.0
    assert x.numpy()[0, 0, 0, 0] == 0.0


@pytest.mark.parametrize(
    "kwargs,err",
    [
        (dict(size=(2, 2), mode="bilinear", input_ndim=3), crt.InvalidArgumentError),
        (dict(size=(2, 2), mode="cubic"), crt.InvalidArgumentError),
        (dict(size=None), crt.InvalidArgumentError),
        (dict(size=2, scale_factor=2.0), crt.InvalidArgumentError),
        (dict(size=(2, 2, 2)), crt.InvalidArgumentError),
        (dict(scale_factor=-1.0), crt.InvalidArgumentError),
        (dict(scale_factor=0.1), crt.InvalidArgumentError),
        (dict(size=2, align_corners=False), ValueError),
        (dict(size=2, mode="area", antialias=True), crt.InvalidArgumentError),
        (dict(size=2, mode="bilinear", dtype=np.int32), crt.InvalidArgumentError),
    ],
)
def test_errors_name_the_fix(kwargs, err):
    ndim = kwargs.pop("input_ndim", 4)
    dtype = kwargs.pop("dtype", np.float32)
    x = np.zeros((1, 1, 4, 4)[:ndim], dtype)
    with pytest.raises(err):
        crt.interpolate(x, **kwargs)


@given(
    n=st.integers(0, 2),
    c=st.integers(1, 3),
    h=st.integers(1, 9),
    w=st.integers(1, 9),
    oh=st.integers(1, 12),
    ow=st.integers(1, 12),
    mode=st.sampled_from(MODES_2D),
    align=st.booleans(),
    aa=st.booleans(),
    transpose=st.booleans(),
)
def test_random_shapes(n, c, h, w, oh, ow, mode, align, aa, transpose):
    rng = np.random.default_rng(h * 100 + w)
    x = rng.standard_normal((n, c, w, h) if transpose else (n, c, h, w))
    if transpose:
        x = x.transpose(0, 1, 3, 2)
    interp = mode in ("bilinear", "bicubic")
    kw = dict(align_corners=align, antialias=aa) if interp else {}
    got = crt.interpolate(x, size=(oh, ow), mode=mode, **kw)
    want = ref_interpolate(x, (oh, ow), mode, align and interp, antialias=aa and interp)
    check(x, got, want, np.float64)


@pytest.mark.skipif(torch is None, reason="torch is not installed (make bench installs it)")
@given(
    h=st.integers(1, 12),
    w=st.integers(1, 12),
    oh=st.integers(1, 16),
    ow=st.integers(1, 16),
    mode=st.sampled_from(MODES_2D),
    align=st.booleans(),
    aa=st.booleans(),
    factor=st.one_of(st.none(), st.floats(0.3, 3.0)),
    u8=st.booleans(),
)
def test_against_torch(h, w, oh, ow, mode, align, aa, factor, u8):
    rng = np.random.default_rng(h * 31 + w)
    if u8:
        x = rng.integers(0, 256, (1, 2, h, w), dtype=np.uint8)
    else:
        x = rng.standard_normal((1, 2, h, w)).astype(np.float32)
    interp = mode in ("bilinear", "bicubic")
    kw = dict(mode=mode)
    if interp:
        kw.update(align_corners=align, antialias=aa)
    if factor is None:
        kw["size"] = (oh, ow)
    else:
        if min(math.floor(h * factor), math.floor(w * factor)) < 1:
            return
        kw["scale_factor"] = factor
    if u8 and mode == "area":
        return  # torch has no uint8 adaptive_avg_pool2d
    out_w = kw["size"][1] if "size" in kw else math.floor(w * factor)
    if interp and aa and (out_w == 1 or w == 1):
        # torch 2.15's antialiased CPU kernel returns zeros or wrong values when the width
        # is 1 (e.g. [0, 1, 2, 3, 4] as a 5x1 column resized to 7x1 gives all zeros);
        # test_random_shapes checks these against the numpy reference instead.
        return
    got = crt.interpolate(x, **kw).numpy()
    if u8:
        # uint8 follows PyTorch's float formulas, rounded and saturated. (PyTorch's own
        # uint8 bicubic kernel strays from its float kernel by several levels near the edges,
        # so its float result is the reference.)
        want = torch.nn.functional.interpolate(torch.from_numpy(x.astype(np.float32)), **kw)
        want = np.clip(np.round(want.numpy()), 0, 255)
        assert got.shape == want.shape
        assert np.abs(got.astype(int) - want.astype(int)).max(initial=0) <= 1
        return
    want = torch.nn.functional.interpolate(torch.from_numpy(x), **kw).numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
