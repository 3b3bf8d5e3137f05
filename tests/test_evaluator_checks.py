"""The evaluator's check for values XLA could flush (``exact_ops.subnormal``, ``flushed``) takes
shorter ways for a single element and for an array of normal magnitudes: its answer must be
the element-by-element definition's on every float16 value, on float32 values at and around
each bound, NaNs of both signs, infinities and zeros, alone and mixed in arrays, for both
bounds and with NaN counted or not. And the values it checked are remembered within one
evaluation only, by a reference that cannot stand for another value."""

from __future__ import annotations

import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.worker import exact_ops
from judge.worker.evaluate import Evaluator

RNG = np.random.default_rng(20261207)


def defined(values, limit=exact_ops._TINY, nan=True) -> bool:
    """The check element by element, as it is defined."""
    for value in values:
        if value.dtype == exact_ops.F32:
            bound = limit
        elif value.dtype == exact_ops.F16:
            bound = exact_ops._HALF_TINY if limit is exact_ops._TINY else exact_ops._HALF_ABOVE_TINY
        else:
            continue
        if not value.size:
            continue
        magnitude = np.abs(value)
        kept = (magnitude >= bound) | (magnitude == 0)
        if not (kept if nan else kept | np.isnan(value)).all():
            return True
    return False


def _float32_values() -> np.ndarray:
    tiny = int(np.float32(np.finfo(np.float32).tiny).view(np.uint32))
    bits = set()
    for b in (0, 1, 2, 0x7FFFFF, tiny - 1, tiny, tiny + 1, tiny + 2, 0x3F800000, 0x7F7FFFFF,
              0x7F800000, 0x7F800001, 0x7FC00000, 0x7FFFFFFF):
        bits |= {b, b | 0x80000000}
    bits |= {int(b) for b in RNG.integers(0, 1 << 32, 600, dtype=np.uint64)}
    return np.array(sorted(bits), dtype=np.uint32).view(np.float32)


FLOAT16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
FLOAT32 = _float32_values()
LIMITS = [(exact_ops._TINY, True), (exact_ops._TINY, False), (exact_ops._ABOVE_TINY, True)]


@pytest.mark.parametrize("limit,nan", LIMITS)
@pytest.mark.parametrize("pool", [FLOAT16, FLOAT32], ids=["float16", "float32"])
def test_single_values_as_defined(pool, limit, nan):
    for x in pool:
        for value in (np.array(x), np.array([[x]]), x):  # 0-d, one element in two axes, a scalar
            assert exact_ops.subnormal([value], limit, nan) == defined([value], limit, nan), \
                (x, value.shape, float(limit), nan)


@pytest.mark.parametrize("limit,nan", LIMITS)
@pytest.mark.parametrize("pool", [FLOAT16, FLOAT32], ids=["float16", "float32"])
def test_arrays_as_defined(pool, limit, nan):
    normal = np.array([1.5, -3.0, 1e4], dtype=pool.dtype)
    for _ in range(1500):
        picked = pool[RNG.integers(0, len(pool), RNG.integers(2, 7))]
        if RNG.random() < 0.6:  # mostly normal, one value of any kind
            picked = np.concatenate([RNG.choice(normal, len(picked) - 1), picked[:1]])
        value = RNG.permutation(picked).reshape(-1, 1) if RNG.random() < 0.3 else RNG.permutation(picked)
        others = [np.array(pool[RNG.integers(len(pool))]), np.zeros(0, pool.dtype),
                  np.arange(3, dtype=np.int32), np.array([True])]
        for values in ([value], RNG.permutation(np.array([value, *others], dtype=object)).tolist()):
            assert exact_ops.subnormal(values, limit, nan) == defined(values, limit, nan), \
                (value, float(limit), nan)


def test_flushed_counts_the_smallest_normal():
    tiny = np.float32(np.finfo(np.float32).tiny)
    for value in (np.array(tiny), np.array([1.0, tiny], np.float32), np.array(-tiny)):
        assert exact_ops.flushed([value]) and not exact_ops.subnormal([value])
    assert not exact_ops.flushed([np.array([1.0, 0.0, -0.0, np.inf], np.float32)])


def test_checked_values_are_remembered_within_one_evaluation_only():
    evaluator = Evaluator(jax)
    closed = jax.make_jaxpr(lambda x: x * 1e30)(np.ones(3, np.float32))
    x = np.array([1.0, 2.0, 3.0], np.float32)
    assert np.array_equal(np.asarray(evaluator.run(closed.jaxpr, closed.consts, x)[0]), x * np.float32(1e30))
    assert evaluator.clean == {}  # nothing kept once the evaluation is over
    # an entry under the id of the value read, whose reference is to another value (the one
    # that had that id before): the value is checked, and its subnormal sends it to JAX, which
    # flushes it (NumPy would make 1e-10 of it)
    tiny = np.array([1e-40, 1.0, 2.0], np.float32)
    other = np.ones(1, np.float32)
    evaluator.clean[id(tiny)] = weakref.ref(other)
    got = np.asarray(evaluator.run(closed.jaxpr, closed.consts, tiny)[0])
    assert np.array_equal(got, np.asarray(jax.jit(lambda x: x * 1e30)(tiny)))
    assert got[0] == 0.0


def test_a_value_checked_once_is_not_checked_again_in_a_loop():
    """Values carried through a loop's steps, each the evaluator's own result, are checked once
    (as each step's result), and the loop's values stay those of JAX."""
    def program(x):
        return jax.lax.fori_loop(0, 8, lambda i, c: c * 0.5 + 1.0, x)

    x = np.linspace(-2, 2, 5).astype(np.float32)
    closed = jax.make_jaxpr(program)(x)
    got = Evaluator(jax).run(closed.jaxpr, closed.consts, x, jit_inlined=True)[0]
    assert np.array_equal(np.asarray(got), np.asarray(jax.jit(program)(x)))
    assert np.asarray(got).dtype == jnp.float32
