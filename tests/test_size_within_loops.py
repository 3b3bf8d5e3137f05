"""``max_intermediate_size`` and the scans that hold a value (``judge.worker.scan_counts``): a
value only a scan's body computes, or only a scan reads as a constant, is weighed only where the
scan runs a trip; ``lax.map`` with ``batch_size`` scans over ``b // 4`` batches of 4 examples,
which it never computes where b < 4."""

import jax
import jax.numpy as jnp
import pytest

from judge.problem import spec
from judge.rules import max_intermediate_size
from judge.rules.base import TraceEvidence
from judge.run import summary
from judge.worker import program, symbolic
from tests.helpers import ROOT

SYMBOLS = {"b": [1, 8], "t": [1, 16], "s": [1, 16], "e": [1, 16]}
RULE = {"id": "max_intermediate_size", "bound": "b * t * s + size(q) + size(k) + size(v) + b * t * e + 64"}


@pytest.fixture(scope="module")
def attention():
    return spec.load(ROOT / "problems" / "batched_attention.yaml")


def _attend(xs):
    q, k, v, mask = xs
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    return jax.nn.softmax(s, axis=-1) @ v


def _shapes(fn):
    made = symbolic.dims(jax, SYMBOLS)
    b, t, s, e = (made[n] for n in "btse")
    args = [jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in
            [((b, t, 2), jnp.float32), ((b, s, 2), jnp.float32), ((b, s, e), jnp.float32),
             ((b, t, s), jnp.bool_)]]
    def with_vjp(q, k, v, m):  # as the judge traces it: the output and its pullback
        out, pull = jax.vjp(lambda q, k, v: fn(q, k, v, m), q, k, v)
        return out, pull(out)
    closed = jax.make_jaxpr(with_vjp)(*args)
    return program.summarize(closed, symbolic=True)["shapes"]


def test_a_batch_of_lax_map_is_held_by_its_scan():
    shapes = _shapes(lambda q, k, v, m: jax.lax.map(_attend, (q, k, v, m), batch_size=4))
    batch = [s for s in shapes if s["shape"] == ["4", "t", "s"]]
    assert batch and all(s.get("within") == ["floordiv(b, 4)"] for s in batch), batch
    assert not any(s.get("within") for s in shapes if s["shape"] == ["b", "t", "s"])


def test_a_value_outside_every_scan_is_held_by_none():
    shapes = _shapes(lambda q, k, v, m: jax.vmap(lambda *xs: _attend(xs))(q, k, v, m))
    assert not any(s.get("within") for s in shapes)


def _check(problem, *values):
    trace = TraceEvidence(label="here", shapes={"q": ("b", "t", 2), "k": ("b", "s", 2),
                                                "v": ("b", "s", "e"), "mask": ("b", "t", "s")},
                          program=summary.Program(equations=1, primitives={}, largest=(), symbolic=True,
                                                  shapes=values),
                          symbols={n: tuple(r) for n, r in SYMBOLS.items()})
    return max_intermediate_size.check(RULE, trace, problem)


def _value(shape, **more):
    return summary.SymbolicValue(shape=shape, dtype="float32", primitive="dot_general", **more)


def test_a_value_in_a_scan_of_no_trip_where_b_is_small_is_not_weighed_there(attention):
    assert _check(attention, _value(("4", "t", "s"), within=("floordiv(b, 4)",))) is None


def test_the_same_value_outside_the_scan_is_weighed_at_every_b(attention):
    breach = _check(attention, _value(("4", "t", "s")))
    assert breach is not None and "at b = 1" in breach.message, breach


def test_a_value_in_a_scan_that_runs_is_weighed(attention):
    assert _check(attention, _value(("4", "t", "s"), within=("b",))) is not None
    breach = _check(attention, _value(("8", "t", "s", "2"), within=("floordiv(b, 8)",)))
    assert breach is not None and "b = 8" in breach.message, breach


def test_a_stack_of_no_row_holds_no_row(attention):
    stack = ("floordiv(b, 4)", "4", "t", "s")
    assert _check(attention, _value(stack, rows=True)) is None
    assert _check(attention, _value(("b", "4", "t", "s"), rows=True)) is not None
