"""Calls, branches and loops evaluated operation by operation (``judge.worker.stepwise``, the
evaluator's ``jit_inlined``): the values are those of the program run under
``jax.disable_jit``, bit for bit, and what may not be evaluated step by step (a loop past the
budget, a carried PRNG key, an index outside the branches) is bound by JAX as before."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.worker import evaluate, stepwise

#: Whether this JAX's scans are stepped through (``stepwise._scan_layout`` reads their layout).
_SCAN = jax.make_jaxpr(lambda x: jax.lax.scan(lambda c, r: (c * r, c + r), 1.0, x))(
    np.ones(2, np.float32)).jaxpr.eqns[-1]
SCAN_STEPS = stepwise._scan_layout(_SCAN.params, len(_SCAN.invars), len(_SCAN.outvars)) is not None


@pytest.fixture
def bound(monkeypatch):
    """The primitives the evaluator hands to JAX whole, in order."""
    names: list = []
    original = evaluate.Evaluator._bind

    def recording(self, eqn, values):
        names.append(eqn.primitive.name)
        return original(self, eqn, values)

    monkeypatch.setattr(evaluate.Evaluator, "_bind", recording)
    return names


def _evaluated(fn, *args):
    closed = jax.make_jaxpr(fn)(*args)
    leaves = jax.tree_util.tree_leaves(args)
    return [np.asarray(v) for v in evaluate.Evaluator(jax).run(closed.jaxpr, closed.consts, *leaves,
                                                              jit_inlined=True)]


def _eager(fn, *args):
    with jax.disable_jit():
        return [np.asarray(v) for v in jax.tree_util.tree_leaves(fn(*args))]


def _same(fn, *args, exact=True):
    """The values ``fn`` gives under disable_jit, bit for bit (``exact``), or within a rounding
    (where JAX compiles the loop whole)."""
    got, want = _evaluated(fn, *args), _eager(fn, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-6)


X = np.linspace(-2.0, 3.0, 12, dtype=np.float32).reshape(4, 3)


def _cumulative(x):
    def step(carry, row):
        carry = carry * 0.5 + jnp.tanh(row)
        return carry, jnp.sum(carry * row)
    return jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), x)


def test_this_jax_s_scans_are_stepped_through():
    """JAX 0.10 (``num_consts``) and 0.11 (flat trees) alike: a form not read would be bound
    whole, correct but slower, which this test would catch."""
    assert SCAN_STEPS


def test_a_scan_is_evaluated_step_by_step_with_the_eager_values(bound):
    _same(_cumulative, X, exact=SCAN_STEPS)
    assert ("scan" in bound) is not SCAN_STEPS


def test_a_reversed_scan_and_an_empty_one():
    _same(lambda x: jax.lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(3), x, reverse=True), X,
          exact=SCAN_STEPS)
    empty = lambda x: jax.lax.scan(lambda c, r: (c + r, (c, r * 2)), jnp.zeros(3), x[:0])  # noqa: E731
    got = _evaluated(empty, X)  # disable_jit refuses an empty scan: compared with JAX's own
    want = [np.asarray(v) for v in jax.tree_util.tree_leaves(jax.jit(empty)(X))]
    assert [(g.shape, g.dtype) for g in got] == [(w.shape, w.dtype) for w in want]
    assert [g.shape for g in got] == [(3,), (0, 3), (0, 3)]
    np.testing.assert_array_equal(got[0], want[0])


def test_a_scan_past_the_budget_is_bound_whole(bound):
    long = np.ones((stepwise.LOOP_WORK + 1, 2), np.float32)
    got = _evaluated(lambda x: jax.lax.scan(lambda c, r: (c + r, c), jnp.zeros(2), x), long)
    assert bound == ["scan"]
    np.testing.assert_array_equal(got[0], np.full(2, stepwise.LOOP_WORK + 1, np.float32))


def test_a_scan_stacking_more_than_the_evaluator_holds_is_bound_whole(bound):
    rows = stepwise.STACKED // 1024 + 1  # one more stacked row of 1024 than allowed
    xs = np.zeros((rows, 1), np.float32)
    got = _evaluated(lambda x: jax.lax.scan(lambda c, r: (c + r[0], jnp.full(1024, c)), 0.0, x), xs)
    assert bound == ["scan"]
    assert got[1].shape == (rows, 1024)


@jax.jit
def _heavy(c):
    """A jitted call of 800 equations: one equation of the loop body that calls it."""
    for _ in range(400):
        c = c * 0.999 + 0.001
    return c


def test_a_jitted_call_in_a_loop_body_costs_its_own_equations(bound):
    """A loop whose body hides its work in a jitted call: counted as one equation, its 2,000
    steps would run 1.6 million operations one by one (over a minute, where the compiled loop
    takes milliseconds); counted by its own equations, the loop goes to JAX."""
    x = np.ones(3, np.float32)
    fixed = lambda v: jax.lax.fori_loop(0, 2000, lambda i, c: _heavy(c), v)  # noqa: E731
    got = _evaluated(fixed, x)
    assert bound == ["scan"] or bound == ["while"]  # fori_loop with a fixed count is a scan
    np.testing.assert_allclose(got[0], np.asarray(jax.jit(fixed)(x)), rtol=1e-5)
    bound.clear()
    counted = lambda v: jax.lax.while_loop(lambda s: s[1] < 2000, lambda s: (_heavy(s[0]), s[1] + 1),  # noqa: E731
                                           (v, 0))
    got = _evaluated(counted, x)
    assert bound == ["while"]  # a few steps one by one, then the rest compiled
    np.testing.assert_allclose(got[0], np.asarray(jax.jit(counted)(x)[0]), rtol=1e-5)


def test_a_scan_over_an_input_larger_than_the_evaluator_holds_is_bound_whole(bound):
    xs = np.ones((4, stepwise.STACKED // 4 + 1), np.float32)
    got = _evaluated(lambda x: jax.lax.scan(lambda c, r: (c + jnp.sum(r), None), 0.0, x), xs)
    assert bound == ["scan"]
    assert float(got[0]) == xs.size


def test_a_while_loop_step_by_step_and_handed_on_past_the_budget(bound):
    def loop(x, count):
        return jax.lax.while_loop(lambda s: s[1] < count, lambda s: (s[0] * 0.99 + 1.0, s[1] + 1), (x, 0))

    _same(lambda x: loop(x, 7), X)
    assert "while" not in bound
    steps = stepwise.LOOP_WORK  # more steps than the budget lets run one by one
    got = _evaluated(lambda x: loop(x, steps), X)
    assert bound.count("while") == 1  # the rest of the loop, compiled, from where it stood
    np.testing.assert_allclose(got[0], _eager(lambda x: loop(x, steps), X)[0], rtol=1e-5)
    assert int(got[1]) == steps


def test_nested_loops_share_one_budget(bound):
    """A scan of while loops: the steps of all of them are paid from one budget, so the inner
    loops are handed to JAX once it is spent (stepping never costs more than the budget)."""
    def nested(x):
        def row(c, r):
            inner = jax.lax.while_loop(lambda s: s[1] < 100, lambda s: (s[0] * 0.5 + r, s[1] + 1),
                                       (c, 0))[0]
            return inner, jnp.sum(inner)
        return jax.lax.scan(row, jnp.zeros(3), jnp.tile(x, (16, 1)))

    got = _evaluated(nested, X)
    assert ("while" if SCAN_STEPS else "scan") in bound
    for g, w in zip(got, _eager(nested, X)):
        np.testing.assert_allclose(g, w, rtol=1e-5)


def test_a_fori_loop_and_a_map():
    _same(lambda x: jax.lax.fori_loop(0, 5, lambda i, c: c + x[i % 4] * i, jnp.zeros(3)), X)
    _same(lambda x: jax.lax.map(lambda r: jnp.sum(jnp.exp(r)), x), X, exact=SCAN_STEPS)


def test_a_branch_is_the_one_its_index_picks(bound):
    def branchy(x, which):
        return jax.lax.switch(which, [jnp.sin, jnp.cos, lambda v: v * 3.0], x)

    for which in range(3):
        _same(lambda x: branchy(x, jnp.int32(which)), X)
    _same(lambda x: jax.lax.cond(jnp.sum(x) > 0, jnp.exp, jnp.log1p, x), X)
    assert "cond" not in bound


def test_an_index_outside_the_branches_goes_to_jax(bound):
    closed = jax.make_jaxpr(lambda i, x: jax.lax.switch(i, [jnp.sin, jnp.cos], x))(0, X)
    eqn = next(e for e in closed.jaxpr.eqns if e.primitive.name == "cond")
    assert stepwise.evaluate(eqn, [np.int32(5), X], None, None, stepwise.Budget()) is None


def test_calls_checkpoint_and_nested_jit():
    inner = jax.jit(lambda v: jnp.exp(v) / 3.0)
    _same(lambda x: jax.checkpoint(lambda v: inner(v) * v)(x), X)
    _same(jax.grad(lambda x: jnp.sum(jax.checkpoint(lambda v: jnp.sin(inner(v)))(x))), X)


def test_a_carried_prng_key_is_bound_whole(bound):
    def draws(key):
        def step(k, _):
            k, sub = jax.random.split(k)
            return k, jax.random.uniform(sub, ())
        return jax.lax.scan(step, key, None, length=3)[1]

    key = jax.random.key(0)
    closed = jax.make_jaxpr(draws)(key)
    got = evaluate.Evaluator(jax).run(closed.jaxpr, closed.consts, key, jit_inlined=True)
    assert "scan" in bound
    np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(draws(key)))
