"""judge batch: collection of a class folder, the resumable journal, and the reports."""

import json
import subprocess
import sys

import pytest

from judge.grade import batch
from judge.problem import spec
from judge.errors import JudgeError
from judge.reports.progress import Progress
from tests.test_third_problem import SOLUTIONS, SPEC


@pytest.fixture()
def package(tmp_path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "axpy.yaml").write_text(SPEC)
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "axpy.py").write_text(SOLUTIONS["reference/axpy.py"])
    cls = tmp_path / "class"
    cls.mkdir()
    (cls / "ann.py").write_text(SOLUTIONS["submissions/axpy/accepted/plain.py"])
    (cls / "ben").mkdir()
    (cls / "ben" / "solution.py").write_text(SOLUTIONS["submissions/axpy/wrong_answer/sum_first.py"])
    (cls / "ben" / "notes.py").write_text("# scratch\n")
    (cls / "cat").mkdir()
    (cls / "cat" / "README.txt").write_text("forgot to upload\n")
    (cls / "dan").mkdir()
    (cls / "dan" / "broken.py").write_text("def axpy(x, y, alpha)\n")
    return tmp_path


def test_collect_picks_one_file_per_student(package):
    entries = {e.name: e for e in batch.collect(package / "class", "axpy")}
    assert sorted(entries) == ["ann.py", "ben", "cat", "dan"]
    assert entries["ben"].path.name == "solution.py"
    assert entries["cat"].path is None and "no .py file" in entries["cat"].problem_note
    assert entries["dan"].path.name == "broken.py"


def test_batch_grades_everyone_and_resumes(package):
    problem = spec.load("axpy", root=package)
    journal = package / "out.journal.jsonl"
    records = batch.run_batch(problem, package / "class", journal, jobs=2)
    assert [(r["submission"], r["verdict"]) for r in records] == [
        ("ann.py", "AC"), ("ben", "WA"), ("cat", "CE"), ("dan", "CE")]
    assert records[2]["reason"] == "no_submission"

    with pytest.raises(JudgeError, match="--resume"):
        batch.run_batch(problem, package / "class", journal)

    # an interrupted write leaves a torn last line: resume ignores it and regrades only what changed
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(line for line in lines if '"ann.py"' not in line) + "\n" + lines[-1][:20])
    (package / "class" / "dan" / "broken.py").write_text(SOLUTIONS["submissions/axpy/accepted/plain.py"])
    progress = Progress(0, stream=open("/dev/null", "w"))
    records = batch.run_batch(problem, package / "class", journal, resume=True, progress=progress)
    assert progress.total == 2  # ann (lost from the journal) and dan (changed)
    assert [r["verdict"] for r in records] == ["AC", "WA", "CE", "AC"]
    for line in journal.read_text().splitlines():
        json.loads(line)


def test_cli_writes_report_atomically_in_the_chosen_format(package):
    out = package / "results.csv"
    r = subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy", "--format", "csv",
                        "--out", str(out)], cwd=package, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = out.read_text().splitlines()
    assert rows[0] == "submission,verdict,reason,passed,total,time_s,message,source_gate"
    assert rows[1].startswith("ann.py,AC,ok,3,3,")
    assert "1 AC, 1 WA, 2 CE" in r.stdout
    assert "[4/4]" in r.stderr  # plain progress lines when stderr is not a terminal


def _batch(package, *args):
    return subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy", *args],
                          cwd=package, capture_output=True, text=True, timeout=300)


def test_a_batch_says_how_it_was_graded_and_never_resumes_with_the_gate_the_other_way(package):
    for extra in ("ben", "cat", "dan"):  # ann alone keeps the test quick
        subprocess.run(["rm", "-r", str(package / "class" / extra)], check=True)
    r = _batch(package, "--format", "json", "--out", "off.json", "--source-gate", "off")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("source gate disabled") == 1
    report = json.loads((package / "off.json").read_text())
    assert report["version"] == 2 and report["source_gate"] is False
    assert [(x["submission"], x["verdict"], x["source_gate"]) for x in report["results"]] == \
        [("ann.py", "AC", False)]
    assert "source gate: off for 1 submission" in r.stdout
    header = json.loads((package / "off.json.journal.jsonl").read_text().splitlines()[0])
    assert header["source_gate"] is False

    (package / "class" / "ann.py").write_text((package / "class" / "ann.py").read_text() + "\n# v2\n")
    r = _batch(package, "--format", "json", "--out", "off.json", "--resume")  # the gate is on by default
    assert r.returncode == 2
    assert "graded with the source gate off; resume it with --source-gate off" in r.stderr
    assert "Traceback" not in r.stderr
    assert json.loads((package / "off.json").read_text())["source_gate"] is False  # report untouched

    r = _batch(package, "--format", "csv", "--out", "on.csv")
    assert r.returncode == 0, r.stderr
    rows = (package / "on.csv").read_text().splitlines()
    assert rows[0].endswith(",message,source_gate") and rows[1].endswith(",on")
    assert "source gate" not in r.stdout


