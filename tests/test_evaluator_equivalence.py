"""The worker's evaluator (``judge.worker.evaluate``: exact operations in NumPy, the rest bound by
JAX) changes no value and no verdict: every reference and every bundled submission, graded once
with ``JUDGE_EVALUATOR=numpy`` and once with ``JUDGE_EVALUATOR=jax`` (every operation bound by
JAX, as ``jax.core.eval_jaxpr`` does), gets the same worker results and the same report.

The worker results are compared as the worker sent them: every line of the result channel
(outputs, scaled outputs, probes, evidence, traces, program summaries, errors, captured text),
arrays as their encoded bytes, so values agree bit for bit; only the run's nonce and the
``time_s`` the worker measured are left out. Then what the judge observed of each run (exit,
halts, time-outs, captured stdout and stderr) and the JSON report, without its times.

What would differ between two grades of one file anyway is fixed for both: the factor each case's
backward rules are scaled by (``custom_vjp_grads.draw_factor``) and the extent ``no_unrolling``
traces a case at again (``no_unrolling.other_size``). Submissions are graded with the source gate
off, so each one runs (the worker does not run the gate).

The default run grades a sample of ``fake_quant_ste`` (its reference divides an array by a scalar
inside a ``custom_vjp``, which the NumPy evaluator rewrites as XLA does); ``-m slow`` the rest,
of which the files after the first of each problem and folder are also marked ``sweep``: CI
runs ``-m "slow and not sweep"``, and ``-m sweep`` grades the rest (``-n 2``: about 7 minutes on 2 cores).
Each test records the CPU time of the grading worker under each evaluator as the properties
``cpu_s_numpy`` and ``cpu_s_jax`` (``--junit-xml`` writes them).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import random
import types
from pathlib import Path

import numpy as np
import pytest

from judge.grade import grading
from judge.grade.request import EVALUATORS
from judge.problem import spec
from judge.reports import json_report
from judge.rules import no_unrolling
from judge.run import boundary, supervisor
from tests.helpers import ROOT

#: Submissions stopped by a limit before they trace anything: their verdicts are compared, but
#: what they reported depends on when the judge stopped them (how much was printed, which
#: allocation failed), not on an evaluator.
LIMITED = {"time_limit_exceeded", "memory_limit_exceeded", "output_limit_exceeded"}
#: Seconds per case for the submissions that never return (their grade is TLE either way).
SHORT_CASE_S = 3.0

#: The default run: the reference of fake_quant_ste and one submission of three kinds.
DEFAULT = {"reference/fake_quant_ste.py", "submissions/fake_quant_ste/accepted/closure_vjp.py",
           "submissions/fake_quant_ste/wrong_answer/floor_half_up.py",
           "submissions/fake_quant_ste/rejected/stop_gradient_ste.py"}


#: Submissions whose programs divide by a broadcast divisor (``x / scale[:, None]``), which XLA
#: computes as a product with the divisor's reciprocal and the evaluator now does too
#: (``test_division_by_a_broadcast_divisor``). Empty: a submission named here is expected to differ.
DIFFERENT: set = set()
BROADCAST_DIVISOR = pytest.mark.xfail(strict=True, reason="the evaluators differ on this division")


def _programs() -> list:
    params = []
    for spec_path in sorted(ROOT.glob("problems/*.yaml")):
        problem = spec_path.stem
        files = [ROOT / "reference" / f"{problem}.py",
                 *sorted((ROOT / "submissions" / problem).rglob("*.py"))]
        seen = set()
        for path in files:
            name = str(path.relative_to(ROOT))
            kind = (problem, path.parent.name)  # the slow group keeps one per problem and folder
            marks = ([] if name in DEFAULT else [pytest.mark.slow]) + \
                ([pytest.mark.sweep] if name not in DEFAULT and kind in seen else []) + \
                ([BROADCAST_DIVISOR] if name in DIFFERENT else [])
            seen.add(kind)
            params.append(pytest.param(problem, path, id=name, marks=marks))
    return params


def _factor(index: int) -> float:
    return float(2 ** (1 + index % 4))  # a power of two, as custom_vjp_grads.draw_factor draws


def _record(monkeypatch, evaluator: str) -> list:
    """Grade with ``evaluator``, drawing nothing at random, and keep every run of the submission's
    workers: (request, WorkerRun, the raw lines of its result channel)."""
    monkeypatch.setenv("JUDGE_EVALUATOR", evaluator)
    runs, lines = [], {}
    build, run_worker, decode = grading.build_request, supervisor.run_worker, boundary.decode

    def fixed_request(problem, submission, cases, *rest, **named):
        request = build(problem, submission, cases, *rest, **named)
        assert request["evaluator"] == evaluator
        for case in request["cases"]:
            case["factor"] = _factor(case["index"])
        return request

    def recording_decode(line, nonce, expected):
        lines.setdefault(nonce, []).append(bytes(line))
        return decode(line, nonce, expected)

    def recording_worker(request, **kwargs):
        run = run_worker(request, **kwargs)
        if not kwargs.get("cache_writable"):  # not the reference filling the compilation cache
            runs.append((request, run, lines.get(run.nonce, [])))
        return run

    monkeypatch.setattr(grading, "build_request", fixed_request)
    monkeypatch.setattr(grading, "run_worker", recording_worker)
    monkeypatch.setattr(boundary, "decode", recording_decode)
    monkeypatch.setattr(no_unrolling, "other_size", lambda extent: 2 * extent + 3)
    # the other values of a parameter are drawn once per grade: the same draws for each evaluator
    draws = types.SimpleNamespace(randbelow=random.Random(0).randrange)
    monkeypatch.setattr(no_unrolling, "secrets", draws)
    return runs


def _messages(lines: list[bytes]) -> list[dict]:
    """The channel's messages without the nonce, the worker's own timings and the runtime's
    address space (which varies from one worker to the next)."""
    out = []
    for line in lines:
        msg = json.loads(line)
        msg.pop("nonce", None)
        msg.pop("time_s", None)
        msg.pop("runtime_mb", None)
        out.append(msg)
    return out


#: What the judge observed of a run, apart from its times and the channel's byte count (which
#: holds the times the worker printed).
OBSERVED = ("ready", "loaded", "done", "channel_closed", "lingered", "timed_out", "timeout_phase",
            "protocol_error", "returncode", "halt", "tampered", "output_exceeded", "signal",
            "tasks_exceeded_at", "sent", "total", "stdout", "stderr", "sandbox")


def _observed(run) -> dict:
    seen = {name: getattr(run, name) for name in OBSERVED}
    if seen["ready"] is not None:  # its runtime_mb varies from one worker to the next
        seen["ready"] = dataclasses.replace(seen["ready"], runtime_mb=None)
    if seen["loaded"] is not None:  # its time_s is the worker's own timing
        seen["loaded"] = (seen["loaded"].ok, seen["loaded"].stdout, seen["loaded"].stderr,
                          seen["loaded"].error)
    return seen


def _without_times(value):
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if k != "time_s"}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


def _array(raw: dict) -> np.ndarray:
    data = np.frombuffer(base64.b64decode(raw["data"]), dtype=np.dtype(raw["dtype"]).newbyteorder("<"))
    return data.reshape(raw["shape"])


def _show_arrays(a: dict, b: dict) -> str:
    """Where two encoded arrays differ, with each value exactly (its hex form for floats)."""
    if (a.get("dtype"), a.get("shape")) != (b.get("dtype"), b.get("shape")):
        return f"{a.get('dtype')}{a.get('shape')} != {b.get('dtype')}{b.get('shape')}"
    x, y = _array(a).ravel(), _array(b).ravel()
    if x.size == 0:
        return "the same empty array, encoded differently"
    bytes_x, bytes_y = x.view(np.uint8).reshape(x.size, -1), y.view(np.uint8).reshape(y.size, -1)
    differ = np.flatnonzero(np.any(bytes_x != bytes_y, axis=1))
    exact = (lambda v: float(v).hex()) if x.dtype.kind == "f" else repr
    shown = ", ".join(f"[{i}] {exact(x[i])} ({x[i]!r}) != {exact(y[i])} ({y[i]!r})" for i in differ[:8])
    return f"{len(differ)} of {x.size} entries differ: {shown}"


def _differences(a, b, where: str = "") -> list[str]:
    """Each path where ``a`` and ``b`` differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.get("kind") == "array" and b.get("kind") == "array" and "data" in a and "data" in b:
            return [] if a == b else [f"{where}: {_show_arrays(a, b)}"]
        found = []
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                found.append(f"{where}.{key}: only under {'numpy' if key in a else 'jax'}")
            else:
                found += _differences(a[key], b[key], f"{where}.{key}")
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{where}[{i}]")]
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return []  # a report's NaN (a float): equal to no other, the same value all the same
    return [] if a == b else [f"{where}: {a!r:.300} (numpy) != {b!r:.300} (jax)"]


