"""Constraints between a case's inputs (the spec's ``constraints``, judge/problem/conditions.py):
the expression vocabulary as a table, spec errors that name the file, the line and the key, a
case that breaks one refused by name when the spec loads, and `judge generate` drawing again
instead of writing such a case."""

from pathlib import Path

import numpy as np
import pytest
import yaml

from judge.author import generate
from judge.errors import SpecError
from judge.problem import conditions, constraints
from tests.test_rule_vocabulary import _load, _with

VALUES = {"W": np.array([[1.0, 2.0], [3.0, 4.0]]), "u0": np.array([1.0, 0.0]),
          "scale": np.array(1024.0, np.float32), "good": np.array(3, np.int32), "period": 4,
          "tree": {"dense": {"w": np.ones((3, 2))}, "out": {"w": np.ones(2)}}}
NAMES = ["W", "u0", "scale", "good", "period", "tree"]


@pytest.mark.parametrize("text, holds", [
    ("good < period", True),
    ("good + 1 < period", False),
    ("power_of_two(scale)", True),
    ("power_of_two(scale * 3)", False),
    ("power_of_two(0.25)", True),
    ("power_of_two(0) or power_of_two(-2)", False),
    ("log2(scale) == floor(log2(scale))", True),
    ("norm(u0 @ W) > 2.2", True),           # W^T u0 = (1, 2)
    ("norm(u0 @ W) > 2.3", False),
    ("abs(W) <= 4", True),                   # every entry
    ("W < 4", False),
    ("all(W > 0) and any(W > 3.5)", True),
    ("not any(W > 3.5)", False),
    ("1 <= d <= 2", True),
    ("W[1][0] == 3 and u0[-2] == 1", True),
    ('dim(tree["dense"]["w"], 0) == 3 and size(tree["out"]["w"]) == dim(W, 1)', True),
    ("min(W) == 1 and max(W, 2.5)[0][0] == 2.5 and sum(W) == 10", True),
    ("W @ u0", True),                        # every entry of (1, 3) is true
    ("W[5][0] > 0", False),                  # fails on this case: broken, not an error
    ('tree["missing"]["w"] > 0', False),
    ("2 ** 10 ** 10 > d ** 5", True),   # float64: inf at once, never a huge int
    ("scale % 3 == 1 and 7 // 2 == 3 and 2 ** 10 == 1024 and -scale < 0 and 1 / 4 == 0.25", True),
])
def test_condition_values(text, holds):
    condition = conditions.parse(text, "", NAMES, ["d"])
    assert condition.holds(VALUES, {"d": 2}) is holds


@pytest.mark.parametrize("text, says", [
    ("q < 1", "'q' is neither a parameter nor a dim"),
    ("__import__('os')", "not allowed"),
    ("W.T", "not allowed"),
    ("[x for x in W]", "not allowed"),
    ("lambda: 1", "not allowed"),
    ("W[u0]", "not allowed"),
    ("norm(W, 2)", "takes 1 argument"),
    ("dim(W)", "takes 2 arguments"),
    ("", "non-empty"),
    ("W <", "cannot be parsed"),
    ("x" * 501, "at most 500"),
    ("'text'", "not allowed"),
])
def test_condition_errors(text, says):
    with pytest.raises(conditions.ConditionError, match=says):
        conditions.parse(text, "", NAMES, ["d"])


def test_a_bad_constraint_names_the_file_line_and_key(tmp_path):
    with pytest.raises(SpecError, match="neither a parameter nor a dim") as info:
        _load(tmp_path, _with(constraints=[{"check": "k > 0"}, {"check": "size(W) > q"}]))
    error = info.value
    assert error.steps == ("constraints", 1, "check") and error.path.endswith("mini.yaml")
    assert error.line is not None and f"constraints[1].check (line {error.line})" in str(error)
    text = (tmp_path / "problems" / "mini.yaml").read_text().splitlines()
    assert "size(W) > q" in text[error.line - 1]


def test_an_unknown_key_in_a_constraint_is_named(tmp_path):
    with pytest.raises(SpecError, match="unknown key 'message'") as info:
        _load(tmp_path, _with(constraints=[{"check": "k > 0", "message": "k is positive"}]))
    assert info.value.steps == ("constraints", 0, "message") and info.value.line is not None


def test_every_case_meets_the_constraints_when_the_spec_loads(tmp_path):
    data = _with(constraints=[{"check": "k < size(x)", "says": "k is below d"}])
    assert _load(tmp_path, data).conditions[0].text == "k < size(x)"
    data["examples"][0]["input"]["k"] = 2.0
    with pytest.raises(SpecError, match=r"breaks the constraint `k < size\(x\)` \(k is below d\)") as info:
        _load(tmp_path, data)
    assert info.value.steps == ("examples", 0, "input") and info.value.line is not None


def test_judge_check_lists_every_case_that_breaks_one(tmp_path):
    from judge.problem import spec

    data = _with(constraints=[{"check": "k < size(x)"}, {"check": "k > 0"}])
    data["examples"].append({"input": {"W": [[1.0, 2.0]], "x": [1.0, 2.0], "k": 5.0}, "expected": [0.0, 0.0]})
    data["examples"].append({"input": {"W": [[1.0, 2.0]], "x": [1.0, 2.0], "k": -1.0}, "expected": [0.0, 0.0]})
    path = tmp_path / "mini.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    problem, errors = spec.build(data, path, yaml.compose(path.read_text()), collect=True)
    assert len(problem.cases) == 1
    assert [(e.steps[:2], e.problem) for e in errors] == [
        (("examples", 1), "breaks the constraint `k < size(x)`"),
        (("examples", 2), "breaks the constraint `k > 0`")]


def test_the_parameters_own_constraints_come_first():
    problem_params = _load_params()
    raw = {"W": [[1.0, 2.0]], "x": [1.0, 2.0, 3.0], "k": 1.0}
    condition = conditions.parse("k > 5", "", ["W", "x", "k"], ["m", "d"])
    _, broken = constraints.input_violations(problem_params, raw, (condition,))
    assert len(broken) == 1 and "but d is" in str(broken[0])  # not also the condition


def _load_params():
    from judge.problem.spec import _parameter, _with_dims
    from tests.test_rule_vocabulary import BASE

    params = tuple(_parameter(p) for p in BASE["parameters"])
    return _with_dims(params, BASE["dims"], lambda *a: None)


def test_generate_draws_again_rather_than_write_a_case_that_breaks_one(tmp_path):
    problem = _load(tmp_path, _with(constraints=[{"check": "k < size(x)", "says": "k is below d"}]))
    module = generate.GeneratorModule(Path("gen.py"), {}, {})
    good = {"input": {"W": np.ones((1, 3), np.float32), "x": np.ones(3, np.float32), "k": 2.0}}
    bad = {"input": {"W": np.ones((1, 2), np.float32), "x": np.ones(2, np.float32), "k": 2.0}}
    kept, why = generate.prepare(problem, module, "f", 0, 1, good)
    assert kept is not None and why == ()
    kept, why = generate.prepare(problem, module, "f", 1, 1, bad)
    assert kept is None and why == (("invalid", "breaks the constraint `k < size(x)` (k is below d)"),)


def test_judge_show_states_the_constraints_with_the_signature(tmp_path):
    from judge.reports import show

    problem = _load(tmp_path, _with(constraints=[{"check": "k < size(x)", "says": "k is below d"},
                                                 {"check": "k > 0"}]))
    lines = show.signature(problem)
    assert lines[-2:] == ["  every case: k < size(x) (k is below d)", "  every case: k > 0"]
