"""No student-facing report shows a hidden case's own time (a run time that depends on a hidden
input would carry it out); examples keep theirs and the total stays."""

import json
import xml.etree.ElementTree as ET

import pytest

from judge.grade.verdicts import CaseResult, GradeResult, Verdict
from judge.reports import gradescope, json_report, junit, text

HIDDEN_TIME = 7.654321  # distinctive, so any trace of it in a report is found


@pytest.fixture
def result():
    cases = (CaseResult(index=0, name="first", visibility="example", number=0, verdict=Verdict.AC,
                        reason="ok", message="passed", time_s=0.25),
             CaseResult(index=1, name="secret", visibility="hidden", number=0, verdict=Verdict.AC,
                        reason="ok", message="passed", time_s=HIDDEN_TIME),
             CaseResult(index=2, name="secret2", visibility="hidden", number=1, verdict=Verdict.WA,
                        reason="wrong_value", message="output values differ", time_s=HIDDEN_TIME))
    return GradeResult(problem="p", submission="s.py", verdict=Verdict.WA, reason="wrong_value",
                       message="hidden 1: output values differ", time_s=9.5, cases=cases)


@pytest.mark.parametrize("render", [text.render, json_report.render, junit.render_grade,
                                    gradescope.render])
def test_no_report_carries_a_hidden_case_time(result, render):
    out = render(result)
    assert "7.65" not in out and "7.654" not in out


def test_json_keeps_the_key_and_the_example_time(result):
    data = json.loads(json_report.render(result))
    assert [c["time_s"] for c in data["cases"]] == [0.25, None, None]
    assert data["time_s"] == 9.5


def test_junit_hidden_testcases_have_no_time(result):
    suite = ET.fromstring(junit.render_grade(result))
    times = [case.get("time") for case in suite.iter("testcase")]
    assert times == ["0.250", "0.000", "0.000"]


def test_text_shows_a_dash_for_hidden_times(result):
    lines = [line.split() for line in text.render(result).splitlines() if line.startswith("  ")]
    assert [words[:3] for words in lines] == [["AC", "0.25s", "example"], ["AC", "-", "hidden"],
                                              ["WA", "-", "hidden"]]
