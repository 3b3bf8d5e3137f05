"""A batch takes only what each student wrote: links, FIFOs, devices, folders named ``*.py`` and
oversized files are refused unopened, each on its own row; names never share a row or a journal
key; a CSV cell never becomes a formula; the journal is the judge's own and is never trusted for
a stale or foreign verdict. Every class is built from scratch in a temporary folder.

Real grades are few (the tiny ``axpy`` problem of ``tests/test_third_problem.py``): hostile
entries are refused before any worker starts, and most non-AC students are refused by the
source gate, which needs no worker either.
"""

import csv
import io
import json
import os
import subprocess
import sys
import threading

import pytest

from judge.errors import JudgeError
from judge.grade import batch, grading, intake
from judge.grade import journal as journal_mod
from judge.problem import spec
from judge.reports import batch_report
from tests.helpers import ROOT
from tests.test_third_problem import SOLUTIONS, SPEC

HONEST = SOLUTIONS["submissions/axpy/accepted/plain.py"]
GATED = "import os\n\ndef axpy(x, y, alpha):\n    return alpha * x + y\n"  # RJ, never runs
FORMULAS = ('=HYPERLINK("http:__evil";"click").py', "@SUM(1+1).py", "+1+1.py", "-2+3.py")


@pytest.fixture()
def package(tmp_path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "axpy.yaml").write_text(SPEC)
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "axpy.py").write_text(SOLUTIONS["reference/axpy.py"])
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "bob.py").write_text(HONEST)
    return tmp_path


def _hostile_class(package):
    cls = package / "class"
    os.symlink("bob.py", cls / "mallory.py")
    os.symlink(ROOT / "reference" / "fake_quant_ste.py", cls / "thief.py")
    os.symlink(package / "reference" / "axpy.py", cls / "copycat.py")  # AC if followed
    os.symlink(package / "reference", cls / "eve")  # a student folder that is the reference's
    os.symlink("/", cls / "root")
    (cls / "carol").mkdir()
    os.symlink("../bob.py", cls / "carol" / "solution.py")
    (cls / "dora").mkdir()
    (cls / "dora" / "solution.py").mkdir()
    (cls / "dora" / "solution.py" / "notes.txt").write_text("a folder, not a file\n")
    os.symlink("nowhere.py", cls / "dangling.py")
    (cls / "fay").mkdir()
    os.mkfifo(cls / "fay" / "solution.py")
    os.mkfifo(cls / "pipe.py")
    os.symlink("/dev/zero", cls / "zero.py")
    with open(cls / "huge.py", "wb") as f:
        f.truncate(8 << 30)  # 8 GB, sparse
    (cls / "tab\tname.py").write_text(HONEST)  # the victim, with a TAB in its name
    (cls / "tab\\tname.py").write_text(GATED)  # the attacker, with a backslash and a t
    for name in FORMULAS:
        (cls / name).write_text(GATED)


REFUSED = {  # row (the entry, a file without its .py): what its row must say
    "mallory": "mallory.py: is a symbolic link",
    "thief": "thief.py: is a symbolic link",
    "copycat": "copycat.py: is a symbolic link",
    "eve": "eve: is a symbolic link; a student's folder must be the folder itself",
    "root": "root: is a symbolic link; a student's folder must be the folder itself",
    "carol": "carol/solution.py: is a symbolic link",
    "dora": "dora/solution.py: is a directory",
    "dangling": "dangling.py: is a symbolic link",
    "fay": "fay/solution.py: is a FIFO",
    "pipe": "pipe.py: is a FIFO",
    "zero": "zero.py: is a symbolic link",
    "huge": f"huge.py: is larger than {intake.MAX_BYTES} bytes ({8 << 30} bytes)",
}


def _batch(package, *args, env=None):
    return subprocess.run([sys.executable, "-m", "judge", "batch", "class", "-p", "axpy",
                           "--journal", str(package / "journal.jsonl"), *args],
                          cwd=package, capture_output=True, text=True, timeout=300, env=env)


def _graded(stderr: str) -> list[str]:
    """The submissions a batch graded, from its plain progress lines."""
    return [line.split("] ", 1)[1].rsplit(": ", 1)[0] for line in stderr.splitlines()
            if line.startswith("[") and "] " in line]


