"""judge batch: collection of a class folder, the resumable journal, and the reports."""

import json
import subprocess
import sys

import pytest

from judge.grade import batch
from judge.grade import journal as journal_mod
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
    assert sorted(entries) == ["ann", "ben", "cat", "dan"]
    assert entries["ben"].parts == ("ben", "solution.py")
    assert entries["cat"].parts is None and "no .py file" in entries["cat"].problem_note
    assert entries["cat"].reason == "no_submission"
    assert entries["dan"].parts == ("dan", "broken.py")
    (package / "class" / "ben" / "deeper").mkdir()
    (package / "class" / "ben" / "deeper" / "solution.py").write_text("# an older try\n")
    entries = {e.name: e for e in batch.collect(package / "class", "axpy")}
    assert entries["ben"].parts == ("ben", "solution.py")  # the shallowest of its name


def test_batch_grades_everyone_and_resumes(package):
    problem = spec.load("axpy", root=package)
    journal = package / "out.journal.jsonl"
    records = batch.run_batch(problem, package / "class", journal, jobs=2)
    assert [(r["submission"], r["verdict"]) for r in records] == [
        ("ann", "AC"), ("ben", "WA"), ("cat", "CE"), ("dan", "CE")]
    assert records[2]["reason"] == "no_submission"

    with pytest.raises(JudgeError, match="--resume"):
        batch.run_batch(problem, package / "class", journal)

    # an interrupted write leaves a torn last line: resume ignores it and regrades only what changed
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(line for line in lines if '"ann.py"' not in line) + "\n" + lines[-1][:20])
    (package / "class" / "dan" / "broken.py").write_text(SOLUTIONS["submissions/axpy/accepted/plain.py"])
    progress = Progress(0, stream=open("/dev/null", "w"))
    records = batch.run_batch(problem, package / "class", journal, resume=True, progress=progress)
    # ann (lost from the journal) and dan (changed); cat's row, which grades nothing, is made again
    assert progress.total == 3
    assert [r["verdict"] for r in records] == ["AC", "WA", "CE", "AC"]
    for line in journal.read_text().splitlines():
        json.loads(line)


def test_cli_writes_report_atomically_in_the_chosen_format(package):
    out = package / "results.csv"
    r = subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy", "--format", "csv",
                        "--out", str(out), "--journal", "j.jsonl"], cwd=package, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = out.read_text().splitlines()
    assert rows[0] == ("submission,verdict,reason,passed,total,score,max_score,time_s,message,"
                       "source_gate,hint,similar_to,group:example 0 (basic),group:hidden 0,"
                       "group:hidden 1")
    assert rows[1].startswith("ann,AC,ok,3,3,3,3,")  # no scoring in the spec: a point per case
    assert "1 AC, 1 WA, 2 CE" in r.stdout
    assert "[4/4]" in r.stderr  # plain progress lines when stderr is not a terminal


def _batch(package, *args):
    return subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy", *args],
                          cwd=package, capture_output=True, text=True, timeout=300)


def test_a_batch_says_how_it_was_graded_and_never_resumes_with_the_gate_the_other_way(package):
    for extra in ("ben", "cat", "dan"):  # ann alone keeps the test quick
        subprocess.run(["rm", "-r", str(package / "class" / extra)], check=True)
    r = _batch(package, "--format", "json", "--out", "off.json", "--source-gate", "off",
               "--journal", "off.json.journal.jsonl")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("source gate disabled") == 1
    report = json.loads((package / "off.json").read_text())
    assert report["version"] == 4 and report["source_gate"] is False
    assert [(x["submission"], x["verdict"], x["source_gate"]) for x in report["results"]] == \
        [("ann", "AC", False)]
    assert "source gate: off for 1 submission" in r.stdout
    header = json.loads((package / "off.json.journal.jsonl").read_text().splitlines()[0])
    assert header["source_gate"] is False

    (package / "class" / "ann.py").write_text((package / "class" / "ann.py").read_text() + "\n# v2\n")
    r = _batch(package, "--format", "json", "--out", "off.json", "--resume",
               "--journal", "off.json.journal.jsonl")  # the gate is on by default
    assert r.returncode == 2
    assert "graded with the source gate off; resume it with --source-gate off" in r.stderr
    assert "Traceback" not in r.stderr
    assert json.loads((package / "off.json").read_text())["source_gate"] is False  # report untouched

    r = _batch(package, "--format", "csv", "--out", "on.csv", "--journal", "on.jsonl")
    assert r.returncode == 0, r.stderr
    rows = (package / "on.csv").read_text().splitlines()
    assert ",message,source_gate," in rows[0] and ",on," in rows[1]
    assert "source gate" not in r.stdout


