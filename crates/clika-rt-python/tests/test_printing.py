"""repr (nested, summarised, print options) vs str (the one-line form), and notebook hooks."""

import numpy as np
import pytest

import clika_runtime as crt


@pytest.fixture(autouse=True)
def _restore_options():
    saved = crt.get_printoptions()
    yield
    crt.set_printoptions(**saved)


def test_repr_is_nested_and_str_is_one_line():
    t = crt.from_numpy(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert repr(t) == "Tensor([[0, 1, 2],\n        [3, 4, 5]], dtype=Int32, device=CPU)"
    assert str(t).startswith("Tensor(shape=[2, 3], dtype=Int32") and "\n" not in str(t)
    # A strided view prints its logical elements.
    assert repr(t.T) == "Tensor([[0, 3],\n        [1, 4],\n        [2, 5]], dtype=Int32, device=CPU)"
    assert repr(crt.zeros(0, 3)).startswith("Tensor([]")


def test_print_options_apply_and_restore():
    assert crt.get_printoptions() == {"precision": 4, "threshold": 1000, "edgeitems": 3}
    f = crt.from_numpy(np.array([1 / 3, 2.0, 0.5, -1.0]))
    crt.set_printoptions(precision=2, threshold=3, edgeitems=1)
    assert repr(f) == "Tensor([ 0.33, ..., -1.  ], dtype=Float64, device=CPU)"
    crt.set_printoptions(threshold=1000)
    assert crt.get_printoptions() == {"precision": 2, "threshold": 1000, "edgeitems": 1}
    assert "..." not in repr(f)
    with pytest.raises(ValueError, match="precision"):
        crt.set_printoptions(precision=99)


def test_summarised_large_tensor():
    big = crt.arange(0, 2000, 1, dtype=crt.int64).reshape(2, 1000)
    r = repr(big)
    assert "..." in r and r.count("\n") == 1 and " 999]" in r


def test_notebook_hooks():
    t = crt.from_numpy(np.array([1, 2], dtype=np.uint8))

    class Printer:
        def __init__(self):
            self.out = []

        def text(self, s):
            self.out.append(s)

    p = Printer()
    t._repr_pretty_(p, False)
    assert p.out == [repr(t)]
    p = Printer()
    t._repr_pretty_(p, True)
    assert p.out == ["Tensor(...)"]
    assert t._repr_html_() == "<pre>" + repr(t) + "</pre>"
    lt = crt.from_numpy(np.array([True]))
    assert "&lt;" not in lt._repr_html_()
