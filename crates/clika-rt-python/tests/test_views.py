"""View methods against numpy: each is a view of the same memory (checked through a write)
unless documented as a copy; contiguous, transposed and empty sources."""

import numpy as np
import pytest

import clika_runtime as crt


def sources():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    yield "contiguous", a, crt.from_numpy(a)
    b = np.ascontiguousarray(np.arange(24, dtype=np.float32).reshape(4, 3, 2).transpose(2, 1, 0))
    t = crt.from_numpy(np.ascontiguousarray(b.transpose(2, 1, 0))).permute(2, 1, 0)
    yield "transposed", b, t


CASES = [
    ("squeeze", lambda a: a[:1].squeeze(0), lambda t: t.narrow(0, 0, 1).squeeze(0)),
    ("unsqueeze", lambda a: np.expand_dims(a, 1), lambda t: t.unsqueeze(1)),
    ("expand", lambda a: np.broadcast_to(a[:, :1], (2, 3, 4)), lambda t: t.narrow(1, 0, 1).expand(2, 3, 4)),
    ("broadcast_to", lambda a: np.broadcast_to(a[0], (5, 3, 4)), lambda t: t.select(0, 0).broadcast_to((5, 3, 4))),
    ("flatten", lambda a: a.reshape(2, 12), lambda t: t.flatten(1)),
    ("unflatten", lambda a: a.reshape(2, 3, 2, 2), lambda t: t.unflatten(2, (2, -1))),
    ("narrow", lambda a: a[:, 1:3], lambda t: t.narrow(1, 1, 2)),
    ("select", lambda a: a[:, -1], lambda t: t.select(1, -1)),
    ("flip", lambda a: np.flip(a, (0, 2)), lambda t: t.flip(0, 2)),
    ("movedim", lambda a: np.moveaxis(a, 0, 2), lambda t: t.movedim(0, 2)),
    ("swapaxes", lambda a: np.swapaxes(a, 0, 2), lambda t: t.swapaxes(0, 2)),
    ("mT", lambda a: np.swapaxes(a, -1, -2), lambda t: t.mT),
    ("diagonal", lambda a: np.diagonal(a, 1, 1, 2), lambda t: t.diagonal(1, 1, 2)),
    ("diagonal-", lambda a: np.diagonal(a, -1, 2, 1), lambda t: t.diagonal(-1, 2, 1)),
]


@pytest.mark.parametrize("name,np_f,crt_f", CASES, ids=[c[0] for c in CASES])
def test_views_match_numpy(name, np_f, crt_f):
    for layout, a, t in sources():
        want, got = np_f(a), crt_f(t)
        assert got.shape == want.shape, (name, layout)
        np.testing.assert_array_equal(got.numpy(), want, err_msg=f"{name} {layout}")


def test_views_share_memory():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    t = crt.from_numpy(a)
    f = t.flip(1).diagonal()
    a[0, 3] = 100.0
    assert f.numpy()[0] == 100.0
    pieces = t.split(2, 1)
    assert [p.shape for p in pieces] == [(3, 2), (3, 2)]
    pieces[1][0, 0] = -5.0
    assert a[0, 2] == -5.0


def test_pieces_match_numpy():
    a = np.arange(10, dtype=np.int32)
    t = crt.from_numpy(a)
    for got, want in zip(t.split([3, 7]), np.split(a, [3])):
        np.testing.assert_array_equal(got.numpy(), want)
    assert [p.shape[0] for p in t.chunk(3)] == [4, 4, 2]
    assert [p.shape[0] for p in t.split(4)] == [4, 4, 2]
    rows = crt.from_numpy(a.reshape(2, 5)).unbind(1)
    assert len(rows) == 5 and rows[4].numpy().tolist() == [4, 9]
    with pytest.raises(ValueError):
        t.split([3, 3])
    e = crt.zeros(0, 3)
    assert e.unbind(0) == ()
    assert [p.shape for p in e.split(2, 1)] == [(0, 2), (0, 1)]


def test_copies_match_numpy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = crt.from_numpy(a)
    c = t.clone()
    assert c.data_ptr() != t.data_ptr()
    np.testing.assert_array_equal(c.numpy(), a)
    np.testing.assert_array_equal(t.repeat(2, 1, 2).numpy(), np.tile(a, (2, 1, 2)))
    np.testing.assert_array_equal(t.repeat((1, 3)).numpy(), np.tile(a, (1, 3)))
    np.testing.assert_array_equal(t.tile((2,)).numpy(), np.tile(a, (2,)))
    np.testing.assert_array_equal(t.T.tile((2, 2)).numpy(), np.tile(a.T, (2, 2)))
    assert crt.zeros(0, 2).tile((3, 1)).shape == (0, 2)
    with pytest.raises(crt.InvalidArgumentError, match="tile"):
        t.repeat(2)


def test_t_is_pytorchs_two_dim_transpose():
    """`t()` as PyTorch: 2-D swapped, 0-D/1-D as they are (all views), more dims refused."""
    for layout, a, t in sources():
        for name, na, ta in [
            ("2-D", a[0], t.select(0, 0)),
            ("strided", a[:, 1, ::2], t.select(1, 1).narrow(1, 0, 4)[:, ::2]),
            ("broadcast", np.broadcast_to(a[0, :1], (3, 4)), t.select(0, 0).narrow(0, 0, 1).expand(3, 4)),
            ("empty", a[0, :0], t.select(0, 0).narrow(0, 0, 0)),
            ("1-D", a[1, 2], t[1, 2]),
            ("0-D", a[1, 2, 3], t[1, 2, 3]),
        ]:
            want = na.T if na.ndim == 2 else na
            got = ta.t()
            assert got.shape == want.shape, (layout, name)
            np.testing.assert_array_equal(got.numpy(), want, err_msg=f"t() {layout} {name}")
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = crt.from_numpy(a).t()
    a[1, 0] = -1.0
    assert v.numpy()[0, 1] == -1.0
    with pytest.raises(crt.InvalidArgumentError, match=r"\.mT"):
        crt.zeros(2, 2, 2).t()
