"""The named indexing functions against numpy: gather (take_along_axis), scatter
(put_along_axis), scatter_add (np.add.at), scatter_reduce (PyTorch's rules, written out),
index_select (take), masked_select, masked_fill and nonzero (argwhere / nonzero), and the
values-only amax/amin, on contiguous, strided, transposed, broadcast (stride 0) and empty
inputs; in-place forms write through borrowed memory and refuse memory lent read-only."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import clika_runtime as crt
from test_ops import LAYOUTS, lay_out
from test_random import outputs_on_one_thread_and_four
from test_reductions_more import ANY_DTYPE, small_arrays


@st.composite
def gather_case(draw):
    """(array, dim, index): the index has the array's rank, is no larger off `dim`, and any
    length along it; its values cover -size..size-1."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = draw(small_arrays(ANY_DTYPE, shape=st.just(shape), lo=-4, hi=4))
    dim = draw(st.integers(-a.ndim, a.ndim - 1))
    d = dim % a.ndim
    ishape = tuple(draw(st.integers(0, 5)) if k == d else draw(st.integers(1, n)) for k, n in enumerate(shape))
    size = shape[d]
    index = draw(hnp.arrays(np.int64, ishape, elements=st.integers(-size, size - 1)))
    return a, dim, index


def arr(t):
    return np.asarray(t.numpy())


def model_scatter(a, dim, index, src, add):
    """numpy's reference: the target of every index position, written (or added) in
    row-major order."""
    out = a.copy()
    d = dim % a.ndim
    for p in np.ndindex(*index.shape):
        q = list(p)
        q[d] = index[p]
        q = tuple(q)
        if add:
            out[q] = np.logical_or(out[q], src[p]) if a.dtype == np.bool_ else out[q] + src[p]
        else:
            out[q] = src[p]
    return out


@given(gather_case(), st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS))
def test_gather_matches_take_along_axis(case, layout, index_layout):
    a, dim, index = case
    na, ta = lay_out(a, layout)
    ni, ti = lay_out(index, index_layout if index.size else "contiguous")
    got = crt.gather(ta, dim, ti)
    # numpy broadcasts a smaller index; PyTorch (and we) read the leading block instead.
    lead = na[tuple(slice(0, n) if k != dim % a.ndim else slice(None) for k, n in enumerate(ni.shape))]
    want = np.take_along_axis(lead, ni, axis=dim)
    assert got.dtype == ta.dtype and got.shape == want.shape
    np.testing.assert_array_equal(arr(got), want)
    np.testing.assert_array_equal(arr(ta.gather(dim, ni)), want)  # a numpy index is copied


@given(gather_case(), st.sampled_from(LAYOUTS), st.booleans(), st.data())
def test_scatter_and_scatter_add_match_the_model(case, layout, in_place, data):
    a, dim, index = case
    na, ta = lay_out(a, layout)
    # src one longer than the index in its last dim: only the leading part is read.
    sshape = index.shape[:-1] + (index.shape[-1] + 1,)
    if a.dtype == np.bool_:
        src = data.draw(hnp.arrays(np.bool_, sshape, elements=st.booleans()))
    else:
        src = data.draw(small_arrays([a.dtype.type], shape=st.just(sshape), lo=-4, hi=4))
    for add in (False, True):
        want = model_scatter(na, dim, index, src, add)
        if in_place:
            t = crt.tensor(na)  # a private copy to write into
            r = (t.scatter_add_ if add else t.scatter_)(dim, crt.tensor(index), crt.tensor(src))
            assert r is t
            got = t
        else:
            f = crt.scatter_add if add else crt.scatter
            got = f(ta, dim, crt.tensor(index), crt.tensor(src))
            np.testing.assert_array_equal(arr(ta), na)  # the input is unchanged
        assert got.dtype == ta.dtype and got.shape == na.shape
        np.testing.assert_array_equal(arr(got), want)


