"""Sorting, selection, scans, roll and the composed reductions against numpy (and PyTorch's
documented semantics where numpy differs: NaN ordering, the lower median, values+indices
pairs) on contiguous, strided, transposed, broadcast (stride 0) and empty inputs."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import clika_runtime as crt
from test_ops import FLOATS, INTS, LAYOUTS, NUMERIC, lay_out
from test_ops import small_arrays as numeric_arrays
from test_random import outputs_on_one_thread_and_four

ANY_DTYPE = NUMERIC + [np.bool_]


def small_arrays(dtypes, shape=None, max_dims=3, lo=-10, hi=10):
    """test_ops' arrays, plus bool arrays when np.bool_ is among the dtypes."""
    numeric = numeric_arrays([d for d in dtypes if d is not np.bool_], shape, max_dims, lo, hi)
    if np.bool_ not in dtypes:
        return numeric
    shapes = shape if shape is not None else hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=4)
    return numeric | hnp.arrays(np.bool_, shapes, elements=st.booleans())


@st.composite
def array_and_dim(draw, dtypes=NUMERIC, min_dims=1, min_side=0):
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=min_side, max_side=5))
    a = draw(small_arrays(dtypes, shape=st.just(shape), lo=-4, hi=4))
    dim = draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim else 0
    return a, dim


def arr(t):
    return np.asarray(t.numpy())


@given(array_and_dim(ANY_DTYPE), st.booleans(), st.sampled_from(LAYOUTS))
def test_sort_and_argsort_match_numpy_stable(ad, descending, layout):
    a, dim = ad
    na, ta = lay_out(a, layout)
    s = ta.sort(dim, descending=descending)
    values, indices = s  # tuple unpacking, like torch.return_types
    assert values is not None and s.values.dtype == ta.dtype and s.indices.dtype == crt.int64
    key = -na.astype(np.float64) if descending else na
    want_idx = np.argsort(key, axis=dim, kind="stable")
    np.testing.assert_array_equal(arr(indices), want_idx)
    np.testing.assert_array_equal(arr(values), np.take_along_axis(na, want_idx, axis=dim))
    np.testing.assert_array_equal(arr(crt.argsort(ta, dim, descending=descending)), want_idx)
    assert s[0].shape == s[1].shape == na.shape


def test_sort_nan_order_as_pytorch():
    a = np.array([2.0, np.nan, -1.0, np.inf, np.nan], np.float32)
    t = crt.from_numpy(a)
    v, i = crt.sort(t)
    np.testing.assert_array_equal(arr(i), [2, 0, 3, 1, 4])  # NaN last, in their order
    v, i = crt.sort(t, descending=True)
    np.testing.assert_array_equal(arr(i), [1, 4, 3, 0, 2])  # NaN first (largest)
    assert np.isnan(arr(v)[:2]).all()


@given(array_and_dim(NUMERIC, min_side=1), st.data(), st.booleans(), st.sampled_from(LAYOUTS))
def test_topk_matches_the_stable_sort(ad, data, largest, layout):
    a, dim = ad
    na, ta = lay_out(a, layout)
    k = data.draw(st.integers(0, na.shape[dim]))
    r = ta.topk(k, dim, largest=largest)
    key = -na.astype(np.float64) if largest else na
    idx = np.take(np.argsort(key, axis=dim, kind="stable"), np.arange(k), axis=dim)
    np.testing.assert_array_equal(arr(r.indices), idx)
    np.testing.assert_array_equal(arr(r.values), np.take_along_axis(na, idx, axis=dim))
    unsorted = crt.topk(ta, k, dim, largest=largest, sorted=False)
    np.testing.assert_array_equal(np.sort(arr(unsorted.values), axis=dim), np.sort(arr(r.values), axis=dim))
    with pytest.raises(crt.InvalidArgumentError, match="topk"):
        ta.topk(na.shape[dim] + 1, dim)


