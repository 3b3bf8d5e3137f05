"""Hints from known mistakes (judge/grade/hints.py): fingerprints of example outputs, parsing of
``submissions.yaml`` hints, matching, the `judge check` hints check (judge/author/hint_check.py),
and one end-to-end run on a tiny problem: a student's own code making a known mistake sees its
hint; a different mistake, whose example outputs match no hinted submission, sees none."""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judge.author import expectations, check, hint_check
from judge.grade import hints
from judge.problem import spec
from judge.run.boundary import ErrorReport, Probes
from judge.grade.grading import grade
from judge.reports import FORMATS
from judge.grade.verdicts import CaseResult, GradeResult, Verdict


@dataclass
class FakeReport:
    output: object = None
    error: object = None
    probes: object = None


def test_fingerprints_are_exact():
    a = FakeReport({"values": np.array([1.0, 2.0], np.float32)})
    assert hints.fingerprint(a) == hints.fingerprint(FakeReport({"values": np.array([1.0, 2.0], np.float32)}))
    assert hints.fingerprint(a) != hints.fingerprint(FakeReport({"values": np.array([1.0, 2.5], np.float32)}))
    assert hints.fingerprint(a) != hints.fingerprint(FakeReport({"values": np.array([1.0, 2.0], np.float64)}))
    assert hints.fingerprint(FakeReport(np.zeros(1), probes=Probes({"vjp": np.ones(1)}, {}))) != \
        hints.fingerprint(FakeReport(np.zeros(1), probes=Probes({"vjp": np.zeros(1)}, {})))
    err = ErrorReport(kind="exception", type="TypeError", message="x")
    assert hints.fingerprint(FakeReport(error=err)).startswith("error:")
    assert hints.fingerprint(FakeReport(error=err)) == \
        hints.fingerprint(FakeReport(error=ErrorReport(kind="exception", type="TypeError", message="x")))
    assert hints.fingerprint(FakeReport(error=err)) != hints.fingerprint(FakeReport(output="x"))


def test_errors_of_one_type_with_other_texts_are_other_mistakes():
    """A shape mismatch and a dim read as a number both raise TypeError: a hint written for one
    is not shown for the other."""
    shape = ErrorReport(kind="exception", type="TypeError",
                        message="dot_general requires contracting dimensions to have the same shape")
    dim = ErrorReport(kind="exception", type="TypeError",
                      message="'_DimExpr' object cannot be interpreted as an integer")
    assert hints.fingerprint(FakeReport(error=shape)) != hints.fingerprint(FakeReport(error=dim))
    assert hints.fingerprint(FakeReport(error=shape)) != \
        hints.fingerprint(FakeReport(error=ErrorReport(kind="exception", type="ValueError",
                                                       message=shape.message)))
    assert hints.fingerprint(None) is None


def package(root: Path, overrides: str, files=("wrong_answer/a.py", "wrong_answer/b.py")):
    (root / "problems").mkdir(parents=True, exist_ok=True)
    (root / "problems" / "p.yaml").write_text("id: p\n")
    for rel in files:
        (root / "submissions" / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "submissions" / "p" / rel).write_text("x = 1\n")
    (root / "submissions" / "p" / "submissions.yaml").write_text(overrides)

    class Problem:
        id = "p"
        path = root / "problems" / "p.yaml"
        examples = ()
    return Problem


def test_hints_are_read_and_validated(tmp_path):
    problem = package(tmp_path, "wrong_answer/a.py:\n  hint: 'Use <=,\n    not <.'\n"
                                "wrong_answer/b.py: {required: [WA]}\n")
    assert [(h.rel, h.hint) for h in hints.hinted(problem)] == [("wrong_answer/a.py", "Use <=, not <.")]
    subs, issues = expectations.discover(tmp_path / "submissions" / "p")
    assert not issues and len(subs) == 2
    (tmp_path / "submissions" / "p" / "submissions.yaml").write_text("wrong_answer/a.py: {hint: ''}\n")
    _, issues = expectations.discover(tmp_path / "submissions" / "p")
    assert [i[2] for i in issues] == ["wrong_answer/a.py: hint must be a non-empty string"]


def test_match_needs_every_example_equal(tmp_path, monkeypatch):
    problem = package(tmp_path, "wrong_answer/a.py: {hint: A}\nwrong_answer/b.py: {hint: B}\n")
    known = {"wrong_answer/a.py": ("x", "y"), "wrong_answer/b.py": ("x", "z")}
    monkeypatch.setattr(hints, "known_fingerprints", lambda p, h, sandbox=None, grade=None: known[h.rel])
    assert hints.match(problem, ("x", "z")) == "B"
    assert hints.match(problem, ("x", "y")) == "A"
    assert hints.match(problem, ("x", "w")) == ""            # matches no hinted submission
    assert hints.match(problem, ("x", None)) == ""           # an example not reported: no hint


