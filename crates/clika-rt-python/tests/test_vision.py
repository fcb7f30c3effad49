"""Vision and inference functions (conv1d/conv2d, max/avg/adaptive pooling, linear, pad)
against numpy reference implementations written here (PyTorch's definitions), on contiguous,
transposed, sliced, broadcast and empty inputs; hypothesis over random shapes, strides,
paddings, dilations and groups; errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt
from test_random import outputs_on_one_thread_and_four

settings.register_profile("vision", max_examples=60, deadline=None)
settings.load_profile("vision")


def ref_conv2d(x, w, b=None, stride=(1, 1), pad=(0, 0, 0, 0), dil=(1, 1), groups=1):
    """PyTorch's conv2d in numpy: pad = (top, bottom, left, right)."""
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    ho = (xp.shape[2] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (xp.shape[3] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    og = o // groups
    out = np.zeros((n, o, ho, wo))
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for ki in range(kh):
            for kj in range(kw):
                y0, x0 = ki * dil[0], kj * dil[1]
                patch = xs[:, :, y0:y0 + stride[0] * (ho - 1) + 1:stride[0],
                           x0:x0 + stride[1] * (wo - 1) + 1:stride[1]]
                wk = w[g * og:(g + 1) * og, :, ki, kj]
                out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, wk)
    if b is not None:
        out += np.asarray(b, dtype=np.float64)[None, :, None, None]
    return out


def pool_size(n, k, s, p, d, ceil):
    room = n + 2 * p - d * (k - 1) - 1
    o = (-(-room // s) if ceil else room // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def ref_pool(x, k, s, p, ceil, kind, include_pad=True, d=1):
    x = np.asarray(x, dtype=np.float64)
    n, c, h, w = x.shape
    ho, wo = pool_size(h, k, s, p, d, ceil), pool_size(w, k, s, p, d, ceil)
    out = np.zeros((n, c, ho, wo))
    for oy in range(ho):
        for ox in range(wo):
            ys, xs = oy * s - p, ox * s - p
            if kind == "max":
                rows = [y for y in range(ys, ys + d * (k - 1) + 1, d) if 0 <= y < h]
                cols = [q for q in range(xs, xs + d * (k - 1) + 1, d) if 0 <= q < w]
                win = x[:, :, rows][:, :, :, cols]
                # A dilated window may hold padding only: -inf, as PyTorch gives.
                out[:, :, oy, ox] = win.max(axis=(2, 3)) if win.size else -np.inf
            else:
                ye, xe = min(ys + k, h + p), min(xs + k, w + p)
                win = x[:, :, max(ys, 0):min(ye, h), max(xs, 0):min(xe, w)]
                div = (ye - ys) * (xe - xs) if include_pad else win.shape[2] * win.shape[3]
                out[:, :, oy, ox] = win.sum(axis=(2, 3)) / div
    return out


def layout(a, how):
    """A tensor with `a`'s values: contiguous, or a transposed or sliced (strided) view of
    borrowed numpy memory."""
    if how == "transposed":
        t = crt.from_numpy(np.ascontiguousarray(a.swapaxes(2, 3))).transpose(2, 3)
    elif how == "sliced":
        big = np.zeros(a.shape[:3] + (a.shape[3] * 2,), a.dtype)
        big[..., ::2] = a
        t = crt.from_numpy(big)[..., ::2]
    else:
        t = crt.from_numpy(np.ascontiguousarray(a))
    assert t.shape == a.shape
    return t


rng = np.random.default_rng(0)


@pytest.mark.parametrize("how", ["contiguous", "transposed", "sliced"])
def test_conv2d_layouts_groups_dilation_bias(how):
    x = rng.standard_normal((2, 6, 9, 8)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 2)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    got = crt.conv2d(layout(x, how), w, b, stride=(2, 1), padding=(1, 2), dilation=(2, 1), groups=2)
    want = ref_conv2d(x, w, b, (2, 1), (1, 1, 2, 2), (2, 1), 2)
    assert got.dtype == crt.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_conv2d_same_valid_depthwise_unbatched_and_empty():
    x = rng.standard_normal((3, 7, 6))
    w = rng.standard_normal((3, 1, 4, 3))
    got = crt.conv2d(x, w, padding="same", groups=3)
    # kernel 4: total padding 3, one before and two after (PyTorch's split).
    want = ref_conv2d(x[None], w, None, (1, 1), (1, 2, 1, 1), (1, 1), 3)[0]
    assert got.shape == (3, 7, 6)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)
    got = crt.conv2d(x, w, padding="valid", groups=3)
    np.testing.assert_allclose(got.numpy(), ref_conv2d(x[None], w, groups=3)[0], atol=1e-10)
    empty = np.zeros((0, 3, 7, 6), np.float32)
    assert crt.conv2d(empty, w.astype(np.float32), groups=3).shape == (0, 3, 4, 4)


@pytest.mark.parametrize(
    "stride, pad, dil, groups",
    [((1, 1), (1, 1), (1, 1), 1), ((2, 1), (0, 2), (1, 2), 1), ((1, 2), (2, 1), (2, 1), 2)],
)
def test_conv2d_tap_rows_tiled_over_many_output_rows(stride, pad, dil, groups):
    """The im2col scratch holds a few output rows at a time (256 KiB): here 288-tap rows of
    66 columns, three rows a tile and a short last tile, against the numpy reference, in
    float32 and float64, with a bias."""
    x = rng.standard_normal((2, 32, 70, 66))
    w = rng.standard_normal((24, 32 // groups, 3, 3))
    b = rng.standard_normal(24)
    want = ref_conv2d(x, w, b, stride, (pad[0], pad[0], pad[1], pad[1]), dil, groups)
    for dt, tol in ((np.float64, 1e-10), (np.float32, 2e-4)):
        got = crt.conv2d(x.astype(dt), w.astype(dt), b.astype(dt), stride=stride, padding=pad,
                         dilation=dil, groups=groups)
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def test_conv2d_broadcast_input_and_integer_promotion():
    # A stride-0 (broadcast) input read in place.
    row = rng.standard_normal((1, 2, 1, 5)).astype(np.float32)
    x = np.broadcast_to(row, (2, 2, 4, 5))
    w = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    got = crt.conv2d(crt.from_numpy(row).expand(2, 2, 4, 5), w)
    np.testing.assert_allclose(got.numpy(), ref_conv2d(x, w), rtol=1e-4, atol=1e-4)
    xi = np.arange(2 * 2 * 4 * 5, dtype=np.int32).reshape(2, 2, 4, 5)
    wi = np.ones((1, 2, 1, 1), np.int32)
    got = crt.conv2d(xi, wi)
    assert got.dtype == crt.float32
    np.testing.assert_array_equal(got.numpy(), ref_conv2d(xi, wi).astype(np.float32))


def test_conv1d():
    x = rng.standard_normal((2, 4, 11))
    w = rng.standard_normal((6, 2, 3))
    b = rng.standard_normal(6)
    got = crt.conv1d(x, w, b, stride=2, padding=2, dilation=2, groups=2)
    want = ref_conv2d(x[:, :, None], w[:, :, None], b, (1, 2), (0, 0, 2, 2), (1, 2), 2)[:, :, 0]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 2), cg=st.integers(1, 3), og=st.integers(1, 3), groups=st.integers(1, 3),
    h=st.integers(1, 9), w=st.integers(1, 9), kh=st.integers(1, 3), kw=st.integers(1, 3),
    sh=st.integers(1, 3), sw=st.integers(1, 3), ph=st.integers(0, 2), pw=st.integers(0, 2),
    dh=st.integers(1, 2), dw=st.integers(1, 2), bias=st.booleans(),
    how=st.sampled_from(["contiguous", "transposed", "sliced"]), seed=st.integers(0, 2**32 - 1),
)
def test_conv2d_property(n, cg, og, groups, h, w, kh, kw, sh, sw, ph, pw, dh, dw, bias, how, seed):
    if h + 2 * ph <= dh * (kh - 1) or w + 2 * pw <= dw * (kw - 1):
        return
    r = np.random.default_rng(seed)
    x = r.standard_normal((n, cg * groups, h, w))
    wt = r.standard_normal((og * groups, cg, kh, kw))
    b = r.standard_normal(og * groups) if bias else None
    got = crt.conv2d(layout(x, how), wt, b, stride=(sh, sw), padding=(ph, pw),
                     dilation=(dh, dw), groups=groups)
    want = ref_conv2d(x, wt, b, (sh, sw), (ph, ph, pw, pw), (dh, dw), groups)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)


@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 10), w=st.integers(1, 45), k=st.integers(1, 4), s=st.integers(1, 3),
    p=st.integers(0, 2), ceil=st.booleans(), include=st.booleans(), d=st.integers(1, 2),
    how=st.sampled_from(["contiguous", "transposed", "sliced"]), seed=st.integers(0, 2**32 - 1),
)
def test_pooling_property(h, w, k, s, p, ceil, include, d, how, seed):
    if 2 * p > k or h + 2 * p < d * (k - 1) + 1 or w + 2 * p < d * (k - 1) + 1:
        return
    x = np.random.default_rng(seed).standard_normal((2, 3, h, w))
    t = layout(x, how)
    got = crt.max_pool2d(t, k, s, p, d, ceil)
    np.testing.assert_array_equal(got.numpy(), ref_pool(x, k, s, p, ceil, "max", d=d))
    if h + 2 * p >= k and w + 2 * p >= k:
        got = crt.avg_pool2d(t, k, s, p, ceil, include)
        want = ref_pool(x, k, s, p, ceil, "avg", include)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    c=st.integers(1, 3), mult=st.integers(1, 2), h=st.integers(1, 5), w=st.integers(1, 80),
    kh=st.integers(1, 5), kw=st.integers(1, 5), sw=st.sampled_from([1, 1, 2]),
    ph=st.integers(0, 2), pw=st.integers(0, 2), dw=st.integers(1, 3), bias=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_depthwise_wide_rows(c, mult, h, w, kh, kw, sw, ph, pw, dw, bias, seed):
    # Rows up to 80 wide: stride-1 depthwise rows run in register blocks of 32, 8 and 1
    # columns (the last block of each size overlapping the one before) between the
    # padded edges, which run tap by tap.
    if h + 2 * ph < kh or w + 2 * pw <= dw * (kw - 1):
        return
    r = np.random.default_rng(seed)
    x = r.standard_normal((2, c, h, w))
    wt = r.standard_normal((c * mult, 1, kh, kw))
    b = r.standard_normal(c * mult) if bias else None
    got = crt.conv2d(x, wt, b, stride=(1, sw), padding=(ph, pw), dilation=(1, dw), groups=c)
    want = ref_conv2d(x, wt, b, (1, sw), (ph, ph, pw, pw), (1, dw), c)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)
    got32 = crt.conv2d(x.astype(np.float32), wt.astype(np.float32), b if b is None else
                       b.astype(np.float32), stride=(1, sw), padding=(ph, pw), dilation=(1, dw),
                       groups=c)
    np.testing.assert_allclose(got32.numpy(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("k", [3, 5, 7])
@pytest.mark.parametrize("sh,sw,dh,dw,ph,pw,w", [
    (1, 1, 1, 1, 0, 0, 75), (1, 1, 1, 1, 1, 1, 20), (2, 2, 1, 1, 3, 2, 75),
    (1, 2, 2, 3, 4, 0, 30), (3, 3, 2, 1, 0, 5, 75), (1, 1, 1, 1, 2, 2, 6),
    (2, 2, 1, 1, 6, 7, 3), (1, 3, 1, 1, 1, 8, 40),
])
def test_depthwise_fixed_kernel_sizes(k, sh, sw, dh, dw, ph, pw, w):
    # 3x3, 5x5 and 7x7 kernels run a copy compiled for their size, other sizes the general
    # blocks; rows narrower than a block run several at once as one flat run, and a stride
    # across splits the padded rows into column phases. Every row and column must agree
    # with the reference.
    r = np.random.default_rng(k * 100 + sh * 10 + dh)
    h = 3 * k + 4
    x = r.standard_normal((2, 3, h, w))
    wt = r.standard_normal((6, 1, k, k))
    b = r.standard_normal(6)
    opts = dict(stride=(sh, sw), padding=(ph, pw), dilation=(dh, dw), groups=3)
    got = crt.conv2d(x, wt, b, **opts)
    want = ref_conv2d(x, wt, b, (sh, sw), (ph, ph, pw, pw), (dh, dw), 3)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)
    t = layout(x.astype(np.float32), "sliced")
    got32 = crt.conv2d(t, wt.astype(np.float32), b.astype(np.float32), **opts)
    np.testing.assert_allclose(got32.numpy(), want, rtol=1e-4, atol=1e-4)


def test_pooling_dtypes_nan_and_defaults():
    x = np.arange(2 * 16, dtype=np.uint8).reshape(2, 4, 4)
    got = crt.max_pool2d(x, 2)
    assert got.dtype == crt.uint8 and got.shape == (2, 2, 2)
    np.testing.assert_array_equal(got.numpy(), ref_pool(x[None], 2, 2, 0, False, "max")[0])
    avg = crt.avg_pool2d(x, 2)
    assert avg.dtype == crt.float32
    f = np.ones((1, 1, 2, 2), np.float32)
    f[0, 0, 1, 0] = np.nan
    assert np.isnan(crt.max_pool2d(f, 2).numpy()).all()


@pytest.mark.parametrize("out", [(1, 1), (3, 2), (5, 7), 4])
def test_adaptive_avg_pool2d(out):
    x = rng.standard_normal((2, 3, 7, 5))
    oh, ow = (out, out) if isinstance(out, int) else out
    want = np.zeros((2, 3, oh, ow))
    for i in range(oh):
        for j in range(ow):
            y0, y1 = i * 7 // oh, -(-(i + 1) * 7 // oh)
            x0, x1 = j * 5 // ow, -(-(j + 1) * 5 // ow)
            want[:, :, i, j] = x[:, :, y0:y1, x0:x1].mean(axis=(2, 3))
    np.testing.assert_allclose(crt.adaptive_avg_pool2d(x, out).numpy(), want, rtol=1e-12)


def test_linear():
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    w = rng.standard_normal((5, 4)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    np.testing.assert_allclose(crt.linear(x, w, b).numpy(), x @ w.T + b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(crt.linear(x, w).numpy(), x @ w.T, rtol=1e-5, atol=1e-5)
    xt = crt.from_numpy(x).transpose(1, 2)  # [2, 4, 3]: a strided input
    w3 = rng.standard_normal((5, 3)).astype(np.float32)
    np.testing.assert_allclose(crt.linear(xt, w3).numpy(), x.swapaxes(1, 2) @ w3.T,
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                          ("circular", "wrap"), ("constant", "constant")])
def test_pad_matches_numpy(mode, np_mode):
    x = rng.standard_normal((2, 3, 4, 5))
    got = crt.pad(layout(x, "transposed"), [2, 1, 3, 0], mode=mode)
    want = np.pad(x, ((0, 0), (0, 0), (3, 0), (2, 1)), mode=np_mode)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("replicate", "edge"),
                                          ("circular", "wrap"), ("constant", "constant")])
