"""Every bundled submission meets what ``judge check`` expects of it (``judge.author.expectations``:
the verdict its folder names, unless ``submissions.yaml`` says otherwise), on all cases.

As in ``judge check``: submissions expected to be accepted on every case are graded with the
source gate on, as a student's would be; the others with it off, so that the cases, rules and
limits behind it are exercised (``os_exit_in_function.py`` and ``sys_exit_at_import.py`` import
modules the gate refuses)."""

import functools
from pathlib import Path

import pytest

from judge.author import expectations
from judge.grade import grading
from judge.problem import spec
from judge.grade.verdicts import Verdict
from tests import helpers
from tests.helpers import ROOT

#: Submissions whose grade takes far longer than their siblings': the default run takes another
#: submission of the same kind first (they still run in the slow group).
LONG = {"checkpointed_hessian.py"}
SUBMISSIONS = sorted(ROOT.glob("submissions/*/*/*.py"), key=lambda p: (p.name in LONG, p))


@functools.cache
def discovered(folder: Path) -> tuple[dict, list]:
    """``judge check``'s table for ``submissions/<problem>``: {path: Submission}, and its issues."""
    subs, issues = expectations.discover(folder)
    return {s.path: s for s in subs}, issues


def _kinds(path: Path) -> list:
    """What a submission stands for: its problem and folder (the verdict), and each reason it must
    be refused with (a rule). The default run grades the first submission of each, ``-m slow``
    the rest."""
    known, _ = discovered(path.parent.parent)
    reasons = known[path].expectation.reasons if path in known else frozenset()
    return [(path.parent.parent.name, path.parent.name), *sorted(reasons)]


@pytest.mark.parametrize("path", helpers.sampled(SUBMISSIONS, key=_kinds, ids=lambda p: str(
    p.relative_to(ROOT / "submissions"))))
def test_submission_gets_its_folders_verdict(path):
    known, issues = discovered(path.parent.parent)
    assert path in known, f"judge check expects nothing of it: {issues}"
    sub = known[path]
    problem = spec.load(ROOT / "problems" / f"{path.parent.parent.name}.yaml")
    gated = sub.expectation.permitted == {Verdict.AC}  # as judge check decides
    result = grading.grade(problem, path, source_gate=gated, hints=False)
    why = expectations.unmet(sub.expectation, result, lambda case: case.label)
    if sub.expectation.gap is not None:  # a known gap on record: it must still be one
        assert why is not None, f"the known gap is closed: {sub.expectation.gap}"
        return
    assert why is None, why


def test_there_are_enough_known_submissions():
    folders = {p.parent.name for p in SUBMISSIONS if p.parent.parent.name == "fake_quant_ste"}
    assert {"accepted", "wrong_answer", "rejected", "run_time_error", "compile_error"} <= folders
    counts = {f: sum(1 for p in SUBMISSIONS if p.parent.name == f) for f in folders}
    assert counts["accepted"] >= 4
