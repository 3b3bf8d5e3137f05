"""An author's workflow: `judge show` states what the spec promises, `judge fill --refresh`
recomputes stored expected outputs, generators' alternatives return a submission's shape, the
JSON report shows expected and got alike, `judge schema` reaches editors, and batch rows follow
one naming rule."""

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from judge.author import fill
from judge.author.generate import as_fields
from judge.errors import JudgeError
from judge.grade import batch, example_diff
from judge.grade.verdicts import GradeResult, Verdict
from judge.problem import spec
from judge.reports.show import constraints, render
from tests.helpers import ROOT, judge, pythonpath


def _copy(tmp_path: Path, problem: str, generator: bool = False) -> Path:
    """A package folder holding a copy of one bundled problem's spec and reference."""
    root = tmp_path / "pkg"
    for folder in ("problems", "reference") + (("generators",) if generator else ()):
        (root / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / folder / f"{problem}.{'yaml' if folder == 'problems' else 'py'}", root / folder)
    return root


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": pythonpath()}


# --- 1: judge show ---------------------------------------------------------------------------------

@pytest.fixture
def first_load(tmp_path, monkeypatch):
    """Specs loaded as on a first run (an empty cache folder): the field order is the spec's
    (a later load is pinned by ``test_a_dict_output_keeps_the_spec_order_...``)."""
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "first-load-cache"))


def test_show_states_parameters_output_tolerance_and_limits(first_load):
    text = render(spec.load("fake_quant_ste"))
    assert "    x: array float32, traced: the values to quantize\n" \
           "      1 or 2 dimensions; 1 to 6 entries; every entry finite (no NaN or infinity)\n" in text
    assert "    scale: float, static Python value: quantization step\n      more than 0\n" in text
    assert "    qmax: int, static Python value: largest integer level\n      more than qmin\n" in text
    assert "      the shape of x; every entry finite" in text
    assert "## Output\n  a dict with the keys values and grads: the quantized values" in text
    assert "    values: float32, the shape of x\n    grads: float32, the shape of x\n" in text
    assert "## Tolerance\n  |got - expected| <= 1e-06 + 1e-06 * |expected|; -0.0 equals 0.0" in text
    assert "time: 10 s per case" in text and "memory: 2048 MiB" in text
    assert "## Rules" in text and "custom_vjp" in text


def test_show_states_symbolic_shapes_dims_and_exclusive_bounds():
    text = render(spec.load("ema_scan"))
    assert "x: array float32 of shape (T, d), traced: the sequence" in text
    assert "  dims: T from 1 to 64, d from 1 to 8" in text
    assert "      at least 0; less than 1\n" in text  # decay: minimum 0, exclusive_maximum 1
    assert "## Output\n  one array, float32, the shape of x: the moving average" in text
    text = render(spec.load("sign_ste"))
    assert "one array, the dtype of x, the shape of x" in text
    assert "(jax.vjp)" in text and "(jax.jvp)" in text and "  exact; -0.0 equals 0.0" in text
    assert "b: array float32 of shape (), traced" in render(spec.load("per_example_clip"))


def test_show_states_a_field_tolerance_that_differs():
    from dataclasses import replace

    fq = spec.load("fake_quant_ste")
    loose = replace(fq, fields=tuple(
        replace(f, tolerance={"rtol": 0.5, "atol": 0.0, "signed_zero": True}) if f.name == "grads"
        else f for f in fq.fields))
    text = render(loose)
    assert "  grads: |got - expected| <= 0 + 0.5 * |expected|; -0.0 and 0.0 differ" in text
    assert "  values: " not in text.split("## Tolerance")[1].split("## Limits")[0]


def test_show_never_shows_a_hidden_case():
    problem = spec.load("fake_quant_ste")
    text = render(problem, hints=99)
    for case in problem.hidden:
        assert case.name not in text
    assert f"{len(problem.hidden)} hidden cases" in text


