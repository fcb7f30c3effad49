"""Tensors that travel inside a process: copy.copy / copy.deepcopy, pickling at every protocol
(protocol 5 out of band without a copy), and crt.from_buffer over buffer-protocol exporters."""

from __future__ import annotations

import copy
import mmap
import pickle
from multiprocessing import shared_memory

import numpy as np
import pytest

import clika_runtime as crt

DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool",
          "uint16", "uint32", "uint64"]


def values(t):
    """The tensor's values as numpy (bfloat16 through float32, which holds it exactly)."""
    if t.dtype == crt.bfloat16:
        t = t.to(crt.float32)
    return np.asarray(t)


def make(dtype, shape=(3, 4)):
    rng = np.random.default_rng(sum(map(ord, dtype)) + len(shape))
    n = int(np.prod(shape))
    if dtype == "bool":
        a = rng.integers(0, 2, n).astype(bool)
    elif dtype in ("float32", "float64", "float16", "bfloat16"):
        a = (rng.standard_normal(n) * 8).astype(np.float32)
    else:
        a = rng.integers(-100 if not dtype.startswith("uint") else 0, 100, n).astype(np.int64)
    return crt.tensor(a.reshape(shape), dtype=getattr(crt, dtype))


LAYOUTS = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.T,
    "stepped": lambda t: t[::2, 1::2],
    "flipped": lambda t: t.flip(1),
    "0-d": lambda t: t[1, 2],
    "empty": lambda t: t[:0],
    "broadcast": lambda t: t[:1].expand(3, 4),
}


def buffer_address(buf):
    """Address and length of any buffer (through numpy, which reads it without a copy)."""
    a = np.frombuffer(buf, np.uint8)
    return a.ctypes.data, a.nbytes


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip_keeps_values_dtype_and_shape(dtype, layout, protocol):
    t = LAYOUTS[layout](make(dtype))
    back = pickle.loads(pickle.dumps(t, protocol=protocol))
    assert back.dtype == t.dtype
    assert back.shape == t.shape
    np.testing.assert_array_equal(values(back), values(t))
    assert back.data_ptr() != t.data_ptr() or t.numel() == 0
    if layout in ("contiguous", "transposed", "flipped", "0-d"):
        assert back.strides == t.strides  # dense spans travel with their strides
    else:
        assert back.is_contiguous()  # gaps and repeats are compacted


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "flipped", "0-d"])
def test_protocol_5_out_of_band_sends_no_bytes_and_wraps_the_given_buffer(dtype, layout):
    base = make(dtype, (64, 32))
    t = LAYOUTS[layout](base) if layout != "0-d" else base[5, 7]
    buffers = []
    stream = pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 1
    assert len(stream) < 400, "the bytes went into the stream"
    # In process: the received tensor is the very same memory.
    back = pickle.loads(stream, buffers=buffers)
    assert back.data_ptr() == t.data_ptr()
    # Through a shared buffer: the received tensor lies inside it (no copy).
    raw = buffers[0].raw()
    shm = shared_memory.SharedMemory(create=True, size=max(raw.nbytes, 1))
    try:
        shm.buf[: raw.nbytes] = raw
        del raw
        received = pickle.loads(stream, buffers=[shm.buf[: len(buffers[0].raw())]])
        start, n = buffer_address(shm.buf)
        assert start <= received.data_ptr() < start + n
        np.testing.assert_array_equal(values(received), values(t))
        assert received.strides == t.strides
        del received
    finally:
        shm.close()
        shm.unlink()


def test_out_of_band_writability_follows_the_buffer():
    t = crt.arange(12, dtype=crt.float32).reshape(3, 4)
    buffers = []
    stream = pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    ro = pickle.loads(stream, buffers=[bytes(buffers[0].raw())])
    with pytest.raises(crt.ReadOnlyError):
        ro[0, 0] = 5
    rw = bytearray(buffers[0].raw())
    back = pickle.loads(stream, buffers=[rw])
    back[0, 0] = 42
    assert np.frombuffer(rw, np.float32)[0] == 42  # writes land in the caller's buffer
    assert t[0, 0].item() == 0


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_in_band_copies_are_independent_and_writable_as_the_source(protocol):
    t = crt.arange(6, dtype=crt.int32)
    back = pickle.loads(pickle.dumps(t, protocol=protocol))
    back[0] = 7
    assert t[0].item() == 0 and back[0].item() == 7
    ro = crt.from_buffer(bytes(np.arange(6, dtype=np.int32)), crt.int32)
    back_ro = pickle.loads(pickle.dumps(ro, protocol=protocol))
    with pytest.raises(crt.ReadOnlyError):
        back_ro[0] = 1


