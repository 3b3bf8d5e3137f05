"""Hidden cases whose program the rules refuse with the traces beside them are not evaluated
(``judge.grade.skips.refused_beside``): where ``no_unrolling`` keyed on a static int K compares
a case's program with the programs traced at other values of K, and those traces came first in
the same worker run, a key whose every hidden case the rules refuse that way is skipped, with
the verdicts, reasons and messages every case gets when each is evaluated. Graded on a small
problem, ``halving`` (K steps of y = y / 2 + x, n symbolic).
"""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from judge import rules
from judge.grade import grading, skips, traces, trips
from judge.grade.verdicts import Verdict
from judge.problem import spec
from judge.rules import no_unrolling


def _expected(x, k):
    y = np.asarray(x, np.float32)
    for _ in range(k):
        y = np.float32(0.5) * y + np.asarray(x, np.float32)
    return [float(v) for v in y]


CASES = [([1.0, 2.0], 3), ([3.0], 2), ([5.0, 1.0, 2.0], 2), ([7.0, 1.0], 7), ([0.5, 0.25], 7)]
SPEC = """\
id: halving
title: Halving
statement: "K times: y = y / 2 + x, from y = x."
entry_point: halving
parameters:
  - {name: x, kind: array, dtype: float32, traced: true, shape: [n], finite: true}
  - {name: K, kind: int, traced: false, minimum: 1, maximum: 8}
dims: {n: [1, 16]}
output: {kind: array, shape_like: x, dtype: float32}
tolerance: {rtol: 1.0e-6, atol: 0.0}
symbolic_dims: [n]
rules:
  - {id: no_unrolling, parameter: K}
limits: {time_per_case_s: 5, startup_s: 60}
examples:
%s
hidden:
%s
""" % ("\n".join(f"  - {{name: first, input: {{x: {x}, K: {k}}}, expected: {_expected(x, k)}}}"
                 for x, k in CASES[:1]),
       "\n".join(f"  - {{input: {{x: {x}, K: {k}}}, expected: {_expected(x, k)}}}" for x, k in CASES[1:]))
HONEST = ("import jax\n\ndef halving(x, K):\n"
          "    return jax.lax.fori_loop(0, K, lambda i, y: 0.5 * y + x, x)\n")
#: the K steps written out in Python: its program grows with K
UNROLLED = ("def halving(x, K):\n"
            "    y = x\n"
            "    for _ in range(K):\n"
            "        y = 0.5 * y + x\n"
            "    return y\n")
#: eight trips whatever K, the steps past K masked: refused on the values (the last trip)
FIXED = ("import jax\nimport jax.numpy as jnp\n\ndef halving(x, K):\n"
         "    return jax.lax.fori_loop(0, 8, lambda i, y: jnp.where(i < K, 0.5 * y + x, y), x)\n")
#: the loop written out in Python at K = 7 only: refused there, the loop elsewhere
SEVEN = ("import jax\n\ndef halving(x, K):\n"
         "    if K != 7:\n"
         "        return jax.lax.fori_loop(0, K, lambda i, y: 0.5 * y + x, x)\n"
         "    y = x\n"
         "    for _ in range(K):\n"
         "        y = 0.5 * y + x\n"
         "    return y\n")


@pytest.fixture(scope="module")
def halving(tmp_path_factory):
    root = tmp_path_factory.mktemp("halving")
    (root / "problems").mkdir()
    (root / "problems" / "halving.yaml").write_text(SPEC)
    (root / "reference").mkdir()
    (root / "reference" / "halving.py").write_text(HONEST)
    return spec.load("halving", root=root)


@pytest.fixture
def runs(monkeypatch):
    """The worker runs of each grade (not the reference's), with K's other values fixed."""
    monkeypatch.setattr(no_unrolling, "others", lambda rule, problem, drawn=None: (3, 4))
    seen = []
    real = grading.run_worker

    def recorded(request, **kwargs):
        run = real(request, **kwargs)
        if "reference" not in Path(request["submission"]).parts:
            seen.append((request, run))
        return run

    monkeypatch.setattr(grading, "run_worker", recorded)
    return seen


def shown(result):
    return [(c.index, c.verdict, c.reason, c.message) for c in result.cases]


def _graded_both_ways(problem, path, runs, monkeypatch):
    skipped = grading.grade(problem, path, source_gate=False, hints=False)
    monkeypatch.setattr(skips, "refused_beside", lambda *args: False)
    evaluated = grading.grade(problem, path, source_gate=False, hints=False)
    assert not any(r.skipped for r in runs[-1][1].cases.values())
    assert shown(skipped) == shown(evaluated) and skipped.message == evaluated.message
    return skipped


def test_a_program_refused_beside_every_case_skips_its_hidden_cases(halving, tmp_path, runs,
                                                                   monkeypatch):
    path = tmp_path / "unrolled.py"
    path.write_text(UNROLLED)
    result = _graded_both_ways(halving, path, runs, monkeypatch)
    assert {(c.verdict, c.reason) for c in result.cases} == {(Verdict.RJ, "unrolled_loop")}
    run = runs[0][1]
    assert set(run.asked.values()) == {True}  # each key refused before it ran
    assert [run.cases[i].skipped for i in range(5)] == [False, True, True, True, True]


