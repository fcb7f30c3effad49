"""Operations and operators compared against numpy (hypothesis for values, shapes, dtypes and
broadcasting) on contiguous, strided, transposed, broadcast (stride 0) and zero-size inputs;
in-place writes and aliasing; out=; buffer reuse for temporaries; refusals."""

import math
import operator
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import clika_runtime as crt

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile("ci")

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8]
FLOATS = [np.float32, np.float64]
NUMERIC = FLOATS + INTS
LAYOUTS = ["contiguous", "strided", "transposed", "broadcast"]

_erf = np.vectorize(math.erf, otypes=[np.float64])


def category(d):
    d = np.dtype(d)
    return 0 if d.kind == "b" else (1 if d.kind in "iu" else 2)


def promoted(da, db):
    """PyTorch-style promotion of two tensors: the higher category wins outright."""
    ca, cb = category(da), category(db)
    if ca == cb:
        return np.result_type(da, db)
    return np.dtype(da) if ca > cb else np.dtype(db)


def lay_out(a, layout):
    """(numpy view, tensor view) of the same values in the given memory layout."""
    if layout == "contiguous" or a.ndim == 0:
        a = np.ascontiguousarray(a)
        return a, crt.from_numpy(a)
    if layout == "strided":
        # Every other element, starting one into the memory (a view with an offset, as
        # `x[1:]`'s).
        shape = a.shape[:-1] + (2 * a.shape[-1] + 1,)
        big = np.zeros(shape, a.dtype)
        big[..., 1::2] = a
        return big[..., 1::2], crt.from_numpy(big)[..., 1::2]
    if layout == "transposed":
        at = np.ascontiguousarray(a.T)
        return at.T, crt.from_numpy(at).T
    # broadcast: the first axis has stride 0 (a DLPack import of numpy's broadcast view)
    row = np.ascontiguousarray(a[:1] if a.shape[0] else a)
    view = np.broadcast_to(row, (a.shape[0],) + a.shape[1:]) if a.shape[0] else row
    return view, crt.from_dlpack(view)


def small_arrays(dtypes, shape=None, max_dims=3, lo=-10, hi=10):
    shapes = shape if shape is not None else hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=4)
    return st.sampled_from(dtypes).flatmap(
        lambda d: hnp.arrays(
            d,
            shapes,
            elements=st.floats(lo, hi, width=32) if np.dtype(d).kind == "f" else st.integers(max(lo, 0) if np.dtype(d).kind == "u" else lo, hi),
        )
    )


def broadcast_pair(dtypes_a, dtypes_b):
    """Two arrays whose shapes broadcast together."""

    @st.composite
    def pair(draw):
        shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=0, max_side=4))
        a = draw(small_arrays(dtypes_a, shape=st.just(shapes.input_shapes[0])))
        b = draw(small_arrays(dtypes_b, shape=st.just(shapes.input_shapes[1])))
        return a, b

    return pair()


def check(got, want, dtype=None, rtol=1e-5, atol=1e-6):
    assert isinstance(got, crt.Tensor)
    g = got.numpy()
    assert g.shape == np.shape(want)
    if dtype is not None:
        assert g.dtype == np.dtype(dtype), (g.dtype, dtype)
    if g.dtype.kind == "f":
        np.testing.assert_allclose(g, np.asarray(want, dtype=np.float64), rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


# ---- binary ------------------------------------------------------------------------------

ARITH = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum, "minimum": np.minimum}
COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


@given(broadcast_pair(NUMERIC, NUMERIC), st.sampled_from(sorted(ARITH)), st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS))
def test_arith_matches_numpy(pair, name, la, lb):
    a, b = pair
    (na, ta), (nb, tb) = lay_out(a, la), lay_out(b, lb)
    out = promoted(a.dtype, b.dtype)
    want = ARITH[name](na.astype(out), nb.astype(out))
    check(getattr(crt, name)(ta, tb), want, out)
    check(getattr(ta, name)(tb), want, out)


