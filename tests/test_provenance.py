"""The dataflow half of the custom_vjp rule: does the cotangent reach the gradient only from a
backward rule's cotangent input to what that run of the rule returned?

These build jaxprs directly, with the markers written by hand where the instrumented custom_vjp
would put them (and recorded as the instrument records them), so every kind of sub-computation
can be tried without a worker.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.worker.instrument import _variable_of
from judge.worker.provenance import trace_flow
from judge.worker.shift import first_unscaled
from judge.worker.shift import STILL

MARK = "rsecretmarker"

FACTOR = []  # the factor input of the trace being built
MADE: list = []  # (variable, kind, run, function, application) of the markers made, as the
#                  instrument records (here function n is applied once: application n)


def _zero(k, dtype=jnp.float32):
    return jax.lax.convert_element_type(k - k, dtype)


def _record(out, kind, run, n, app=None):
    MADE.append((_variable_of(out), kind, run, n, n if app is None else app))


def rule(body, g, k, n=0, app=None):
    """One run of function n's backward rule as the instrument marks it: its cotangent input g
    marked, ``body`` applied to it, what it returns multiplied by the factor k (the rule of
    application ``app`` of the function, by default application n)."""
    run = len(MADE) + 1
    g = jax.lax.sub(g, _zero(k))
    _record(g, "g", run, n, app)
    out = body(g) * k
    _record(out, "out", run, n, app)
    return out


def forged(t, k):
    """An output marker's multiplication, written by a submission (not recorded)."""
    return t * k


def applied(t, n=0, zero=None, app=None):
    """What the instrument does where function n is applied to a traced array (its application
    ``app``, by default application n)."""
    k = FACTOR[-1]
    with jax.named_scope(f"{MARK}in{n}a{n if app is None else app}"):
        return jax.lax.sub(t, _zero(k) if zero is None else zero)


def flow_of(fn, marker=MARK, made=True):
    """Trace fn(x, c, k) and ask whether c (input 1) reaches output 0 other than through a rule
    run of a function applied to a value depending on x (input 0)."""
    x = jnp.arange(1.0, 4.0)
    MADE.clear()

    def with_x_applied(x, c, k):
        FACTOR.append(k)
        return fn(applied(x), c, k)

    closed = jax.make_jaxpr(with_x_applied)(x, x * 2, jnp.float32(1.0))
    recorded = {id(v): (kind, run, n, a) for v, kind, run, n, a in MADE if v is not None} if made else {}
    return trace_flow(closed, marker, sources=[1], sinks=[0], primals=[0], factor=2, made=recorded)


reached = flow_of

same = lambda g: g  # noqa: E731 - a rule that does nothing


def _mask(x):
    return (x > 1).astype(jnp.float32)


HONEST = {
    "through the rule": lambda x, c, k: rule(lambda g: g * _mask(x), c, k),
    "through the rule, a where on x inside it": lambda x, c, k: rule(
        lambda g: jnp.where(x > 1, g, 0.0), c, k),
    "two rules in series": lambda x, c, k: rule(lambda g: g * _mask(x), rule(same, c, k), k),
    "after the rule, by a constant": lambda x, c, k: rule(same, c, k) / 2.0,
    "before the rule, by a constant": lambda x, c, k: rule(lambda g: g * _mask(x), 2.0 * c, k),
    "cotangent only in an unused output": lambda x, c, k: (rule(same, c, k), c * 3),
    "inside cond on x": lambda x, c, k: jax.lax.cond(
        x[0] > 0, lambda: rule(same, c, k), lambda: rule(lambda g: g * _mask(x), c, k)),
    "inside scan": lambda x, c, k: jax.lax.scan(lambda s, r: (s, rule(same, r, k)), 0.0, c)[1],
    "inside while": lambda x, c, k: jax.lax.while_loop(
        lambda s: s[0] < 2, lambda s: (s[0] + 1, rule(same, c, k) + s[1] * 0), (0, jnp.zeros(3)))[1],
    "inside cond on x, after a rule": lambda x, c, k: jax.lax.cond(
        x[0] > 0, lambda g: rule(same, g, k), lambda g: rule(lambda g: g * _mask(x), g, k),
        rule(same, c, k)),
    "through a cond on x that moves it alike in every branch": lambda x, c, k: rule(
        same, jax.lax.cond(x[0] > 0, lambda a: a.reshape(3) * 1.0, lambda a: a.reshape(3) * 1.0,
                           c), k),
    "inside cond on x, moved in both branches": lambda x, c, k: jax.lax.cond(
        x[0] > 0, lambda: rule(same, c, k).reshape(3), lambda: rule(same, c[::-1], k)[::-1]),
    "inside jit": lambda x, c, k: jax.jit(lambda a, b: rule(same, a, b))(c, k),
    "inside vmap": lambda x, c, k: jax.vmap(lambda a: rule(same, a, k))(c),
    "under scopes named like transformations": lambda x, c, k: _scoped(
        lambda: rule(lambda g: g * _mask(x), c, k)),
}