@given(array_and_dim(NUMERIC, min_side=1), st.data(), st.booleans(), st.sampled_from(LAYOUTS))
def test_kthvalue_and_median_dim(ad, data, keepdim, layout):
    a, dim = ad
    na, ta = lay_out(a, layout)
    n = na.shape[dim]
    k = data.draw(st.integers(1, n))
    r = ta.kthvalue(k, dim, keepdim=keepdim)
    want = np.take(np.sort(na, axis=dim), [k - 1], axis=dim)
    if not keepdim:
        want = np.squeeze(want, axis=dim)
    np.testing.assert_array_equal(arr(r.values), want)
    # The index points at an element with that value.
    picked = np.take_along_axis(na, np.expand_dims(arr(r.indices), dim) if not keepdim else arr(r.indices), axis=dim)
    np.testing.assert_array_equal(picked.reshape(want.shape), want)
    m = crt.median(ta, dim, keepdim=keepdim)
    lower = np.take(np.sort(na, axis=dim), [(n - 1) // 2], axis=dim)  # PyTorch: the lower median
    if not keepdim:
        lower = np.squeeze(lower, axis=dim)
    np.testing.assert_array_equal(arr(m.values), lower)


def test_median_all_lower_and_nan():
    assert float(crt.median(crt.tensor([4.0, 1.0, 3.0, 2.0]))) == 2.0
    assert float(crt.tensor([[5, 1], [3, 9]]).median()) == 3
    assert np.isnan(float(crt.tensor([1.0, float("nan"), 0.0]).median()))
    v, i = crt.tensor([[1.0, float("nan"), 0.0]]).median(1)
    assert np.isnan(float(v)) and int(i) == 1
    with pytest.raises(crt.InvalidArgumentError):
        crt.zeros(2, 0).median(1)
    with pytest.raises(crt.InvalidArgumentError, match="1-based"):
        crt.ones(3).kthvalue(0)


@given(array_and_dim(NUMERIC, min_side=1), st.booleans(), st.sampled_from(LAYOUTS))
def test_max_min_dim_return_values_and_indices(ad, keepdim, layout):
    a, dim = ad
    na, ta = lay_out(a, layout)
    for name in ("max", "min"):
        r = getattr(ta, name)(dim, keepdim=keepdim)
        r2 = getattr(crt, name)(ta, dim, keepdim)
        want = getattr(np, name)(na, axis=dim, keepdims=keepdim)
        want_i = getattr(np, "arg" + name)(na, axis=dim, keepdims=keepdim)
        for x in (r, r2):
            values, indices = x
            np.testing.assert_array_equal(arr(values), want)
            np.testing.assert_array_equal(arr(indices), want_i)
        # numpy's keyword (and a tuple of dims) keep returning values only
        assert isinstance(getattr(ta, name)(axis=dim), crt.Tensor)
        assert isinstance(getattr(ta, name)((dim,)), crt.Tensor)
    assert "values=" in repr(ta.max(dim)) and len(ta.max(dim)) == 2


def test_max_dim_propagates_nan_with_its_index():
    t = crt.tensor([[1.0, float("nan"), 3.0], [2.0, 5.0, 4.0]])
    v, i = t.max(1)
    assert np.isnan(arr(v)[0]) and arr(v)[1] == 5.0
    np.testing.assert_array_equal(arr(i), [1, 1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("n", [5, 31, 32, 40, 1100])
def test_max_min_and_arg_rows_with_nan_and_inf_at_lane_boundaries(dtype, n):
    # Rows shorter than, equal to and longer than the lane blocks (32 f32 / 16 f64 lanes,
    # 1024-element chunks), with a NaN or an infinity at the start, in the lanes, in the
    # ragged end; numpy's max/argmax propagate NaN and point at the first one, as PyTorch.
    rng = np.random.default_rng(n)
    a = rng.standard_normal((8, n)).astype(dtype)
    for r, k in enumerate([0, n // 2, n - 1, min(33, n - 1)]):
        a[r, k] = np.nan
        if r % 2 and k > 0:
            a[r, k - 1] = np.nan
    a[4, n // 3] = np.inf
    a[5, n - 1] = -np.inf
    a[6, :] = 2.0
    for layout in ("contiguous", "strided", "transposed"):
        view, t = lay_out(a, layout)
        for name, ref in (("amax", np.max), ("amin", np.min), ("argmax", np.argmax), ("argmin", np.argmin)):
            np.testing.assert_array_equal(arr(getattr(t, name)(1)), ref(view, axis=1), err_msg=name)
            np.testing.assert_array_equal(arr(getattr(t, name)()), ref(view), err_msg=name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.uint8])
@pytest.mark.parametrize("n", [1, 3, 8, 9, 16, 17, 40, 100, 255, 256, 1000])
def test_many_short_rows_reduce_like_numpy(dtype, n):
    # Thousands of outputs that each reduce one short row (a classifier's scores) run their
    # own loop, many rows per SIMD dispatch: each op against numpy over rows of lengths
    # around the lane counts, with NaNs, infinities and ties in some rows, on every layout.
    rng = np.random.default_rng(n)
    rows = max(64, 20000 // n)
    floating = np.issubdtype(dtype, np.floating)
    if floating:
        a = (rng.standard_normal((rows, n)) * 10).astype(dtype)
        a[1::7, (n - 1) // 2] = np.nan
        a[2::7, 0] = np.inf
    else:
        a = rng.integers(0, 100, (rows, n)).astype(dtype)
    a[3::7, :] = a[3::7, :1]  # ties: the first index wins
    tol = {np.float16: 2e-3, np.float32: 1e-5}.get(dtype, 1e-12)
    for layout in LAYOUTS:
        view, t = lay_out(a, layout)
        for name, ref in (("amax", np.max), ("amin", np.min), ("argmax", np.argmax), ("argmin", np.argmin)):
            np.testing.assert_array_equal(arr(getattr(t, name)(1)), ref(view, axis=1), err_msg=name)
        want = view.astype(np.float64 if floating else np.int64).sum(axis=1)
        got = arr(t.sum(1))
        if not floating:
            np.testing.assert_array_equal(got, want)
        scale = np.abs(view.astype(np.float64)).sum(axis=1)
        fin = np.isfinite(want)
        for got, want, what in ((got, want, "sum"), (arr(t.mean(1)), want / n, "mean")):
            got = got.astype(np.float64)
            np.testing.assert_array_equal(got[~fin], want[~fin], err_msg=what)
            err = np.abs(got[fin] - want[fin])
            assert np.all(err <= tol * scale[fin] / (n if what == "mean" else 1)), (what, err.max())


@given(small_arrays(ANY_DTYPE, max_dims=3, lo=-3, hi=3), st.sampled_from(LAYOUTS), st.booleans(), st.booleans())
def test_unique_matches_numpy(a, layout, inverse, counts):
    na, ta = lay_out(a, layout)
    r = crt.unique(ta, return_inverse=inverse, return_counts=counts)
    want = np.unique(na, return_inverse=inverse, return_counts=counts)
    if not (inverse or counts):
        np.testing.assert_array_equal(arr(r), want)
        return
    assert len(r) == len(want)
    for got, w in zip(r, want):
        np.testing.assert_array_equal(arr(got), np.asarray(w).reshape(arr(got).shape))
    if inverse:
        assert r[1].shape == na.shape


@given(array_and_dim(ANY_DTYPE), st.sampled_from(LAYOUTS), st.booleans(), st.booleans())
def test_unique_dim_matches_numpy_axis(ad, layout, inverse, counts):
    a, dim = ad
    na, ta = lay_out(a, layout)
    if na.size == 0 and na.shape[dim] != 0:
        # numpy refuses this (it cannot order empty slices); ours gives the one empty slice
        r = crt.unique(ta, dim=dim, return_counts=True)
        assert r[0].shape[dim] == 1 and arr(r[1]).tolist() == [na.shape[dim]]
        return
    r = crt.unique(ta, dim=dim, return_inverse=inverse, return_counts=counts)
    want = np.unique(na, axis=dim, return_inverse=inverse, return_counts=counts)
    if not (inverse or counts):
        np.testing.assert_array_equal(arr(r), want)
        return
    assert len(r) == len(want)
    np.testing.assert_array_equal(arr(r[0]), want[0])
    for got, w in zip(r[1:], want[1:]):
        np.testing.assert_array_equal(arr(got), np.asarray(w).reshape(-1))
    if inverse:
        assert r[1].shape == (na.shape[dim],)


def test_unique_dim_nan_slices_stay_apart_and_zeros_merge():
    t = crt.tensor([[1.0, float("nan")], [-0.0, 2.0], [1.0, float("nan")], [0.0, 2.0]])
    v, inv, cnt = crt.unique(t, dim=0, return_inverse=True, return_counts=True)
    # [-0, 2] and [0, 2] are one slice; the two [1, nan] rows are not equal to each other
    assert v.shape == (3, 2)
    assert arr(cnt).tolist() == [2, 1, 1]
    assert arr(inv).tolist() == [1, 0, 2, 0]
    with pytest.raises(IndexError):
        t.unique(dim=2)


@given(small_arrays(ANY_DTYPE, max_dims=3, lo=-2, hi=2), st.sampled_from(LAYOUTS), st.booleans(), st.data())
def test_any_all_match_numpy(a, layout, keepdim, data):
    na, ta = lay_out(a, layout)
    dims = data.draw(st.none() | st.lists(st.integers(0, max(na.ndim - 1, 0)), unique=True, max_size=na.ndim).map(tuple)) if na.ndim else None
    for name in ("any", "all"):
        got = getattr(ta, name)(dims, keepdim=keepdim)
        want = getattr(np, name)(na, axis=dims, keepdims=keepdim)
        assert got.dtype == crt.bool
        np.testing.assert_array_equal(arr(got), want)
        np.testing.assert_array_equal(arr(getattr(crt, name)(ta, dims, keepdim)), want)


@given(array_and_dim(ANY_DTYPE), st.sampled_from(LAYOUTS))
def test_cumsum_cumprod_match_numpy_with_pytorch_dtypes(ad, layout):
    a, dim = ad
    na, ta = lay_out(a, layout)
    for name in ("cumsum", "cumprod"):
        got = getattr(ta, name)(dim)
        expected_dtype = na.dtype if na.dtype.kind == "f" else np.dtype(np.int64)
        assert arr(got).dtype == expected_dtype
        want = getattr(np, name)(na.astype(np.float64 if na.dtype.kind == "f" else np.int64), axis=dim)
        np.testing.assert_allclose(arr(got), want, rtol=1e-5, atol=1e-5)
        f = getattr(crt, name)(ta, dim, dtype=crt.float64)
        assert f.dtype == crt.float64
        np.testing.assert_allclose(arr(f), getattr(np, name)(na.astype(np.float64), axis=dim), rtol=1e-12)


def test_cumsum_of_float16_and_zero_d():
    a = np.linspace(0, 1, 9, dtype=np.float16)
    got = crt.from_numpy(a).cumsum(0)
    assert got.dtype == crt.float16
    np.testing.assert_allclose(arr(got).astype(np.float64), np.cumsum(a.astype(np.float64)), rtol=2e-3)
    assert float(crt.tensor(3.0).cumsum(0)) == 3.0


@given(small_arrays(NUMERIC, max_dims=3), st.sampled_from(LAYOUTS), st.data())
def test_roll_matches_numpy(a, layout, data):
    na, ta = lay_out(a, layout)
    if na.ndim == 0:
        return
    shift = data.draw(st.integers(-7, 7))
    np.testing.assert_array_equal(arr(ta.roll(shift)), np.roll(na, shift))
    dims = data.draw(st.lists(st.integers(-na.ndim, na.ndim - 1), min_size=1, max_size=3))
    shifts = data.draw(st.lists(st.integers(-6, 6), min_size=len(dims), max_size=len(dims)))
    np.testing.assert_array_equal(arr(crt.roll(ta, shifts, dims)), np.roll(na, shifts, axis=dims))


def test_roll_refusals():
    with pytest.raises(crt.InvalidArgumentError, match="one shift"):
        crt.ones(2, 2).roll((1, 2))
    with pytest.raises(crt.InvalidArgumentError, match="shifts for"):
        crt.ones(2, 2).roll((1, 2), 0)


@given(small_arrays(FLOATS + INTS, max_dims=3, lo=-30, hi=30), st.sampled_from(LAYOUTS), st.booleans(), st.data())
def test_logsumexp_matches_numpy(a, layout, keepdim, data):
    na, ta = lay_out(a, layout)
    dims = data.draw(st.none() | st.lists(st.integers(0, max(na.ndim - 1, 0)), unique=True, min_size=1, max_size=na.ndim).map(tuple)) if na.ndim else None
    x = na.astype(np.float64)
    with np.errstate(all="ignore"):
        m = np.max(x, axis=dims, keepdims=True, initial=-np.inf)
        m = np.where(np.isfinite(m), m, 0)
        want = np.log(np.sum(np.exp(x - m), axis=dims, keepdims=True)) + m
    if not keepdim:
        want = np.squeeze(want, axis=dims) if dims is not None else want.reshape(())
    got = ta.logsumexp(dims, keepdim=keepdim)
    assert got.dtype == (ta.dtype if na.dtype.kind == "f" else crt.float32)
    np.testing.assert_allclose(arr(got), want, rtol=1e-5, atol=1e-5)


def test_logsumexp_infinities_and_empty():
    inf = float("inf")
    assert float(crt.logsumexp(crt.tensor([inf, 1.0]))) == inf
    assert float(crt.logsumexp(crt.tensor([-inf, -inf]))) == -inf
    assert float(crt.logsumexp(crt.zeros(0))) == -inf


@given(small_arrays(FLOATS, max_dims=3), st.sampled_from(LAYOUTS), st.sampled_from([1, 2, 3, 0.5, "fro", float("inf"), float("-inf"), 0]), st.booleans(), st.data())
def test_norm_matches_numpy(a, layout, p, keepdim, data):
    na, ta = lay_out(a, layout)
    dims = data.draw(st.none() | st.lists(st.integers(0, max(na.ndim - 1, 0)), unique=True, min_size=1, max_size=na.ndim).map(tuple)) if na.ndim else None
    reduced = na.size if dims is None else int(np.prod([na.shape[d] for d in dims]))
    if reduced == 0 and p in (float("inf"), float("-inf")):
        return  # no identity, as max/min
    x = np.abs(na.astype(np.float64))
    q = 2 if p == "fro" else p
    with np.errstate(all="ignore"):
        if q == float("inf"):
            want = np.max(x, axis=dims, keepdims=keepdim)
        elif q == float("-inf"):
            want = np.min(x, axis=dims, keepdims=keepdim)
        elif q == 0:
            want = np.sum(x != 0, axis=dims, keepdims=keepdim).astype(np.float64)
        else:
            want = np.sum(x**q, axis=dims, keepdims=keepdim) ** (1 / q)
    got = ta.norm(p, dims, keepdim=keepdim)
    np.testing.assert_allclose(arr(got), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(arr(crt.norm(ta, p, dims, keepdim)), want, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="norm"):
        ta.norm("nuc")


def test_numpy_functions_on_tensors():
    a = np.array([[0, 3, 1], [2, 0, 5]], np.int32)
    t = crt.from_numpy(a)
    for f in (np.any, np.all):
        assert isinstance(f(t), crt.Tensor)
        assert bool(f(t)) == bool(f(a))
        np.testing.assert_array_equal(np.asarray(f(t, axis=1)), f(a, axis=1))
        np.testing.assert_array_equal(np.asarray(f(t, axis=0, keepdims=True)), f(a, axis=0, keepdims=True))
    out = crt.zeros(3, dtype=crt.bool)
    assert t.any(axis=0, out=out) is out and out.numpy().tolist() == [True, True, True]
    np.testing.assert_array_equal(np.cumsum(t, axis=1), np.cumsum(a, axis=1))
    np.testing.assert_array_equal(np.argsort(t, axis=1), np.argsort(a, axis=1))
    with pytest.raises(ValueError, match="dim"):
        t.any(0, axis=0)


def test_long_row_sorts_and_scans_give_the_same_bits_on_one_thread_and_four():
    """Sorts, selections and scans along rows split the rows across threads past a size
    threshold: one thread and four give the same values and indices."""
    code = (
        "import clika_runtime as crt, numpy as np, hashlib;"
        "rng = np.random.default_rng(7);"
        "x = crt.from_numpy(rng.standard_normal((3001, 97)).astype(np.float32));"
        "i = crt.from_numpy(rng.integers(-50, 50, (20011, 13)));"
        "outs = [*crt.sort(x, dim=1), *crt.sort(i, dim=1, stable=True), *crt.topk(x, 5, dim=1),"
        " *crt.kthvalue(i, 4, dim=1), *crt.median(x, dim=1), crt.cumsum(x, dim=1), crt.cumprod(i, dim=1)];"
        "h = hashlib.sha256();"
        "[h.update(o.numpy().tobytes()) for o in outs];"
        "print(h.hexdigest())"
    )
    assert len(outputs_on_one_thread_and_four(code)) == 1
