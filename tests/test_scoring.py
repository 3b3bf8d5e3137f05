"""Scored groups (``scoring`` in a spec): which group a case belongs to, what a group and a
submission earn, what every report shows of it (never a hidden case's name), what `judge check`
and `judge show` say, and the errors of a malformed ``scoring``."""

import json
from dataclasses import replace

import pytest

from judge.author import scoring_check
from judge.author.check import Loaded, ProblemReport, check_problem
from judge.errors import SpecError
from judge.grade import grading, scoring
from judge.grade.verdicts import CaseResult, GradeResult, Verdict, overall
from judge.problem import spec
from judge.problem.model import ScoreGroup
from judge.reports import gradescope, json_report, show, text
from tests.helpers import ROOT

GROUPS = (ScoreGroup("boundaries", 40, ("exact_*", "*_bounds*")),
          ScoreGroup("everything_else", 60, ("*",)))

#: Hidden case names distinctive enough that any trace of them in a report is found.
SECRET = ("exact_secret_qmax", "deep_secret_bounds_2x3", "secret_plain_interior")

REASON = {"AC": "ok", "WA": "wrong_value", "RJ": "grads_not_from_backward", "CE": "syntax_error",
          "TLE": "time_limit"}


def results(*verdicts: str) -> tuple[CaseResult, ...]:
    """Graded cases: example 0 ``ties_and_bounds``, example 1 ``clip_both_ends``, then the
    hidden cases ``SECRET``, with ``verdicts`` in that order."""
    names = [("ties_and_bounds", "example", 0), ("clip_both_ends", "example", 1)] + \
        [(name, "hidden", i) for i, name in enumerate(SECRET)]
    return tuple(CaseResult(index=i, name=name, visibility=vis, number=number, verdict=Verdict(v),
                            reason=REASON[v], message="passed" if v == "AC" else "it differs")
                 for i, ((name, vis, number), v) in enumerate(zip(names, verdicts)))


def graded(cases, groups=GROUPS) -> GradeResult:
    verdict, reason, message = overall(cases)
    result = GradeResult(problem="p", submission="s.py", verdict=verdict, reason=reason,
                         message=message, time_s=1.0, cases=cases)
    return replace(result, score=scoring.score(groups, cases))


# --- which group a case belongs to -----------------------------------------------------------

def test_a_case_belongs_to_the_first_group_that_matches_it():
    groups = (ScoreGroup("a", 1, ("x_*",)), ScoreGroup("b", 1, ("*_y", "x_*")),
              ScoreGroup("c", 1, ("*",)))
    assert [scoring.group_index(groups, n) for n in ("x_y", "z_y", "z", "X_y")] == [0, 1, 2, 1]
    members, unassigned = scoring.assign(groups[:2], results("AC", "AC", "AC", "AC", "AC"))
    assert unassigned  # no "*": the rest is in no group
    # globs are case sensitive and match the whole name (fnmatch): [seq] and ? work too
    assert scoring.group_index((ScoreGroup("g", 1, ("t?e_[0-9]",)),), "tie_7") == 0
    assert scoring.group_index((ScoreGroup("g", 1, ("tie",)),), "tie_7") is None


def test_the_bundled_groups_of_fake_quant_ste_follow_the_first_match():
    problem = spec.load("fake_quant_ste")
    members, unassigned = scoring.assign(problem.scoring, problem.cases)
    by_group = {g.name: {c.name for c in m} for g, m in zip(problem.scoring, members)}
    assert not unassigned and sum(map(len, by_group.values())) == len(problem.cases)
    # "ties_half_inside_bounds" matches "ties_*" too, but "*_bounds*" comes first
    assert "ties_half_inside_bounds" in by_group["boundaries"]
    assert "exact_qmax_inclusive" in by_group["boundaries"]
    assert "ties_and_boundaries" in by_group["ties"] and "clip_both_ends" in by_group["everything_else"]


# --- what a group and a submission earn ------------------------------------------------------

