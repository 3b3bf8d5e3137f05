"""A case's program evaluated again at the custom_vjp instrument's factor (``judge.worker.reuse``):
what does not depend on the factor is taken from the first evaluation, and the values are
those of the program evaluated whole, bit for bit; where they could differ (another loop budget,
an effect, a factor that is not finite, other inputs) the program is evaluated whole.

The submissions at the end run in a process of their own, with the instrument installed: the
worker's results for every case of fake_quant_ste, evidence included, are the same with the
reuse as with every evaluation whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from judge.worker import evaluate, reuse, stepwise

ROOT = Path(__file__).resolve().parent.parent
X = np.array([0.3, -0.0, 2.6, -9.0, 1e-3], np.float32)


class Spy(reuse.Reuse):
    """A ``Reuse`` that keeps each evaluation's hooks (None: evaluated whole)."""

    def __init__(self):
        super().__init__()
        self.passes: list = []

    def begin(self, *args):
        found = super().begin(*args)
        self.passes.append(found)
        return found


def _marked(x, k):
    """A program shaped as the instrument marks one: the input marker's zero subtracted, then a
    forward pass, then a backward rule's output times the factor."""
    v = x - (k - k)
    forward = jnp.tanh(v) * jnp.exp(-v * v) + jnp.sin(3.0 * v)
    mask = jnp.abs(v) <= 2.0
    return forward, jnp.where(mask, jnp.cos(v), 0.0) * k


def _both(fn, *args, factor=3.0, spy=None):
    """(the evaluation at ``factor`` after one at 1, with ``spy``; the same evaluated whole)."""
    closed = jax.make_jaxpr(fn)(*args, np.float32(1.0))
    evaluator, spy = evaluate.Evaluator(jax), spy if spy is not None else Spy()
    evaluator.run(closed.jaxpr, closed.consts, *args, np.float32(1.0), jit_inlined=True, reuse=spy)
    again = evaluator.run(closed.jaxpr, closed.consts, *args, np.float32(factor), jit_inlined=True,
                          reuse=spy)
    whole = evaluate.Evaluator(jax).run(closed.jaxpr, closed.consts, *args, np.float32(factor),
                                        jit_inlined=True)
    return [np.asarray(v) for v in again], [np.asarray(v) for v in whole], spy


