"""index_add (PyTorch's `index_add`, numpy's `np.add.at` over one axis) against numpy on
contiguous, strided, transposed, broadcast (stride 0) and empty inputs, every numeric dtype
and bool, negative and repeated indices, `alpha`; the in-place form writes through borrowed
memory, refuses memory lent read-only, and writes nothing on any error."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import clika_runtime as crt
from test_ops import LAYOUTS, lay_out
from test_reductions_more import ANY_DTYPE, small_arrays


def model(a, dim, index, source, alpha):
    """np.add.at over axis `dim` (or-ing for bool), in the target's dtype."""
    out = a.copy()
    if a.ndim == 0:
        index, source = index.reshape(()), source
        at = ()
    else:
        at = (slice(None),) * (dim % a.ndim) + (index,)
    if a.dtype == np.bool_:
        scaled = source.astype(bool) & bool(alpha)
        np.logical_or.at(out, at, scaled)
    else:
        with np.errstate(over="ignore"):
            scaled = (source.astype(a.dtype) * np.asarray(alpha).astype(a.dtype)).astype(a.dtype)
            np.add.at(out, at, scaled)
    return out


@st.composite
def index_add_case(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4))
    a = draw(small_arrays(ANY_DTYPE, shape=st.just(shape), lo=-4, hi=4))
    if a.ndim == 0:
        dim, n, size = 0, 1, 1
    else:
        dim = draw(st.integers(-a.ndim, a.ndim - 1))
        n = draw(st.integers(0, 6))
        size = shape[dim % a.ndim]
    index = draw(hnp.arrays(np.int64, (n,), elements=st.integers(-size, size - 1)))
    sshape = list(shape)
    if a.ndim:
        sshape[dim % a.ndim] = n
    if a.dtype == np.bool_:
        source = draw(hnp.arrays(np.bool_, tuple(sshape), elements=st.booleans()))
        alpha = True
    else:
        source = draw(small_arrays([a.dtype.type], shape=st.just(tuple(sshape)), lo=-4, hi=4))
        lo = 0 if a.dtype.kind == "u" else -3
        alpha = draw(st.integers(lo, 3)) if a.dtype.kind in "iu" else draw(st.sampled_from([1, -2, 0.5]))
    return a, dim, index, source, alpha


@given(index_add_case(), st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS), st.booleans())
def test_index_add_matches_np_add_at(case, layout, source_layout, in_place):
    a, dim, index, source, alpha = case
    na, ta = lay_out(a, layout)
    ns, ts = lay_out(source, source_layout if source.size and source.ndim else "contiguous")
    want = model(na, dim, index, ns, alpha)
    if in_place:
        t = crt.tensor(na)  # a private copy to write into
        r = t.index_add_(dim, crt.tensor(index), ts, alpha=alpha)
        assert r is t
    else:
        t = crt.index_add(ta, dim, index, ts, alpha=alpha)
        np.testing.assert_array_equal(np.asarray(ta.numpy()), na)  # the input is kept
    assert t.dtype == ta.dtype and t.shape == na.shape
    if a.dtype.kind == "f":
        np.testing.assert_allclose(np.asarray(t.numpy()), want, rtol=2e-3 if a.dtype == np.float16 else 1e-6)
    else:
        np.testing.assert_array_equal(np.asarray(t.numpy()), want)
    # The method form, with the default alpha.
    np.testing.assert_array_equal(
        np.asarray(ta.index_add(dim, index, ts).numpy()), np.asarray(crt.index_add(ta, dim, index, ts).numpy())
    )


def test_index_add_rows_match_torch_semantics():
    # Long rows accumulate in order; float32 matches np.add.at exactly (same order of additions).
    rng = np.random.default_rng(7)
    a = rng.standard_normal((50, 300)).astype(np.float32)
    index = rng.integers(0, 50, 400)
    source = rng.standard_normal((400, 300)).astype(np.float32)
    want = a.copy()
    np.add.at(want, index, source * np.float32(0.25))
    np.testing.assert_array_equal(np.asarray(crt.index_add(a, 0, index, source, alpha=0.25).numpy()), want)
    # Along the last dim of the transposed problem.
    got = crt.index_add(np.ascontiguousarray(a.T), 1, index, np.ascontiguousarray(source.T), alpha=0.25)
    np.testing.assert_array_equal(np.asarray(got.numpy()), want.T)


def test_index_add_writes_borrowed_memory_and_refuses_read_only():
    a = np.zeros((2, 3), np.float32)
    t = crt.from_numpy(a)
    t.index_add_(1, [2, 2, 0], crt.ones(2, 3), alpha=2)
    np.testing.assert_array_equal(a, [[2, 0, 4], [2, 0, 4]])
    frozen = np.zeros(3, np.float32)
    frozen.flags.writeable = False
    r = crt.from_dlpack(frozen)
    with pytest.raises(crt.ReadOnlyError):
        r.index_add_(0, [0], crt.ones(1))
    assert not frozen.any()


def test_index_add_errors_name_the_fix_and_write_nothing():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = crt.tensor(a)
    for bad, err, match in [
        (lambda: t.index_add_(0, [0, 2], crt.ones(2, 3)), crt.IndexOutOfRangeError, None),
        (lambda: t.index_add_(0, [1, -3], crt.ones(2, 3)), crt.IndexOutOfRangeError, None),
        (lambda: t.index_add_(2, [0], crt.ones(2, 3)), crt.IndexOutOfRangeError, None),
        (lambda: t.index_add_(0, [0], crt.ones(2, 3)), crt.ShapeError, "index's length"),
        (lambda: t.index_add_(0, [[0, 1]], crt.ones(2, 3)), crt.InvalidArgumentError, "1-D integer"),
        (lambda: t.index_add_(0, [0.0, 1.0], crt.ones(2, 3)), crt.InvalidArgumentError, "int64"),
        (lambda: t.index_add_(0, [0, 1], crt.ones(2, 3), alpha=crt.ones(1)), crt.InvalidArgumentError, "number"),
    ]:
        with pytest.raises(err, match=match):
            bad()
    np.testing.assert_array_equal(np.asarray(t.numpy()), a)
    ints = crt.zeros(2, 3, dtype=crt.int32)
    with pytest.raises(crt.DTypeError, match="convert"):
        ints.index_add_(0, [0, 1], crt.ones(2, 3))
    with pytest.raises(crt.DTypeError, match="integer alpha"):
        ints.index_add_(0, [0, 1], crt.ones(2, 3, dtype=crt.int32), alpha=0.5)
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        crt.index_add(crt.zeros(1, dtype=crt.int8), 0, [0], crt.ones(1, dtype=crt.int8), alpha=300)
    assert not np.asarray(ints.numpy()).any()


def test_index_add_of_empty_and_zero_d():
    np.testing.assert_array_equal(np.asarray(crt.index_add(crt.zeros(2, 0), 0, [1], crt.zeros(1, 0)).numpy()), np.zeros((2, 0)))
    np.testing.assert_array_equal(np.asarray(crt.index_add(crt.zeros(2, 3), 1, [], crt.zeros(2, 0)).numpy()), np.zeros((2, 3)))
    assert crt.index_add(crt.tensor(1.5), 0, [0], crt.tensor(2.0), alpha=2).item() == 5.5
