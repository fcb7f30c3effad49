"""DLPack both ways, with the capsule deleter run exactly once."""

import gc
import sys

import numpy as np
import pytest

import clika_runtime as crt

live = crt._native._dlpack_live_exports


def test_device():
    assert crt.ones(2).__dlpack_device__() == (1, 0)


def test_numpy_consumes_tensor_without_copy():
    t = crt.arange(6, dtype=crt.float32).reshape(2, 3)
    before = live()
    a = np.from_dlpack(t)
    assert a.ctypes.data == t.data_ptr()
    assert live() == before + 1
    a[0, 0] = 42
    assert t.tolist()[0][0] == 42
    del a
    gc.collect()
    assert live() == before  # deleter ran exactly once (twice would go below)


def test_strided_export():
    t = crt.arange(12).reshape(3, 4)[::2, ::-1]
    a = np.from_dlpack(t)
    np.testing.assert_array_equal(a, np.arange(12).reshape(3, 4)[::2, ::-1])
    assert np.shares_memory(a, t.numpy())


@pytest.mark.parametrize("max_version", [None, (1, 0), (1, 5)])
def test_never_consumed_capsule_runs_deleter_once(max_version):
    t = crt.ones(4)
    before = live()
    cap = t.__dlpack__(max_version=max_version)
    assert live() == before + 1
    del cap
    gc.collect()
    assert live() == before


def test_capsule_names():
    t = crt.ones(2)
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0)))
    assert '"dltensor"' in repr(t.__dlpack__())


def test_copy_and_device_arguments():
    t = crt.ones(3)
    a = np.from_dlpack(t, copy=True)
    assert not np.shares_memory(a, t.numpy())
    with pytest.raises(BufferError):
        t.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    with pytest.raises(BufferError):
        t.__dlpack__(stream=1)


def test_import_from_numpy_shares_memory_and_releases_once():
    a = np.arange(8, dtype=np.int64)
    base = sys.getrefcount(a)
    t = crt.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data
    a[1] = 100
    assert t.tolist()[1] == 100
    assert sys.getrefcount(a) > base  # numpy's managed tensor holds the array
    del t
    gc.collect()
    assert sys.getrefcount(a) == base  # numpy's deleter ran exactly once


def test_import_strided_and_read_only():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    t = crt.from_dlpack(a)
    assert t.shape == (3, 2) and t.strides == (4, 2)
    np.testing.assert_array_equal(t.numpy(), a)
    ro = np.ones(3)
    ro.flags.writeable = False
    assert not crt.from_dlpack(ro).numpy().flags.writeable


def test_round_trip_both_ways():
    a = np.zeros(5, dtype=np.float64)
    base = sys.getrefcount(a)
    before = live()
    b = np.from_dlpack(crt.from_dlpack(a))
    assert np.shares_memory(a, b)
    b[4] = 3
    assert a[4] == 3
    del b
    gc.collect()
    assert live() == before
    assert sys.getrefcount(a) == base


def test_refuses_non_dlpack_objects():
    with pytest.raises(ValueError, match=r"crt.tensor"):
        crt.from_dlpack([1, 2, 3])


def test_consumed_capsule_cannot_be_reused():
    class Once:
        def __init__(self, cap):
            self.cap = cap

        def __dlpack__(self, **kwargs):
            return self.cap

        def __dlpack_device__(self):
            return (1, 0)

    before = live()
    holder = Once(crt.ones(2).__dlpack__(max_version=(1, 0)))
    t = crt.from_dlpack(holder)
    with pytest.raises(ValueError, match="already consumed"):
        crt.from_dlpack(holder)
    del holder
    gc.collect()
    assert live() == before + 1  # the tensor owns it now
    del t
    gc.collect()
    assert live() == before


@pytest.mark.parametrize(
    "dtype", [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]
)
def test_every_dtype_round_trips_without_copy(dtype):
    a = (np.arange(6) % 2).astype(dtype).reshape(2, 3)
    t = crt.from_dlpack(a)
    assert t.dtype == a.dtype and t.data_ptr() == a.ctypes.data
    b = np.from_dlpack(t)
    assert b.dtype == a.dtype and np.shares_memory(a, b)
    np.testing.assert_array_equal(b, a)


def test_bfloat16_exports_with_its_dlpack_code():
    t = crt.ones(2, dtype=crt.bfloat16)
    cap = t.__dlpack__(max_version=(1, 0))
    back = crt.from_dlpack(type("P", (), {"__dlpack__": lambda self, **k: cap, "__dlpack_device__": lambda self: (1, 0)})())
    assert back.dtype == crt.bfloat16 and back.data_ptr() == t.data_ptr()


def test_read_only_flag_travels_both_ways():
    ro = np.arange(4, dtype=np.float32)
    ro.flags.writeable = False
    t = crt.from_dlpack(ro)
    assert t.data_ptr() == ro.ctypes.data
    back = np.from_dlpack(t)
    assert np.shares_memory(back, ro)
    assert not back.flags.writeable
    with pytest.raises(BufferError):
        t.__dlpack__()  # legacy DLPack cannot say "read-only"
    assert np.from_dlpack(t, copy=True).flags.writeable