@pytest.mark.parametrize("how", ["contiguous", "transposed", "sliced"])
def test_pad_large_rows_in_groups(mode, np_mode, how):
    # Rows long enough to be copied whole, borders walked backwards (reflect), repeated
    # (replicate) or wrapped (circular), pads on three dims (whole constant rows), and
    # enough rows to be split across threads in groups that start mid-image.
    x = rng.standard_normal((3, 7, 61, 60)).astype(np.float32)  # 136,500 output elements
    got = crt.pad(layout(x, how), [3, 2, 4, 5, 1, 2], mode=mode)
    want = np.pad(x, ((0, 0), (1, 2), (4, 5), (3, 2)), mode=np_mode)
    np.testing.assert_array_equal(got.numpy(), want)


def test_pad_constant_value_and_crop():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = crt.pad(x, [1, -1], value=7)
    np.testing.assert_array_equal(got.numpy(), np.array([[7, 0, 1], [7, 3, 4]]))
    assert got.dtype == crt.int32


def test_errors_name_the_fix():
    x = np.zeros((1, 4, 5, 5), np.float32)
    with pytest.raises(crt.ClikaError, match="input channels"):
        crt.conv2d(x, np.zeros((6, 3, 3, 3), np.float32))
    with pytest.raises(crt.ClikaError, match="groups=3"):
        crt.conv2d(x, np.zeros((6, 3, 3, 3), np.float32), groups=3)
    with pytest.raises(crt.ClikaError, match="stride 1"):
        crt.conv2d(x, np.zeros((4, 4, 3, 3), np.float32), padding="same", stride=2)
    with pytest.raises(ValueError, match="'same', 'valid'"):
        crt.conv2d(x, np.zeros((4, 4, 3, 3), np.float32), padding="full")
    with pytest.raises(ValueError, match="non-negative"):
        crt.conv2d(x, np.zeros((4, 4, 3, 3), np.float32), stride=-1)
    with pytest.raises(crt.ClikaError, match="half the kernel"):
        crt.max_pool2d(x, 2, padding=2)
    with pytest.raises(crt.ClikaError, match="out of range"):
        crt.pad(x, [5, 0], mode="reflect")
    with pytest.raises(ValueError, match="mode must be"):
        crt.pad(x, [1, 1], mode="mirror")


