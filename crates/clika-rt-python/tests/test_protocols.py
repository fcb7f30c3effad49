"""Python protocols on tensors: float()/int()/operator.index()/format() of one-element
tensors, and numpy's reduction keywords so np.sum(t), np.mean(t, axis=0), np.var(t) and
np.argmax(t) call the tensor's own methods."""

import operator

import numpy as np
import pytest

import clika_runtime as crt


def test_scalar_conversions_of_one_element_tensors():
    t = crt.tensor([[2.75]], dtype=crt.float32)
    assert float(t) == 2.75
    assert int(t) == 2
    assert int(crt.tensor(-2.75)) == -2
    assert operator.index(crt.tensor(7, dtype=crt.int16)) == 7
    assert list(range(10))[crt.tensor(3)] == 3
    assert f"{crt.tensor(3.14159):.2f}" == "3.14"
    assert f"{crt.tensor(42, dtype=crt.int64):05d}" == "00042"
    assert f"{crt.tensor(True)}" == "True"
    assert format(crt.zeros(2, 2)) == str(crt.zeros(2, 2))


def test_scalar_conversions_refuse_with_the_fix():
    with pytest.raises(TypeError, match="one element"):
        float(crt.zeros(2))
    with pytest.raises(TypeError, match="one element"):
        int(crt.zeros(0))
    with pytest.raises(TypeError, match="integer"):
        operator.index(crt.tensor(1.5))
    with pytest.raises(TypeError):
        f"{crt.zeros(3):.2f}"


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "max", "min", "var", "std"])
def test_numpy_reductions_call_the_methods(name):
    a = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    t = crt.from_numpy(a)
    f = getattr(np, name)
    for kwargs in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}, {"axis": (0, 1)}):
        got = f(t, **kwargs)
        want = f(a, **kwargs)
        assert isinstance(got, crt.Tensor), (name, kwargs)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, err_msg=f"{name} {kwargs}")


def test_numpy_argmax_and_out_and_dtype():
    a = np.array([[1, 9, 3], [7, 2, 8]], dtype=np.int32)
    t = crt.from_numpy(a)
    assert int(np.argmax(t)) == int(np.argmax(a))
    np.testing.assert_array_equal(np.asarray(np.argmin(t, axis=1)), np.argmin(a, axis=1))
    out = crt.zeros(3, dtype=crt.float64)
    r = t.sum(axis=0, out=out)
    assert r is out
    np.testing.assert_array_equal(out.numpy(), a.sum(axis=0))
    assert t.sum(dtype=crt.float32).dtype == crt.float32
    np.testing.assert_allclose(float(np.var(t, ddof=1)), a.var(ddof=1))
    # The functions take PyTorch's dtype= and out= too (torch.sum(input, dim, keepdim, *,
    # dtype, out)), on any layout, and check out's shape.
    for fn, npf in ((crt.sum, np.sum), (crt.mean, np.mean), (crt.prod, np.prod)):
        o = crt.zeros(2, dtype=crt.float64)
        assert fn(t.T, 0, out=o) is o
        np.testing.assert_allclose(o.numpy(), npf(a.T.astype(np.float64), axis=0))
        o = crt.zeros(1, 3)
        assert fn(a, 0, True, out=o, dtype=crt.float64) is o
        np.testing.assert_allclose(o.numpy(), npf(a.astype(np.float64), axis=0, keepdims=True))
        assert fn(t, dtype=crt.float64).dtype == crt.float64
        with pytest.raises(crt.ShapeError, match="out= has shape"):
            fn(t, 1, out=crt.zeros(3))
    with pytest.raises(crt.InvalidArgumentError, match="dim and axis"):
        t.sum(dim=0, axis=1)