def test_scatter_takes_numbers_and_repeats_in_order():
    t = crt.zeros(2, 3, dtype=crt.int32)
    index = crt.tensor([[2, 2, 0], [1, 1, 1]])
    src = crt.tensor([[1, 2, 3], [4, 5, 6]], dtype=crt.int32)
    assert crt.scatter(t, 1, index, src).tolist() == [[3, 0, 2], [0, 6, 0]]  # last write wins
    assert crt.scatter_add(t, 1, index, src).tolist() == [[3, 0, 3], [0, 15, 0]]
    assert crt.scatter(t, 1, index, value=7).tolist() == [[7, 0, 7], [0, 7, 0]]
    assert t.scatter(1, index, 9).tolist() == [[9, 0, 9], [0, 9, 0]]
    # A histogram: np.add.at's job.
    bins = crt.scatter_add(crt.zeros(5, dtype=crt.int64), 0, crt.tensor([4, 1, 4, 4]), 1)
    want = np.zeros(5, np.int64)
    np.add.at(want, [4, 1, 4, 4], 1)
    np.testing.assert_array_equal(arr(bins), want)
    with pytest.raises(crt.InvalidArgumentError, match="exactly one of src"):
        crt.scatter(t, 1, index)
    with pytest.raises(crt.InvalidArgumentError, match="exactly one of src"):
        crt.scatter(t, 1, index, src, value=1)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        crt.scatter(crt.zeros(2, dtype=crt.uint8), 0, crt.tensor([0]), 300)


def test_long_histograms_run_in_parallel_with_the_same_sums_on_one_thread():
    """A histogram-shaped scatter_add (300,001 positions into 1,000 bins) sums fixed blocks
    of positions in parallel: the same bits with one thread or four, close to np.add.at in
    float64; integer counts exactly np.add.at's; an out-of-range value leaves the target."""
    code = (
        "import clika_runtime as crt, numpy as np, hashlib;"
        "rng = np.random.default_rng(3);"
        "idx = rng.integers(0, 1000, 300_001);"
        "v = np.where(rng.random(300_001) < 0.1, 3e7, 0.75).astype(np.float32);"
        "r = crt.zeros(1000).scatter_add_(0, crt.from_numpy(idx), crt.from_numpy(v));"
        "print(hashlib.sha256(r.numpy().tobytes()).hexdigest())"
    )
    assert len(outputs_on_one_thread_and_four(code)) == 1
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 1000, 300_001)
    v = np.where(rng.random(300_001) < 0.1, 3e7, 0.75).astype(np.float32)
    got = crt.zeros(1000).scatter_add_(0, crt.from_numpy(idx), crt.from_numpy(v))
    want = np.zeros(1000)
    np.add.at(want, idx, v.astype(np.float64))
    np.testing.assert_allclose(arr(got), want, rtol=1e-5)
    counts = crt.zeros(1000, dtype=crt.int64).scatter_add_(0, crt.from_numpy(idx), 1)
    np.testing.assert_array_equal(arr(counts), np.bincount(idx, minlength=1000))
    bad = idx.copy()
    bad[-1] = 1000
    with pytest.raises(crt.IndexOutOfRangeError, match="1000"):
        counts.scatter_add_(0, crt.from_numpy(bad), 1)
    np.testing.assert_array_equal(arr(counts), np.bincount(idx, minlength=1000))


def test_in_place_forms_write_borrowed_memory_and_refuse_read_only():
    a = np.zeros((2, 3), np.float32)
    t = crt.from_numpy(a)
    t.scatter_(1, crt.tensor([[1], [2]]), 4.0)
    t.scatter_add_(0, crt.tensor([[1, 1, 1]]), crt.ones(1, 3))
    t.masked_fill_(t == 0, -1.0)
    np.testing.assert_array_equal(a, [[-1, 4, -1], [1, 1, 5]])
    frozen = np.zeros(3, np.float32)
    frozen.flags.writeable = False
    r = crt.from_dlpack(frozen)  # borrowed read-only
    for f in (
        lambda: r.scatter_(0, crt.tensor([0]), 1.0),
        lambda: r.scatter_add_(0, crt.tensor([0]), 1.0),
        lambda: r.masked_fill_(crt.tensor([True, False, True]), 1.0),
    ):
        with pytest.raises(crt.ReadOnlyError):
            f()
    assert not frozen.any()