@given(broadcast_pair(NUMERIC, NUMERIC), st.sampled_from(sorted(COMPARE)), st.sampled_from(LAYOUTS))
def test_comparisons_give_bool(pair, name, layout):
    a, b = pair
    (na, ta), nb = lay_out(a, layout), b
    out = promoted(a.dtype, b.dtype)
    want = COMPARE[name](na.astype(out), nb.astype(out))
    check(getattr(crt, name)(ta, crt.tensor(nb)), want, np.bool_)
    sym = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}[name]
    check(getattr(ta, sym)(crt.tensor(nb)), want, np.bool_)


@given(broadcast_pair(NUMERIC, NUMERIC), st.sampled_from(LAYOUTS))
def test_true_division(pair, layout):
    a, b = pair
    (na, ta) = lay_out(a, layout)
    out = promoted(a.dtype, b.dtype)
    if category(out) < 2:
        out = np.dtype(np.float32)
    with np.errstate(all="ignore"):
        want = na.astype(np.float64) / b.astype(np.float64)
    got = ta / crt.tensor(b)
    assert got.dtype == out
    check(got, want.astype(out), out, rtol=1e-5 if out == np.float32 else 1e-12)


@given(small_arrays(FLOATS, lo=0.5, hi=3), st.sampled_from(LAYOUTS), st.sampled_from([0.5, 2, 3.0, -1]))
def test_pow_with_scalars(a, layout, e):
    na, ta = lay_out(a, layout)
    check(ta**e, na ** np.asarray(e, a.dtype), a.dtype)
    check(2**ta, np.asarray(2, a.dtype) ** na, a.dtype, rtol=1e-5)


@given(small_arrays([np.int32, np.int64, np.int16], lo=-5, hi=5), st.integers(0, 3))
def test_integer_pow(a, e):
    check(crt.from_numpy(a) ** e, a**e, a.dtype)


@given(
    small_arrays(NUMERIC, lo=-5, hi=5),
    st.sampled_from(["add", "sub", "mul", "maximum", "minimum", "lt", "eq"]),
    st.one_of(st.integers(0, 3), st.floats(-3, 3, width=32)),
    st.sampled_from(LAYOUTS),
    st.booleans(),
)
def test_weak_scalar_operands_on_every_layout(a, name, scalar, layout, reflected):
    na, ta = lay_out(a, layout)
    # weak-scalar promotion: an int keeps the tensor's dtype, a float lifts integers to float32
    out = a.dtype if isinstance(scalar, int) or a.dtype.kind == "f" else np.dtype(np.float32)
    x, y = (np.asarray(scalar, out), na.astype(out)) if reflected else (na.astype(out), np.asarray(scalar, out))
    fn = {**ARITH, **COMPARE}[name]
    want = fn(x, y)
    got = getattr(crt, name)(scalar, ta) if reflected else getattr(crt, name)(ta, scalar)
    check(got, want, want.dtype)
    if name in ("add", "sub", "mul"):
        sym = {"add": operator.add, "sub": operator.sub, "mul": operator.mul}[name]
        check(sym(scalar, ta) if reflected else sym(ta, scalar), want, want.dtype)


def test_python_scalars_are_weak():
    f32 = crt.ones(3)
    i32 = crt.tensor(np.arange(3, dtype=np.int32))
    i8 = crt.tensor(np.arange(3, dtype=np.int8))
    b = crt.tensor(np.array([True, False]))
    assert (f32 * 2.5).dtype == crt.float32
    assert (i32 + 1).dtype == crt.int32
    assert (i32 + 1.5).dtype == crt.float32
    assert (i8 + 100).dtype == crt.int8
    with pytest.raises(OverflowError):  # as numpy 2: a weak int must fit the tensor's dtype
        i8 + 1000
    assert (b + 1).dtype == crt.int64
    assert (b + 1.0).dtype == crt.float32
    assert (b * True).dtype == crt.bool
    check(2 - i32, np.array([2, 1, 0], np.int32), np.int32)
    check(1 / f32, np.ones(3), np.float32)
    check(3 - f32, np.full(3, 2.0), np.float32)
    check(i32 < 1, np.array([True, False, False]))
    check(1 < i32, np.array([False, False, True]))


