"""The order a batch grades in: the longest grades first, where the journal tells how long they
took (``batch.longest_first``), and a source with a Python ``while`` loop first where nothing is
known (``order.open_ended``), so that a submission that runs into its time limit does not start
last and keep one job busy alone at the end."""

import json

import pytest

from judge.errors import JudgeError
from judge.grade import batch
from judge.grade import journal as journal_mod
from judge.grade import order
from judge.problem import spec
from tests.test_third_problem import SOLUTIONS, SPEC

SECRET = b"s" * 32
HOW = {"source_gate": True, "sandbox": "none"}


def _entry(key: str) -> batch.Entry:
    return batch.Entry(key, key[:-3], (key,))


def _record(key: str, time_s, sha256: str = "", verdict: str = "AC") -> dict:
    return {"key": key, "submission": key[:-3], "sha256": sha256, "verdict": verdict,
            "time_s": time_s}


def test_known_long_grades_first_the_unknown_at_the_median_and_names_break_ties():
    todo = [_entry(k) for k in ("a.py", "b.py", "c.py", "d.py", "e.py")]
    contents = {"a.py": "sha-a", "b.py": "sha-b", "c.py": "sha-c-new", "d.py": "sha-d", "e.py": ""}
    earlier = [_record("c.py", 12.0, "sha-c-old"),       # the student's previous file: 12 s
               _record("x.py", 0.2, "sha-d"),            # d's very content, graded under another name
               _record("e.py", 0.5, "sha-e"),
               _record("a.py", 30.0, "sha-a", "CE"),     # nothing ran: says nothing of a's time
               _record("b.py", 40.0, "sha-b", "IE")]     # the judge failed: nor does this
    order = [e.key for e in batch.longest_first(todo, contents, earlier)]
    assert order == ["c.py", "a.py", "b.py", "e.py", "d.py"]  # a, b: the median, 0.5 s
    # the content's own time wins over the entry's
    assert [e.key for e in batch.longest_first(
        todo[:2], {"a.py": "same", "b.py": ""}, [_record("a.py", 0.1, "old"),
                                                 _record("z.py", 9.0, "same"),
                                                 _record("b.py", 1.0)])] == ["a.py", "b.py"]


@pytest.mark.parametrize("earlier", [[], [_record("b.py", None)], [_record("b.py", "long")]])
def test_without_a_known_time_the_order_is_the_names(earlier):
    todo = [_entry(k) for k in ("a.py", "b.py", "c.py")]
    assert batch.longest_first(todo, {}, earlier) == todo


