"""One operator registry per process: operators registered in Python (or in Rust inside the
extension) are called from C++ through libclika_rt, and C++ operators from Python.

A small C++ library (tests/native/op_caller.cpp) is built against a `make install` prefix
named by CLIKA_RT_PREFIX (`make test-python` sets it) and loaded with ctypes, which brings
libclika_rt into the process: the situation of a Python program using a C++ extension, or a
C++ program embedding Python. Tensors cross without a copy, the output's owner is released
exactly once, and a borrowed input is never written."""

from __future__ import annotations

import ctypes
import gc
import os
import subprocess
import weakref
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np
import pytest

import clika_runtime as crt
from clika_runtime import _native

HERE = Path(__file__).resolve().parent
_caller: List[ctypes.CDLL] = []


def same(specs: List[Tuple[Tuple[int, ...], crt.DType]]) -> Tuple[Tuple[int, ...], crt.DType]:
    if len(specs) != 1:
        raise crt.InvalidArgumentError(f"expected one input, got {len(specs)}")
    return specs[0]


def load_caller(tmp: Path) -> ctypes.CDLL:
    """Builds and loads op_caller (once per process: a loaded library stays loaded)."""
    if _caller:
        return _caller[0]
    prefix = os.environ.get("CLIKA_RT_PREFIX")
    if not prefix:
        pytest.skip("CLIKA_RT_PREFIX is not set: point it at a `make install` prefix "
                    "(`make test-python` does)")
    lib_dir = Path(prefix) / "lib"
    so = tmp / "op_caller.so"
    subprocess.run(
        ["g++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
         f"-I{prefix}/include", str(HERE / "native" / "op_caller.cpp"), "-o", str(so),
         f"-L{lib_dir}", "-lclika_rt", f"-Wl,-rpath,{lib_dir}"],
        check=True,
    )
    lib = ctypes.CDLL(str(so))
    f32p, up = ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_size_t)
    lib.op_caller_call_f32.argtypes = [ctypes.c_char_p, f32p, ctypes.c_size_t, f32p, up, up,
                                       ctypes.c_char_p, ctypes.c_size_t]
    lib.op_caller_call_f32.restype = ctypes.c_int
    lib.op_caller_register_negate.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.op_caller_unregister.argtypes = [ctypes.c_char_p]
    lib.op_caller_registered.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    _caller.append(lib)
    return lib