def _scoped(fn):
    with jax.named_scope(f"transpose(jvp({MARK}in0a0))"):
        with jax.named_scope("jvp"):
            return fn()


def _stash(x, c, k):
    box = []
    rule(lambda g: (box.append(g * 1.0), g)[1], c, k)
    return rule(same, jnp.where(x > 1, box[0], 0.0), k)


CHEATS = {
    "a formula": lambda x, c, k: c * (x > 1),
    "formula times the factor": lambda x, c, k: c * (x > 1) * rule(same, jnp.ones(3), k),
    "routed around the rule": lambda x, c, k: rule(same, c, k) + (c - rule(same, c, k)),
    "added to a rule output": lambda x, c, k: rule(same, x, k) + c * 0,
    "a marker the instrument did not record": lambda x, c, k: forged(c * (x > 1), k),
    "the rule of a function applied only to a constant": lambda x, c, k: rule(
        lambda g: g * _mask(x), c, k, n=1) + 0 * applied(jnp.ones(3), n=1),
    "the rule of a function applied to the cotangent": lambda x, c, k: rule(
        lambda g: g * _mask(x), c, k, n=1) + 0 * applied(c, n=1),
    "a forged input marker (subtracts a zero not made from the factor)": lambda x, c, k: rule(
        lambda g: g * _mask(x), c, k, n=1) + 0 * applied(x, n=1, zero=jnp.float32(0.0)),
    "a condition on the cotangent": lambda x, c, k: jax.lax.cond(c[0] > 0, lambda: rule(same, x, k),
                                                                lambda: rule(same, -x, k)),
    "carried through scan around the rule": lambda x, c, k: jax.lax.scan(
        lambda s, r: (s + r, rule(same, r, k)), 0.0, c)[0] * jnp.ones(3),
    "a while loop that counts on the cotangent": lambda x, c, k: jax.lax.while_loop(
        lambda s: s[0] < c[0], lambda s: (s[0] + 1, rule(same, x, k)), (0.0, jnp.zeros(3)))[1],
    "a while carry that mixes in the cotangent": lambda x, c, k: jax.lax.while_loop(
        lambda s: s[0] < 2, lambda s: (s[0] + 1, s[2], rule(same, x, k) + c), (0, jnp.zeros(3), jnp.zeros(3)))[1],
    "written into a ref and read back": lambda x, c, k: _through_ref(c * (x > 1)) * rule(same, jnp.ones(3), k),
    "read from a ref before the write that taints it": lambda x, c, k: _read_then_write(c, k),
    "a ref written inside jit": lambda x, c, k: _ref_in_jit(c * (x > 1)) * rule(same, jnp.ones(3), k),
    "through lax.reduce, whose reducer takes (accumulator, element)": lambda x, c, k: jax.lax.reduce(
        (c * (x > 1))[None], 0.0, lambda acc, e: e, (0,)) * rule(same, jnp.ones(3), k),
    "a derivative of a rule's output (jvp)": lambda x, c, k: jax.jvp(
        lambda a: rule(same, a, k), (x,), (c,))[1],
    "the cotangent from the rule's closure": lambda x, c, k: rule(lambda g: c * g, jnp.ones(3), k),
    "the cotangent from the rule's closure, masked there": lambda x, c, k: rule(
        lambda g: c * _mask(x) * g, jnp.ones(3), k),
    "a rule that does nothing, the mask applied before it": lambda x, c, k: rule(same, c * _mask(x), k),
    "a rule that does nothing, the mask applied after it": lambda x, c, k: rule(same, c, k) * _mask(x),
    "a mask chosen by cond per element (vmap), then a rule that does nothing": lambda x, c, k: rule(
        same, jax.vmap(lambda xi, ci: jax.lax.cond(xi > 1, lambda: ci, lambda: 0.0 * ci))(x, c), k),
    "a mask chosen by cond per element (scan), then a rule that does nothing": lambda x, c, k: rule(
        same, jax.lax.scan(lambda s, p: (s, jax.lax.cond(p[0] > 1, lambda: p[1], lambda: 0.0 * p[1])),
                           0.0, (x, c))[1], k),
    "a value of one run smuggled into another, masked between them": _stash,
    "a rule that does nothing, then a mask chosen by cond on x": lambda x, c, k: jax.lax.cond(
        x[0] > 1, lambda g: g, lambda g: jnp.zeros_like(g), rule(same, c, k)),
    "a rule that does nothing, then a mask chosen by cond per entry on x": lambda x, c, k: jnp.stack(
        [jax.lax.cond(x[i] > 1, lambda g: g, lambda g: 0.0 * g, rule(same, c, k)[i]) for i in range(3)]),
    "a rule that does nothing, then zeroed by a while stopped by x": lambda x, c, k: jax.lax.while_loop(
        lambda s: (x[0] > 1) & (s[0] == 0), lambda s: (s[0] + 1, jnp.zeros(3)), (0, rule(same, c, k)))[1],
    # a rule run inside a control flow chosen by x, what it gives changed in one branch: a mask
    # (or a sign) chosen by x outside the rule
    "a sign chosen by cond on x, before rules inside it": lambda x, c, k: jax.lax.cond(
        x[0] > 0, lambda: rule(same, c, k), lambda: rule(same, -c, k)),
    "a sign chosen by cond on x, after a rule, before rules inside it": lambda x, c, k: jax.lax.cond(
        x[0] > 0, lambda g: rule(same, g, k), lambda g: rule(same, -g, k), rule(same, c, k)),
    "a rule's output or zeros, chosen by cond on x": lambda x, c, k: jax.lax.cond(
        x[0] > 1, lambda: rule(same, c, k), lambda: jnp.zeros(3)),
    "a rule's output times zero in one branch of a cond on x": lambda x, c, k: jax.lax.cond(
        x[0] > 1, lambda: rule(same, c, k), lambda: rule(same, c, k) * 0.0),
    "a cotangent zeroed before a rule in one branch of a cond on x": lambda x, c, k: jax.lax.cond(
        x[0] > 1, lambda: rule(same, c, k), lambda: rule(same, c * 0.0, k)),
    "a cotangent moved differently by a cond on x, then a rule that does nothing": lambda x, c, k: rule(
        same, jax.lax.cond(x[0] > 0, lambda a: a, lambda a: a[::-1], c), k),
    "a rule's output from zeros by a while stopped by x": lambda x, c, k: jax.lax.while_loop(
        lambda s: (x[0] > 1) & (s[0] == 0), lambda s: (s[0] + 1, rule(same, c, k)),
        (0, jnp.zeros(3)))[1],
}