def test_a_hostile_class_finishes_with_a_row_each_and_resume_never_reports_a_stale_verdict(package):
    _hostile_class(package)
    r = _batch(package, "--format", "json", "--out", "r.json")
    assert r.returncode == 0, r.stderr
    rows = {x["submission"]: x for x in json.loads((package / "r.json").read_text())["results"]}
    assert rows["bob"]["verdict"] == "AC"
    assert rows["tab\\tname"]["verdict"] == "AC"  # the victim: TAB shown as \t
    assert (rows["tab\\\\tname"]["verdict"], rows["tab\\\\tname"]["reason"]) == \
        ("RJ", "forbidden_construct")  # the attacker: its own row, its own verdict
    for name, says in REFUSED.items():
        assert (rows[name]["verdict"], rows[name]["reason"]) == ("CE", "bad_submission_file"), name
        assert rows[name]["message"].startswith(says), (name, rows[name]["message"])
    for name in FORMULAS:
        assert rows[name[:-3]]["verdict"] == "RJ"
    assert len(rows) == 3 + len(REFUSED) + len(FORMULAS)
    assert "\t" not in r.stdout + r.stderr

    # the CSV of the same grades: no cell starts like a formula
    r = _batch(package, "--format", "csv", "--out", "r.csv", "--resume")
    assert r.returncode == 0, r.stderr
    assert "bob" not in _graded(r.stderr) and "tab\\tname" not in _graded(r.stderr)
    table = list(csv.reader(io.StringIO((package / "r.csv").read_text())))
    cells = [c for row in table[1:] for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    for name in FORMULAS:
        assert "'" + name[:-3] in cells
    verdicts = {row[0]: row[1] for row in table[1:]}
    assert (verdicts["tab\\tname"], verdicts["tab\\\\tname"]) == ("AC", "RJ")  # no flip

    # a hidden case's expected output edited: the journal's AC is stale and is never reported
    spec_path = package / "problems" / "axpy.yaml"
    spec_path.write_text(SPEC.replace("expected: {value: [1.0, 2.0, 3.0]",
                                      "expected: {value: [1.0, 2.0, 4.0]"))
    r = _batch(package, "--format", "json", "--out", "r2.json", "--resume")
    assert r.returncode == 0, r.stderr
    assert {"bob", "tab\\tname"} <= set(_graded(r.stderr))
    rows = {x["submission"]: x for x in json.loads((package / "r2.json").read_text())["results"]}
    assert (rows["bob"]["verdict"], rows["bob"]["reason"]) == ("WA", "wrong_value")
    assert rows["tab\\tname"]["verdict"] == "WA"
    assert not [x for x in rows.values() if x["verdict"] == "AC"]


def _plant(path, sha, **extra):
    """A journal as a student would write one: the old format, claiming AC."""
    lines = [{"journal": 2, "problem": "axpy", "source_gate": True, "sandbox": "bwrap", **extra},
             {"submission": "mallory.py", "key": "mallory.py", "sha256": sha, "verdict": "AC",
              "reason": "ok", "message": "all 3 cases passed", "time_s": 1.0, "passed": 3,
              "total": 3, "source_gate": True, "sandbox": "bwrap", **extra}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_journal_planted_in_the_class_folder_is_never_read(package, tmp_path_factory):
    cls = package / "class"
    (cls / "bob.py").unlink()
    (cls / "mallory.py").write_text(GATED)
    sha = intake.read(cls / "mallory.py").sha256
    for name in ("batch-axpy.txt.journal.jsonl", "batch-axpy.txt"):
        _plant(cls / name, sha)
    state = tmp_path_factory.mktemp("state")
    env = {**os.environ, "JUDGE_CACHE_DIR": str(state), "JUDGE_CACHE": "off"}
    spec_path = str(package / "problems" / "axpy.yaml")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "judge", "batch", ".", "-p", spec_path, *args],
                              cwd=cls, capture_output=True, text=True, timeout=300, env=env)

    r = run("--resume")  # the grader runs it inside the class folder, with --resume
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].split()[:2] == ["mallory", "RJ"] and " AC " not in r.stdout
    assert str(state / "journals") in r.stderr  # the journal is the judge's own

    r = run("--resume", "--journal", "batch-axpy.txt.journal.jsonl")
    assert r.returncode == 2 and "could be a student's" in r.stderr

    # a journal at the judge's own place, but not signed with the judge's key
    (cls / "batch-axpy.txt").unlink()
    mine = journal_mod.default_path(cls, "axpy", cls / "batch-axpy.txt")
    mine = state / "journals" / mine.name
    mine.unlink()
    forged = {"journal": journal_mod.VERSION, "id": "x", "problem": "axpy", "source_gate": True,
              "sandbox": "bwrap", "basis": ""}
    record = {"key": "mallory.py", "submission": "mallory.py", "sha256": sha, "verdict": "AC",
              "reason": "ok", "source_gate": True, "sandbox": "bwrap", "basis": ""}
    mine.write_text("".join(json.dumps(journal_mod.sign(b"s" * 32, "x", line)) + "\n"
                            for line in (forged, record)))
    r = run("--resume")
    assert r.returncode == 2 and "was not written by this judge" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


