"""Loading specs: malformed ones give errors naming the file, the field and the line."""

from pathlib import Path

import pytest
import yaml

from judge.problem import spec
from judge.errors import JudgeError, SpecError

ROOT = Path(__file__).resolve().parent.parent


def write_variant(tmp_path, mutate, name="variant.yaml"):
    data = yaml.safe_load((ROOT / "problems" / "fake_quant_ste.yaml").read_text())
    mutate(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_bundled_spec_loads(fq_problem):
    assert fq_problem.entry_point == "fake_quant_ste"
    assert [p.name for p in fq_problem.parameters] == ["x", "scale", "qmin", "qmax", "cotangent"]
    assert [p.traced for p in fq_problem.parameters] == [True, False, False, False, True]
    assert fq_problem.reference == ROOT / "reference" / "fake_quant_ste.py"


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: d.pop("entry_point"), "(top level)", "'entry_point' is a required property"),
    (lambda d: d["parameters"][0].update(kind="tensor"), "parameters[0].kind", "tensor"),
    (lambda d: d["examples"][0]["input"].update(scale=-1.0), "examples[0].input.scale", "greater than 0"),
    (lambda d: d["hidden"][2]["input"].update(qmin=9), "hidden[2].input.qmax", "greater than qmin"),
    (lambda d: d["hidden"][0]["input"].update(x=[1.0] * 7), "hidden[0].input.x", "at most 6"),
    (lambda d: d["hidden"][0]["input"].update(x=[[[1.0]]]), "hidden[0].input.x", "dimensions"),
    (lambda d: d["hidden"][0]["input"].update(x=[1.0, float("nan")]), "hidden[0].input.x", "finite"),
    (lambda d: d["hidden"][1]["input"].pop("cotangent"), "hidden[1].input", "missing cotangent"),
    (lambda d: d["hidden"][1]["expected"].pop("grads"), "hidden[1].expected", "fields"),
    (lambda d: d["hidden"][1]["expected"].update(values=[1.0, 2.0, 3.0]), "hidden[1].expected.values", "shape"),
    (lambda d: d["rules"][0].update(field="gradz"), "rules[0].field", "gradz"),
    (lambda d: d["parameters"][4].update(shape_like="y"), "parameters[4].shape_like", "unknown parameter"),
])
def test_malformed_spec_names_file_field_and_problem(tmp_path, mutate, field, words):
    path = write_variant(tmp_path, mutate)
    with pytest.raises(SpecError) as info:
        spec.load(path)
    err = info.value
    assert err.path == str(path)
    assert err.field.startswith(field), err.field
    assert words in err.problem, err.problem
    assert str(path) in str(err)


def test_schema_errors_carry_line_numbers(tmp_path):
    path = write_variant(tmp_path, lambda d: d["parameters"][0].update(kind="tensor"))
    with pytest.raises(SpecError) as info:
        spec.load(path)
    line = int(info.value.field.split("line ")[1].rstrip(")"))
    assert "tensor" in path.read_text().splitlines()[line - 1]


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\ntitle: [unclosed\n")
    with pytest.raises(SpecError, match=r"broken\.yaml: YAML syntax error: line \d+"):
        spec.load(path)


def test_unknown_problem_lists_known_ones():
    with pytest.raises(JudgeError, match="fake_quant_ste"):
        spec.load("no_such_problem", root=ROOT)


def test_missing_spec_file():
    with pytest.raises(JudgeError, match="no such problem spec"):
        spec.load("/nonexistent/problem.yaml")