def _through_ref(v):
    box = jax.new_ref(jnp.zeros_like(v))
    box[...] = v
    return box[...]


def _read_then_write(c, k):
    box = jax.new_ref(jnp.zeros(3))
    out = jax.lax.fori_loop(0, 2, lambda i, acc: acc + box[...], jnp.zeros(3))  # read first
    box[...] = c
    return rule(same, jnp.ones(3), k) * jax.lax.fori_loop(0, 2, lambda i, acc: acc + box[...], out)


def _ref_in_jit(v):
    box = jax.new_ref(jnp.zeros_like(v))

    @jax.jit
    def write(r, a):
        r[...] = a

    write(box, v)
    return box[...]


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
        return jax.checkpoint(lambda a: rule(same, a, k), prevent_cse=True)(c)

    # remat maps its inputs one to one, so it is followed; an unknown primitive would not be
    flow = reached(fn)
    assert flow["reached"] is False and flow["opaque"] == 0


def test_wrong_marker_name_is_no_marker():
    """Only the input markers carry the secret scope: with another prefix no function is applied
    to x, so no rule counts."""
    honest = HONEST["through the rule"]
    assert flow_of(honest)["reached"] is False
    assert flow_of(honest, marker="rsomethingelse")["reached"] is True


def test_markers_count_only_as_the_equations_the_instrument_recorded():
    """Code inside a backward rule may copy any scope; what it cannot copy is the variables the
    instrument's own equations defined."""
    honest = HONEST["through the rule"]
    assert flow_of(honest)["rules"] == 1
    flow = flow_of(honest, made=False)
    assert flow["reached"] is True and flow["rules"] == 0


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
    flow = reached(lambda x, c, k: rule(lambda g: g, jnp.full(3, 0.5), k))
    assert flow["reached"] is False and flow["used"] is False