def test_bad_indices_name_the_fix():
    t = crt.zeros(2, 3)
    with pytest.raises(crt.InvalidArgumentError, match="to\\(int64\\)"):
        crt.gather(t, 1, crt.zeros(2, 1))
    with pytest.raises(crt.InvalidArgumentError, match="unsqueeze"):
        crt.gather(t, 1, crt.tensor([0, 1]))
    with pytest.raises(crt.IndexOutOfRangeError):
        crt.gather(t, 1, crt.tensor([[3], [0]]))
    with pytest.raises(crt.IndexOutOfRangeError):
        crt.gather(t, 2, crt.tensor([[0], [0]]))
    with pytest.raises(crt.ShapeError):
        crt.gather(t, 1, crt.zeros(3, 1, dtype=crt.int64))
    with pytest.raises(crt.ShapeError):
        crt.scatter(t, 1, crt.zeros(2, 2, dtype=crt.int64), crt.zeros(2, 1))
    before = t.tolist()
    with pytest.raises(crt.IndexOutOfRangeError):
        t.scatter_add_(1, crt.tensor([[0, 5]]), crt.ones(1, 2))
    assert t.tolist() == before


@given(small_arrays(ANY_DTYPE, max_dims=3, lo=-3, hi=3), st.sampled_from(LAYOUTS), st.data())
def test_index_select_masked_select_and_nonzero_match_numpy(a, layout, data):
    na, ta = lay_out(a, layout)
    np.testing.assert_array_equal(arr(crt.nonzero(ta)), np.argwhere(na))
    np.testing.assert_array_equal(arr(ta.nonzero()), np.argwhere(na))
    for got, want in zip(crt.nonzero(ta, as_tuple=True), np.nonzero(np.atleast_1d(na))):
        np.testing.assert_array_equal(arr(got), want)
    mask = na.astype(bool) if na.dtype != np.bool_ else ~na
    np.testing.assert_array_equal(arr(crt.masked_select(ta, crt.tensor(mask))), na[mask])
    np.testing.assert_array_equal(arr(ta.masked_select(mask)), na[mask])
    filled = crt.masked_fill(ta, crt.tensor(mask), 1)
    assert filled.dtype == ta.dtype
    np.testing.assert_array_equal(arr(filled), np.where(mask, na.dtype.type(1), na))
    np.testing.assert_array_equal(arr(ta.masked_fill(mask, crt.tensor(1))), np.where(mask, na.dtype.type(1), na))
    if a.ndim:
        dim = data.draw(st.integers(-a.ndim, a.ndim - 1))
        n = a.shape[dim]
        idx = data.draw(hnp.arrays(np.int64, st.integers(0, 4), elements=st.integers(-n, n - 1))) if n else np.zeros(0, np.int64)
        want = np.take(na, idx, axis=dim)
        np.testing.assert_array_equal(arr(crt.index_select(ta, dim, crt.tensor(idx))), want)
        np.testing.assert_array_equal(arr(ta.index_select(dim, idx)), want)


@given(small_arrays(ANY_DTYPE, max_dims=3, lo=-5, hi=5), st.sampled_from(LAYOUTS[:3]), st.booleans(), st.data())
def test_masked_fill_in_place_and_mask_assignment_write_through_every_layout(a, layout, row_mask, data):
    # In place on the tensor's own memory (one pass, no temporary): contiguous, strided and
    # transposed targets; a full mask or one broadcast along the rows; a mask given as
    # `t[mask] = v` too (the full-shape boolean case runs the same fill).
    mask_shape = a.shape[-1:] if (row_mask and a.ndim) else a.shape
    mask = data.draw(hnp.arrays(np.bool_, mask_shape))
    value = a.dtype.type(1) if a.dtype != np.bool_ else True
    na, ta = lay_out(a.copy(), layout)
    want = np.where(mask, value, na)
    ta.masked_fill_(crt.tensor(mask), 1)
    np.testing.assert_array_equal(na, want)  # written through the borrowed numpy memory
    nb, tb = lay_out(a.copy(), layout)
    full = np.broadcast_to(mask, nb.shape).copy()
    tb[crt.tensor(full)] = 1
    np.testing.assert_array_equal(nb, want)
    nc, tc = lay_out(a.copy(), layout)
    tc[crt.tensor(full)] = crt.tensor([1], dtype=tc.dtype)
    np.testing.assert_array_equal(nc, want)