@pytest.mark.parametrize("how", ["contiguous", "transposed", "sliced"])
def test_pooling_long_windows(how):
    # Windows of 16 and more elements fold in 8 lanes: a global average pooling, adaptive
    # windows of ~20 and a max over 20 columns (with a NaN in one window and -inf rows).
    x = rng.standard_normal((2, 3, 40, 37))
    x[0, 1, 5, 30] = np.nan
    x[1, 2, 7] = -np.inf
    t = layout(x, how)
    for out in [(1, 1), (2, 2), (3, 1)]:
        oh, ow = out
        want = np.zeros((2, 3, oh, ow))
        for i in range(oh):
            for j in range(ow):
                y0, y1 = i * 40 // oh, -(-(i + 1) * 40 // oh)
                x0, x1 = j * 37 // ow, -(-(j + 1) * 37 // ow)
                want[:, :, i, j] = x[:, :, y0:y1, x0:x1].mean(axis=(2, 3))
        np.testing.assert_allclose(crt.adaptive_avg_pool2d(t, out).numpy(), want, rtol=1e-12)
        got32 = crt.adaptive_avg_pool2d(layout(x.astype(np.float32), how), out).numpy()
        np.testing.assert_allclose(got32, want.astype(np.float32), rtol=1e-5, atol=1e-5)
    got = crt.max_pool2d(t, (1, 20), (1, 17)).numpy()
    want = np.stack([x[..., 0:20].max(axis=-1), x[..., 17:37].max(axis=-1)], axis=-1)
    np.testing.assert_array_equal(got, want)