def cpp_call(lib: ctypes.CDLL, name: str, x: np.ndarray) -> Tuple[int, np.ndarray, int, int, str]:
    """C++ calls `name` on a copy of `x` it owns and lends; returns (rc, result, input
    pointer, result pointer, message)."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    out = np.zeros_like(x)
    in_ptr, out_ptr = ctypes.c_size_t(), ctypes.c_size_t()
    msg = ctypes.create_string_buffer(4096)
    f32p = ctypes.POINTER(ctypes.c_float)
    rc = lib.op_caller_call_f32(name.encode(), x.ctypes.data_as(f32p), x.size,
                                out.ctypes.data_as(f32p), ctypes.byref(in_ptr),
                                ctypes.byref(out_ptr), msg, len(msg))
    return rc, out, in_ptr.value, out_ptr.value, msg.value.decode()


def cpp_registered(lib: ctypes.CDLL) -> List[str]:
    msg = ctypes.create_string_buffer(1 << 16)
    assert lib.op_caller_registered(msg, len(msg)) == 0, msg.value
    return [n for n in msg.value.decode().split("\n") if n]


@pytest.fixture
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    return load_caller(tmp_path_factory.mktemp("op_caller"))



def test_registered_before_the_library_is_shared_by_link_native(
        tmp_path_factory: pytest.TempPathFactory, registered_names: List[str]) -> None:
    fresh = not _caller
    crt.ops.register("py.early", same, lambda x: x + 1)
    registered_names.append("py.early")
    lib = load_caller(tmp_path_factory.mktemp("op_caller"))
    if fresh:
        # Loaded after the registration, and nothing has touched the registry since.
        rc, _, _, _, msg = cpp_call(lib, "py.early", np.arange(3))
        assert rc == 1 and "py.early" in msg, msg
        # (Operators earlier test modules left registered are shared too.)
        assert "py.early" in crt.ops.link_native()
    else:
        assert "py.early" not in crt.ops.link_native(), "already shared at registration"
    assert "py.early" in cpp_registered(lib)
    rc, out, _, _, msg = cpp_call(lib, "py.early", np.arange(3))
    assert rc == 0, msg
    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])


def test_python_operator_called_from_cpp_without_copies(
        lib: ctypes.CDLL, registered_names: List[str]) -> None:
    seen: List[Any] = []
    made: List[int] = []
    released: List[int] = []

    def kernel(x: np.ndarray) -> np.ndarray:
        seen.append((x.ctypes.data, x.flags.writeable))
        y = x * 2
        made.append(y.ctypes.data)
        weakref.finalize(y, released.append, 1)
        return y

    crt.ops.register("py.twice", same, kernel)
    registered_names.append("py.twice")
    assert "py.twice" in cpp_registered(lib), "registered in libclika_rt as well"

    rc, out, in_ptr, out_ptr, msg = cpp_call(lib, "py.twice", np.arange(5))
    assert rc == 0, msg
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0, 6.0, 8.0])
    assert seen == [(in_ptr, False)], "the kernel read C++'s buffer itself, read-only"
    assert made == [out_ptr], "C++'s result is the array the kernel returned, no copy"
    gc.collect()
    assert released == [1], "C++ dropped the result: the array was released exactly once"


def test_a_python_kernel_cannot_write_a_borrowed_cpp_input(
        lib: ctypes.CDLL, registered_names: List[str]) -> None:
    def kernel(x: np.ndarray) -> np.ndarray:
        x[0] = 42.0
        return x.copy()

    crt.ops.register("py.scribble", same, kernel)
    registered_names.append("py.scribble")
    rc, _, _, _, msg = cpp_call(lib, "py.scribble", np.arange(4))
    assert rc == 1, "the write is refused (rc 2 would mean the borrowed input changed)"
    assert "read-only" in msg and "py.scribble" in msg, msg


def test_python_errors_reach_cpp_as_errors(
        lib: ctypes.CDLL, registered_names: List[str]) -> None:
    def rule(specs: List[Tuple[Tuple[int, ...], crt.DType]]) -> Tuple[Tuple[int, ...], crt.DType]:
        raise crt.DTypeError("py.picky wants float64")

    crt.ops.register("py.picky", rule, lambda x: x)
    registered_names.append("py.picky")
    rc, _, _, _, msg = cpp_call(lib, "py.picky", np.arange(2))
    assert rc == 1 and "py.picky wants float64" in msg, msg

    crt.ops.register("py.wrong_shape", same, lambda x: np.zeros(7, np.float32))
    registered_names.append("py.wrong_shape")
    rc, _, _, _, msg = cpp_call(lib, "py.wrong_shape", np.arange(2))
    assert rc == 1 and "py.wrong_shape" in msg, msg


def test_rust_operator_of_the_extension_called_from_cpp(lib: ctypes.CDLL) -> None:
    _native._testing_register_rust_ops()
    crt.ops.link_native()
    before = _native._testing_rust_iota_released()
    rc, out, _, _, msg = cpp_call(lib, "rust.iota", np.zeros(6))
    assert rc == 0, msg
    np.testing.assert_array_equal(out, np.arange(6, dtype=np.float32))
    assert _native._testing_rust_iota_released() == before + 1, "deleter ran exactly once"
    rc, out, _, _, msg = cpp_call(lib, "rust.double", np.arange(3))
    assert rc == 0, msg
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])


def test_cpp_operator_called_from_python(lib: ctypes.CDLL) -> None:
    msg = ctypes.create_string_buffer(512)
    assert lib.op_caller_register_negate(msg, len(msg)) == 0, msg.value
    try:
        assert "cpp.negate" in crt.ops.registered()
        src = np.arange(4, dtype=np.float32)
        x = crt.from_numpy(src)
        y = crt.ops.call("cpp.negate", x)
        np.testing.assert_array_equal(y.numpy(), [-0.0, -1.0, -2.0, -3.0])
        np.testing.assert_array_equal(src, [0.0, 1.0, 2.0, 3.0])
        # The name is taken in the process's registry: Python cannot register it too, and
        # the failed attempt leaves nothing behind.
        with pytest.raises(crt.InvalidArgumentError, match="cpp.negate"):
            crt.ops.register("cpp.negate", same, lambda a: a)
        np.testing.assert_array_equal(crt.ops.call("cpp.negate", x).numpy(), -src)
        with pytest.raises(crt.InvalidArgumentError, match="one float32"):
            crt.ops.call("cpp.negate", crt.tensor([1, 2]))
    finally:
        assert crt.ops.unregister("cpp.negate")
    assert "cpp.negate" not in cpp_registered(lib)
    with pytest.raises(crt.InvalidArgumentError, match="unknown|not registered|registered"):
        crt.ops.call("cpp.negate", crt.tensor([1.0]))


def test_unregister_in_python_removes_the_cpp_entry(lib: ctypes.CDLL) -> None:
    crt.ops.register("py.gone", same, lambda x: x)
    assert "py.gone" in cpp_registered(lib)
    assert crt.ops.unregister("py.gone")
    assert "py.gone" not in cpp_registered(lib)
    assert "py.gone" not in crt.ops.registered()
    rc, _, _, _, msg = cpp_call(lib, "py.gone", np.arange(2))
    assert rc == 1 and "py.gone" in msg, msg
