"""The jaxpr walk finds primitives and custom_vjp calls inside every kind of sub-jaxpr."""

import jax
import jax.numpy as jnp
import pytest

from judge.worker import instrument


@jax.custom_vjp
def ste(x):
    return jnp.round(x)


ste.defvjp(lambda x: (ste(x), None), lambda _, g: (g,))


def in_jit(x):
    return jax.jit(lambda v: ste(v) * 2)(x)


def in_cond(x):
    return jax.lax.cond(x.sum() > 0, ste, lambda v: v, x)


def in_scan(x):
    def body(carry, v):
        return carry + ste(v), None
    return jax.lax.scan(body, jnp.zeros(()), x)[0]


def in_while(x):
    return jax.lax.while_loop(lambda v: v.sum() < 10, lambda v: ste(v) + 1, x)


def in_custom_jvp(x):
    @jax.custom_jvp
    def f(v):
        return ste(v)
    f.defjvp(lambda p, t: (f(p[0]), t[0]))
    return f(x)


def nested(x):
    return jax.jit(lambda v: jax.lax.cond(v.sum() > 0, in_scan, lambda u: u.sum(), v))(x)


@pytest.mark.parametrize("fn", [in_jit, in_cond, in_scan, in_while, in_custom_jvp, nested])
def test_custom_vjp_call_found_in_sub_jaxprs(fn):
    found = instrument.walk_primitives(jax.make_jaxpr(fn)(jnp.ones(3)))
    assert found["custom_vjp_calls"] >= 1
    assert "custom_vjp_call" in found["primitives"] or "custom_vjp_call_jaxpr" in found["primitives"]


def test_stop_gradient_trick_has_no_custom_vjp_call():
    def trick(x):
        return x + jax.lax.stop_gradient(jnp.round(x) - x)
    found = instrument.walk_primitives(jax.make_jaxpr(trick)(jnp.ones(3)))
    assert found["custom_vjp_calls"] == 0
    assert "round" in found["primitives"]


def test_callbacks_are_visible_inside_jit():
    import numpy as np

    def cb(x):
        return jax.jit(lambda v: jax.pure_callback(np.round, jax.ShapeDtypeStruct(v.shape, v.dtype), v))(x)
    found = instrument.walk_primitives(jax.make_jaxpr(cb)(jnp.ones(3)))
    assert "pure_callback" in found["primitives"]


def test_both_primitive_names_are_accepted():
    assert {"custom_vjp_call", "custom_vjp_call_jaxpr"} <= instrument.CUSTOM_VJP_PRIMITIVES


# --- the instrument installed: control flow around and inside a custom_vjp function -----------