def test_masked_fill_in_place_with_a_mask_or_value_from_its_own_memory():
    # The mask is the tensor itself, or its transpose (read in full before any write).
    a = np.array([[True, False, True], [False, False, True], [True, True, False]])
    t = crt.from_numpy(a)
    t.masked_fill_(t, False)
    assert not a.any()
    b = np.array([[True, False, True], [False, False, True], [True, True, False]])
    want = np.where(b.T, False, b)
    t = crt.from_numpy(b)
    t.masked_fill_(t.T, False)
    np.testing.assert_array_equal(b, want)
    # `t[mask] = t[0, 0]`: the value is one of the elements written.
    c = np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    t = crt.from_numpy(c)
    t[crt.tensor(c > 2)] = t[0, 0]
    np.testing.assert_array_equal(c, [[1, 2, 1], [1, 1, 1]])
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        crt.zeros(2, dtype=crt.int8).masked_fill_(crt.tensor([True, False]), 1000)


def test_masked_fill_broadcasts_the_mask_and_checks_the_value():
    t = crt.arange(6).reshape(2, 3)
    assert crt.masked_fill(t, crt.tensor([True, False, True]), -1).tolist() == [[-1, 1, -1], [-1, 4, -1]]
    with pytest.raises(crt.InvalidArgumentError, match="crt.where"):
        crt.masked_fill(t, t > 2, crt.tensor([1, 2]))
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        crt.masked_fill(crt.zeros(2, dtype=crt.int8), crt.tensor([True, True]), 1000)


@given(small_arrays(ANY_DTYPE, max_dims=3, lo=-5, hi=5), st.sampled_from(LAYOUTS), st.booleans(), st.data())
def test_amax_amin_match_numpy_max_min(a, layout, keepdim, data):
    na, ta = lay_out(a, layout)
    dims = data.draw(st.lists(st.integers(0, max(a.ndim - 1, 0)), unique=True, max_size=a.ndim))
    axis = tuple(dims) if dims else None
    reduced = range(a.ndim) if axis is None else axis
    if any(na.shape[d] == 0 for d in reduced):
        # No maximum of nothing, even for an empty output (numpy and PyTorch raise too).
        with pytest.raises(crt.InvalidArgumentError):
            crt.amax(ta, tuple(dims), keepdim)
        return
    for ours, theirs in ((crt.amax, np.max), (crt.amin, np.min)):
        got = ours(ta, dim=tuple(dims), keepdim=keepdim)
        want = theirs(na, axis=axis, keepdims=keepdim)
        assert got.dtype == ta.dtype and got.shape == np.shape(want)
        np.testing.assert_array_equal(arr(got), want)
    if dims:
        np.testing.assert_array_equal(arr(ta.amax(dims[0])), np.max(na, axis=dims[0]))
        np.testing.assert_array_equal(arr(ta.amin(dims[0], keepdim=True)), np.min(na, axis=dims[0], keepdims=True))


def test_max_dim_values_sit_at_their_indices():
    a = np.array([[3.0, np.nan, 1.0], [5.0, 5.0, -2.0]], np.float32)
    t = crt.from_numpy(a)
    v, i = t.max(1)
    np.testing.assert_array_equal(arr(i), [1, 0])
    np.testing.assert_array_equal(arr(v), [np.nan, 5.0])
    v, i = crt.min(t.T, 0, keepdim=True)
    assert v.shape == i.shape == (1, 2)
    np.testing.assert_array_equal(arr(i), [[1, 2]])  # NaN is the minimum too
    np.testing.assert_array_equal(arr(v), [[np.nan, -2.0]])
    big = np.random.default_rng(0).standard_normal((300, 257)).astype(np.float32)
    for dim in (0, 1):
        v, i = crt.from_numpy(big).max(dim)
        np.testing.assert_array_equal(arr(i), big.argmax(dim))
        np.testing.assert_array_equal(arr(v), big.max(dim))


REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def model_scatter_reduce(a, dim, index, src, reduce, include_self):
    """PyTorch's scatter_reduce, written out: the values reaching each target gathered in
    row-major order, reduced in float64/int64 (sums and products wrap like the dtype's once
    cast back)."""
    d = dim % a.ndim
    reach = {}
    for p in np.ndindex(*index.shape):
        q = list(p)
        q[d] = index[p] % a.shape[d]  # -1 and size-1 are one target
        reach.setdefault(tuple(q), []).append(src[p])
    out = a.copy()
    wide = np.float64 if a.dtype.kind == "f" else np.int64
    for q, vals in reach.items():
        vals = ([a[q]] if include_self else []) + vals
        if a.dtype == np.bool_:
            out[q] = any(vals) if reduce in ("sum", "amax") else all(vals)
            continue
        v = np.array(vals).astype(wide)
        if reduce == "sum":
            r = v.sum()
        elif reduce == "prod":
            r = v.prod()
        elif reduce == "amax":
            r = v.max()
        elif reduce == "amin":
            r = v.min()
        elif a.dtype.kind == "f":
            r = v.sum() / len(v)
        else:
            r = np.floor_divide(v.sum(), len(v))
        out[q] = np.array(r).astype(a.dtype)
    return out


@given(gather_case(), st.sampled_from(LAYOUTS), st.sampled_from(REDUCES), st.booleans(), st.booleans(), st.data())
def test_scatter_reduce_matches_the_model(case, layout, reduce, include_self, in_place, data):
    a, dim, index = case
    na, ta = lay_out(a, layout)
    if a.dtype == np.bool_:
        src = data.draw(hnp.arrays(np.bool_, index.shape, elements=st.booleans()))
    else:
        src = data.draw(small_arrays([a.dtype.type], shape=st.just(index.shape), lo=-4, hi=4))
    if reduce == "mean" and a.dtype == np.bool_:
        with pytest.raises(crt.InvalidArgumentError, match="float dtype"):
            crt.scatter_reduce(ta, dim, crt.tensor(index), crt.tensor(src), reduce)
        return
    want = model_scatter_reduce(na, dim, index, src, reduce, include_self)
    if in_place:
        t = crt.tensor(na)
        r = t.scatter_reduce_(dim, crt.tensor(index), crt.tensor(src), reduce, include_self=include_self)
        assert r is t
        got = t
    else:
        got = ta.scatter_reduce(dim, crt.tensor(index), crt.tensor(src), reduce, include_self=include_self)
        np.testing.assert_array_equal(arr(ta), na)
    assert got.dtype == ta.dtype and got.shape == na.shape
    if reduce in ("sum", "prod", "mean") and a.dtype.kind == "f":
        # The model reduces in float64 and rounds once; the kernel rounds every step.
        f16 = a.dtype == np.float16
        np.testing.assert_allclose(arr(got), want, rtol=1e-2 if f16 else 1e-5, atol=0.1 if f16 else 1e-4)
    else:
        np.testing.assert_array_equal(arr(got), want)


