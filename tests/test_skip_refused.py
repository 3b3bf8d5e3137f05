"""Hidden cases whose program the rules refuse are not evaluated (``judge.grade.skips``,
``judge.run.asked``): the worker asks before the first hidden case of a key, the judge answers
from its own rules, and a case reported skipped counts only where the judge refused that very
program. Graded on a small problem, ``scaled`` (k x, ``sin`` forbidden, n symbolic), with the
source gate off where a submission forges messages (tests/adversarial/channel/forge_decision.py).
"""

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from tests.hostile import ADVERSARIAL

from judge.grade import grading, result_cache, skips
from judge.grade.verdicts import HIDDEN_MESSAGES, Verdict
from judge.problem import spec
from judge.run import boundary, collect
from judge.run.supervisor import WorkerRun
from judge.worker import protocol

SPEC = """\
id: scaled
title: Scaled
statement: "Return k x."
entry_point: scaled
parameters:
  - {name: x, kind: array, dtype: float32, traced: true, shape: [n], finite: true}
  - {name: k, kind: int, traced: false}
dims: {n: [1, 16]}
output: {kind: array, shape_like: x, dtype: float32}
tolerance: {rtol: 0.0, atol: 0.0}
symbolic_dims: [n]
rules:
  - {id: forbidden_primitives, primitives: [sin]}
  - {id: no_callbacks}
limits: {time_per_case_s: 3, startup_s: 60}
examples:
  - name: small
    input: {x: [1.0, 2.0], k: 0}
    expected: [0.0, 0.0]
hidden:
  - {input: {x: [3.0], k: 1}, expected: [3.0]}
  - {input: {x: [5.0, 1.0, 2.0], k: 2}, expected: [10.0, 2.0, 4.0]}
  - {input: {x: [7.0, 1.0], k: 2}, expected: [14.0, 2.0]}
"""
HONEST = "def scaled(x, k):\n    return k * x\n"
SINE = "import jax.numpy as jnp\n\ndef scaled(x, k):\n    return k * x + 0 * jnp.sin(x)\n"
LONGER = ("import jax.numpy as jnp\n\ndef scaled(x, k):\n"
          "    return jnp.concatenate([k * x, jnp.sin(x)])\n")


@pytest.fixture(scope="module")
def scaled(tmp_path_factory):
    root = tmp_path_factory.mktemp("scaled")
    (root / "problems").mkdir()
    (root / "problems" / "scaled.yaml").write_text(SPEC)
    (root / "reference").mkdir()
    (root / "reference" / "scaled.py").write_text(HONEST)
    return spec.load("scaled", root=root)


@pytest.fixture
def runs(monkeypatch):
    """The worker runs of each grade, as the judge collected them (not the reference's)."""
    seen = []
    real = grading.run_worker

    def recorded(request, **kwargs):
        run = real(request, **kwargs)
        if "reference" not in Path(request["submission"]).parts:
            seen.append((request, run))
        return run

    monkeypatch.setattr(grading, "run_worker", recorded)
    return seen


def write(tmp_path, text, name="solution.py"):
    path = tmp_path / name
    path.write_text(text)
    return path


def shown(result):
    return [(c.index, c.verdict, c.reason, c.message) for c in result.cases]


# --- a refused program's hidden cases are not evaluated --------------------------------------

@pytest.mark.parametrize("text, reason", [(SINE, "forbidden_primitive"), (LONGER, "wrong_shape")])
def test_a_refused_programs_hidden_cases_are_skipped_with_the_same_verdicts(scaled, tmp_path, runs,
                                                                            monkeypatch, text, reason):
    path = write(tmp_path, text)
    result = grading.grade(scaled, path)
    (request, run), = runs
    assert [c["index"] for c in request["cases"] if c.get("decide")] == [1, 2, 3]
    assert run.asked == {1: True, 2: True}  # once per key (k = 1; k = 2), before it runs
    assert [run.cases[i].skipped for i in range(4)] == [False, True, True, True]
    assert isinstance(run.cases[0].output, np.ndarray) and run.cases[0].output.any() == (text == LONGER)
    skipped = run.cases[2].output  # the output's form at the case's dims, no values
    assert skipped.dtype == np.float32 and skipped.shape == ((6,) if text == LONGER else (3,))
    assert not skipped.flags.writeable and run.cases[2].probes is None
    assert {(c.verdict, c.reason) for c in result.cases} == {(Verdict.WA if reason == "wrong_shape"
                                                              else Verdict.RJ, reason)}
    assert [c.message for c in result.cases[1:]] == [HIDDEN_MESSAGES[reason]] * 3
    # every case evaluated, as before: the same verdicts, reasons and messages
    monkeypatch.setattr(skips, "flag", lambda request, planned: request)
    evaluated = grading.grade(scaled, path)
    assert not any(r.skipped for r in runs[1][1].cases.values()) and runs[1][1].asked == {}
    assert shown(evaluated) == shown(result)
    assert result.message == evaluated.message