def test_large_convolutions_and_resizes_give_the_same_bits_on_one_thread_and_four():
    """Past the parallel threshold, convolutions split their output blocks and planes across
    threads, and resizes their rows (a task's rows may cross from one plane to the next):
    one thread and four give the same bits."""
    code = (
        "import clika_runtime as crt, numpy as np, hashlib;"
        "rng = np.random.default_rng(5);"
        "f = lambda *s: crt.from_numpy(rng.standard_normal(s).astype(np.float32));"
        "x, w, wd, big = f(3, 8, 33, 47), f(12, 8, 3, 3), f(16, 1, 3, 3), f(2, 3, 301, 397);"
        "outs = [crt.conv2d(x, w, padding=1), crt.conv2d(x, w[:, :4], stride=2, groups=2),"
        " crt.conv2d(x, wd, padding=1, groups=8), crt.conv2d(x, wd, stride=2, groups=8),"
        " crt.conv_transpose2d(x, f(8, 6, 3, 3), stride=2, padding=1),"
        " crt.conv2d(x, f(12, 8, 1, 1))];"
        "outs += [crt.interpolate(x, size=(129, 163), mode=m) for m in ('nearest', 'bilinear', 'bicubic', 'area')];"
        "outs += [crt.interpolate(big, size=(117, 151), mode='bilinear', antialias=True),"
        " crt.interpolate(crt.from_numpy(rng.integers(0, 256, (2, 3, 150, 170), dtype=np.uint8)), size=(257, 301))];"
        "h = hashlib.sha256();"
        "[h.update(o.numpy().tobytes()) for o in outs];"
        "print(h.hexdigest())"
    )
    assert len(outputs_on_one_thread_and_four(code)) == 1
