"""crt.from_numpy: borrowing a numpy array's memory, the hazards, and the refusals."""

import gc
import sys
import tracemalloc
import weakref

import numpy as np
import pytest

import clika_runtime as crt

SUPPORTED = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
             np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", SUPPORTED)
def test_borrows_without_copy(dtype):
    a = np.zeros((3, 4), dtype=dtype)
    t = crt.from_numpy(a)
    assert t.data_ptr() == a.ctypes.data
    assert t.shape == a.shape
    assert t.dtype == a.dtype
    assert np.shares_memory(t.numpy(), a)


def test_mutation_aliases_both_ways():
    a = np.zeros(6, dtype=np.float32)
    t = crt.from_numpy(a)
    a[2] = 5.0  # numpy -> tensor
    assert t.sum().item() == 5.0
    t.numpy()[3] = 7.0  # tensor -> numpy
    assert a[3] == 7.0
    np.asarray(t)[0] = 1.0
    assert a[0] == 1.0


def test_tensor_keeps_array_alive():
    a = np.arange(8, dtype=np.float64)
    a[0] = 41.0
    wr = weakref.ref(a)
    t = crt.from_numpy(a)
    del a
    gc.collect()
    assert wr() is not None
    assert t.sum().item() == 41.0 + sum(range(1, 8))
    assert t.tolist()[0] == 41.0


def test_weakref_to_array_dies_only_after_tensor():
    a = np.ones(4, dtype=np.float32)
    wr = weakref.ref(a)
    t = crt.from_numpy(a)
    view = t[1:]  # a view keeps the storage (and so the array) alive too
    del a, t
    gc.collect()
    assert wr() is not None
    del view
    gc.collect()
    assert wr() is None


def test_resize_refused_while_borrowed_and_allowed_after():
    a = np.zeros(16, dtype=np.float32)
    t = crt.from_numpy(a)
    with pytest.raises(ValueError):
        a.resize((32,), refcheck=False)
    assert t.data_ptr() == a.ctypes.data
    del t
    gc.collect()
    a.resize((32,), refcheck=False)
    assert a.shape == (32,)


def test_refcount_returns_to_baseline():
    a = np.zeros(10, dtype=np.int32)
    base = sys.getrefcount(a)
    t = crt.from_numpy(a)
    assert sys.getrefcount(a) == base + 1  # exactly the tensor's strong reference
    v = t.numpy()
    w = np.asarray(t)
    assert np.shares_memory(v, a) and np.shares_memory(w, a)
    del t, v, w
    gc.collect()
    assert sys.getrefcount(a) == base


def test_contiguity_as_numpy_judges_it():
    # Size-1 dimensions and empty arrays are contiguous whatever their strides.
    a = np.zeros((4, 1, 3), dtype=np.float32)[:, :, :]
    odd = np.lib.stride_tricks.as_strided(a, shape=(4, 1, 3), strides=(12, 999 * 4, 4))
    assert odd.flags.c_contiguous
    t = crt.from_numpy(odd)
    assert t.is_contiguous() and t.data_ptr() == odd.ctypes.data
    e = np.zeros((0, 5), dtype=np.float32)
    assert crt.from_numpy(e).shape == (0, 5)
    s = crt.from_numpy(np.full((), 3.5))
    assert s.shape == () and s.item() == 3.5


def _refusals():
    buf = np.frombuffer(bytearray(4 * 4 + 1), dtype=np.uint8)[1:].view(np.float32)
    unaligned = np.require(buf, requirements="W") if not buf.flags.writeable else buf
    ro = np.zeros(4, dtype=np.float32)
    ro.flags.writeable = False
    return [
        ("non-contiguous", lambda: np.zeros((4, 4), dtype=np.float32)[:, ::2], TypeError, "np.ascontiguousarray(a)"),
        ("fortran", lambda: np.asfortranarray(np.zeros((3, 2), dtype=np.float32)), TypeError, "np.ascontiguousarray(a)"),
        ("read-only", lambda: ro, ValueError, "a.copy()"),
        ("byte order", lambda: np.zeros(4, dtype=">f4"), TypeError, "newbyteorder"),
        ("unaligned", lambda: unaligned, ValueError, "a.copy()"),
        ("object", lambda: np.array([object(), 1], dtype=object), TypeError, "float32, float64"),
        ("str", lambda: np.array(["a", "b"]), TypeError, "float32, float64"),
        ("structured", lambda: np.zeros(3, dtype=[("x", "f4"), ("y", "i4")]), TypeError, "float32, float64"),
        ("complex", lambda: np.zeros(3, dtype=np.complex64), TypeError, "float32, float64"),
        ("timedelta", lambda: np.zeros(3, dtype="m8[s]"), TypeError, "float32, float64"),
        ("not an array", lambda: [1.0, 2.0], ValueError, "crt.tensor(obj)"),
    ]


@pytest.mark.parametrize("name,make,builtin,fix", _refusals(), ids=[r[0] for r in _refusals()])
def test_refusals_name_the_fix(name, make, builtin, fix):
    a = make()
    if isinstance(a, np.ndarray) and name == "unaligned":
        assert not a.flags.aligned
    with pytest.raises(builtin) as info:
        crt.from_numpy(a)
    assert isinstance(info.value, crt.ClikaError)
    assert fix in str(info.value)


@pytest.mark.parametrize("name,make,builtin,fix", _refusals(), ids=[r[0] for r in _refusals()])
def test_failing_calls_leak_nothing(name, make, builtin, fix):
    a = make()
    for _ in range(50):  # warm caches (exception classes, interned strings)
        with pytest.raises(builtin):
            crt.from_numpy(a)
    gc.collect()
    base_ref = sys.getrefcount(a)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(1000):
        try:
            crt.from_numpy(a)
        except builtin:
            pass
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    assert sys.getrefcount(a) == base_ref
    # A per-call leak retains at least one block per call; free lists and caches jitter
    # by a few hundred blocks whatever the count, so the bound is half the calls.
    diff = after.compare_to(before, "filename")
    blocks = sum(s.count_diff for s in diff if s.count_diff > 0)
    grown = sum(s.size_diff for s in diff if s.size_diff > 0)
    assert blocks < 500, f"{blocks} blocks ({grown} bytes) retained after 1000 failing calls"


def test_read_only_array_copies_through_tensor():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    t = crt.tensor(a)
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert not np.shares_memory(t.numpy(), a)


def test_spec_main_non_contiguous_message():
    with pytest.raises(TypeError) as info:
        crt.from_numpy(np.zeros((4, 4), dtype=np.float32)[:, ::2])
    assert "np.ascontiguousarray" in str(info.value)