def test_a_file_name_a_student_chose_cannot_crash_or_redraw_the_batch_report(package):
    for extra in ("ben", "cat", "dan"):
        subprocess.run(["rm", "-r", str(package / "class" / extra)], check=True)
    hostile = package.joinpath("class").__bytes__() + b"/\x1b[2J\xff\xfe.py"
    with open(hostile, "wb") as f:
        f.write(b"def axpy(x, y, alpha)\n")  # a syntax error: CE, no worker needed
    for fmt in ("text", "csv", "json"):
        r = _batch(package, "--format", fmt, "--out", f"r.{fmt}", "--journal", f"r.{fmt}.journal.jsonl")
        assert r.returncode == 0, r.stderr
        assert "\x1b" not in r.stdout + r.stderr + (package / f"r.{fmt}").read_text()
        assert "\\x1b[2J" in (package / f"r.{fmt}").read_text()
        (package / f"r.{fmt}.journal.jsonl").unlink()


SECRET = b"k" * 32
HEADER = {"journal": journal_mod.VERSION, "id": "j1", "problem": "axpy", "source_gate": True,
          "sandbox": "bwrap", "basis": "b"}
RECORD = {"key": "ann.py", "submission": "ann.py", "sha256": "x", "verdict": "AC",
          "source_gate": True, "sandbox": "bwrap", "basis": "b"}


def _journal(path, *lines, secret=SECRET, journal_id="j1"):
    """A journal file of ``lines``, each signed as the judge signs them (a list is written as it is)."""
    path.write_text("".join(json.dumps(journal_mod.sign(secret, journal_id, line)
                                       if isinstance(line, dict) else line) + "\n" for line in lines))
    return path


def _open(path, how, resume=True):
    return journal_mod.Journal(path, "axpy", resume=resume, how=how, basis="b", secret=SECRET)


@pytest.mark.parametrize("lines, how, why", [
    ([HEADER, RECORD], {"source_gate": False, "sandbox": "bwrap"}, "this batch was graded with the source gate on"),
    ([HEADER, RECORD], {"source_gate": True, "sandbox": "none"}, "graded with the sandbox bwrap; resume it with --sandbox bwrap"),
    ([{**HEADER, "source_gate": False}, RECORD], {"source_gate": False, "sandbox": "bwrap"}, "line 2 was graded with the source gate on"),
    ([RECORD], {"source_gate": True, "sandbox": "bwrap"}, "line 1 is not the header of a journal"),
    ([{**HEADER, "journal": 2}, RECORD], {"source_gate": True, "sandbox": "bwrap"}, "line 1 is not the header of a journal"),
    ([HEADER, [1, 2]], {"source_gate": True, "sandbox": "bwrap"}, "line 2 is not a journal record"),
    ([HEADER, {"verdict": "AC"}], {"source_gate": True, "sandbox": "bwrap"}, "line 2 is not a journal record"),
])
def test_resume_refuses_a_journal_graded_another_way_or_damaged(tmp_path, lines, how, why):
    path = _journal(tmp_path / "j.jsonl", *lines)
    before = path.read_text()
    with pytest.raises(JudgeError, match=why.replace("(", r"\(")):
        _open(path, how)
    assert path.read_text() == before  # a refused journal is left as it was


def test_resume_accepts_the_same_way_and_a_sandbox_that_had_failed(tmp_path):
    same = _journal(tmp_path / "same.jsonl", HEADER, RECORD)
    assert set(_open(same, {"source_gate": True, "sandbox": "bwrap"}).records) == {"ann.py"}
    failed = _journal(tmp_path / "ie.jsonl", {**HEADER, "sandbox": None}, {**RECORD, "verdict": "IE", "sandbox": None})
    assert set(_open(failed, {"source_gate": True, "sandbox": "bwrap"}).records) == {"ann.py"}


def test_resume_grades_again_the_submissions_the_judge_failed_on(package, monkeypatch):
    problem = spec.load(package / "problems" / "axpy.yaml")
    journal = package / "out.journal.jsonl"
    real = batch.grade
    monkeypatch.setattr(batch, "grade", lambda *a, **k: 1 / 0)
    records = batch.run_batch(problem, package / "class", journal, sandbox="none")
    assert {r["submission"]: r["verdict"] for r in records}["ann"] == "IE"
    monkeypatch.setattr(batch, "grade", real)
    progress = Progress()
    records = batch.run_batch(problem, package / "class", journal, resume=True, sandbox="none",
                              progress=progress)
    assert progress.total == 4  # ann, ben and dan were IE; cat's row (no file) is made again
    assert {r["submission"]: r["verdict"] for r in records} == \
        {"ann": "AC", "ben": "WA", "cat": "CE", "dan": "CE"}
