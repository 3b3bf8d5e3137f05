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
    assert rows[0] == "submission,verdict,reason,passed,total,time_s,message"
    assert rows[1].startswith("ann.py,AC,ok,3,3,")
    assert "1 AC, 1 WA, 2 CE" in r.stdout
    assert "[4/4]" in r.stderr  # plain progress lines when stderr is not a terminal