def _identical(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes()


def test_only_what_depends_on_the_factor_is_evaluated_again(monkeypatch):
    bound: list = []
    original = evaluate.Evaluator._numpy

    def counted(self, eqn, values):
        bound.append(eqn.primitive.name)
        return original(self, eqn, values)

    monkeypatch.setattr(evaluate.Evaluator, "_numpy", counted)
    got, want, spy = _both(_marked, X)
    _identical(got, want)
    first, again = spy.passes
    assert first is not None and again is not None and again.replaying
    assert bound.count("tanh") == 2  # the first evaluation's and the whole one's, not again
    # the input marker's zero and the whole forward pass are the first evaluation's: only the
    # backward rule's output times the factor is evaluated again
    assert len(spy.split[0][0]) == 1


def test_values_the_rest_reads_are_kept_and_no_others():
    _, _, spy = _both(_marked, X)
    kept = {v.aval.shape for v in spy.values}
    assert spy.values and len(spy.values) <= 3 and kept == {(5,)}


@pytest.mark.parametrize("factor", [np.inf, -np.inf, np.nan])
def test_a_factor_that_is_not_finite_is_evaluated_whole(factor):
    """``inf - inf`` is NaN: the input marker's zero then depends on the factor."""
    got, want, spy = _both(_marked, X, factor=factor)
    _identical(got, want)
    assert spy.passes[1] is None


def test_other_inputs_are_evaluated_whole():
    closed = jax.make_jaxpr(_marked)(X, np.float32(1.0))
    evaluator, spy = evaluate.Evaluator(jax), Spy()
    evaluator.run(closed.jaxpr, closed.consts, X, np.float32(1.0), jit_inlined=True, reuse=spy)
    other = X + 1.0
    got = evaluator.run(closed.jaxpr, closed.consts, other, np.float32(2.0), jit_inlined=True, reuse=spy)
    want = evaluate.Evaluator(jax).run(closed.jaxpr, closed.consts, other, np.float32(2.0), jit_inlined=True)
    assert spy.passes[1] is None
    _identical([np.asarray(v) for v in got], [np.asarray(v) for v in want])


def test_another_program_is_evaluated_whole():
    """The key traced again (from cleared caches): its program is not the one recorded, though
    it may print the same."""
    one, two = (jax.make_jaxpr(lambda x, k: _marked(x, k))(X, np.float32(1.0)) for _ in range(2))
    assert one.jaxpr is not two.jaxpr
    evaluator, spy = evaluate.Evaluator(jax), Spy()
    evaluator.run(one.jaxpr, one.consts, X, np.float32(1.0), jit_inlined=True, reuse=spy)
    evaluator.run(two.jaxpr, two.consts, X, np.float32(2.0), jit_inlined=True, reuse=spy)
    assert spy.passes[0] is not None and spy.passes[1] is None


def test_a_program_with_an_effect_is_evaluated_whole():
    def printed(x, k):
        forward, grads = _marked(x, k)
        jax.debug.print("{}", forward[0])
        return forward, grads

    got, want, spy = _both(printed, X)
    _identical(got, want)
    assert spy.passes == [None, None]


def test_a_callback_runs_as_often_as_in_a_whole_evaluation():
    """A ``pure_callback`` has no effect, but runs code of its own (a submission's, which the
    rules refuse): it is called again, and what reads it evaluated again, as a whole second
    evaluation would."""
    calls: list = []

    def counted(v):
        calls.append(1)
        return np.asarray(v) * len(calls)

    def called(x, k):
        forward, grads = _marked(x, k)
        shape = jax.ShapeDtypeStruct(forward.shape, forward.dtype)
        return jax.pure_callback(counted, shape, forward) + 1.0, grads

    closed = jax.make_jaxpr(called)(X, np.float32(1.0))
    evaluator, spy = evaluate.Evaluator(jax), Spy()
    first = evaluator.run(closed.jaxpr, closed.consts, X, np.float32(1.0), jit_inlined=True, reuse=spy)
    again = evaluator.run(closed.jaxpr, closed.consts, X, np.float32(3.0), jit_inlined=True, reuse=spy)
    assert len(calls) == 2 and spy.passes[1] is not None and first
    del calls[1:]  # the whole evaluation's call is the second too
    whole = evaluate.Evaluator(jax).run(closed.jaxpr, closed.consts, X, np.float32(3.0), jit_inlined=True)
    _identical([np.asarray(v) for v in again], [np.asarray(v) for v in whole])


def test_a_generator_with_a_state_is_evaluated_again():
    def drawn(x, k):
        forward, grads = _marked(x, k)
        return forward + jax.lax.rng_uniform(0.0, 1.0, forward.shape), grads

    _, _, spy = _both(drawn, X)
    closed = jax.make_jaxpr(drawn)(X, np.float32(1.0))
    assert spy.passes[1] is not None
    names = {e.primitive.name for e in spy.program[0].eqns if id(e) in spy.split[0][0]}
    assert "rng_uniform" in names and "add" in names and "tanh" not in names
    assert len(closed.jaxpr.eqns) == len(spy.program[0].eqns)


def _loops(x, k):
    """A loop whose steps depend on the factor, then one that does not: how much of the
    budget the first leaves decides whether the second is stepped or bound whole."""
    steps = (k * 300.0).astype(jnp.int32)
    count = jax.lax.while_loop(lambda s: s[0] < steps, lambda s: (s[0] + 1, s[1] * 1.0001),
                               (0, jnp.float32(1.0)))[1]
    v = x - (k - k)
    rolled = jax.lax.fori_loop(0, 400, lambda i, a: jnp.sin(a) * 1.5, v)
    return rolled * count, rolled * k


def test_a_loop_on_another_budget_than_the_first_evaluation_s_is_evaluated_again(monkeypatch):
    stale: list = []
    original = reuse.Pass.kept

    def kept(self, eqn, budget):
        try:
            return original(self, eqn, budget)
        except reuse.Stale:
            stale.append(eqn.primitive.name)
            raise

    monkeypatch.setattr(reuse.Pass, "kept", kept)
    got, want, _ = _both(_loops, X, factor=5.0)
    _identical(got, want)
    # the independent loop found another budget left than in the first evaluation: whole again
    assert len(stale) == 1 and stale[0] in ("while", "scan")
    stale.clear()
    got, want, spy = _both(_loops, X, factor=1.0)  # the same steps: the loop is the first's
    _identical(got, want)
    assert stale == [] and spy.passes[1] is not None and spy.budgets
    assert stepwise.LOOP_WORK < 5 * 300 * 4  # the factor 5's loop spends past the budget


# --- the worker's results on whole submissions, with the instrument installed -------------------

_DATA_DEPENDENT = '''
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)

    def formula(v):
        return scale * jnp.clip(v / scale, qmin, qmax)

    values, pull = jax.vjp(quant, x)
    (ruled,) = pull(cotangent)
    (derived,) = jax.vjp(formula, x)[1](cotangent)
    # the backward rule's gradient where the values are large, autodiff's elsewhere
    grads = jnp.where(jnp.sum(jnp.abs(x)) > 2.0 * scale, ruled, derived)
    return {"values": values, "grads": grads}
'''

_SCRIPT = r'''
import contextlib, io, json, sys
from pathlib import Path
from judge.problem import spec
from judge.grade.request import build_request
from judge.worker import custody, instrument, protocol, provenance, reuse
from judge.worker.case_runner import CaseRunner
from judge.worker.main import load_submission

problem = spec.load("problems/fake_quant_ste.yaml")
recorder = instrument.install("rtestmarker")
measures, check = custody.measures(recorder, "rtestmarker", provenance)
begin, replays = reuse.Reuse.begin, []


def counted(self, *args):
    first = self.program is None
    found = begin(self, *args)
    if found is not None and not first:
        replays.append(1)
    return found


def results(path, request, kept):
    reuse.Reuse.begin = counted if kept else (lambda self, *args: None)
    entry, error = load_submission(path, request["entry_point"])
    assert error is None, error
    runner = CaseRunner(entry, request, recorder, "rtestmarker")
    runner.provenance = measures
    found = []
    for case in request["cases"]:
        result = runner.run(protocol.decode_args(case["args"]),
                            protocol.decode_args(case.get("probe_args") or {}),
                            float(case["factor"]), case.get("symbolic"))
        assert check(result.get("evidence")) is None
        found.append(result)
    return json.loads(json.dumps(found, default=repr)), len(request["cases"])


report = {}
for path in sys.argv[1:]:
    with contextlib.redirect_stdout(io.StringIO()):
        del replays[:]
        request = build_request(problem, Path(path), problem.cases)  # its factors drawn once
        kept, cases = results(path, request, True)
        replayed = len(replays)
        whole, _ = results(path, request, False)
    report[path] = {"same": kept == whole, "replayed": replayed, "cases": cases,
                    "evidence": [r["evidence"] is not None for r in kept]}
print(json.dumps(report))
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reuse")
    chosen = {"honest": ROOT / "submissions/fake_quant_ste/accepted/closure_vjp.py",
              "two_rules": ROOT / "submissions/fake_quant_ste/accepted/two_rules_in_series.py",
              "stop_gradient": ROOT / "submissions/fake_quant_ste/rejected/stop_gradient_ste.py",
              "backward_ignored": ROOT / "submissions/fake_quant_ste/rejected/formula_grads.py",
              "data_dependent": folder / "data_dependent.py",
              # the backward rule writes a ref the output reads: an effect, evaluated whole
              "ref_written_by_backward": ROOT / "tests/adversarial/rules/ref_stash_from_backward.py",
              # a callback in the forward pass: called again in the scaled evaluation
              "callback": ROOT / "submissions/fake_quant_ste/rejected/pure_callback.py"}
    chosen["data_dependent"].write_text(_DATA_DEPENDENT)
    done = subprocess.run([sys.executable, "-c", _SCRIPT, *map(str, chosen.values())],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return {name: report[str(path)] for name, path in chosen.items()}


@pytest.mark.parametrize("name", ["honest", "two_rules", "stop_gradient", "backward_ignored",
                                  "data_dependent", "callback"])
def test_the_evidence_is_that_of_a_whole_second_evaluation(graded, name):
    found = graded[name]
    assert found["same"], name
    assert all(found["evidence"])
    # every case's scaled output, its two outputs with the functions' outputs moved far and its
    # two with them shifted near (the rule's ``values``; a case of magnitudes past 2**26 has no
    # near shifts), took what does not depend on the factor from its first evaluation (once more
    # where the rule looked unfollowed and the key was traced again)
    cases = found["cases"]
    assert cases > 0 and 3 * cases < found["replayed"] <= 5 * cases + 1


def test_a_program_with_a_ref_the_backward_rule_writes_is_evaluated_whole(graded):
    found = graded["ref_written_by_backward"]
    assert found["same"] and all(found["evidence"])
    assert found["replayed"] == 0
