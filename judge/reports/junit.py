"""JUnit XML for `judge check`, so CI systems list every check of every problem.

One ``<testsuite>`` per problem and one ``<testcase>`` per check (``classname`` is the problem
id, ``name`` the check, e.g. ``schema`` or ``verdict wrong_answer/floor_half_up.py``). Errors are
``<failure type="error">``; a check that could not run is ``<skipped>``. Warnings are
``<failure type="warning">`` with ``werror``, else lines in ``<system-out>`` like the notes
(``info``). Only the standard library is used.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from judge.gate.switch import setting
from judge.grade.verdicts import shown_time
from judge.problem.model import case_label
from judge.reports.check_text import details


def _line(f) -> str:
    more = details(f)
    return f"{f.level}: {f.where}: {f.message}" + (f"\n{more}" if more else "")


def testcase(report, check, werror: bool) -> ET.Element:
    case = ET.Element("testcase", classname=report.problem, name=check.name,
                      time=f"{check.time_s:.3f}", file=check.file)
    findings = report.of(check)
    failing = [f for f in findings if f.level == "error" or (werror and f.level == "warning")]
    notes = [f for f in findings if f not in failing]
    if failing:
        first = failing[0]
        failure = ET.SubElement(case, "failure", type=first.level,
                                message=f"{first.where}: {first.message}")
        failure.text = "\n".join(_line(f) for f in failing)
    elif check.skipped:
        ET.SubElement(case, "skipped", message=check.skipped)
    summary = [check.summary] if check.summary and not any(check.summary in f.message
                                                           for f in notes) else []
    out = "\n".join(summary + [_line(f) for f in notes])
    if out:
        ET.SubElement(case, "system-out").text = out
    return case


def _gate_property(suite: ET.Element, on: bool) -> None:
    """A suite's ``<properties>``: whether the source gate was on."""
    properties = ET.SubElement(suite, "properties")
    ET.SubElement(properties, "property", name="source_gate", value=setting(on))


def to_xml(reports, werror: bool = False) -> ET.ElementTree:
    root = ET.Element("testsuites", name="judge check")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    total_time = 0.0
    for report in reports:
        suite = ET.SubElement(root, "testsuite", name=report.problem, errors="0")
        _gate_property(suite, report.source_gate)
        cases = [testcase(report, check, werror) for check in report.checks]
        counts = {"tests": len(cases),
                  "failures": sum(1 for c in cases if c.find("failure") is not None),
                  "skipped": sum(1 for c in cases if c.find("skipped") is not None)}
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{report.time_s:.3f}")
        total_time += report.time_s
        suite.extend(cases)
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    root.set("time", f"{total_time:.3f}")
    tree = ET.ElementTree(root)
    ET.indent(tree)
    return tree


def write(reports, path, werror: bool = False) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    to_xml(reports, werror).write(path, encoding="utf-8", xml_declaration=True)


def render_grade(result) -> str:
    """JUnit XML for `judge grade --format junit`: one testcase per case of one submission.

    Hidden cases carry only their index, verdict, reason and the data-free message."""
    suite = ET.Element("testsuite", name=f"{result.problem}: {result.submission}",
                       tests=str(len(result.cases)), errors="0", skipped="0",
                       failures=str(sum(c.verdict.value != "AC" for c in result.cases)),
                       time=f"{result.time_s:.3f}")
    _gate_property(suite, result.source_gate)
    for c in result.cases:
        case = ET.SubElement(suite, "testcase", classname=result.problem, name=case_label(c),
                             time=f"{shown_time(c) or 0.0:.3f}")
        if c.verdict.value != "AC":
            failure = ET.SubElement(case, "failure", type=c.verdict.value,
                                    message=f"{c.verdict.value} [{c.reason}] {c.message}")
            failure.text = f"{c.verdict.title}: {c.message}"
    if not result.cases and not result.accepted:  # no case ran (an internal error, say)
        case = ET.SubElement(suite, "testcase", classname=result.problem, name="grade", time="0.000")
        failure = ET.SubElement(case, "failure", type=result.verdict.value,
                                message=f"{result.verdict.value} [{result.reason}] {result.message}")
        failure.text = f"{result.verdict.title}: {result.message}"
        suite.set("tests", "1")
        suite.set("failures", "1")
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
