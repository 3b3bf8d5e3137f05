"""Checks of `judge check` that read the graded submissions: test strength and the time limit.

Test strength: a case *catches* a submission when its verdict there is not AC. Every
``wrong_answer`` and ``rejected`` submission must be caught by some case; one caught by a single
hidden case only is a warning (one edit of that case and it slips through); one that passes every
example is noted, so the author knows the examples do not reveal that mistake.
"""

from __future__ import annotations

from judge.author.expectations import MUST_BE_CAUGHT
from judge.author.findings import ERROR, INFO, TIME_MARGIN, WARNING
from judge.grade.verdicts import Verdict, plural
from judge.problem.model import case_label
from judge.reports.check_text import GAP

MAX_LISTED = 6


def _listing(cases) -> str:
    names = [case_label(c, named=False) for c in cases[:MAX_LISTED]]
    more = f", ... ({len(cases) - MAX_LISTED} more)" if len(cases) > MAX_LISTED else ""
    return ", ".join(names) + more


def check_strength(report, problem, results: dict) -> None:
    """``results``: Submission -> GradeResult. Cases are named as the author knows them
    (``case_label(case, named=True)``: hidden cases too)."""
    wrong = [(s, r) for s, r in results.items() if s.folder in MUST_BE_CAUGHT]
    if not wrong:
        check = report.add("strength")
        report.find(check, INFO, problem.path, f"no {' or '.join(MUST_BE_CAUGHT)} submissions: "
                                               "nothing shows that the cases catch wrong solutions")
        return
    n_examples = len(problem.examples)
    n_hidden = len(problem.hidden)
    for sub, result in wrong:
        check = report.add(f"strength {sub.rel}", "strength", sub.path)
        caught = [c for c in result.cases if c.verdict is not Verdict.AC]
        by_example = [c for c in caught if c.visibility == "example"]
        by_hidden = [c for c in caught if c.visibility == "hidden"]
        if not caught and sub.expectation.gap is not None:
            report.find(check, INFO, sub.path, f"no case catches it: a known gap "
                                               f"({sub.expectation.gap})")
            check.summary = GAP
            continue
        if not caught:
            report.find(check, ERROR, sub.path,
                        f"no case catches it: AC on all {len(result.cases)} cases; add a case on "
                        f"which it fails, or move it out of {sub.folder}/")
            continue
        if len(caught) == len(result.cases):
            counts = f"caught by every case ({plural(n_examples, 'example')}, {n_hidden} hidden)"
        else:
            counts = (f"caught by {len(by_example)} of {plural(n_examples, 'example')} and "
                      f"{len(by_hidden)} of {plural(n_hidden, 'hidden case')}: {_listing(caught)}")
        check.summary = counts
        if len(caught) == 1 and not by_example:
            only = case_label(caught[0], named=True)
            report.find(check, WARNING, sub.path,
                        f"caught only by {only}, a single hidden case; it passes every "
                        "example; add another case that catches it")
        elif not by_example:
            report.find(check, INFO, sub.path, f"{counts}; it passes every example, so the "
                                               "examples do not reveal this mistake")
        else:
            report.find(check, INFO, sub.path, counts)


def check_time_limit(report, problem, results: dict, jobs: int) -> None:
    """The slowest case of any fully accepted submission in ``accepted/`` against the limit."""
    check = report.add("time limit")
    limit = problem.limits["time_per_case_s"]
    slowest = None
    for sub, result in results.items():
        if sub.folder != "accepted" or not result.accepted:
            continue
        for case in result.cases:
            if case.time_s is not None and (slowest is None or case.time_s > slowest[0]):
                slowest = (case.time_s, sub, case)
    if slowest is None:
        report.find(check, WARNING, problem.path,
                    f"no submission in accepted/ passed every case, so the time limit "
                    f"(limits.time_per_case_s = {limit:g} s) is not measured against a solution")
        return
    time_s, sub, case = slowest
    margin = limit / time_s if time_s > 0 else float("inf")
    where = f"{sub.rel}, {case_label(case, named=True)}"
    text = (f"slowest accepted case takes {time_s:.2f} s ({where}); "
            f"limits.time_per_case_s is {limit:g} s: {margin:.1f}x margin")
    if jobs > 1:
        text += f" (measured with {jobs} runs in parallel)"
    if margin >= TIME_MARGIN:
        check.summary = text
    else:
        report.find(check, WARNING, problem.path,
                    f"{text}; under {TIME_MARGIN:g}x: a slower machine may time out a right "
                    "solution, so raise the limit or make the case cheaper")
