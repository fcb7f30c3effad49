"""Indexing against numpy: basic keys give views, integer/boolean index arrays (advanced
indexing) give copies with numpy's broadcasting and placement rules, and assignment
writes through both. Contiguous, strided, broadcast (stride 0) and empty sources."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clika_runtime as crt


def layouts(base):
    """The same values in several layouts: contiguous, transposed twice, strided, broadcast."""
    yield "contiguous", base
    yield "transposed", np.ascontiguousarray(base.T).T
    pad = np.zeros(base.shape[:-1] + (base.shape[-1] * 2,), base.dtype) if base.ndim else None
    if pad is not None:
        pad[..., ::2] = base
        yield "strided", pad[..., ::2]


def tensor_like(a):
    """A tensor with `a`'s values and strides (a view over a copy of its base)."""
    t = crt.from_numpy(np.ascontiguousarray(a))
    return t


KEYS = [
    (0,),
    (-1,),
    (slice(None, None, -1),),
    (slice(1, None, 2), 0),
    (None, Ellipsis, 1),
    ([0, 2],),
    ([[0, 1], [2, 0]],),
    (np.array([2, 0, 1]),),
    (Ellipsis, [1, 0]),
    (0, [0, 2]),
    ([0, 1], slice(None), 0),
    (0, slice(None), [0, 1]),
    (slice(None), [1, 1, 0]),
    ([0, 2], [1, 0]),
    ([[0], [2]], [1, 0]),
    (-1, [-1, 0]),
    ([],),
]


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_getitem_matches_numpy(key):
    base = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)
    for name, a in layouts(base):
        t = crt.tensor(a) if name != "contiguous" else crt.from_numpy(a)
        want = a[key]
        got = t[key]
        assert got.shape == want.shape, (name, key)
        np.testing.assert_array_equal(got.numpy(), want, err_msg=f"{name} {key}")


def test_boolean_masks():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    t = crt.from_numpy(a)
    np.testing.assert_array_equal(t[t > 10].numpy(), a[a > 10])
    row = np.array([True, False, True, False])
    np.testing.assert_array_equal(t[row].numpy(), a[row])
    np.testing.assert_array_equal(t[crt.from_numpy(row)].numpy(), a[row])
    col = np.array([False, True, True, False, False, True])
    np.testing.assert_array_equal(t[:, col].numpy(), a[:, col])
    np.testing.assert_array_equal(t[1:, col].numpy(), a[1:, col])
    none = np.zeros((4, 6), bool)
    assert t[none].shape == (0,)
    with pytest.raises(crt.InvalidArgumentError):
        t[np.array([True, False])]  # wrong length


def test_basic_keys_are_views_advanced_keys_copy():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    t = crt.from_numpy(a)
    v = t[1:, ::2]
    assert v.data_ptr() == a[1:, ::2].ctypes.data
    c = t[[0, 2]]
    a[0, 0] = 100.0
    assert c.numpy()[0, 0] == 0.0  # a copy
    assert t[0, 0].item() == 100.0  # the view sees the write


def test_broadcast_and_empty_sources():
    a = np.broadcast_to(np.arange(5, dtype=np.int64), (3, 5))
    t = crt.tensor(np.arange(5, dtype=np.int64)).expand(3, 5) if hasattr(crt.Tensor, "expand") else crt.tensor(a)
    np.testing.assert_array_equal(t[[2, 0], [4, 1]].numpy(), a[[2, 0], [4, 1]])
    e = np.zeros((0, 3), np.float32)
    te = crt.from_numpy(e)
    assert te[[]].shape == e[[]].shape
    assert te[:, [0, 2]].shape == (0, 2)
    with pytest.raises(crt.IndexOutOfRangeError):
        te[[0]]


def test_index_errors_name_the_problem():
    t = crt.zeros(3, 4)
    with pytest.raises(IndexError):
        t[[0, 3]]
    with pytest.raises(IndexError):
        t[2**70]
    with pytest.raises(IndexError, match="out of range"):
        t[5]
    with pytest.raises(crt.InvalidArgumentError):
        t[crt.tensor([0.5])]
    with pytest.raises(crt.InvalidArgumentError):
        t[0, 0, 0]


