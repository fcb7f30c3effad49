"""Custom operators: a rule and a kernel registered under a name, callable by that name from
Python, from Rust (``clika_rt::ops::call``) and from C and C++ (``ClikaRT::ops::call``) in the
same process.

One registry per process: when the process also has the C/C++ library ``libclika_rt``
loaded (a C++ program embedding Python, or a C++ extension linked against it), an operator
registered here is registered there too, and ``call`` of a name registered only there (from
C or C++) runs that operator; tensors cross without a copy. An operator registered before
the library was loaded is shared at the next registry use, or at once with
``link_native()``.

``rule(specs)`` receives one ``(shape, dtype)`` pair per input and returns the output's
``(shape, dtype)``; raising refuses the call. ``kernel(*arrays)`` receives read-only numpy
views of the inputs (no copy) and returns a numpy array (or a ``Tensor``) of the promised
shape and dtype. A C-contiguous, aligned array of a supported dtype becomes the output
without a copy: the tensor keeps the array alive and releases it exactly once; any other
array is copied. Both may run on any thread that calls the operator; they take the GIL
themselves. An exception becomes the call's error: a ``ClikaError`` keeps its class, any
other exception raises ``InternalError`` (a ``RuntimeError``) naming it.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy.typing as npt

from clika_runtime import _native
from clika_runtime._native import DType, Tensor

#: What a rule sees of each input: its shape and dtype.
Spec = Tuple[Tuple[int, ...], DType]
#: ``rule(specs) -> (shape, dtype)``.
Rule = Callable[[List[Spec]], Tuple[Union[int, Sequence[int]], Any]]
#: ``kernel(*arrays) -> array``.
Kernel = Callable[..., Union["npt.NDArray[Any]", Tensor]]

__all__ = [
    "Kernel", "Rule", "Spec", "call", "link_native", "register", "registered", "unregister",
]


def register(name: str, rule: Rule, kernel: Kernel) -> None:
    """Registers ``rule`` and ``kernel`` under ``name`` for the whole process.

    Raises ``InvalidArgumentError`` if the name is taken (``unregister`` it first), here or
    in a ``libclika_rt`` loaded in the process.
    """
    _native._op_register(name, rule, kernel)


def call(name: str, *tensors: Any) -> Tensor:
    """Calls the operator ``name`` on ``tensors`` (tensors as they are; anything else is
    copied as ``crt.tensor`` would). The GIL is released while a Rust kernel runs."""
    return _native._op_call(name, *tensors)


def unregister(name: str) -> bool:
    """Removes the operator ``name`` (here and in ``libclika_rt``, if loaded); returns whether
    it was registered."""
    return _native._op_unregister(name)


def registered() -> List[str]:
    """The names of the registered operators, sorted (with ``libclika_rt``'s, if loaded)."""
    return _native._op_registered()


def link_native(path: Optional[str] = None) -> List[str]:
    """Shares operators with the C/C++ library ``libclika_rt``: the one already loaded in
    this process (found by its soname, never loaded twice), or the one at ``path``. Registers
    there every operator of this module it lacks and returns their names. Needed only for
    operators registered before the library was loaded and not followed by any other
    registry use; raises ``InvalidArgumentError`` naming the fix when no library is found."""
    return _native._op_link_native(path)
