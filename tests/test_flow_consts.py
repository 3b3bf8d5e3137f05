"""The constants the custom_vjp dataflow reads a ``cond``'s index from (``flow_consts``): which
branch a ``switch`` on an index computed from constants alone takes, and which indices stay
unknown (both branches then count)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from judge.worker.flow_consts import Constants
from judge.worker.jaxapi import sub_jaxprs
from judge.worker.owned import own


def _branches(fn, *args, eager: bool = True) -> list:
    """The branch each ``cond`` of ``fn``'s program takes by its constants (None: unknown), in
    the order the program holds them, nested ones after their own; traced under
    ``disable_jit`` (as the custom_vjp instrument traces) unless not ``eager``."""
    if eager:
        with jax.disable_jit():
            closed = jax.make_jaxpr(fn)(*args)
    else:
        closed = jax.make_jaxpr(fn)(*args)
    known = Constants(closed)
    found = []

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            if eqn.primitive.name == "cond":
                found.append(known.branch(eqn))
            for value in eqn.params.values():
                for sub in sub_jaxprs(value):
                    walk(sub)
    walk(closed.jaxpr)
    return found


def _switch(index):
    return lambda v: lax.switch(index() if callable(index) else index,
                                [lambda w: w, lambda w: w * 2.0], v)


X = jnp.ones(3)


@pytest.mark.parametrize("index, taken", [
    (jnp.int32(1), 1),                                   # a JAX array closed over
    (1, 1),                                              # a literal
    (jnp.int32(7), 1),                                   # clamped to the last branch
    (jnp.int32(-3), 0),                                  # clamped to the first
    (lambda: lax.rem(jnp.int32(-3), jnp.int32(2)), 0),   # rem keeps the dividend's sign: -1
    (lambda: lax.div(jnp.int32(-3), jnp.int32(2)), 0),   # truncated: -1
    (lambda: jnp.int32(-3) % 2, 1),                      # jnp's floor remainder: 1
    (lambda: jnp.where(jnp.bool_(True), 1, 0), 1),       # a jitted where
    (lambda: (jnp.int32(4) > 3).astype(jnp.int32), 1),
])
def test_an_index_computed_from_constants_names_its_branch(index, taken):
    assert _branches(_switch(index), X) == [taken]


@pytest.mark.parametrize("index", [
    lambda: jnp.int32(2**31 - 1) + jnp.int32(2),         # wraps around: left to the evaluator
    lambda: lax.div(jnp.int32(1), jnp.int32(0)),         # by zero
    lambda: lax.while_loop(lambda c: c < 3, lambda c: c + 1, jnp.int32(0)) - 2,
    lambda: jax.random.randint(jax.random.key(0), (), 0, 2),
])
def test_an_index_through_anything_else_is_unknown(index):
    assert _branches(_switch(index), X) == [None]


def test_an_index_through_a_custom_jvp_is_unknown():
    @jax.custom_jvp
    def pick(c):
        return c - 1
    pick.defjvp(lambda primals, tangents: (pick(*primals), tangents[0]))
    assert _branches(_switch(lambda: pick(jnp.int32(2))), X) == [None]


def test_an_index_reading_an_input_is_unknown():
    def fn(v):
        return lax.switch((lax.stop_gradient(v).sum() > 0).astype(jnp.int32) * 0,
                          [lambda w: w, lambda w: w * 2.0], v)
    assert _branches(fn, X) == [None]


def test_a_numpy_array_closed_over_is_not_a_constant():
    """The program reads a NumPy array's memory when it runs, and its owner may write it after
    the trace; a JAX array cannot change."""
    mode = np.array([1, 0], np.int32)
    assert _branches(_switch(lambda: jnp.sum(mode)), X) == [None]
    fixed = jnp.array([1, 0], jnp.int32)
    assert _branches(_switch(lambda: jnp.sum(fixed)), X) == [None]  # a sum: not an exact op here
    assert _branches(_switch(lambda: lax.squeeze(lax.slice(fixed, (0,), (1,)), (0,))), X) == [None]


def test_an_index_under_symbolic_dims_is_unknown():
    from jax import export

    (n,) = export.symbolic_shape("n")

    def fn(v):
        return lax.switch(v.shape[0] % 2, [lambda w: w, lambda w: w * 2.0], v)
    with jax.disable_jit():
        closed = jax.make_jaxpr(fn)(jax.ShapeDtypeStruct((n,), jnp.float32))
    known = Constants(closed)
    conds = [e for e in closed.jaxpr.eqns if e.primitive.name == "cond"]
    assert conds and all(known.branch(e) is None for e in conds)


def test_nested_switches_read_the_operand_the_outer_one_hands_on():
    def fn(v):
        inner = lambda p: lax.switch(p[0], [lambda w: w, lambda w: w * 3.0], p[1])
        return lax.switch(jnp.int32(1), [lambda p: p[1], inner], (jnp.int32(0), v))
    assert _branches(fn, X) == [1, 0]


def test_a_body_shared_by_two_calls_keeps_only_what_both_give():
    """JAX shares a jitted function's jaxpr between its calls: an index passed to it is known
    inside only where every call passes the same one."""
    @jax.jit
    def pick(mode, v):
        return lax.switch(mode, [lambda w: w, lambda w: w * 2.0], v)

    same = _branches(lambda v: pick(jnp.int32(1), v) + pick(jnp.int32(1), v * 2), X, eager=False)
    mixed = _branches(lambda v: pick(jnp.int32(1), v) + pick(jnp.int32(0), v * 2), X, eager=False)
    assert set(same) == {1} and set(mixed) == {None}


def test_a_constant_index_under_vmap_stays_a_cond():
    fn = jax.vmap(_switch(jnp.int32(1)))
    assert _branches(fn, jnp.ones((2, 3))) == [1]


def test_the_program_evaluated_holds_the_constants_read():
    """A JAX array may share a NumPy array's memory, which the submission may write after the
    trace: the worker evaluates the program with its own copies of the constants it reads."""
    memory = np.ones((), np.int32)
    mode = jax.device_put(memory, may_alias=True)  # aliased where the memory is aligned
    with jax.disable_jit():
        closed = jax.make_jaxpr(_switch(mode))(X)
    mine = own(closed)
    memory[()] = 0  # written after the trace
    conds = [e for e in mine.jaxpr.eqns if e.primitive.name == "cond"]
    assert [Constants(mine).branch(e) for e in conds] == [1]
    (got,) = jax.core.eval_jaxpr(mine.jaxpr, mine.consts, X)
    np.testing.assert_array_equal(np.asarray(got), 2 * np.asarray(X))


def _cases(fn, *args, eager: bool = True) -> list:
    """The case each ``select_n`` of ``fn``'s program picks everywhere by its constants (None:
    unknown), in the order the program holds them, nested ones after their own."""
    if eager:
        with jax.disable_jit():
            closed = jax.make_jaxpr(fn)(*args)
    else:
        closed = jax.make_jaxpr(fn)(*args)
    known = Constants(closed)
    found = []

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            if eqn.primitive.name == "select_n":
                found.append(known.case(eqn))
            for value in eqn.params.values():
                for sub in sub_jaxprs(value):
                    walk(sub)
    walk(closed.jaxpr)
    return found


BIG = jnp.ones(300)


@pytest.mark.parametrize("fn, picked", [
    (lambda v: jnp.where(True, v, 0.0), 1),                       # a Python bool, broadcast
    (lambda v: jnp.where(False, v, 0.0), 0),
    (lambda v: lax.select_n(jnp.full(v.shape, False), v, -v), 0),  # 300 entries, one value
    (lambda v: lax.select_n(jnp.full(v.shape, 1), v, -v, v * 0), 1),
])
def test_a_select_on_one_constant_value_names_its_case(fn, picked):
    assert _cases(fn, BIG) == [picked]
    assert _cases(fn, BIG, eager=False) == [picked]


@pytest.mark.parametrize("fn", [
    lambda v: lax.select_n(jnp.arange(v.shape[0]) < 2, v, -v),                # iota: not read
    lambda v: lax.select_n(jnp.array([True, False, True]), v[:3], -v[:3]),  # not one value
    lambda v: lax.select_n(v > 0, v, -v),                                   # reads an input
    lambda v: lax.select_n(jnp.full(v.shape, 2), v, -v),                    # no such case
])
def test_a_select_on_anything_else_is_unknown(fn):
    assert _cases(fn, BIG) == [None]


def test_a_select_shared_by_two_calls_keeps_only_what_both_give():
    @jax.jit
    def gate(keep, v):
        return jnp.where(keep, v, 0.0)

    assert set(_cases(lambda v: gate(True, v) + gate(True, v * 2), X, eager=False)) == {1}
    assert set(_cases(lambda v: gate(True, v) + gate(False, v * 2), X, eager=False)) == {None}