# --- returned: a field a rule made without its cotangent (zeros where the answer is zero) -------

def test_zeros_a_bound_rule_returns_are_returned_though_not_used():
    flow = reached(lambda x, c, k: rule(lambda g: jnp.zeros_like(g), c, k))
    assert flow["reached"] is False and flow["used"] is False and flow["returned"] is True


def test_the_cotangent_through_the_rule_is_returned_too():
    assert reached(HONEST["through the rule"])["returned"] is True


@pytest.mark.parametrize("name, fn", [
    ("zeros beside a rule whose output is thrown away",
     lambda x, c, k: (rule(same, c, k), jnp.zeros(3))[1]),
    ("zeros from the rule of a function never applied to x",
     lambda x, c, k: rule(lambda g: jnp.zeros_like(g), c, k, n=1)),
    ("zeros computed from x alone", lambda x, c, k: x * 0),
])
def test_zeros_no_bound_rule_returned_are_not_returned(name, fn):
    flow = reached(fn)
    assert flow["used"] is False and flow["returned"] is False, name


def test_a_field_only_part_of_which_a_rule_returned_is_not_returned():
    def fn(x, c, k):
        return rule(lambda g: jnp.zeros_like(g), c, k), jnp.zeros(3)

    x = jnp.arange(1.0, 4.0)
    MADE.clear()

    def with_x_applied(x, c, k):
        FACTOR.append(k)
        return fn(applied(x), c, k)

    closed = jax.make_jaxpr(with_x_applied)(x, x * 2, jnp.float32(1.0))
    recorded = {id(v): (kind, run, n, a) for v, kind, run, n, a in MADE if v is not None}
    flow = trace_flow(closed, MARK, sources=[1], sinks=[0, 1], primals=[0], factor=2, made=recorded)
    assert flow["returned"] is False


def made_by(t, n=0, moved=True):
    """What the instrument does to what function n returns (its output marker): the value kept
    by a ``select_n`` on whether the factor lies outside ``[0, STILL]``, less what it lies
    outside by; with ``moved`` False, the form of an input marker (a subtraction of a zero
    only), which is not an output marker."""
    k = FACTOR[-1]
    with jax.named_scope(f"{MARK}out{n}"):
        if not moved:
            return jax.lax.sub(t, _zero(k))
        still = jax.lax.clamp(0.0, k, STILL)
        kept = jax.lax.select_n(jax.lax.ne(still, k), t, jax.lax.full_like(t, 0))
        return jax.lax.sub(kept, jax.lax.convert_element_type(jax.lax.sub(still, k), t.dtype))


