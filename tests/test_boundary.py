"""The judge's boundary, unit by unit: crafted result lines fed straight into the supervisor's
collection function (``judge.run.collect.collect``), typed reports (``judge.run.boundary``), verdicts decided
from them, hidden-case messages, the worker's side of malformed outputs, report caps, and the
catch-alls of ``judge batch`` and the CLI.

Every line here is one a submission can write once it has found the result pipe and the nonce
(tests/test_channel.py does that from inside a real worker).
"""

import base64
import copy
import json
import os
import threading
import time

import numpy as np
import pytest

from judge.grade import batch, example_diff, grading
from judge.run import boundary, values
from judge.run import collect as channel_reader
from judge import cli
from judge.run.boundary import Expected
from judge.reports import FORMATS
from judge.reports import batch_report
from judge.run.supervisor import WorkerRun
from judge.grade.verdicts import HIDDEN_MESSAGES, REASONS, GradeResult, Verdict
from judge.worker import protocol

NONCE = "0123456789abcdef" * 2
F32 = {"kind": "array", "dtype": "float32", "shape": [2],
       "data": base64.b64encode(np.array([2.0, 4.0], np.float32).tobytes()).decode()}
OUTPUT = {"kind": "dict", "items": {"values": F32, "grads": F32}}
READY = {"type": "ready", "protocol": protocol.PROTOCOL, "python": "3.11.7", "jax": "0.10.2"}
LOADED = {"type": "loaded", "ok": True, "time_s": 0.1, "stdout": "", "stderr": ""}
CASE = {"type": "case", "index": 0, "time_s": 0.1, "stdout": "", "stderr": "", "error": None,
        "output": OUTPUT, "probes": None, "trace": {"primitives": ["mul"], "custom_vjp_calls": 0},
        "evidence": {"custom_vjp_applied": 1, "backward_runs": 1, "instrument_intact": True,
                     "provenance": {"reached": False, "used": True, "rules": 1, "opaque": 0},
                     "scaled": OUTPUT}}
RULE = Expected(grad_rule=True, capture_bytes=4096)


def line(message: dict, nonce: str = NONCE) -> bytes:
    return (json.dumps({**message, "nonce": nonce}) + "\n").encode()


def case(index: int = 0, **fields) -> dict:
    return {**copy.deepcopy(CASE), "index": index, **fields}


def collect(*lines: bytes, sent=(0, 1, 2), total=None, expected=RULE, run_deadline=None,
            case_timeout=5.0) -> WorkerRun:
    """Feed ``lines`` to ``judge.run.collect.collect`` through a real pipe, as a worker would."""
    run = WorkerRun(nonce=NONCE, expected=expected, sent=list(sent),
                    total=len(sent) if total is None else total)
    read_fd, write_fd = os.pipe()

    def write():
        try:
            for data in lines:
                while data:
                    data = data[os.write(write_fd, data):]
        except BrokenPipeError:  # the judge stopped reading, as it should
            pass
        os.close(write_fd)

    threading.Thread(target=write, daemon=True).start()
    try:
        channel_reader.collect(run, read_fd, time.monotonic(), 5.0, case_timeout,
                        run_deadline=run_deadline)
    finally:
        os.close(read_fd)
    return run


def verdicts(problem, run, cases=None) -> list:
    cases = problem.examples if cases is None else cases
    return [grading.judge_case(problem, c, run, 2.0) for c in cases]


# --- forged fields: decoded once, RJ channel_tampered, never an exception --------------------

def _with_array(**array):
    return case(output={"kind": "dict", "items": {"values": {**F32, **array}, "grads": F32}})


