"""The unsigned dtypes uint16, uint32 and uint64 against numpy (and torch where importable):
zero-copy import and export, arithmetic, comparisons, reductions, sort, casts, DLPack,
pickling and printing, over contiguous, strided, transposed, broadcast and empty inputs.
uint64 values above 2**63 - 1 must never pass through a signed reading."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import clika_runtime as crt

UINTS = [np.uint16, np.uint32, np.uint64]
TOP = 2**64 - 1


def sample(dtype, shape=(4, 6), seed=0):
    """Values over the whole range of `dtype`, including its maximum and zero."""
    rng = np.random.default_rng(seed + np.dtype(dtype).itemsize)
    info = np.iinfo(dtype)
    a = rng.integers(0, info.max, size=shape, dtype=dtype, endpoint=True)
    flat = a.reshape(-1)
    if flat.size >= 2:
        flat[0], flat[1] = info.max, 0
    return a


LAYOUTS = {
    "contiguous": lambda a: a,
    "stepped": lambda a: a[::2],
    "transposed": lambda a: a.T,
    "broadcast": lambda a: np.broadcast_to(a[:1], a.shape),
    "empty": lambda a: a[:0],
}


def as_tensor(a):
    """A tensor over a numpy array's memory for contiguous arrays, else a copy."""
    return crt.from_numpy(a) if a.flags.c_contiguous else crt.tensor(a)


@pytest.mark.parametrize("dtype", UINTS)
def test_dtype_objects_and_parsing(dtype):
    name = np.dtype(dtype).name
    d = getattr(crt, name)
    assert d == np.dtype(dtype) and d == name and str(d) == name
    assert d.itemsize == np.dtype(dtype).itemsize
    assert not d.is_floating_point
    assert np.dtype(d.dtype) == np.dtype(dtype)
    assert crt.zeros(2, dtype=dtype).dtype == d
    assert crt.zeros(2, dtype="u" + str(8 * np.dtype(dtype).itemsize)).dtype == d


@pytest.mark.parametrize("dtype", UINTS)
def test_from_numpy_shares_memory_and_numpy_round_trips(dtype):
    a = sample(dtype)
    t = crt.from_numpy(a)
    assert t.dtype == a.dtype and t.shape == a.shape
    assert t.data_ptr() == a.ctypes.data
    back = t.numpy()
    assert back.dtype == a.dtype
    assert np.shares_memory(back, a)
    a[0, 0] = 7
    assert t[0, 0].item() == 7
    assert np.asarray(t).dtype == a.dtype
    assert t.__array_interface__["typestr"] == np.dtype(dtype).str
    np.testing.assert_array_equal(t.T.numpy(), a.T)


