"""__array_interface__: numpy (and any consumer of the interface) shares a host tensor's memory."""

import gc

import numpy as np
import pytest

import clika_runtime as crt

DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES)
def test_interface_shares_memory(dtype):
    a = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    t = crt.from_numpy(a)
    info = t.__array_interface__
    assert info["version"] == 3 and tuple(info["shape"]) == (3, 4)
    assert info["data"][0] == t.data_ptr()
    got = np.array(_Holder(t), copy=False)
    np.testing.assert_array_equal(got, a)
    assert np.shares_memory(got, a)


class _Holder:
    """A consumer that sees only the interface (not __array__ or DLPack)."""

    def __init__(self, t):
        self.__array_interface__ = t.__array_interface__
        self.t = t


@pytest.mark.parametrize(
    "view", [lambda t: t.T, lambda t: t[:, ::2], lambda t: t.flip(0), lambda t: t[0:0], lambda t: t[1, 2]]
)
def test_strided_empty_and_0d(view):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    v = view(crt.from_numpy(a))
    got = np.array(_Holder(v), copy=False)
    np.testing.assert_array_equal(got, view_np(view, a))
    if got.size:
        assert np.shares_memory(got, a)


def view_np(view, a):
    return np.asarray(view(crt.from_numpy(a)).numpy())


def test_read_only_is_reported_and_kept():
    a = np.arange(4, dtype=np.float32)
    a.setflags(write=False)
    t = crt.from_dlpack(a)
    assert t.__array_interface__["data"][1] is True
    got = np.array(_Holder(t), copy=False)
    assert not got.flags.writeable


def test_the_tensor_outlives_its_name():
    t = crt.arange(0, 1000, 1, dtype=crt.float32)
    got = np.array(_Holder(t), copy=False)
    del t
    gc.collect()
    assert got[999] == 999.0


def test_absent_for_bfloat16():
    t = crt.zeros(2, dtype=crt.bfloat16)
    assert not hasattr(t, "__array_interface__")
    # numpy falls back to __array__, which converts (numpy has no bfloat16).
    assert np.asarray(t).dtype == np.float32