def test_a_group_earns_its_points_only_when_all_of_its_cases_pass():
    # boundaries: example 0 (ties_and_bounds), hidden 0, hidden 1; everything_else: the rest
    s = scoring.of(graded(results("AC", "AC", "AC", "WA", "AC")))
    assert [(g.name, g.score, g.max_score) for g in s.groups] == [("boundaries", 0, 40),
                                                                 ("everything_else", 60, 60)]
    assert (s.score, s.max_score, s.zeroed_by) == (60, 100, None)
    assert [c.index for c in s.groups[0].cases] == [0, 2, 3] and [c.index for c in s.groups[0].failed] == [3]
    s = scoring.of(graded(results("AC", "AC", "AC", "AC", "TLE")))
    assert (s.score, [g.score for g in s.groups]) == (40, [40, 0])
    assert scoring.of(graded(results(*["AC"] * 5))).score == 100
    thirds = tuple(ScoreGroup(f"g{i}", 33.3, (pattern,)) for i, pattern in
                   enumerate(("ties_*", "clip_*", "*")))
    assert scoring.of(graded(results(*["AC"] * 5), thirds)).score == 99.9  # not 99.89999...


@pytest.mark.parametrize("verdict", ["RJ", "CE"])
def test_a_rule_failure_or_a_compile_error_scores_zero_in_total(verdict):
    cases = results("AC", "AC", "AC", "AC", verdict)  # only the last hidden case
    for groups in (GROUPS, ()):
        s = scoring.of(graded(cases, groups))
        assert s.score == 0 and all(g.score == 0 for g in s.groups)
        assert s.zeroed_by is cases[4] and s.max_score == (100 if groups else 5)
        assert scoring.zero_text(s).startswith(("a rule failure (RJ) on hidden 2",
                                                "a compile error (CE) on hidden 2"))


def test_without_scoring_each_case_is_worth_one_point():
    s = scoring.of(graded(results("AC", "WA", "AC", "AC", "WA"), ()))
    assert s.per_case and (s.score, s.max_score) == (3, 5)
    assert [(g.name, g.score, g.max_score) for g in s.groups] == [
        ("example 0 (ties_and_bounds)", 1, 1), ("example 1 (clip_both_ends)", 0, 1),
        ("hidden 0", 1, 1), ("hidden 1", 1, 1), ("hidden 2", 0, 1)]
    # a result no problem scored (an internal error's report) counts the same way
    bare = GradeResult(problem="p", submission="s.py", verdict=Verdict.AC, reason="ok",
                       message="", time_s=0.0, cases=results("AC", "WA"))
    assert (scoring.of(bare).score, scoring.of(bare).max_score) == (1, 2)


def test_groups_without_a_graded_case_are_left_out_and_unmatched_cases_carry_no_points():
    examples_only = results("AC", "AC")  # --examples-only: boundaries keeps example 0 only
    s = scoring.of(graded(examples_only, (ScoreGroup("hidden_only", 10, ("*secret*",)),
                                          *GROUPS)))
    assert [g.name for g in s.groups] == ["boundaries", "everything_else"] and s.max_score == 100
    s = scoring.of(graded(results("AC", "WA", "AC", "AC", "AC"), GROUPS[:1]))
    assert (s.score, s.max_score) == (40, 40)  # clip_both_ends fails, but it is in no group
    assert [c.name for c in s.unassigned] == ["clip_both_ends", "secret_plain_interior"]
    assert "in no group (no points): example 1 (clip_both_ends), hidden 2" in text.render(graded(
        results("AC", "WA", "AC", "AC", "AC"), GROUPS[:1]))


# --- reports ---------------------------------------------------------------------------------

def _no_secret(out: str) -> None:
    for name in SECRET:
        assert name not in out and name.split("_")[1] not in out, name


def test_gradescope_has_a_score_and_one_test_per_group_naming_no_hidden_case():
    result = graded(results("WA", "AC", "AC", "WA", "AC"))
    out = gradescope.render(result)
    _no_secret(out)
    data = json.loads(out)
    assert data["score"] == 60.0
    assert [(t["name"], t["score"], t["max_score"], t["status"]) for t in data["tests"]] == [
        ("boundaries", 0.0, 40.0, "failed"), ("everything_else", 60.0, 60.0, "passed")]
    assert {t["visibility"] for t in data["tests"]} == {"visible"}
    failed = data["tests"][0]["output"]
    assert "example 0 (ties_and_bounds): WA" in failed and "hidden 1: WA" in failed
    assert "Score: 60/100" in data["output"]


