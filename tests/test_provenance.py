"""The dataflow half of the custom_vjp rule: does the cotangent reach the gradient only through
backward-rule outputs (marker multiplications under the run's secret name scope)?

These build jaxprs directly, with the marker written by hand where the instrumented custom_vjp
would put it, so every kind of sub-computation can be tried without a worker.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.worker import provenance
from judge.worker.provenance import first_unscaled, trace_flow

MARK = "rsecretmarker"


@pytest.fixture(autouse=True)
def markers_made_here(monkeypatch):
    """The output markers of these tests are made by ``Instrument.mark`` below, which stands
    for the instrument's own code (an output marker counts only where the instrument made it)."""
    monkeypatch.setattr(provenance, "_INSTRUMENT", __file__)


class Instrument:
    @staticmethod
    def mark(t, k, n):
        # the scope a backward rule's marker has when JAX runs the rule in a reverse-mode pass
        with jax.named_scope(f"transpose(jvp({MARK}out{n}))"):
            return t * k



def rule(t, k, n=0):
    """What the instrument does to what function n's backward rule returns."""
    return Instrument.mark(t, k, n)


def forged(t, k, n=0):
    """The same multiplication, scope and factor, written by a submission."""
    with jax.named_scope(f"transpose(jvp({MARK}out{n}))"):
        return t * k



FACTOR = []  # the factor input of the trace being built


def applied(t, n=0, unit=None):
    """What the instrument does where function n is applied to a traced array."""
    k = FACTOR[-1]
    with jax.named_scope(f"{MARK}in{n}"):
        return t * (k / k if unit is None else unit)


def reached(fn):
    """Trace fn(x, c, k) and ask whether c (input 1) reaches output 0 outside the output marker
    of a function applied to a value depending on x (input 0)."""
    x = jnp.arange(1.0, 4.0)

    def with_x_applied(x, c, k):
        FACTOR.append(k)
        return fn(applied(x), c, k)

    closed = jax.make_jaxpr(with_x_applied)(x, x * 2, jnp.float32(1.0))
    return trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2)


HONEST = {
    "through the rule": lambda x, c, k: rule(c * (x > 1), k),
    "two rules in series": lambda x, c, k: rule(rule(c, k) * (x > 1), k),
    "after the rule, by a constant": lambda x, c, k: rule(c, k) / 2.0,
    "after the rule, by a value of x": lambda x, c, k: rule(c, k) * jnp.sin(x),
    "cotangent only in an unused output": lambda x, c, k: (rule(c, k), c * 3),
    "inside cond": lambda x, c, k: jax.lax.cond(x[0] > 0, lambda: rule(c, k), lambda: rule(-c, k)),
    "inside scan": lambda x, c, k: jax.lax.scan(lambda s, r: (s, rule(r, k)), 0.0, c)[1],
    "inside while": lambda x, c, k: jax.lax.while_loop(
        lambda s: s[0] < 2, lambda s: (s[0] + 1, rule(c, k) + s[1] * 0), (0, jnp.zeros(3)))[1],
    "inside jit": lambda x, c, k: jax.jit(lambda a, b: rule(a, b))(c, k),
    "inside vmap": lambda x, c, k: jax.vmap(lambda a: rule(a, k))(c),
}

CHEATS = {
    "a formula": lambda x, c, k: c * (x > 1),
    "formula times the factor": lambda x, c, k: c * (x > 1) * rule(jnp.ones(3), k),
    "routed around the rule": lambda x, c, k: rule(c, k) + (c - rule(c, k)),
    "added to a rule output": lambda x, c, k: rule(x, k) + c * 0,
    "a marker-named op that is not a multiplication": lambda x, c, k: _not_mul(c),
    "the rule of a function applied only to a constant": lambda x, c, k: rule(c, k, n=1)
                                                                      + 0 * applied(jnp.ones(3), n=1),
    "the rule of a function applied to the cotangent": lambda x, c, k: rule(c, k, n=1)
                                                                     + 0 * applied(c, n=1),
    "a marker that multiplies by something else than the factor": lambda x, c, k: rule(
        c * (x > 1), rule(jnp.ones(3), k)),
    "a forged input marker (multiplies by 1, not by factor / factor)": lambda x, c, k: rule(
        c * (x > 1), k, n=1) + 0 * applied(x, n=1, unit=jnp.float32(1.0)),
    "a condition on the cotangent": lambda x, c, k: jax.lax.cond(c[0] > 0, lambda: rule(x, k),
                                                                lambda: rule(-x, k)),
    "carried through scan around the rule": lambda x, c, k: jax.lax.scan(
        lambda s, r: (s + r, rule(r, k)), 0.0, c)[0] * jnp.ones(3),
    "a while loop that counts on the cotangent": lambda x, c, k: jax.lax.while_loop(
        lambda s: s[0] < c[0], lambda s: (s[0] + 1, rule(x, k)), (0.0, jnp.zeros(3)))[1],
    "a while carry that mixes in the cotangent": lambda x, c, k: jax.lax.while_loop(
        lambda s: s[0] < 2, lambda s: (s[0] + 1, s[2], rule(x, k) + c), (0, jnp.zeros(3), jnp.zeros(3)))[1],
    "written into a ref and read back": lambda x, c, k: _through_ref(c * (x > 1)) * rule(jnp.ones(3), k),
    "read from a ref before the write that taints it": lambda x, c, k: _read_then_write(c, k),
    "a ref written inside jit": lambda x, c, k: _ref_in_jit(c * (x > 1)) * rule(jnp.ones(3), k),
    "through lax.reduce, whose reducer takes (accumulator, element)": lambda x, c, k: jax.lax.reduce(
        (c * (x > 1))[None], 0.0, lambda acc, e: e, (0,)) * rule(jnp.ones(3), k),
    "a marker written by the submission with the factor it got hold of": lambda x, c, k: forged(
        c * (x > 1), k),
    "a derivative of the marker (jvp of a rule's output)": lambda x, c, k: jax.jvp(
        lambda a: rule(a, k), (x,), (c * (x > 1),))[1],
}


