"""The corners check of `judge check`: every accepted solution fits the rules over the whole
range of the spec's dims, not only at the extents the cases happen to use.

The rules decide on the program traced with the spec's ``symbolic_dims`` as symbols, so a size
bound is proved over their ranges; the dims left concrete (``m`` in hvp_tanh, ``d`` in
per_example_clip) are seen only at the cases' extents. Here the reference and each submission
expected to be accepted are traced, never run, at every corner of the concrete dims' box (each
dim at its lowest and its highest extent), the symbolic dims still symbols, with the static
values of the first example; the rules decide on each trace as they do for a case. The first
corner where one breaks is an error, with the rule's message: the value, its line, its count
and the bound at that corner. A concrete dim without an upper bound is taken at its lowest
extent only, and said so.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from judge import rules
from judge.author.findings import ERROR
from judge.grade import outcome, traces as tracing
from judge.grade.request import build_request
from judge.grade.verdicts import Verdict, plural
from judge.problem.model import bind_dims, dim_ranges, shapes_for
from judge.rules.base import dims_text
from judge.run.supervisor import run_worker


def concrete_dims(problem) -> list[str]:
    """The dims of the parameters' shapes that are not traced as symbols, in the order the
    parameters name them."""
    names = dict.fromkeys(d for p in problem.parameters for d in (p.shape or ()) if isinstance(d, str))
    return [d for d in names if d not in problem.symbolic_dims]


def corners(problem) -> list[dict]:
    """Every corner of the concrete dims' box: dim -> extent, each at its lowest and highest
    (one point when a dim has no upper bound or a single extent)."""
    ranges = dim_ranges(problem.parameters)
    ends = [sorted({ranges[d][0], ranges[d][1] if ranges[d][1] is not None else ranges[d][0]})
            for d in concrete_dims(problem)]
    return [dict(zip(concrete_dims(problem), point)) for point in itertools.product(*ends)]


def planned(problem) -> list[tuple[dict, rules.AbstractTrace]]:
    """``(corner, trace)`` for each corner: the program traced with the symbolic dims as symbols
    and the corner's extents for the others. None for a problem without symbolic dims, whose
    rules read no program, or without an example to take the static values from."""
    if not problem.symbolic_dims or not rules.needs_program(problem.rules) or not problem.examples:
        return []
    base = problem.examples[0].inputs
    params = problem.parameters
    base_shapes = {p.name: tuple(np.shape(base[p.name])) for p in params if p.kind == "array"}
    ranges = dim_ranges(params)
    low = {d: ranges[d][0] for d in problem.symbolic_dims}
    found = []
    for corner in corners(problem):
        shapes = shapes_for(params, {**bind_dims(params, base_shapes), **low, **corner}, base_shapes)
        # only the shapes and dtypes of the traced arrays are read: empty stand-ins of them
        inputs = {p.name: (np.empty(shapes[p.name], dtype=np.asarray(base[p.name]).dtype)
                           if p.kind == "array" else base[p.name]) for p in params}
        trace = rules.symbolic_trace(problem, inputs)
        if trace is not None:
            found.append((corner, trace))
    return found


def first_breach(problem, path, sandbox=None) -> tuple[dict, rules.Breach] | None:
    """``(corner, breach)`` for the first corner where the program of the file at ``path``
    breaks a rule, traced in a worker of its own (nothing runs); None when it fits at every
    corner."""
    wanted = [tracing.Wanted("symbolic", trace, len(problem.cases) + k, None, ())
              for k, (_, trace) in enumerate(planned(problem))]
    if not wanted:
        return None
    request = tracing.request(problem, build_request(problem, path, []), wanted)
    run = run_worker(request, startup_timeout=problem.limits["startup_s"],
                     case_timeout=tracing.timeout(problem), sandbox=sandbox, limits=problem.limits)
    describe = lambda error: outcome.error_text(error, path.name)  # noqa: E731
    for w, (corner, _) in zip(wanted, planned(problem)):
        got = tracing.evidence(w, run, describe)
        breach = got if isinstance(got, rules.Breach) else rules.check_symbolic(problem, got)
        if breach is not None:
            return corner, breach
    return None


def check_corners(report, problem, results: dict, jobs: int = 1, settings=None) -> None:
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
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [(path, pool.submit(first_breach, problem, path, settings)) for path in chosen]
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