def test_gradescope_zeroed_and_per_case():
    data = gradescope.to_dict(graded(results("AC", "AC", "RJ", "AC", "AC")))
    assert data["score"] == 0.0 and all(t["score"] == 0.0 for t in data["tests"])
    assert "a rule failure (RJ) on hidden 0 scores 0 in total" in data["output"]
    per_case = gradescope.to_dict(graded(results("AC", "WA", "AC", "AC", "AC"), ()))
    assert per_case["score"] == 4.0 and len(per_case["tests"]) == 5  # as it always was
    assert [t["visibility"] for t in per_case["tests"]] == ["visible"] * 2 + ["hidden"] * 3
    assert [t["name"] for t in per_case["tests"]][1:3] == ["example 1 (clip_both_ends)", "hidden 0"]
    _no_secret(json.dumps(per_case))


def test_json_and_text_reports_show_the_points():
    result = graded(results("AC", "AC", "AC", "WA", "AC"))
    data = json.loads(json_report.render(result))
    assert data["version"] == 6 and (data["score"], data["max_score"]) == (60, 100)
    assert data["zeroed_by"] is None
    assert data["groups"] == [{"name": "boundaries", "score": 0, "max_score": 40, "cases": [0, 2, 3]},
                              {"name": "everything_else", "score": 60, "max_score": 60,
                               "cases": [1, 4]}]
    out = text.render(result)
    _no_secret(out + json_report.render(result))
    assert "score: 60/100\n  boundaries       0/40  failed: hidden 1\n  everything_else  60/60\n" in out
    zeroed = graded(results("CE", "CE", "CE", "CE", "CE"))
    assert json.loads(json_report.render(zeroed))["zeroed_by"] == {"index": 0, "verdict": "CE"}
    assert "score: 0/100 (a compile error (CE) on example 0 (ties_and_bounds) scores 0 in total)" \
        in text.render(zeroed)
    assert "score: 4/5 (one point per case)" in text.render(graded(results("AC", "AC", "AC", "WA", "AC"), ()))


def test_show_states_the_scoring_without_hidden_names_or_globs():
    problem = spec.load("fake_quant_ste")
    page = show.render(problem)
    section = page.split("## Scoring\n", 1)[1].split("\n## ", 1)[0]
    assert "100 points in 3 groups" in section and "scores 0 in total" in section
    assert "  - boundaries: 40 points, 7 hidden cases" in section
    assert "  - ties: 30 points, 1 example (ties_and_boundaries) and 14 hidden cases" in section
    assert "*" not in section and "exact_" not in section
    assert all(c.name not in page for c in problem.hidden)
    plain = show.render(spec.load("sign_ste")).split("## Scoring\n", 1)[1]
    assert plain.startswith("  Each case is worth one point (")


# --- judge check -----------------------------------------------------------------------------

def _scoring_findings(groups):
    problem = spec.load("fake_quant_ste")
    _, nodes = spec.read_yaml(problem.path)
    report = ProblemReport("fake_quant_ste", "problems/fake_quant_ste.yaml")
    scoring_check.check_scoring(report, Loaded(replace(problem, scoring=groups), nodes))
    return report


def test_check_passes_the_bundled_groups():
    report = _scoring_findings(spec.load("fake_quant_ste").scoring)
    assert report.findings == [] and report.checks[0].summary.startswith("100 points in 3 groups")