def test_free_var_std_max_min_take_out_as_pytorch():
    a = np.array([[1.5, 9.0, 3.0, -2.0], [7.0, 2.0, 8.0, 8.0], [0.0, -1.0, 4.0, 6.5]])
    t = crt.from_numpy(a)
    # var/std: torch.var(input, dim, *, correction, keepdim, out); strided and empty inputs.
    for fn, npf in ((crt.var, np.var), (crt.std, np.std)):
        o = crt.zeros(4, dtype=crt.float64)
        assert fn(t, 0, out=o) is o
        np.testing.assert_allclose(o.numpy(), npf(a, axis=0, ddof=1))
        o = crt.zeros(1, 3)
        assert fn(t.T, 0, correction=0, keepdim=True, out=o) is o
        np.testing.assert_allclose(o.numpy(), npf(a.T, axis=0, ddof=0, keepdims=True), rtol=1e-6)
        o = crt.zeros(())
        assert fn(t, out=o) is o
        np.testing.assert_allclose(o.item(), npf(a, ddof=1), rtol=1e-6)
        with pytest.raises(crt.ShapeError, match="out= has shape"):
            fn(t, 1, out=crt.zeros(4))
        o = crt.zeros(0)
        assert fn(crt.zeros(0, 3), 1, out=o) is o
    # max/min: with one int dim, out=(values, indices) as torch.max(input, dim, keepdim, *, out).
    for fn, npf, npa in ((crt.max, np.max, np.argmax), (crt.min, np.min, np.argmin)):
        for src, view in ((a, t), (a.T, t.T), (a[:, ::2], t[:, ::2])):
            for dim in (0, 1, -1):
                n = npf(src, axis=dim).shape
                v, i = crt.zeros(*n, dtype=crt.float64), crt.zeros(*n, dtype=crt.int64)
                r = fn(view, dim, out=(v, i))
                assert r.values is v and r.indices is i
                np.testing.assert_array_equal(v.numpy(), npf(src, axis=dim))
                np.testing.assert_array_equal(i.numpy(), npa(src, axis=dim))
        o = crt.zeros((), dtype=crt.float64)
        assert fn(t, out=o) is o and o.item() == npf(a)
        o = crt.zeros(1, 1, dtype=crt.float64)
        assert fn(t, (0, 1), True, out=o) is o and o.item() == npf(a)
        # Refusals name the fix and write nothing.
        v, i = crt.full((4,), 5.0), crt.zeros(4, dtype=crt.int32)
        with pytest.raises(crt.DTypeError, match="int64"):
            fn(t, 0, out=(v, i))
        assert v.tolist() == [5.0] * 4
        with pytest.raises(crt.ShapeError, match="indices has shape"):
            fn(t, 0, out=(v, crt.zeros(3, dtype=crt.int64)))
        assert v.tolist() == [5.0] * 4
        with pytest.raises(crt.InvalidArgumentError, match="out=\\(values, indices\\)"):
            fn(t, 0, out=v)
        with pytest.raises(crt.InvalidArgumentError, match="one tensor as out="):
            fn(t, out=(v, i))
        v, i = crt.zeros(0), crt.zeros(0, dtype=crt.int64)
        assert fn(crt.zeros(0, 3), 1, out=(v, i)).values is v
    with pytest.raises(ValueError, match="ddof"):
        t.var(correction=1, ddof=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int8, np.int16, np.int64, np.uint16, np.uint64, np.bool_])
def test_nbytes_and_itemsize_as_numpy(dtype):
    a = np.zeros((3, 4, 5), dtype)
    t = crt.from_numpy(a)
    views = [
        (t, a),  # contiguous
        (t[:, ::2, 1:], a[:, ::2, 1:]),  # strided: its own elements, not the storage
        (t[:, :1].expand(3, 4, 5), np.broadcast_to(a[:, :1], (3, 4, 5))),  # every element shown
        (t[:, 4:], a[:, 4:]),  # empty
        (t[1, 2, 3], a[1, 2, 3]),  # 0-d
    ]
    for ct, na in views:
        assert (ct.nbytes, ct.itemsize, ct.element_size()) == (na.nbytes, na.itemsize, na.itemsize)
    assert crt.zeros(2, dtype=crt.bfloat16).itemsize == 2