def test_numpy_operands_are_strong_and_give_tensors():
    t = crt.ones(2, 3)
    a = np.full((2, 3), 2.0, np.float64)
    for r in (t + a, a + t, t * np.float64(2.0), np.float64(2.0) * t):
        assert isinstance(r, crt.Tensor)
        assert r.dtype == crt.float64
    check(a - t, np.ones((2, 3)))
    check(t @ np.ones((3, 1), np.float32), np.full((2, 1), 3.0))
    check(np.ones((1, 2), np.float32) @ t, np.full((1, 3), 2.0))
    assert isinstance(a == t, crt.Tensor)


def test_unsupported_operands_are_refused_like_python():
    t = crt.ones(2)
    with pytest.raises(TypeError):
        t + "x"  # noqa: B018
    with pytest.raises(TypeError):
        "x" * t  # noqa: B018
    with pytest.raises(crt.InvalidArgumentError, match="fit in int64"):
        t + 2**70  # noqa: B018
    with pytest.raises(crt.ShapeError):
        t + crt.ones(3)  # noqa: B018
    with pytest.raises(crt.DTypeError):
        crt.tensor(np.array([True])) - True  # noqa: B018


def test_hash_and_truth():
    t, u = crt.ones(2), crt.ones(2)
    assert hash(t) != hash(u)
    assert {t: 1, u: 2}[t] == 1
    assert t in {t}
    assert bool(crt.ones(1) == 1)
    assert not bool(crt.zeros(()))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(t == u)


# ---- unary -------------------------------------------------------------------------------

UNARY = {
    "neg": np.negative,
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "sin": np.sin,
    "cos": np.cos,
    "tanh": np.tanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "relu": lambda x: np.maximum(x, 0),
    "gelu": lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2))),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "erf": _erf,
}
POSITIVE = {"log", "sqrt", "rsqrt"}


@given(small_arrays(FLOATS, lo=-5, hi=5), st.sampled_from(sorted(UNARY)), st.sampled_from(LAYOUTS))
def test_unary_matches_numpy(a, name, layout):
    if name in POSITIVE:
        a = np.abs(a) + a.dtype.type(0.25)
    na, ta = lay_out(a, layout)
    want = UNARY[name](na.astype(np.float64))
    tol = dict(rtol=2e-5, atol=2e-6) if a.dtype == np.float32 else dict(rtol=1e-9, atol=1e-12)
    check(getattr(crt, name)(ta), want, a.dtype, **tol)
    check(getattr(ta, name)(), want, a.dtype, **tol)


@given(small_arrays(INTS, lo=-5, hi=5))
def test_neg_abs_keep_integers(a):
    t = crt.from_numpy(a)
    check(-t, -a, a.dtype)
    check(abs(t), np.abs(a), a.dtype)


def test_float_functions_of_integers_give_float32():
    t = crt.tensor(np.arange(1, 4, dtype=np.int32))
    check(t.exp(), np.exp(np.arange(1, 4)), np.float32)


# ---- reductions --------------------------------------------------------------------------

REDUCE = {"sum": np.sum, "mean": np.mean, "prod": np.prod, "max": np.max, "min": np.min}


@st.composite
def array_and_dims(draw, dtypes=NUMERIC, lo=-3, hi=3):
    a = draw(small_arrays(dtypes, lo=lo, hi=hi))
    if a.ndim == 0:
        return a, None
    dims = draw(st.none() | st.integers(-a.ndim, a.ndim - 1) | st.lists(st.integers(0, a.ndim - 1), unique=True, max_size=a.ndim).map(tuple))
    return a, dims


def reduced_dtype(name, d):
    d = np.dtype(d)
    if name == "mean":
        return d if d.kind == "f" else np.dtype(np.float64)
    if name in ("sum", "prod"):
        return d if d.kind == "f" else np.dtype(np.int64)
    return d


