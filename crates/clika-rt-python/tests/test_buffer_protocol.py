"""The buffer protocol on tensors (issue 14): `memoryview(t)`, `bytes(t)`, `struct`,
`array`, `ctypes` and any C extension read a host tensor's memory in place, with the same
format codes, shapes, strides, contiguity answers and read-only rules as numpy's export of
the same array (numpy is the reference: every case builds the same view on both)."""

import array
import ctypes
import gc
import hashlib
import io
import struct
import weakref

import numpy as np
import pytest

import clika_runtime as crt

# Every dtype with a PEP 3118 code (bfloat16 has none; numpy has no bfloat16 either).
DTYPES = [
    np.float32,
    np.float64,
    np.float16,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.bool_,
]


def sample(dtype, shape=(3, 4, 5)):
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return (np.arange(n) % 3 == 0).reshape(shape)
    return (np.arange(n) % 100).astype(dtype).reshape(shape)


# The same view of a numpy array and of the tensor over it: contiguous, transposed,
# stepped, flipped, broadcast (stride 0), a size-1 axis, empty and 0-d.
VIEWS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.permute(2, 0, 1) if isinstance(x, crt.Tensor) else x.transpose(2, 0, 1),
    "stepped": lambda x: x[:, ::2, 1:],
    "flipped": lambda x: x[::-1, :, ::-2],
    "broadcast": lambda x: (
        x[:, :1, :].expand(3, 4, 5)
        if isinstance(x, crt.Tensor)
        else np.lib.stride_tricks.as_strided(x[:, :1, :], (3, 4, 5), (x.strides[0], 0, x.strides[2]))
    ),
    "size1": lambda x: x[1:2, :, 2:3],
    "empty": lambda x: x[:, 4:, :],
    "scalar": lambda x: x[1, 2, 3, ...],  # a 0-d view (numpy: not a numpy scalar)
}


# PyObject_GetBuffer's request flags (Include/pybuffer.h).
PyBUF_SIMPLE, PyBUF_WRITABLE, PyBUF_FORMAT, PyBUF_ND = 0, 0x1, 0x4, 0x8
PyBUF_STRIDES = 0x10 | PyBUF_ND
PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS = 0x20 | PyBUF_STRIDES, 0x40 | PyBUF_STRIDES
PyBUF_ANY_CONTIGUOUS = 0x80 | PyBUF_STRIDES
FLAGS = {
    "simple": PyBUF_SIMPLE,
    "writable": PyBUF_WRITABLE,
    "nd": PyBUF_ND | PyBUF_FORMAT,
    "strided": PyBUF_STRIDES | PyBUF_FORMAT,
    "c": PyBUF_C_CONTIGUOUS,
    "f": PyBUF_F_CONTIGUOUS,
    "any": PyBUF_ANY_CONTIGUOUS,
    "strided-writable": PyBUF_STRIDES | PyBUF_WRITABLE,
}


def get_buffer(obj, flags):
    """PyObject_GetBuffer(obj, flags) and release; raises what the exporter raised."""
    api = ctypes.pythonapi
    api.PyObject_GetBuffer.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
    api.PyBuffer_Release.argtypes = [ctypes.c_void_p]
    view = ctypes.create_string_buffer(256)  # a Py_buffer is 80 bytes on 64-bit CPython
    api.PyObject_GetBuffer(obj, view, flags)
    api.PyBuffer_Release(view)


def accepts(obj, flags):
    try:
        get_buffer(obj, flags)
        return True
    except BufferError:  # what we raise (PEP 3118's exception)
        return False
    except ValueError:  # numpy's refusal
        return False


@pytest.mark.parametrize("flags", FLAGS, ids=str)
@pytest.mark.parametrize("view", VIEWS, ids=str)
def test_each_request_is_answered_as_numpy_answers_it(view, flags):
    a = sample(np.float32)
    for read_only in (False, True):
        n = VIEWS[view](a)
        t = VIEWS[view](crt.from_dlpack(a) if read_only else crt.from_numpy(a))
        if read_only:
            n = n.view()
            n.flags.writeable = False
        assert accepts(t, FLAGS[flags]) == accepts(n, FLAGS[flags]), (view, flags, read_only)
        a.flags.writeable = False
    a.flags.writeable = True


def same_memoryview(mt, mn):
    assert np.dtype(mt.format) == np.dtype(mn.format)
    assert mt.itemsize == mn.itemsize
    assert mt.ndim == mn.ndim
    assert mt.shape == mn.shape
    assert mt.strides == mn.strides
    assert mt.readonly == mn.readonly
    assert mt.c_contiguous == mn.c_contiguous
    assert mt.f_contiguous == mn.f_contiguous
    assert mt.nbytes == mn.nbytes
    if mt.format != "e":  # memoryview.tolist() has no half floats (numpy's export neither)
        assert mt.tolist() == mn.tolist()
    assert mt.tobytes() == mn.tobytes()
    np.testing.assert_array_equal(np.asarray(mt), np.asarray(mn))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("view", VIEWS, ids=str)
