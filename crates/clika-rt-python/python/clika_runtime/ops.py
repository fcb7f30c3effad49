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
    """Register ``rule`` and ``kernel`` under ``name`` for the whole process.

    The operator is then callable by that name from Python (``crt.ops.call``), Rust and
    C/C++ in the same process.

    Parameters
    ----------
    name : str
        The operator's name, unique in the process.
    rule : callable
        ``rule(specs) -> (shape, dtype)``: receives one ``(shape, dtype)`` pair per input
        and returns the output's; raising refuses the call.
    kernel : callable
        ``kernel(*arrays) -> array``: receives read-only numpy views of the inputs and
        returns a numpy array (or a ``Tensor``) of the promised shape and dtype.

    Returns
    -------
    None

    Raises
    ------
    InvalidArgumentError
        The name is taken, here or in a ``libclika_rt`` loaded in the process
        (``unregister`` it first).

    Examples
    --------
    >>> crt.ops.register("doc_twice", lambda specs: specs[0], lambda a: a * 2)
    >>> crt.ops.call("doc_twice", crt.arange(3)).tolist()
    [0, 2, 4]
    >>> crt.ops.unregister("doc_twice")
    True
    """
    _native._op_register(name, rule, kernel)


def call(name: str, *tensors: Any) -> Tensor:
    """Call the operator ``name`` on ``tensors``.

    Tensors are passed as they are (no copy); anything else is copied as ``crt.tensor``
    would. The rule checks the inputs, then the kernel runs; the GIL is released while a
    Rust or C/C++ kernel runs.

    Parameters
    ----------
    name : str
        A registered operator's name (see ``registered()``).
    *tensors : Tensor or array-like
        The inputs.

    Returns
    -------
    Tensor
        The kernel's output, of the shape and dtype the rule promised.

    Raises
    ------
    InvalidArgumentError
        No operator has that name, or the kernel's result does not match the rule's
        shape and dtype.
    ClikaError
        A ``ClikaError`` raised by the rule or kernel keeps its class.
    InternalError
        The rule or kernel raised any other exception (the message names it).

    Examples
    --------
    >>> crt.ops.register("doc_neg", lambda specs: specs[0], lambda a: -a)
    >>> crt.ops.call("doc_neg", [1.0, 2.0]).tolist()
    [-1.0, -2.0]
    >>> crt.ops.unregister("doc_neg")
    True
    """
    return _native._op_call(name, *tensors)


def unregister(name: str) -> bool:
    """Remove the operator ``name`` (here and in ``libclika_rt``, if loaded).

    Parameters
    ----------
    name : str
        The operator's name.

    Returns
    -------
    bool
        Whether it was registered.

    Examples
    --------
    >>> crt.ops.unregister("no_such_operator")
    False
    """
    return _native._op_unregister(name)


def registered() -> List[str]:
    """The names of the registered operators, sorted (with ``libclika_rt``'s, if loaded).

    Returns
    -------
    list of str
        The names, sorted.

    Examples
    --------
    >>> crt.ops.register("doc_id", lambda specs: specs[0], lambda a: a)
    >>> "doc_id" in crt.ops.registered()
    True
    >>> crt.ops.unregister("doc_id")
    True
    """
    return _native._op_registered()


def link_native(path: Optional[str] = None) -> List[str]:
    """Share operators with the C/C++ library ``libclika_rt``.

    Uses the library already loaded in this process (found by its soname, never loaded
    twice), or the one at ``path``, and registers there every operator of this module it
    lacks. Needed only for operators registered before the library was loaded and not
    followed by any other registry use.

    Parameters
    ----------
    path : str, optional
        The library's file; by default the one already loaded.

    Returns
    -------
    list of str
        The names of the operators registered in the library by this call.

    Raises
    ------
    InvalidArgumentError
        No library is loaded and ``path`` is not given, or ``path`` cannot be loaded (the
        message names the fix).

    Examples
    --------
    >>> try:
    ...     linked = crt.ops.link_native()  # the names it registered there
    ... except crt.InvalidArgumentError:
    ...     linked = None  # no libclika_rt in this process
    >>> linked is None or isinstance(linked, list)
    True
    """
    return _native._op_link_native(path)
