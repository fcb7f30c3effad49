"""Bad inputs get the right error (issue 21): Python ints out of a dtype's range raise
OverflowError as numpy does; messages say what is wrong and name the Python fix; read-only
memory lent through DLPack is never written; Ctrl-C in a custom kernel stays Ctrl-C."""

from __future__ import annotations

import ctypes
import struct
import json
from pathlib import Path
from typing import Any, Tuple

import numpy as np
import pytest

import clika_runtime as crt


# --- Python ints out of range -------------------------------------------------------------

@pytest.mark.parametrize(
    "value, dtype",
    [(300, crt.uint8), (-1, crt.uint8), (2**31, crt.int32), (-(2**31) - 1, crt.int32),
     (128, crt.int8), (2**15, crt.int16), (-1, crt.uint16), (2**16, crt.uint16),
     (2**32, crt.uint32), (-1, crt.uint64)],
)
def test_python_ints_out_of_range_raise_overflow_error(value: int, dtype: Any) -> None:
    with pytest.raises(OverflowError):
        np.array([value], dtype=np.dtype(dtype.name))  # numpy's rule, for reference
    with pytest.raises(OverflowError, match=f"{value}.*out of bounds for {dtype.name}"):
        crt.tensor([value], dtype=dtype)
    with pytest.raises(OverflowError):
        crt.tensor(value, dtype=dtype)
    with pytest.raises(OverflowError):
        crt.full((2,), value, dtype=dtype)
    t = crt.zeros(2, dtype=dtype)
    with pytest.raises(OverflowError):
        t + value
    with pytest.raises(OverflowError):
        t.fill_(value)
    with pytest.raises(OverflowError):
        t += value
    assert t.numpy().tolist() == [0, 0]


def test_ints_in_range_and_arrays_still_convert_as_numpy_does() -> None:
    assert crt.tensor([255, 0], dtype=crt.uint8).numpy().tolist() == [255, 0]
    assert crt.tensor([2**31 - 1], dtype=crt.int32).numpy().tolist() == [2**31 - 1]
    # Arrays convert like astype (wrapping), as np.array(arr, dtype) does.
    assert crt.tensor(np.array([300]), dtype=crt.uint8).numpy().tolist() == [44]
    # Comparisons with out-of-range ints are exact, not errors (numpy 2).
    assert (crt.zeros(2, dtype=crt.uint8) == 300).numpy().tolist() == [False, False]
    # An int promotes a float or bool tensor instead of overflowing.
    assert (crt.zeros(1) + 2**40).dtype == crt.float32
    assert crt.full((1,), 2**40, dtype=crt.int64).numpy().tolist() == [2**40]


# --- Messages that mislead ----------------------------------------------------------------

@pytest.mark.parametrize("target", ["tpu:0", "gpu:-1", "nonsense"])
def test_to_with_neither_device_nor_dtype_says_so(target: str) -> None:
    with pytest.raises(crt.ClikaError, match="neither a device nor a dtype") as e:
        crt.ones(2).to(target)
    assert "'gpu:N'" in str(e.value) and "float32" in str(e.value)
    assert "unknown dtype" not in str(e.value)


def test_to_still_takes_devices_and_dtypes() -> None:
    assert crt.ones(2).to("float64").dtype == crt.float64
    assert crt.ones(2).to("cpu").device == "cpu"
    assert crt.ones(2).to(np.int32).dtype == crt.int32


def test_matmul_mismatch_names_the_inner_dimensions() -> None:
    with pytest.raises(crt.ShapeError) as e:
        crt.ones(2, 3) @ crt.ones(2, 3)
    msg = str(e.value)
    assert "k = 3" in msg and "k = 2" in msg and "a.shape[-1] == b.shape[-2]" in msg
    assert "does not match" not in msg


def test_huge_int_index_is_out_of_range() -> None:
    t = crt.ones(3)
    with pytest.raises(IndexError, match="out of range"):
        t[2**70]
    with pytest.raises(IndexError, match="out of range"):
        t[-(2**70)]


def test_reduction_too_large_names_the_real_dtype() -> None:
    with pytest.raises(crt.ClikaError) as e:
        crt.zeros(2**62, 0).sum(dim=1)
    msg = str(e.value)
    assert "Float32" in msg and "4611686018427387904" in msg and "UInt8" not in msg


def test_from_numpy_read_only_names_python_fixes() -> None:
    a = np.ones(3)
    a.flags.writeable = False
    with pytest.raises(crt.ReadOnlyError) as e:
        crt.from_numpy(a)
    msg = str(e.value)
    assert "crt.from_dlpack(a)" in msg and "a.copy()" in msg


def test_core_messages_name_python_fixes() -> None:
    a = np.ones(3)
    a.flags.writeable = False
    t = crt.from_dlpack(a)
    with pytest.raises(crt.ReadOnlyError) as e:
        t.fill_(1.0)
    msg = str(e.value)
    assert "contiguous_copy" not in msg and "from_data" not in msg
    assert "crt.tensor(t)" in msg


def write_safetensors(path: Path, header_json: str, data: bytes) -> None:
    h = header_json.encode()
    path.write_bytes(struct.pack("<Q", len(h)) + h + data)


def test_safetensors_header_with_a_duplicate_key_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "dup.safetensors"
    entry = '{"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}'
    write_safetensors(p, '{"w": %s, "w": %s}' % (entry, entry), b"\0" * 4)
    with pytest.raises(crt.ClikaError, match='"w" twice'):
        crt.load_safetensors(p)
    ok = tmp_path / "ok.safetensors"
    write_safetensors(ok, '{"w": %s}' % entry, b"\0" * 4)
    assert list(crt.load_safetensors(ok)) == ["w"]


# --- Custom operators ---------------------------------------------------------------------

def test_register_refuses_non_callables(registered_names: list) -> None:
    with pytest.raises(TypeError, match="rule must be callable"):
        crt.ops.register("t21.none", None, None)
    with pytest.raises(TypeError, match="kernel must be callable"):
        crt.ops.register("t21.none", lambda s: s[0], 3)
    assert "t21.none" not in crt.ops.registered()


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit])
def test_keyboard_interrupt_and_system_exit_in_a_kernel_are_reraised(
    exc: type, registered_names: list
) -> None:
    name = f"t21.raise_{exc.__name__}"
    registered_names.append(name)

    def kernel(x: Any) -> Any:
        raise exc()

    crt.ops.register(name, lambda specs: specs[0], kernel)
    with pytest.raises(exc):
        crt.ops.call(name, crt.ones(2))
    # An ordinary exception is still an InternalError, and the next call is unaffected.
    name2 = name + "_value"
    registered_names.append(name2)

    def bad(x: Any) -> Any:
        raise ValueError("boom")

    crt.ops.register(name2, lambda specs: specs[0], bad)
    with pytest.raises(crt.InternalError, match="boom"):
        crt.ops.call(name2, crt.ones(2))