def test_scatter_reduce_edges():
    t = crt.tensor([0.0, 5.0])
    src = crt.tensor([float("nan"), 1.0, 7.0])
    for reduce in ("amax", "amin"):
        assert np.isnan(crt.scatter_reduce(t, 0, [0, 0, 1], src, reduce).tolist()[0])
    # Integer means floor, as PyTorch's: (-1 + -2) / 2 is -2.
    i = crt.tensor([0, 1], dtype=crt.int32)
    got = crt.scatter_reduce(i, 0, [0, 0, 1], crt.tensor([-1, -2, 3], dtype=crt.int32), "mean", include_self=False)
    assert got.tolist() == [-2, 3]
    with pytest.raises(crt.InvalidArgumentError, match='"amax"'):
        crt.scatter_reduce(t, 0, [0], 1.0, "max")
    # Borrowed memory is written in place; a bad index leaves it, and read-only is refused.
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = crt.from_numpy(a)
    b.scatter_reduce_(0, crt.tensor([2, 2]), crt.tensor([4.0, 8.0]), "mean", include_self=False)
    np.testing.assert_array_equal(a, [1, 2, 6])
    for include_self in (True, False):
        with pytest.raises(crt.IndexOutOfRangeError):
            b.scatter_reduce_(0, crt.tensor([0, 3]), 1.0, "prod", include_self=include_self)
        np.testing.assert_array_equal(a, [1, 2, 6])
    frozen = np.zeros(3, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(crt.ReadOnlyError):
        crt.from_dlpack(frozen).scatter_reduce_(0, crt.tensor([0]), 1.0, "sum")
    assert not frozen.any()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.int64, np.uint64])
@pytest.mark.parametrize("n", [0, 1, 9, 200_003])
def test_bincount_matches_numpy(layout, dtype, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 50 if n < 1000 else 3000, n).astype(dtype)
    na, ta = lay_out(a, layout)
    for minlength in (0, 7, 60):
        got = crt.bincount(ta, minlength=minlength)
        assert got.dtype == crt.int64
        np.testing.assert_array_equal(arr(got), np.bincount(na, minlength=minlength))
    assert ta.bincount().tolist() == np.bincount(na).tolist()
    # Weights: float32 stays float32 (PyTorch's rule), other dtypes sum in float64.
    w = rng.standard_normal(n)
    nw, tw = lay_out(w.astype(np.float32), layout)
    got = crt.bincount(ta, weights=tw)
    assert got.dtype == crt.float32
    np.testing.assert_allclose(arr(got), np.bincount(na, weights=nw), rtol=1e-4, atol=1e-3)
    for wd in (np.float64, np.float16, np.int32):
        nw, tw = lay_out((w * 4).astype(wd), layout)
        got = ta.bincount(tw, minlength=3)
        assert got.dtype == crt.float64
        np.testing.assert_allclose(arr(got), np.bincount(na, weights=nw, minlength=3), rtol=1e-9, atol=1e-6)


def test_bincount_refuses_bad_input_naming_the_fix():
    with pytest.raises(crt.InvalidArgumentError, match="negative value -2"):
        crt.bincount(crt.tensor([1, -2]))
    with pytest.raises(crt.InvalidArgumentError, match="past int64"):
        crt.bincount(np.array([2**63], np.uint64))
    for bad in (crt.tensor([1.0]), crt.tensor([True]), crt.zeros(2, 2, dtype=crt.int64)):
        with pytest.raises(crt.InvalidArgumentError, match=r"\.to\(int64\)"):
            crt.bincount(bad)
    with pytest.raises(crt.InvalidArgumentError, match="minlength"):
        crt.bincount(crt.tensor([1]), minlength=-1)
    with pytest.raises(crt.ShapeError, match="one weight per element"):
        crt.bincount(crt.tensor([1, 2]), weights=crt.ones(3))
    # Agrees with PyTorch where it is installed (the bench's environment).
    torch = pytest.importorskip("torch")
    x = np.array([0, 5, 5, 2], np.int64)
    for w in (np.float32, np.float64, np.int32):
        ww = np.arange(4).astype(w)
        want = torch.bincount(torch.from_numpy(x), torch.from_numpy(ww), minlength=8)
        got = crt.bincount(x, ww, minlength=8)
        assert str(want.dtype).split(".")[1] == str(got.dtype).split(".")[-1]
        np.testing.assert_array_equal(arr(got), want.numpy())


