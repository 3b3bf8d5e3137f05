"""The worker's case runner (``judge.worker.case_runner``), run here on functions of the test's
own: a case's output and its probes' values come from one program, the entry traced once per
static signature with the case's cotangent and tangent as inputs, and they are what JAX's own
``jax.vjp`` and ``jax.jvp`` of the function give.

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


def _run(fn, request=None, case=None):
    runner = CaseRunner(fn, request or _request(["X", "Y"], ["X", "Y"]))
    args, probe_args = case or _case()
    return runner.run(args, probe_args)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_probes_read_from_the_program_are_jax_s_own(style):
    fn = STYLES[style]
    one = _run(fn)
    assert one["error"] is None
    args, probe_args = _case()
    out, pull = jax.vjp(fn, args["X"], args["Y"])
    np.testing.assert_allclose(protocol.decode_value(one["output"]), out, rtol=1e-5, atol=1e-5)
    got = protocol.decode_value(one["probes"]["vjp"])
    assert set(got) == {"X", "Y"}
    for name, want in zip(("X", "Y"), pull(probe_args["cotangent"])):
        np.testing.assert_allclose(got[name], want, rtol=1e-5, atol=1e-5)
    # the rules read the program the values came from: its primitives are the summary's
    assert set(one["program"]["primitives"]) == set(one["trace"]["primitives"])


def test_a_callback_only_the_backward_rule_makes_is_among_the_primitives():
    """What the derivative ran counts as the program's too (``no_callbacks`` reads it)."""
    @jax.custom_vjp
    def f(x):
        return x * 2.0

    def bwd(_, g):
        return (jax.pure_callback(lambda v: np.asarray(v) * 2.0, jax.ShapeDtypeStruct(g.shape, g.dtype), g),)

    f.defvjp(lambda x: (x * 2.0, None), bwd)
    x = np.arange(3, dtype=np.float32)
    result = _run(f, request=_request(["x"], "x"), case=({"x": x}, {"cotangent": np.ones(3, np.float32)}))
    assert result["error"] is None
    assert "pure_callback" in result["trace"]["primitives"]
    np.testing.assert_array_equal(protocol.decode_value(result["probes"]["vjp"]), np.full(3, 2.0))


def test_one_trace_serves_the_probes_and_the_program_for_every_case_of_a_signature():
    counted = _Counted(_expansion)
    runner = CaseRunner(counted, _request(["X", "Y"], ["X", "Y"]))
    for seed in range(4):  # one signature
        assert runner.run(*_case(seed))["error"] is None
    assert counted.calls == 2  # the output's trace, then one with the vjp traced in
    assert runner.run(*_case(0, n=6))["error"] is None  # another signature: traced once more
    assert counted.calls == 4


def test_the_output_is_the_one_program_s_even_where_a_forward_rule_differs():
    """A custom_vjp whose forward rule returns another value than its function: with the
    judge's vjp traced in, the output judged is that one program's primal output, which JAX
    takes from the forward rule; there is no second, plain trace for it to come from. Without
    probes it is the function's own."""
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
    result = _run(f, request=request, case=({"x": x}, {"cotangent": np.ones(4, np.float32)}))
    assert result["error"] is None
    np.testing.assert_array_equal(protocol.decode_value(result["output"]), x * 3.0)
    np.testing.assert_array_equal(protocol.decode_value(result["probes"]["vjp"]), np.full(4, 2.0))
    plain = _run(f, request={**request, "probes": None}, case=({"x": x}, {}))
    np.testing.assert_array_equal(protocol.decode_value(plain["output"]), x * 2.0)


def test_a_probe_that_fails_is_reported_by_name():
    """No forward-mode rule (a custom_vjp under jvp): the one program cannot be traced with
    both, so each probe is tried on its own and the jvp's failure is reported, the vjp's value
    kept."""
    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (jnp.sin(x), jnp.cos(x)), lambda c, g: (g * c,))
    x = np.linspace(0, 1, 4, dtype=np.float32)
    request = _request(["x"], "x", probes=("vjp", "jvp"))
    case = ({"x": x}, {"cotangent": np.ones(4, np.float32), "tangent": np.ones(4, np.float32)})
    one = _run(f, request=request, case=case)
    assert one["error"] is None and set(one["probes"]["errors"]) == {"jvp"}
    np.testing.assert_allclose(protocol.decode_value(one["probes"]["vjp"]), np.cos(x), rtol=1e-6)


@pytest.mark.parametrize("probes, calls", [(("vjp", "jvp"), 8), (("jvp",), 3)])
def test_a_probe_that_fails_when_it_runs_is_left_out_with_no_trace_made_twice(probes, calls):
    """A custom_vjp under jvp: the program with the probes traced in fails when it runs. The
    output's own program is traced and run; each probe's own is traced and run only where there
    are several (with one, its program is the one that failed); and the program kept for the
    key is one of those, not traced again: the output's own where every probe failed, the vjp's
    where only the jvp did. Every case of the key reports the same."""
    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (jnp.sin(x), jnp.cos(x)), lambda c, g: (g * c,))
    counted = _Counted(f)
    runner = CaseRunner(counted, _request(["x"], "x", probes=probes))
    x = np.linspace(0, 1, 4, dtype=np.float32)
    case = ({"x": x}, {"cotangent": np.ones(4, np.float32), "tangent": np.ones(4, np.float32)})
    results = [runner.run(*case) for _ in range(3)]
    assert counted.calls == calls
    for one in results:
        assert one["error"] is None and set(one["probes"]["errors"]) == {"jvp"}
        assert one["probes"]["errors"]["jvp"]["type"] == "TypeError"
        np.testing.assert_allclose(protocol.decode_value(one["output"]), np.sin(x), rtol=1e-6)
        if "vjp" in probes:
            np.testing.assert_allclose(protocol.decode_value(one["probes"]["vjp"]), np.cos(x), rtol=1e-6)
    assert results[1] == results[2]


def test_both_probes_from_one_program():
    x = np.linspace(-1, 1, 6, dtype=np.float32)
    request = _request(["x"], "x", probes=("vjp", "jvp"))
    case = ({"x": x}, {"cotangent": np.full(6, 0.5, np.float32), "tangent": np.full(6, 2.0, np.float32)})
    counted = _Counted(lambda x: jnp.tanh(x) * x)
    one = _run(counted, request=request, case=case)
    assert counted.calls == 3  # the output's trace, then the vjp's and the jvp's in one program
    fn = lambda v: jnp.tanh(v) * v  # noqa: E731
    want = {"vjp": jax.vjp(fn, x)[1](case[1]["cotangent"])[0],
            "jvp": jax.jvp(fn, (x,), (case[1]["tangent"],))[1]}
    for name in ("vjp", "jvp"):
        np.testing.assert_allclose(protocol.decode_value(one["probes"][name]), want[name], rtol=1e-6)


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