_CONTROL_FLOW = r'''
import json
import jax, jax.numpy as jnp
from jax import lax


def quantizer():
    @jax.custom_vjp
    def quant(v):
        return 0.5 * jnp.clip(jnp.round(v / 0.5), -4, 4)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        inside = lax.switch(jnp.int32(1), [lambda u: u > 1e30, lambda u: jnp.abs(u) <= 2.0], v)
        pairs = (inside.reshape(-1), g.reshape(-1))
        _, out = lax.scan(lambda c, p: (c, jnp.where(p[0], p[1], 0.0)), 0, pairs)
        return (out.reshape(g.shape),)

    quant.defvjp(fwd, bwd)
    return quant


def around(kind):
    def f(v):
        q = quantizer()
        if kind == "cond":
            return lax.cond(v.sum() > 1e9, lambda w: q(w) * 1.0, q, v)
        if kind == "switch":
            return lax.switch(jnp.where(v.sum() > 1e9, 0, 1), [lambda w: q(w) * 2.0, q], v)
        if kind == "scan":
            return lax.scan(lambda c, r: (c, q(r)), 0.0, v)[1]
        if kind == "fori":
            return lax.fori_loop(0, v.shape[0], lambda i, a: a.at[i].set(q(v[i])), jnp.zeros_like(v))
        if kind == "while":
            return lax.while_loop(lambda s: s[0] < 1, lambda s: (s[0] + 1, s[1]), (0, q(v)))[1]
        return q(v)
    return f


def run(kind, x, c):
    y, pullback = jax.vjp(around(kind), x)
    return y, pullback(c)[0]


KINDS = ["plain", "cond", "switch", "scan", "fori", "while"]
x = jnp.array([0.3, -1.7, 2.6, 9.0], jnp.float32)
c = jnp.array([1.0, 2.0, 3.0, 4.0], jnp.float32)
plain = {k: [a.tolist() for a in run(k, x, c)] for k in KINDS}

from judge.worker import instrument
recorder = instrument.install("rtestmarker")
found = {}
for kind in KINDS:
    def traced(x, c, k):
        recorder.begin(k)
        return run(kind, x, c)
    with jax.disable_jit():
        closed = jax.make_jaxpr(traced)(x, c, jnp.float32(1.0))
    recorder.stop()
    at1 = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, x, c, jnp.float32(1.0))
    at4 = jax.core.eval_jaxpr(closed.jaxpr, closed.consts, x, c, jnp.float32(4.0))
    found[kind] = {"values": at1[0].tolist(), "grads": at1[1].tolist(),
                   "scaled": at4[1].tolist(), "made": sorted({m[0] for m in recorder.made().values()})}
try:
    recorder.made = None
    frozen = False
except AttributeError:
    frozen = True
print(json.dumps({"plain": plain, "found": found, "frozen": frozen}))
'''


@pytest.fixture(scope="module")
def control_flow():
    import json
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", _CONTROL_FLOW], capture_output=True, text=True,
                          timeout=300, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", ["plain", "cond", "switch", "scan", "fori", "while"])
def test_control_flow_works_as_without_the_instrument(control_flow, kind):
    """lax.cond, switch, scan, fori_loop and while_loop around the custom_vjp function (and
    switch and scan inside its backward rule) give what they give without the instrument, and
    the rule's output carries its markers, scaled by the factor."""
    plain, found = control_flow["plain"][kind], control_flow["found"][kind]
    assert found["values"] == plain[0] and found["grads"] == plain[1]
    assert found["scaled"] == [4 * g for g in plain[1]]
    assert found["made"] == ["g", "out"]


def test_the_recorder_cannot_be_changed(control_flow):
    assert control_flow["frozen"] is True


# --- custody: what the worker keeps out of the submission's hands ------------------------------

def test_frozen_attributes_sees_a_replaced_added_or_deleted_attribute():
    from judge.worker import custody

    class Runner:
        pass

    runner = Runner()
    runner.provenance, runner.marker, runner.clearing_helps = object(), "r1", None
    changed = custody.frozen_attributes(runner, keep=("clearing_helps",))
    runner.clearing_helps = True
    assert changed() == []
    runner.provenance = object()
    runner._flow = lambda *a: None
    del runner.marker
    assert changed() == ["Runner._flow", "Runner.marker", "Runner.provenance"]


def test_a_provenance_that_was_not_measured_is_seen():
    from judge.worker import custody

    class Provenance:
        @staticmethod
        def trace_flow(closed, marker, sources, sinks, primals, factor, made=None):
            return {"reached": marker != "rmark" or made != {1: ("out", 1, 0)}, "used": True,
                    "rules": 1, "opaque": 0}

        first_unscaled = staticmethod(lambda *a: None)

    recorder = instrument.Recorder(None, None, None, None, lambda: True, lambda: {1: ("out", 1, 0)})
    measures, check_flow = custody.measures(recorder, "rmark", Provenance)
    with pytest.raises(AttributeError):
        measures.trace_flow = None
    # the caller's marker and record are not the ones used
    found = measures.trace_flow(None, "rforged", [1], [0], [0], 2, made={})
    assert found["reached"] is False
    evidence = {"provenance": dict(found)}
    assert check_flow(evidence) is None and evidence["instrument_intact"] is True
    assert check_flow({"provenance": found}) is not None          # reported, never measured
    measures.trace_flow(None, "rmark", [1], [0], [0], 2)
    assert check_flow({"provenance": {**found, "reached": False, "rules": 5}}) is not None
    assert check_flow({"scaled": None}) is None                     # no rule measured, none reported