FORGED = {
    "data not base64": _with_array(data="!!!!!!!!!!!!"),
    "data not ASCII": _with_array(data="ÿÿÿÿÿÿÿÿÿÿÿÿ"),
    "shape wraps to 0 entries": _with_array(shape=[2 ** 32, 2 ** 32], data=""),
    "huge integer in a shape": _with_array(shape=[10 ** 30], data=""),
    "shape of booleans": _with_array(shape=[True, True]),
    "evidence of the wrong type": case(evidence="fine"),
    "evidence count of the wrong type": case(evidence={**CASE["evidence"], "backward_runs": "1"}),
    "provenance of the wrong type": case(evidence={**CASE["evidence"], "provenance": [False]}),
    "error.kind of the wrong type": case(error={"kind": ["exception"], "type": "E", "message": "m",
                                                "line": 1, "source": None}),
    "error.kind unknown": case(error={"kind": "syntax_error", "type": "E", "message": "m",
                                      "line": 1, "source": None}),
    "error.source of the wrong type": case(error={"kind": "exception", "type": "E", "message": "m",
                                                  "line": 1, "source": 5}),
    "error.line of the wrong type": case(error={"kind": "exception", "type": "E", "message": "m",
                                                "line": "12", "source": None}),
    "trace.primitives of the wrong type": case(trace={"primitives": "pure_callback",
                                                      "custom_vjp_calls": 0}),
    "bad scaled value": case(evidence={**CASE["evidence"], "scaled": {"kind": "array",
                                                                       "dtype": "object"}}),
    "scaled not base64": case(evidence={**CASE["evidence"], "scaled": {
        "kind": "dict", "items": {"values": F32, "grads": {**F32, "data": "@@@@@@@@@@@@"}}}}),
    "output missing without an error": case(output=None),
    "an unknown field": case(extra=1),
    "a value nested too deeply": case(output=json.loads(
        '{"kind": "list", "items": [' * 40 + '{"kind": "other", "type": "x"}' + "]}" * 40)),
    "a type name too long": case(output={"kind": "other", "type": "x" * 10_000}),
    "stdout past the capture": case(stdout="x" * 10_000),
    "a time that is not finite": case(time_s=1e400),
}


@pytest.mark.parametrize("what", sorted(FORGED))
def test_forged_fields_are_channel_tampered(fq_problem, what):
    run = collect(line(READY), line(LOADED), line(FORGED[what]), line(case(1)), line(case(2)),
                  line({"type": "done"}))
    assert run.tampered and not run.cases, what
    for result in verdicts(fq_problem, run):
        assert (result.verdict, result.reason) == (Verdict.RJ, "channel_tampered")


@pytest.mark.parametrize("raw", [b"not json", b'{"type": "case"}', b"[1, 2]", b'{"type": "ready"',
                                 b"\xff\xfe", b'{"type": "case", "x": NaN}', b"1" * 5000])
def test_lines_that_are_not_messages(fq_problem, raw):
    run = collect(line(READY), line(LOADED), raw + b"\n")
    assert run.tampered and not run.protocol_error
    assert verdicts(fq_problem, run)[0].reason == "channel_tampered"


def test_a_message_without_the_nonce_and_one_before_ready():
    assert collect(line(READY), line(LOADED), line(case(0), nonce="f" * 32)).tampered
    run = collect(line(LOADED))
    assert run.protocol_error and not run.tampered  # before ready only the worker ran: IE


def test_honest_messages_give_typed_frozen_reports(fq_problem):
    run = collect(line(READY), line(LOADED), line(case(0)), line(case(1)), line(case(2)),
                  line({"type": "done"}))
    assert run.done and not run.tampered
    report = run.cases[0]
    assert isinstance(report, boundary.CaseReport) and isinstance(report.evidence, boundary.Evidence)
    assert report.evidence.provenance == boundary.Provenance(reached=False, used=True, rules=1, opaque=0)
    assert np.array_equal(report.output["values"], [2.0, 4.0])
    with pytest.raises(AttributeError):
        report.index = 5  # frozen
    assert isinstance(run.ready, boundary.Ready) and run.ready.jax == "0.10.2"


@pytest.mark.parametrize("returned, decoded", [(True, True), (False, False), ("yes", None)])
def test_provenance_returned_is_an_optional_bool(returned, decoded):
    evidence = {**CASE["evidence"], "provenance": {**CASE["evidence"]["provenance"],
                                                   "returned": returned}}
    if decoded is None:
        with pytest.raises(protocol.ProtocolError):
            boundary.decode(line(case(0, evidence=evidence)), NONCE, RULE)
        return
    report = boundary.decode(line(case(0, evidence=evidence)), NONCE, RULE)
    assert report.evidence.provenance.returned is decoded


