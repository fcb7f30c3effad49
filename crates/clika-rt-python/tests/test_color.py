"""``cvt_color`` against a numpy float reference written here (the textbook BT.601/BT.709
formulas, rounded and saturated): within 1 for every YUV layout, matrix and range, on
contiguous and pitched frames (hypothesis over sizes); the RGB conversions exactly; and
against OpenCV's ``cvtColor`` when ``cv2`` is importable (skipped otherwise)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt

YUV_CODES = ["YUV2RGB_NV12", "YUV2BGR_NV12", "YUV2RGB_I420", "YUV2BGR_I420",
             "YUV2RGB_YUYV", "YUV2BGR_YUYV"]


def ref_yuv(code, x, matrix="bt601", full_range=False):
    """The float YUV -> RGB/BGR of a frame in ``code``'s layout."""
    if code.endswith("YUYV"):
        h, w = x.shape[:2]
        y = x[:, :, 0].astype(np.float64)
        u = np.repeat(x[:, 0::2, 1], 2, axis=1).astype(np.float64)
        v = np.repeat(x[:, 1::2, 1], 2, axis=1).astype(np.float64)
    else:
        h, w = x.shape[0] * 2 // 3, x.shape[1]
        y = x[:h].astype(np.float64)
        if code.endswith("NV12"):
            uv = x[h:].reshape(h // 2, w // 2, 2)
            u, v = uv[..., 0], uv[..., 1]
        else:
            chroma = np.ascontiguousarray(x[h:]).reshape(-1)
            q = (h // 2) * (w // 2)
            u, v = chroma[:q].reshape(h // 2, w // 2), chroma[q:].reshape(h // 2, w // 2)
        up = lambda c: np.repeat(np.repeat(c, 2, axis=0), 2, axis=1).astype(np.float64)  # noqa: E731
        u, v = up(u), up(v)
    kr, kb = (0.299, 0.114) if matrix == "bt601" else (0.2126, 0.0722)
    kg = 1 - kr - kb
    ys, cs, off = (1.0, 1.0, 0.0) if full_range else (255 / 219, 255 / 224, 16.0)
    y = ys * np.maximum(y - off, 0)
    u, v = cs * (u - 128), cs * (v - 128)
    r = y + 2 * (1 - kr) * v
    g = y - 2 * kb * (1 - kb) / kg * u - 2 * kr * (1 - kr) / kg * v
    b = y + 2 * (1 - kb) * u
    out = np.stack([r, g, b], axis=-1)
    if "2BGR" in code:
        out = out[..., ::-1]
    return np.clip(np.round(out), 0, 255)


def frame_for(code, h, w, rng, pad=0):
    """A random frame in ``code``'s layout, its rows pitched by ``pad`` extra bytes."""
    shape = (h, w, 2) if code.endswith("YUYV") else (h * 3 // 2, w)
    rows, row_len = shape[0], int(np.prod(shape[1:]))
    buf = rng.integers(0, 256, (rows, row_len + pad), dtype=np.uint8)
    x = buf[:, :row_len].reshape(shape)  # a view: the rows keep their pitch
    assert pad == 0 or not x.flags.c_contiguous or rows <= 1
    return x


def max_diff(a, b):
    return float(np.abs(np.asarray(a, np.float64) - b).max(initial=0))


@pytest.mark.parametrize("code", YUV_CODES)
@pytest.mark.parametrize("matrix", ["bt601", "bt709"])
@pytest.mark.parametrize("full_range", [False, True])
def test_yuv_within_one_of_the_formulas(code, matrix, full_range):
    rng = np.random.default_rng(0)
    for h, w, pad in [(2, 2, 0), (8, 12, 0), (8, 12, 7), (0, 4, 0)]:
        x = frame_for(code, h, w, rng, pad)
        got = crt.cvt_color(x, code, matrix, full_range).numpy()
        assert got.shape == (h, w, 3) and got.dtype == np.uint8
        assert max_diff(got, ref_yuv(code, x, matrix, full_range)) <= 1


@settings(max_examples=40, deadline=None)
@given(code=st.sampled_from(YUV_CODES), hh=st.integers(0, 10), ww=st.integers(1, 10),
       pad=st.integers(0, 9), bt709=st.booleans(), full=st.booleans(), seed=st.integers(0, 999))
def test_yuv_random_frames(code, hh, ww, pad, bt709, full, seed):
    x = frame_for(code, 2 * hh, 2 * ww, np.random.default_rng(seed), pad)
    matrix = "bt709" if bt709 else "bt601"
    got = crt.cvt_color(x, code, matrix, full).numpy()
    assert max_diff(got, ref_yuv(code, x, matrix, full)) <= 1


def test_rgb_swap_and_gray():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, (6, 9, 3), dtype=np.uint8)
    np.testing.assert_array_equal(crt.cvt_color(x, "RGB2BGR").numpy(), x[..., ::-1])
    np.testing.assert_array_equal(crt.cvt_color(x[:, 1:7], "BGR2RGB").numpy(), x[:, 1:7, ::-1])
    gray = crt.cvt_color(x, "RGB2GRAY").numpy()
    assert gray.shape == (6, 9)
    want = x.astype(np.float64) @ [0.299, 0.587, 0.114]
    assert max_diff(gray, want) <= 0.5 + 1e-3
    np.testing.assert_array_equal(crt.cvt_color(x[..., ::-1], "BGR2GRAY").numpy(), gray)


def test_errors():
    with pytest.raises(ValueError, match="unknown code"):
        crt.cvt_color(np.zeros((4, 4, 3), np.uint8), "HSV2RGB")
    with pytest.raises(ValueError, match="bt601"):
        crt.cvt_color(np.zeros((6, 4), np.uint8), "YUV2RGB_NV12", matrix="bt2020")
    with pytest.raises(crt.InvalidArgumentError, match="must be uint8"):
        crt.cvt_color(np.zeros((4, 4, 3), np.float32), "RGB2BGR")
    with pytest.raises(crt.InvalidArgumentError, match=r"\(H \* 3 / 2, W\)"):
        crt.cvt_color(np.zeros((5, 4), np.uint8), "YUV2RGB_NV12")


@pytest.mark.parametrize("code", YUV_CODES + ["RGB2BGR", "RGB2GRAY", "BGR2GRAY"])
def test_matches_opencv(code):
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(2)
    if code in ("RGB2BGR", "RGB2GRAY", "BGR2GRAY"):
        x = rng.integers(0, 256, (16, 24, 3), dtype=np.uint8)
    else:
        x = np.ascontiguousarray(frame_for(code, 16, 24, rng))
    want = cv2.cvtColor(x, getattr(cv2, "COLOR_" + code))
    assert max_diff(crt.cvt_color(x, code).numpy(), want) <= 1
