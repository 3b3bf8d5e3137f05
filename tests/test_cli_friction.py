"""Issue 13: what the judge says back to a newcomer, a student and a problem author, run as they
run it (``python -m judge ...``): exit status and the words a person reads."""

import re
import shutil
from pathlib import Path

from tests.helpers import ROOT, judge

SUBS = ROOT / "submissions" / "fake_quant_ste"


def _balanced(text: str) -> bool:
    """Brackets balance outside `code` spans and Python's quoted characters like '('."""
    prose = re.sub(r"`[^`]*`|'[()\[\]{}]'", "", text)
    depth = {"(": 0, "[": 0, "{": 0}
    pairs = {")": "(", "]": "[", "}": "{"}
    for ch in prose:
        if ch in depth:
            depth[ch] += 1
        elif ch in pairs:
            depth[pairs[ch]] -= 1
            if depth[pairs[ch]] < 0:
                return False
    return not any(depth.values())


# --- 6: wrong inputs ---------------------------------------------------------------------------

def test_grade_a_folder_points_to_batch():
    r = judge("grade", str(SUBS / "accepted"), "-p", "fake_quant_ste")
    assert r.returncode == 2
    assert "is a folder" in r.stderr and "judge batch" in r.stderr
    assert "no such submission file" not in r.stderr


def test_grade_refuses_a_file_that_is_not_python(tmp_path):
    for name in ("solution.txt", "README.md"):
        path = tmp_path / name
        path.write_text((SUBS / "accepted" / "closure_vjp.py").read_text())  # even AC code
        r = judge("grade", str(path), "-p", "fake_quant_ste", "--examples-only")
        assert r.returncode == 2, r.stdout
        assert "not a Python file" in r.stderr and ".py" in r.stderr
        assert "AC" not in r.stdout


def test_messages_name_the_students_file_with_balanced_brackets(tmp_path):
    broken = tmp_path / "my_quant.py"
    broken.write_text((SUBS / "compile_error" / "syntax_error.py").read_text())
    r = judge("grade", str(broken), "-p", "fake_quant_ste", "--examples-only")
    assert r.returncode == 1
    lines = [line for line in r.stdout.splitlines() if "syntax_error" in line]
    assert lines
    for line in lines:
        assert "my_quant.py" in line and "was never closed" in line
        assert "submission.py" not in line
        assert _balanced(line), line
    r = judge("grade", str(SUBS / "run_time_error" / "bwd_wrong_arity.py"), "-p", "fake_quant_ste",
              "--examples-only")
    assert r.returncode == 1
    assert "at line 34 of bwd_wrong_arity.py" in r.stdout and "submission.py" not in r.stdout
    assert all(_balanced(line) for line in r.stdout.splitlines() if "[exception]" in line)


def test_judge_without_arguments_lists_the_commands():
    r = judge()
    assert r.returncode == 2
    for command in ("grade", "batch", "show", "list", "check", "generate", "fill", "warm", "service"):
        assert re.search(rf"^\s+{command}\s", r.stderr, re.M), command
    assert "judge grade FILE --problem ID" in r.stderr
    # `judge serve` is `judge warm`'s former name: accepted, never listed beside `judge service`
    assert not re.search(r"^\s+serve\s", r.stderr, re.M)


# --- 7: documented exit status, counts a person reads ------------------------------------------

