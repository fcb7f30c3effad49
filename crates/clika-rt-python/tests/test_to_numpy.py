"""t.numpy() and __array__: zero-copy views whose base keeps the tensor's memory alive."""

import gc
import sys
import weakref

import numpy as np
import pytest

import clika_runtime as crt


def test_numpy_is_a_zero_copy_view():
    t = crt.ones(2, 2)
    arr = t.numpy()
    assert arr.ctypes.data == t.data_ptr()
    assert arr.sum() == 4
    arr[0, 0] = 10
    assert t.sum().item() == 13
    assert arr.base is t


def test_view_outlives_tensor():
    t = crt.arange(6, dtype=crt.float64)
    wr = weakref.ref(t)
    arr = t.numpy()
    del t
    gc.collect()
    assert wr() is not None  # the array's base holds it
    assert arr.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    del arr
    gc.collect()
    assert wr() is None


def test_strided_views_including_negative_strides():
    t = crt.arange(12).reshape(3, 4)
    base = np.arange(12).reshape(3, 4)
    for view, expected in [
        (t.T, base.T),
        (t[::2, 1::2], base[::2, 1::2]),
        (t[::-1, ::-2], base[::-1, ::-2]),
        (t[1], base[1]),
        (t[None, ..., 2], base[None, ..., 2]),
    ]:
        arr = view.numpy()
        np.testing.assert_array_equal(arr, expected)
        assert arr.strides == tuple(s * 8 for s in view.strides)
        assert np.shares_memory(arr, t.numpy())


def test_array_protocol_numpy2_semantics():
    t = crt.arange(4, dtype=crt.float32)
    a = np.asarray(t)
    assert np.shares_memory(a, t.numpy())
    c = np.array(t, copy=True)
    assert not np.shares_memory(c, t.numpy())
    d = np.asarray(t, dtype=np.float64)
    assert d.dtype == np.float64 and d.tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        np.array(t, dtype=np.float64, copy=False)
    same = np.array(t, copy=False)
    assert np.shares_memory(same, t.numpy())


def test_bfloat16_converts_for_numpy():
    t = crt.ones(3, dtype=crt.bfloat16)
    with pytest.raises(TypeError, match=r"t.to\(crt.float32\).numpy\(\)"):
        t.numpy()
    assert np.asarray(t).dtype == np.float32
    with pytest.raises(ValueError):
        np.array(t, copy=False)


def test_round_trip_shares_memory_and_refcounts_return():
    a = np.arange(10, dtype=np.float32)
    base = sys.getrefcount(a)
    t = crt.from_numpy(a)
    b = t.numpy()
    t2 = crt.from_numpy(b)
    c = np.asarray(t2)
    assert np.shares_memory(a, b) and np.shares_memory(a, c)
    c[0] = 99
    assert a[0] == 99
    del t, b, t2, c
    gc.collect()
    assert sys.getrefcount(a) == base


def test_read_only_storage_gives_read_only_view():
    a = np.zeros(3, dtype=np.float32)
    t = crt.from_numpy(a)
    assert t.numpy().flags.writeable
    ro = np.zeros(3, dtype=np.float32)
    ro.flags.writeable = False
    t2 = crt.from_dlpack(ro)  # DLPack carries the read-only flag
    assert not t2.numpy().flags.writeable