# --- the journal's own checks -----------------------------------------------------------------

HOW = {"source_gate": True, "sandbox": "bwrap"}


def test_a_journal_line_edited_copied_or_signed_elsewhere_is_refused(tmp_path):
    secret = b"a" * 32
    j = journal_mod.Journal(tmp_path / "j.jsonl", "axpy", resume=False, how=HOW, basis="b1",
                            secret=secret)
    j.add({"key": "ann.py", "submission": "ann.py", "sha256": "1", "verdict": "WA", **HOW})
    j.close()
    lines = (tmp_path / "j.jsonl").read_text().splitlines()
    assert len(lines) == 2 and all("mac" in json.loads(line) for line in lines)

    reopened = journal_mod.Journal(tmp_path / "j.jsonl", "axpy", resume=True, how=HOW, basis="b1",
                                   secret=secret)
    assert reopened.reusable("ann.py", "1") and not reopened.reusable("ann.py", "2")
    reopened.close()
    stale = journal_mod.Journal(tmp_path / "j.jsonl", "axpy", resume=True, how=HOW, basis="b2",
                                secret=secret)
    assert stale.reusable("ann.py", "1") is None  # another spec, reference or judge: grade again
    stale.close()

    with pytest.raises(JudgeError, match="line 1 was not written by this judge"):
        journal_mod.Journal(tmp_path / "j.jsonl", "axpy", resume=True, how=HOW, secret=b"b" * 32)

    edited = tmp_path / "edited.jsonl"
    edited.write_text(lines[0] + "\n" + lines[1].replace('"WA"', '"AC"') + "\n")
    with pytest.raises(JudgeError, match="line 2 was not written by this judge"):
        journal_mod.Journal(edited, "axpy", resume=True, how=HOW, secret=secret)

    other = journal_mod.Journal(tmp_path / "other.jsonl", "axpy", resume=False, how=HOW,
                                secret=secret)
    other.close()
    copied = tmp_path / "other.jsonl"
    copied.write_text(copied.read_text() + lines[1] + "\n")  # a line of another journal
    with pytest.raises(JudgeError, match="line 2 was not written by this judge"):
        journal_mod.Journal(copied, "axpy", resume=True, how=HOW, secret=secret)


def test_the_journal_key_is_the_judges_alone(tmp_path):
    folder = tmp_path / "journals"
    first = journal_mod.key(folder)
    assert len(first) == journal_mod.KEY_BYTES and journal_mod.key(folder) == first
    assert (folder / "key").stat().st_mode & 0o777 == 0o600
    (folder / "key").chmod(0o644)
    with pytest.raises(JudgeError, match="only you can read"):
        journal_mod.key(folder)


def test_the_default_journal_is_outside_the_class_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "state"))
    cls = tmp_path / "class"
    path = journal_mod.default_path(cls, "axpy", cls / "batch-axpy.txt")
    assert path.parent == tmp_path / "state" / "journals"
    assert path != journal_mod.default_path(cls, "axpy", tmp_path / "other.txt")
    assert path != journal_mod.default_path(tmp_path / "class2", "axpy", cls / "batch-axpy.txt")


# --- intake: what is refused, unopened ----------------------------------------------------------

def _finishes(fn, seconds=10.0):
    """``fn()``'s result or exception, failing the test if it does not return in time."""
    out = {}

    def call():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            out["error"] = exc

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "reading the submission did not finish"
    if "error" in out:
        raise out["error"]
    return out["value"]


@pytest.mark.parametrize("make, what", [
    (lambda p: os.symlink("other.py", p), "is a symbolic link"),
    (lambda p: os.symlink("/dev/zero", p), "is a symbolic link"),
    (lambda p: os.mkfifo(p), "is a FIFO"),
    (lambda p: os.mkdir(p), "is a directory"),
    (lambda p: os.truncate(open(p, "wb").name, 8 << 30), "is larger than"),
    (lambda p: open(p, "wb").write(b"#" * (intake.MAX_BYTES + 1)), "is larger than"),
])
def test_intake_refuses_without_opening(tmp_path, monkeypatch, make, what):
    (tmp_path / "other.py").write_text(HONEST)
    path = tmp_path / "solution.py"
    make(path)
    opened = []
    real_open = os.open
    monkeypatch.setattr(intake.os, "open", lambda *a, **k: opened.append(a) or real_open(*a, **k))
    with pytest.raises(intake.Refused, match=what):
        _finishes(lambda: intake.read(path))
    assert opened == []  # looked at with lstat only


def test_intake_reads_a_regular_file_of_the_largest_size(tmp_path):
    path = tmp_path / "solution.py"
    path.write_bytes(b"#" * intake.MAX_BYTES)
    taken = intake.read(path)
    assert len(taken.data) == intake.MAX_BYTES and taken.name == "solution.py"


