"""The image entry points against numpy references written here: ``normalize_image`` on
contiguous, pitched (padded rows), cropped, channel-flipped, batched and empty uint8 frames
(hypothesis over sizes, pitches and batch sizes), and its errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt

MEAN = [0.485, 0.456, 0.406]
STD = [0.229, 0.224, 0.225]


def ref_normalize(x, mean, std):
    """``(x / 255 - mean) / std`` in float32, NHWC/HWC -> NCHW/CHW."""
    c = x.shape[-1]
    m = np.broadcast_to(np.asarray(mean, np.float32), (c,))
    s = np.broadcast_to(np.asarray(std, np.float32), (c,))
    y = (x.astype(np.float32) / np.float32(255) - m) / s
    return np.moveaxis(y, -1, -3)


def check(x, mean=MEAN, std=STD):
    got = crt.normalize_image(x, mean, std)
    want = ref_normalize(x, mean, std)
    assert got.dtype == crt.float32
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_contiguous_unbatched_and_batched():
    rng = np.random.default_rng(0)
    check(rng.integers(0, 256, (5, 7, 3), dtype=np.uint8))
    check(rng.integers(0, 256, (2, 5, 7, 3), dtype=np.uint8))
    check(np.arange(256, dtype=np.uint8).reshape(16, 16, 1), [0.1], [0.3])
    check(rng.integers(0, 256, (4, 4, 3), dtype=np.uint8), 0.5, 0.25)
    # A runtime tensor works as well as an array.
    x = rng.integers(0, 256, (3, 4, 3), dtype=np.uint8)
    np.testing.assert_array_equal(
        crt.normalize_image(crt.from_numpy(x), MEAN, STD).numpy(), ref_normalize(x, MEAN, STD)
    )


def test_pitched_cropped_and_flipped_frames_are_read_in_place():
    rng = np.random.default_rng(1)
    buf = rng.integers(0, 256, (6, 16 * 3 + 8), dtype=np.uint8)  # rows pitched to 56 bytes
    frame = np.lib.stride_tricks.as_strided(buf, (6, 16, 3), (56, 3, 1))
    check(frame)
    check(frame[1:5, 2:11])  # a crop
    check(frame[..., ::-1])  # BGR read as RGB
    check(frame[::-1, ::-2])
    check(np.broadcast_to(np.uint8([10, 128, 250]), (4, 6, 3)))


@pytest.mark.parametrize("shape", [(0, 4, 3), (4, 0, 3), (0, 2, 2, 3), (2, 0, 5, 3)])
def test_empty_frames(shape):
    x = np.zeros(shape, np.uint8)
    got = crt.normalize_image(x, MEAN, STD)
    assert tuple(got.shape) == ref_normalize(x, MEAN, STD).shape


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 3), h=st.integers(0, 24), w=st.integers(1, 24), c=st.integers(1, 4),
    pad=st.integers(0, 9), batched=st.booleans(), flip=st.booleans(), seed=st.integers(0, 999),
)
def test_random_frames(n, h, w, c, pad, batched, flip, seed):
    rng = np.random.default_rng(seed)
    full = rng.integers(0, 256, (max(n, 1), h, w + pad, c), dtype=np.uint8)
    x = full[:, :, :w] if batched else full[0, :, :w]
    if batched:
        x = x[:n]
    if flip:
        x = x[..., ::-1]
    mean = list(rng.uniform(0, 1, c))
    std = list(rng.uniform(0.1, 1, c))
    check(x, mean, std)


def test_large_frame():
    rng = np.random.default_rng(2)
    buf = rng.integers(0, 256, (120, 2048, 3), dtype=np.uint8)
    check(buf[:, :1920])


def test_errors_name_the_fix():
    x = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(crt.InvalidArgumentError, match="must be uint8"):
        crt.normalize_image(x.astype(np.float32), MEAN, STD)
    with pytest.raises(crt.InvalidArgumentError, match="mean has 2 values.*3 channels"):
        crt.normalize_image(x, MEAN[:2], STD)
    with pytest.raises(crt.InvalidArgumentError, match=r"std\[1\] is 0.*non-zero"):
        crt.normalize_image(x, MEAN, [0.2, 0.0, 0.2])
    with pytest.raises(crt.InvalidArgumentError, match=r"\(H, W, C\) or \(N, H, W, C\)"):
        crt.normalize_image(np.zeros((4, 3), np.uint8), MEAN, STD)
    with pytest.raises(TypeError, match="mean must be a float or a sequence"):
        crt.normalize_image(x, "abc", STD)
