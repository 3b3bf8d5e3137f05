"""Hostile submissions against the result channel and the reports (tests/adversarial/channel/):
forged fields, leaks through the judge's own messages, keepalive and floods, malformed outputs,
control characters, a thread bomb, and a whole class of them through ``judge batch``.

They run on a small problem, ``twice`` (one example, three hidden cases whose non-traced input
``k`` is the "hidden data" a submission tries to carry out). The source gate is turned off
(``JUDGE_SOURCE_GATE=off``): it would refuse most of these files before they run, and what is
tested here is the layer behind it, the judge's boundary.
"""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.helpers import ROOT, pythonpath, sampled
from tests.hostile import ADVERSARIAL

from judge.grade import grading
from judge.run import sandbox, tasks
from judge.problem import spec
from judge.reports import FORMATS
from judge.reports import batch_report
from judge.grade.verdicts import HIDDEN_MESSAGES, Verdict

CHANNEL = ADVERSARIAL / "channel"

SPEC = """\
id: twice
title: Twice
statement: "Return values = 2 x and grads = 2 cotangent, the gradient from a jax.custom_vjp rule."
entry_point: twice
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], min_size: 1, max_size: 8, finite: true}
  - {name: k, kind: int, traced: false}
  - {name: cotangent, kind: array, dtype: float32, shape_like: x, finite: true}
output:
  kind: dict
  fields:
    values: {shape_like: x, dtype: float32}
    grads: {shape_like: x, dtype: float32}
tolerance: {rtol: 0.0, atol: 0.0}
rules:
  - {id: custom_vjp_grads, field: grads}
limits: {time_per_case_s: 3, startup_s: 60}
examples:
  - name: small
    input: {x: [1.0, 2.0], k: 0, cotangent: [1.0, 1.0]}
    expected: {values: [2.0, 4.0], grads: [2.0, 2.0]}
hidden:
  - {input: {x: [3.0], k: 37, cotangent: [1.0]}, expected: {values: [6.0], grads: [2.0]}}
  - {input: {x: [5.0], k: 41, cotangent: [2.0]}, expected: {values: [10.0], grads: [4.0]}}
  - {input: {x: [7.0], k: 43, cotangent: [3.0]}, expected: {values: [14.0], grads: [6.0]}}
"""
HIDDEN_K = (37, 41, 43)
REFERENCE = (CHANNEL / "honest.py").read_text()


@pytest.fixture(scope="module")
def twice(tmp_path_factory):
    root = tmp_path_factory.mktemp("twice")
    (root / "problems").mkdir()
    (root / "problems" / "twice.yaml").write_text(SPEC)
    (root / "reference").mkdir()
    (root / "reference" / "twice.py").write_text(REFERENCE)
    return spec.load("twice", root=root)


@pytest.fixture(autouse=True)
def gate_off(monkeypatch):
    monkeypatch.setenv("JUDGE_SOURCE_GATE", "off")


def submission(tmp_path: Path, name: str, **tokens) -> Path:
    text = (CHANNEL / name).read_text()
    for token, value in tokens.items():
        text = text.replace(f"__{token}__", str(value))
    path = tmp_path / name
    path.write_text(text)
    return path


def grade(problem, path, **kwargs):
    started = time.monotonic()
    result = grading.grade(problem, path, **kwargs)
    return result, time.monotonic() - started


def verdict_of(result) -> str:
    return f"{result.verdict.value} [{result.reason}] {result.message}"


def assert_reports_clean(result):
    """Every report format renders, encodes as UTF-8 and holds no control character but
    newlines (the JUnit XML and the JSON escape what they must themselves)."""
    for name, render in FORMATS.items():
        text = render(result)
        text.encode("utf-8")  # no lone surrogate
        bad = [c for c in text if (ord(c) < 32 and c not in "\n") or 0x7f <= ord(c) < 0xa0
               or c in "\u2028\u2029\u202e"]
        assert not bad, (name, bad[:5])


def hidden_messages(result) -> list[str]:
    return [c.message for c in result.cases if c.visibility == "hidden"]


# --- forged fields: RJ channel_tampered, never a crash --------------------------------------

