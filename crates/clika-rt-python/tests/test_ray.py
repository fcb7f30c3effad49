"""Tensors through Ray: ray.put / ray.get, tasks and actors that take and return tensors. Ray
pickles with protocol 5 and keeps the buffers out of band in its shared-memory object store,
so a tensor got back wraps the store's memory without a copy (read-only, as Ray's numpy
arrays are) and keeps the object alive. A local Ray, one CPU, bounded in time."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import clika_runtime as crt

from test_pickle import DTYPES, LAYOUTS, make, values

ray = pytest.importorskip("ray", reason="ray is not installed (pip install -r requirements-dev.txt)")

TIMEOUT = 120


@pytest.fixture(scope="module")
def local_ray():
    ray.init(
        num_cpus=1,
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=80 * 1024 * 1024,
        configure_logging=False,
    )
    yield
    ray.shutdown()


@pytest.mark.parametrize("dtype", DTYPES)
def test_put_get_every_dtype_and_layout_wraps_the_store_without_a_copy(local_ray, dtype):
    base = make(dtype, (64, 32))
    for name in ("contiguous", "transposed", "stepped", "0-d", "empty"):
        t = LAYOUTS[name](base)
        ref = ray.put(t)
        a = ray.get(ref, timeout=TIMEOUT)
        b = ray.get(ref, timeout=TIMEOUT)
        assert a.dtype == t.dtype and a.shape == t.shape
        np.testing.assert_array_equal(values(a), values(t))
        if name in ("contiguous", "transposed", "0-d"):
            assert a.strides == t.strides
        if t.numel():
            # Both gets wrap the one copy in the object store: same address, no copy.
            assert a.data_ptr() == b.data_ptr() != t.data_ptr()
            # Writable exactly when Ray hands numpy arrays out writable (the tensor follows
            # the buffer Ray gives it).
            if dtype != "bfloat16":
                assert np.asarray(a).flags.writeable == numpy_from_ray_is_writable()
            if not numpy_from_ray_is_writable():
                with pytest.raises(crt.ReadOnlyError):
                    a[(0,) * a.ndim] = 1 if dtype != "bool" else True


def numpy_from_ray_is_writable():
    return ray.get(ray.put(np.zeros(64)), timeout=TIMEOUT).flags.writeable


def test_a_got_tensor_keeps_the_object_alive(local_ray):
    t = crt.arange(1 << 16, dtype=crt.float32)
    ref = ray.put(t)
    got = ray.get(ref, timeout=TIMEOUT)
    del ref
    gc.collect()
    # The store may not evict or reuse the object while the tensor wraps it.
    for _ in range(4):
        ray.get(ray.put(crt.zeros(1 << 18)), timeout=TIMEOUT)
    np.testing.assert_array_equal(np.asarray(got), np.arange(1 << 16, dtype=np.float32))


def test_tasks_take_and_return_tensors(local_ray):
    @ray.remote
    def scale(t, k):
        out = t * k
        return out, t.is_contiguous(), t.strides

    t = crt.tensor(np.arange(12, dtype=np.float64).reshape(3, 4)).T
    out, contiguous, strides = ray.get(scale.remote(t, 3), timeout=TIMEOUT)
    np.testing.assert_array_equal(np.asarray(out), np.arange(12).reshape(3, 4).T * 3)
    assert not contiguous and strides == (1, 4)


def test_actors_hold_and_return_tensors(local_ray):
    @ray.remote
    class Accumulator:
        def __init__(self, shape):
            self.total = crt.zeros(*shape, dtype=crt.float32)

        def add(self, t):
            self.total = self.total + t
            return float(self.total.sum())

        def get(self):
            return self.total

    acc = Accumulator.remote((2, 3))
    frames = [crt.full((2, 3), float(i), dtype=crt.float32) for i in range(4)]
    sums = ray.get([acc.add.remote(f) for f in frames], timeout=TIMEOUT)
    assert sums == [0.0, 6.0, 18.0, 36.0]
    total = ray.get(acc.get.remote(), timeout=TIMEOUT)
    np.testing.assert_array_equal(np.asarray(total), np.full((2, 3), 6, np.float32))
