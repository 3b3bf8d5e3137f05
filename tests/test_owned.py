"""A traced program's constants are copied as soon as it is traced (``judge.worker.owned``): a
NumPy array the function closes over is kept by JAX as a view of the submission's memory, at
the top of the program and in a ``jit``'s or a branch's body, and the submission's code runs
again after the trace (the next key, a rule's trace), so without the copy the program evaluated
could pick other rows, trips or branches than the ones the rules read."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from judge.worker.owned import own

X = jnp.arange(24.0).reshape(8, 3)


def _evaluate(closed):
    (got,) = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, X)
    return np.asarray(got)


def _picking(rows):
    inner = jax.jit(lambda x: x[rows].sum(0))

    def fn(x):
        branch = lax.cond(x[0, 0] > -1, lambda v: v[rows].sum(0), lambda v: v[0], x)
        return x[rows].sum(0) + branch + inner(x)
    return fn


def test_a_numpy_array_written_after_the_trace_moves_the_program_without_the_copy():
    rows = np.zeros(8, np.int32)
    closed = jax.make_jaxpr(_picking(rows))(X)
    before = _evaluate(closed)
    rows[:] = np.arange(8)  # what a later call of the submission may do
    assert not np.array_equal(_evaluate(closed), before)  # why the copy is needed


def test_the_program_evaluated_holds_the_constants_it_was_traced_with():
    rows = np.zeros(8, np.int32)
    closed = own(jax.make_jaxpr(_picking(rows))(X))
    before = _evaluate(closed)
    rows[:] = np.arange(8)
    np.testing.assert_array_equal(_evaluate(closed), before)
    np.testing.assert_array_equal(before, 3 * 8 * np.asarray(X[0]))


def test_a_copy_keeps_each_constant_as_it_was():
    weak = jnp.asarray(1)
    table = np.arange(4, dtype=np.int32)
    key = jax.random.key(0)
    closed = jax.make_jaxpr(lambda v: v * weak + table[:3] + jax.random.bits(key, (3,)).astype(jnp.int32))(
        jnp.ones(3, jnp.int32))
    old = list(closed.consts)
    new = own(closed).consts
    assert len(new) == len(old)
    for a, b in zip(old, new):
        assert type(a) is type(b) and a.dtype == b.dtype and np.shape(a) == np.shape(b)
        if isinstance(a, np.ndarray) or not jnp.issubdtype(a.dtype, jax.dtypes.prng_key):
            assert b is not a and np.array_equal(np.asarray(a), np.asarray(b))
            assert getattr(a, "weak_type", False) == getattr(b, "weak_type", False)
    got = jax.core.eval_jaxpr(closed.jaxpr, new, jnp.ones(3, jnp.int32))
    want = jax.core.eval_jaxpr(closed.jaxpr, old, jnp.ones(3, jnp.int32))
    np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]))