# --- order: only the indices sent, in order, each once; timed from when due -------------------

@pytest.mark.parametrize("lines, why", [
    ([case(1000)], "an index never sent"),
    ([case(1)], "out of order"),
    ([case(0), case(0)], "reported twice"),
    ([case(0), case(1), case(2), case(3)], "a hidden case not sent yet"),
    ([case(0), {"type": "done"}], "done before every case"),
    ([case(0), READY], "a second ready"),
    ([{"type": "halt", "cause": "output_limit", "index": 99, "detail": ""}], "halt of an unsent case"),
])
def test_reports_out_of_order_are_tampering(lines, why):
    run = collect(line(READY), line(LOADED), *map(line, lines), total=4)
    assert run.tampered, why


def test_keepalive_does_not_reset_the_case_deadline():
    """A report for an unused index no longer counts as progress: the run ends at once."""
    started = time.monotonic()
    run = collect(line(READY), line(LOADED), *[line(case(1000 + i)) for i in range(5)])
    assert run.tampered and time.monotonic() - started < 5


def test_each_case_is_timed_from_when_it_became_due():
    run = WorkerRun(nonce=NONCE, expected=RULE, sent=[0, 1], total=2)
    channel_reader.accept(run, boundary.decode(line(READY), NONCE, RULE), 100.0)
    channel_reader.accept(run, boundary.decode(line(LOADED), NONCE, RULE), 101.0)
    channel_reader.accept(run, boundary.decode(line(case(0)), NONCE, RULE), 104.0)
    with pytest.raises(protocol.ProtocolError):
        channel_reader.accept(run, boundary.decode(line(case(7)), NONCE, RULE), 105.0)
    channel_reader.accept(run, boundary.decode(line(case(1)), NONCE, RULE), 110.0)
    assert run.case_times == {0: 3.0, 1: 6.0}


def test_the_whole_run_has_a_wall_clock_cap(fq_problem):
    run = collect(line(READY), line(LOADED), run_deadline=time.monotonic() - 1)
    assert run.timed_out and run.timeout_phase == "run"
    result = verdicts(fq_problem, run)[0]
    assert (result.verdict, result.reason) == (Verdict.TLE, "time_limit")
    assert "whole run" in result.message


def test_the_result_channel_has_a_byte_budget(fq_problem, monkeypatch):
    monkeypatch.setattr(protocol, "MAX_CHANNEL_BYTES", 20_000)
    run = collect(line(READY), line(LOADED), *[line(case(i, stdout="x" * 4000)) for i in range(8)],
                  sent=range(8))
    assert run.halt and run.halt.cause == "output_limit" and not run.tampered
    assert 0 < len(run.cases) < 8 and run.channel_bytes <= 20_000 + 5000
    example = fq_problem.examples[0]
    assert grading.judge_case(fq_problem, example, run, 2.0).reason != "output_limit"
    missing = type(example)(**{**example.__dict__, "index": 7})
    assert grading.judge_case(fq_problem, missing, run, 2.0).reason == "output_limit"


def test_an_oversized_honest_output_is_an_output_limit(fq_problem, monkeypatch):
    monkeypatch.setattr(protocol, "MAX_MESSAGE_BYTES", 4000)
    run = collect(line(READY), line(LOADED), line(case(0, stdout="x" * 3000, stderr="y" * 3000)))
    assert run.halt and run.halt.cause == "output_limit" and not run.tampered


# --- text from the worker: escaped once, at the boundary ------------------------------------