def _result(verdicts, fingerprints, visibility="example") -> GradeResult:
    reason = {Verdict.AC: "ok", Verdict.WA: "wrong_value"}
    cases = tuple(CaseResult(index=i, name=f"c{i}", visibility=visibility, verdict=v,
                             reason=reason[v], message="") for i, v in enumerate(verdicts))
    worst = next((v for v in verdicts if v is not Verdict.AC), Verdict.AC)
    return GradeResult(problem="p", submission="s", verdict=worst, reason=reason[worst],
                       message="", time_s=0.1, cases=cases, example_fingerprints=fingerprints)


def test_check_hints(tmp_path):
    problem = package(tmp_path, "wrong_answer/a.py: {hint: A}\nwrong_answer/b.py: {hint: B}\n"
                                "wrong_answer/c.py: {hint: C}\nwrong_answer/d.py: {hint: D}\n",
                      files=("wrong_answer/a.py", "wrong_answer/b.py", "wrong_answer/c.py",
                             "wrong_answer/d.py"))
    subs, _ = expectations.discover(tmp_path / "submissions" / "p")
    by = {s.rel: s for s in subs}
    results = {by["wrong_answer/a.py"]: _result([Verdict.WA], ("same",)),
               by["wrong_answer/b.py"]: _result([Verdict.WA], ("same",)),      # same outputs, other hint
               by["wrong_answer/c.py"]: _result([Verdict.AC], ("ref",))}       # accepted
    results[by["wrong_answer/d.py"]] = GradeResult(   # fails only a hidden case
        problem="p", submission="s", verdict=Verdict.WA, reason="wrong_value", message="",
        time_s=0.1, example_fingerprints=("ref",),
        cases=(CaseResult(index=0, name="e", visibility="example", verdict=Verdict.AC, reason="ok", message=""),
               CaseResult(index=1, name="h", visibility="hidden", verdict=Verdict.WA,
                          reason="wrong_value", message="")))
    report = check.ProblemReport(problem="p", path="p.yaml")
    hint_check.check_hints(report, problem, results)
    messages = sorted(f.message for f in report.findings if f.level == "error")
    assert len(messages) == 3
    assert "carries a hint but is accepted" in messages[0]
    assert "passes every example" in messages[1]
    assert messages[2].startswith("wrong_answer/a.py, wrong_answer/b.py give identical outputs")


def test_reports_show_the_hint():
    result = _result([Verdict.WA], ("x",))
    result = GradeResult(**{**result.__dict__, "hint": "Use <=."})
    assert "hint: Use <=." in FORMATS["text"](result)
    assert json.loads(FORMATS["json"](result))["hint"] == "Use <=."
    assert "Hint: Use <=." in json.loads(FORMATS["gradescope"](result))["output"]
    plain = _result([Verdict.WA], ("x",))
    assert "hint" not in json.loads(FORMATS["json"](plain))


SPEC = """\
id: snap
title: Snap
statement: "floor(x) where x >= 0, else x."
entry_point: snap
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], min_size: 1, max_size: 8, finite: true}
output:
  kind: array
  shape_like: x
  dtype: float32
tolerance: {rtol: 0.0, atol: 0.0}
limits: {time_per_case_s: 10, startup_s: 60}
examples:
  - name: small
    input: {x: [-1.5, 0.0, 2.5]}
    expected: [-1.5, 0.0, 2.0]
hidden:
  - {input: {x: [0.5, 1.7]}, expected: [0.0, 1.0]}
"""
REFERENCE = "import jax.numpy as jnp\n\n\ndef snap(x):\n    return jnp.where(x >= 0, jnp.floor(x), x)\n"
KNOWN = "import jax.numpy as jnp\n\n\ndef snap(x):\n    return jnp.floor(x)\n"   # floors negatives too
STUDENT_SAME = ("import jax.numpy as jnp\n\n\ndef snap(x):\n    y = jnp.floor(x * 1.0)\n"
                "    return y\n")
STUDENT_OTHER = "import jax.numpy as jnp\n\n\ndef snap(x):\n    return jnp.ceil(x)\n"


def test_end_to_end_hint_for_a_known_mistake(tmp_path):
    files = {"problems/snap.yaml": SPEC, "reference/snap.py": REFERENCE,
             "submissions/snap/wrong_answer/floors_negatives.py": KNOWN,
             "submissions/snap/submissions.yaml":
                 "wrong_answer/floors_negatives.py:\n  hint: Leave negative inputs unchanged.\n",
             "student/same.py": STUDENT_SAME, "student/other.py": STUDENT_OTHER}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    problem = spec.load("snap", root=tmp_path)
    same = grade(problem, tmp_path / "student" / "same.py")
    assert same.verdict is Verdict.WA and same.hint == "Leave negative inputs unchanged."
    other = grade(problem, tmp_path / "student" / "other.py")
    assert other.verdict is Verdict.WA and other.hint == ""