def computed_of(fn):
    """Trace fn(x, c, k) -> (grads, values), with x applied to function 0, and ask whether
    values (output 1) is what a function whose rule gives grads (output 0) computed."""
    x = jnp.arange(1.0, 4.0)
    MADE.clear()

    def with_x_applied(x, c, k):
        FACTOR.append(k)
        return fn(applied(x), c, k)

    closed = jax.make_jaxpr(with_x_applied)(x, x * 2, jnp.float32(1.0))
    recorded = {id(v): (kind, run, n, a) for v, kind, run, n, a in MADE if v is not None}
    return trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2, made=recorded,
                      computed=[1])["computed"]


def _grads(x, c, k, n=0):
    return rule(lambda g: g * _mask(x), c, k, n)


COMPUTED = {
    "a quantizer's output": lambda x, c, k: (_grads(x, c, k), made_by(jnp.round(x * 2) / 2)),
    "computed in a jit, then moved": lambda x, c, k: (
        _grads(x, c, k), jnp.reshape(made_by(jax.jit(jnp.round)(x)), (3,)) * 3.0),
    "two functions in series": lambda x, c, k: (
        _grads(x, c, k), made_by(applied(made_by(jnp.round(x)), 1) + 1.0, 1)),
    "the same function applied to its own output": lambda x, c, k: (
        _grads(x, c, k), made_by(jnp.round(applied(made_by(jnp.round(x)))))),
}
NOT_COMPUTED = {
    "an identity, rounded outside": lambda x, c, k: (_grads(x, c, k), jnp.round(made_by(x))),
    "an identity, moved and times one": lambda x, c, k: (
        _grads(x, c, k), made_by(jnp.reshape(x, (3,)) * 1.0 + 0.0)),
    "rounded outside, passed through it again": lambda x, c, k: (
        _grads(x, c, k), made_by(applied(jnp.round(made_by(x))))),
    "its output rounded outside, passed through it again": lambda x, c, k: (
        _grads(x, c, k), made_by(applied(jnp.round(made_by(jnp.round(x)))))),
    "another function computes it": lambda x, c, k: (
        _grads(x, c, k), made_by(jnp.round(applied(x, 1)), 1)),
    "no function's output": lambda x, c, k: (_grads(x, c, k), jnp.round(x)),
    "marked as an input marker is, not as a function's output": lambda x, c, k: (
        _grads(x, c, k), made_by(jnp.round(x * 2) / 2, moved=False)),
}


@pytest.mark.parametrize("name", sorted(COMPUTED))
def test_values_a_function_computed_from_its_input(name):
    assert computed_of(COMPUTED[name]) is True


@pytest.mark.parametrize("name", sorted(NOT_COMPUTED))
def test_values_passed_through_or_computed_outside_are_not_computed(name):
    assert computed_of(NOT_COMPUTED[name]) is False


# --- with ``plumbed``: the function applied to x itself, moved -----------------------------------

def flow_at(point, plumbed=True):
    """The cotangent pulled back through function 0's rule (one that does nothing), function 0
    applied to ``point(x)`` (not to x itself, as ``flow_of`` applies it)."""
    x = jnp.arange(1.0, 4.0)
    MADE.clear()

    def fn(x, c, k):
        FACTOR.append(k)
        applied(point(x))
        return rule(same, c, k)

    closed = jax.make_jaxpr(fn)(x, x * 2, jnp.float32(1.0))
    recorded = {id(v): (kind, run, n, a) for v, kind, run, n, a in MADE if v is not None}
    return trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2, made=recorded,
                      plumbed=plumbed)


