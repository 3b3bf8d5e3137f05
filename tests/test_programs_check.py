"""`judge check`'s ``programs`` check (judge/author/programs.py): the number of programs one grade
traces is the number of distinct keys among the cases, the count the worker really traces; the
summary names what tells the programs apart, and a spec whose cases make more than ``LIMIT``
programs gets a warning saying why that costs time."""

import pytest
import yaml

from judge.author import programs
from judge.author.check import Loaded, ProblemReport
from judge.grade import grading, plan
from judge.grade.verdicts import Verdict
from judge.problem import spec
from tests.helpers import ROOT


def _check(path):
    data, nodes = spec.read_yaml(path)
    problem = spec.build(data, path, nodes)
    report = ProblemReport(problem=problem.id, path=str(path))
    programs.check_programs(report, Loaded(problem, nodes))
    [check] = [c for c in report.checks if c.name == "programs"]
    return check, report.of(check)


def test_a_static_int_makes_one_program_per_value():
    problem = spec.load(ROOT / "problems" / "spectral_norm.yaml")
    found = programs.keys(problem)
    assert len(found) == len({c.inputs["K"] for c in problem.cases}) < len(problem.cases)
    # m and n are symbols: cases of every shape share the program of their K
    for cases in found.values():
        assert len({c.inputs["K"] for c in cases}) == 1


def test_symbolic_dims_cost_nothing_and_concrete_ones_do():
    attention = spec.load(ROOT / "problems" / "batched_attention.yaml")
    assert len(programs.keys(attention)) == len({c.inputs["q"].shape[-1] for c in attention.cases})
    assert len({c.inputs["v"].shape[-1] for c in attention.cases}) > len(programs.keys(attention))


def test_without_a_program_traced_with_symbols_every_shape_and_dtype_is_a_program():
    problem = spec.load(ROOT / "problems" / "sign_ste.yaml")  # no rule reads a program
    signatures = {(c.inputs["x"].shape, str(c.inputs["x"].dtype)) for c in problem.cases}
    assert len(programs.keys(problem)) == len(signatures) > 1


@pytest.mark.parametrize("problem_id, at_most", [
    ("fake_quant_ste", 9), ("sign_ste", 9), ("grad_reversal", 9), ("warmup_cosine", 9)])
def test_cases_without_symbols_are_drawn_from_few_configurations(problem_id, at_most):
    """Where each static value and shape is a program of its own, the cases share a few
    configurations: the grade traces a handful of programs, not one per case."""
    problem = spec.load(ROOT / "problems" / f"{problem_id}.yaml")
    assert plan.case_plan(problem, problem.cases[0]).key is None  # no program traced with symbols
    assert len(programs.keys(problem)) <= at_most < len(problem.cases) / 3


def test_the_summary_says_what_tells_the_programs_apart():
    check, findings = _check(ROOT / "problems" / "mixed_precision_step.yaml")
    assert check.summary.startswith("one grade traces 5 programs for ")
    assert check.summary.endswith("one per distinct lr, period") and not findings
    check, findings = _check(ROOT / "problems" / "loss_and_grads.yaml")
    assert "traces 1 program for" in check.summary and "tells them apart" in check.summary
    assert not findings


def test_more_programs_than_the_limit_is_a_warning_at_the_hidden_cases(tmp_path, monkeypatch):
    monkeypatch.setattr(programs, "LIMIT", 16)  # K's range holds fewer values than the default
    data = yaml.safe_load((ROOT / "problems" / "spectral_norm.yaml").read_text())
    data.pop("related")
    base = data["hidden"][0]
    data["hidden"] = [{**base, "name": f"steps_{k}", "input": {**base["input"], "K": k}}
                      for k in range(1, programs.LIMIT + 2)]
    path = tmp_path / "problems" / "spectral_norm.yaml"
    path.parent.mkdir()
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    check, [finding] = _check(path)
    assert finding.level == "warning"
    assert "name: steps_1" in path.read_text().splitlines()[finding.line - 1]  # the hidden cases
    assert f"the cases make {len(data['examples']) + programs.LIMIT - 1} distinct programs" in finding.message
    assert "each distinct K is a program traced, with its derivatives, for every submission" in finding.message


def test_the_worker_traces_as_many_programs_as_the_check_counts(tmp_path):
    """Graded end to end: the reference, made to append a line to a file each time its Python
    runs, runs once per key the check counts (no rule of the problem traces it elsewhere)."""
    problem = spec.load(ROOT / "problems" / "mixed_precision_step.yaml")
    log = tmp_path / "calls.txt"
    source = (ROOT / "reference" / "mixed_precision_step.py").read_text()
    head = "def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):\n"
    assert head in source
    submission = tmp_path / "mixed_precision_step.py"
    submission.write_text(source.replace(
        head, head + f"    open({str(log)!r}, 'a').write(f'{{lr}} {{period}}\\n')\n"))
    result = grading.grade(problem, submission, use_cache=True, hints=False, source_gate=False,
                           sandbox="none")
    assert result.verdict is Verdict.AC, [f"{c.name}: {c.reason}: {c.message}" for c in result.cases]
    lines = log.read_text().splitlines()
    assert len(lines) == len(set(lines)) == len(programs.keys(problem)) < len(problem.cases), lines
