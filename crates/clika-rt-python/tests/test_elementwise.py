"""The newer elementwise ops and the integer operators (issue 14) against numpy, on
contiguous, strided, transposed, broadcast (stride 0) and empty inputs and every relevant
dtype: rounding (half to even, decimals), predicates, transcendental functions, Python's
``//`` and ``%`` (with ZeroDivisionError for integers), bitwise and logical ops, shifts,
``tril``/``triu``, the reflected and in-place operators, and the in-place casting rule."""

import operator
import warnings

import numpy as np
import pytest

import clika_runtime as crt

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8]
FLOATS = [np.float32, np.float64]
LAYOUTS = ["contiguous", "strided", "transposed", "broadcast", "empty"]

RNG = np.random.default_rng(14)


def lay_out(a, layout):
    """(numpy view, tensor view) of the same values in `layout`."""
    if layout == "empty":
        a = np.ascontiguousarray(a[:0])
        return a, crt.from_numpy(a)
    if layout == "contiguous":
        a = np.ascontiguousarray(a)
        return a, crt.from_numpy(a)
    if layout == "strided":
        big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        big[..., ::2] = a
        return big[..., ::2], crt.from_numpy(big)[..., ::2]
    if layout == "transposed":
        at = np.ascontiguousarray(a.T)
        return at.T, crt.from_numpy(at).T
    row = np.ascontiguousarray(a[:1])
    view = np.broadcast_to(row, a.shape)
    return view, crt.from_dlpack(view)


def values(dtype, shape=(3, 4), lo=-20, hi=20):
    d = np.dtype(dtype)
    if d.kind == "f":
        a = RNG.uniform(lo, hi, shape).astype(d)
        a.flat[:6] = [0.5, -2.5, 1.5, -0.0, np.inf, np.nan][: a.size]
        return a
    if d.kind == "u":
        return RNG.integers(0, min(hi, np.iinfo(d).max) + 1, shape).astype(d)
    return RNG.integers(max(lo, np.iinfo(d).min), min(hi, np.iinfo(d).max) + 1, shape).astype(d)


def check(got, want, rtol=1e-6, atol=0.0):
    g = got.numpy()
    want = np.asarray(want)
    assert g.shape == want.shape
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if g.dtype.kind == "f":
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


FLOAT_UNARY = {
    "round": np.round,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "sign": np.sign,
    "log1p": np.log1p,
    "expm1": np.expm1,
    "log2": np.log2,
    "log10": np.log10,
    "exp2": np.exp2,
    "tan": np.tan,
    "atan": np.arctan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "sinh": np.sinh,
    "cosh": np.cosh,
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(FLOAT_UNARY))
def test_float_unary_matches_numpy(name, dtype, layout):
    lo, hi = (-1, 1) if name in ("asin", "acos", "log1p") else (-20, 20)
    na, ta = lay_out(values(dtype, lo=lo, hi=hi), layout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = FLOAT_UNARY[name](na)
    rtol = 2e-6 if dtype == np.float32 else 1e-12
    check(getattr(crt, name)(ta), want, rtol=rtol, atol=1e-30)
    check(getattr(ta, name)(), want, rtol=rtol, atol=1e-30)


@pytest.mark.parametrize("dtype", [np.float16])
def test_half_rounding(dtype):
    a = np.array([0.5, 1.5, 2.5, -0.5, -1.25, 3.75], dtype)
    check(crt.round(crt.from_numpy(a)), np.round(a))
    check(crt.floor(crt.from_numpy(a)), np.floor(a))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_rounding_and_sign_keep_integer_dtypes(dtype, layout):
    a = values(dtype) if dtype != np.bool_ else RNG.integers(0, 2, (3, 4)).astype(bool)
    na, ta = lay_out(a, layout)
    for name in ("round", "floor", "ceil", "trunc"):
        check(getattr(crt, name)(ta), na)
    check(crt.sign(ta), na if dtype == np.bool_ else np.sign(na))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_predicates_give_bool(dtype, layout):
    a = values(dtype) if dtype != np.bool_ else RNG.integers(0, 2, (3, 4)).astype(bool)
    na, ta = lay_out(a, layout)
    check(crt.isnan(ta), np.isnan(na))
    check(crt.isinf(ta), np.isinf(na))
    check(crt.isfinite(ta), np.isfinite(na))
    check(crt.logical_not(ta), np.logical_not(na))


def test_round_half_to_even_and_decimals():
    a = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.2345, -2.675, 1234.5678], np.float64)
    t = crt.from_numpy(a)
    check(t.round(), np.round(a))
    for d in (1, 2, 3, -1, -2):
        check(crt.round(t, decimals=d), np.round(a, d))
        check(t.round(d), np.round(a, d))
    check(round(t), np.round(a))
    # normalise -> uint8 round-trips once rounded (the example).
    img = RNG.integers(0, 256, 1000).astype(np.uint8)
    x = crt.from_numpy(img.astype(np.float32) / 255.0)
    back = (x * 255.0).round().to(crt.uint8).numpy()
    np.testing.assert_array_equal(back, img)
    i = crt.from_numpy(np.array([15, 25], np.int32))
    check(crt.round(i, decimals=1), np.array([15, 25], np.int32))
    with pytest.raises(crt.DTypeError, match="float"):
        crt.round(i, decimals=-1)