def test_a_file_name_a_student_chose_cannot_crash_or_redraw_the_batch_report(package):
    for extra in ("ben", "cat", "dan"):
        subprocess.run(["rm", "-r", str(package / "class" / extra)], check=True)
    hostile = package.joinpath("class").__bytes__() + b"/\x1b[2J\xff\xfe.py"
    with open(hostile, "wb") as f:
        f.write(b"def axpy(x, y, alpha)\n")  # a syntax error: CE, no worker needed
    for fmt in ("text", "csv", "json"):
        r = _batch(package, "--format", fmt, "--out", f"r.{fmt}")
        assert r.returncode == 0, r.stderr
        assert "\x1b" not in r.stdout + r.stderr + (package / f"r.{fmt}").read_text()
        assert "\\x1b[2J" in (package / f"r.{fmt}").read_text()
        (package / f"r.{fmt}.journal.jsonl").unlink()


def _journal(path, *lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


HEADER = {"journal": 2, "problem": "axpy", "source_gate": True, "sandbox": "bwrap"}
RECORD = {"submission": "ann.py", "sha256": "x", "verdict": "AC", "source_gate": True, "sandbox": "bwrap"}


@pytest.mark.parametrize("lines, how, why", [
    ([HEADER, RECORD], {"source_gate": False, "sandbox": "bwrap"}, "this batch was graded with the source gate on"),
    ([HEADER, RECORD], {"source_gate": True, "sandbox": "none"}, "graded with the sandbox bwrap; resume it with --sandbox bwrap"),
    ([{**HEADER, "source_gate": False}, RECORD], {"source_gate": False, "sandbox": "bwrap"}, "line 2 was graded with the source gate on"),
    ([RECORD], {"source_gate": True, "sandbox": "bwrap"}, "line 1 comes before the journal's header"),
    ([HEADER, [1, 2]], {"source_gate": True, "sandbox": "bwrap"}, "line 2 is not a journal record"),
    ([HEADER, {"verdict": "AC"}], {"source_gate": True, "sandbox": "bwrap"}, "line 2 is not a journal record"),
])
def test_resume_refuses_a_journal_graded_another_way_or_damaged(tmp_path, lines, how, why):
    path = _journal(tmp_path / "j.jsonl", *lines)
    before = path.read_text()
    with pytest.raises(JudgeError, match=why.replace("(", r"\(")):
        batch.Journal(path, "axpy", resume=True, how=how)
    assert path.read_text() == before  # a refused journal is left as it was


def test_resume_accepts_the_same_way_an_old_journal_and_a_sandbox_that_had_failed(tmp_path):
    old = _journal(tmp_path / "v1.jsonl", {"journal": 1, "problem": "axpy"},
                   {"submission": "ann.py", "sha256": "x", "verdict": "AC"})
    assert set(batch.Journal(old, "axpy", resume=True, how={"source_gate": True, "sandbox": "none"}).records) == {"ann.py"}
    with pytest.raises(JudgeError, match="source gate on"):
        batch.Journal(old, "axpy", resume=True, how={"source_gate": False, "sandbox": "none"})
    failed = _journal(tmp_path / "ie.jsonl", {**HEADER, "sandbox": None}, {**RECORD, "verdict": "IE", "sandbox": None})
    assert set(batch.Journal(failed, "axpy", resume=True, how={"source_gate": True, "sandbox": "bwrap"}).records) == {"ann.py"}


def test_resume_grades_again_the_submissions_the_judge_failed_on(package, monkeypatch):
    problem = spec.load(package / "problems" / "axpy.yaml")
    journal = package / "out.journal.jsonl"
    real = batch.grade
    monkeypatch.setattr(batch, "grade", lambda *a, **k: 1 / 0)
    records = batch.run_batch(problem, package / "class", journal, sandbox="none")
    assert {r["submission"]: r["verdict"] for r in records}["ann.py"] == "IE"
    monkeypatch.setattr(batch, "grade", real)
    progress = Progress()
    records = batch.run_batch(problem, package / "class", journal, resume=True, sandbox="none",
                              progress=progress)
    assert progress.total == 3  # ann, ben and dan were IE; cat (no file) is CE without grading
    assert {r["submission"]: r["verdict"] for r in records} == \
        {"ann.py": "AC", "ben": "WA", "cat": "CE", "dan": "CE"}
