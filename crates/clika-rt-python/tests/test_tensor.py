"""The tensor surface compared against numpy (hypothesis for values, shapes and strides)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import clika_runtime as crt

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile("ci")

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.uint8, np.int16]


def arrays(dtypes=DTYPES, max_dims=4):
    return st.sampled_from(dtypes).flatmap(
        lambda d: hnp.arrays(
            d,
            hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=5),
            elements=hnp.from_dtype(np.dtype(d), allow_nan=False, allow_infinity=False, min_value=-100, max_value=100)
            if np.dtype(d).kind == "f"
            else None,
        )
    )


@given(arrays())
def test_from_numpy_values_shape_strides(a):
    t = crt.from_numpy(a)
    assert t.shape == a.shape
    assert t.ndim == a.ndim
    assert t.numel() == a.size
    assert len(t.strides) == a.ndim
    np.testing.assert_array_equal(t.numpy(), a)
    assert t.tolist() == a.tolist()


@given(arrays(), st.data())
def test_basic_indexing_matches_numpy(a, data):
    key = []
    for n in a.shape:
        kind = data.draw(st.sampled_from(["slice", "int", "none", "all"]))
        if kind == "int" and n > 0:
            key.append(data.draw(st.integers(-n, n - 1)))
        elif kind == "none":
            key.append(None)
            key.append(slice(None))
        elif kind == "slice":
            step = data.draw(st.sampled_from([1, 2, 3, -1, -2]))
            start = data.draw(st.none() | st.integers(-n - 1, n + 1))
            stop = data.draw(st.none() | st.integers(-n - 1, n + 1))
            key.append(slice(start, stop, step))
        else:
            key.append(slice(None))
    if data.draw(st.booleans()) and key:
        key[data.draw(st.integers(0, len(key) - 1))] = Ellipsis
        while key.count(Ellipsis) > 1:
            key.remove(Ellipsis)
    key_t = tuple(key)
    try:
        expected = a[key_t]
    except IndexError:
        return
    t = crt.from_numpy(a)
    got = t[key_t]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)
    if expected.size > 0:
        assert np.shares_memory(got.numpy(), a)
        assert tuple(s * a.itemsize for s in got.strides) == expected.strides or 0 in expected.shape or 1 in expected.shape


@given(arrays(dtypes=[np.float64, np.int64, np.int32], max_dims=3), st.data())
def test_reductions_match_numpy(a, data):
    t = crt.from_numpy(a)
    if a.ndim == 0 or data.draw(st.booleans()):
        np.testing.assert_allclose(t.sum().item(), a.sum(), rtol=1e-9)
        if a.size:
            # Both accumulate in float64, in different orders: with cancellation (int64 values
            # near ±2**63 summing to much less) the results may differ by the rounding bound
            # of float summation, eps * sum|a|, far above rtol of the small result.
            bound = 4 * np.finfo(np.float64).eps * float(np.abs(a.astype(np.float64)).sum())
            np.testing.assert_allclose(t.mean().item(), a.mean(), rtol=1e-9, atol=bound)
        return
    dim = data.draw(st.integers(-a.ndim, a.ndim - 1))
    keep = data.draw(st.booleans())
    s = t.sum(dim=dim, keepdim=keep)
    np.testing.assert_allclose(s.numpy(), a.sum(axis=dim, keepdims=keep), rtol=1e-9)


@given(arrays(max_dims=3), st.data())
def test_views_match_numpy(a, data):
    t = crt.from_numpy(a)
    np.testing.assert_array_equal(t.T.numpy(), a.T)
    if a.ndim >= 2:
        perm = data.draw(st.permutations(range(a.ndim)))
        np.testing.assert_array_equal(t.permute(*perm).numpy(), a.transpose(perm))
        np.testing.assert_array_equal(t.transpose(0, -1).numpy(), np.swapaxes(a, 0, -1))
    np.testing.assert_array_equal(t.reshape(-1).numpy(), a.reshape(-1))
    np.testing.assert_array_equal(t.T.reshape(a.size).numpy(), a.T.reshape(a.size))
    c = t.T.contiguous()
    assert c.is_contiguous()
    np.testing.assert_array_equal(c.numpy(), np.ascontiguousarray(a.T))


@given(arrays(dtypes=[np.float32, np.float64, np.int64, np.bool_], max_dims=3))
def test_tensor_copies(a):
    t = crt.tensor(a)
    np.testing.assert_array_equal(t.numpy(), a)
    if a.size:
        assert not np.shares_memory(t.numpy(), a)


def test_creation():
    assert crt.zeros(2, 3).shape == (2, 3)
    assert crt.zeros((2, 3)).shape == (2, 3)
    assert crt.ones([4]).tolist() == [1.0] * 4
    assert crt.empty(3, dtype=crt.int8).dtype == crt.int8
    assert crt.full((2, 2), 7).tolist() == [[7, 7], [7, 7]]
    assert crt.full(3, 1.5, dtype=np.float64).dtype == np.float64
    assert crt.full(2, True).dtype == crt.bool
    assert crt.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert crt.arange(5).dtype == crt.int64
    assert crt.arange(1, 2, 0.5).tolist() == [1.0, 1.5]
    assert crt.zeros(2, device="cpu").device == "cpu"
    assert crt.tensor([[1, 2], [3, 4]]).shape == (2, 2)
    assert crt.tensor(2.5).shape == ()
    assert crt.tensor(2.5).item() == 2.5
    assert crt.tensor([1, 2], dtype=crt.float32).dtype == crt.float32
    assert crt.tensor(np.zeros(3, dtype=">f8")).dtype == crt.float64
    src = crt.ones(3)
    cp = crt.tensor(src)
    assert cp.data_ptr() != src.data_ptr()
    with pytest.raises(ValueError):
        crt.zeros(-1)
    with pytest.raises(TypeError):
        crt.tensor(["a", "b"])


def test_attributes_and_methods():
    t = crt.arange(6, dtype=crt.float32).reshape(2, 3)
    assert t.shape == (2, 3) and t.strides == (3, 1) and t.ndim == 2
    assert t.dtype == crt.float32 == np.float32 == np.dtype("float32") == "float32"
    assert repr(t.dtype) == "clika_runtime.float32"
    assert np.dtype(crt.int16) == np.int16
    assert np.zeros(2, dtype=crt.uint8).dtype == np.uint8
    assert t.device == crt.Device("cpu") and str(t.device) == "cpu"
    assert len(t) == 2
    with pytest.raises(TypeError):
        len(crt.tensor(1.0))
    assert t.numel() == 6
    assert t.is_contiguous() and not t.T.is_contiguous()
    assert t.to(crt.float64).dtype == crt.float64
    assert t.to("float64").dtype == crt.float64
    assert t.to("cpu").data_ptr() == t.data_ptr()
    assert t.to(dtype=np.int32).tolist() == [[0, 1, 2], [3, 4, 5]]
    assert t.view(3, 2).shape == (3, 2)
    with pytest.raises(TypeError, match="contiguous"):
        t.T.view(6)
    assert t[1, 2].item() == 5.0
    assert isinstance(crt.tensor([3]).sum().item(), int)
    assert isinstance(crt.tensor([True]).item(), bool)
    assert [row.tolist() for row in t] == [[0, 1, 2], [3, 4, 5]]
    assert t.mean().item() == 2.5
    assert t.sum(dim=(0, 1)).item() == 15
    assert t.sum(dim=0).tolist() == [3, 5, 7]
    t.synchronize()
    # str() (and print) keep the specification's one-line form.
    assert str(crt.tensor([1.0, 2.5], dtype=crt.float32)) == (
        "Tensor(shape=[2], dtype=Float32, device=CPU, numel=2, data=[1, 2.5])"
    )
    assert str(crt.from_numpy(np.array([12, 13], dtype=np.float32))) == (
        "Tensor(shape=[2], dtype=Float32, device=CPU, numel=2, data=[12, 13])"
    )


def test_error_classes_derive_from_builtins():
    assert issubclass(crt.DTypeError, crt.ClikaError) and issubclass(crt.DTypeError, TypeError)
    assert issubclass(crt.ShapeError, ValueError)
    assert issubclass(crt.IndexOutOfRangeError, IndexError)
    assert issubclass(crt.OutOfMemoryError, MemoryError)
    assert issubclass(crt.DeviceError, RuntimeError)
    assert issubclass(crt.LayoutError, TypeError)
    with pytest.raises(crt.IndexOutOfRangeError):
        crt.ones(3)[5]
    with pytest.raises(crt.ShapeError):
        crt.ones(6).reshape(4, 2)
    with pytest.raises(crt.DeviceError, match=r"not available"):
        crt.ones(2).to("gpu:7")
    with pytest.raises(crt.InvalidArgumentError):
        crt.ones(2, 2).item()
    with pytest.raises(crt.DTypeError, match="unsupported dtype"):
        crt.zeros(2, dtype=np.complex64)


def test_memory_stats_and_limit():
    s = crt.memory_stats()
    assert s.active_bytes >= 0 and s.cached_bytes >= 0
    assert "active_bytes=" in repr(s)
    assert "MiB" in str(s)
    assert crt.release_cached_memory() >= 0
    crt.set_memory_limit(1024)
    try:
        with pytest.raises(MemoryError) as info:
            crt.zeros(1024 * 1024)
        assert isinstance(info.value, crt.OutOfMemoryError)
        assert crt.memory_stats().limit_bytes == 1024
    finally:
        crt.set_memory_limit(None)
    assert crt.zeros(1024 * 1024).numel() == 1024 * 1024
    crt.reset_peak_stats()
