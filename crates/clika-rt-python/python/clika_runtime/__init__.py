"""ClikaRT for Python: tensors over memory you already own, without a copy.

``crt.from_numpy(a)`` wraps a numpy array's own memory (no copy, mutation aliases both
ways, the tensor keeps the array alive and numpy refuses to resize it while borrowed);
``t.numpy()`` and ``np.asarray(t)`` view a tensor's memory from numpy; ``crt.from_dlpack``
and ``t.__dlpack__`` exchange memory with any DLPack library. ``crt.tensor(obj)`` is the
copying entry.

Operations follow numpy and PyTorch: operators (``+ - * / ** @``, comparisons, in-place
``+=``), methods and ``crt.`` functions (``add``, ``exp``, ``sum(dim=, keepdim=)``,
``softmax``, ``matmul``, ``where``, ``clamp``, ``cat``, ...) with broadcasting, weak Python
scalars and ``out=`` on the elementwise functions.
"""

from clika_runtime import _native
from clika_runtime import ops
from clika_runtime import _processes  # noqa: F401  (registers the multiprocessing reducer)

# The public API is the extension's own list of what it registers (its ``__all__``), so no
# name is written twice here; ``__init__.pyi`` spells it out for type checkers, and
# ``tests/test_names.py`` checks that the two and ``_native.pyi`` agree.
__all__ = sorted([*(name for name in _native.__all__ if not name.startswith("_")), "ops"])
globals().update({name: getattr(_native, name) for name in __all__ if name != "ops"})
__version__: str = _native.__version__