def test_check_refuses_a_group_that_matches_no_case_and_a_case_in_no_group():
    report = _scoring_findings((ScoreGroup("ties", 1, ("tie_*",)), ScoreGroup("typo", 1, ("tei_*",)),
                                ScoreGroup("again", 1, ("tie_pos_*",)), ScoreGroup("rest", 1, ("*",))))
    errors = [f.message for f in report.findings if f.level == "error"]
    assert len(errors) == 2, errors
    assert "groups[1] (typo): the group matches no case: no case name matches 'tei_*'" in errors[0]
    assert "groups[2] (again)" in errors[1] and "belongs to an earlier group (ties)" in errors[1]
    assert all(f.line for f in report.findings)
    report = _scoring_findings((ScoreGroup("ties", 1, ("tie_*",)),))
    (finding,) = report.findings
    assert finding.level == "error" and "in no group would carry no points" in finding.message
    assert "example 0 (clip_both_ends)" in finding.message  # the author sees hidden names


PACKAGE = """\
id: double
title: Double it
statement: Return 2 * x for a float32 vector x.
entry_point: double
parameters:
  - {name: x, kind: array, dtype: float32, ndim: [1], max_size: 8, finite: true}
output: {kind: array, shape_like: x, dtype: float32}
tolerance: {rtol: 1.0e-6, atol: 0.0}
SCORING
examples:
  - name: small
    input: {x: [1.0, -2.0]}
    expected: [2.0, -4.0]
hidden:
  - name: large_secret_entry
    input: {x: [0.0, 1000.0, -0.5]}
    expected: [0.0, 2000.0, -1.0]
  - name: zero_secret
    input: {x: [0.0]}
    expected: [0.0]
"""

GOOD = """\
scoring:
  groups:
    - {name: large, points: 70, cases: ["large_*"]}
    - {name: rest, points: 30, cases: ["*"]}"""


def package(tmp_path, scoring_text: str = GOOD):
    (tmp_path / "problems").mkdir(exist_ok=True)
    (tmp_path / "reference").mkdir(exist_ok=True)
    (tmp_path / "reference" / "double.py").write_text("def double(x):\n    return 2 * x\n")
    path = tmp_path / "problems" / "double.yaml"
    path.write_text(PACKAGE.replace("SCORING", scoring_text))
    return path


# --- malformed scoring: the schema and the loader --------------------------------------------

@pytest.mark.parametrize("bad, field, words", [
    ('- {name: a, points: 0, cases: ["*"]}', "scoring.groups[0].points", "less than or equal to"),
    ('- {name: a, points: -5, cases: ["*"]}', "scoring.groups[0].points", "less than or equal to"),
    ('- {name: a, points: "ten", cases: ["*"]}', "scoring.groups[0].points", "not of type"),
    ('- {name: a, points: 1, cases: []}', "scoring.groups[0].cases", "should be non-empty"),
    ('- {name: a, points: 1}', "scoring.groups[0]", "'cases' is a required property"),
    ('- {name: a, points: 1, cases: ["*"], weight: 2}', "scoring.groups[0].weight", "unknown key"),
    ('- {name: "two words", points: 1, cases: ["*"]}', "scoring.groups[0].name", "does not match"),
])
def test_the_schema_refuses_malformed_scoring(tmp_path, bad, field, words):
    path = package(tmp_path, "scoring:\n  groups:\n    " + bad)
    with pytest.raises(SpecError) as err:
        spec.load(path)
    text = str(err.value)
    assert text.startswith(str(path)) and field in text and words in text, text
    assert f"{field} (line 1" in text  # the scoring block starts at line 9: its lines are 10, 11


def test_duplicate_group_names_and_non_positive_points_are_spec_errors(tmp_path):
    path = package(tmp_path, GOOD + '\n    - {name: large, points: 5, cases: ["x"]}')
    with pytest.raises(SpecError) as err:
        spec.load(path)
    assert str(err.value) == (f"{path}: scoring.groups[2].name (line 13): a second group named "
                              "'large': group names must be unique")
    data, nodes = spec.read_yaml(package(tmp_path))
    data["scoring"]["groups"][0]["points"] = 0  # built without the schema (it refuses it too)
    with pytest.raises(SpecError, match=r"groups\[0\]\.points.*points must be a number more than 0"):
        spec.build(data, path, nodes)