def test_control_characters_and_lone_surrogates_are_escaped(fq_problem):
    error = {"kind": "exception", "type": "Value\x1bError", "message": "\ud800\x1b[2J\nAC",
             "line": 3, "source": "raise X  # \u202e"}
    run = collect(line(READY), line(LOADED),
                  line(case(0, error=error, output=None, stdout="ok\n\x1b[31mred\r\x07\n")))
    report = run.cases[0]
    assert report.stdout == "ok\n\\x1b[31mred\\r\\x07\n"  # newlines kept in captured output
    assert report.error.message == "\\ud800\\x1b[2J\\nAC" and report.error.type == "Value\\x1bError"
    assert report.error.source == "raise X  # \\u202e"
    results = verdicts(fq_problem, run, fq_problem.examples[:1])
    graded = GradeResult(problem="p", submission="s", verdict=results[0].verdict,
                         reason=results[0].reason, message=results[0].message, time_s=0.0,
                         cases=tuple(results))
    for render in FORMATS.values():
        text = render(graded)
        text.encode("utf-8")
        assert "\x1b" not in text and "\r" not in text


def test_escape():
    assert boundary.escape("a\tb\nc\x00\x7f\x85\u2028\ud800") == \
        "a\\tb\\nc\\x00\\x7f\\x85\\u2028\\ud800"
    assert boundary.escape("a\tb\nc", multiline=True) == "a\tb\nc"


# --- hidden cases: a fixed message per reason code ------------------------------------------

def test_hidden_messages_come_from_a_fixed_table(fq_problem):
    hidden = fq_problem.hidden[0]
    for reason in REASONS:
        result = grading._result(hidden, reason, "secret 1234 at line 77", 0.1, {"stdout": "x"})
        assert "1234" not in result.message and "77" not in result.message, reason
        assert result.details == {}
        assert result.message == HIDDEN_MESSAGES.get(reason, REASONS[reason].title.lower())


def test_hidden_errors_name_no_line_or_type(fq_problem):
    hidden = fq_problem.hidden[0]
    sent = [c.index for c in fq_problem.examples] + [hidden.index]
    error = {"kind": "exception", "type": "Leak4242", "message": "4242", "line": 4242,
             "source": "x = 4242"}
    lines = [line(case(i)) for i in sent[:-1]] + [line(case(hidden.index, error=error, output=None))]
    run = collect(line(READY), line(LOADED), *lines, sent=sent)
    result = grading.judge_case(fq_problem, hidden, run, 2.0)
    assert (result.verdict, result.reason) == (Verdict.RTE, "exception")
    assert result.message == "the submission raised an exception"
    forged = collect(line(READY), line(LOADED), *[line(case(i)) for i in sent[:-1]],
                     b" " * 4242 + b"}\n", sent=sent)
    result = grading.judge_case(fq_problem, hidden, forged, 2.0)
    assert (result.reason, result.message) == ("channel_tampered",
                                               "the result channel was tampered with")


# --- malformed output the submission returned: WA, and one depth limit ------------------------

@pytest.fixture(scope="module")
def case_runner():
    from judge.worker.main import CaseRunner

    return CaseRunner(lambda x: x, {"parameters": [{"name": "x", "traced": True}],
                                    "submission": "/nonexistent.py"})


def _send(case_runner, value):
    leaves: list = []
    skeleton = case_runner._split(value, leaves)
    return protocol.loads(protocol.dumps({"type": "x", "v": case_runner._fill(skeleton, leaves)}))["v"]


def test_worker_and_judge_share_the_depth_limit(case_runner):
    leaf = np.ones(2, np.float32)
    deepest = leaf
    for _ in range(protocol.MAX_DEPTH):
        deepest = [deepest]
    decoded = boundary.value(_send(case_runner, deepest))  # as deep as allowed: decoded as is
    assert protocol.find_malformed(decoded) is None
    too_deep = [deepest]
    decoded = boundary.value(_send(case_runner, too_deep))
    assert protocol.find_malformed(decoded) == protocol.Malformed("too_deep")


@pytest.mark.parametrize("make, why", [
    (lambda a: _nest(a, 2000), "too_deep"),
    (lambda a: _cycle(a), "cyclic"),
    (lambda a: [[a] * 200] * 200, "too_many"),
    (lambda a: {"k" * 1000: a}, "bad_key"),
])
def test_malformed_outputs_are_wrong_answers(fq_problem, case_runner, make, why):
    sent = _send(case_runner, make(np.ones(2, np.float32)))
    assert protocol.find_malformed(boundary.value(sent)) == protocol.Malformed(why)
    run = collect(line(READY), line(LOADED), line(case(0, output=sent)))
    assert not run.tampered
    result = verdicts(fq_problem, run, fq_problem.examples[:1])[0]
    assert (result.verdict, result.reason) == (Verdict.WA, "wrong_type")