def _one_case_each(root: Path) -> None:
    """``root/problems/sign_ste.yaml``: sign_ste cut to one example and one hidden case."""
    import yaml

    spec = yaml.safe_load((ROOT / "problems" / "sign_ste.yaml").read_text())
    spec["examples"], spec["hidden"] = spec["examples"][:1], spec["hidden"][:1]
    (root / "problems").mkdir()
    (root / "problems" / "sign_ste.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))


def test_counts_of_one_are_singular(tmp_path):
    _one_case_each(tmp_path)
    r = judge("list", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "(1 example, 1 hidden)" in r.stdout and "1 examples" not in r.stdout
    r = judge("show", "sign_ste", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "1 hidden case;" in r.stdout and "1 hidden cases" not in r.stdout


def test_time_limit_prints_the_same_way_for_every_problem():
    for problem in ("fake_quant_ste", "sign_ste"):
        r = judge("show", problem)
        assert r.returncode == 0 and "time limit 10 s per case" in r.stdout, r.stdout[-200:]


def test_batch_exits_0_whatever_the_verdicts_and_the_docs_say_so(tmp_path):
    cls = tmp_path / "class"
    cls.mkdir()
    (cls / "ada.py").write_text((SUBS / "wrong_answer" / "strict_mask.py").read_text())
    r = judge("batch", str(cls), "-p", "fake_quant_ste", "--out", str(tmp_path / "one.txt"))
    assert r.returncode == 0, r.stderr  # a WA is the student's verdict, not the batch failing
    assert "1 submission:" in r.stdout and "1 submissions" not in r.stdout
    assert "WA" in r.stdout
    readme = " ".join((ROOT / "docs" / "instructors.md").read_text().split())
    assert ("Exit status of `judge batch`: `0` every submission got a verdict of its own" in readme
            and "at least one submission is `IE`" in readme and "It never exits `1`." in readme)


# --- 2: one numbering of hidden cases: grade, check, batch, generate's kill matrix -------------

def test_grade_check_and_batch_number_hidden_cases_alike(tmp_path):
    from tests.test_check import ONLY_ONE_HIDDEN, make_package

    spec = make_package(tmp_path / "pkg", subs={"accepted/closure_vjp.py": SUBS / "accepted" / "closure_vjp.py",
                                                "wrong_answer/row_only.py": ONLY_ONE_HIDDEN})
    wrong = tmp_path / "pkg" / "submissions" / "fake_quant_ste" / "wrong_answer" / "row_only.py"
    # only the third item of the spec's hidden: list (ties_pos_row_1x6) catches it
    r = judge("grade", str(wrong), "-p", str(spec))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "hidden 2: [wrong_value]" in r.stdout and "[wrong_value] in" in r.stdout
    assert "hidden case 2: output values differ" not in r.stdout  # the summary says "hidden 2"
    assert "hidden 2: output values differ" in r.stdout
    assert "hidden 5" not in r.stdout and "ties_pos_row_1x6" not in r.stdout  # hidden: no name
    r = judge("check", str(spec), cwd=tmp_path / "pkg")
    assert "hidden 2 (ties_pos_row_1x6)" in r.stdout, r.stdout
    assert "hidden[2] (" not in r.stdout
    cls = tmp_path / "class"
    cls.mkdir()
    (cls / "bob.py").write_text(ONLY_ONE_HIDDEN)
    out = tmp_path / "class.csv"
    r = judge("batch", str(cls), "-p", str(spec), "--format", "csv", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "hidden 2: output values differ" in out.read_text()


def test_kill_matrix_rows_are_numbered_as_appended_hidden_cases():
    from judge.author.kills import KillMatrix, render
    from judge.grade.verdicts import Verdict

    matrix = KillMatrix(["wrong_answer/a.py"], ["gen_x_1_0", "gen_x_1_1"],
                        {("gen_x_1_1", "wrong_answer/a.py"): Verdict.WA})
    text = render(matrix, first_hidden=66)
    assert "hidden 67 gen_x_1_1" in text and "hidden 66" not in text  # only rows that catch


# --- 1: the probe directions of an example are shown -------------------------------------------

SIGN = ROOT / "submissions" / "sign_ste"


def test_show_lists_each_examples_probe():
    r = judge("show", "sign_ste")
    assert r.returncode == 0
    assert "probe: cotangent = [1.0, 2.0, 3.0, 4.0, 5.0] (float32)" in r.stdout
    assert "probe: tangent = [0.5, -1.0, 2.0, 0.0, 1.0] (float32)" in r.stdout


def test_failing_example_shows_its_probe_and_hidden_cases_do_not():
    r = judge("grade", str(SIGN / "wrong_answer" / "plain_sign.py"), "-p", "sign_ste")
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    at = lines.index(next(line for line in lines if "example 0 (mixed_signs_and_zeros)" in line))
    block = "\n".join(lines[at:at + 6])
    assert 'probe:    {"cotangent": [1.0, 2.0, 3.0, 4.0, 5.0], "tangent": [0.5, -1.0, 2.0, 0.0, 1.0]}' in block
    assert "got:      {\"vjp\": [0.0, 0.0, 0.0, 0.0, 0.0]}" in block
    hidden_cotangent = "[2.5]"  # hidden 0 (zero_only) of sign_ste
    assert r.stdout.count("probe:") == 3 and hidden_cotangent not in r.stdout
    # a probe that raises has no diff, and still shows the directions
    r = judge("grade", str(SIGN / "wrong_answer" / "custom_vjp_only.py"), "-p", "sign_ste",
              "--examples-only")
    assert r.returncode == 1 and "[probe_failed]" in r.stdout
    assert '"tangent": [0.5, -1.0, 2.0, 0.0, 1.0]' in r.stdout
    assert 'inputs:   {"x": [-2.0, -0.0, 0.0, 0.5, 3.0]}' in r.stdout  # whatever the failure
    # a submission that never loaded ran no case: no case's inputs or probe stand for them all
    r = judge("grade", str(SUBS / "compile_error" / "syntax_error.py"), "-p", "sign_ste",
              "--examples-only")
    assert r.returncode == 1 and "all 3 cases" in r.stdout
    assert "probe:" not in r.stdout and "inputs:" not in r.stdout


# --- 4: a misspelt key is reported at its own line, with a suggestion --------------------------

def _misspelt(tmp_path) -> Path:
    text = (ROOT / "problems" / "sign_ste.yaml").read_text()
    lines = text.splitlines()
    tol = next(i for i, line in enumerate(lines) if line.startswith("tolerance:"))
    size = next(i for i, line in enumerate(lines) if line.strip() == "min_size: 1")
    lines[tol] = lines[tol].replace("tolerance:", "tolerence:")
    lines[size] = lines[size].replace("min_size:", "minsize:")
    path = tmp_path / "problems" / "sign_ste.yaml"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n")
    return path, tol + 1, size + 1


def test_spec_errors_point_at_the_key_and_suggest_the_valid_one(tmp_path):
    path, tol_line, size_line = _misspelt(tmp_path)
    r = judge("show", str(path))
    assert r.returncode == 2
    assert (f"tolerence (line {tol_line}): unknown key 'tolerence'; did you mean 'tolerance'?"
            in r.stderr), r.stderr
    assert (f"parameters[0].minsize (line {size_line}): unknown key 'minsize'; did you mean "
            f"'min_size'?" in r.stderr), r.stderr
    assert "and 1 more)" not in r.stderr and "judge check" in r.stderr  # all shown, and where
    r = judge("check", str(path), cwd=tmp_path)
    assert r.returncode == 1
    assert f"sign_ste.yaml:{tol_line}: tolerence: unknown key 'tolerence'; did you mean 'tolerance'?" in r.stdout
    assert f"sign_ste.yaml:{size_line}: parameters[0].minsize:" in r.stdout


# --- 3: judge fill -------------------------------------------------------------------------------

def _without_expected(root: Path) -> Path:
    """sign_ste under ``root`` with the expected outputs of example 0 and hidden 1 removed."""
    lines = (ROOT / "problems" / "sign_ste.yaml").read_text().splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.strip().startswith("expected:")]
    drop = {at[0], at[4]}
    path = root / "problems" / "sign_ste.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("".join(line for i, line in enumerate(lines) if i not in drop))
    (root / "reference").mkdir()
    shutil.copy(ROOT / "reference" / "sign_ste.py", root / "reference" / "sign_ste.py")
    return path


def test_a_spec_without_expected_points_to_fill_and_fill_computes_it(tmp_path):
    path = _without_expected(tmp_path)
    r = judge("grade", str(SIGN / "accepted" / "custom_jvp.py"), "-p", "sign_ste", cwd=tmp_path)
    assert r.returncode == 2
    assert "the case 'mixed_signs_and_zeros' has no 'expected' output" in r.stderr
    assert "the case 'negzero_only' has no 'expected' output" in r.stderr
    assert "`judge fill` computes it" in r.stderr
    before = path.read_text()
    r = judge("fill", "sign_ste", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (ROOT / "problems" / "sign_ste.yaml").read_text()  # layout, comments kept
    assert "example 0 (mixed_signs_and_zeros), hidden 1 (negzero_only)" in r.stderr
    assert "--write" in r.stderr and path.read_text() == before  # printed, not written
    r = judge("fill", "sign_ste", "--write", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == "" and "wrote" in r.stderr
    assert path.read_text() == (ROOT / "problems" / "sign_ste.yaml").read_text()
    r = judge("fill", "sign_ste", cwd=tmp_path)
    assert r.returncode == 0 and "nothing to do" in r.stderr


def test_fill_inserts_into_flow_and_block_mappings():
    from judge.author.fill import insert_expected

    text = ("hidden:\n  - {name: a, input: {x: [1.0]}}  # flow\n"
            "  - name: b\n    # a comment\n    input: {x: [2.0]}\n\nafter: 1\n")
    out = insert_expected(text, [("hidden", 0, "[1.0]"), ("hidden", 1, "[2.0]")], Path("s.yaml"))
    assert out == ("hidden:\n  - {name: a, input: {x: [1.0]}, expected: [1.0]}  # flow\n"
                   "  - name: b\n    # a comment\n    input: {x: [2.0]}\n    expected: [2.0]\n"
                   "\nafter: 1\n")


def test_float32_values_print_with_their_shortest_repr():
    r = judge("show", "fake_quant_ste")
    assert "x = [0.3, 1.25, -0.75, 2.6, -3.0] (float32)" in r.stdout
    assert "0.30000001192092896" not in r.stdout
    r = judge("grade", str(SUBS / "wrong_answer" / "floor_half_up.py"), "-p", "fake_quant_ste",
              "--examples-only")
    assert r.returncode == 1
    assert 'inputs:   {"x": [0.3, 1.25, -0.75, 2.6, -3.0]' in r.stdout
    assert "0.30000001192092896" not in r.stdout and "2.5999999046325684" not in r.stdout


def test_bfloat16_values_print_with_their_shortest_repr():
    import ml_dtypes
    import numpy as np
    import yaml

    from judge.problem import casefile

    values = np.array([0.3, 65504.0, 1e-30, -2e21, -0.0], dtype=ml_dtypes.bfloat16)
    assert [casefile.short(v) for v in values] == [0.3, 65500.0, 1e-30, -2e21, -0.0]
    text = casefile.format_value(values)
    assert text == "[0.3, 65500.0, 1.0e-30, -2.0e+21, -0.0]"
    assert (np.array(yaml.safe_load(text), dtype=ml_dtypes.bfloat16) == values).all()
    r = judge("show", "sign_ste")
    assert "0.30078125" not in r.stdout


def test_a_platform_format_gets_a_report_even_when_the_submission_cannot_be_graded(tmp_path):
    import json

    path = tmp_path / "solution.txt"
    path.write_text("print('hello')\n")
    r = judge("grade", str(path), "-p", "fake_quant_ste", "--format", "gradescope")
    assert r.returncode == 2
    results = json.loads(r.stdout)  # Gradescope reads results.json even now
    assert results["score"] == 0.0 and "not a Python file" in results["output"]
    r = judge("grade", str(path), "-p", "fake_quant_ste", "--format", "json")
    report = json.loads(r.stdout)
    assert (report["verdict"], report["reason"]) == ("IE", "judge_error")
    assert "not a Python file" in r.stderr


def test_a_cache_folder_that_cannot_be_made_is_a_clear_usage_error(tmp_path):
    import os

    blocker = tmp_path / "file"
    blocker.write_text("")
    env = {**os.environ, "JUDGE_CACHE_DIR": str(blocker / "cache")}
    for command in (("grade", str(SUBS / "accepted" / "closure_vjp.py")), ("batch", str(SUBS / "accepted"))):
        r = judge(*command, "-p", "fake_quant_ste", "--examples-only" if command[0] == "grade"
                  else "--jobs=1", env=env, cwd=tmp_path)
        assert r.returncode == 2, r.stderr
        assert "cannot create the judge's compilation cache folder" in r.stderr
        assert "JUDGE_CACHE_DIR" in r.stderr and "Traceback" not in r.stderr
