"""What a submission prints on the examples reaches the text and JSON reports, bounded, and never
for a hidden case; a print of a traced value gets one note pointing to jax.debug.print."""

import json

import pytest

from judge.grade.verdicts import CaseResult, GradeResult, Verdict
from judge.reports import json_report, printed, text
from tests.helpers import ROOT, judge

SECRET = "hidden-case-output-7f3a"  # distinctive: any trace of it in a report is found


def _result(stdout="", stderr="", hidden_stdout=SECRET) -> GradeResult:
    cases = (CaseResult(index=0, name="first", visibility="example", number=0, verdict=Verdict.AC,
                        reason="ok", message="passed", time_s=0.1,
                        details={"stdout": stdout, "stderr": stderr}),
             CaseResult(index=1, name="quiet", visibility="example", number=1, verdict=Verdict.AC,
                        reason="ok", message="passed", time_s=0.1, details={"stdout": "", "stderr": ""}),
             # a hidden case never carries details; were it given some, no report shows them
             CaseResult(index=2, name="secret", visibility="hidden", number=0, verdict=Verdict.AC,
                        reason="ok", message="passed", time_s=0.1,
                        details={"stdout": hidden_stdout, "stderr": hidden_stdout}))
    return GradeResult(problem="p", submission="s.py", verdict=Verdict.AC, reason="ok",
                       message="all 3 cases passed", time_s=0.3, cases=cases)


def test_an_examples_output_is_in_both_reports_and_a_hidden_cases_in_neither():
    result = _result(stdout="loss 0.25\n", stderr="a warning\n")
    out = text.render(result)
    assert "      stdout:\n        | loss 0.25\n      stderr:\n        | a warning" in out
    assert SECRET not in out and "note:" not in out
    report = json.loads(json_report.render(result))
    first, quiet, hidden = report["cases"]
    assert (first["stdout"], first["stderr"]) == ("loss 0.25", "a warning")
    assert "stdout" not in quiet and "stdout" not in hidden and SECRET not in json.dumps(report)
    assert report["version"] == 6 and "tracer_note" not in report


def test_the_output_shown_is_bounded():
    many = "\n".join(f"line {i} " + "x" * 1000 for i in range(500))
    shown = printed.shown(many)
    lines = shown.splitlines()
    assert len(lines) == printed.MAX_LINES + 1 and lines[-1] == "[... 460 more lines not shown]"
    assert all(len(line) <= printed.MAX_LINE + 6 for line in lines)
    assert json.loads(json_report.render(_result(stdout=many)))["cases"][0]["stdout"] == shown


@pytest.mark.parametrize("stdout,noted", [
    ("x is JitTracer(float32[2,2])", True),
    ("GradTracer(primal=JitTracer(float32[5]), typeof(tangent)=f32[5])", True),
    ("DynamicJaxprTracer(...)", True),
    ("values [1. 2.]", False),
    ("my Tracer class", False),
])
def test_a_printed_tracer_is_explained_once(stdout, noted):
    result = _result(stdout=stdout + "\n" + stdout)
    out = text.render(result)
    assert out.count("jax.debug.print") == (1 if noted else 0)
    report = json.loads(json_report.render(result))
    assert ("tracer_note" in report) is noted
    if noted:
        assert "jax.debug.print" in report["tracer_note"]


def test_a_hidden_tracer_gets_no_note():
    assert printed.tracer_note(_result(hidden_stdout="JitTracer(float32[3])")) == ""


def test_judge_grade_shows_print_and_debug_print_and_the_note(tmp_path):
    """End to end: Python's print shows a tracer, jax.debug.print the values."""
    source = tmp_path / "printing.py"
    source.write_text(
        "import jax\nimport jax.numpy as jnp\n\n\ndef ste_quantize(x):\n"
        "    print('x is', x)\n    jax.debug.print('values {}', x)\n"
        "    return jax.lax.stop_gradient(jnp.sign(x)) + (x - jax.lax.stop_gradient(x))\n")
    r = judge("grade", str(source), "-p", "sign_ste", "--examples-only")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| x is JitTracer(float32[5])" in r.stdout
    assert "| values [-2.  -0.   0.   0.5  3. ]" in r.stdout
    assert r.stdout.count("note: your code printed a traced value") == 1
    r = judge("grade", str(source), "-p", "sign_ste", "--format", "json")
    report = json.loads(r.stdout)
    assert "values [" in report["cases"][0]["stdout"] and "tracer_note" in report
    assert all("stdout" not in c for c in report["cases"] if c["visibility"] == "hidden")
