"""One test body per behaviour, run on every available device (the CPU and "gpu:0") and
compared with numpy. GPU cases skip, with the reason printed, only where no Vulkan driver
exists."""

import subprocess
import sys

import numpy as np
import pytest

import clika_runtime as crt


def _gpu_reason():
    try:
        crt.memory_stats("gpu:0")
        return None
    except crt.DeviceError as e:
        return str(e)


GPU_MISSING = _gpu_reason()


@pytest.fixture(params=["cpu", "gpu:0"])
def device(request):
    if request.param != "cpu" and GPU_MISSING is not None:
        print(f"skipping {request.param}: {GPU_MISSING}")
        pytest.skip(f"no Vulkan driver: {GPU_MISSING}")
    return request.param


@pytest.mark.parametrize(
    "dtype", [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]
)
def test_round_trip_is_bit_exact(device, dtype):
    a = (np.arange(37) * 37 + 11).astype(np.uint8).view(np.uint8)
    a = np.resize(a, 37 * np.dtype(dtype).itemsize).view(dtype) if dtype != np.bool_ else a % 2 == 0
    t = crt.from_numpy(np.ascontiguousarray(a)).to(device)
    assert t.device == device
    back = t.to("cpu").numpy()
    assert back.tobytes() == a.tobytes()


def test_values_match_numpy(device):
    a = np.linspace(-2, 2, 24, dtype=np.float32).reshape(2, 3, 4)
    b = np.linspace(1, 3, 4, dtype=np.float32)
    ta, tb = crt.tensor(a, device=device), crt.tensor(b, device=device)
    np.testing.assert_allclose((ta + tb).to("cpu").numpy(), a + b, rtol=1e-6)
    np.testing.assert_allclose((ta * 2).to("cpu").numpy(), a * 2, rtol=1e-6)
    np.testing.assert_allclose(ta.exp().to("cpu").numpy(), np.exp(a), rtol=1e-5)
    np.testing.assert_allclose(ta.sum().item(), a.sum(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ta.sum(1).to("cpu").numpy(), a.sum(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ta.max().item(), a.max())
    m = crt.tensor(a[0], device=device)
    np.testing.assert_allclose((m @ m.transpose(0, 1)).to("cpu").numpy(), a[0] @ a[0].T, rtol=1e-5)
    assert "data=[" in str(ta)


def test_numpy_export_refuses_device_tensors(device):
    t = crt.ones(3, device=device)
    if device == "cpu":
        return
    with pytest.raises(Exception, match=r"t\.to\('cpu'\)"):
        t.numpy()
    with pytest.raises(Exception, match=r"t\.to\('cpu'\)"):
        np.asarray(t)
    with pytest.raises(Exception, match=r"t\.to\('cpu'\)"):
        t.__dlpack__()


def test_memory_stats_move(device):
    crt.release_cached_memory(device)
    before = crt.memory_stats(device).active_bytes
    t = crt.zeros(1 << 18, device=device)
    assert crt.memory_stats(device).active_bytes - before == 1 << 20
    del t
    assert crt.memory_stats(device).active_bytes == before


def test_auto_with_the_gpu_disabled_falls_back_with_one_warning():
    code = (
        "import warnings, clika_runtime as crt\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    a = crt.ones(2, device='auto')\n"
        "    b = crt.ones(2).to('auto')\n"
        "print(a.device, b.device, len(w), w[0].message if w else '')\n"
    )
    env = {**__import__("os").environ, "CLIKA_RT_GPU_DISABLE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    words = out.stdout.split()
    assert words[:3] == ["cpu", "cpu", "1"], out.stdout + out.stderr
    assert "falls back to CPU" in out.stdout
