"""Tensors through ``multiprocessing`` without copying their bytes.

Importing ``clika_runtime`` registers a reducer with ``multiprocessing``'s pickler (the one
queues, pipes and ``spawn``/``forkserver`` process arguments use). A shared tensor
(``t.share_memory_()``, ``crt.from_fd``) is sent as its segment's file descriptor
(``multiprocessing.reduction.DupFd``: passed to a starting child directly, or through the
sender's resource-sharer socket for queues and pipes) and the receiver maps the same pages.
Any other tensor is pickled in-band (a copy), as plain ``pickle`` would. See
``docs/processes.md``.
"""

from __future__ import annotations

import os
from multiprocessing import reduction
from typing import Any, Tuple

from clika_runtime import _native


def _rebuild_shared(
    dupfd: Any, dtype: str, shape: Tuple[int, ...], strides: Tuple[int, ...], offset: int, read_only: bool
) -> _native.Tensor:
    fd = dupfd.detach()
    try:
        return _native.from_fd(fd, dtype, shape, offset, strides=strides, read_only=read_only)
    finally:
        os.close(fd)


def _reduce(t: _native.Tensor) -> Tuple[Any, ...]:
    region = t._shared_region()
    if region is None:
        # In-band: multiprocessing's default protocol (4) has no out-of-band buffers.
        return t.__reduce_ex__(4)
    fd, _, offset, read_only = region
    args = (reduction.DupFd(fd), t.dtype.name, t.shape, t.strides, offset, read_only)
    return _rebuild_shared, args


reduction.ForkingPickler.register(_native.Tensor, _reduce)