MOVED = {
    "x itself": lambda x: x,
    "reshaped and cast": lambda x: x.reshape(1, 3).astype(jnp.float64).reshape(3).astype(jnp.float32),
    "transposed and broadcast": lambda x: jnp.broadcast_to(x[:, None], (3, 2)).T,
    "times one, plus zero": lambda x: x * 1.0 + 0.0,
    "inside jit": lambda x: jax.jit(lambda v: v[::-1])(x),
    "under vmap": lambda x: jax.vmap(lambda v: v.reshape(1))(x),
    "chosen by a cond on x": lambda x: jax.lax.cond(x[0] > 0, lambda: x, lambda: -x * 1.0),
    "unstacked and stacked": lambda x: jnp.stack(jnp.unstack(x)[::-1]),
    "a half of a join of x with itself": lambda x: jnp.concatenate([x, x[::-1]])[3:],
}

FROM_X = {
    "x times zero": lambda x: x * 0.0,
    "x minus x": lambda x: x - x,
    "a where between x and zeros": lambda x: jnp.where(jnp.abs(x) > 1e30, x, 0.0),
    "a function of x": lambda x: jnp.sin(x),
    "zeros shaped like x": lambda x: jnp.zeros_like(x),
    "the first half of a join of x times zero with x": lambda x: jnp.concatenate([x * 0.0, x])[:3],
    "a row of a stack of x times zero and x": lambda x: jnp.unstack(jnp.stack([x * 0.0, x]))[0],
    "x times zero with x written after it": lambda x: jax.lax.dynamic_update_slice(
        jnp.concatenate([x * 0.0, x * 0.0]), x, (3,))[:3],
    "the padding of x": lambda x: jnp.pad(x, (3, 0))[:3],
    "x taken out of bounds, filled": lambda x: jnp.take(
        x, jnp.arange(3) + 3, mode="fill", fill_value=0.0),
}


@pytest.mark.parametrize("name", MOVED)
def test_with_plumbed_a_function_applied_to_x_moved_is_bound(name):
    flow = flow_at(MOVED[name])
    assert flow["reached"] is False and flow["rules"] == 1, flow


@pytest.mark.parametrize("name", FROM_X)
def test_with_plumbed_a_function_applied_to_a_value_computed_from_x_is_not(name):
    assert flow_at(FROM_X[name])["reached"] is True
    if name != "zeros shaped like x":  # without plumbed, a value that depends on x is enough
        assert flow_at(FROM_X[name], plumbed=False)["reached"] is False


# --- a choice made by x between rules; pieces of the cotangent; the application a rule runs for -

def _bound(x, n, out):
    """``out``, with function n applied to x beside it (its output unused)."""
    applied(x, n)
    return out


def _pieces(x, c, k, first=same, second=same, n=0):
    """The cotangent split by a select on x into two pieces (zeros elsewhere), each through a
    rule (the second of function n), summed back: what JAX's transpose of a select between two
    branches' outputs does (a cond on x under vmap)."""
    chosen, zeros = x > 1, jnp.zeros(3)
    return rule(first, jnp.where(chosen, c, zeros), k) + rule(second, jnp.where(chosen, zeros, c), k, n)


CHOICES_HONEST = {
    "the pieces of a select on x, each through the same function's rule": _pieces,
    "the pieces of a select on x, one rule masking": lambda x, c, k: _pieces(
        x, c, k, second=lambda g: g * _mask(x)),
    "pieces gated again by the same select after their rules": lambda x, c, k: jnp.where(
        x > 1, rule(same, jnp.where(x > 1, c, jnp.zeros(3)), k), jnp.zeros(3)) + rule(
        same, jnp.where(x > 1, jnp.zeros(3), c), k),
    "moved by split and concatenated back": lambda x, c, k: jnp.concatenate(
        jnp.split(rule(same, c, k), [1])),
}
def _switch_pieces(x, c, k, cases=(0, 1, 2)):
    """A select on an int among three cases on x (a switch under vmap), and its transpose: one
    select per case on ``which == i``, each piece through the same rule, summed back."""
    which = jnp.clip(x.astype(jnp.int32), 0, 2)
    jax.lax.select_n(which, x, x * 2.0, x * 3.0)
    zeros = jnp.zeros(3)
    return sum(rule(same, jax.lax.select_n(which == i, zeros, c), k) for i in cases)