def test_constraints_in_words():
    from judge.problem.model import Parameter

    p = Parameter(name="n", kind="int", traced=False, minimum=1, maximum=9, greater_than="m")
    assert constraints(p) == ["at least 1", "at most 9", "more than m"]
    p = Parameter(name="x", kind="array", traced=True, dtypes=("float32",), ndim=(1,), max_size=1,
                  dtype_like="y")
    assert constraints(p) == ["1 dimension", "at most 1 entry", "the dtype of y"]


# --- 2: judge fill --refresh -----------------------------------------------------------------------

LAYOUT = "    # an author's comment, kept\n"


def _edited_fake_quant(tmp_path: Path) -> tuple[Path, str]:
    """A copy of fake_quant_ste whose example 0 has a new first x (its values change) and a
    comment, and whose example 1's x has a new shape (its stored outputs no longer fit)."""
    root = _copy(tmp_path, "fake_quant_ste")
    path = root / "problems" / "fake_quant_ste.yaml"
    text = path.read_text()
    text = text.replace("      x: [0.3, 1.25, -0.75, 2.6, -3.0]\n",
                        "      x: [0.8, 1.25, -0.75, 2.6, -3.0]\n" + LAYOUT, 1)
    assert LAYOUT in text
    text, n = re.subn(r"x: \[\[0\.1, 0\.6\], \[3\.9, -0\.2\]\]", "x: [[0.1, 0.6, 0.1], [3.9, -0.2, 0.1]]", text, 1)
    text, m = re.subn(r"cotangent: \[\[2\.0, -1\.0\], \[0\.5, 3\.0\]\]",
                      "cotangent: [[2.0, -1.0, 1.0], [0.5, 3.0, 1.0]]", text, 1)
    assert n == m == 1
    path.write_text(text)
    return path, text


def test_refresh_dry_run_prints_the_changes_and_changes_nothing(tmp_path):
    path, text = _edited_fake_quant(tmp_path)
    r = judge("fill", str(path), "--refresh", env=_env(), cwd=tmp_path)
    assert r.returncode == fill.EXIT_STALE == 1, r.stderr
    assert path.read_text() == text
    assert r.stdout.startswith("example 0 (clip_both_ends)\n  values:\n"
                               "    old: [0.5, 1.0, -1.0, 1.5, -2.0]\n"
                               "    new: [1.0, 1.0, -1.0, 1.5, -2.0]\n"
                               "example 1 (unsigned_2d)\n  values:\n    old: [[0.0, 0.5], [3.75, 0.0]]"
                               " (no longer fits the case: shape (2, 2) differs from the input's (2, 3))\n")
    assert "grads" not in r.stdout.split("example 1")[0]  # example 0's grads did not change
    assert "2 of 44 cases changed: example 0 (clip_both_ends), example 1 (unsigned_2d)" in r.stderr
    assert "dry run: nothing written" in r.stderr
    assert "hidden" not in r.stdout