def test_no_scoring_key_means_no_groups(tmp_path):
    assert spec.load(package(tmp_path, "")).scoring == ()
    assert spec.load(package(tmp_path)).scoring == (ScoreGroup("large", 70, ("large_*",)),
                                                    ScoreGroup("rest", 30, ("*",)))


# --- end to end ------------------------------------------------------------------------------

def test_grading_scores_a_submission_end_to_end(tmp_path):
    problem = spec.load(package(tmp_path))
    right = tmp_path / "right.py"
    right.write_text("def double(x):\n    return x + x\n")
    wrong = tmp_path / "wrong.py"  # fails the large case only
    wrong.write_text("import jax.numpy as jnp\n\n\ndef double(x):\n"
                     "    return jnp.where(x > 100, x, 2 * x)\n")
    gated = tmp_path / "gated.py"  # the source gate refuses it: RJ on every case, never run
    gated.write_text("import os\n\n\ndef double(x):\n    return 2 * x\n")
    scores = {}
    for sub in (right, wrong, gated):
        result = grading.grade(problem, sub, sandbox="none", use_cache=False, hints=False)
        scores[sub.stem] = (result.verdict.value, result.score.score, result.score.max_score)
        _no_secret(gradescope.render(result) + json_report.render(result) + text.render(result))
        assert "large_secret" not in gradescope.render(result) + text.render(result)
    assert scores == {"right": ("AC", 100, 100), "wrong": ("WA", 30, 100), "gated": ("RJ", 0, 100)}


def test_judge_check_refuses_a_group_that_matches_no_case(tmp_path):
    path = package(tmp_path, GOOD + '\n    - {name: never, points: 5, cases: ["nothing_*"]}')
    (tmp_path / "submissions" / "double" / "accepted").mkdir(parents=True)
    (tmp_path / "submissions" / "double" / "accepted" / "add.py").write_text(
        "def double(x):\n    return x + x\n")
    report = check_problem(path, sandbox="none")
    errors = [f for f in report.findings if f.level == "error"]
    assert [f.check for f in errors] == ["scoring"], [f.message for f in errors]
    assert "groups[2] (never): the group matches no case" in errors[0].message
    assert errors[0].line == 13


def test_the_docs_walk_through_is_what_the_commands_print():
    readme = (ROOT / "docs" / "authors" / "scoring.md").read_text()
    shown = readme.split('<!-- judge show fake_quant_ste: from "## Scoring" -->\n```\n')[1]
    assert shown.split("```")[0] in show.render(spec.load("fake_quant_ste"))
    block = readme.split("<!-- judge grade strict_mask.py --problem fake_quant_ste "
                         '--examples-only: from "cases:" -->\n```\n')[1].split("```")[0]
    result = grading.grade(spec.load("fake_quant_ste"),
                           ROOT / "submissions" / "fake_quant_ste" / "wrong_answer" / "strict_mask.py",
                           examples_only=True, hints=False)
    assert "\n" + block in text.render(result)


def test_a_batch_records_each_submission_s_points(tmp_path):
    from judge.grade import batch
    from judge.reports import batch_report

    problem = spec.load(package(tmp_path))
    cls = tmp_path / "class"
    (cls / "carol").mkdir(parents=True)  # no .py file: CE no_submission, 0 of the 100 points
    (cls / "ann.py").write_text("def double(x):\n    return x + x\n")
    (cls / "ben.py").write_text("import jax.numpy as jnp\n\n\ndef double(x):\n"
                                "    return jnp.where(x > 100, x, 2 * x)\n")
    records = batch.run_batch(problem, cls, tmp_path / "journal.jsonl", secret=b"k" * 32)
    assert [(r["submission"], r["score"], r["max_score"]) for r in records] == [
        ("ann", 100, 100), ("ben", 30, 100), ("carol", 0, 100)]
    csv = batch_report.render_csv("double", records).splitlines()
    assert csv[0].startswith("submission,verdict,reason,passed,total,score,max_score,")
    assert csv[2].startswith("ben,WA,wrong_value,2,3,30,100,")
    table = batch_report.render_text("double", records)
    assert " 30/100 " in table and "  0/100 " in table
    assert json.loads(batch_report.render_json("double", records))["version"] == 4
