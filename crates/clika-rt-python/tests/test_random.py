"""Random tensors: reproducible per seed (default generator and crt.Generator), independent of
the thread count, each element a function of (seed, call, index), and distributed as
documented (moments and ranges checked against numpy's statistics on large draws)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import clika_runtime as crt


def test_manual_seed_repeats_the_sequence():
    crt.manual_seed(123)
    a, b = crt.rand(5, 4), crt.randn(7)
    crt.manual_seed(123)
    np.testing.assert_array_equal(crt.rand(5, 4).numpy(), a.numpy())
    np.testing.assert_array_equal(crt.randn(7).numpy(), b.numpy())
    assert not np.array_equal(crt.rand(5, 4).numpy(), a.numpy())  # each call advances


def test_generators_are_independent_and_reseedable():
    g = crt.Generator().manual_seed(7)
    assert isinstance(g, crt.Generator) and g.initial_seed() == 7 and g.offset == 0
    x = crt.rand((3, 3), generator=g)
    assert g.offset == 1
    crt.manual_seed(99)  # the default generator does not disturb g
    g.manual_seed(7)
    np.testing.assert_array_equal(crt.rand(size=(3, 3), generator=g).numpy(), x.numpy())
    other = crt.Generator().manual_seed(8)
    assert not np.array_equal(crt.rand(3, 3, generator=other).numpy(), x.numpy())


def test_an_element_depends_only_on_its_index():
    g = crt.Generator().manual_seed(5)
    short = crt.randn(10, generator=g, dtype=crt.float64).numpy()
    g.manual_seed(5)
    long = crt.randn(100_000, generator=g, dtype=crt.float64).numpy()
    np.testing.assert_array_equal(long[:10], short)
    g.manual_seed(5)
    np.testing.assert_array_equal(crt.randn(10, 10_000, generator=g, dtype=crt.float64).numpy().ravel(), long)


def test_same_values_with_one_thread_and_many():
    code = (
        "import clika_runtime as crt, hashlib;"
        "crt.manual_seed(2024);"
        "print(hashlib.sha256(crt.randn(300_000).numpy().tobytes()"
        "+ crt.randint(0, 1000, (200_000,)).numpy().tobytes()).hexdigest())"
    )
    assert len(outputs_on_one_thread_and_four(code)) == 1


def outputs_on_one_thread_and_four(code):
    """The distinct outputs of `python -c code` run with one thread and with four."""
    outputs = set()
    for threads in ("1", "4"):
        env = dict(os.environ, RAYON_NUM_THREADS=threads, CLIKA_RT_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        outputs.add(out.stdout.strip())
    return outputs


@pytest.mark.parametrize("dtype,np_dtype", [(crt.float32, np.float32), (crt.float64, np.float64), (crt.float16, np.float16), (crt.bfloat16, None)])
def test_rand_is_uniform_below_one(dtype, np_dtype):
    crt.manual_seed(1)
    t = crt.rand(200_000, dtype=dtype)
    assert t.dtype == dtype
    x = t.to(crt.float64).numpy() if np_dtype is None else t.numpy().astype(np.float64)
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.01 and abs(x.var() - 1 / 12) < 0.01
    hist, _ = np.histogram(x, bins=10, range=(0, 1))
    assert hist.min() > 0.9 * len(x) / 10


def test_randn_and_normal_moments():
    crt.manual_seed(2)
    x = crt.randn(400_000, dtype=crt.float64).numpy()
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    assert abs(np.mean(np.abs(x) < 1) - 0.6827) < 0.005  # the normal's one-sigma mass
    y = crt.normal(3.0, 0.5, (100_000,)).numpy()
    assert y.dtype == np.float32 and abs(y.mean() - 3) < 0.01 and abs(y.std() - 0.5) < 0.01
    with pytest.raises(crt.InvalidArgumentError, match="std"):
        crt.normal(0.0, -1.0, (2,))


def test_uniform_range():
    crt.manual_seed(3)
    x = crt.uniform(-2.0, 5.0, (100_000,), dtype=crt.float64).numpy()
    assert x.min() >= -2 and x.max() < 5 and abs(x.mean() - 1.5) < 0.05
    with pytest.raises(crt.InvalidArgumentError):
        crt.uniform(1.0, 0.0, (2,))


@pytest.mark.parametrize("dtype", [crt.int64, crt.int32, crt.uint8, crt.float32])
def test_randint_covers_the_range_uniformly(dtype):
    crt.manual_seed(4)
    t = crt.randint(-3 if dtype != crt.uint8 else 0, 7, (70_000,), dtype=dtype)
    assert t.dtype == dtype
    x = t.numpy().astype(np.int64)
    lo = -3 if dtype != crt.uint8 else 0
    counts = np.bincount(x - lo)
    assert x.min() == lo and x.max() == 6 and len(counts) == 7 - lo
    assert counts.min() > 0.9 * len(x) / (7 - lo)
    assert crt.randint(5, (3,)).numpy().max() < 5  # randint(high, size)
    with pytest.raises(crt.InvalidArgumentError, match="low < high"):
        crt.randint(3, 3, (2,))
    with pytest.raises(TypeError, match="randint"):
        crt.randint(3)


def test_bernoulli_probabilities():
    crt.manual_seed(5)
    p = crt.tensor(np.array([0.0, 1.0, 0.25], np.float32)).expand(50_000, 3)
    b = crt.bernoulli(p).numpy()
    assert b.dtype == np.float32 and b.shape == (50_000, 3)
    assert (b[:, 0] == 0).all() and (b[:, 1] == 1).all() and abs(b[:, 2].mean() - 0.25) < 0.01
    q = crt.bernoulli(crt.zeros(100_000, dtype=crt.float64), p=0.7).numpy()
    assert abs(q.mean() - 0.7) < 0.01
    with pytest.raises(crt.InvalidArgumentError, match=r"\[0, 1\]"):
        crt.bernoulli(crt.tensor([1.5]))


def test_random_refusals_and_empty():
    assert crt.rand(0, 3).shape == (0, 3)
    assert crt.randn().shape == ()
    with pytest.raises(crt.InvalidArgumentError, match="float"):
        crt.rand(2, dtype=crt.int32)
    with pytest.raises(TypeError):
        crt.rand(2, size=(2,))
