"""Rule ``no_unrolling``: the traced program does not grow with a dim.

Traces the entry abstractly (nothing runs) at two or more extents of one dim of the parameters'
symbolic shapes, every other dim and static value taken from the first example, and compares
the number of equations, nested bodies included. A Python loop or comprehension over the
examples adds equations for every example; ``jax.vmap`` and batched operations do not. Then
"vmap, not a Python loop over examples" is a rule. (``lax.map`` and ``fori_loop`` do not grow
either: forbid ``scan`` and ``while`` with ``forbidden_primitives`` to refuse them too.)
"""

from __future__ import annotations

from judge.problem.model import bind_dims, dim_names, shapes_for
from judge.rules.base import AbstractTrace, Breach, TraceEvidence, number

ID = "no_unrolling"
EVIDENCE = ("program",)
REASONS = ("unrolled_loop",)
DEFAULT_SIZES = (3, 7)


def describe(rule: dict) -> str:
    return (f"the traced program must not grow with {rule['dim']}: no Python loop or "
            f"comprehension over it (use jax.vmap or batched operations)")


def validate(rule: dict, problem) -> list:
    if rule["dim"] not in dim_names(problem.parameters):
        known = sorted(dim_names(problem.parameters))
        return [("dim", f"{rule['dim']!r} is not a dim name of the parameters' shapes"
                        + (f" (dims: {', '.join(known)})" if known else " (give them a `shape`)"))]
    if not problem.examples:
        return [("id", "needs an example to take the other dims and the static values from")]
    return []


def _sizes(rule: dict) -> tuple[int, ...]:
    return tuple(rule.get("sizes") or DEFAULT_SIZES)


def traces(rule: dict, problem) -> list[AbstractTrace]:
    base = problem.examples[0].inputs
    params = problem.parameters
    dims = bind_dims(params, {p.name: tuple(base[p.name].shape) for p in params if p.kind == "array"})
    statics = {p.name: base[p.name] for p in params if not p.traced}
    found = []
    for size in _sizes(rule):
        shapes = shapes_for(params, {**dims, rule["dim"]: size}, base)
        found.append(AbstractTrace(name=f"{rule['dim']} = {size}",
                                   shapes=shapes,
                                   values=statics,
                                   dtypes={p.name: str(base[p.name].dtype) for p in params if p.traced}))
    return found


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    return None  # decided across traces


def check_traces(rule: dict, traces: list[TraceEvidence], problem) -> Breach | None:
    counted = [(t.label, t.program.equations) for t in traces if t.program is not None]
    if len(counted) < 2 or len({n for _, n in counted}) == 1:
        return None
    told = ", ".join(f"{number(n)} at {label}" for label, n in counted)
    return Breach("unrolled_loop",
                  f"the traced program grows with {rule['dim']} ({told} equations): it repeats "
                  f"work for each index of {rule['dim']}, as a Python loop or comprehension does; "
                  f"batch it with jax.vmap or array operations")