@pytest.mark.parametrize("text, asked", [(SEVEN, [False, True]), (FIXED, [False, False])])
def test_only_the_keys_refused_beside_their_cases_are_skipped(halving, tmp_path, runs, monkeypatch,
                                                              text, asked):
    """Written out at K = 7 only: the cases of K = 2 run. A fixed loop whose last trips are
    masked fits the forms the rule reads beside each case: refused on the values, every case
    evaluated."""
    path = tmp_path / "solution.py"
    path.write_text(text)
    result = _graded_both_ways(halving, path, runs, monkeypatch)
    assert result.verdict is Verdict.RJ
    run = runs[0][1]
    assert sorted(run.asked.values()) == asked
    assert [run.cases[i].skipped for i in range(5)] == [False, False, False] + asked[-1:] * 2


@pytest.mark.parametrize("text", [HONEST, UNROLLED, FIXED, SEVEN])
def test_cases_with_the_same_traces_beside_are_decided_once(halving, tmp_path, runs, monkeypatch,
                                                            text):
    """The rules decide once on a program with the traces beside its cases where several of
    its cases have the same traces beside them (``traces.with_beside``): one worker run judged
    both ways gets the verdicts, reasons and messages of deciding on each case alone."""
    path = tmp_path / "solution.py"
    path.write_text(text)
    real_runs, kept = grading._runs, []

    def once(*args, **kwargs):  # the first grade's worker run, judged again by the others
        if not kept:
            kept.append(real_runs(*args, **kwargs))
        return kept[0]

    monkeypatch.setattr(grading, "_runs", once)
    grading.grade(halving, path, source_gate=False, hints=False)  # the run, and its questions
    calls = []
    check_case = rules.check_case
    monkeypatch.setattr(rules, "check_case", lambda problem, trace: calls.append(
        bool(trace.related_by_rule)) or check_case(problem, trace))  # with traces beside it?
    shared = grading.grade(halving, path, source_gate=False, hints=False)
    decided = sum(calls)
    with_beside, related = traces.with_beside, traces.related
    monkeypatch.setattr(traces, "with_beside", lambda problem, symbolic, beside, decided=None:
                        with_beside(problem, symbolic, beside))
    monkeypatch.setattr(traces, "related", lambda planned, case, run, describe, made=None:
                        related(planned, case, run, describe))
    alone = grading.grade(halving, path, source_gate=False, hints=False)
    assert shown(shared) == shown(alone) and shared.message == alone.message
    assert (shared.verdict, shared.reason) == (alone.verdict, alone.reason)
    if text is HONEST:  # three programs (K = 3, 2, 7) for five cases, each case with traces beside
        assert shared.verdict is Verdict.AC, shared.message
        assert (decided, sum(calls) - decided) == (3, len(halving.cases))


def test_an_honest_loop_runs_every_case(halving, tmp_path, runs):
    path = tmp_path / "honest.py"
    path.write_text(HONEST)
    result = grading.grade(halving, path, source_gate=False, hints=False)
    assert result.verdict is Verdict.AC, result.message
    run = runs[0][1]
    assert set(run.asked.values()) == {False} and not any(r.skipped for r in run.cases.values())


def test_without_the_runs_reports_only_the_program_alone_decides(halving):
    planned = grading.plan.resolve(halving, halving.cases)
    decide = skips.decider(halving, planned)
    assert decide(1, None, None) is False  # no program: evaluated
    assert skips.refused_beside(halving, planned, planned.cases[1].key, None, {}) is False


def test_skipped_cases_count_as_unmoved_where_no_case_was_measured():
    """A program refused on some keys cannot escape the last-trip rule on the others by having
    only its refused cases measured: where no case was, the skipped ones count, unmoved."""
    problem = SimpleNamespace(rules=[{"id": "no_unrolling", "parameter": "K"}])
    cases = [SimpleNamespace(index=i) for i in range(3)]
    request = {"cases": [{"index": i, "shorten": True} for i in range(3)]}
    unmeasured = SimpleNamespace(error=None, skipped=False, output=None, program=None)
    skipped = SimpleNamespace(error=None, skipped=True, output=None, program=None)
    planned = SimpleNamespace(of=lambda case: None)
    run = SimpleNamespace(cases={0: unmeasured, 1: skipped, 2: skipped})
    found = trips.breach(problem, cases, run, planned, request)
    assert found.reason == "unrolled_loop" and "measured on 2 cases" in found.message
    run.cases = {0: unmeasured, 1: unmeasured, 2: unmeasured}
    assert trips.breach(problem, cases, run, planned, request) is None


def test_a_stored_run_is_replayed_with_the_values_drawn_when_it_ran(halving, tmp_path, runs,
                                                                    monkeypatch):
    """The judge's answers are asked again of a replayed run with the traces planned when it was
    stored, not with what this grade drew: the run is replayed, with the same verdicts."""
    from judge.grade import result_cache

    draws = iter([(3, 4), (2, 5, 6)])  # one trace more beside each case the second time

    def others(rule, problem, drawn=None):  # drawn afresh for each grade, as the rule does
        if drawn is None:
            return (3, 4)
        if "others" not in drawn:
            drawn["others"] = next(draws)
        return drawn["others"]

    monkeypatch.setattr(no_unrolling, "others", others)
    path = tmp_path / "seven.py"
    path.write_text(SEVEN)
    cache = result_cache.ResultCache(tmp_path / "results", secret=b"k" * 32)
    first = grading.grade(halving, path, source_gate=False, hints=False, result_cache=cache)
    again = grading.grade(halving, path, source_gate=False, hints=False, result_cache=cache)
    assert (cache.stored, cache.hits, len(runs)) == (1, 1, 1)
    assert sorted(runs[0][1].asked.values()) == [False, True]
    assert shown(again) == shown(first) and again.message == first.message