@given(array_and_dims(), st.sampled_from(sorted(REDUCE)), st.booleans(), st.sampled_from(LAYOUTS))
def test_reductions_match_numpy(ad, name, keepdim, layout):
    a, dims = ad
    na, ta = lay_out(a, layout)
    axis = dims
    empty_reduced = na.size == 0 if axis is None else any(na.shape[d] == 0 for d in np.atleast_1d(axis)) if axis != () else False
    if name in ("max", "min") and empty_reduced:
        # no identity: refused when a result element would reduce nothing
        try:
            r = getattr(ta, name)(dim=dims, keepdim=keepdim)
        except crt.InvalidArgumentError:
            return
        r = r.values if isinstance(dims, int) else r
        assert r.numel() == 0
        return
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = REDUCE[name](na.astype(np.float64), axis=axis, keepdims=keepdim)
    out = reduced_dtype(name, a.dtype)
    tol = dict(rtol=1e-5, atol=1e-5)
    # max/min with one int dim return (values, indices), as PyTorch (test_reductions_more.py)
    values = (lambda r: r.values) if name in ("max", "min") and isinstance(dims, int) else (lambda r: r)
    check(values(getattr(ta, name)(dim=dims, keepdim=keepdim)), want, out, **tol)
    check(values(getattr(crt, name)(ta, dims, keepdim)), want, out, **tol)


@given(array_and_dims(FLOATS), st.sampled_from(["var", "std"]), st.sampled_from([0, 1]), st.booleans())
def test_var_std_match_numpy(ad, name, correction, keepdim):
    a, dims = ad
    n = a.size if dims is None else int(np.prod([a.shape[d] for d in np.atleast_1d(dims)]))
    if n - correction <= 0:
        return
    t = crt.from_numpy(a)
    want = getattr(np, name)(a.astype(np.float64), axis=dims, ddof=correction, keepdims=keepdim)
    check(getattr(t, name)(dims, correction=correction, keepdim=keepdim), want, a.dtype, rtol=1e-4, atol=1e-5)
    check(getattr(crt, name)(t, dims, correction=correction, keepdim=keepdim), want, a.dtype, rtol=1e-4, atol=1e-5)


def test_var_defaults_to_unbiased():
    a = np.arange(5, dtype=np.float64)
    assert crt.from_numpy(a).var().item() == pytest.approx(np.var(a, ddof=1))


@given(small_arrays(NUMERIC, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)), st.data(), st.sampled_from(LAYOUTS))
def test_argmax_argmin(a, data, layout):
    na, ta = lay_out(a, layout)
    assert ta.argmax().item() == np.argmax(na)
    assert crt.argmin(ta).item() == np.argmin(na)
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    keep = data.draw(st.booleans())
    check(ta.argmax(d, keepdim=keep), np.argmax(na, axis=d, keepdims=keep), np.int64)
    check(crt.argmin(ta, d, keep), np.argmin(na, axis=d, keepdims=keep), np.int64)


# float16 computes in float32 and rounds once: within half an ulp (and a little) of the
# float64 result of the same inputs (log_softmax: plus float32's rounding of
# `x - max - log(sum)` where it cancels to near 0).
SOFTMAX_TOL = {np.float32: (1e-5, 1e-6, 1e-5), np.float64: (1e-5, 1e-6, 1e-5), np.float16: (6e-4, 1e-7, 1e-6)}