FORGED = {
    "bad_base64": {"output": {"kind": "dict", "items": {
        "values": {"kind": "array", "dtype": "float32", "shape": [2], "data": "!!!!!!!!!!!!"},
        "grads": {"kind": "array", "dtype": "float32", "shape": [2], "data": "AAAAQAAAgEA="}}}},
    "wrapping_shape": {"output": {"kind": "dict", "items": {
        "values": {"kind": "array", "dtype": "float32", "shape": [2 ** 32, 2 ** 32], "data": ""},
        "grads": {"kind": "array", "dtype": "float32", "shape": [2], "data": "AAAAQAAAgEA="}}}},
    "evidence_type": {"evidence": "all fine"},
    "error_source_type": {"error": {"kind": "exception", "type": "E", "message": "m", "line": 1,
                                    "source": 5}},
    "time_bigint": {"time_s": 10 ** 400},  # before: OverflowError in the judge, IE
}


@pytest.mark.parametrize("variant", sorted(FORGED))
def test_forged_fields_are_channel_tampered(twice, tmp_path, variant):
    path = submission(tmp_path, "forge_field.py", VARIANT=variant,
                      FORGE=repr(json.dumps(FORGED[variant])))
    result, _ = grade(twice, path, examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "channel_tampered"), verdict_of(result)
    assert_reports_clean(result)


# --- malformed outputs the submission returned: WA ------------------------------------------

@pytest.mark.parametrize("name, verdict, reason", [
    ("empty_output_of_huge_extent.py", Verdict.WA, "wrong_type"),
    ("output_of_33_dimensions.py", Verdict.WA, "wrong_type"),
    ("prng_key_output.py", Verdict.WA, "wrong_type"),
    ("exception_text_lies_about_its_length.py", Verdict.RTE, "exception"),
    ("nan_values.py", Verdict.WA, "wrong_value"),
    ("xml_forbidden_characters.py", Verdict.RTE, "exception"),
])
def test_odd_outputs_get_the_submissions_verdict_and_every_report_parses(twice, tmp_path, name,
                                                                           verdict, reason):
    import xml.etree.ElementTree as ET

    result, seconds = grade(twice, submission(tmp_path, name))
    assert (result.verdict, result.reason) == (verdict, reason), verdict_of(result)
    # A walk over 2**58 rows never ends; a grade on a crowded machine may take minutes (170 s
    # with thirteen test processes under gVisor), so the bound is far above any honest time.
    assert seconds < 900
    assert_reports_clean(result)
    json.loads(FORMATS["json"](result), parse_constant=lambda c: pytest.fail(f"bare {c} in JSON"))
    json.loads(FORMATS["gradescope"](result), parse_constant=lambda c: pytest.fail(f"bare {c}"))
    ET.fromstring(FORMATS["junit"](result).encode("utf-8"))
    if name.startswith("exception_text"):
        assert len(result.cases[0].message) < 2300


@pytest.mark.parametrize("name", ["deep_output.py", "cyclic_output.py"])
def test_malformed_output_is_a_wrong_answer(twice, tmp_path, name):
    result, _ = grade(twice, submission(tmp_path, name), examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.WA, "wrong_type"), verdict_of(result)


# --- text from the submission: escaped once, every report written ---------------------------

def test_lone_surrogate_and_escapes_in_an_exception(twice, tmp_path):
    result, _ = grade(twice, submission(tmp_path, "raise_surrogate.py"), examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RTE, "exception"), verdict_of(result)
    assert "\\ud800" in result.cases[0].message and "\\x1b" in result.cases[0].message
    assert_reports_clean(result)


def test_printed_escape_sequences_reach_no_report_raw(twice, tmp_path):
    result, _ = grade(twice, submission(tmp_path, "print_escapes.py"), examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.WA, "wrong_value"), verdict_of(result)
    assert "\\x1b[2J" in result.cases[0].details["stdout"]
    assert_reports_clean(result)