def test_intake_never_follows_a_link_on_the_way(tmp_path):
    cls = tmp_path / "class"
    (cls / "frank").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "solution.py").write_text(HONEST)
    os.symlink(elsewhere, cls / "frank" / "src")
    entry = {e.key: e for e in batch.collect(cls, "axpy")}["frank"]
    assert entry.parts is None and entry.reason == "no_submission"  # the link is not searched
    with pytest.raises(intake.Refused, match="frank/src: is a symbolic link"):
        intake.read_beneath(cls, ("frank", "src", "solution.py"))


def test_a_student_folder_too_large_to_search_gets_a_row(tmp_path, monkeypatch):
    cls = tmp_path / "class"
    (cls / "gus").mkdir(parents=True)
    for i in range(20):
        (cls / "gus" / f"f{i}.txt").write_text("")
    monkeypatch.setattr(batch, "MAX_ENTRIES", 10)
    entry = batch.collect(cls, "axpy")[0]
    assert (entry.reason, entry.problem_note) == ("bad_submission_file",
                                                  "gus: holds more than 10 entries; the judge does not search it")


def test_names_are_shown_one_to_one_and_keyed_exactly(tmp_path):
    cls = tmp_path / "class"
    cls.mkdir()
    names = ["tab\tname.py", "tab\\tname.py", "tab\\\\tname.py", "esc\x1b[2J.py"]
    for name in names:
        (cls / name).write_text(GATED)
    with open(cls.__bytes__() + b"/bad\xff.py", "wb") as f:
        f.write(GATED.encode())
    with open(cls.__bytes__() + b"/bad\\udcff.py", "wb") as f:
        f.write(GATED.encode())
    entries = batch.collect(cls, "axpy")
    assert len({e.key for e in entries}) == len({e.name for e in entries}) == len(entries) == 6
    assert all(e.name.isprintable() for e in entries)


# --- judge grade: the same intake ---------------------------------------------------------------

def test_grade_refuses_links_fifos_and_oversized_files_with_a_clear_message(package, tmp_path):
    problem = spec.load("axpy", root=package)
    link = tmp_path / "solution.py"
    os.symlink(package / "reference" / "axpy.py", link)
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    big = tmp_path / "big.py"
    with open(big, "wb") as f:
        f.truncate(8 << 30)
    for path, says in ((link, "is a symbolic link"), (fifo, "is a FIFO"), (big, "is larger than"),
                       (tmp_path / "missing.py", "no such submission file"),
                       (tmp_path, "is a folder"), (package / "problems" / "axpy.yaml", "not a Python file")):
        with pytest.raises(JudgeError, match=says):
            _finishes(lambda: grading.grade(problem, path, use_cache=False))


def test_grade_gives_a_platform_a_report_for_a_linked_solution(package, tmp_path):
    link = tmp_path / "solution.py"
    os.symlink(package / "reference" / "axpy.py", link)
    r = subprocess.run([sys.executable, "-m", "judge", "grade", str(link), "-p",
                        str(package / "problems" / "axpy.yaml"), "--format", "gradescope"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2
    results = json.loads(r.stdout)
    assert results["score"] == 0.0 and "is a symbolic link" in results["output"]


class Ran(Exception):
    pass


def test_what_is_graded_is_what_was_read(package, monkeypatch):
    """A file changed after the judge read it (by another student, a sync) changes nothing."""
    problem = spec.load("axpy", root=package)
    original = package / "class" / "bob.py"

    def worker(request, **kwargs):
        original.write_text(GATED)  # swapped once the checks are done
        with open(request["submission"]) as f:
            assert f.read() == HONEST
        assert request["submission"] != str(original)
        raise Ran

    monkeypatch.setattr(grading, "run_worker", worker)
    with pytest.raises(Ran):
        grading.grade(problem, original, use_cache=False, source_gate=True)


def test_csv_cells_never_start_like_a_formula():
    records = [{"submission": start + "x", "verdict": "CE", "reason": "syntax_error", "passed": 0,
                "total": 3, "time_s": 0.0, "message": "=1+1", "source_gate": True}
               for start in ("=", "+", "-", "@", "\t", "\r", "a")]
    table = list(csv.reader(io.StringIO(batch_report.render_csv("axpy", records))))
    assert [row[0] for row in table[1:]] == ["'=x", "'+x", "'-x", "'@x", "\\tx", "\\rx", "ax"]
    col = table[0].index
    assert {row[col("message")] for row in table[1:]} == {"'=1+1"}
    assert [table[1][col(k)] for k in ("passed", "total", "time_s")] == ["0", "3", "0.0"]
    assert table[1][col("score")] == ""  # a record from before points were recorded
