"""How the evaluator hands operations to JAX: the one-op program ``bind`` would call, called
directly where ``bind``'s own steps change nothing (``jaxapi.DirectCalls``), and ``bind``
everywhere else; and which values it checks for subnormals once only. The values stay those of
``bind`` in every case."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from judge.worker import jaxapi
from judge.worker.evaluate import Evaluator
from tests.test_evaluate import JAX, SUBNORMAL_F32, assert_same

RNG = np.random.default_rng(20261207)


class Counting(Evaluator):
    """Counts the operations called directly and those bound."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.direct_calls = self.bound = 0
        real = self.direct.call

        def call(fun, args):
            self.direct_calls += 1
            return real(fun, args)

        self.direct.call = call

    def _bind(self, eqn, values):
        self.bound += 1
        return super()._bind(eqn, values)


def _same_as_bind(closed, *args):
    counting = Counting(jax)
    got = counting.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)
    want = JAX.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)  # all bound, step by step
    for g, w in zip(got, want):
        assert_same(np.asarray(g), np.asarray(w), exact_nan=True)
    return counting


def test_repeated_operations_of_a_loop_are_called_directly():
    def power(w, u):
        def body(_, u):
            v = w @ u
            return v / jnp.sqrt(jnp.sum(v * v))
        return lax.fori_loop(0, 20, body, u)

    w, u = RNG.standard_normal((6, 6)).astype(np.float32), RNG.standard_normal(6).astype(np.float32)
    closed = jax.make_jaxpr(power)(w, u)
    counting = _same_as_bind(closed, w, u)
    # the 20 products (the norm's sum of 6 terms is XLA's sequential loop: computed in NumPy)
    assert counting.bound >= 20 and counting.direct_calls == counting.bound


def test_values_bind_would_convert_are_bound():
    """A float64 array (JAX narrows it) or a Python scalar (weakly typed) goes through bind."""
    closed = jax.make_jaxpr(lambda x, y: lax.dot_general(x, y, (((0,), (0,)), ((), ()))))(
        np.zeros(3, np.float32), np.zeros(3, np.float32))
    x = RNG.standard_normal(3).astype(np.float32)
    counting = _same_as_bind(closed, x, x.astype(np.float64))
    assert (counting.bound, counting.direct_calls) == (1, 0)
    counting = _same_as_bind(closed, x, x)
    assert (counting.bound, counting.direct_calls) == (1, 1)


def test_primitives_with_their_own_implementation_are_bound():
    """A jitted call bound whole (its implementation is its own, not the op-by-op one) and a
    callback (JAX's op-by-op one: the same program ``bind`` calls) both give bind's values."""
    calls = []

    def callback(x):
        calls.append(1)
        return np.asarray(x) * 2

    def f(x):
        y = jax.jit(jnp.sin)(x)
        return jax.pure_callback(callback, jax.ShapeDtypeStruct(x.shape, x.dtype), jnp.exp(y))

    x = RNG.standard_normal(4).astype(np.float32)
    closed = jax.make_jaxpr(f)(x)
    counting = Counting(jax)
    got = counting.run(closed.jaxpr, closed.consts, x)  # the jitted call bound whole
    assert_same(np.asarray(got[0]), np.asarray(JAX.run(closed.jaxpr, closed.consts, x)[0]))
    assert (counting.bound, counting.direct_calls, len(calls)) == (3, 2, 2)
    parts = jaxapi.direct_calls()
    assert parts.plain(lax.exp_p) and not parts.plain(closed.jaxpr.eqns[0].primitive)


def test_no_direct_call_inside_a_trace():
    parts = jaxapi.direct_calls()
    assert parts.ready()
    seen = []

    def traced(x):
        seen.append(parts.ready())
        return x

    jax.make_jaxpr(traced)(1.0)
    assert seen == [False]


def test_an_array_that_is_not_the_evaluators_own_is_checked_each_time():
    """A case's NumPy input may change between evaluations (it is not the evaluator's): a
    subnormal written into it after a first evaluation still sends the operation to JAX."""
    closed = jax.make_jaxpr(lambda x, y: x * y)(np.zeros(4, np.float32), np.zeros(4, np.float32))
    evaluator = Counting(jax)
    x, y = np.float32([1.0, 2.0, 3.0, 4.0]), np.float32([2.0, 2.0, 2.0, 2.0])
    evaluator.run(closed.jaxpr, closed.consts, x, y)
    assert evaluator.bound == 0
    x[1] = SUBNORMAL_F32[0]
    got = evaluator.run(closed.jaxpr, closed.consts, x, y)[0]
    assert evaluator.bound == 1
    assert_same(np.asarray(got), np.asarray(JAX.run(closed.jaxpr, closed.consts, x, y)[0]))


def test_a_literal_of_the_program_is_passed_on_as_bind_passes_it():
    """A constant of the program (JAX's NumPy literal, weakly typed or not) with an array that
    NumPy leaves to JAX (a NaN in it): called directly, with bind's values, NaNs' bits too."""
    x = np.float32([np.nan, 1.5, -np.inf, 3.0])
    for f in (lambda a: a * 2.0, lambda a: a - np.float32(0.5), lambda a: jnp.float16(3) * a.astype(jnp.float16)):
        closed = jax.make_jaxpr(f)(x)
        literal = [type(v.val).__name__ for e in closed.jaxpr.eqns for v in e.invars if hasattr(v, "val")]
        assert "TypedNdArray" in literal
        counting = _same_as_bind(closed, x)
        assert counting.bound >= 1 and counting.direct_calls == counting.bound


def test_a_sum_of_cotangents_is_the_one_op_program_of_add():
    """``add_any`` (JAX's sum of two cotangents) adds with ``lax.add`` on arrays: called as the
    one-op program of ``add`` (compiled and stored under ``add``'s name), with bind's values on
    float32, float16 and int32, NaNs' and subnormals' bits included; bool goes through bind."""
    from jax._src import ad_util

    parts = jaxapi.direct_calls()
    assert parts.target(ad_util.add_jaxvals_p, np.dtype(np.float32)) is lax.add_p
    assert parts.target(ad_util.add_jaxvals_p, np.dtype(np.bool_)) is None
    assert parts.target(lax.add_p, np.dtype(np.float32)) is lax.add_p
    bits = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32).view(np.float32)
    cases = [np.concatenate([bits, np.float32([np.nan, -np.nan, np.inf, -0.0]), SUBNORMAL_F32]),
             RNG.integers(0, 2**16, 64).astype(np.uint16).view(np.float16),
             RNG.integers(-2**31, 2**31, 64).astype(np.int32)]
    for x in cases:
        y = RNG.permutation(x)
        closed = jax.make_jaxpr(ad_util.add_jaxvals)(x, y)
        assert [e.primitive.name for e in closed.jaxpr.eqns] == ["add_any"]
        for a, b in ((x, y), (jnp.asarray(x), y), (jnp.asarray(x), jnp.asarray(y))):
            counting = _same_as_bind(closed, a, b)
            assert counting.direct_calls == counting.bound
            assert counting.bound == (x.dtype != np.int32)  # int32: NumPy's (it wraps the same)
    grads = jax.make_jaxpr(jax.grad(lambda u: jnp.sum(jnp.sin(u) * u)))(cases[0][:8])
    assert "add_any" in [e.primitive.name for e in grads.jaxpr.eqns]
    counting = _same_as_bind(grads, cases[0][:8])
    assert counting.direct_calls == counting.bound