@given(
    small_arrays(FLOATS + [np.float16], st.one_of(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=40))),
    st.data(),
    st.sampled_from(LAYOUTS),
)
def test_softmax_log_softmax(a, data, layout):
    na, ta = lay_out(a, layout)
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    x = na.astype(np.float64)
    e = np.exp(x - x.max(axis=d, keepdims=True))
    sm = e / e.sum(axis=d, keepdims=True)
    rtol, atol, log_atol = SOFTMAX_TOL[a.dtype.type]
    check(ta.softmax(d), sm, a.dtype, rtol=rtol, atol=atol)
    check(crt.log_softmax(ta, d), np.log(sm), a.dtype, rtol=rtol, atol=log_atol)

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("n", [1, 7, 40, 64, 65])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed"])
def test_softmax_of_many_short_rows(dtype, n, layout):
    # 37 rows: the kernel takes rows of up to 64 elements 16 at a time (one per lane),
    # the rest one by one; NaN, -inf rows and +inf included.
    rng = np.random.default_rng(n)
    a = (rng.standard_normal((37, n)) * 4).astype(dtype)
    a[3, n // 2] = np.nan
    a[7, :] = -np.inf
    a[20, 0] = np.inf
    na, ta = lay_out(a, layout)
    x = na.astype(np.float64)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        sm = e / e.sum(axis=1, keepdims=True)
        lsm = (x - x.max(axis=1, keepdims=True)) - np.log(e.sum(axis=1, keepdims=True))
    rtol, atol, log_atol = SOFTMAX_TOL[dtype]
    check(ta.softmax(1), sm, dtype, rtol=rtol, atol=atol)
    check(crt.log_softmax(ta, -1), lsm, dtype, rtol=rtol, atol=log_atol)


def test_float32_sum_is_accurate():
    a = np.full(1 << 22, 0.1, np.float32)
    assert crt.from_numpy(a).sum().item() == pytest.approx(0.1 * (1 << 22), rel=1e-6)


# ---- matmul, cat, stack, where, clamp ------------------------------------------------------

MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)), ((1, 2, 3), (4, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3))]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("transposed", [False, True])
def test_matmul_matches_numpy(sa, sb, dtype, transposed):
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, sa).astype(dtype)
    b = rng.integers(-3, 4, sb).astype(dtype)
    tb = crt.from_numpy(np.ascontiguousarray(b.swapaxes(-1, -2))).transpose(-1, -2) if transposed and b.ndim >= 2 else crt.from_numpy(b)
    want = a @ b
    check(crt.from_numpy(a) @ tb, want, want.dtype)
    check(crt.matmul(a, b), want, want.dtype)


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
@pytest.mark.parametrize("out_dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("out_layout", ["contiguous", "transposed", "strided"])
def test_matmul_out_matches_numpy_and_writes_in_place(sa, sb, out_dtype, out_layout):
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, sa).astype(np.float32)
    b = rng.integers(-3, 4, sb).astype(np.float32)
    want = a @ b
    base = np.zeros(want.shape, out_dtype)
    if out_layout == "contiguous" or want.ndim < 2:
        view, out = base, crt.from_numpy(base)
    elif out_layout == "transposed":
        base = np.zeros(want.shape[:-2] + want.shape[-2:][::-1], out_dtype)
        view, out = base.swapaxes(-1, -2), crt.from_numpy(base).transpose(-1, -2)
    else:
        base = np.zeros(want.shape[:-1] + (2 * want.shape[-1],), out_dtype)
        view, out = base[..., ::2], crt.from_numpy(base)[..., ::2]
    assert crt.matmul(a, b, out=out) is out
    # the numpy array behind out received the values (out is a view of its memory)
    np.testing.assert_allclose(view, want.astype(out_dtype), rtol=1e-6)
    check(out, want.astype(out_dtype), out_dtype)


def test_matmul_out_allocates_nothing_aliases_and_refuses():
    a = crt.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4))
    b = crt.from_numpy(np.ones((4, 5), np.float32))
    out = crt.empty(3, 5)
    crt.matmul(a, b, out=out)
    before = crt.memory_stats().allocation_count
    for _ in range(5):
        crt.matmul(a, b, out=out)
    assert crt.memory_stats().allocation_count == before
    np.testing.assert_array_equal(out.numpy(), np.arange(12).reshape(3, 4) @ np.ones((4, 5)))
    # out is the left operand: read in full before it is written
    sq = crt.tensor([[1.0, 2.0], [3.0, 4.0]])
    crt.matmul(sq, crt.tensor([[0.0, 1.0], [1.0, 0.0]]), out=sq)
    np.testing.assert_array_equal(sq.numpy(), [[2, 1], [4, 3]])
    with pytest.raises(crt.ShapeError, match="out= must have the result's shape"):
        crt.matmul(a, b, out=crt.empty(5, 3))
    with pytest.raises(crt.ClikaError, match="distinct"):
        crt.matmul(a, b, out=crt.zeros(1, 5).expand(3, 5))
    ro = np.zeros((3, 5), np.float32)
    ro.flags.writeable = False
    with pytest.raises(crt.ReadOnlyError):
        crt.matmul(a, b, out=crt.from_numpy(ro))
    assert not ro.any()


@given(st.lists(small_arrays(NUMERIC, st.just((2, 3))), min_size=1, max_size=3), st.integers(-2, 1))
def test_cat_stack(arrays, dim):
    ts = [crt.from_numpy(a) for a in arrays]
    out = arrays[0].dtype
    for a in arrays[1:]:
        out = promoted(out, a.dtype)
    check(crt.cat(ts, dim), np.concatenate([a.astype(out) for a in arrays], axis=dim), out)
    check(crt.stack(ts, dim), np.stack([a.astype(out) for a in arrays], axis=dim), out)