def test_memoryview_matches_numpys_export(dtype, view):
    a = sample(dtype)
    t = VIEWS[view](crt.from_numpy(a))
    n = VIEWS[view](a)
    mt, mn = memoryview(t), memoryview(n)
    same_memoryview(mt, mn)
    if n.size:
        # The export is the tensor's memory, not a copy: numpy over the memoryview sees the
        # same first element address as the tensor.
        assert np.asarray(mt).__array_interface__["data"][0] == t.data_ptr()
    # bytes() of a one-element integer tensor takes __index__ first (bytes(5) is five zero
    # bytes), as for numpy's 0-d arrays; every other tensor goes through the buffer.
    assert bytes(t if t.ndim else memoryview(t)) == n.tobytes()


def test_writes_through_the_export_reach_the_tensor_and_its_owner():
    a = np.zeros((2, 3), np.float32)
    t = crt.from_numpy(a)
    m = memoryview(t)
    m[1, 2] = 7.5
    assert a[1, 2] == 7.5 and t[1, 2].item() == 7.5
    c = (ctypes.c_float * 6).from_buffer(t)  # a writable, C-contiguous request
    c[0] = -1.0
    assert a[0, 0] == -1.0
    del c, m
    strided = memoryview(t.T)  # strided writes through the view's own strides
    strided[2, 0] = 3.25
    assert a[0, 2] == 3.25


def test_struct_array_hashlib_and_readinto_use_contiguous_tensors():
    t = crt.arange(4, dtype=crt.float32)
    assert struct.unpack_from("4f", t) == (0.0, 1.0, 2.0, 3.0)
    arr = array.array("f")
    arr.frombytes(memoryview(t).cast("B"))  # array wants one-byte items, as for numpy
    assert arr.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert hashlib.sha256(t).digest() == hashlib.sha256(np.arange(4, dtype=np.float32)).digest()
    assert bytes(crt.tensor([1, 2], dtype=crt.uint16)) == np.array([1, 2], np.uint16).tobytes()
    # readinto asks for a writable simple buffer: the file's bytes land in the tensor.
    src = np.array([9.0, 8.0, 7.0, 6.0], np.float32)
    assert io.BytesIO(src.tobytes()).readinto(t) == 16
    assert t.tolist() == [9.0, 8.0, 7.0, 6.0]


def test_consumers_that_need_contiguous_memory_get_the_fix_named():
    t = crt.arange(12, dtype=crt.float32).reshape(3, 4).T
    with pytest.raises(BufferError, match=r"t\.contiguous\(\)"):
        hashlib.sha256(t)  # a simple request: no strides, so C-contiguous only
    with pytest.raises(BufferError, match="Fortran-contiguous"):
        get_buffer(t.T, PyBUF_F_CONTIGUOUS)
    # ctypes takes the strides and refuses itself, as it does for numpy's transposed arrays.
    with pytest.raises(TypeError, match="not C contiguous"):
        (ctypes.c_float * 12).from_buffer(t)
    # The contiguous copy works, and a transposed view is Fortran-contiguous.
    assert hashlib.sha256(t.contiguous()).digest() == hashlib.sha256(np.arange(12, dtype=np.float32).reshape(3, 4).T.copy()).digest()
    assert memoryview(t).f_contiguous and not memoryview(t).c_contiguous


def test_read_only_memory_exports_read_only():
    a = np.arange(6, dtype=np.int32)
    a.flags.writeable = False
    t = crt.from_dlpack(a)  # numpy's DLPack export of a read-only array is read-only
    m = memoryview(t)
    assert m.readonly
    with pytest.raises(TypeError, match="read-only"):
        m[0] = 5
    with pytest.raises(BufferError, match="read-only"):
        get_buffer(t, PyBUF_WRITABLE)
    with pytest.raises(TypeError, match="read-write"):
        io.BytesIO(bytes(24)).readinto(t)  # a writable request (the message is io's)
    with pytest.raises(TypeError, match="not writable"):
        (ctypes.c_int32 * 6).from_buffer(t)
    assert a.tolist() == [0, 1, 2, 3, 4, 5]
    # A copy is the runtime's own memory, and writable.
    assert not memoryview(t.clone()).readonly


def test_the_export_keeps_the_tensor_alive():
    t = crt.arange(1000, dtype=crt.int64)
    ref = weakref.ref(t)
    m = memoryview(t)
    del t
    gc.collect()
    assert ref() is not None
    assert m[999] == 999
    m.release()
    gc.collect()
    assert ref() is None


def test_bfloat16_and_device_tensors_refuse_naming_the_move():
    with pytest.raises(BufferError, match="bfloat16.*float32"):
        memoryview(crt.zeros(3, dtype=crt.bfloat16))
    try:
        g = crt.zeros(3).to("gpu:0")
    except crt.DeviceError:
        pytest.skip("no gpu:0 here")
    with pytest.raises(BufferError, match=r"to\('cpu'\)"):
        memoryview(g)


def test_simple_requests_of_an_empty_and_a_scalar_tensor():
    assert bytes(crt.zeros(0, 3)) == b""
    assert memoryview(crt.zeros(0, 3)).shape == (0, 3)
    m = memoryview(crt.tensor(2.5, dtype=crt.float64))
    assert m.shape == () and m.tolist() == 2.5
