"""The rules' traces sent first to the cases' own worker (``judge.grade.traces.fold``): what the
folded request holds back, when its run stands for both runs (``folded_whole``), and that the
verdicts are those of the two workers apart, whether one worker ran or the runs were made again
apart after it."""

from __future__ import annotations

import signal
import textwrap
from pathlib import Path

import pytest

from judge.grade import grading, plan, traces
from judge.grade.request import build_request
from judge.problem import spec
from judge.run import supervisor
from judge.run.boundary import Halt
from judge.run.supervisor import WorkerRun
from tests.helpers import ROOT

SUBS = ROOT / "submissions" / "spectral_norm"


@pytest.fixture(scope="module")
def spectral():
    return spec.load(ROOT / "problems" / "spectral_norm.yaml")


def _requests(problem, cases=None):
    cases = problem.cases if cases is None else cases
    planned = plan.resolve(problem, cases)
    base = build_request(problem, SUBS / "accepted" / "scan_over_steps.py", cases, planned)
    return base, traces.request(problem, base, planned.wanted)


def test_the_traces_come_first_and_no_hidden_case_is_sent_with_them(spectral):
    base, tracing = _requests(spectral)
    folded = traces.fold(base, tracing)
    entries = tracing["cases"]
    assert folded["cases"][:len(entries)] == entries and folded["cases"][len(entries):] == base["cases"]
    assert all("abstract" in c for c in entries) and not any("abstract" in c for c in base["cases"])
    first, rest = supervisor._split_request(folded)
    sent = {c["index"] for c in first["cases"]}
    examples = {c.index for c in spectral.examples}
    assert sent == {c["index"] for c in entries} | examples  # the hidden ones wait
    assert {c["index"] for c in rest["cases"]} == {c.index for c in spectral.cases} - examples
    # the cases' own settings are kept: the probes, each case's factor; the traces carry the
    # derivatives the case's worker traces into its own programs
    assert folded["probes"] == base["probes"] and folded["structure"] is True
    assert all("factor" in c for c in folded["cases"][len(entries):])


def test_nothing_is_folded_without_traces_or_with_the_custom_vjp_rule(spectral):
    base, tracing = _requests(spectral)
    assert traces.fold(base, None) is None
    assert traces.fold({**base, "grad_rule": {"field": "g", "cotangent": "c"}}, tracing) is None
    assert traces.fold({**base, "structure": False}, tracing) is None
    examples_only = _requests(spectral, spectral.examples)
    folded = traces.fold(*examples_only)
    assert supervisor._split_request(folded)[1] is None  # no hidden case to hold back


def _run(tracing, cases, **fields) -> WorkerRun:
    run = WorkerRun()
    run.ready, run.done, run.returncode = object(), True, 0
    run.cases = {i: object() for i in cases}
    for name, value in fields.items():
        setattr(run, name, value)
    return run


def test_a_folded_run_stands_for_both_only_where_it_ended_as_the_cases_worker_would(spectral):
    _, tracing = _requests(spectral)
    every = [c["index"] for c in tracing["cases"]] + [0, 1]
    assert traces.folded_whole(_run(tracing, every), tracing)
    # a case's own clock stopped it after every trace was reported: the case's TLE
    assert traces.folded_whole(_run(tracing, every[:-1], done=False, timed_out=True,
                                    timeout_phase="case"), tracing)
    # a trace never reported (stopped by a case's clock, which is not a trace's, or a crash)
    assert not traces.folded_whole(_run(tracing, every[:2], done=False, timed_out=True,
                                        timeout_phase="case"), tracing)
    assert not traces.folded_whole(_run(tracing, every[:2], done=False, signal=signal.SIGSEGV),
                                   tracing)
    # limits of the whole run, which the traces share
    for fields in ({"timed_out": True, "timeout_phase": "run", "done": False},
                   {"signal": signal.SIGKILL, "done": False}, {"output_exceeded": True},
                   {"tasks_exceeded_at": 3}, {"halt": Halt(cause="memory_limit", index=30, detail="")},
                   {"protocol_error": "a line too long"}, {"tampered": "a forged line"}):
        assert not traces.folded_whole(_run(tracing, every, **fields), tracing), fields


def _verdicts(problem, path, apart: bool, monkeypatch, started: list):
    # the compilation cache filled first: its fill is a run of the reference, not one of these
    grading.warm_cache(problem)
    real = grading.run_worker

    def counted(request, **kwargs):
        run = real(request, **kwargs)
        started.append((len(request["cases"]), run.timed_out))
        return run

    with monkeypatch.context() as m:
        m.setattr(grading, "run_worker", counted)
        if apart:
            m.setattr(traces, "fold", lambda base, tracing: None)
        result = grading.grade(problem, path, hints=False, source_gate=False)
    return result.verdict.value, result.reason, [(c.verdict.value, c.reason) for c in result.cases]


@pytest.mark.parametrize("rel", ["accepted/while_loop_counter.py", "rejected/python_loop_over_k.py",
                                 "rejected/fixed_64_trips_masked.py",
                                 "wrong_answer/through_the_steps.py"])
def test_one_worker_gives_the_verdicts_of_two(spectral, rel, monkeypatch):
    one, two = [], []
    folded = _verdicts(spectral, SUBS / rel, False, monkeypatch, one)
    apart = _verdicts(spectral, SUBS / rel, True, monkeypatch, two)
    assert folded == apart
    assert len(two) == 2
    # one worker run instead of two, unless a clock stopped it (a machine loaded enough to stop
    # a case stops it in the runs apart too; the verdicts are theirs, as above)
    assert len(one) == 1 or (len(one) == 2 and one[0][1]), one


def test_a_trace_that_crashes_its_worker_runs_the_cases_again_apart(spectral, tmp_path, monkeypatch):
    """Exits at the rule's own values of K (concrete shapes), loops honestly elsewhere: the
    folded worker ends before it reports a trace, so both runs are made again apart, and the
    verdicts are theirs (the cases pass; the traces that never came back refuse the program)."""
    path = tmp_path / "exits_when_traced_concrete.py"
    path.write_text(textwrap.dedent("""
        import os
        import jax
        import jax.numpy as jnp

        def spectral_norm(W, u0, K):
            if all(isinstance(d, int) for d in W.shape):
                os._exit(0)
            Wc = jax.lax.stop_gradient(W)

            def step(_, c):
                v = Wc.T @ c[0]
                v = v / jnp.linalg.norm(v)
                u = Wc @ v
                return u / jnp.linalg.norm(u), v

            u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
            return u @ W @ v
    """))
    one, two = [], []
    folded = _verdicts(spectral, Path(path), False, monkeypatch, one)
    apart = _verdicts(spectral, Path(path), True, monkeypatch, two)
    assert folded == apart and folded[0] != "AC"
    assert len(one) == 3 and len(two) == 2  # the folded run, then the two apart