def test_a_huge_wrong_output_gives_a_small_report(twice, tmp_path):
    """600,000 entries where the problem's output has a handful: far past what the problem's
    outputs need (request.message_budget), so OLE without the judge parsing it."""
    result, _ = grade(twice, submission(tmp_path, "big_wrong_output.py"), examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.OLE, "output_limit"), verdict_of(result)
    text = FORMATS["text"](result)
    assert len(text) < 64 * 1024, len(text)


# --- hidden data through the judge's own messages -------------------------------------------

@pytest.mark.parametrize("name, verdict, reason", [
    ("hidden_line.py", Verdict.RTE, "exception"),
    ("forged_type_leak.py", Verdict.RJ, "channel_tampered"),
    ("parse_column_leak.py", Verdict.RJ, "channel_tampered"),
])
def test_hidden_messages_carry_nothing_from_the_worker(twice, tmp_path, name, verdict, reason):
    result, _ = grade(twice, submission(tmp_path, name))
    assert result.cases[0].verdict is Verdict.AC, verdict_of(result)
    assert (result.verdict, result.reason) == (verdict, reason), verdict_of(result)
    for message in hidden_messages(result) + [result.message]:
        fixed = set(HIDDEN_MESSAGES.values())  # the summary: "hidden N: <fixed text>"
        assert message in fixed or (re.fullmatch(r"hidden \d+: (.*)", message)
                                    and message.split(": ", 1)[1] in fixed), message
        assert not re.search(r"\d{2,}", message.split(":", 1)[-1]), message
    assert_reports_clean(result)


# --- runs that never end, and the judge's memory --------------------------------------------

def test_keepalive_with_unsent_indices_ends_the_run(twice, tmp_path):
    result, elapsed = grade(twice, submission(tmp_path, "keepalive.py", SLEEP=15))
    assert (result.verdict, result.reason) == (Verdict.RJ, "channel_tampered"), verdict_of(result)
    assert elapsed < 15, elapsed


