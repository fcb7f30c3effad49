"""Fixtures shared by the test modules."""

from __future__ import annotations

from typing import Iterator, List

import pytest

import clika_runtime as crt


@pytest.fixture
def registered_names() -> Iterator[List[str]]:
    """Operator names a test registers; unregistered (in every registry) afterwards."""
    names: List[str] = []
    yield names
    for n in names:
        crt.ops.unregister(n)