@pytest.mark.parametrize(
    "key",
    [0, -1, (slice(None), 1), (slice(1, None, 2),), ([0, 2],), (0, [1, 3]), ([0, 1], [1, 0]), (Ellipsis, [3, 0])],
    ids=repr,
)
def test_setitem_matches_numpy(key):
    for value in (7.5, np.float32(-2), np.arange(4, dtype=np.float32)):
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        want = a.copy()
        try:
            want[key] = value
        except ValueError:
            continue  # numpy refuses this broadcast too
        t = crt.from_numpy(a)
        t[key] = value
        np.testing.assert_array_equal(a, want, err_msg=f"{key} = {value!r}")


def test_setitem_masks_tensors_and_views():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    t = crt.from_numpy(a)
    t[t > 8] = 0
    assert a.max() == 8
    t[0] = crt.tensor([9, 9, 9, 9], dtype=crt.int32)
    assert list(a[0]) == [9, 9, 9, 9]
    t[:, 1] = t[:, 0]  # overlapping source: read before written
    np.testing.assert_array_equal(a[:, 1], a[:, 0])
    t[[2, 2], [0, 1]] = crt.tensor([5, 6], dtype=crt.int32)
    assert list(a[2, :2]) == [5, 6]


def test_setitem_refuses_read_only_memory():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    t = crt.from_dlpack(a)
    with pytest.raises(crt.ReadOnlyError):
        t[0] = 1.0
    with pytest.raises(crt.ReadOnlyError):
        t[[0, 1]] = 1.0
    assert a[0] == 0.0


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(0, 4), min_size=1, max_size=3),
    data=st.data(),
)
def test_random_integer_indices_match_numpy(shape, data):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    t = crt.from_numpy(a)
    dim = data.draw(st.integers(0, len(shape) - 1))
    n = shape[dim]
    if n == 0:
        idx = np.zeros(0, np.int64)
    else:
        idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), max_size=5)), np.int64)
    key = (slice(None),) * dim + (idx,)
    np.testing.assert_array_equal(t[key].numpy(), a[key])
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), bool).reshape(n)
    key = (slice(None),) * dim + (mask,)
    np.testing.assert_array_equal(t[key].numpy(), a[key])


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_masks_over_dims_of_strided_views_with_other_indices(data):
    # A boolean mask over any run of dims of a transposed or sliced view, alone or next to
    # an integer array (broadcast against the mask's hits) or an int, read and written as
    # numpy does; the mask's hits become element offsets in one pass over it.
    nd = data.draw(st.integers(2, 4))
    shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=nd, max_size=nd)))
    base = np.arange(int(np.prod(shape)) * 2, dtype=np.float64)
    a = base[: int(np.prod(shape))].reshape(shape)
    how = data.draw(st.sampled_from(["contiguous", "transposed", "sliced"]))
    if how == "transposed":
        a = np.ascontiguousarray(a.T).T  # same logical array, reversed strides
        t = crt.tensor(np.ascontiguousarray(a.T)).permute(*reversed(range(nd)))
    elif how == "sliced":
        big = np.arange(int(np.prod(shape)) * 2 ** nd, dtype=np.float64).reshape(
            tuple(2 * s for s in shape))
        a = big[tuple(slice(None, None, 2) for _ in shape)]
        t = crt.tensor(big)[tuple(slice(None, None, 2) for _ in shape)]
    else:
        t = crt.tensor(a)
    np.testing.assert_array_equal(t.numpy(), a)
    k = data.draw(st.integers(1, nd))
    d = data.draw(st.integers(0, nd - k))
    mshape = shape[d:d + k]
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)),
                                       max_size=int(np.prod(mshape)))), bool).reshape(mshape)
    key = [slice(None)] * nd
    key[d] = mask
    for j in range(d + 1, d + k):
        key[j] = None  # placeholder, dropped below
    key = [e for e in key if e is not None]
    others = [i for i in range(len(key)) if not isinstance(key[i], np.ndarray)]
    extra = data.draw(st.sampled_from(["none", "array", "int"])) if others else "none"
    if extra != "none":
        pos = data.draw(st.sampled_from(others))
        size = shape[pos if pos < d else pos + k - 1]
        if size == 0:
            extra = "none"
        elif extra == "int":
            key[pos] = data.draw(st.integers(-size, size - 1))
        else:
            n = int(mask.sum())
            length = data.draw(st.sampled_from([1, n])) if n else 1
            key[pos] = np.array(data.draw(st.lists(st.integers(-size, size - 1),
                                                   min_size=length, max_size=length)), np.int64)
    key = tuple(key)
    want = a[key]
    got = t[key]
    assert got.shape == want.shape, key
    np.testing.assert_array_equal(got.numpy(), want)
    # Writing through the same key: a broadcast value and one of the result's shape.
    w, u = a.copy(), t.clone()
    w[key] = -1.0
    u[key] = -1.0
    np.testing.assert_array_equal(u.numpy(), w)
    vals = -np.arange(want.size, dtype=np.float64).reshape(want.shape) - 2
    w[key] = vals
    u[key] = vals
    np.testing.assert_array_equal(u.numpy(), w)