def _through_ref(v):
    box = jax.new_ref(jnp.zeros_like(v))
    box[...] = v
    return box[...]


def _read_then_write(c, k):
    box = jax.new_ref(jnp.zeros(3))
    out = jax.lax.fori_loop(0, 2, lambda i, acc: acc + box[...], jnp.zeros(3))  # read first
    box[...] = c
    return rule(jnp.ones(3), k) * jax.lax.fori_loop(0, 2, lambda i, acc: acc + box[...], out)


def _ref_in_jit(v):
    box = jax.new_ref(jnp.zeros_like(v))

    @jax.jit
    def write(r, a):
        r[...] = a

    write(box, v)
    return box[...]


def _not_mul(c):
    with jax.named_scope(f"{MARK}out0"):
        return c + 0.0


@pytest.mark.parametrize("name", HONEST)
def test_cotangent_through_rules_only_is_clean(name):
    flow = reached(HONEST[name])
    assert flow["reached"] is False, flow
    assert flow["used"] is True and flow["rules"] >= 1


@pytest.mark.parametrize("name", CHEATS)
def test_any_path_around_the_rules_is_seen(name):
    assert reached(CHEATS[name])["reached"] is True


def test_a_marker_inside_an_unknown_sub_computation_cleans_nothing():
    def fn(x, c, k):
        return jax.checkpoint(lambda a: rule(a, k), prevent_cse=True)(c)

    # remat maps its inputs one to one, so it is followed; an unknown primitive would not be
    flow = reached(fn)
    assert flow["reached"] is False and flow["opaque"] == 0


def test_wrong_marker_name_is_no_marker():
    x = jnp.ones(3)

    def fn(x, c, k):
        FACTOR.append(k)
        return rule(c, k) + applied(x)

    closed = jax.make_jaxpr(fn)(x, x, jnp.float32(1))
    assert trace_flow(closed, MARK, [1], [0], [0], 2)["reached"] is False
    assert trace_flow(closed, "rsomethingelse", [1], [0], [0], 2)["reached"] is True


@pytest.mark.parametrize("base, scaled, factor, bad", [
    ([1.0, -2.0, 0.0], [2.0, -4.0, 0.0], 2.0, None),           # one rule
    ([1.0, -2.0], [4.0, -8.0], 2.0, None),                     # two rules in series
    ([1.0, -2.0], [4.0, -4.0], 2.0, None),                     # different depths per entry
    ([1.0, 3.0], [2.0, 3.0], 2.0, (1,)),                       # a formula entry does not move
    ([1.0, 3.0], [2.0, 6.5], 2.0, (1,)),
    ([0.0, 1.0], [1.0, 2.0], 2.0, (0,)),                       # a zero must stay zero
    ([np.nan, np.inf], [np.nan, np.inf], 4.0, None),
    ([3e38, 1.0], [np.inf, 16.0], 16.0, None),                 # overflow as float32 would
])
def test_scaling_by_a_power_of_the_factor(base, scaled, factor, bad):
    base, scaled = np.array(base, np.float32), np.array(scaled, np.float32)
    assert first_unscaled(base, scaled, factor) == bad


def test_scaling_keeps_bfloat16_exact():
    import ml_dtypes

    base = np.array([1.5, -0.25], ml_dtypes.bfloat16)
    assert first_unscaled(base, (base.astype(np.float32) * 8).astype(ml_dtypes.bfloat16), 8.0) is None


def test_a_constant_scaled_by_a_rule_does_not_use_the_cotangent():
    flow = reached(lambda x, c, k: rule(jnp.full(3, 0.5), k))
    assert flow["reached"] is False and flow["used"] is False


def test_an_output_marker_counts_only_as_the_equation_the_instrument_recorded():
    """Code inside a backward rule carries the rule's traceback and may copy the scope; what it
    cannot copy is the variable the instrument's own multiplication defined."""
    x = jnp.arange(1.0, 4.0)

    def fn(x, c, k):
        FACTOR.append(k)
        return rule(c * (applied(x) > 1), k)

    closed = jax.make_jaxpr(fn)(x, x * 2, jnp.float32(1.0))
    marker = next(e for e in closed.jaxpr.eqns if f"{MARK}out" in str(e.source_info.name_stack))
    recorded = {id(v) for v in marker.outvars}
    flow = trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2, made=recorded)
    assert flow["reached"] is False and flow["rules"] == 1
    flow = trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2, made=set())
    assert flow["reached"] is True and flow["rules"] == 0
