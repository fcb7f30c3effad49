"""layer_norm, group_norm and batch_norm (inference) against numpy references written here
from PyTorch's definitions, on contiguous, transposed, broadcast and empty inputs, in
float32/float64/float16; hypothesis over random shapes; errors; and against torch where it
is installed (``make bench`` installs it)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt

settings.register_profile("norm", max_examples=60, deadline=None)
settings.load_profile("norm")

try:
    import torch
except ImportError:  # make test does not install torch
    torch = None


def ref_layer_norm(x, k, w=None, b=None, eps=1e-5):
    x = np.asarray(x, np.float64)
    axes = tuple(range(x.ndim - k, x.ndim))
    m = x.mean(axis=axes, keepdims=True)
    v = ((x - m) ** 2).mean(axis=axes, keepdims=True)
    y = (x - m) / np.sqrt(v + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def ref_group_norm(x, g, w=None, b=None, eps=1e-5):
    x = np.asarray(x, np.float64)
    if x.size == 0:
        return x.copy()
    n, c = x.shape[:2]
    xs = x.reshape(n, g, -1)
    m = xs.mean(axis=2, keepdims=True)
    v = ((xs - m) ** 2).mean(axis=2, keepdims=True)
    y = ((xs - m) / np.sqrt(v + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * np.reshape(w, shape)
    if b is not None:
        y = y + np.reshape(b, shape)
    return y


def ref_batch_norm(x, rm, rv, w=None, b=None, eps=1e-5):
    x = np.asarray(x, np.float64)
    rm, rv = np.asarray(rm, np.float64), np.asarray(rv, np.float64)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    y = (x - np.reshape(rm, shape)) / np.sqrt(np.reshape(rv, shape) + eps)
    if w is not None:
        y = y * np.reshape(w, shape)
    if b is not None:
        y = y + np.reshape(b, shape)
    return y


TOL = {np.float64: 1e-10, np.float32: 2e-5, np.float16: 2e-2}


def close(got, want, dtype):
    got = got.numpy()
    assert got.dtype == dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("affine", [False, True])
def test_layer_norm(dtype, affine):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((4, 5, 6)) * 3 + 10).astype(dtype)
    for k in (1, 2, 3):
        shape = x.shape[3 - k:]
        w = rng.standard_normal(shape).astype(dtype) if affine else None
        b = rng.standard_normal(shape).astype(dtype) if affine else None
        got = crt.layer_norm(x, shape, w, b)
        close(got, ref_layer_norm(x, k, w, b), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("groups", [1, 2, 6])
def test_group_norm(dtype, groups):
    rng = np.random.default_rng(1)
    for shape in [(2, 6, 5, 7), (3, 6), (2, 6, 9)]:
        x = (rng.standard_normal(shape) * 2 - 5).astype(dtype)
        w = rng.standard_normal(6).astype(dtype)
        b = rng.standard_normal(6).astype(dtype)
        close(crt.group_norm(x, groups, w, b, eps=1e-3), ref_group_norm(x, groups, w, b, 1e-3),
              dtype)
        close(crt.group_norm(x, groups), ref_group_norm(x, groups), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_batch_norm(dtype):
    rng = np.random.default_rng(2)
    for shape in [(2, 3, 4, 5), (5, 3), (2, 3, 7)]:
        x = rng.standard_normal(shape).astype(dtype)
        rm = rng.standard_normal(3).astype(np.float32)
        rv = rng.uniform(0.5, 2, 3).astype(np.float32)
        w = rng.standard_normal(3).astype(dtype)
        b = rng.standard_normal(3).astype(dtype)
        close(crt.batch_norm(x, rm, rv, w, b), ref_batch_norm(x, rm, rv, w, b), dtype)
        close(crt.batch_norm(x, rm, rv), ref_batch_norm(x, rm, rv), dtype)


def test_strided_broadcast_and_empty_inputs():
    rng = np.random.default_rng(3)
    base = rng.standard_normal((3, 8, 5)).astype(np.float32)
    t = crt.tensor(base)
    # Transposed (channels-last) and sliced views are normalized as their values say.
    close(crt.group_norm(t.permute(0, 2, 1), 5), ref_group_norm(base.transpose(0, 2, 1), 5),
          np.float32)
    close(crt.layer_norm(t[:, ::2], 5), ref_layer_norm(base[:, ::2], 1), np.float32)
    # A broadcast input (stride 0) and broadcast weights.
    row = rng.standard_normal((1, 6)).astype(np.float32)
    close(crt.layer_norm(crt.tensor(row).expand(4, 6), 6),
          ref_layer_norm(np.broadcast_to(row, (4, 6)), 1), np.float32)
    # Empty batches keep their shape; a constant row normalizes to 0 (var 0 + eps).
    for f, args in [(crt.layer_norm, (4,)), (crt.group_norm, (2,)),
                    (crt.batch_norm, (np.zeros(4, np.float32), np.ones(4, np.float32)))]:
        assert f(np.zeros((0, 4), np.float32), *args).shape == (0, 4)
    np.testing.assert_array_equal(crt.layer_norm(np.full((2, 3), 7.0), 3).numpy(), 0.0)


def test_large_offsets_keep_precision():
    # Mean 1e4 and unit spread in float32: the two-pass statistics stay accurate.
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((8, 4096)) + 1e4).astype(np.float32)
    got = crt.layer_norm(x, 4096).numpy()
    np.testing.assert_allclose(got, ref_layer_norm(x, 1), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize(
    "call,err",
    [
        (lambda x: crt.layer_norm(x, (2, 4)), crt.InvalidArgumentError),
        (lambda x: crt.layer_norm(x, 4, weight=np.ones(3, np.float32)), crt.InvalidArgumentError),
        (lambda x: crt.layer_norm(x, 4, eps=-1.0), crt.InvalidArgumentError),
        (lambda x: crt.group_norm(x, 3), crt.InvalidArgumentError),
        (lambda x: crt.group_norm(x, 0), crt.InvalidArgumentError),
        (lambda x: crt.group_norm(x[0, 0], 1), crt.InvalidArgumentError),
        (lambda x: crt.batch_norm(x, np.zeros(3), np.ones(4)), crt.InvalidArgumentError),
        (lambda x: crt.batch_norm(x, np.zeros(4), np.ones(4), training=True),
         NotImplementedError),
        (lambda x: crt.layer_norm(x.astype(np.int32), 4), crt.InvalidArgumentError),
    ],
)
def test_errors_name_the_fix(call, err):
    x = np.zeros((2, 4, 4), np.float32)
    with pytest.raises(err):
        call(x)


@given(
    n=st.integers(1, 3),
    c=st.sampled_from([1, 2, 4, 6]),
    s=st.integers(0, 9),
    groups=st.sampled_from([1, 2]),
    transpose=st.booleans(),
)
def test_random_shapes(n, c, s, groups, transpose):
    if c % groups:
        groups = 1
    rng = np.random.default_rng(n * 100 + c * 10 + s)
    x = rng.standard_normal((n, s, c) if transpose else (n, c, s))
    if transpose:
        x = x.transpose(0, 2, 1)
    w, b = rng.standard_normal(c), rng.standard_normal(c)
    close(crt.group_norm(x, groups, w, b), ref_group_norm(x, groups, w, b), np.float64)
    rm, rv = rng.standard_normal(c), rng.uniform(0.1, 3, c)
    close(crt.batch_norm(x, rm, rv, w, b), ref_batch_norm(x, rm, rv, w, b), np.float64)
    if s:
        close(crt.layer_norm(x, (c, s)), ref_layer_norm(x, 2), np.float64)


@pytest.mark.skipif(torch is None, reason="torch is not installed (make bench installs it)")
def test_against_torch():
    F = torch.nn.functional
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 8, 6, 5)).astype(np.float32)
    w8, b8 = rng.standard_normal(8).astype(np.float32), rng.standard_normal(8).astype(np.float32)
    wl = rng.standard_normal((6, 5)).astype(np.float32)
    tx = torch.from_numpy(x)
    pairs = [
        (F.layer_norm(tx, (6, 5), torch.from_numpy(wl)), crt.layer_norm(x, (6, 5), wl)),
        (F.group_norm(tx, 4, torch.from_numpy(w8), torch.from_numpy(b8)),
         crt.group_norm(x, 4, w8, b8)),
        (F.batch_norm(tx, torch.from_numpy(b8), torch.from_numpy(np.abs(w8)),
                      torch.from_numpy(w8), torch.from_numpy(b8)),
         crt.batch_norm(x, b8, np.abs(w8), w8, b8)),
    ]
    for want, got in pairs:
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-5)
