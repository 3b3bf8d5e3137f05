"""judge batch for an instructor: per-group scores and hints in every format, a feedback file and a
Gradescope results.json per student (never hidden data), look-alikes, and --restart."""

import csv
import io
import json
import subprocess
import sys
import textwrap

import pytest

from judge.errors import JudgeError
from judge.grade import batch
from judge.problem import spec
from judge.reports import batch_report, handout
from tests.test_third_problem import SOLUTIONS, SPEC

#: axpy with two scoring groups, a hint whose code a student may copy, and a hidden case whose
#: numbers (4321.5, 9876.25) and name (secret_big) must never reach a student.
SCORED_SPEC = SPEC + textwrap.dedent("""\
      - name: secret_big
        input: {x: [4321.5], y: [9876.25], alpha: 1.0}
        probe: {cotangent: [1.0], tangent: [1.0]}
        expected: {value: [14197.75], vjp: [1.0], jvp: [1.0]}
    hints:
      - Scale x first, then add y, as in `scaled = alpha * x` followed by `scaled + y`.
    scoring:
      groups:
        - {name: basics, points: 40, cases: [basic]}
        - {name: edges, points: 60, cases: ["*"]}
    """)

WRONG_SIGN = "def axpy(x, y, alpha):\n    return alpha * x - y\n"
#: An honest solution long enough to be fingerprinted.
HONEST = textwrap.dedent('''\
    import jax.numpy as jnp


    def _scale(values, factor):
        """Multiply every entry by factor."""
        out = jnp.asarray(values) * factor
        return out.astype(jnp.asarray(values).dtype)


    def _shift(values, offset):
        total = jnp.add(values, offset)
        return jnp.asarray(total, dtype=jnp.result_type(values))


    def axpy(x, y, alpha):
        scaled = _scale(x, alpha)
        return _shift(scaled, y)
    ''')
#: HONEST renamed, commented, re-spaced and with its helpers in the other order.
DISGUISED = textwrap.dedent('''\
    # my own work!!
    import jax.numpy as np_


    def add_on(vals, off):   # adds
        summed = np_.add(vals,   off)
        return np_.asarray(summed, dtype=np_.result_type(vals))


    def axpy(x, y, alpha):
        # scale then shift
        tmp = mult(x, alpha)

        return add_on(tmp, y)


    def mult(a, k):
        res = np_.asarray(a) * k
        return res.astype(np_.asarray(a).dtype)
    ''')
#: Another honest solution sharing the hint's code (the starter) but otherwise its own.
OTHER = textwrap.dedent('''\
    import jax.numpy as jnp


    def axpy(x, y, alpha):
        scaled = alpha * x
        result = scaled + y
        result = jnp.where(jnp.isfinite(result), result, result)
        return result.astype(jnp.result_type(x, y))
    ''')
OTHER_TOO = textwrap.dedent('''\
    import jax.numpy as jnp


    def axpy(x, y, alpha):
        scaled = alpha * x
        out = jnp.add(scaled, y)
        out = out.reshape(jnp.shape(x))
        return jnp.asarray(out, dtype=jnp.asarray(x).dtype)
    ''')