def test_an_honest_program_runs_every_case(scaled, tmp_path, runs):
    result = grading.grade(scaled, write(tmp_path, HONEST))
    assert result.verdict is Verdict.AC, result.message
    (_, run), = runs
    assert run.asked == {1: False, 2: False}
    assert not any(r.skipped for r in run.cases.values())
    assert all(isinstance(r.output, np.ndarray) for r in run.cases.values())


def test_examples_only_asks_nothing(scaled, tmp_path, runs):
    result = grading.grade(scaled, write(tmp_path, SINE), examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "forbidden_primitive")
    assert runs[0][1].asked == {} and not runs[0][1].cases[0].skipped


def test_a_skipped_run_is_not_replayed_where_the_rules_would_not_refuse(scaled, tmp_path, runs,
                                                                        monkeypatch):
    path = write(tmp_path, SINE)
    cache = result_cache.ResultCache(tmp_path / "results", secret=b"k" * 32)
    first = grading.grade(scaled, path, result_cache=cache)
    again = grading.grade(scaled, path, result_cache=cache)
    assert (cache.stored, cache.hits, len(runs)) == (1, 1, 1)
    assert shown(again) == shown(first)
    # the same stored run, asked again of rules that let the program run: not replayed
    monkeypatch.setattr(skips, "decider", lambda problem, planned: lambda *asked: False)
    fresh = grading.grade(scaled, path, result_cache=cache)
    assert (cache.hits, cache.misses, len(runs)) == (1, 2, 2)
    assert not any(r.skipped for r in runs[1][1].cases.values())
    assert shown(fresh) == shown(first)


# --- hostile workers -------------------------------------------------------------------------

def forged(tmp_path, variant, sleep=0):
    text = (ADVERSARIAL / "channel" / "forge_decision.py").read_text()
    return write(tmp_path, text.replace("__VARIANT__", variant).replace("__SLEEP__", str(sleep)),
                 "forge_decision.py")


NOT_REFUSED = "a case reported as skipped whose program the judge did not refuse"
NOT_ASKED = "a case that was not sent with 'decide'"
NOT_DUE = "a program for a case that was not due"


@pytest.mark.parametrize("variant, why", [
    ("skip_not_granted", NOT_REFUSED), ("skip_after_an_honest_program", NOT_REFUSED),
    ("skip_of_another_program", NOT_REFUSED), ("program_of_a_case_not_sent", NOT_ASKED),
    ("program_of_an_example", NOT_ASKED), ("program_of_a_case_not_due", NOT_DUE),
    ("program_twice", NOT_DUE)])
def test_forged_questions_and_skips_are_tampering(scaled, tmp_path, monkeypatch, runs, variant, why):
    monkeypatch.setenv("JUDGE_SOURCE_GATE", "off")
    result = grading.grade(scaled, forged(tmp_path, variant))
    assert [(c.verdict, c.reason) for c in result.cases] == [(Verdict.AC, "ok")] + [
        (Verdict.RJ, "channel_tampered")] * 3, shown(result)
    assert why in runs[0][1].tampered and 1 not in runs[0][1].cases


