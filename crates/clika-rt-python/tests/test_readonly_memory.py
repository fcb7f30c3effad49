"""Memory lent read-only is never written (issue 21).

`crt.from_dlpack(jnp.ones(4)).fill_(5)` changed an immutable jax.Array: the legacy capsule
JAX answered with was imported as writable. Now, as numpy does, a legacy capsule imports
read-only, a versioned capsule keeps DLPACK_FLAG_BITMASK_READ_ONLY, and every write path
refuses read-only memory. JAX is not needed: hand-made producers return the capsules.
"""

from __future__ import annotations

from typing import Any, Callable, List

import numpy as np
import pytest

import clika_runtime as crt


class LegacyProducer:
    """A producer that predates max_version (as JAX did): legacy capsules only."""

    def __init__(self, a: np.ndarray) -> None:
        self.a = a

    def __dlpack__(self, stream: Any = None) -> Any:
        return self.a.__dlpack__()

    def __dlpack_device__(self) -> Any:
        return self.a.__dlpack_device__()


class VersionedProducer:
    """A producer answering max_version with versioned capsules (numpy sets READ_ONLY for a
    read-only array)."""

    def __init__(self, a: np.ndarray) -> None:
        self.a = a

    def __dlpack__(self, **kwargs: Any) -> Any:
        assert "max_version" in kwargs
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self.a.__dlpack_device__()


def read_only_array() -> np.ndarray:
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    return a


WRITES: List[Callable[[crt.Tensor], Any]] = [
    lambda t: t.fill_(5),
    lambda t: t.copy_(crt.ones(4)),
    lambda t: t.add_(1),
    lambda t: t.__iadd__(1),
    lambda t: t.__imul__(crt.ones(4)),
    lambda t: crt.add(crt.ones(4), crt.ones(4), out=t),
    lambda t: crt.exp(crt.ones(4), out=t),
    lambda t: crt.add(crt.ones(4), 1.5, out=t),
]


def sources() -> List[Any]:
    writable = np.arange(4, dtype=np.float32)
    return [
        ("legacy capsule of a writable array (the JAX case)", writable, LegacyProducer(writable)),
        ("versioned capsule with READ_ONLY", read_only_array(), None),
        ("numpy read-only array", read_only_array(), "direct"),
    ]


@pytest.mark.parametrize("write", range(len(WRITES)))
@pytest.mark.parametrize("case", range(3))
def test_every_write_path_refuses_memory_lent_read_only(case: int, write: int) -> None:
    what, array, how = sources()[case]
    if how is None:
        producer: Any = VersionedProducer(array)
    elif how == "direct":
        producer = array
    else:
        producer = how
    t = crt.from_dlpack(producer)
    assert t.data_ptr() == array.ctypes.data  # no copy
    with pytest.raises(crt.ReadOnlyError):
        WRITES[write](t)
    np.testing.assert_array_equal(array, np.arange(4, dtype=np.float32), err_msg=what)
    # Reading is fine, and a numpy view of it is read-only too.
    assert t.sum().item() == 6.0
    assert not t.numpy().flags.writeable


def test_a_writable_versioned_import_stays_writable() -> None:
    a = np.zeros(4, dtype=np.float32)
    t = crt.from_dlpack(VersionedProducer(a))
    t.fill_(2)
    assert a.tolist() == [2, 2, 2, 2]


def test_read_only_tensor_exports_read_only_or_refuses() -> None:
    a = read_only_array()
    t = crt.from_dlpack(a)
    # Versioned consumers see the flag (numpy makes the array read-only).
    b = np.from_dlpack(t)
    assert not b.flags.writeable and b.ctypes.data == a.ctypes.data
    # A legacy consumer cannot see the flag: refused, naming the fixes...
    with pytest.raises(BufferError, match="max_version.*copy=True"):
        t.__dlpack__()
    # ...or served a private copy when it asks for one.
    cap = t.__dlpack__(copy=True)
    c = np.from_dlpack(LegacyCapsule(cap, t))
    assert c.ctypes.data != a.ctypes.data
    np.testing.assert_array_equal(c, a)


class LegacyCapsule:
    """Hands numpy a capsule already made (legacy)."""

    def __init__(self, cap: Any, t: crt.Tensor) -> None:
        self.cap, self.t = cap, t

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.cap

    def __dlpack_device__(self) -> Any:
        return self.t.__dlpack_device__()


def test_mapped_file_tensors_refuse_writes(tmp_path: Any) -> None:
    p = tmp_path / "raw.bin"
    np.arange(4, dtype=np.float32).tofile(p)
    for copy in (False, True):
        t = crt.from_file(p, crt.float32, (4,), copy=copy)
        for write in WRITES:
            with pytest.raises(crt.ReadOnlyError):
                write(t)
    assert np.fromfile(p, dtype=np.float32).tolist() == [0, 1, 2, 3]
