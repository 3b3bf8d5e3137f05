"""Every bundled submission gets the verdict its folder names, on all cases.

As in ``judge check``: accepted submissions are graded with the source gate on, as a student's
would be; the others with it off, so that the cases, rules and limits behind it are exercised
(``os_exit_in_function.py`` and ``sys_exit_at_import.py`` import modules the gate refuses)."""

from pathlib import Path

import pytest

from judge.grade import grading
from judge.problem import spec
from judge.grade.verdicts import Verdict

ROOT = Path(__file__).resolve().parent.parent
FOLDER_VERDICTS = {
    "accepted": Verdict.AC, "wrong_answer": Verdict.WA, "rejected": Verdict.RJ,
    "run_time_error": Verdict.RTE, "compile_error": Verdict.CE,
    "time_limit_exceeded": Verdict.TLE, "memory_limit_exceeded": Verdict.MLE,
    "output_limit_exceeded": Verdict.OLE,
}
SUBMISSIONS = sorted(ROOT.glob("submissions/*/*/*.py"))


@pytest.mark.parametrize("path", SUBMISSIONS, ids=lambda p: str(p.relative_to(ROOT / "submissions")))
def test_submission_gets_its_folders_verdict(path):
    problem = spec.load(ROOT / "problems" / f"{path.parent.parent.name}.yaml")
    expected = FOLDER_VERDICTS[path.parent.name]
    result = grading.grade(problem, path, source_gate=expected is Verdict.AC)
    assert result.verdict is expected, f"{result.verdict.value} [{result.reason}] {result.message}"
    if expected is Verdict.AC:
        assert all(c.verdict is Verdict.AC for c in result.cases)
    if expected is Verdict.WA:  # a wrong answer is wrong, not also broken
        assert {c.verdict for c in result.cases} <= {Verdict.AC, Verdict.WA}


def test_there_are_enough_known_submissions():
    folders = {p.parent.name for p in SUBMISSIONS if p.parent.parent.name == "fake_quant_ste"}
    assert {"accepted", "wrong_answer", "rejected", "run_time_error", "compile_error"} <= folders
    counts = {f: sum(1 for p in SUBMISSIONS if p.parent.name == f) for f in folders}
    assert counts["accepted"] >= 4
