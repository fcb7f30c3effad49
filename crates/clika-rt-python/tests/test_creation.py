"""linspace, logspace, eye and the *_like constructors against numpy (dtypes, devices,
empty and single-step cases)."""

import numpy as np
import pytest

import clika_runtime as crt

from test_ops import lay_out


@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-3.5, 2.25, 7), (2, -2, 4), (5, 9, 1), (0, 1, 0), (1e-3, 1e3, 50)])
@pytest.mark.parametrize("dtype", [crt.float32, crt.float64])
def test_linspace_matches_numpy(start, end, steps, dtype):
    t = crt.linspace(start, end, steps, dtype=dtype)
    want = np.linspace(start, end, steps)
    assert t.dtype == dtype and t.shape == (steps,)
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6, atol=1e-7)
    if steps > 1:
        assert t.numpy()[-1] == np.asarray(end, t.numpy().dtype)  # the end exactly


def test_linspace_integer_dtype_truncates_like_a_cast():
    t = crt.linspace(0, 10, 4, dtype=crt.int32)
    np.testing.assert_array_equal(t.numpy(), np.linspace(0, 10, 4).astype(np.int32))


@pytest.mark.parametrize("base", [10.0, 2.0, np.e])
def test_logspace_matches_numpy(base):
    t = crt.logspace(-2, 3, 11, base, dtype=crt.float64)
    np.testing.assert_allclose(t.numpy(), np.logspace(-2, 3, 11, base=base), rtol=1e-12)
    assert crt.logspace(0, 1, 3).dtype == crt.float32


@pytest.mark.parametrize("n,m", [(3, None), (2, 4), (4, 2), (0, None), (3, 0)])
@pytest.mark.parametrize("dtype", [crt.float32, crt.int64, crt.bool, crt.uint8])
def test_eye_matches_numpy(n, m, dtype):
    t = crt.eye(n, m, dtype=dtype)
    want = np.eye(n, m)
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.numpy().astype(np.float64), want)


@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed", "broadcast"])
@pytest.mark.parametrize("shape", [(2, 3), (0, 4), (3,), ()])
def test_like_constructors_take_shape_dtype_device(layout, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    _, t = lay_out(a, layout)
    for f, fill in ((crt.zeros_like, 0), (crt.ones_like, 1)):
        r = f(t)
        assert r.shape == t.shape and r.dtype == crt.int16 and r.device == t.device
        np.testing.assert_array_equal(r.numpy(), np.full(shape, fill, np.int16))
    r = crt.full_like(t, 7.5, dtype=crt.float64)
    np.testing.assert_array_equal(r.numpy(), np.full(shape, 7.5))
    r = crt.full_like(t, 7.5)
    np.testing.assert_array_equal(r.numpy(), np.full(shape, 7, np.int16))  # cast as torch.full_like
    e = crt.empty_like(t, dtype=crt.float32, device="cpu")
    assert e.shape == t.shape and e.dtype == crt.float32 and str(e.device) == "cpu"
    assert crt.zeros_like(a).shape == shape  # numpy input is copied like crt.tensor


def test_creation_refusals():
    with pytest.raises((OverflowError, TypeError, ValueError)):
        crt.linspace(0, 1, -1)
    with pytest.raises((crt.DTypeError, TypeError)):
        crt.eye(2, dtype="complex128")