def test_pickling_a_device_tensor_names_the_move_to_the_cpu():
    try:
        t = crt.ones(3, device="gpu:0")
    except crt.DeviceError:
        pytest.skip("no gpu:0 device here")
    with pytest.raises(crt.DeviceError, match=r'to\("cpu"\)'):
        pickle.dumps(t)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_copy_and_deepcopy_give_new_memory_with_the_same_values(dtype, layout, how):
    t = LAYOUTS[layout](make(dtype))
    c = how(t)
    assert c.dtype == t.dtype and c.shape == t.shape
    np.testing.assert_array_equal(values(c), values(t))
    if t.numel():
        assert c.data_ptr() != t.data_ptr()
        first = values(t).reshape(-1)[0]
        c.reshape(-1)[0] = (not first) if dtype == "bool" else float(first) + 1
        assert values(c).reshape(-1)[0] != values(t).reshape(-1)[0]


def test_deepcopy_keeps_shared_references_shared():
    t = crt.arange(4)
    a, b = copy.deepcopy([t, t])
    assert a is b and a.data_ptr() != t.data_ptr()


# --- from_buffer ------------------------------------------------------------------------


def test_from_buffer_bytearray_aliases_and_bytes_is_read_only():
    ba = bytearray(np.arange(8, dtype=np.float64).tobytes())
    t = crt.from_buffer(ba, crt.float64)
    assert t.shape == (8,) and t.data_ptr() == buffer_address(ba)[0]
    t[3] = -1.0
    assert np.frombuffer(ba, np.float64)[3] == -1.0
    b = bytes(ba)
    r = crt.from_buffer(b, "float64", shape=(2, 4))
    np.testing.assert_array_equal(np.asarray(r), np.frombuffer(b, np.float64).reshape(2, 4))
    with pytest.raises(crt.ReadOnlyError):
        r[0, 0] = 1


@pytest.mark.parametrize("dtype", DTYPES)
def test_from_buffer_every_dtype_with_offset_and_shape(dtype):
    src = make(dtype, (5, 6))
    payload = src.__reduce_ex__(4)[1][0]  # the in-band pickle's bytes: row-major elements
    raw = bytearray(16) + bytearray(payload)
    t = crt.from_buffer(raw, getattr(crt, dtype), shape=(5, 6), offset=16)
    np.testing.assert_array_equal(values(t), values(src))
    assert t.data_ptr() == buffer_address(raw)[0] + 16


def test_from_buffer_memoryview_mmap_and_shared_memory():
    a = np.arange(10, dtype=np.int16)
    mv = memoryview(bytearray(a.tobytes()))
    np.testing.assert_array_equal(np.asarray(crt.from_buffer(mv, crt.int16)), a)
    m = mmap.mmap(-1, 4096)
    t = crt.from_buffer(m, crt.uint8, shape=(4, 1024))
    t[0, 0] = 9
    assert m[0] == 9
    del t
    m.close()
    shm = shared_memory.SharedMemory(create=True, size=64)
    try:
        t = crt.from_buffer(shm.buf, crt.float32, shape=(16,))
        t[2] = 2.5
        assert np.frombuffer(shm.buf, np.float32)[2] == 2.5
        with pytest.raises(BufferError):
            shm.close()  # the tensor holds the export: no crash, no dangling pointer
        np.testing.assert_array_equal(np.asarray(t)[:3], [0, 0, 2.5])
        del t
    finally:
        shm.close()
        shm.unlink()


def test_from_buffer_errors_name_the_fix():
    with pytest.raises(crt.InvalidArgumentError, match="buffer protocol"):
        crt.from_buffer([1, 2, 3], crt.uint8)
    with pytest.raises(crt.InvalidArgumentError, match="contiguous"):
        crt.from_buffer(memoryview(bytearray(16))[::2], crt.uint8)
    with pytest.raises(crt.AlignmentError, match="offset"):
        crt.from_buffer(bytearray(64), crt.float32, offset=2)
    with pytest.raises(crt.ShapeError, match="shape="):
        crt.from_buffer(bytearray(10), crt.float32)
    with pytest.raises(crt.ShapeError, match="too small"):
        crt.from_buffer(bytearray(16), crt.float32, shape=(5,))
    with pytest.raises(crt.ShapeError, match="past the end"):
        crt.from_buffer(bytearray(16), crt.uint8, offset=17)
    assert crt.from_buffer(b"", crt.float32).shape == (0,)