def test_refresh_write_replaces_only_the_changed_values(tmp_path):
    path, text = _edited_fake_quant(tmp_path)
    r = judge("fill", str(path), "--refresh", "--write", env=_env(), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "wrote the new expected outputs" in r.stderr
    new = path.read_text()
    old_lines, new_lines = text.splitlines(keepends=True), new.splitlines(keepends=True)
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert changed == [
        ("      values: [0.5, 1.0, -1.0, 1.5, -2.0]\n", "      values: [1.0, 1.0, -1.0, 1.5, -2.0]\n"),
        ("      values: [[0.0, 0.5], [3.75, 0.0]]\n", "      values: [[0.0, 0.5, 0.0], [3.75, 0.0, 0.0]]\n"),
        ("      grads: [[2.0, -1.0], [0.0, 0.0]]\n", "      grads: [[2.0, -1.0, 1.0], [0.0, 0.0, 1.0]]\n"),
    ], changed
    assert LAYOUT in new and new.startswith("# yaml-language-server")
    problem = spec.load(path)
    assert problem.examples[0].expected["values"].tolist() == [1.0, 1.0, -1.0, 1.5, -2.0]
    r = judge("fill", str(path), "--refresh", env=_env(), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == "" and "nothing to do" in r.stderr, r.stderr


def test_refresh_of_an_array_output_with_probes_and_a_missing_expected(tmp_path):
    root = _copy(tmp_path, "sign_ste")
    ref = root / "reference" / "sign_ste.py"
    path = root / "problems" / "sign_ste.yaml"
    text = path.read_text()
    # a case written without expected is filled; a changed reference changes stored outputs
    hidden = text.index("\nhidden:\n") + len("\nhidden:\n")
    case = "  - {name: added, input: {x: [2.0, -3.0]}, probe: {cotangent: [1.0, 1.0], tangent: [1.0, 1.0]}}\n"
    path.write_text(text[:hidden] + case + text[hidden:])
    assert "def ste_quantize" in ref.read_text()
    ref.write_text(ref.read_text() + "\n\n_original = ste_quantize\n\n\ndef ste_quantize(x):\n"
                   "    return 2 * _original(x)\n")
    new, changes, total = fill.refresh(str(path))
    assert total == 34 and path.read_text() == text[:hidden] + case + text[hidden:]
    labels = [c.label for c in changes]
    assert labels[0] == "example 0 (mixed_signs_and_zeros)" and "hidden 0 (added)" in labels
    added = next(c for c in changes if c.label == "hidden 0 (added)")
    assert added.lines[0] == "  value: (missing)"
    first = changes[0].lines
    assert first[0] == "  value:" and "vjp" in " ".join(first) and "jvp" in " ".join(first)
    assert "expected: {value: [2.0, -2.0], vjp: [2.0, 2.0], jvp: [2.0, 2.0]}" in new
    spec.build(__import__("yaml").safe_load(new), path)  # it loads


def test_large_arrays_are_shown_compactly():
    old = np.arange(200, dtype=np.float32).reshape(10, 20)
    new = old.copy()
    new[2, 7] = 0.5
    new[9, 19] = -0.0
    new[0, 0] = -0.0  # -0.0 differs from the stored 0.0
    lines = fill.change_lines("values", old, new)
    assert lines[0] == "  values: 3 of 200 entries differ (float32, shape (10, 20))"
    assert "    [2, 7]: 47.0 -> 0.5" in lines and "    [0, 0]: 0.0 -> -0.0" in lines
    assert len(lines) == 4 and all(len(line) < 80 for line in lines)
    assert fill.same(np.array([np.nan, 1.0], np.float32), np.array([np.nan, 1.0]))
    assert not fill.same(np.array([0.0], np.float32), np.array([-0.0]))


def test_replace_expected_keeps_every_other_byte():
    text = ("examples:\n"
            "  - {name: a, input: {x: [1.0]}, expected: [1.0]}  # flow, kept\n"
            "  - name: b\n"
            "    input: {x: [2.0]}\n"
            "    expected:   # block\n"
            "      values: [2.0]   # this field changes\n"
            "      grads: [9.0]    # this one does not\n"
            "    note: after\n"
            "  - name: c\n"
            "    expected:\n"
            "      - 3.0\n"
            "    input: {x: [3.0]}\n")
    out = fill.replace_expected(text, [("examples", 0, "[5.0]", {}),
                                       ("examples", 1, "{values: [6.0], grads: [9.0]}", {"values": "[6.0]"}),
                                       ("examples", 2, "[7.0]", {})], Path("s.yaml"))
    assert out == text.replace("expected: [1.0]}", "expected: [5.0]}") \
        .replace("values: [2.0]   #", "values: [6.0]   #") \
        .replace("    expected:\n      - 3.0\n", "    expected: [7.0]\n")


def test_replace_expected_refuses_an_alias():
    text = "examples:\n  - {name: a, expected: &e [1.0]}\n  - {name: b, expected: *e}\n"
    with pytest.raises(JudgeError, match="alias"):
        fill.replace_expected(text, [("examples", 1, "[2.0]", {})], Path("s.yaml"))


def test_a_crashing_reference_names_its_file_and_leaves_the_spec(tmp_path):
    path, text = _edited_fake_quant(tmp_path)
    ref = path.parent.parent / "reference" / "fake_quant_ste.py"
    ref.write_text("def fake_quant_ste(x, scale, qmin, qmax, cotangent):\n    raise ValueError('broken')\n")
    r = judge("fill", str(path), "--refresh", "--write", env=_env(), cwd=tmp_path)
    assert r.returncode == 2
    assert "fake_quant_ste.py" in r.stderr and "ValueError" in r.stderr
    assert f"{path} was not changed" in r.stderr and "Traceback" not in r.stderr
    assert path.read_text() == text


def test_an_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    path, text = _edited_fake_quant(tmp_path)

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fill.refresh(str(path), write=True)
    monkeypatch.undo()
    assert path.read_text() == text
    assert sorted(p.name for p in path.parent.iterdir()) == ["fake_quant_ste.yaml"]  # no temp file


def test_fill_without_refresh_is_unchanged(tmp_path):
    root = _copy(tmp_path, "fake_quant_ste")
    path = root / "problems" / "fake_quant_ste.yaml"
    text = path.read_text()
    r = judge("fill", str(path), env=_env(), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == text and "nothing to do" in r.stderr


# --- 3: generators return a submission's shape -----------------------------------------------------

def test_alternatives_may_return_the_output_as_a_submission_does(first_load):
    ema, fq, sign = spec.load("ema_scan"), spec.load("fake_quant_ste"), spec.load("sign_ste")
    arr = np.zeros(3, np.float32)
    assert as_fields(ema, arr, "g.py")["value"] is arr
    assert as_fields(ema, {"value": arr}, "g.py") == {"value": arr}
    assert as_fields(sign, {"value": arr, "vjp": arr}, "g.py")["vjp"] is arr
    assert as_fields(fq, {"values": arr}, "g.py") == {"values": arr}
    with pytest.raises(JudgeError, match=r"generators/fq\.py: alternative 'a'.*returned tuple, not a dict "
                                         r"of the output's fields \(values, grads\)"):
        as_fields(fq, (arr, arr), "generators/fq.py: alternative 'a' on c")
    with pytest.raises(JudgeError, match="returned NoneType, not the output array"):
        as_fields(ema, None, "generators/ema_scan.py: alternative 'a' on c")


def test_generate_with_bare_array_alternatives_and_a_wrong_shape(tmp_path):
    root = _copy(tmp_path, "ema_scan", generator=True)
    gen = root / "generators" / "ema_scan.py"
    source = gen.read_text()
    bare, n = re.subn(r'return \{"value": (.+)\}\n', r"return \1\n", source)
    assert n == 3
    gen.write_text(bare)
    r = judge("generate", "ema_scan", "--count", "2", "--seed", "1", env=_env(), cwd=root)
    assert r.returncode == 0, r.stderr
    assert "AttributeError" not in r.stderr and r.stdout.count("- name: gen_") == 2
    gen.write_text(source.replace('return {"value": np.array(out).astype(F32)}',
                                  'return (np.array(out).astype(F32),)'))
    r = judge("generate", "ema_scan", "--count", "2", "--seed", "1", env=_env(), cwd=root)
    assert r.returncode == 2
    assert "generators/ema_scan.py: alternative 'float64_recurrence'" in r.stderr
    assert "returned tuple, not the output array" in r.stderr and "Traceback" not in r.stderr


# --- 4: the JSON report shows expected and got alike -------------------------------------------------

def test_as_returned_unwraps_an_array_output_and_keeps_a_probe_beside_its_probe():
    sign, fq = spec.load("sign_ste"), spec.load("fake_quant_ste")
    details = {"expected": {"value": [1.0], "vjp": [2.0], "jvp": [3.0]},
               "diff": {"expected": {"value": [1.0], "vjp": [2.0], "jvp": [3.0]}, "got": {"vjp": [0.0]},
                        "field": "vjp"}}
    out = example_diff.as_returned(details, sign)
    assert out["expected"] == [1.0] and out["diff"]["expected"] == {"vjp": [2.0]}
    details["diff"] = {**details["diff"], "field": "value", "got": [0.0]}
    assert example_diff.as_returned(details, sign)["diff"]["expected"] == [1.0]
    fields = {"expected": {"values": [1.0], "grads": [2.0]}}
    assert example_diff.as_returned(fields, fq) == fields


def _json_grade(*args):
    r = judge("grade", *args, "--format", "json")
    assert r.returncode == 1, r.stderr
    return json.loads(r.stdout)


def test_json_report_expected_and_got_have_the_same_shape_and_hidden_stay_masked():
    report = _json_grade(str(ROOT / "submissions/sign_ste/wrong_answer/identity.py"), "-p", "sign_ste")
    failing = [c for c in report["cases"] if c["visibility"] == "example" and c["verdict"] != "AC"]
    assert failing
    for c in failing:
        assert isinstance(c["expected"], list) and isinstance(c["got"], list), c
    assert failing[0]["expected"] == [-1.0, 0.0, 0.0, 1.0, 1.0]
    hidden = [c for c in report["cases"] if c["visibility"] == "hidden"]
    assert hidden and not [c for c in hidden if {"expected", "got", "inputs", "name"} & set(c)]
    report = _json_grade(str(ROOT / "submissions/sign_ste/wrong_answer/plain_sign.py"), "-p", "sign_ste",
                         "--examples-only")
    c = next(c for c in report["cases"] if c["reason"] == "wrong_vjp")
    assert set(c["expected"]) == set(c["got"]) == {"vjp"}
    report = _json_grade(str(ROOT / "submissions/fake_quant_ste/wrong_answer/strict_mask.py"),
                         "-p", "fake_quant_ste", "--examples-only")
    c = next(c for c in report["cases"] if c["verdict"] == "WA")
    assert set(c["expected"]) == set(c["got"]) == {"values", "grads"}


# --- 5: judge schema ---------------------------------------------------------------------------------

SCHEMA = ROOT / "judge" / "schema" / "problem.schema.json"


def test_schema_prints_the_package_schema_anywhere(tmp_path):
    r = judge("schema", env=_env(), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == SCHEMA.read_text()
    json.loads(r.stdout)


def test_schema_write_next_to_the_specs_and_names_the_line(tmp_path):
    r = judge("schema", "--write", str(tmp_path), env=_env(), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "problem.schema.json").read_text() == SCHEMA.read_text()
    assert "# yaml-language-server: $schema=problem.schema.json" in r.stderr
    spec_file = tmp_path / "problems" / "double.yaml"
    spec_file.parent.mkdir()
    spec_file.write_text("id: double\n")
    r = judge("schema", "--write", str(spec_file), env=_env(), cwd=tmp_path)
    assert r.returncode == 0 and (spec_file.parent / "problem.schema.json").is_file()
    r = judge("schema", "--write", str(tmp_path / "notes.txt"), env=_env(), cwd=tmp_path)
    assert r.returncode == 2 and "notes.txt" in r.stderr and not (tmp_path / "notes.txt").exists()


def test_bundled_specs_and_docs_point_at_a_schema_that_exists():
    readme = (ROOT / "docs" / "authors" / "spec.md").read_text()
    for path in sorted((ROOT / "problems").glob("*.yaml")):
        first = path.read_text().splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        target = (path.parent / first.split("$schema=", 1)[1]).resolve()
        assert target == SCHEMA.resolve(), path
        assert first in readme
    assert "judge schema --write problems/" in readme
    assert "# yaml-language-server: $schema=problem.schema.json" in readme


# --- 6: one naming rule for batch rows -----------------------------------------------------------------

def _class(tmp_path: Path) -> Path:
    cls = tmp_path / "class"
    cls.mkdir()
    (cls / "alice.py").write_text("# a file\n")
    (cls / "alice").mkdir()
    (cls / "alice" / "solution.py").write_text("# a folder of the same name\n")
    (cls / "bob").mkdir()
    (cls / "bob" / "solution.py").write_text("# bob\n")
    (cls / "carl.py").write_text("# carl\n")
    os.symlink("carl.py", cls / "dan.py")
    return cls


def test_rows_are_named_by_the_entry_and_clashes_are_kept_apart(tmp_path):
    entries = batch.collect(_class(tmp_path), "f")
    assert [(e.key, e.name) for e in entries] == [
        ("alice", "alice/"), ("alice.py", "alice.py"), ("bob", "bob"), ("carl.py", "carl"),
        ("dan.py", "dan")]
    assert next(e for e in entries if e.key == "dan.py").problem_note.startswith("dan.py: is a symbolic link")
    assert len({e.name for e in entries}) == len(entries)


def test_batch_rows_journal_and_resume_follow_the_rule(fq_problem, tmp_path, monkeypatch):
    cls = _class(tmp_path)

    def fake_grade(problem, taken, **kwargs):
        return GradeResult(problem=problem.id, submission=str(taken), verdict=Verdict.AC,
                           reason="ok", message="all passed", time_s=0.1, cases=())

    monkeypatch.setattr(batch, "grade", fake_grade)
    journal = tmp_path / "j.jsonl"
    records = batch.run_batch(fq_problem, cls, journal, secret=b"k" * 32)
    assert [(r["submission"], r["key"], r["verdict"]) for r in records] == [
        ("alice/", "alice", "AC"), ("alice.py", "alice.py", "AC"), ("bob", "bob", "AC"),
        ("carl", "carl.py", "AC"), ("dan", "dan.py", "CE")]
    (cls / "alice").rename(tmp_path / "gone")  # alice.py no longer clashes: its row is alice again
    calls = []
    monkeypatch.setattr(batch, "grade", lambda *a, **k: calls.append(a) or fake_grade(*a, **k))
    records = batch.run_batch(fq_problem, cls, journal, resume=True, secret=b"k" * 32)
    assert [r["submission"] for r in records] == ["alice", "bob", "carl", "dan"]
    assert calls == []  # every grade reused from the journal, by its exact entry


# --- 7: the docs' walk-through (docs/authors/fill.md) is what the commands print -----------------------------------------

def test_a_dict_output_keeps_the_spec_order_of_its_fields_when_loaded_again(tmp_path, monkeypatch):
    """`judge show` lists the fields, and `judge fill` and `judge generate` write them, in the
    spec's order; loading a spec the second time (from the spec cache) must not change it."""
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path))
    loads = [[f.name for f in spec.load("fake_quant_ste").fields] for _ in range(2)]
    assert loads == [["values", "grads"]] * 2


def test_docs_walk_through_is_true(tmp_path, first_load):
    readme = (ROOT / "docs" / "authors" / "fill.md").read_text()
    shown = readme.split("<!-- judge show fake_quant_ste: from \"## Signature\" to \"## Limits\" -->\n```\n")[1]
    shown = shown.split("```")[0]
    text = render(spec.load("fake_quant_ste"))
    assert shown in text, shown
    block = readme.split("<!-- judge fill fake_quant_ste --refresh, after that edit -->\n```\n")[1]
    block = block.split("```")[0]
    expected_out = block.split("\n", 1)[1]
    root = _copy(tmp_path, "fake_quant_ste")
    path = root / "problems" / "fake_quant_ste.yaml"
    path.write_text(path.read_text().replace("x: [0.3, 1.25, -0.75, 2.6, -3.0]",
                                             "x: [0.8, 1.25, -0.75, 2.6, -3.0]", 1))
    r = judge("fill", "fake_quant_ste", "--refresh", env=_env(), cwd=root)
    assert r.returncode == 1
    assert r.stdout + r.stderr.splitlines()[-1] + "\n" == expected_out