@pytest.mark.parametrize("source, expected", [
    (b"def f(x):\n    while True:\n        pass\n", True),
    (b"class A:\n    def m(self):\n        n = 3\n        while n:\n            n -= 1\n", True),
    (b"while 0:\n    pass\n", True),  # at the top level too
    (b"import jax\ndef f(x):\n    return jax.lax.while_loop(lambda c: c < 3, lambda c: c + 1, x)\n",
     False),  # JAX's loop is a call: its trip count is the program's, bounded by the case
    (b"def f(x):\n    for i in range(3):\n        x = x + i\n    return x  # while\n", False),
    (b"def f(x):\n    while True\n", False),   # does not parse: no guess
    (b"while True: pass\n" + b"#" * order.MAX_GUESS_BYTES, False),  # too large to parse for a guess
    ("def f(x):\n    while x:\n        x -= 1\n", True),
    (b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\nwhile 1: pass\n", False),  # too deep
    (b"while 1: pass\n\x00", False),  # a null byte: no source
    (b"x = [" + b"-" * 100_000 + b"1]\nwhile 1: pass\n", False),  # a parser's recursion
])
def test_a_python_while_loop_is_guessed_open_ended(source, expected):
    assert order.open_ended(source) is expected


def test_guessed_entries_go_first_unless_their_time_is_known():
    todo = [_entry(k) for k in ("a.py", "b.py", "c.py", "d.py", "e.py")]
    # nothing known: the guessed ones first, in name order, then the rest in name order
    assert [e.key for e in batch.longest_first(todo, {}, [], {"d.py", "b.py"})] == \
        ["b.py", "d.py", "a.py", "c.py", "e.py"]
    # a known time outweighs the guess: d ran 0.1 s before (same content), so it takes its place
    contents = {"a.py": "sha-a", "d.py": "sha-d"}
    earlier = [_record("a.py", 2.0, "sha-a"), _record("x.py", 0.1, "sha-d")]
    assert [e.key for e in batch.longest_first(todo, contents, earlier, {"d.py", "e.py"})] == \
        ["e.py", "a.py", "b.py", "c.py", "d.py"]


def test_a_first_batch_starts_with_the_source_that_loops_in_python(package, monkeypatch):
    problem = spec.load("axpy", root=package)
    source = (package / "class" / "cal.py").read_text()
    (package / "class" / "dot.py").write_text(source + "\ndef spin():\n    while True:\n        pass\n")
    started = _started(monkeypatch)
    records = batch.run_batch(problem, package / "class", package / "j.jsonl", jobs=1,
                              sandbox="none", secret=SECRET)
    assert started == ["dot.py", "ann.py", "ben.py", "cal.py"]
    assert [r["submission"] for r in records] == ["ann", "ben", "cal", "dot"]  # rows: name order


@pytest.fixture()
def package(tmp_path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "axpy.yaml").write_text(SPEC)
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "axpy.py").write_text(SOLUTIONS["reference/axpy.py"])
    (tmp_path / "class").mkdir()
    for name in ("ann", "ben", "cal", "dot"):
        (tmp_path / "class" / f"{name}.py").write_text(SOLUTIONS["submissions/axpy/accepted/plain.py"]
                                                      + f"\n# {name}\n")
    return tmp_path


def _old_journal(path, basis: str, times: dict) -> None:
    header = {"journal": journal_mod.VERSION, "id": "old", "problem": "axpy", **HOW, "basis": basis}
    lines = [header] + [{**_record(f"{name}.py", t), **HOW, "basis": basis}
                        for name, t in times.items()]
    path.write_text("".join(json.dumps(journal_mod.sign(SECRET, "old", line)) + "\n"
                            for line in lines))


def _started(monkeypatch) -> list[str]:
    """The order in which the batch starts its grades (each then ends as the judge's failure)."""
    started = []

    def grade(problem, taken, **options):
        started.append(taken.label.rsplit("/", 1)[-1])
        raise JudgeError("not graded in this test")

    monkeypatch.setattr(batch, "grade", grade)
    return started


@pytest.mark.parametrize("how", ["resume", "restart"])
def test_a_batch_graded_again_starts_with_what_took_longest(package, monkeypatch, how):
    problem = spec.load("axpy", root=package)
    path = package / "j.jsonl"
    # graded before by another judge (another basis): every grade is done again, in the order
    # of the times the journal kept; a restart reads them before it replaces the journal
    _old_journal(path, "older judge", {"ann": 0.4, "ben": 0.3, "cal": 10.2, "dot": 0.6})
    started = _started(monkeypatch)
    records = batch.run_batch(problem, package / "class", path, jobs=1, sandbox="none",
                              secret=SECRET, **{how: True})
    assert started == ["cal.py", "dot.py", "ann.py", "ben.py"]
    assert [r["submission"] for r in records] == ["ann", "ben", "cal", "dot"]  # rows: name order
    assert {r["verdict"] for r in records} == {"IE"}


def test_a_journal_that_cannot_be_resumed_orders_nothing_on_restart(package, monkeypatch):
    problem = spec.load("axpy", root=package)
    path = package / "j.jsonl"
    _old_journal(path, "b", {"ann": 0.1, "dot": 10.0})
    path.write_text(path.read_text().replace('"time_s": 10.0', '"time_s": 0.0'))  # edited: not ours
    started = _started(monkeypatch)
    batch.run_batch(problem, package / "class", path, jobs=1, sandbox="none", secret=SECRET,
                    restart=True)
    assert started == ["ann.py", "ben.py", "cal.py", "dot.py"]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["id"] != "old" and len(lines) == 5  # replaced, as a restart does
