"""The corners check of `judge check`: every accepted solution fits the rules over the whole
range of the spec's dims, not only at the extents the cases happen to use.

The rules decide on the program traced with the spec's ``symbolic_dims`` as symbols, so a size
bound is proved over their ranges; the dims left concrete (``m`` in hvp_tanh, ``d`` in
per_example_clip) are seen only at the cases' extents. Here the reference and each submission
expected to be accepted are traced, never run, at every corner of the concrete dims' box
(``judge.grade.corners``: each dim at its lowest and its highest extent, the symbolic dims still
symbols, the static values of the first example); the rules decide on each trace as they do for
a case. The first corner where one breaks is an error, with the rule's message: the value, its
line, its count and the bound at that corner. A concrete dim without an upper bound is taken at
its lowest extent only, and said so.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from judge import rules
from judge.author.findings import ERROR
from judge.grade.corners import concrete_dims, corners, first_breach, planned
from judge.grade.plan import shared_trace
from judge.grade.verdicts import Verdict, plural
from judge.problem.model import dim_ranges
from judge.rules.base import dims_text


def check_corners(report, problem, results: dict, jobs: int = 1, settings=None,
                  result_cache=None) -> None:
    """``results``: Submission -> GradeResult of the package's known submissions. The reference
    and every submission expected to be accepted on every case are traced at each corner; an
    error for each one that breaks a rule at one (with the numbers a hidden case's refusal does
    not show)."""
    found = corners(problem)
    if not planned(problem):
        return
    check = report.add("corners")
    chosen = [Path(problem.reference)] + sorted(
        Path(sub.path) for sub in results if sub.expectation.permitted == {Verdict.AC})
    started = time.monotonic()
    hits = result_cache.trace_hits if result_cache is not None else 0
    at = planned(problem)
    graded = {Path(sub.path): result for sub, result in results.items()}
    seen = case_keys(problem)
    left = {path: unjudged(problem, at, graded.get(path), seen) for path in chosen}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [(path, pool.submit(first_breach, problem, path, settings, None, result_cache,
                                      left[path]))
                   for path in chosen]
        for path, future in futures:
            try:
                got = future.result()
            except Exception as exc:  # noqa: BLE001 - reported, the others still checked
                report.find(check, ERROR, path, f"could not be traced at the corners: {exc}")
                continue
            if got is not None:
                corner, breach = got
                report.find(check, ERROR, path,
                            f"breaks a rule at the corner {dims_text(corner) or '(no concrete dim)'} "
                            f"of the spec's dims: [{breach.reason}] {breach.message}; if it is an "
                            f"honest style, widen the rule (and say in the statement what fits)")
    skipped = sum(1 for path in chosen if not left[path])
    ranges = dim_ranges(problem.parameters)
    symbols = ", ".join(f"{ranges[d][0]} <= {d} <= {ranges[d][1]}" if ranges[d][1] is not None
                        else f"{d} >= {ranges[d][0]}" for d in problem.symbolic_dims)
    where = (f"at the {plural(len(found), 'corner')} of "
             + ", ".join(f"{d} in [{ranges[d][0]}, {ranges[d][1]}]" if ranges[d][1] is not None
                         else f"{d} = {ranges[d][0]} (no upper bound)" for d in concrete_dims(problem))
             + f", with {symbols} as symbols") if concrete_dims(problem) else f"with {symbols} as symbols"
    bad = len(report.of(check))
    check.summary = (f"{len(chosen) - bad} of {plural(len(chosen), 'accepted solution')} (the "
                     f"reference included) fit every rule {where}")
    if skipped:
        check.summary += (f" ({skipped} of them accepted on every case, whose programs are the "
                          f"ones at {'every corner' if len(at) > 1 else 'the corner'})")
    if result_cache is not None and result_cache.trace_hits > hits:
        check.summary += f" ({result_cache.trace_hits - hits} traced by an earlier check)"
    check.time_s = time.monotonic() - started


def case_keys(problem) -> set:
    """The keys of the programs the problem's cases run, traced with the symbolic dims
    (``plan.shared_trace``): what a grade accepted on every case passed the rules on."""
    return {rules.trace_key(t) for t in (shared_trace(problem, c.inputs) for c in problem.cases)
            if t is not None}


def unjudged(problem, at: list, result, seen: set | None = None) -> list:
    """The corners' traces (``planned``) the grade ``result`` of the same file did not already
    decide on: a grade accepted on every case of the problem passed the rules on each case's
    program, traced with the symbolic dims exactly as a corner's is (``plan.shared_trace``);
    a corner whose program is one of those (the same shapes, static values and dtypes: a
    problem whose dims are all symbolic has one corner, the first example's program) needs no
    trace of its own. Every corner where there is no such grade. ``seen``: ``case_keys``, where
    computed already."""
    if result is None or result.verdict is not Verdict.AC or len(result.cases) != len(problem.cases):
        return list(at)
    seen = case_keys(problem) if seen is None else seen
    return [(corner, trace) for corner, trace in at if rules.trace_key(trace) not in seen]
