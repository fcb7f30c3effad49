"""Moves to a unified-memory GPU use the host memory in place (Vulkan host-memory import):
numpy data wrapped without a copy reaches "gpu:0" without a copy either, comes back as the
same memory, stays alive exactly as long as needed, and stays read-only when lent read-only.
Where the GPU cannot import (another driver, CLIKA_RT_GPU_IMPORT=off) the same tests check
the copying path. Lavapipe (CI's GPU) imports; the Rust suite asserts that it does."""

import gc
import os
import weakref

import numpy as np
import pytest

import clika_runtime as crt

GPU = "gpu:0"


def _gpu_reason():
    try:
        crt.memory_stats(GPU)
        return None
    except crt.DeviceError as e:
        return str(e)


GPU_MISSING = _gpu_reason()
pytestmark = pytest.mark.skipif(GPU_MISSING is not None, reason=f"no Vulkan driver: {GPU_MISSING}")


def moved(t):
    """`t` on the GPU, and whether the move used its memory in place."""
    before = crt.memory_stats(GPU).imported_bytes
    on = t.to(GPU)
    return on, crt.memory_stats(GPU).imported_bytes > before


def test_the_probe_agrees_with_the_switch():
    _, aliases = moved(crt.zeros(4096))
    if os.environ.get("CLIKA_RT_GPU_IMPORT") in ("off", "pinned"):
        assert not aliases


def test_a_numpy_frame_moves_in_place_and_comes_back_as_the_same_memory():
    frame = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    host = crt.from_numpy(frame)
    stats = crt.memory_stats(GPU)
    on, aliases = moved(host)
    after = crt.memory_stats(GPU)
    x = on.to(crt.float32) / 255.0
    mean = crt.tensor([0.485, 0.456, 0.406], dtype=crt.float32).to(GPU)
    std = crt.tensor([0.229, 0.224, 0.225], dtype=crt.float32).to(GPU)
    y = ((x - mean) / std).to("cpu").numpy()
    want = (frame.astype(np.float32) / 255.0 - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)
    if aliases:
        assert after.reserved_bytes == stats.reserved_bytes
        assert after.imported_bytes >= stats.imported_bytes + frame.nbytes
        back = on.to("cpu")
        assert back.data_ptr() == frame.ctypes.data
        frame[0, 0, 0] = 7  # the same memory: visible through the moved tensor
        assert on[0, 0, 0].item() == 7
        assert on.to("cpu", copy=True).data_ptr() != frame.ctypes.data
    else:
        original = int(frame[0, 0, 0])
        frame[0, 0, 0] = (original + 1) % 256  # a copy does not see it
        assert on[0, 0, 0].item() == original


def test_views_move_with_their_layout():
    a = np.arange(48 * 64, dtype=np.float32).reshape(48, 64)
    for v in (a[3:40:2], a[:, 5::3].T, a[::-1, 4:20]):
        t = crt.from_dlpack(v)  # the strided view itself, no copy
        on, aliases = moved(t)
        np.testing.assert_array_equal((on + on).to("cpu").numpy(), v + v)
        back = on.to("cpu")
        np.testing.assert_array_equal(back.numpy(), v)
        if aliases:
            assert back.data_ptr() == t.data_ptr()
            assert back.strides == t.strides


def test_the_numpy_owner_lives_until_the_last_device_tensor_is_gone():
    class Owned(np.ndarray):
        pass

    arr = np.arange(1 << 16, dtype=np.float32).view(Owned)
    alive = weakref.ref(arr)
    on, aliases = moved(crt.from_numpy(arr))
    total = on.sum()
    del arr
    gc.collect()
    assert (alive() is not None) == aliases  # the device tensor holds it; a copy does not
    view = on[10:20]
    del on
    gc.collect()
    assert total.item() == float(sum(range(1 << 16)))
    np.testing.assert_array_equal(view.to("cpu").numpy(), np.arange(10, 20, dtype=np.float32))
    del view, total
    crt.zeros(1).to(GPU, copy=True).synchronize()
    gc.collect()
    assert alive() is None


def test_read_only_numpy_memory_is_never_written():
    a = np.linspace(0, 1, 4096, dtype=np.float32)
    a.flags.writeable = False
    one = crt.tensor(1.0, dtype=crt.float32).to(GPU)
    on, aliases = moved(crt.from_dlpack(a))  # wrapped read-only, without a copy
    if aliases:
        with pytest.raises(crt.ClikaError, match="read-only"):
            on.add_(one)
        with pytest.raises(crt.ClikaError):
            on.fill_(5.0)
    else:
        on.add_(one)  # a copy is the runtime's own memory
    on.synchronize()
    np.testing.assert_array_equal(a, np.linspace(0, 1, 4096, dtype=np.float32))


def test_in_place_writes_reach_the_host_only_where_asked():
    a = np.zeros(4096, dtype=np.float32)
    on, aliases = moved(crt.from_numpy(a))
    on.add_(2.0)  # a Python scalar combines with a tensor on any device
    on.synchronize()
    expected = 2.0 if aliases else 0.0
    assert (a == expected).all()
    # 4098 bytes: whole-word stores would reach past the end, so the write is refused.
    b = np.arange(4098, dtype=np.uint8)
    on, aliases = moved(crt.from_numpy(b))
    if aliases:
        with pytest.raises(crt.ClikaError, match="4-byte word"):
            on.fill_(1)
    np.testing.assert_array_equal(b, np.arange(4098, dtype=np.uint8))


def test_copy_true_always_copies():
    t = crt.arange(12.0)
    same = t.to("cpu")
    assert same.data_ptr() == t.data_ptr()
    c = t.to("cpu", copy=True)
    assert c.data_ptr() != t.data_ptr()
    assert c.tolist() == t.tolist()
    before = crt.memory_stats(GPU)
    g = t.to(GPU, copy=True)
    assert crt.memory_stats(GPU).imported_bytes == before.imported_bytes
    assert g.to("cpu").tolist() == t.tolist()
    d = t.to(crt.float64, copy=True)
    assert d.dtype == crt.float64 and d.tolist() == t.tolist()


def test_memory_stats_show_imported_bytes():
    s = crt.memory_stats(GPU)
    assert isinstance(s.imported_bytes, int)
    assert "imported_bytes=" in repr(s)
    assert crt.memory_stats("cpu").imported_bytes == 0