def _case_name(problem, index) -> str:
    for case in problem.cases:
        if case.index == index:
            return f"{case.label} ({case.name})"
    return f"trace {index}"


@pytest.mark.parametrize("problem_id,path", _programs())
def test_both_evaluators_give_the_same_results_and_verdicts(problem_id, path, monkeypatch,
                                                           record_property):
    problem = spec.load(ROOT / "problems" / f"{problem_id}.yaml")
    grading.warm_cache(problem)  # before recording: the cache is filled once, not per evaluator
    limited = path.parent.name in LIMITED
    short = SHORT_CASE_S if path.parent.name == "time_limit_exceeded" else None
    graded = {}
    for evaluator in EVALUATORS:
        with monkeypatch.context() as patch:
            runs = _record(patch, evaluator)
            result = grading.grade(problem, path, source_gate=False, hints=False,
                                   time_per_case_s=short)
        graded[evaluator] = (result, runs)
        main = [run for request, run, _ in runs if any("abstract" not in c for c in request["cases"])]
        record_property(f"cpu_s_{evaluator}", sum(run.cpu_s or 0.0 for run in main))

    (numpy_result, numpy_runs), (jax_result, jax_runs) = graded["numpy"], graded["jax"]
    # verdicts first: a value may differ within a tolerance, a verdict never
    found = [f"report{d}" for d in _differences(_without_times(json_report.to_dict(numpy_result)),
                                                _without_times(json_report.to_dict(jax_result)))]
    if not limited:
        assert len(numpy_runs) == len(jax_runs), "a different number of worker runs"
        assert all(lines for _, _, lines in numpy_runs + jax_runs), "a run's channel was not recorded"
        order = lambda runs: sorted(runs, key=lambda r: [c["index"] for c in r[0]["cases"]])  # noqa: E731
        for (_, a, a_lines), (_, b, b_lines) in zip(order(numpy_runs), order(jax_runs)):
            a_msgs, b_msgs = _messages(a_lines), _messages(b_lines)
            for k, (x, y) in enumerate(zip(a_msgs, b_msgs)):
                label = (_case_name(problem, x["index"]) if x.get("type") == "case"
                         else x.get("type", f"message {k}"))
                found += [f"{label}{d}" for d in _differences(x, y)]
            if len(a_msgs) != len(b_msgs):
                found.append(f"{len(a_msgs)} result messages (numpy) != {len(b_msgs)} (jax)")
            found += [f"worker {d}" for d in _differences(_observed(a), _observed(b))]
    assert not found, f"{path.relative_to(ROOT)}: the evaluators differ:\n" + "\n".join(found[:40])