def _large_layouts(rng):
    """A (60, 700, 9) float32 source (378,000 elements, past the parallel threshold) as
    numpy and crt twins: contiguous, transposed in memory, strided and flipped."""
    base = rng.standard_normal((60, 700, 9)).astype(np.float32)
    yield "contiguous", base, crt.tensor(base)
    mem = np.ascontiguousarray(base.transpose(2, 1, 0))
    yield "transposed", mem.transpose(2, 1, 0), crt.tensor(mem).permute(2, 1, 0)
    big = rng.standard_normal((60, 1400, 9)).astype(np.float32)
    yield "strided", big[:, ::2], crt.tensor(big)[:, ::2]
    yield "flipped", big[::-1, 700:], crt.tensor(big).flip(0)[:, 700:]


@pytest.mark.parametrize(
    "key",
    [
        (slice(None), "idx"),  # dims before and after the index
        (slice(None), slice(None), "idx9"),  # dims before only
        ("idx60",),  # dims after only
        (slice(None), "idx", [[1], [4]]),  # two index arrays, broadcast
        ("idx60", slice(None), [[3], [5]]),  # non-adjacent: the index dims go first
    ],
    ids=repr,
)
def test_large_advanced_keys_read_and_write_in_placed_order(key):
    # Large enough that the gather and the scatter split their work across threads; the
    # result comes out contiguous in numpy's placement, whatever the source's layout.
    rng = np.random.default_rng(5)
    picks = {
        "idx": rng.integers(-700, 700, size=350),
        "idx9": np.array([8, 0, 0, 4, -1]),
        "idx60": rng.integers(0, 60, size=(2, 30)),
    }
    def resolve(k):
        return tuple(picks[e] if isinstance(e, str) else e for e in k)
    for name, a, t in _large_layouts(rng):
        np.testing.assert_array_equal(t.numpy(), a)
        k = resolve(key)
        want = a[k]
        got = t[tuple(crt.tensor(e) if isinstance(e, np.ndarray) else e for e in k)]
        assert got.is_contiguous(), (name, key)
        np.testing.assert_array_equal(got.numpy(), want, err_msg=f"{name} {key}")
        # Write distinct values through the same kind of key (1-D arrays without repeats),
        # then read the whole source back.
        if any(isinstance(e, np.ndarray) and e.ndim > 1 for e in k):
            continue
        uniq = tuple(np.unique(e % n) if isinstance(e, np.ndarray) else e for e, n in zip(k, a.shape))
        value = rng.standard_normal(a[uniq].shape).astype(np.float32)
        want = a.copy()
        want[uniq] = value
        t[uniq] = value
        np.testing.assert_array_equal(t.numpy(), want, err_msg=f"{name} {key} =")


def test_large_writes_with_repeated_positions_keep_the_last():
    # t[:, idx] = v with repeats in idx: the last position's value wins in every row, on
    # the threads' path (rows split across threads) as on one.
    rng = np.random.default_rng(6)
    a = np.zeros((600, 300), np.float32)
    t = crt.tensor(a)
    idx = rng.integers(0, 300, size=400)
    v = rng.standard_normal((600, 400)).astype(np.float32)
    t[:, crt.tensor(idx)] = crt.tensor(v)
    want = a.copy()
    for j, c in enumerate(idx):
        want[:, c] = v[:, j]
    np.testing.assert_array_equal(t.numpy(), want)


def test_writes_through_an_expanded_view_go_in_order():
    # An expanded destination: every row is the same memory, so rows cannot be written at
    # once; one thread writes them in order and the last row's values stay.
    b = crt.zeros(1, 4)
    e = b.expand(70_000, 4)
    v = np.arange(140_000, dtype=np.float32).reshape(70_000, 2)
    e[:, [0, 2]] = crt.tensor(v)
    np.testing.assert_array_equal(b.numpy(), [[v[-1, 0], 0, v[-1, 1], 0]])
