"""Custom operators: a rule and a kernel registered under a name, callable by that name from
Python, and from Rust (``clika_rt::ops::call``) in the same process.

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

from typing import Any, Callable, List, Sequence, Tuple, Union

import numpy.typing as npt

from clika_runtime import _native
from clika_runtime._native import DType, Tensor

#: What a rule sees of each input: its shape and dtype.
Spec = Tuple[Tuple[int, ...], DType]
#: ``rule(specs) -> (shape, dtype)``.
Rule = Callable[[List[Spec]], Tuple[Union[int, Sequence[int]], Any]]
#: ``kernel(*arrays) -> array``.
Kernel = Callable[..., Union["npt.NDArray[Any]", Tensor]]

__all__ = ["Kernel", "Rule", "Spec", "call", "register", "registered", "unregister"]


def register(name: str, rule: Rule, kernel: Kernel) -> None:
    """Registers ``rule`` and ``kernel`` under ``name`` for the whole process.

    Raises ``InvalidArgumentError`` if the name is taken (``unregister`` it first).
    """
    _native._op_register(name, rule, kernel)


def call(name: str, *tensors: Any) -> Tensor:
    """Calls the operator ``name`` on ``tensors`` (tensors as they are; anything else is
    copied as ``crt.tensor`` would). The GIL is released while a Rust kernel runs."""
    return _native._op_call(name, *tensors)


def unregister(name: str) -> bool:
    """Removes the operator ``name``; returns whether it was registered."""
    return _native._op_unregister(name)


def registered() -> List[str]:
    """The names of the registered operators, sorted."""
    return _native._op_registered()