def _nest(a, depth):
    for _ in range(depth):
        a = [a]
    return a


def _cycle(a):
    loop = [a]
    loop.extend([loop] * 50)
    return loop


def test_named_tuples_and_subclasses_travel_as_tuples_and_lists(case_runner):
    import collections

    pair = collections.namedtuple("Pair", "a b")
    sent = _send(case_runner, pair(np.ones(1, np.float32), [np.ones(1, np.float32)]))
    assert sent["kind"] == "tuple" and sent["items"][1]["kind"] == "list"


# --- reports: capped diffs ------------------------------------------------------------------

def test_an_example_diff_shows_a_shape_and_the_first_entries(fq_problem):
    big = np.arange(600_000, dtype=np.float32)
    example = fq_problem.examples[0]
    mismatch = grading.compare.check_output({"values": big, "grads": big},
                                           {f.name: example.expected[f.name]
                                            for f in fq_problem.fields},
                                           fq_problem.output_kind,
                                           {f.name: f.tolerance for f in fq_problem.fields})
    diff = example_diff.diff(example, {"values": big, "grads": big}, mismatch)
    assert diff["got"]["values"]["shape"] == [600_000]
    assert len(diff["got"]["values"]["first"]) == example_diff.DIFF_ENTRIES
    assert len(json.dumps(diff)) < 16 * 1024


# --- catch-alls: one submission never stops a batch; the CLI says IE --------------------------

def test_batch_records_a_judge_failure_as_ie_and_goes_on(fq_problem, tmp_path, monkeypatch):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a.py", "bad.py", "c.py"):
        (folder / name).write_text("# submission\n")

    def fake_grade(problem, path, **kwargs):
        if path.name == "bad.py":
            raise RuntimeError("a secret 1234 from the judge's guts")
        return GradeResult(problem=problem.id, submission=str(path), verdict=Verdict.AC,
                           reason="ok", message="all passed", time_s=0.1, cases=())

    monkeypatch.setattr(batch, "grade", fake_grade)
    records = batch.run_batch(fq_problem, folder, tmp_path / "j.jsonl", jobs=2)
    assert [(r["submission"], r["verdict"]) for r in records] == [
        ("a", "AC"), ("bad", "IE"), ("c", "AC")]
    assert records[1]["reason"] == "judge_error" and "1234" not in records[1]["message"]
    for render in batch_report.FORMATS.values():
        render(fq_problem.id, records).encode("utf-8")


def test_cli_batch_exits_2_when_a_submission_is_ie(fq_problem, tmp_path, monkeypatch, capsys):
    from judge.run import warm

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "bad.py").write_text("# submission\n")
    monkeypatch.setattr(warm, "prestart", lambda *a, **k: None)
    monkeypatch.setattr(batch, "grade", lambda *a, **k: 1 / 0)
    out = tmp_path / "out.csv"
    assert cli.main(["batch", str(folder), "-p", str(fq_problem.path), "--format", "csv",
                     "--out", str(out)]) == cli.EXIT_ERROR
    assert "bad,IE,judge_error" in out.read_text()


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_cli_turns_an_unexpected_failure_into_ie_and_exit_2(fq_problem, tmp_path, monkeypatch,
                                                            capsys, fmt):
    from judge.run import warm

    path = tmp_path / "s.py"
    path.write_text("# submission\n")
    monkeypatch.setattr(warm, "prestart", lambda *a, **k: None)

    def broken(*args, **kwargs):
        raise KeyError("a secret 1234")

    monkeypatch.setattr(grading, "grade", broken)
    assert cli.main(["grade", str(path), "-p", str(fq_problem.path), "--format", fmt]) == 2
    out = capsys.readouterr()
    assert "IE" in out.out and "1234" not in out.out
    assert "internal error" in out.err


