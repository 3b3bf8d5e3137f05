"""The command line: exit codes, the JSON contract, and what text reports reveal."""

import json

from tests.helpers import ROOT, judge

SUBS = ROOT / "submissions" / "fake_quant_ste"


def test_accepted_exits_0_with_json_contract():
    r = judge("grade", str(SUBS / "accepted" / "closure_vjp.py"), "--problem", "fake_quant_ste",
              "--format", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert set(report) == {"version", "problem", "submission", "verdict", "reason", "message",
                           "time_s", "source_gate", "cases", "score", "max_score", "zeroed_by",
                           "groups"}
    assert report["version"] == 6 and report["source_gate"] is True
    assert report["score"] == report["max_score"] == 100 and report["zeroed_by"] is None
    assert report["verdict"] == "AC" and report["reason"] == "ok"
    assert report["problem"] == "fake_quant_ste"
    assert len(report["cases"]) >= 43
    assert all(set(c) == {"index", "number", "visibility", "verdict", "reason", "message", "time_s"}
               for c in report["cases"])  # passing cases: no data, examples or hidden
    assert [c["visibility"] for c in report["cases"][:4]] == ["example"] * 3 + ["hidden"]
    assert [(c["index"], c["number"]) for c in report["cases"][2:5]] == [(2, 2), (3, 0), (4, 1)]


FAILING_EXAMPLE_KEYS = {"index", "number", "visibility", "verdict", "reason", "message", "time_s",
                        "name", "inputs", "probe", "expected", "got", "differences"}


def test_json_failing_examples_carry_their_data_and_hidden_cases_never_do():
    """Version 3 of the contract: a failing example has name, inputs, probe, expected, got;
    version 5 adds the entries that differ."""
    r = judge("grade", str(SUBS / "wrong_answer" / "strict_mask.py"), "-p", "fake_quant_ste",
              "--format", "json")
    assert r.returncode == 1
    report = json.loads(r.stdout)
    failing = [c for c in report["cases"] if c["verdict"] != "AC"]
    example = next(c for c in failing if c["visibility"] == "example")
    assert set(example) == FAILING_EXAMPLE_KEYS
    assert example["name"] == "ties_and_boundaries" and example["probe"] is None
    assert example["inputs"]["x"] == [2.0, 2.5, -2.0, -2.25, 0.5]
    assert example["expected"]["grads"] == [1.0, 0.0, 3.0, 0.0, 5.0]
    assert example["got"]["grads"] == [0.0, 0.0, 0.0, 0.0, 5.0]
    assert example["differences"] == [{"field": "grads", "index": [0], "got": 0.0, "expected": 1.0},
                                      {"field": "grads", "index": [2], "got": 0.0, "expected": 3.0}]
    hidden = [c for c in failing if c["visibility"] == "hidden"]
    assert hidden and all(set(c) == {"index", "number", "visibility", "verdict", "reason",
                                     "message", "time_s"} for c in hidden)
    # a problem with probes: the probe is there; an exception: got is null
    r = judge("grade", str(ROOT / "submissions" / "sign_ste" / "wrong_answer" / "custom_vjp_only.py"),
              "-p", "sign_ste", "--format", "json", "--examples-only")
    example = json.loads(r.stdout)["cases"][0]
    assert set(example) == FAILING_EXAMPLE_KEYS and example["got"] is None
    assert example["differences"] == []
    assert example["probe"] == {"cotangent": [1.0, 2.0, 3.0, 4.0, 5.0],
                                "tangent": [0.5, -1.0, 2.0, 0.0, 1.0]}


def test_wrong_answer_exits_1_and_shows_example_diff():
    r = judge("grade", str(SUBS / "wrong_answer" / "floor_half_up.py"), "-p", "fake_quant_ste",
              "--examples-only")
    assert r.returncode == 1
    assert "WA" in r.stdout and "[wrong_value]" in r.stdout
    assert "expected:" in r.stdout and "got:" in r.stdout and "values[1]" in r.stdout


def test_hidden_cases_reveal_no_data():
    r = judge("grade", str(SUBS / "wrong_answer" / "mask_from_rounded.py"), "-p", "fake_quant_ste",
              "--format", "json")
    assert r.returncode == 1
    report = json.loads(r.stdout)
    hidden_failures = [c for c in report["cases"] if c["visibility"] == "hidden" and c["verdict"] != "AC"]
    assert hidden_failures
    for c in hidden_failures:
        assert c["message"] == "output values differ"  # fixed text: not even the field's name
    text = judge("grade", str(SUBS / "wrong_answer" / "mask_from_rounded.py"), "-p", "fake_quant_ste").stdout
    hidden_lines = [line for line in text.splitlines() if "hidden" in line]
    assert hidden_lines and not any("[" in line.split("]", 1)[1] for line in hidden_lines if "]" in line)


def test_compile_error_and_rejection_exit_1():
    r = judge("grade", str(SUBS / "compile_error" / "syntax_error.py"), "-p", "fake_quant_ste")
    assert r.returncode == 1 and "CE" in r.stdout and "syntax_error" in r.stdout
    r = judge("grade", str(SUBS / "rejected" / "numpy_conversion.py"), "-p", "fake_quant_ste",
              "--examples-only")
    assert r.returncode == 1 and "traced_value_concretized" in r.stdout and "at line" in r.stdout


def test_usage_errors_exit_2():
    assert judge("grade").returncode == 2
    r = judge("grade", "nope.py", "-p", "fake_quant_ste")
    assert r.returncode == 2 and "nope.py" in r.stderr
    r = judge("grade", str(SUBS / "accepted" / "closure_vjp.py"), "-p", "no_such_problem")
    assert r.returncode == 2 and "unknown problem" in r.stderr


def test_show_prints_statement_and_examples():
    r = judge("show", "fake_quant_ste")
    assert r.returncode == 0
    assert "custom_vjp" in r.stdout and "clip_both_ends" in r.stdout and "[0.3" in r.stdout


def test_runs_from_any_directory_with_a_spec_path(tmp_path):
    r = judge("grade", str(SUBS / "accepted" / "closure_vjp.py"), "-p",
              str(ROOT / "problems" / "fake_quant_ste.yaml"), "--examples-only", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_gradescope_results_json():
    r = judge("grade", str(SUBS / "wrong_answer" / "strict_mask.py"), "-p", "fake_quant_ste",
              "--format", "gradescope")
    assert r.returncode == 1
    results = json.loads(r.stdout)
    tests = results["tests"]  # one per scoring group of the spec (tests/test_scoring.py)
    assert [t["name"] for t in tests] == ["boundaries", "ties", "everything_else"]
    assert results["score"] == sum(t["score"] for t in tests) < 100
    assert {t["visibility"] for t in tests} == {"visible"}
    assert all(set(t) == {"name", "score", "max_score", "status", "output", "visibility"} for t in tests)
    failed = [t for t in tests if t["status"] == "failed"]
    assert failed and all(t["score"] == 0 and "differ" in t["output"] and "[" in t["output"]
                          for t in failed)


def test_load_failure_is_reported_once():
    r = judge("grade", str(SUBS / "compile_error" / "syntax_error.py"), "-p", "fake_quant_ste")
    assert r.stdout.count("was never closed") == 2  # the one case line and the summary
    assert "all " in r.stdout and "cases: [syntax_error]" in r.stdout


def test_junit_format_lists_every_case():
    import xml.etree.ElementTree as ET

    r = judge("grade", str(SUBS / "wrong_answer" / "strict_mask.py"), "-p", "fake_quant_ste",
              "--format", "junit")
    assert r.returncode == 1
    suite = ET.fromstring(r.stdout.split("\n", 1)[1])
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.get("tests")) >= 43
    failures = [c for c in cases if c.find("failure") is not None]
    assert len(failures) == int(suite.get("failures")) > 0
    assert all(c.find("failure").get("type") == "WA" for c in failures)


def test_a_command_named_first_is_parsed_by_its_own_parser_as_by_the_whole():
    from judge import cli, cli_parser

    def commands(parser):
        return next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices

    whole = commands(cli.build_parser())
    assert tuple(whole) == cli_parser.COMMANDS
    for name in cli_parser.COMMANDS:
        alone = commands(cli.build_parser(name))
        assert list(alone) == [name] and alone[name].format_help() == whole[name].format_help()
    argv = ["grade", "a.py", "-p", "fake_quant_ste", "--format", "json", "--sandbox", "none"]
    assert vars(cli.build_parser("grade").parse_args(argv)) == vars(cli.build_parser().parse_args(argv))