#: Divisions of the bundled submissions' programs, by the shapes of dividend and divisor
#: (``lax.div`` broadcasts an operand's axes of extent 1): ``x / scale[:, None]`` in
#: per_example_clip and ``x / safe`` in ema_scan divide (n, d) by (n, 1); a (1, d) divisor, a
#: rank-0 one and a broadcast dividend are the neighbouring cases.
DIVISIONS = [pytest.param((4000, 3), (4000, 1), id="rows_by_column"),
             pytest.param((3, 4000), (1, 4000), id="columns_by_row"),
             pytest.param((1, 4000), (1, 1), id="row_by_1x1"),
             pytest.param((4000, 1), (1, 3), id="both_broadcast"),
             pytest.param((4000,), (), id="array_by_scalar"),
             pytest.param((4000, 1), (4000, 3), id="broadcast_dividend"),
             pytest.param((300, 30), (300, 30), id="same_shape")]


@pytest.mark.parametrize("dividend,divisor", DIVISIONS)
def test_division_by_a_broadcast_divisor(dividend, divisor):
    """The smallest program where the sweep above found the evaluators differing, evaluated in
    this process: the NumPy evaluator against ``jax.core.eval_jaxpr``, bit for bit."""
    import jax

    from judge.worker.evaluate import Evaluator

    rng = np.random.default_rng(7)
    a = rng.standard_normal(dividend).astype(np.float32)
    b = (rng.standard_normal(divisor) * 3 + 0.1).astype(np.float32)
    closed = jax.make_jaxpr(lambda x, y: x / y)(a, b)
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["div"]  # one division, broadcasting
    # the data tell exact division from a product with the reciprocal
    assert not np.array_equal(np.divide(a, b), a * np.divide(np.float32(1), b))
    bound = np.asarray(jax.core.eval_jaxpr(closed.jaxpr, closed.consts, a, b)[0])
    mine = np.asarray(Evaluator(jax).run(closed.jaxpr, closed.consts, a, b)[0])
    assert mine.dtype == bound.dtype and mine.shape == bound.shape
    differ = np.flatnonzero(mine.view(np.uint32).ravel() != bound.view(np.uint32).ravel())
    if differ.size:
        x, y = (np.broadcast_to(v, mine.shape).ravel()[differ[0]] for v in (a, b))
        pytest.fail(f"{differ.size} of {mine.size} quotients differ, e.g. {x!r} / {y!r}: NumPy "
                    f"evaluator {mine.ravel()[differ[0]]!r}, eval_jaxpr {bound.ravel()[differ[0]]!r}")