def test_a_skip_of_a_refused_program_is_never_better_than_its_refusal(scaled, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_SOURCE_GATE", "off")
    result = grading.grade(scaled, forged(tmp_path, "skip_of_a_refused_program"))
    assert [(c.verdict, c.reason) for c in result.cases] == [
        (Verdict.AC, "ok"), (Verdict.RJ, "forbidden_primitive")] + [
        (Verdict.RJ, "channel_tampered")] * 2, shown(result)


def test_a_worker_that_asks_and_never_reports_is_a_time_limit(scaled, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_SOURCE_GATE", "off")
    result = grading.grade(scaled, forged(tmp_path, "asks_and_never_reports", sleep=600))
    assert [(c.verdict, c.reason) for c in result.cases] == [(Verdict.AC, "ok")] + [
        (Verdict.TLE, "time_limit")] * 3, shown(result)


# --- the boundary, line by line --------------------------------------------------------------

NONCE = "0123456789abcdef" * 2
TRACE = {"primitives": ["mul"], "custom_vjp_calls": 0}
PROGRAM = {"equations": 1, "primitives": {"mul": 1}, "live": {"mul": 1}, "largest": []}
FORM = {"kind": "abstract", "dtype": "float32", "shape": [3]}
ARRAY = protocol.encode_array(np.zeros(3, np.float32))
REQUEST = {"structure": True, "cases": [
    {"index": 0}, *({"index": i, "decide": True, "symbolic": {"key": f"k{i // 2}"}} for i in (1, 2, 3))]}


def message(**fields):
    return (json.dumps({**fields, "nonce": NONCE})).encode()


def case(index, **fields):
    return message(**{"type": "case", "index": index, "time_s": 0.1, "stdout": "", "stderr": "",
                      "error": None, "output": ARRAY, "probes": None, "trace": TRACE,
                      "evidence": None, "program": PROGRAM, **fields})


def skip(index, **fields):
    return case(index, **{"skipped": True, "output": FORM, **fields})


def ask(index, program=PROGRAM):
    return message(type="program", index=index, program=program, trace=TRACE)


def accepted(*lines, refuse=lambda index, program, trace, reported=None: True):
    """A run that accepted ``lines`` after ready and loaded (ProtocolError where one breaks
    the protocol)."""
    expected = boundary.Expected.of(REQUEST)
    run = WorkerRun(nonce=NONCE, expected=expected, sent=[0, 1, 2, 3], total=4, decide=refuse)
    for raw in [message(type="ready", protocol=protocol.PROTOCOL, python="3", jax="0"),
                message(type="loaded", ok=True, stdout="", stderr=""), *lines]:
        collect.accept(run, boundary.decode(raw, NONCE, expected), 0.0)
    return run


def test_a_refused_key_is_skipped_and_an_allowed_one_runs():
    run = accepted(case(0), ask(1), case(1), ask(2), skip(2), skip(3),
                   refuse=lambda index, program, trace, reported=None: index == 2)
    assert run.asked == {1: False, 2: True}
    assert [run.cases[i].skipped for i in range(4)] == [False, False, True, True]
    assert run.cases[3].output.shape == (3,) and run.cases[3].output.dtype == np.float32


@pytest.mark.parametrize("lines", [
    [skip(1)],                                   # never asked
    [ask(1), skip(1), ask(2), skip(2)],          # ... the judge let it run
    [ask(1), skip(1, program={**PROGRAM, "equations": 2})],  # another program than the refused one
    [ask(1), skip(1, trace={**TRACE, "primitives": []})],     # ... or another trace
    [ask(1), case(1)],                           # evaluated after its refusal
    [ask(1), ask(1)],                            # asked twice
    [ask(2)],                                    # not the case that is due
    [ask(0)],                                    # an example: never asked about
    [ask(7)],                                    # a case that was not sent
    [skip(0)],                                   # an example skipped
    [ask(1), skip(1, output=ARRAY)],             # a skipped case with values
    [ask(1), skip(1, probes={"errors": {}})],
    [ask(1), skip(1, program=None)],
    [case(1, output=FORM)],                      # a form where values are due
])
def test_skips_and_questions_out_of_turn_break_the_protocol(lines):
    with pytest.raises(protocol.ProtocolError):
        accepted(case(0), *lines, refuse=lambda index, program, trace, reported=None: index == 1
                 and program.equations == 1)


def test_a_judge_whose_rules_fail_lets_the_case_run():
    def broken(index, program, trace):
        raise RuntimeError("a rule's bug")

    run = accepted(case(0), ask(1), case(1), refuse=broken)
    assert run.asked == {1: False}
    with pytest.raises(protocol.ProtocolError):
        accepted(case(0), ask(1), skip(1), refuse=broken)


def test_the_request_marks_only_hidden_cases_of_a_symbolic_program(scaled, tmp_path):
    from judge.grade import plan
    from judge.grade.request import build_request

    planned = plan.resolve(scaled, scaled.cases)
    request = skips.flag(build_request(scaled, tmp_path / "s.py", scaled.cases, planned), planned)
    assert [bool(c.get("decide")) for c in request["cases"]] == [False, True, True, True]
    flat = copy.deepcopy(request)
    flat["structure"] = False
    assert boundary.Expected.of(flat).decide == {}
