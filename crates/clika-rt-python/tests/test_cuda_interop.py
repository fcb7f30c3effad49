"""CUDA memory crossing between clika_runtime, PyTorch and CuPy without a copy: DLPack
(kDLCUDA, with the protocol's stream argument) and __cuda_array_interface__ (v3), both ways.

Each test needs cuda:0 in clika_runtime and a CUDA build of the other library; elsewhere it
skips with the reason. bench/device/run runs this file on a GPU machine, with pytest or,
where pytest is absent, as a script (`python3 test_cuda_interop.py`).
"""

import gc
import sys
import weakref

import numpy as np

import clika_runtime as crt

try:
    import pytest
except ImportError:  # run as a script on a machine without pytest
    pytest = None


class Skipped(Exception):
    """A skip in script mode."""


def skip(reason):
    if pytest is not None and __name__ != "__main__":
        pytest.skip(reason)
    raise Skipped(reason)


def _crt_cuda():
    try:
        crt.memory_stats("cuda:0")
        return None
    except crt.DeviceError as e:
        return str(e)


CRT_MISSING = _crt_cuda()


def need_torch():
    if CRT_MISSING is not None:
        skip(f"cuda:0: {CRT_MISSING}")
    try:
        import torch
    except ImportError:
        skip("PyTorch is not installed")
    if not torch.cuda.is_available():
        skip("PyTorch has no CUDA device")
    return torch


def need_cupy():
    if CRT_MISSING is not None:
        skip(f"cuda:0: {CRT_MISSING}")
    try:
        import cupy
    except ImportError:
        skip("CuPy is not installed")
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001 - CuPy raises its own runtime errors
        skip(f"CuPy has no CUDA device: {e}")
    return cupy


def host(t):
    return t.to("cpu").numpy()


def test_torch_to_crt_by_dlpack_shares_memory_and_views():
    torch = need_torch()
    x = torch.arange(24, dtype=torch.float32, device="cuda").reshape(4, 6)
    for view in [x, x.T, x[:, 1::2], x[1:3], x[0:0]]:
        t = crt.from_dlpack(view)
        assert str(t.device) == "cuda:0"
        assert tuple(t.shape) == tuple(view.shape)
        if view.numel():
            assert t.data_ptr() == view.data_ptr()
        np.testing.assert_array_equal(host(t), view.cpu().numpy())
    # The runtime's kernels read the shared memory in place.
    t = crt.from_dlpack(x)
    np.testing.assert_allclose(host((t * 2).sum(0)), (x * 2).sum(0).cpu().numpy())


def test_torch_dtypes_cross_both_ways():
    torch = need_torch()
    for dt in [torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.uint8, torch.bool]:
        x = (torch.arange(10, device="cuda") % 3).to(dt)
        t = crt.from_dlpack(x)
        assert t.data_ptr() == x.data_ptr()
        y = torch.from_dlpack(t)
        assert y.dtype == dt and y.data_ptr() == x.data_ptr()
        assert torch.equal(y, x)


def test_crt_to_torch_by_dlpack_and_interface_keeps_the_tensor_alive():
    torch = need_torch()
    t = crt.arange(0, 12, dtype="float32").reshape(3, 4).to("cuda:0")
    y = torch.from_dlpack(t)
    assert y.device.type == "cuda" and y.data_ptr() == t.data_ptr()
    z = torch.as_tensor(t, device="cuda")  # through __cuda_array_interface__
    assert z.data_ptr() == t.data_ptr()
    ptr = t.data_ptr()
    del t
    gc.collect()
    # Still the runtime's memory, kept by the consumers.
    torch.testing.assert_close(y.cpu(), torch.arange(12.0).reshape(3, 4))
    y.mul_(2)
    torch.cuda.synchronize()
    assert z.data_ptr() == ptr and float(z.sum()) == 2 * 66


def test_crt_writes_are_seen_by_torch_through_the_stream_protocol():
    torch = need_torch()
    t = crt.zeros([1 << 22], dtype="float32").to("cuda:0")
    for _ in range(5):
        t += 1.0  # queued on the runtime's stream
    # torch passes its current stream; the export orders it after the runtime's work.
    y = torch.from_dlpack(t)
    assert float(y.sum()) == 5.0 * (1 << 22)


def test_torch_writes_are_seen_by_crt():
    torch = need_torch()
    x = torch.zeros(1 << 22, device="cuda")
    for _ in range(5):
        x += 1.0  # queued on torch's stream
    # from_dlpack passes the runtime's stream to __dlpack__, so torch orders its work first.
    t = crt.from_dlpack(x)
    assert t.sum().item() == 5.0 * (1 << 22)


def test_a_torch_producer_is_released_once_with_the_last_tensor():
    torch = need_torch()
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    x = torch.ones(1 << 24, device="cuda")  # 64 MiB
    t = crt.from_dlpack(x)
    del x
    gc.collect()
    assert torch.cuda.memory_allocated() - before >= 1 << 26, "freed while the runtime held it"
    assert t.sum().item() == float(1 << 24)
    del t
    gc.collect()
    assert torch.cuda.memory_allocated() - before < 1 << 26, "never released"


def test_matmul_matches_torch():
    torch = need_torch()
    g = torch.Generator(device="cuda").manual_seed(0)
    for dt, tol in [(torch.float32, 1e-4), (torch.float16, 2e-2), (torch.bfloat16, 5e-2)]:
        a = torch.randn(3, 64, 48, device="cuda", generator=g).to(dt)
        b = torch.randn(48, 80, device="cuda", generator=g).to(dt)
        for aa, bb in [(a, b), (a.transpose(1, 2).contiguous().transpose(1, 2), b.T.contiguous().T)]:
            got = crt.from_dlpack(aa) @ crt.from_dlpack(bb)
            want = aa @ bb
            torch.testing.assert_close(torch.from_dlpack(got).float(), want.float(), rtol=tol, atol=tol)


