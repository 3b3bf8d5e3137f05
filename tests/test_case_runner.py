"""The worker's case runner (``judge.worker.case_runner``), run here on functions of the test's
own: where the rules read the case's program and the problem has probes, the probes' values come
from that program (traced once with the case's cotangent and tangent as inputs), and they, the
output and the program the rules compare are what the separate traces give.

Nothing here runs a submission: the functions are the tests'."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.worker import evaluate, protocol
from judge.worker.case_runner import CaseRunner


def _request(names, wrt, probes=("vjp",), structure=True):
    return {"parameters": [{"name": n, "traced": True} for n in names], "submission": "/none.py",
            "structure": structure, "probes": {"wrt": wrt, "names": list(probes)}}


class _Counted:
    """An entry function that counts its calls (each trace calls it once)."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args):
        self.calls += 1
        return self.fn(*args)


def _expansion(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T


@jax.jit
def _rows(a):
    return jnp.sum(a * a, axis=1)


def _jitted_helper(X, Y):
    return _rows(X)[:, None] + _rows(Y)[None, :] - 2 * jnp.dot(X, Y.T)


def _scanned(X, Y):
    def step(carry, x):
        return carry, jnp.sum((x[None, :] - Y) ** 2, axis=1)
    return jax.lax.scan(step, 0.0, X)[1]


def _vmapped(X, Y):
    return jax.vmap(lambda x: jnp.sum((x[None, :] - Y) ** 2, axis=1))(X)


STYLES = {"expansion": _expansion, "jitted_helper": _jitted_helper, "scan": _scanned,
          "vmap": _vmapped}


def _case(seed=0, n=5, m=4, d=3):
    rng = np.random.default_rng(seed)
    args = {"X": rng.standard_normal((n, d)).astype(np.float32),
            "Y": rng.standard_normal((m, d)).astype(np.float32)}
    return args, {"cotangent": rng.standard_normal((n, m)).astype(np.float32)}


def _run(fn, merged: bool, request=None, case=None):
    runner = CaseRunner(fn, request or _request(["X", "Y"], ["X", "Y"]))
    if not merged:
        runner._probes_in_program = lambda *a: None  # the separate traces
    args, probe_args = case or _case()
    return runner.run(args, probe_args)


#: Primitives that only move or relabel data: the separate trace makes its cotangent with them.
PLUMBING = frozenset({"slice", "dynamic_slice", "squeeze", "gather", "broadcast_in_dim", "reshape",
                      "convert_element_type", "concatenate"})


def _compared(program):
    """The program's primitives and their counts, but for plumbing."""
    return {p: n for p, n in program["primitives"].items() if p not in PLUMBING}


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_probes_read_from_the_program_agree_with_their_own_traces(style):
    fn = STYLES[style]
    one, other = _run(fn, merged=True), _run(fn, merged=False)
    assert one["error"] is None and other["error"] is None
    assert one["output"] == other["output"]  # the same trace of the output, evaluated alike
    got, want = (protocol.decode_value(r["probes"]["vjp"]) for r in (one, other))
    assert set(got) == set(want) == {"X", "Y"}
    for name in got:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-5)
    # the program the rules read is the same, but for the ones the separate trace made as its
    # cotangent (plumbing)
    assert _compared(one["program"]) == _compared(other["program"])


def test_a_callback_only_the_backward_rule_makes_is_among_the_primitives():
    """What the derivative ran counts as the program's too (``no_callbacks`` reads it)."""
    @jax.custom_vjp
    def f(x):
        return x * 2.0

    def bwd(_, g):
        return (jax.pure_callback(lambda v: np.asarray(v) * 2.0, jax.ShapeDtypeStruct(g.shape, g.dtype), g),)

    f.defvjp(lambda x: (x * 2.0, None), bwd)
    x = np.arange(3, dtype=np.float32)
    for merged in (True, False):
        result = _run(f, merged=merged, request=_request(["x"], "x"),
                      case=({"x": x}, {"cotangent": np.ones(3, np.float32)}))
        assert result["error"] is None
        assert "pure_callback" in result["trace"]["primitives"]
        np.testing.assert_array_equal(protocol.decode_value(result["probes"]["vjp"]), np.full(3, 2.0))