def write_package(root, students: dict):
    (root / "problems").mkdir()
    (root / "problems" / "axpy.yaml").write_text(SCORED_SPEC)
    (root / "reference").mkdir()
    (root / "reference" / "axpy.py").write_text(SOLUTIONS["reference/axpy.py"])
    known = root / "submissions" / "axpy" / "wrong_answer"
    known.mkdir(parents=True)
    (known / "wrong_sign.py").write_text(WRONG_SIGN)
    (root / "submissions" / "axpy" / "submissions.yaml").write_text(
        "wrong_answer/wrong_sign.py: {hint: 'Add y; do not subtract it.'}\n")
    cls = root / "class"
    cls.mkdir()
    for name, text in students.items():
        path = cls / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of five, graded once into every format."""
    root = write_package(tmp_path_factory.mktemp("scored"), {
        "ann.py": HONEST, "bea/solution.py": DISGUISED, "cy.py": WRONG_SIGN,
        "dee.py": SOLUTIONS["submissions/axpy/wrong_answer/sum_first.py"],
        "eve/notes.txt": "nothing here\n"})
    run = subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy",
                          "--format", "json", "--out", "class.json", "--journal", "j.jsonl",
                          "--feedback", "feedback"],
                         cwd=root, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return root, run


def test_the_json_report_has_each_groups_score_failing_cases_and_hint(graded):
    root, _ = graded
    report = json.loads((root / "class.json").read_text())
    assert report["version"] == 4
    rows = {r["submission"]: r for r in report["results"]}
    assert list(rows["ann"]) == list(batch_report.COLUMNS + batch_report.ADDED)
    assert rows["ann"]["groups"] == [
        {"name": "basics", "score": 40, "max_score": 40, "failed": []},
        {"name": "edges", "score": 60, "max_score": 60, "failed": []}]
    # right on the example, wrong on hidden 1 (alpha = 0): the group is lost, the case named by number
    assert rows["dee"]["groups"] == [
        {"name": "basics", "score": 40, "max_score": 40, "failed": []},
        {"name": "edges", "score": 0, "max_score": 60, "failed": ["hidden 1"]}]
    assert rows["dee"]["score"] == 40 and rows["dee"]["hint"] == ""
    cy = rows["cy"]
    assert cy["groups"][0]["failed"] == ["example 0 (basic)"]
    assert cy["hint"] == "Add y; do not subtract it."
    assert rows["eve"]["verdict"] == "CE" and rows["eve"]["groups"] == []


def test_the_csv_has_a_column_per_group_the_hint_and_the_look_alikes(graded):
    root, _ = graded
    out = root / "class.csv"
    run = subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy",
                          "--format", "csv", "--out", str(out), "--journal", "j.jsonl", "--resume"],
                         cwd=root, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert list(rows[0])[-5:] == ["source_gate", "hint", "similar_to", "group:basics",
                                  "group:edges"]
    by = {r["submission"]: r for r in rows}
    assert (by["dee"]["group:basics"], by["dee"]["group:edges"]) == ("40", "0")
    assert by["cy"]["hint"] == "Add y; do not subtract it."
    assert by["ann"]["similar_to"] == "bea" and by["bea"]["similar_to"] == "ann"
    assert by["cy"]["similar_to"] == "" and by["eve"]["group:edges"] == ""


def test_the_text_summary_shows_groups_hints_and_look_alikes(graded):
    _, run = graded
    assert "groups (submissions that earned each):" in run.stdout
    assert "  basics  3/5" in run.stdout and "  edges   2/5" in run.stdout
    assert "1 submission (cy): Add y; do not subtract it." in run.stdout
    assert "look-alikes (the same program up to names, comments and order):\n  ann, bea" in run.stdout


def test_feedback_is_what_judge_grade_shows_and_never_hidden_data(graded):
    root, run = graded
    files = sorted(p.name for p in (root / "feedback").iterdir())
    assert files == ["ann.txt", "bea.txt", "cy.txt", "dee.txt", "eve.txt"]
    grade = subprocess.run([sys.executable, "-m", "judge", "grade", "class/cy.py", "-p", "axpy"],
                           cwd=root, capture_output=True, text=True, timeout=300)
    cy = (root / "feedback" / "cy.txt").read_text()
    strip_times = lambda t: [line.split("s  ")[-1] if "s  " in line else line  # noqa: E731
                             for line in t.splitlines() if " in " not in line]
    assert cy.splitlines()[0] == "axpy: cy.py"  # the file as the class folder holds it
    assert strip_times(cy)[1:] == strip_times(grade.stdout)[1:]
    assert "basics  0/40  failed: example 0 (basic)" in cy
    assert "hint: Add y; do not subtract it." in cy and "expected: " in cy
    assert "edges   0/60  failed: hidden 1" in (root / "feedback" / "dee.txt").read_text()
    assert "CE (Compile error) [no_submission]" in (root / "feedback" / "eve.txt").read_text()
    for path in (root / "feedback").iterdir():
        text = path.read_text()
        for secret in ("4321.5", "9876.25", "14197.75", "secret_big", "zero_alpha",
                       "half_precision"):
            assert secret not in text, (path.name, secret)


def test_gradescope_for_the_class_is_judge_grades_results_json_per_student(graded):
    root, _ = graded
    run = subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy",
                          "--format", "gradescope", "--out", "gs", "--journal", "j.jsonl",
                          "--resume"], cwd=root, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (root / "gs").iterdir()) == ["ann", "bea", "cy", "dee", "eve"]
    grade = subprocess.run([sys.executable, "-m", "judge", "grade", "class/dee.py", "-p", "axpy",
                            "--format", "gradescope"], cwd=root, capture_output=True, text=True,
                           timeout=300)
    dee = json.loads((root / "gs" / "dee" / "results.json").read_text())
    assert dee == json.loads(grade.stdout)
    assert dee["score"] == 40.0 and [t["score"] for t in dee["tests"]] == [40.0, 0.0]
    eve = json.loads((root / "gs" / "eve" / "results.json").read_text())
    assert eve["score"] == 0.0 and "no_submission" in eve["output"]
    for path in (root / "gs").rglob("results.json"):
        for secret in ("4321.5", "9876.25", "secret_big"):
            assert secret not in path.read_text()


def test_results_folders_inside_the_class_are_refused(graded):
    root, _ = graded
    for extra in (["--feedback", "class/fb"], ["--format", "gradescope", "--out", "class/gs"]):
        run = subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy",
                              "--journal", "other.jsonl", *extra], cwd=root, capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 2 and "inside the class folder" in run.stderr
        assert not (root / "class" / "fb").exists() and not (root / "class" / "gs").exists()


def test_a_link_where_a_students_results_go_is_never_written_through(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "gs").mkdir()
    (tmp_path / "gs" / "ann").symlink_to(elsewhere)
    record = {"submission": "ann", "verdict": "CE", "reason": "no_submission", "message": "none",
              "max_score": 3}
    with pytest.raises(JudgeError, match="never written through"):
        handout.write_gradescope(tmp_path / "gs", [record])
    assert list(elsewhere.iterdir()) == []
    assert handout.file_name({"submission": "alice/"}) == "alice"
    long = handout.file_name({"submission": "x" * 300})
    assert len(long) < 100 and long != handout.file_name({"submission": "x" * 301})


def test_a_students_file_name_stays_in_the_folder_and_one_line(tmp_path):
    """Rows are named by the escaped entry (``intake.shown``): a control character or an
    undecodable byte is spelled out; a name that could leave the folder is never used as is."""
    names = ["\\x1b[2J", "tab\\tname", "\\udcff", "../up", "..", "a/b"]
    written = handout.write_feedback(tmp_path / "fb", "axpy", [
        {"submission": n, "verdict": "CE", "reason": "no_submission", "message": "none",
         "max_score": 3} for n in names])
    assert len(set(written)) == len(names)
    assert all(p.parent == tmp_path / "fb" and p.is_file() for p in written)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fb"]


def test_restart_replaces_the_journal_and_grades_again(tmp_path):
    root = write_package(tmp_path, {"cy.py": WRONG_SIGN})
    problem = spec.load("axpy", root=root)
    journal = root / "j.jsonl"
    first = batch.run_batch(problem, root / "class", journal)
    old_id = json.loads(journal.read_text().splitlines()[0])["id"]
    with pytest.raises(JudgeError, match="--restart"):
        batch.run_batch(problem, root / "class", journal)
    (root / "class" / "cy.py").write_text(SOLUTIONS["submissions/axpy/accepted/plain.py"])
    again = batch.run_batch(problem, root / "class", journal, restart=True)
    lines = journal.read_text().splitlines()
    assert json.loads(lines[0])["id"] != old_id and len(lines) == 2
    assert (first[0]["verdict"], again[0]["verdict"]) == ("WA", "AC")
    journal.write_text("not a journal\n")  # even a damaged journal is started over
    assert batch.run_batch(problem, root / "class", journal, restart=True)[0]["verdict"] == "AC"
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".j.jsonl")) == []


def test_restart_and_resume_together_are_a_usage_error(tmp_path):
    run = subprocess.run([sys.executable, "-m", "judge", "batch", str(tmp_path), "-p", "axpy",
                          "--resume", "--restart"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "not allowed with argument" in run.stderr