def test_the_internal_error_report_keeps_the_gate_setting(fq_problem, tmp_path, monkeypatch, capsys):
    from judge.run import warm

    path = tmp_path / "s.py"
    path.write_text("# submission\n")
    monkeypatch.setattr(warm, "prestart", lambda *a, **k: None)
    monkeypatch.setattr(grading, "grade", lambda *a, **k: 1 / 0)
    assert cli.main(["grade", str(path), "-p", str(fq_problem.path), "--format", "json",
                     "--source-gate", "off"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "IE" and report["source_gate"] is False


def test_only_utf8_lines_and_exact_numbers_pass_the_boundary():
    from judge.worker import protocol

    msg = {"type": "halt", "cause": "memory_limit", "index": 0, "detail": "", "nonce": "n"}
    for encoding in ("utf-16", "utf-16-be", "utf-32"):
        with pytest.raises(protocol.ProtocolError):
            protocol.loads(json.dumps(msg).encode(encoding))
    assert protocol.loads(json.dumps(msg).encode("utf-8"))["cause"] == "memory_limit"
    for bad in (10 ** 400, -1, float("nan"), 1e10, True):
        with pytest.raises(protocol.ProtocolError):
            boundary._number(bad, "case.time_s")
    with pytest.raises(protocol.ProtocolError, match="multiply past"):
        protocol.check_shape([2 ** 58, 0])
    protocol.check_shape([0, 3])


def test_escape_leaves_only_printable_ascii_alone():
    """A text of printable ASCII is returned as it is; every other character is escaped exactly
    as the patterns say, alone and beside printable text."""
    from judge.run import escaping

    def by_pattern(text, multiline):
        pattern = escaping._UNSAFE_TEXT if multiline else escaping._UNSAFE_LINE
        return pattern.sub(escaping._escape_char, text)

    for code in list(range(0x3000)) + list(range(0xd7f0, 0xe010)) + list(range(0xfff0, 0x10010)):
        for text in (chr(code), f"a{chr(code)}b"):
            for multiline in (False, True):
                assert escaping.escape(text, multiline) == by_pattern(text, multiline), (code, multiline)
    assert escaping.escape("x\ty\nz", multiline=True) == "x\ty\nz"
    assert escaping.escape("x\ty\nz") == "x\\ty\\nz"


def _in_full(raw):
    """What ``boundary.value`` gives through the general decoding, its quick path aside."""
    return values.clean(protocol.decode_value(raw))


@pytest.mark.parametrize("raw", [
    OUTPUT,
    {"kind": "dict", "items": {}},
    {"kind": "dict", "items": {"w": {**F32, "shape": [1, 2]}, "b": F32}},
])
def test_a_dict_of_arrays_is_decoded_as_in_full(raw):
    quick = boundary.value(raw)
    assert list(quick) == list(_in_full(raw))
    for key, got in quick.items():
        full = _in_full(raw)[key]
        assert got.dtype == full.dtype and got.shape == full.shape and got.tobytes() == full.tobytes()
        assert got.flags.writeable


@pytest.mark.parametrize("raw", [
    {"kind": "dict", "items": {"x": {**F32, "data": "!!!!"}}},                 # not base64
    {"kind": "dict", "items": {"x": {**F32, "extra": 1}}},                     # a key too many
    {"kind": "dict", "items": {"x" * (protocol.MAX_NAME + 1): F32}},           # a key too long
    {"kind": "dict", "items": {"x": F32}, "more": 1},                          # a container key too many
    {"kind": "dict", "items": {"x": {**F32, "shape": [3]}}},                   # data of another shape
])
def test_a_bad_dict_of_arrays_is_refused_as_in_full(raw):
    with pytest.raises(protocol.ProtocolError) as full:
        _in_full(raw)
    with pytest.raises(protocol.ProtocolError) as quick:
        boundary.value(raw, "case.output")
    assert str(quick.value) == f"case.output: {full.value}"


def test_keys_to_escape_and_other_values_are_decoded_in_full():
    raw = {"kind": "dict", "items": {"a\nb": F32, "c": {"kind": "other", "type": "str"}}}
    got = boundary.value(raw)
    assert list(got) == ["a\\nb", "c"] and got["c"] == protocol.Other("str")