@pytest.mark.parametrize("dtype", UINTS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_arithmetic_and_comparisons_match_numpy(dtype, layout):
    a = LAYOUTS[layout](sample(dtype, seed=1))
    b = LAYOUTS[layout](sample(dtype, seed=2))
    ta, tb = as_tensor(a), as_tensor(b)
    with np.errstate(over="ignore"):
        for got, want in [
            (ta + tb, a + b),
            (ta - tb, a - b),
            (ta * tb, a * b),
            (ta & tb, a & b),
            (ta | tb, a | b),
            (ta ^ tb, a ^ b),
            (~ta, ~a),
            (-ta, (np.zeros_like(a) - a).astype(dtype)),
            (abs(ta), a),
            (crt.maximum(ta, tb), np.maximum(a, b)),
            (crt.minimum(ta, tb), np.minimum(a, b)),
            (ta + 3, a + dtype(3)),
        ]:
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.numpy(), want)
    for got, want in [(ta < tb, a < b), (ta >= tb, a >= b), (ta == tb, a == b), (ta > 5, a > 5)]:
        np.testing.assert_array_equal(got.numpy(), want)
    nz = b | dtype(1)  # no zero divisors
    tnz = as_tensor(np.ascontiguousarray(nz)) if nz.size else crt.tensor(nz)
    np.testing.assert_array_equal((ta // tnz).numpy(), a // nz)
    np.testing.assert_array_equal((ta % tnz).numpy(), a % nz)


def test_promotion_with_signed_types_matches_numpy():
    for u in UINTS:
        for s in [np.int8, np.int16, np.int32, np.int64]:
            a, b = np.ones(2, u), np.ones(2, s)
            assert (crt.tensor(a) + crt.tensor(b)).dtype == np.result_type(a, b), (u, s)
        for f in [np.float16, np.float32, np.float64]:
            a, b = np.ones(2, u), np.ones(2, f)
            assert (crt.tensor(a) + crt.tensor(b)).dtype == f
    assert (crt.tensor(np.ones(2, np.uint16)) + crt.tensor(np.ones(2, np.uint32))).dtype == crt.uint32
    assert (crt.tensor(np.ones(2, np.bool_)) + crt.tensor(np.ones(2, np.uint16))).dtype == crt.uint16
    with pytest.raises(OverflowError):
        crt.tensor(np.ones(2, np.uint16)) + 70000
    with pytest.raises(crt.DTypeError):
        crt.from_numpy(np.ones(2, np.uint16)).add_(0.5)


@pytest.mark.parametrize("dtype", UINTS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_reductions_and_sort_match_numpy(dtype, layout):
    a = LAYOUTS[layout](sample(dtype, seed=3))
    t = as_tensor(a)
    s = t.sum()
    if dtype == np.uint64:
        assert s.dtype == crt.uint64  # numpy's rule: int64 cannot hold it; wraps mod 2**64
        assert s.item() == int(a.sum(dtype=np.uint64))
    else:
        assert s.dtype == crt.int64  # PyTorch's rule: every integer sum is int64
        assert s.item() == int(a.astype(np.int64).sum())
    np.testing.assert_array_equal(t.sum(dim=0).numpy(), a.sum(axis=0, dtype=s.numpy().dtype))
    if a.size:
        assert t.max().item() == int(a.max())
        assert t.min().item() == int(a.min())
        assert t.argmax().item() == int(a.argmax())
        np.testing.assert_array_equal(t.max(dim=1).values.numpy(), a.max(axis=1))
        np.testing.assert_allclose(t.mean().item(), a.astype(np.float64).mean(), rtol=1e-12)
    r = t.sort(dim=1)
    np.testing.assert_array_equal(r.values.numpy(), np.sort(a, axis=1))
    np.testing.assert_array_equal(
        np.take_along_axis(a, r.indices.numpy(), axis=1), np.sort(a, axis=1)
    )
    np.testing.assert_array_equal(t.sort(dim=0, descending=True).values.numpy(), np.sort(a, axis=0)[::-1])


@pytest.mark.parametrize("dtype", UINTS)
def test_casts_match_numpy(dtype):
    a = sample(dtype, seed=4)
    t = crt.from_numpy(a)
    for target in [np.float32, np.float64, np.int64, np.int32, np.uint8, np.uint16, np.uint32, np.uint64]:
        got = t.to(target).numpy()
        np.testing.assert_array_equal(got, a.astype(target), err_msg=str(target))
    f = np.array([-1.0, 0.5, 3.9, 1e30, np.nan], np.float64)
    got = crt.tensor(f).to(dtype).numpy()
    info = np.iinfo(dtype)
    np.testing.assert_array_equal(got, np.array([0, 0, 3, info.max, 0], dtype))  # saturating, NaN → 0
    np.testing.assert_array_equal(crt.tensor(np.array([-1, 2]), dtype=crt.int64).to(dtype).numpy(), np.array([-1, 2]).astype(dtype))


def test_uint64_top_value_survives():
    t = crt.tensor([TOP, 2**63, 1], dtype=crt.uint64)
    assert t.tolist() == [TOP, 2**63, 1]
    assert t[0].item() == TOP
    assert t.max().item() == TOP
    assert t.argmin().item() == 2
    assert t.to(crt.float64).tolist() == [float(TOP), float(2**63), 1.0]
    assert (t - 1).tolist() == [TOP - 1, 2**63 - 1, 0]
    assert (t + TOP).tolist() == [TOP - 1, 2**63 - 1, 0]  # wraps, like numpy
    assert crt.full((2,), TOP, dtype=crt.uint64).tolist() == [TOP, TOP]
    u = crt.zeros(3, dtype=crt.uint64)
    u[1] = TOP
    assert u.tolist() == [0, TOP, 0]
    u.fill_(TOP)
    assert u.tolist() == [TOP] * 3
    assert (t > 2**63).tolist() == [True, False, False]
    assert "18446744073709551615" in str(t) and "18446744073709551615" in repr(t)
    np.testing.assert_array_equal(t.sort().values.numpy(), np.array([1, 2**63, TOP], np.uint64))
    with pytest.raises(OverflowError):
        crt.full((1,), 2**64, dtype=crt.uint64)


@pytest.mark.parametrize("dtype", UINTS)
def test_dlpack_round_trip_with_numpy(dtype):
    a = sample(dtype, seed=5)
    t = crt.from_numpy(a)
    b = np.from_dlpack(t)
    assert b.dtype == a.dtype
    assert b.ctypes.data == a.ctypes.data
    np.testing.assert_array_equal(b, a)
    back = crt.from_dlpack(a[::2])
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back.numpy(), a[::2])
    assert np.shares_memory(back.numpy(), a)


@pytest.mark.parametrize("dtype", UINTS)
def test_pickle_and_printing(dtype):
    a = sample(dtype, seed=6)
    t = crt.from_numpy(a)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(t.T, protocol=protocol))
        assert back.dtype == t.dtype
        np.testing.assert_array_equal(back.numpy(), a.T)
    text = repr(t)
    assert str(int(np.iinfo(dtype).max)) in text
    assert np.dtype(dtype).name in text.lower()


def test_randint_into_unsigned_dtypes():
    for name in ["uint16", "uint32", "uint64"]:
        r = crt.randint(0, 60000, (1000,), dtype=getattr(crt, name))
        a = r.numpy()
        assert a.dtype == np.dtype(name)
        assert a.min() >= 0 and a.max() < 60000 and len(np.unique(a)) > 100


def test_torch_interop():
    torch = pytest.importorskip("torch")
    for name in ["uint16", "uint32", "uint64"]:
        if not hasattr(torch, name):
            pytest.skip(f"this torch has no {name}")
        td = getattr(torch, name)
        assert crt.zeros(2, dtype=td).dtype == getattr(crt, name)
        x = torch.arange(6, dtype=torch.int64).to(td).reshape(2, 3)
        t = crt.from_dlpack(x)
        assert t.dtype == getattr(crt, name)
        assert t.data_ptr() == x.data_ptr()
        assert t.tolist() == x.to(torch.int64).tolist()
        y = torch.from_dlpack(t)
        assert y.dtype == td and y.data_ptr() == x.data_ptr()
