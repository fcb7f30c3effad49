"""conv_transpose1d / conv_transpose2d against a numpy reference written from PyTorch's
definition (every input element scatters `value * weight` into the output), on contiguous,
transposed, sliced, broadcast and empty-batch inputs, in float32/float64 and integers;
hypothesis over shapes, strides, paddings, output paddings, dilations and groups; errors.
Where torch is installed (``make bench`` installs it) the same cases are checked against
torch itself."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt
from test_vision import layout  # contiguous / transposed / sliced views of numpy memory

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # make test does not install torch
    torch = None


def ref_conv_transpose2d(x, w, b=None, stride=(1, 1), pad=(0, 0), out_pad=(0, 0), dil=(1, 1), groups=1):
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    full_h = (h - 1) * stride[0] + dil[0] * (kh - 1) + 1 + out_pad[0]
    full_w = (wd - 1) * stride[1] + dil[1] * (kw - 1) + 1 + out_pad[1]
    full = np.zeros((n, og * groups, full_h, full_w))
    cg = c // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for ki in range(kh):
            for kj in range(kw):
                contrib = np.einsum("nchw,co->nohw", xs, w[g * cg:(g + 1) * cg, :, ki, kj])
                y0, x0 = ki * dil[0], kj * dil[1]
                full[:, g * og:(g + 1) * og,
                     y0:y0 + stride[0] * (h - 1) + 1:stride[0],
                     x0:x0 + stride[1] * (wd - 1) + 1:stride[1]] += contrib
    out = full[:, :, pad[0]:full_h - pad[0], pad[1]:full_w - pad[1]]
    if b is not None:
        out = out + np.asarray(b, dtype=np.float64)[None, :, None, None]
    return out


rng = np.random.default_rng(0)


@pytest.mark.parametrize("how", ["contiguous", "transposed", "sliced"])
def test_layouts_groups_dilation_bias_output_padding(how):
    x = rng.standard_normal((2, 6, 5, 4)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 2)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    opts = dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=3, dilation=(1, 2))
    got = crt.conv_transpose2d(layout(x, how), w, b, **opts)
    want = ref_conv_transpose2d(x, w, b, (2, 3), (1, 0), (1, 2), (1, 2), 3)
    assert got.dtype == crt.float32 and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)
    if torch is not None:
        t = F.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), **opts)
        np.testing.assert_allclose(got.numpy(), t.numpy(), rtol=1e-5, atol=1e-5)


def test_unbatched_empty_batch_broadcast_and_dtypes():
    x = rng.standard_normal((3, 4, 4))
    w = rng.standard_normal((3, 2, 2, 2))
    got = crt.conv_transpose2d(x, w, stride=2)
    assert got.dtype == crt.float64 and got.shape == (2, 8, 8)
    np.testing.assert_allclose(got.numpy(), ref_conv_transpose2d(x[None], w, stride=(2, 2))[0], rtol=1e-12)
    empty = crt.conv_transpose2d(crt.zeros(0, 3, 4, 4), crt.zeros(3, 2, 2, 2))
    assert empty.shape == (0, 2, 5, 5)
    # A broadcast (stride-0) input and weight read in place.
    xb = crt.tensor(np.arange(4.0, dtype=np.float32)).reshape(1, 1, 1, 4).expand(2, 3, 5, 4)
    wb = crt.ones(1, 1, 2, 2).expand(3, 1, 2, 2)
    got = crt.conv_transpose2d(xb, wb, groups=3)
    want = ref_conv_transpose2d(np.broadcast_to(np.arange(4.0).reshape(1, 1, 1, 4), (2, 3, 5, 4)),
                                np.ones((3, 1, 2, 2)), groups=3)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    # Integers compute in float32.
    got = crt.conv_transpose2d(crt.tensor([[[[1, 2], [3, 4]]]]), crt.ones(1, 1, 2, 2, dtype=crt.int32))
    assert got.dtype == crt.float32
    assert got.tolist() == [[[[1.0, 3.0, 2.0], [4.0, 10.0, 6.0], [3.0, 7.0, 4.0]]]]


@pytest.mark.parametrize("stride, pad, dil", [((2, 2), (1, 1), (1, 1)), ((1, 3), (0, 2), (2, 1))])
def test_tap_rows_tiled_over_many_input_rows(stride, pad, dil):
    """The GEMM's tap rows are made and added into the output a few input rows at a time
    (256 KiB): here 256 tap rows of 37 columns, six input rows a tile and a short last one,
    against the numpy reference, in float32 and float64, with a bias."""
    x = rng.standard_normal((2, 32, 41, 37))
    w = rng.standard_normal((32, 16, 4, 4))
    b = rng.standard_normal(16)
    want = ref_conv_transpose2d(x, w, b, stride, pad, (0, 0), dil)
    for dt, tol in ((np.float64, 1e-10), (np.float32, 2e-4)):
        got = crt.conv_transpose2d(x.astype(dt), w.astype(dt), b.astype(dt), stride=stride,
                                   padding=pad, dilation=dil)
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def test_conv_transpose1d_is_height_one():
    x = rng.standard_normal((2, 4, 7)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    got = crt.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1, dilation=2)
    want = ref_conv_transpose2d(x[:, :, None], w[:, :, None], b, (1, 2), (0, 1), (0, 1), (1, 2))[:, :, 0]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)
    assert crt.conv_transpose1d(x[0], w).shape == (3, 9)
    if torch is not None:
        t = F.conv_transpose1d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b),
                               stride=2, padding=1, output_padding=1, dilation=2)
        np.testing.assert_allclose(got.numpy(), t.numpy(), rtol=1e-5, atol=1e-5)


def test_the_adjoint_of_conv2d():
    # <conv2d(x, w), y> == <x, conv_transpose2d(y, w)> for matching strides and paddings.
    x = rng.standard_normal((1, 3, 9, 8))
    w = rng.standard_normal((5, 3, 3, 3))
    y = rng.standard_normal((1, 5, 5, 4))
    fwd = crt.conv2d(x, w, stride=2, padding=1).numpy()
    assert fwd.shape == y.shape
    back = crt.conv_transpose2d(y, w, stride=2, padding=1, output_padding=(0, 1)).numpy()
    assert back.shape == x.shape
    assert abs((fwd * y).sum() - (x * back).sum()) < 1e-9


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 2), cg=st.integers(1, 3), og=st.integers(1, 3), groups=st.integers(1, 3),
    h=st.integers(1, 6), w=st.integers(1, 6), kh=st.integers(1, 3), kw=st.integers(1, 3),
    sh=st.integers(1, 3), sw=st.integers(1, 3), ph=st.integers(0, 2), pw=st.integers(0, 2),
    oph=st.integers(0, 2), opw=st.integers(0, 2), dh=st.integers(1, 2), dw=st.integers(1, 2),
    bias=st.booleans(), how=st.sampled_from(["contiguous", "transposed", "sliced"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_property(n, cg, og, groups, h, w, kh, kw, sh, sw, ph, pw, oph, opw, dh, dw, bias, how, seed):
    if not (oph < sh or oph < dh) or not (opw < sw or opw < dw):
        return
    if (h - 1) * sh + dh * (kh - 1) + oph + 1 <= 2 * ph or (w - 1) * sw + dw * (kw - 1) + opw + 1 <= 2 * pw:
        return
    r = np.random.default_rng(seed)
    x = r.standard_normal((n, cg * groups, h, w))
    wt = r.standard_normal((cg * groups, og, kh, kw))
    b = r.standard_normal(og * groups) if bias else None
    opts = dict(stride=(sh, sw), padding=(ph, pw), output_padding=(oph, opw), groups=groups, dilation=(dh, dw))
    got = crt.conv_transpose2d(layout(x, how), wt, b, **opts)
    want = ref_conv_transpose2d(x, wt, b, (sh, sw), (ph, pw), (oph, opw), (dh, dw), groups)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)
    if torch is not None:
        t = F.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(wt),
                               None if b is None else torch.from_numpy(b), **opts)
        np.testing.assert_allclose(got.numpy(), t.numpy(), rtol=1e-10, atol=1e-10)


def test_errors_name_the_rule():
    x, w = crt.zeros(1, 4, 3, 3), crt.zeros(4, 2, 2, 2)
    with pytest.raises(crt.InvalidArgumentError, match="output_padding"):
        crt.conv_transpose2d(x, w, output_padding=1)
    with pytest.raises(crt.InvalidArgumentError, match="less padding"):
        crt.conv_transpose2d(x, w, padding=3)
    with pytest.raises(crt.InvalidArgumentError, match="groups=3"):
        crt.conv_transpose2d(x, w, groups=3)
    with pytest.raises(crt.InvalidArgumentError, match="input channels"):
        crt.conv_transpose2d(x, crt.zeros(3, 2, 2, 2))
    with pytest.raises(crt.InvalidArgumentError, match="bias"):
        crt.conv_transpose2d(x, w, crt.zeros(3))
    with pytest.raises(crt.InvalidArgumentError, match="non-empty"):
        crt.conv_transpose2d(crt.zeros(1, 4, 0, 3), w)
    with pytest.raises(crt.InvalidArgumentError, match="4-D"):
        crt.conv_transpose2d(crt.zeros(4, 3), w)
    with pytest.raises(ValueError, match="non-negative"):
        crt.conv_transpose2d(x, w, stride=-1)
    with pytest.raises(TypeError, match="tuple of ints"):
        crt.conv_transpose2d(x, w, padding="same")