CHOICES_HONEST["every piece of a select among three cases, each through the rule"] = _switch_pieces

CHOICES_CHEATING = {
    "two of the three pieces of a select among three cases": lambda x, c, k: _switch_pieces(
        x, c, k, cases=(0, 2)),
    "the rules of two functions chosen by cond on x": lambda x, c, k: _bound(x, 1, jax.lax.cond(
        x[0] > 1, lambda: rule(same, c, k), lambda: rule(lambda g: g * 0.0, c, k, n=1))),
    "one piece of a select on x through a rule, the other dropped": lambda x, c, k: rule(
        same, jnp.where(x > 1, c, jnp.zeros(3)), k),
    "the pieces of a select on x through the rules of two functions": lambda x, c, k: _bound(
        x, 1, _pieces(x, c, k, second=lambda g: g * 0.0, n=1)),
    "a piece of a select on x zeroed after its rule": lambda x, c, k: rule(
        same, jnp.where(x > 1, c, jnp.zeros(3)), k) + rule(same, jnp.where(x > 1, jnp.zeros(3), c), k) * 0.0,
    "a piece of a select on x, the other zeros from a literal one times the cotangent": lambda x, c, k: rule(
        same, jnp.where(x > 1, c, jnp.zeros(3)), k) + rule(same, jnp.where(x > 1, c * 0.0, c), k),
    "the rule of an application to a constant, beside the function applied to x": lambda x, c, k: (
        applied(jnp.ones(3), 0, app=7), rule(same, c, k, app=7))[1],
}


@pytest.mark.parametrize("name", CHOICES_HONEST)
def test_pieces_and_moves_through_the_same_rules_are_clean(name):
    flow = reached(CHOICES_HONEST[name])
    assert flow["reached"] is False, flow


@pytest.mark.parametrize("name", CHOICES_CHEATING)
def test_a_choice_by_x_between_rules_or_a_piece_left_out_is_seen(name):
    assert reached(CHOICES_CHEATING[name])["reached"] is True


def test_with_plumbed_a_cotangent_split_and_concatenated_is_only_moved():
    """``split`` (JAX's transpose of a concatenation, as where a ``lax.map`` of the layer over
    rows is unrolled) moves the cotangent; a piece scaled after it does not."""
    x = jnp.arange(1.0, 4.0)

    def traced(scale):
        MADE.clear()

        def fn(x, c, k):
            FACTOR.append(k)
            applied(x)
            head, tail = jnp.split(c, [1])
            return jnp.concatenate([rule(same, head, k), rule(same, tail, k) * scale])

        closed = jax.make_jaxpr(fn)(x, x * 2, jnp.float32(1.0))
        recorded = {id(v): (kind, run, n, a) for v, kind, run, n, a in MADE if v is not None}
        return trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2,
                          made=recorded, plumbed=True)

    assert traced(1.0)["reached"] is False
    assert traced(-2.0)["reached"] is True


def test_with_plumbed_a_cotangent_unstacked_and_stacked_is_only_moved():
    """``unstack`` and ``stack`` (the primitives of ``jnp.unstack`` and ``jnp.stack``, each the
    other's transpose, as where a layer is applied to the rows in a Python loop) move the
    cotangent; a row scaled between them does not."""
    x = jnp.arange(1.0, 7.0).reshape(2, 3)

    def traced(scale):
        MADE.clear()

        def fn(x, c, k):
            FACTOR.append(k)
            applied(x)
            first, second = jnp.unstack(c)
            return jnp.stack([rule(same, first, k), rule(same, second, k) * scale])

        closed = jax.make_jaxpr(fn)(x, x * 2, jnp.float32(1.0))
        recorded = {id(v): (kind, run, n, a) for v, kind, run, n, a in MADE if v is not None}
        return trace_flow(closed, MARK, sources=[1], sinks=[0], primals=[0], factor=2,
                          made=recorded, plumbed=True)

    assert traced(1.0)["reached"] is False
    assert traced(-2.0)["reached"] is True
