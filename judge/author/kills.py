"""Strength of generated cases: which case catches which known wrong submission.

A case *catches* a submission when the submission's verdict on it is not AC (IE, the judge's
own failure, never counts). The submissions that must be caught are those in the problem's
``submissions/<id>/wrong_answer/`` and ``rejected/`` folders. Each submission is graded once per
round, in a worker, on a problem holding only that round's generated cases as hidden cases.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from judge.grade import grading
from judge.author import expectations
from judge.author.expectations import MUST_BE_CAUGHT
from judge.grade.verdicts import Verdict


@dataclass
class KillMatrix:
    submissions: list            # relative paths, e.g. "wrong_answer/strict_mask.py"
    cases: list = field(default_factory=list)                 # case names, in order
    verdicts: dict = field(default_factory=dict)              # (case, submission) -> Verdict
    internal_errors: list = field(default_factory=list)       # "submission: message"

    def kills(self, case: str) -> set:
        return {s for s in self.submissions
                if self.verdicts.get((case, s), Verdict.AC) not in (Verdict.AC, Verdict.IE)}

    def caught(self) -> set:
        return set().union(*(self.kills(c) for c in self.cases)) if self.cases else set()

    def uncaught(self) -> list:
        caught = self.caught()
        return [s for s in self.submissions if s not in caught]

    def restrict(self, cases: list) -> "KillMatrix":
        keep = set(cases)
        return KillMatrix(self.submissions, [c for c in self.cases if c in keep],
                          {k: v for k, v in self.verdicts.items() if k[0] in keep},
                          list(self.internal_errors))


def must_be_caught(problem) -> dict[str, Path]:
    """relative path -> file, for every submission the cases must catch, in a fixed order."""
    folder = problem.path.parent.parent / "submissions" / problem.id
    known, _ = expectations.discover(folder) if folder.is_dir() else ([], [])
    gaps = {s.rel for s in known if s.expectation.gap is not None}  # not caught, on record
    found = {}
    for verdict_folder in MUST_BE_CAUGHT:
        for path in sorted((folder / verdict_folder).glob("*.py")):
            if f"{verdict_folder}/{path.name}" not in gaps:
                found[f"{verdict_folder}/{path.name}"] = path
    return found


def grade_round(problem, cases: list, submissions: dict, matrix: KillMatrix, jobs: int = 1,
                progress=None) -> None:
    """Grade every submission once on ``cases`` (spec Cases) and add the verdicts to ``matrix``."""
    if not cases:
        return
    temp = replace(problem, cases=tuple(replace(c, index=i, number=i, visibility="hidden")
                                        for i, c in enumerate(cases)))
    done = []

    def one(item):
        rel, path = item
        # the author's known wrong submissions, to see which cases catch them: without the
        # source gate, which would refuse some on every case whatever the cases are
        result = grading.grade(temp, path, source_gate=False)
        done.append(rel)
        if progress:
            progress(f"graded {len(done)}/{len(submissions)} submissions on {len(cases)} cases "
                     f"({rel})")
        return rel, result

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, submissions.items()))
    for rel, result in results:
        for case, res in zip(cases, result.cases):
            matrix.verdicts[(case.name, rel)] = res.verdict
            if res.verdict is Verdict.IE:
                matrix.internal_errors.append(f"{rel} on {case.name}: {res.message}")
    matrix.cases += [c.name for c in cases]


def minimize(matrix: KillMatrix) -> list[str]:
    """A small subset of the cases with the same kills: greedy set cover, taking at each step the
    case that catches the most submissions not yet caught (ties: the earliest case)."""
    uncovered = matrix.caught()
    chosen = []
    while uncovered:
        best = max(matrix.cases, key=lambda c: (len(matrix.kills(c) & uncovered),
                                                -matrix.cases.index(c)))
        chosen.append(best)
        uncovered -= matrix.kills(best)
    return [c for c in matrix.cases if c in chosen]


def render(matrix: KillMatrix, max_rows: int = 60, first_hidden: int = 0) -> str:
    """Submissions numbered, then one row per case that catches something: the verdict under
    each submission it catches, '.' where it passes. A row is named ``hidden N name``, N being
    the case's position in the spec's ``hidden:`` list once appended (``first_hidden``: how many
    hidden cases the spec has already), as `judge grade` and `judge check` number it."""
    named = {c: f"hidden {first_hidden + i} {c}" for i, c in enumerate(matrix.cases)}
    lines = ["kill matrix (a case catches a submission when its verdict there is not AC):"]
    for i, sub in enumerate(matrix.submissions, 1):
        n = sum(1 for c in matrix.cases if sub in matrix.kills(c))
        lines.append(f"  {i:>2} {sub:<44} caught by {n} of {len(matrix.cases)} cases")
    rows = [c for c in matrix.cases if matrix.kills(c)]
    width = max([len(named[c]) for c in rows] + [4])
    numbers = range(1, len(matrix.submissions) + 1)
    lines.append("  " + " " * width + " " + " ".join(f"{i:>3}" for i in numbers))
    for case in rows[:max_rows]:
        cells = ["." if v is Verdict.AC else v.value for v in
                 (matrix.verdicts.get((case, s), Verdict.AC) for s in matrix.submissions)]
        lines.append(f"  {named[case]:<{width}} " + " ".join(f"{c:>3}" for c in cells))
    if len(rows) > max_rows:
        lines.append(f"  ... {len(rows) - max_rows} more cases that catch something")
    silent = len(matrix.cases) - len(rows)
    if silent:
        lines.append(f"  ({silent} cases catch none of these submissions)")
    return "\n".join(lines) + "\n"