BINARY_FLOAT = {
    "atan2": np.arctan2,
    "hypot": np.hypot,
    "fmod": np.fmod,
    "remainder": np.remainder,
    "floor_divide": np.floor_divide,
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(BINARY_FLOAT))
def test_float_binary_matches_numpy(name, dtype, layout):
    na, ta = lay_out(values(dtype), layout)
    b = values(dtype)
    b[b == 0] = 3
    nb, tb = lay_out(b, "contiguous" if layout == "empty" else layout)
    if layout == "empty":
        nb, tb = nb[:0], tb[:0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = BINARY_FLOAT[name](na, nb)
        want_bcast = BINARY_FLOAT[name](na, nb[:1])
        want_scalar = BINARY_FLOAT[name](na, dtype(2.5))
    check(getattr(crt, name)(ta, tb), want, rtol=1e-6)
    check(getattr(ta, name)(tb), want, rtol=1e-6)
    check(getattr(crt, name)(ta, tb[:1]), want_bcast, rtol=1e-6)
    check(getattr(crt, name)(ta, 2.5), want_scalar, rtol=1e-6)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTS)
def test_integer_floor_divide_remainder_fmod(dtype, layout):
    na, ta = lay_out(values(dtype), layout)
    b = values(dtype)
    b[b == 0] = 3
    nb, tb = (b[:0], crt.from_numpy(b[:0])) if layout == "empty" else lay_out(b, layout)
    check(ta // tb, na // nb)
    check(ta % tb, na % nb)
    check(crt.fmod(ta, tb), np.fmod(na, nb))
    check(crt.floor_divide(ta, tb), np.floor_divide(na, nb))
    check(crt.remainder(ta, tb), np.remainder(na, nb))
    # Python scalars on either side (weak: the tensor's dtype is kept).
    check(ta // 3, na // dtype(3))
    check(ta % 3, na % dtype(3))
    if layout != "empty" and np.all(na != 0):
        check(7 // ta, dtype(7) // na)
        check(7 % ta, dtype(7) % na)


@pytest.mark.parametrize("dtype", INTS)
def test_integer_division_by_zero_raises(dtype):
    a = crt.from_numpy(np.array([1, 2, 3], dtype))
    z = crt.from_numpy(np.array([1, 0, 3], dtype))
    for f in (operator.floordiv, operator.mod, crt.fmod, crt.floor_divide, crt.remainder):
        with pytest.raises(ZeroDivisionError, match="division by zero"):
            f(a, z)
    # Python's exception and the runtime's: `except crt.ClikaError` catches it too.
    with pytest.raises(crt.DivisionByZeroError) as e:
        a // 0
    assert isinstance(e.value, crt.ClikaError) and isinstance(e.value, ZeroDivisionError)
    t = crt.from_numpy(np.array([4, 5], dtype))
    with pytest.raises(ZeroDivisionError):
        t //= 0
    np.testing.assert_array_equal(t.numpy(), [4, 5])


def test_float_division_by_zero_is_ieee():
    a = np.array([1.0, -1.0, 0.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(crt.from_numpy(a) // 0.0, a // np.float32(0))
        check(crt.from_numpy(a) % 0.0, a % np.float32(0))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_bitwise_ops_match_numpy(dtype, layout):
    gen = (lambda: RNG.integers(0, 2, (3, 4)).astype(bool)) if dtype == np.bool_ else (lambda: values(dtype, lo=-100, hi=100))
    na, ta = lay_out(gen(), layout)
    nb, tb = (lambda b: (b[:0], crt.from_numpy(b[:0])) if layout == "empty" else lay_out(b, layout))(gen())
    check(ta & tb, na & nb)
    check(ta | tb, na | nb)
    check(ta ^ tb, na ^ nb)
    check(~ta, ~na)
    check(crt.bitwise_and(ta, tb), np.bitwise_and(na, nb))
    check(crt.bitwise_or(ta, tb[:1]), np.bitwise_or(na, nb[:1]))
    check(crt.bitwise_xor(ta, tb), np.bitwise_xor(na, nb))
    check(crt.bitwise_not(ta), np.invert(na))
    check(ta.logical_and(tb), np.logical_and(na, nb))
    check(crt.logical_or(ta, tb), np.logical_or(na, nb))
    check(crt.logical_xor(ta, tb), np.logical_xor(na, nb))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTS)
def test_shifts_match_numpy(dtype, layout):
    na, ta = lay_out(values(dtype, lo=-50, hi=50), layout)
    bits = np.dtype(dtype).itemsize * 8
    s = RNG.integers(0, bits, (3, 4)).astype(dtype)
    ns, ts = (s[:0], crt.from_numpy(s[:0])) if layout == "empty" else lay_out(s, layout)
    check(ta << ts, na << ns)
    check(ta >> ts, na >> ns)
    check(crt.bitwise_left_shift(ta, 2), np.left_shift(na, dtype(2)))
    check(ta >> 1, na >> dtype(1))
    check(1 << ts, dtype(1) << ns)


def test_bitwise_refuses_floats_with_the_fix():
    f = crt.from_numpy(np.ones(3, np.float32))
    with pytest.raises(crt.DTypeError, match="logical_and"):
        f & f
    with pytest.raises(crt.DTypeError):
        ~f
    with pytest.raises(crt.DTypeError):
        f << 1
    b = crt.from_numpy(np.ones(3, bool))
    with pytest.raises(crt.DTypeError):
        b << b


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 5])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_tril_triu_match_numpy(k, dtype):
    a = (RNG.integers(0, 2, (2, 3, 4)) if dtype == np.bool_ else RNG.integers(-9, 9, (2, 3, 4))).astype(dtype)
    for na, ta in (lay_out(a, "contiguous"), lay_out(a, "transposed")):
        check(crt.tril(ta, k), np.tril(na, k))
        check(ta.triu(k), np.triu(na, k))
        check(ta.tril(diagonal=k), np.tril(na, k))
    e = np.zeros((0, 3), dtype)
    check(crt.triu(crt.from_numpy(e)), np.triu(e))
    with pytest.raises(crt.InvalidArgumentError, match="2 dimensions"):
        crt.tril(crt.from_numpy(np.ones(3, dtype)))


OPS = {
    "floordiv": (operator.floordiv, operator.ifloordiv),
    "mod": (operator.mod, operator.imod),
    "and": (operator.and_, operator.iand),
    "or": (operator.or_, operator.ior),
    "xor": (operator.xor, operator.ixor),
    "lshift": (operator.lshift, operator.ilshift),
    "rshift": (operator.rshift, operator.irshift),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_in_place_and_reflected_operators(name):
    op, iop = OPS[name]
    a = values(np.int32, lo=1, hi=30)
    b = values(np.int32, lo=1, hi=5)
    t = crt.from_numpy(a.copy())
    alias = t[0]
    before = t
    t = iop(t, crt.from_numpy(b))
    assert t is before
    want = op(a, b)
    np.testing.assert_array_equal(t.numpy(), want)
    np.testing.assert_array_equal(alias.numpy(), want[0])  # written in place
    # A numpy array on the left defers to the tensor's reflected operator.
    r = op(b, crt.from_numpy(a))
    assert isinstance(r, crt.Tensor)
    np.testing.assert_array_equal(r.numpy(), op(b, a))


def test_in_place_casting_rule():
    t = crt.from_numpy(np.array([1, 2, 3], np.int32))
    for f in (lambda: operator.iadd(t, 1.5), lambda: t.add_(1.5), lambda: t.mul_(0.5), lambda: t.sub_(0.5), lambda: t.div_(2)):
        with pytest.raises(crt.DTypeError, match="to_dtype"):
            f()
    with pytest.raises(crt.DTypeError):
        t //= 1.5
    np.testing.assert_array_equal(t.numpy(), [1, 2, 3])
    t += 2
    t.sub_(1)
    t.mul_(2)
    np.testing.assert_array_equal(t.numpy(), [4, 6, 8])
    f = crt.from_numpy(np.array([1.0, 2.0], np.float32))
    f.div_(2)
    f += crt.from_numpy(np.array([1, 1], np.int64))
    np.testing.assert_allclose(f.numpy(), [1.5, 2.0])
    b = crt.from_numpy(np.array([True, False]))
    with pytest.raises(crt.DTypeError):
        b += 1


def test_clamp_and_zero_in_place():
    a = np.array([-5, 0, 9], np.int64)
    t = crt.from_numpy(a.copy())
    assert t.clamp_(-1, 3) is t
    np.testing.assert_array_equal(t.numpy(), np.clip(a, -1, 3))
    t.clamp_(max=2)
    np.testing.assert_array_equal(t.numpy(), np.clip(a, -1, 2))
    with pytest.raises(crt.DTypeError):
        t.clamp_(0.5)
    assert t.zero_() is t
    np.testing.assert_array_equal(t.numpy(), [0, 0, 0])
    f = crt.from_numpy(np.array([[-2.0, 0.5], [3.0, np.nan]], np.float32))
    f.T.clamp_(min=0.0)
    np.testing.assert_allclose(f.numpy(), [[0.0, 0.5], [3.0, np.nan]])


@pytest.mark.parametrize("shape, axes", [((37, 53), (1, 0)), ((4, 6, 70), (2, 0, 1)), ((300, 500), (1, 0))])
@np.errstate(over="ignore")  # 70000 → float16 is inf, as intended
def test_to_dtype_keeps_a_dense_permuted_layout_as_torch_and_numpy_do(shape, axes):
    """``to(dtype)`` of a transpose or a channels-last view keeps its layout, as numpy's
    ``astype`` (order "K") and PyTorch's ``to`` (``preserve_format``) do, with numpy's values;
    a view with gaps converts row-major (PyTorch's choice), and ``contiguous()`` and
    ``clone()`` are row-major copies."""
    base = (RNG.standard_normal(shape) * 100).astype(np.float32)
    base.flat[:3] = [70000.0, -0.0, 65519.0]  # float16: inf, -0 and its largest finite
    a, t = base.transpose(axes), crt.from_numpy(base).permute(*axes)
    for dtype, np_dtype in [(crt.float16, np.float16), (crt.float64, np.float64), (crt.int32, np.int32)]:
        want = a.astype(np_dtype)
        got = t.to(dtype)
        assert tuple(got.strides) == tuple(s // want.itemsize for s in want.strides) == t.strides
        np.testing.assert_array_equal(got.numpy(), want)
        back = got.to(crt.float32)
        assert back.strides == t.strides
        np.testing.assert_array_equal(back.numpy(), want.astype(np.float32))
    gapped = t[::2]
    got = gapped.to(crt.float16)
    assert got.is_contiguous()
    np.testing.assert_array_equal(got.numpy(), a[::2].astype(np.float16))
    for copy in (t.contiguous(), t.clone()):
        assert copy.is_contiguous()
        np.testing.assert_array_equal(copy.numpy(), a)
    # A broadcast view (stride 0) converts row-major, with numpy's values.
    row = crt.from_numpy(base).permute(*axes)[:1].expand(*a.shape)
    got = row.to(crt.float64)
    assert got.is_contiguous()
    np.testing.assert_array_equal(got.numpy(), np.broadcast_to(a[:1], a.shape).astype(np.float64))


@pytest.mark.parametrize("shape, axes", [((0, 5), (1, 0)), ((5, 0), (1, 0)), ((3, 0, 4), (2, 0, 1))])
def test_to_dtype_of_empty_permuted_views_gives_numpys_shape(shape, axes):
    """Empty transposes convert to empty tensors of numpy's shape and dtype."""
    a = np.zeros(shape, np.float32).transpose(axes)
    got = crt.from_numpy(np.zeros(shape, np.float32)).permute(*axes).to(crt.float16)
    assert got.shape == a.shape and got.dtype == crt.float16
    np.testing.assert_array_equal(got.numpy(), a.astype(np.float16))


@pytest.mark.parametrize("shape, axes", [((37, 53), (1, 0)), ((4, 6, 70), (2, 0, 1)), ((300, 500), (1, 0))])
def test_results_keep_a_shared_permuted_layout_as_numpy_does(shape, axes):
    """A fresh elementwise result (``clamp`` and ``where`` too) keeps the layout its operands
    share (transposed, channels-last, with a scalar beside them), as numpy's ``order="K"``
    does: the same
    strides as numpy's result and the same values; mixed layouts, broadcast rows, device
    results and ``out=`` stay row-major. The large case runs the kernels' memory-order pass."""
    base = RNG.standard_normal(shape).astype(np.float32)
    other = RNG.standard_normal(shape).astype(np.float32) + 3
    a, b = base.transpose(axes), other.transpose(axes)
    ta, tb = crt.from_numpy(base).permute(*axes), crt.from_numpy(other).permute(*axes)
    for got, want in [
        (ta + tb, a + b),
        (ta * 2.5, a * np.float32(2.5)),
        (1 - ta, np.float32(1) - a),
        (ta < tb, a < b),
        (crt.exp(ta), np.exp(a)),
        (-ta, -a),
        (ta.clamp(-0.5, 0.5), np.clip(a, np.float32(-0.5), np.float32(0.5))),
        (crt.where(ta > 0, ta, tb), np.where(a > 0, a, b)),
        (crt.where(ta > 0, ta, 0.0), np.where(a > 0, a, np.float32(0))),
        (crt.from_numpy(base.astype(np.int32)).permute(*axes) / tb, base.astype(np.int32).transpose(axes) / b),
    ]:
        assert tuple(got.strides) == tuple(s // want.itemsize for s in want.strides)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    # In place on a transposed view: its own layout, values as numpy's.
    inplace = crt.from_numpy(base.copy()).permute(*axes)
    inplace.clamp_(-0.25, 0.25)
    np.testing.assert_array_equal(inplace.numpy(), np.clip(a, np.float32(-0.25), np.float32(0.25)))
    # Operands of different layouts, or a broadcast row: row-major, as PyTorch.
    mixed = ta + crt.from_numpy(np.ascontiguousarray(b))
    assert mixed.is_contiguous()
    np.testing.assert_allclose(mixed.numpy(), a + b, rtol=1e-6)
    row = ta + crt.from_numpy(np.ascontiguousarray(b[:1]))
    assert row.is_contiguous()
    np.testing.assert_allclose(row.numpy(), a + b[:1], rtol=1e-6)
    # `out=` keeps the caller's row-major tensor.
    out = crt.empty(a.shape, dtype=crt.float32)
    crt.add(ta, tb, out=out)
    assert out.is_contiguous()
    np.testing.assert_allclose(out.numpy(), a + b, rtol=1e-6)