def test_one_trace_serves_the_probes_and_the_program():
    merged, separate = _Counted(_expansion), _Counted(_expansion)
    _run(merged, merged=True)
    _run(separate, merged=False)
    assert (merged.calls, separate.calls) == (2, 3)  # the output's trace, then one more


def test_the_output_is_the_plain_call_not_the_forward_rule():
    """A custom_vjp whose forward rule returns another value than its function: the output
    judged is what calling the function returns."""
    @jax.custom_vjp
    def f(x):
        return x * 2.0

    def fwd(x):
        return x * 3.0, None

    def bwd(_, g):
        return (g * 2.0,)

    f.defvjp(fwd, bwd)
    x = np.arange(4, dtype=np.float32)
    request = _request(["x"], "x")
    result = _run(f, merged=True, request=request, case=({"x": x}, {"cotangent": np.ones(4, np.float32)}))
    assert result["error"] is None
    np.testing.assert_array_equal(protocol.decode_value(result["output"]), x * 2.0)
    np.testing.assert_array_equal(protocol.decode_value(result["probes"]["vjp"]), np.full(4, 2.0))


def test_a_probe_that_fails_is_reported_by_name_as_before():
    """No forward-mode rule (a custom_vjp under jvp): the one program cannot be traced, so each
    probe is traced on its own and the jvp's failure is reported, the vjp's value kept."""
    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (jnp.sin(x), jnp.cos(x)), lambda c, g: (g * c,))
    x = np.linspace(0, 1, 4, dtype=np.float32)
    request = _request(["x"], "x", probes=("vjp", "jvp"))
    case = ({"x": x}, {"cotangent": np.ones(4, np.float32), "tangent": np.ones(4, np.float32)})
    one, other = (_run(f, merged=m, request=request, case=case) for m in (True, False))
    assert one["error"] is None and set(one["probes"]["errors"]) == {"jvp"}
    assert one["probes"] == other["probes"]
    assert one["program"] == other["program"]


def test_both_probes_from_one_program():
    x = np.linspace(-1, 1, 6, dtype=np.float32)
    request = _request(["x"], "x", probes=("vjp", "jvp"))
    case = ({"x": x}, {"cotangent": np.full(6, 0.5, np.float32), "tangent": np.full(6, 2.0, np.float32)})
    counted = _Counted(lambda x: jnp.tanh(x) * x)
    one = _run(counted, merged=True, request=request, case=case)
    assert counted.calls == 3  # the output's trace, then the vjp's and the jvp's in one program
    other = _run(lambda x: jnp.tanh(x) * x, merged=False, request=request, case=case)
    for name in ("vjp", "jvp"):
        np.testing.assert_allclose(protocol.decode_value(one["probes"][name]),
                                   protocol.decode_value(other["probes"][name]), rtol=1e-6)


def test_a_jitted_call_is_evaluated_operation_by_operation_when_asked():
    """``jit_inlined``: the body's operations are evaluated one by one (exact ones in NumPy), as
    under disable_jit, with the values that disable_jit gives; without it the call is bound."""
    inner = jax.jit(lambda a, b: jnp.exp(a) * b + a)
    closed = jax.make_jaxpr(lambda a, b: inner(a, b) - 1.0)(np.ones(3, np.float32), np.ones(3, np.float32))
    assert any(e.primitive.name in ("jit", "pjit") for e in closed.jaxpr.eqns)
    a = np.linspace(-2, 2, 3, dtype=np.float32)
    b = np.array([0.5, 1.5, -3.0], np.float32)
    bound = []
    evaluator = evaluate.Evaluator(jax)
    original = evaluate.Evaluator._bind

    def recording(self, eqn, values):
        bound.append(eqn.primitive.name)
        return original(self, eqn, values)

    evaluate.Evaluator._bind = recording
    try:
        inlined = evaluator.run(closed.jaxpr, closed.consts, a, b, jit_inlined=True)
        assert bound == ["exp"]  # the product, sum and difference are NumPy's
        bound.clear()
        whole = evaluator.run(closed.jaxpr, closed.consts, a, b)
        assert bound[0] in ("jit", "pjit")
    finally:
        evaluate.Evaluator._bind = original
    with jax.disable_jit():
        eager = np.asarray(inner(a, b) - 1.0)
    np.testing.assert_array_equal(np.asarray(inlined[0]), eager)
    np.testing.assert_allclose(np.asarray(whole[0]), eager, rtol=1e-6)