def model_histc(x, bins, lo, hi):
    """torch.histc's bins, computed in float64: floor((x - lo) * bins / (hi - lo)), `hi` in
    the last bin, values outside [lo, hi] (and NaN) in none."""
    x = np.asarray(x, np.float64).ravel()
    if lo == hi and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    x = x[(x >= lo) & (x <= hi)]
    pos = np.minimum(((x - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    return np.bincount(pos, minlength=bins).astype(np.float64)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 9, 200_003])
def test_histc_matches_a_float64_model_and_numpy(layout, dtype, n):
    rng = np.random.default_rng(n + 1)
    a = (rng.standard_normal((n, 3)) * 4).astype(np.float32)
    na, ta = lay_out(a, layout)
    if dtype == "bfloat16":
        ta = ta.to(crt.bfloat16)
        na = ta.to(crt.float32).numpy()
    elif dtype != "float32":
        ta = ta.to(getattr(crt, dtype))
        na = na.astype(dtype)
    for bins, lo, hi in ((10, 0.0, 0.0), (7, -2.0, 3.0), (1, -1.0, 1.0), (300, 0.5, 0.5), (5000, -8.0, 8.0)):
        got = crt.histc(ta, bins=bins, min=lo, max=hi)
        assert got.dtype == ta.dtype and got.shape == (bins,)
        # Exact counts, then rounded to the result's dtype (as PyTorch's: past 2048 a
        # float16 count rounds, past 65504 it is infinite).
        want = crt.from_numpy(model_histc(na, bins, lo, hi)).to(ta.dtype).to(crt.float64).numpy()
        np.testing.assert_array_equal(got.to(crt.float64).numpy(), want)
    # numpy's histogram over an explicit range agrees away from the bin edges.
    if dtype == "float64":
        counts, _ = np.histogram(na, bins=8, range=(-3.0, 5.0))
        np.testing.assert_array_equal(ta.histc(8, -3, 5).numpy(), counts)


def test_histc_edges_nan_infinity_and_errors():
    x = crt.tensor([0.0, 1.0, 2.0, 3.0, 4.0])
    assert crt.histc(x, bins=4, min=1, max=3).tolist() == [1.0, 0.0, 1.0, 1.0]
    # The data's range; a single value widens by one either side; empty gives zeros.
    assert crt.histc(crt.tensor([2.0, 2.0]), bins=4).tolist() == [0.0, 0.0, 2.0, 0.0]
    assert crt.histc(crt.zeros(0), bins=3).tolist() == [0.0, 0.0, 0.0]
    # NaN and infinities count nowhere with an explicit range; any shape counts every element.
    y = crt.tensor([[0.0, float("nan")], [float("inf"), 1.0]])
    assert crt.histc(y, bins=2, min=0, max=1).tolist() == [1.0, 1.0]
    with pytest.raises(crt.InvalidArgumentError, match="not finite"):
        crt.histc(y, bins=2)
    with pytest.raises(crt.InvalidArgumentError, match="at least 1"):
        crt.histc(x, bins=0)
    with pytest.raises(crt.InvalidArgumentError, match="at least 1"):
        crt.histc(x, bins=-3)
    with pytest.raises(crt.InvalidArgumentError, match="swap them"):
        crt.histc(x, bins=3, min=2, max=1)
    with pytest.raises(crt.InvalidArgumentError, match=r"\.to\(float32\)"):
        crt.histc(crt.tensor([1, 2]), bins=3)
    # Long inputs count in parallel blocks: one thread and four agree.
    code = (
        "import clika_runtime as crt, numpy as np;"
        "x = crt.from_numpy(np.random.default_rng(2).standard_normal(300_001).astype(np.float32));"
        "print(crt.histc(x, 64, -3, 3).tolist(), crt.histc(x[::3], 2000).tolist())"
    )
    assert len(outputs_on_one_thread_and_four(code)) == 1
    # Agrees with PyTorch where it is installed, on values whose bins are exact in float32.
    torch = pytest.importorskip("torch")
    v = (np.arange(-40, 41) / 8).astype(np.float32)
    for bins, lo, hi in ((16, -4, 4), (5, 0, 0), (3, -1.5, 2.5)):
        want = torch.histc(torch.from_numpy(v), bins=bins, min=lo, max=hi).numpy()
        np.testing.assert_array_equal(crt.histc(v, bins, lo, hi).numpy(), want)