@given(broadcast_pair(NUMERIC, [np.float32]), st.sampled_from(LAYOUTS))
def test_where(pair, layout):
    a, b = pair
    na, ta = lay_out(a, layout)
    cond = na > 0
    out = promoted(a.dtype, b.dtype)
    check(crt.where(ta > 0, ta, crt.from_numpy(b)), np.where(cond, na.astype(out), b.astype(out)), out)
    check(crt.where(ta > 0, ta, 0), np.where(cond, na, 0).astype(a.dtype), a.dtype)


@given(small_arrays(NUMERIC), st.sampled_from(LAYOUTS))
def test_clamp(a, layout):
    na, ta = lay_out(a, layout)
    lo = 0 if a.dtype.kind == "u" else -2  # a weak int scalar converts (wraps) to the dtype
    check(ta.clamp(lo, 3), np.clip(na, lo, 3), a.dtype)
    check(crt.clamp(ta, min=0), np.maximum(na, 0), a.dtype)
    check(crt.clamp(ta, max=1), np.minimum(na, 1), a.dtype)
    check(crt.clamp(ta, crt.zeros((), dtype=a.dtype), None), np.maximum(na, 0), a.dtype)


# ---- in place, out=, aliasing --------------------------------------------------------------


def test_inplace_operators_keep_identity_and_write_memory():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = crt.from_numpy(a)
    same = t
    t += 1
    assert t is same
    t *= crt.ones(3) * 2
    t -= np.ones((2, 3), np.float32)
    t /= 2.0
    t **= 1
    np.testing.assert_array_equal(a, (np.arange(6).reshape(2, 3) + 1) * 2 / 2 - 0.5)


def test_inplace_through_views_writes_the_base():
    base = crt.zeros(3, 4)
    view = base[:, 1::2]
    view.add_(1)
    base[0].fill_(7)
    np.testing.assert_array_equal(base.numpy(), [[7, 7, 7, 7], [0, 1, 0, 1], [0, 1, 0, 1]])
    base.T[0].copy_(np.array([5, 6, 7], np.float32))
    np.testing.assert_array_equal(base.numpy()[:, 0], [5, 6, 7])


def test_inplace_with_an_overlapping_operand_reads_before_writing():
    a = np.arange(9, dtype=np.float64).reshape(3, 3)
    t = crt.tensor(a)
    t += t.T
    np.testing.assert_array_equal(t.numpy(), a + a.T)
    u = crt.tensor(np.arange(5, dtype=np.float32))
    u[1:].copy_(u[:-1])
    np.testing.assert_array_equal(u.numpy(), [0, 0, 1, 2, 3])


def test_inplace_methods_return_self_and_broadcast():
    t = crt.zeros(2, 3)
    assert t.add_(crt.arange(3, dtype=crt.float32)) is t
    assert t.fill_(2) is t
    assert t.copy_(crt.arange(3)) is t
    np.testing.assert_array_equal(t.numpy(), [[0, 1, 2], [0, 1, 2]])
    with pytest.raises(crt.ShapeError):
        t.add_(crt.ones(4))
    with pytest.raises(crt.InvalidArgumentError, match="copy_"):
        t.fill_(crt.ones(1))


def test_inplace_on_read_only_memory_is_refused():
    a = np.ones(3, np.float32)
    a.flags.writeable = False
    t = crt.from_dlpack(a)
    with pytest.raises(crt.ReadOnlyError):
        t += 1
    with pytest.raises(crt.ReadOnlyError):
        t.fill_(0)


def test_out_writes_and_returns_out():
    a, b = crt.arange(6, dtype=crt.float32).reshape(2, 3), crt.ones(3)
    out = crt.empty(2, 3)
    assert crt.add(a, b, out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.arange(6).reshape(2, 3) + 1)
    assert crt.exp(crt.zeros(2, 3), out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.ones((2, 3)))
    iout = crt.zeros(2, 3, dtype=crt.int32)
    crt.mul(a, 2, out=iout)
    np.testing.assert_array_equal(iout.numpy(), np.arange(6).reshape(2, 3) * 2)
    crt.clamp(a, 1, 4, out=out)
    np.testing.assert_array_equal(out.numpy(), np.clip(np.arange(6).reshape(2, 3), 1, 4))
    # out= may alias an input
    crt.add(a, a, out=a)
    np.testing.assert_array_equal(a.numpy(), 2 * np.arange(6).reshape(2, 3))
    with pytest.raises(crt.ShapeError, match="out= has shape"):
        crt.add(a, b, out=crt.empty(3))