def test_cupy_both_ways_by_dlpack_and_interface():
    cupy = need_cupy()
    a = cupy.arange(20, dtype=cupy.float32).reshape(4, 5)
    t = crt.from_dlpack(a)
    assert t.data_ptr() == a.data.ptr
    np.testing.assert_array_equal(host(t), cupy.asnumpy(a))
    b = cupy.asarray(t)  # __cuda_array_interface__
    assert b.data.ptr == t.data_ptr()
    c = cupy.from_dlpack(t)
    assert c.data.ptr == t.data_ptr()
    view = t.transpose(0, 1)
    v = cupy.asarray(view)
    assert v.strides == (4, 20)
    np.testing.assert_array_equal(cupy.asnumpy(v), cupy.asnumpy(a).T)


class OnlyInterface:
    """A producer that has only __cuda_array_interface__ (as numba device arrays do)."""

    def __init__(self, arr):
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
        self.arr = arr


def test_interface_import_keeps_its_producer():
    cupy = need_cupy()
    a = cupy.arange(12, dtype=cupy.int32).reshape(3, 4)[:, ::2]
    holder = OnlyInterface(a)
    alive = weakref.ref(holder)
    t = crt.from_dlpack(holder)
    assert t.data_ptr() == a.data.ptr and tuple(t.shape) == (3, 2)
    np.testing.assert_array_equal(host(t), cupy.asnumpy(a))
    del holder
    gc.collect()
    assert alive() is not None, "the producer was released while the tensor uses it"
    del t
    gc.collect()
    assert alive() is None, "the producer was never released"


def test_bad_pointers_are_refused():
    cupy = need_cupy()
    host_arr = np.zeros(4, dtype=np.float32)

    class Fake:
        __cuda_array_interface__ = {
            "shape": (4,),
            "typestr": "<f4",
            "data": (host_arr.ctypes.data, False),
            "version": 3,
        }

    try:
        crt.from_dlpack(Fake())
    except (ValueError, crt.InvalidArgumentError) as e:
        assert "not CUDA memory" in str(e)
    else:
        raise AssertionError("host memory was accepted as CUDA memory")
    assert cupy is not None


def test_release_cached_memory_returns_the_cache():
    if CRT_MISSING is not None:
        skip(f"cuda:0: {CRT_MISSING}")
    t = crt.zeros([1 << 20], dtype="float32").to("cuda:0")
    t.synchronize()
    del t
    gc.collect()
    crt.release_cached_memory("cuda:0")
    assert crt.memory_stats("cuda:0").cached_bytes == 0


def test_image_ops_on_cuda_match_torch_on_a_torch_frame():
    torch = need_torch()
    g = torch.Generator(device="cuda").manual_seed(1)
    # A pitched, channels-last uint8 frame batch owned by torch, used in place.
    frames = torch.randint(0, 256, (2, 40, 70, 3), device="cuda", generator=g, dtype=torch.uint8)
    view = frames[:, :, 3:67]
    t = crt.from_dlpack(view)
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    got = torch.from_dlpack(crt.normalize_image(t, mean, std))
    m = torch.tensor(mean, device="cuda").view(1, 3, 1, 1)
    s = torch.tensor(std, device="cuda").view(1, 3, 1, 1)
    want = (view.permute(0, 3, 1, 2).float() / 255 - m) / s
    torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-6)
    x = crt.normalize_image(t, mean, std)
    for mode, kw in [("bilinear", {}), ("bicubic", {"align_corners": True}), ("nearest", {})]:
        got = torch.from_dlpack(crt.interpolate(x, size=(17, 29), mode=mode, **kw))
        want = torch.nn.functional.interpolate(torch.from_dlpack(x), size=(17, 29), mode=mode, **kw)
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)
    gray = crt.cvt_color(t[0], "RGB2GRAY")
    assert str(gray.device) == "cuda:0" and tuple(gray.shape) == (40, 64)
    np.testing.assert_array_equal(host(gray), crt.cvt_color(t[0].to("cpu"), "RGB2GRAY").numpy())


def test_pin_memory_uploads_from_the_pinned_pool():
    if CRT_MISSING is not None:
        skip(f"cuda:0: {CRT_MISSING}")
    a = np.arange(1 << 20, dtype=np.float32)
    t = crt.from_numpy(a).pin_memory("cuda:0")
    assert t.is_pinned() and str(t.device) == "cpu"
    assert t.pin_memory("cuda:0").data_ptr() == t.data_ptr()
    assert crt.pinned_memory_stats("cuda:0").active_bytes >= a.nbytes
    d = t.to("cuda:0")
    del t
    np.testing.assert_array_equal(host(d), a)
    del d
    gc.collect()
    crt.release_cached_pinned_memory("cuda:0")
    assert crt.pinned_memory_stats("cuda:0").reserved_bytes == 0


def test_pin_memory_needs_a_cuda_device():
    t = crt.ones(3)
    assert not t.is_pinned()
    for call in (lambda: t.pin_memory("cpu"), lambda: crt.pinned_memory_stats("cpu")):
        try:
            call()
        except crt.DeviceError as e:
            assert "pinned pool" in str(e)
        else:
            raise AssertionError("the CPU has no pinned pool")


if __name__ == "__main__":
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print(f"PASS {name}")
            except Skipped as e:
                print(f"SKIP {name}: {e}")
            except Exception as e:  # noqa: BLE001 - a script-mode runner reports everything
                failed += 1
                print(f"FAIL {name}: {type(e).__name__}: {e}")
    print(f"{'FAILED' if failed else 'ok'}: {failed} failed")
    sys.exit(1 if failed else 0)
