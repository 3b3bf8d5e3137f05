"""A submission traced at the corners of the dims a problem allows: every dim the rules leave
concrete at its lowest and its highest extent, the ``symbolic_dims`` still symbols, the static
values of the first example; never run, in a worker of its own. Every extent and value there is
public (the spec's ranges, an example), so what the rules say of these traces may be shown in
full, where a hidden case's refusal shows only a fixed text. `judge check` traces each accepted
solution this way (``judge.author.corners``), and a grade refused on a hidden case by a rule on
the program says what the same rules find at the corners (``grading``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from judge import rules
from judge.grade import outcome, traces as tracing
from judge.grade.plan import Wanted
from judge.grade.request import build_request
from judge.problem.model import bind_dims, dim_ranges, shapes_for
from judge.run import settings as run_settings
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
        # only the shapes and dtypes of the traced arrays are read: stand-ins that hold one
        # element whatever their shape (a broadcast view), so a wide range costs no memory
        inputs = {p.name: (np.broadcast_to(np.zeros((), dtype=np.asarray(base[p.name]).dtype),
                                           shapes[p.name])
                           if p.kind == "array" else base[p.name]) for p in params}
        trace = rules.symbolic_trace(problem, inputs)
        if trace is not None:
            found.append((corner, trace))
    return found


def first_breach(problem, path, sandbox=None, name: str | None = None, result_cache=None,
                 at: list | None = None) -> tuple[dict, rules.Breach] | None:
    """``(corner, breach)`` for the first corner where the program of the file at ``path``
    breaks a rule, traced in a worker of its own (nothing runs); None when it fits at every
    corner. ``name``: the file's name as messages show it (default: ``path``'s).
    ``result_cache`` (`judge check`'s): a stored run of the same content is replayed, and a new
    clean one stored; the rules decide again either way. ``at``: the corners' traces
    (``planned``), when already made for this problem."""
    at = planned(problem) if at is None else at
    wanted = [Wanted("symbolic", trace, len(problem.cases) + k, None)
              for k, (_, trace) in enumerate(at)]
    if not wanted:
        return None
    settings = run_settings.of(sandbox)
    request = tracing.request(problem, build_request(problem, path, []), wanted)
    content = Path(path).read_bytes() if result_cache is not None else b""
    run = (result_cache.find_traces(problem, request, content, settings, tracing.timeout(problem))
           if result_cache is not None else None)
    if run is None:
        run = run_worker(request, startup_timeout=problem.limits["startup_s"],
                         case_timeout=tracing.timeout(problem), sandbox=settings,
                         limits=problem.limits, record=result_cache is not None)
        if result_cache is not None:
            result_cache.store_traces(problem, request, content, settings, tracing.timeout(problem), run)
    describe = lambda error: outcome.error_text(error, name or path.name)  # noqa: E731
    for w, (corner, _) in zip(wanted, at):
        got = tracing.evidence(w, run, describe)
        breach = got if isinstance(got, rules.Breach) else rules.check_symbolic(problem, got)
        if breach is not None:
            return corner, breach
    return None


#: The reasons of the rules decided on the program traced with symbolic dims, which a trace at
#: the corners can show with its numbers.
EXPLAINED = ("intermediate_too_large", "unrolled_loop", "forbidden_primitive", "missing_primitive")


def explain(problem, results, path, sandbox=None, name: str | None = None,
            result_cache=None) -> str:
    """For a grade whose first failing case is hidden and refused by a rule on the program
    (its message a fixed text): what the rules find at the corners, every extent and value
    there public, as a clause to add to the grade's message; "" when that is not so, or when no
    corner breaks a rule of those (the refusal depends on the hidden case's own extents)."""
    first = next((c for c in results if c.reason != "ok"), None)
    if first is None or first.visibility != "hidden" or first.reason not in EXPLAINED:
        return ""
    try:
        found = first_breach(problem, path, sandbox, name, result_cache)
    except Exception:  # noqa: BLE001 - an explanation is a courtesy: the verdict stands without it
        outcome.LOG.exception("corners: tracing %s for problem %s failed", name or path, problem.id)
        return ""
    if found is None or found[1].reason not in EXPLAINED:
        return ""
    return (f"; at the extents this problem allows (its dims' ends, the first example's other "
            f"values), the rules find: {found[1].message}")