def test_out_allocates_nothing_and_reads_overlapping_inputs_first():
    a, b = crt.ones(4096), crt.arange(4096, dtype=crt.float32)
    out = crt.empty(4096)
    before = crt.memory_stats().allocation_count
    for _ in range(10):
        crt.add(a, b, out=out)
        crt.tanh(b, out=out)
    assert crt.memory_stats().allocation_count == before
    np.testing.assert_allclose(out.numpy(), np.tanh(np.arange(4096, dtype=np.float32)), rtol=1e-6)
    # out = x[1:], input = x[:-1]: the result is the negated original, not a running prefix.
    x = crt.tensor([1.0, 2.0, 3.0, 4.0])
    crt.neg(x[:-1], out=x[1:])
    np.testing.assert_array_equal(x.numpy(), [1, -1, -2, -3])


# ---- buffer reuse ------------------------------------------------------------------------


def test_temporaries_are_reused():
    c, d = crt.ones(1000), crt.ones(1000)
    before = crt.memory_stats().allocation_count
    e = c + d + d * 1.0 + d
    # c + d: one result; `d * 1.0`: its result and the 0-d scalar operand; the other two
    # sums write into the temporaries
    assert crt.memory_stats().allocation_count - before == 3
    np.testing.assert_array_equal(e.numpy(), np.full(1000, 4.0))
    np.testing.assert_array_equal(c.numpy(), np.ones(1000))
    np.testing.assert_array_equal(d.numpy(), np.ones(1000))


def test_named_and_borrowed_operands_are_never_overwritten():
    c, d = crt.ones(4), crt.ones(4)
    x = c + d
    y = x + d
    np.testing.assert_array_equal(x.numpy(), np.full(4, 2.0))
    np.testing.assert_array_equal(y.numpy(), np.full(4, 3.0))
    held = [c + d]
    r = operator.add(held[0], d)
    np.testing.assert_array_equal(held[0].numpy(), np.full(4, 2.0))
    np.testing.assert_array_equal(r.numpy(), np.full(4, 3.0))
    a = np.ones(4, np.float32)
    z = crt.from_numpy(a) + d  # the borrowed view is a temporary, but numpy owns its memory
    np.testing.assert_array_equal(a, np.ones(4))
    np.testing.assert_array_equal(z.numpy(), np.full(4, 2.0))
    v = (c + d).numpy()
    w = crt.from_numpy(v) + d
    np.testing.assert_array_equal(v, np.full(4, 2.0))
    np.testing.assert_array_equal(w.numpy(), np.full(4, 3.0))


def test_reuse_keeps_dtype_and_shape_rules():
    i = crt.tensor(np.arange(4, dtype=np.int32))
    r = (i + 0) / 2  # the int temporary cannot hold a float result
    assert r.dtype == crt.float32
    s = (crt.ones(4) + 0) + crt.ones(2, 4)  # nor a broadcast-larger one
    assert s.shape == (2, 4)


def test_large_operations_release_the_gil():
    """With a 10 s switch interval the main thread never hands the GIL over by itself, so the
    ticker thread can only run while an operation has released it."""
    import sys
    import threading
    import time

    a = crt.ones(1 << 22)
    small = crt.ones(100)
    go, stop = threading.Event(), threading.Event()
    ticks = []

    def ticker():
        go.wait()
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.0002)

    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    th = threading.Thread(target=ticker)
    th.start()
    try:
        go.set()  # the ticker wakes up and waits for the GIL
        for _ in range(2000):
            small + small  # below the threshold: keeps the GIL
        before_large = len(ticks)
        for _ in range(5):
            (a + a).sum()
        during_large = len(ticks) - before_large
    finally:
        stop.set()
        sys.setswitchinterval(old)
        th.join()
    assert before_large == 0
    assert during_large > 0
