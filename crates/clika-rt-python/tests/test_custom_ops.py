"""Custom operators from Python: registered in Python and called from Python and from a Rust
thread; registered in Rust and called from Python. The output's owner is released exactly
once, borrowed inputs are never written, and failures are exceptions, never crashes."""

from __future__ import annotations

import gc
import re
import threading
import weakref
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np
import pytest

import clika_runtime as crt
from clika_runtime import _native


def same(specs: List[Tuple[Tuple[int, ...], crt.DType]]) -> Tuple[Tuple[int, ...], crt.DType]:
    if len(specs) != 1:
        raise crt.InvalidArgumentError(f"expected one input, got {len(specs)}")
    return specs[0]



def test_python_kernel_output_is_adopted_and_released_once(registered_names: List[str]) -> None:
    released: List[int] = []
    made: List[np.ndarray] = []

    def kernel(x: np.ndarray) -> np.ndarray:
        out = np.square(x)
        weakref.finalize(out, released.append, 1)
        made.append(out)
        return out

    crt.ops.register("py.square", same, kernel)
    registered_names.append("py.square")
    t = crt.tensor([1.0, 2.0, 3.0], dtype=crt.float32)
    y = crt.ops.call("py.square", t)
    np.testing.assert_array_equal(y.numpy(), [1.0, 4.0, 9.0])
    assert y.data_ptr() == made[0].ctypes.data, "the returned array is the output, no copy"
    made.clear()
    view = y[1:]
    del y
    gc.collect()
    assert released == []
    del view
    gc.collect()
    assert released == [1]


def test_inputs_are_read_only_and_never_written(registered_names: List[str]) -> None:
    seen: List[Any] = []

    def kernel(x: np.ndarray) -> np.ndarray:
        seen.append(x.flags.writeable)
        try:
            x[0] = 99.0
        except ValueError as e:
            seen.append(str(e))
        return x.copy()

    crt.ops.register("py.try_write", same, kernel)
    registered_names.append("py.try_write")
    buf = np.array([1.0, 2.0, 3.0], np.float32)
    t = crt.from_numpy(buf)
    crt.ops.call("py.try_write", t)
    assert seen[0] is False and "read-only" in seen[1]
    np.testing.assert_array_equal(buf, [1.0, 2.0, 3.0])


def test_rust_operators_called_from_python() -> None:
    _native._testing_register_rust_ops()
    assert "rust.iota" in crt.ops.registered()
    x = crt.tensor([[1.0, -2.0], [3.0, 4.0]], dtype=crt.float32)
    np.testing.assert_array_equal(crt.ops.call("rust.double", x).numpy(), [[2, -4], [6, 8]])
    before = _native._testing_rust_iota_released()
    y = crt.ops.call("rust.iota", x)
    np.testing.assert_array_equal(y.numpy(), [[0, 1], [2, 3]])
    arr = y.numpy()
    del y
    gc.collect()
    assert _native._testing_rust_iota_released() == before, "the numpy view keeps it alive"
    del arr
    gc.collect()
    assert _native._testing_rust_iota_released() == before + 1


def test_python_kernel_called_from_rust_threads(registered_names: List[str]) -> None:
    def kernel(x: np.ndarray) -> np.ndarray:
        return (x + 1).astype(np.float32)

    def fails(x: np.ndarray) -> np.ndarray:
        raise ValueError("kernel says no")

    crt.ops.register("py.inc", same, kernel)
    crt.ops.register("py.fails", same, fails)
    registered_names.extend(["py.inc", "py.fails"])
    t = crt.arange(0, 1000, dtype=crt.float32)
    y = _native._testing_call_on_rust_thread("py.inc", t)
    assert y.sum().item() == sum(range(1, 1001))
    with pytest.raises(crt.InternalError, match="ValueError: kernel says no"):
        _native._testing_call_on_rust_thread("py.fails", t)
    results: List[float] = []
    threads = [threading.Thread(target=lambda: results.append(crt.ops.call("py.inc", t).sum().item())) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == [sum(range(1, 1001))] * 4


def test_errors_are_exceptions(registered_names: List[str]) -> None:
    def wrong_shape(x: np.ndarray) -> np.ndarray:
        return np.zeros(7, x.dtype)

    def bad_rule(specs: Any) -> Any:
        raise crt.DTypeError("only int8, please")

    crt.ops.register("py.wrong_shape", same, wrong_shape)
    crt.ops.register("py.bad_rule", bad_rule, wrong_shape)
    registered_names.extend(["py.wrong_shape", "py.bad_rule"])
    t = crt.zeros(2)
    with pytest.raises(crt.ShapeError, match=re.escape("rule promised shape [2]")):
        crt.ops.call("py.wrong_shape", t)
    with pytest.raises(crt.DTypeError, match="only int8"):
        crt.ops.call("py.bad_rule", t)
    with pytest.raises(crt.InvalidArgumentError, match="expected one input"):
        crt.ops.call("py.wrong_shape", t, t)
    with pytest.raises(crt.InvalidArgumentError, match="py.wrong_shape"):
        crt.ops.call("py.nope", t)
    with pytest.raises(crt.InvalidArgumentError, match="already registered"):
        crt.ops.register("py.wrong_shape", same, wrong_shape)
    assert crt.ops.unregister("py.bad_rule")
    assert not crt.ops.unregister("py.bad_rule")


DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.mark.parametrize("guide", ["custom-operators.md", "zero-copy-weights.md"])
def test_guide_python_examples_run(guide: str) -> None:
    text = (DOCS / guide).read_text()
    blocks = re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)
    assert blocks, guide
    for block in blocks:
        exec(compile(block, f"{guide}:python", "exec"), {"__name__": "guide"})