def test_a_program_is_measured_once_with_the_record_of_its_own_trace():
    """A program's provenance is measured the first time it is asked for, right after its
    trace, and every later case of the program gets that result, though another program's
    trace has replaced the instrument's record since; another program is measured afresh, and
    a case that reports what it did not measure once is still seen."""
    from judge.worker import custody

    own = {1: ("out", 1, 0)}
    records = [own]

    class Provenance:
        @staticmethod
        def trace_flow(closed, marker, sources, sinks, primals, factor, made=None):
            return {"reached": made != own, "used": True, "rules": 1, "opaque": 0}

        first_unscaled = staticmethod(lambda *a: None)

    recorder = instrument.Recorder(None, None, None, None, lambda: True, lambda: records[-1])
    measures, check_flow = custody.measures(recorder, "rmark", Provenance)
    program, other = object(), object()
    first = measures.trace_flow(program, "rmark", [1], [0], [0], 2)
    assert first["reached"] is False and check_flow({"provenance": dict(first)}) is None
    records.append({7: ("out", 1, 0)})  # another program traced since
    again = measures.trace_flow(program, "rmark", [1], [0], [0], 2)
    assert again == first and check_flow({"provenance": dict(again)}) is None
    fresh = measures.trace_flow(other, "rmark", [1], [0], [0], 2)
    assert fresh["reached"] is True  # measured with the record it has now
    assert check_flow({"provenance": dict(fresh)}) is None
    measures.trace_flow(program, "rmark", [1], [0], [0], 2)
    measures.trace_flow(program, "rmark", [1], [0], [0], 2)
    assert check_flow({"provenance": dict(first)}) is not None  # measured twice in one case


def test_a_static_argument_keys_a_function_by_value_or_identity_without_its_own_code():
    """A custom_vjp applied with different static (nondiff) arguments counts as different
    functions (a static mode may change what its rule does): numbers and strings by value,
    other objects by identity, and never through a ``__hash__`` or ``__eq__`` of theirs."""
    from judge.worker.rule_identity import static as _static_key

    class Loud:
        def __hash__(self):
            raise AssertionError("the submission's __hash__ was called")

        def __eq__(self, other):
            raise AssertionError("the submission's __eq__ was called")

    one, other = Loud(), Loud()
    keys = {_static_key("pass"): 0, _static_key(0.5): 1, _static_key((1, "a")): 2, _static_key(one): 3}
    assert keys[_static_key("pass")] == 0 and keys[_static_key(0.5)] == 1
    assert keys[_static_key((1, "a"))] == 2 and keys[_static_key(one)] == 3
    assert _static_key("drop") not in keys and _static_key(other) not in keys
    assert _static_key(1) != _static_key(1.0) != _static_key(True)


def test_one_factory_over_the_same_numbers_gives_one_function():
    """Two custom_vjp objects built by one factory over the same numbers (one per branch of a
    cond) are one function; over another number, or another array, another."""
    import jax
    import jax.numpy as jnp

    from judge.worker.rule_identity import function

    def make(scale, mask=None):
        @jax.custom_vjp
        def q(v):
            return v * scale

        q.defvjp(lambda v: (q(v), None), lambda _, g: (g * scale if mask is None else g * mask,))
        return q

    kind = type(make(1.0))
    assert function(make(0.5), kind) == function(make(0.5), kind)
    assert function(make(0.5), kind) != function(make(0.25), kind)
    ones = jnp.ones(3)
    assert function(make(0.5, ones), kind) == function(make(0.5, ones), kind)
    assert function(make(0.5, ones), kind) != function(make(0.5, jnp.ones(3)), kind)