def test_flood_of_forged_reports_is_refused_at_the_first(twice, tmp_path):
    import tracemalloc

    tracemalloc.start()
    try:
        result, elapsed = grade(twice, submission(tmp_path, "flood_channel.py"), examples_only=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # each forged report is past the problem's result budget: refused unread, as OLE
    assert (result.verdict, result.reason) == (Verdict.OLE, "output_limit"), verdict_of(result)
    assert peak < 64 * 1024 * 1024, f"the judge held {peak / 2 ** 20:.0f} MiB"


def test_run_wall_clock_cap(twice, tmp_path, caplog):
    """limits.wall_s ends the run even when every case stays within its own limit."""
    import dataclasses

    slow = dataclasses.replace(twice, limits={**twice.limits, "wall_s": 4.0, "time_per_case_s": 3})
    path = tmp_path / "slow.py"
    path.write_text(REFERENCE.replace("def twice(x, k, cotangent):\n",
                                      "def twice(x, k, cotangent):\n    import time\n"
                                      "    time.sleep(1.5)\n"))
    with caplog.at_level("INFO", logger="judge.grade.grading"):
        result, elapsed = grade(slow, path)
    assert (result.verdict, result.reason) == (Verdict.TLE, "time_limit"), verdict_of(result)
    assert all(c.time_s is None or c.time_s < 3 for c in result.cases)
    assert "the whole run took longer than 4.0 s" in caplog.text  # the judge-side log
    assert elapsed < 4.0 + 30


# --- threads --------------------------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_thread_bomb_meets_the_task_bound(twice, tmp_path):
    why = tasks.unbounded(sandbox.resolve(None, quiet=True))
    if why is not None:
        pytest.skip(f"nothing bounds a worker's tasks here ({why}): SECURITY.md")
    result, _ = grade(twice, submission(tmp_path, "thread_bomb_small_stacks.py"), examples_only=True)
    assert (result.verdict, result.reason) == (Verdict.RTE, "task_limit"), verdict_of(result)


# --- a whole class: every format, every submission a verdict, honest ones AC ------------------

def corpus(folder: Path) -> list[str]:
    """Every file of tests/adversarial/channel/ in ``folder``, tokens filled in."""
    folder.mkdir(exist_ok=True)
    names = sorted(p.name for p in CHANNEL.glob("*.py"))
    for name in names:
        text = (CHANNEL / name).read_text()
        text = text.replace("__VARIANT__", "bad_base64").replace(
            "__FORGE__", repr(json.dumps(FORGED["bad_base64"]))).replace("__SLEEP__", "8")
        (folder / name).write_text(text)
    return names


def test_every_hostile_submission_gets_a_verdict_and_every_report(twice, tmp_path):
    # where nothing bounds a worker's tasks, the thread bomb is AC when its threads start within
    # the limits (test_thread_bomb_meets_the_task_bound is skipped there; SECURITY.md)
    unbounded = tasks.unbounded(sandbox.resolve(None, quiet=True)) is not None
    for name in corpus(tmp_path / "class"):
        result, _ = grade(twice, tmp_path / "class" / name)
        assert result.verdict is not Verdict.IE, (name, verdict_of(result))
        if not (unbounded and name == "thread_bomb_small_stacks.py"):
            assert (result.verdict is Verdict.AC) == (name == "honest.py"), (name, verdict_of(result))
        assert_reports_clean(result)


# One format in the default run (every renderer is also checked in this process above); the
# others, each a whole `judge grade` process, in the slow group.
@pytest.mark.parametrize("fmt", sampled(sorted(FORMATS), key=lambda fmt: "one", ids=str))
def test_cli_grade_writes_every_format(twice, tmp_path, fmt):
    env = {**os.environ, "JUDGE_SOURCE_GATE": "off", "PYTHONPATH": pythonpath()}
    r = subprocess.run([sys.executable, "-m", "judge", "grade", str(CHANNEL / "raise_surrogate.py"),
                        "--problem", str(twice.path), "--format", fmt],
                       capture_output=True, timeout=600, env=env, cwd=tmp_path)
    assert r.returncode == 1, r.stderr.decode(errors="replace")[-2000:]
    text = r.stdout.decode("utf-8")  # strict: no lone surrogate got through
    assert "RTE" in text and "\x1b" not in text and "\\x1b" in text

def test_batch_of_hostile_submissions_in_every_format(twice, tmp_path):
    folder = tmp_path / "class"
    names = corpus(folder)
    (folder / "honest_too.py").write_text(REFERENCE)
    env = {**os.environ, "JUDGE_SOURCE_GATE": "off", "PYTHONPATH": pythonpath()}
    out = tmp_path / "report.csv"

    def batch(fmt, *more):
        journal = out.with_suffix("." + fmt).with_name(f"report.{fmt}.journal.jsonl")
        return subprocess.run([sys.executable, "-m", "judge", "batch", str(folder), "--problem",
                               str(twice.path), "-j", "2", "--format", fmt, "--out",
                               str(out.with_suffix("." + fmt)), "--journal", str(journal), *more],
                              capture_output=True, text=True, timeout=900, env=env, cwd=tmp_path)

    first = batch("csv")
    assert first.returncode == 0, first.stderr[-3000:]
    journal = out.with_suffix(".csv").with_name("report.csv.journal.jsonl")
    records = {r["key"]: r for r in map(json.loads, journal.read_text().splitlines())
               if "submission" in r}
    assert set(records) == set(names) | {"honest_too.py"}
    assert records["honest.py"]["verdict"] == records["honest_too.py"]["verdict"] == "AC"
    assert not [n for n, r in records.items() if r["verdict"] == "IE"], records
    (out.with_suffix(".csv")).read_text(encoding="utf-8")
    for fmt in ("json", "text"):
        # a fresh journal per format: the same grades through the other reporters
        journal.rename(out.with_suffix("." + fmt).with_name(f"report.{fmt}.journal.jsonl"))
        again = batch(fmt, "--resume")
        assert again.returncode == 0, again.stderr[-3000:]
        journal = out.with_suffix("." + fmt).with_name(f"report.{fmt}.journal.jsonl")
        report = out.with_suffix("." + fmt).read_text(encoding="utf-8")
        assert "honest_too" in report  # the row of honest_too.py
    records = list(records.values())
    for render in batch_report.FORMATS.values():
        render("twice", records).encode("utf-8")
