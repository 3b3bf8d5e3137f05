"""Loading specs: malformed ones give errors naming the file, the field and the line."""

import pytest
import yaml

from tests.helpers import ROOT
from judge.problem import spec
from judge.errors import JudgeError, SpecError


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
    err = info.value
    assert err.steps == ("parameters", 0, "kind") and err.where == "parameters[0].kind"
    assert "tensor" in path.read_text().splitlines()[err.line - 1]
    assert str(err).startswith(f"{path}: parameters[0].kind (line {err.line}): ")


def test_spec_error_fields_and_text():
    err = SpecError("p.yaml", ["hidden", 2, "input", "x"], 40, "has 7 entries")
    assert (err.path, err.steps, err.line, err.problem) == ("p.yaml", ("hidden", 2, "input", "x"),
                                                            40, "has 7 entries")
    assert str(err) == "p.yaml: hidden[2].input.x (line 40): has 7 entries"
    assert str(SpecError("p.yaml", [], None, "bad")) == "p.yaml: (top level): bad"
    assert str(SpecError("p.yaml", problem="bad")) == "p.yaml: bad"
    # without steps a line stays out of the text (a YAML syntax error names it in the problem)
    assert str(SpecError("p.yaml", None, 3, "YAML syntax error: line 3, column 1: x")) == \
        "p.yaml: YAML syntax error: line 3, column 1: x"


def test_build_collects_every_case_error_in_one_pass(tmp_path):
    def break_cases(d):
        d["hidden"][0]["input"].update(x=[[[1.0]] * 7])  # size, ndim and cotangent's shape_like
        d["hidden"][1]["expected"].pop("grads")
        d["examples"][1]["input"].update(scale=-1.0)

    path = write_variant(tmp_path, break_cases)
    data, nodes = spec.read_yaml(path)
    problem, errors = spec.build(data, path, nodes, collect=True)
    lines = path.read_text().splitlines()
    assert [e.where for e in errors] == ["examples[1].input.scale", "hidden[0].input.x",
                                         "hidden[0].input.x", "hidden[0].input.cotangent",
                                         "hidden[1].expected"]
    assert all(e.path == str(path) and e.line and lines[e.line - 1].strip() for e in errors)
    n_cases = len(data["examples"]) + len(data["hidden"])
    assert len(problem.cases) == n_cases - 3
    assert [c.index for c in problem.cases] == list(range(len(problem.cases)))
    assert ("example", 1) not in {(c.visibility, c.number) for c in problem.cases}
    assert problem.hidden[0].number == 2 and problem.hidden[0].label == "hidden 2"
    # without collect, the first of them is raised, with the same fields
    with pytest.raises(SpecError) as info:
        spec.build(data, path, nodes)
    assert (info.value.steps, info.value.line, info.value.problem) == \
        (errors[0].steps, errors[0].line, errors[0].problem)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\ntitle: [unclosed\n")
    with pytest.raises(SpecError, match=r"broken\.yaml: YAML syntax error: line \d+"):
        spec.load(path)


@pytest.mark.parametrize("name", ["fake_quant_ste", "batched_attention", "mixed_precision_step"])
def test_a_spec_parsed_once_gives_the_data_and_lines_of_two_parses(name):
    """read_yaml builds the data from the node tree it keeps for line numbers (one parse, not
    two): the same data as yaml.load, the same lines as yaml.compose."""
    path = ROOT / "problems" / f"{name}.yaml"
    text = path.read_text()
    data, nodes = spec.read_yaml(path)
    assert data == yaml.load(text, Loader=spec.YAML_LOADER)
    composed = yaml.compose(text, Loader=spec.YAML_LOADER)
    for steps in (["id"], ["rules", 0], ["hidden", len(data["hidden"]) - 1, "input"]):
        assert spec.line_of(nodes, steps) == spec.line_of(composed, steps) is not None


@pytest.mark.parametrize("text", ["", "# only a comment\n", "- a list\n"])
def test_a_spec_that_is_no_mapping_names_the_file(tmp_path, text):
    path = tmp_path / "empty.yaml"
    path.write_text(text)
    with pytest.raises(SpecError, match=r"empty\.yaml: the spec must be a YAML mapping"):
        spec.read_yaml(path)


def test_unknown_problem_lists_known_ones():
    with pytest.raises(JudgeError, match="fake_quant_ste"):
        spec.load("no_such_problem", root=ROOT)


def test_missing_spec_file():
    with pytest.raises(JudgeError, match="no such problem spec"):
        spec.load("/nonexistent/problem.yaml")
