"""Rule ``no_unrolling``: the traced program does not grow with a dim.

When the dim is one of the spec's ``symbolic_dims`` (the default), the rules' program is traced
with it as a symbol: a Python loop or comprehension over it cannot be traced at all (RJ
``dim_read_as_number``, ``judge.grade.traces``), and this rule only caps the equations at
``max_equations`` (a loop padded to a fixed count never grows, but it is as long as the loop).
Otherwise, as before symbolic dims:

Traces the entry abstractly (nothing runs) at two or more extents of one dim of the parameters'
symbolic shapes, every other dim and static value taken from the first example, and compares
the number of equations, nested bodies included. A Python loop or comprehension over the
examples adds equations for every example; ``jax.vmap`` and batched operations do not. Then
"vmap, not a Python loop over examples" is a rule. (``lax.map`` and ``fori_loop`` do not grow
either: forbid ``scan`` and ``while`` with ``forbidden_primitives`` to refuse them too.)
"""

from __future__ import annotations

import secrets

from judge.problem.model import bind_dims, dim_names, shapes_for
from judge.rules.base import AbstractTrace, Breach, TraceEvidence, number

ID = "no_unrolling"
EVIDENCE = ("program",)
#: ``dim_read_as_number`` is reported by the symbolic trace itself (``judge.grade.traces``): it
#: is what a Python loop over a symbolic dim gets
REASONS = ("unrolled_loop", "dim_read_as_number")
DEFAULT_SIZES = (3, 7)


def describe(rule: dict) -> str:
    budget = (f", and has at most {rule['max_equations']} equations" if "max_equations" in rule
              else "")
    return (f"the traced program must not grow with {rule['dim']}{budget}: no Python loop, "
            f"comprehension or branch over it (use jax.vmap or batched operations)")


def validate(rule: dict, problem) -> list:
    if rule["dim"] not in dim_names(problem.parameters):
        known = sorted(dim_names(problem.parameters))
        return [("dim", f"{rule['dim']!r} is not a dim name of the parameters' shapes"
                        + (f" (dims: {', '.join(known)})" if known else " (give them a `shape`)"))]
    return []


def _sizes(rule: dict) -> tuple[int, ...]:
    return tuple(rule.get("sizes") or DEFAULT_SIZES)


def traces(rule: dict, problem) -> list[AbstractTrace]:
    """The program at each of ``sizes``, other dims and static values from the first example
    (none while no example has loaded, as when ``judge fill`` computes the first outputs; none
    for a symbolic dim unless the spec gives ``sizes``)."""
    if not problem.examples or (rule["dim"] in problem.symbolic_dims and "sizes" not in rule):
        return []
    base = problem.examples[0].inputs
    params = problem.parameters
    dims = bind_dims(params, {p.name: tuple(base[p.name].shape) for p in params if p.kind == "array"})
    # a tree (traced) goes with the static values, as for a case (``rules.case_traces``): the
    # worker traces it at its leaves' shapes
    statics = {p.name: base[p.name] for p in params if not p.traced or p.kind == "tree"}
    found = []
    for size in _sizes(rule):
        shapes = shapes_for(params, {**dims, rule["dim"]: size},
                            {p.name: tuple(base[p.name].shape) for p in params if p.kind == "array"})
        found.append(AbstractTrace(name=f"{rule['dim']} = {size}",
                                   shapes=shapes,
                                   values=statics,
                                   dtypes={p.name: str(base[p.name].dtype) for p in params
                                           if p.traced and p.kind == "array"}))
    return found


def other_size(extent: int) -> int:
    """The extent a case's program is traced at again to see whether it grows: drawn at random
    above the case's own (so never 1), so that a submission cannot tell it in advance."""
    return extent + 1 + secrets.randbelow(extent + 8)


def case_traces(rule: dict, problem, shapes: dict, values: dict) -> list[AbstractTrace]:
    """The case's shapes with the dim at another extent: a program that loops over the dim
    only at some extents (say, every extent but the ones ``traces`` uses) is caught on the
    cases themselves. None for a case whose extent is 1: ordinary jnp code (a squeeze, a
    median) makes a program with an equation fewer on an axis of extent 1, so that case cannot
    be compared fairly."""
    params = problem.parameters
    dims = bind_dims(params, shapes)
    if dims.get(rule["dim"], 1) <= 1 or rule["dim"] in problem.symbolic_dims:
        return []
    size = other_size(dims[rule["dim"]])
    return [AbstractTrace(name=f"{rule['dim']} = {size}",
                          shapes=shapes_for(params, {**dims, rule["dim"]: size}, shapes),
                          values=values)]  # the registry gives it the case's dtypes


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    """On a case: the program at the case's extent of the dim and at another
    (``case_traces``) must have as many equations. On every trace: no more equations than
    ``max_equations``, when the spec gives one (a loop padded to a fixed count never grows,
    but it is as long as the loop)."""
    if trace.program is None:
        return None
    budget = rule.get("max_equations")
    if budget is not None and trace.program.equations > budget:
        return Breach("unrolled_loop",
                      f"{trace.label}: the traced program has {number(trace.program.equations)} "
                      f"equations, more than the {number(budget)} a batched solution needs; a "
                      f"Python loop over {rule['dim']} makes that many: batch it with jax.vmap or "
                      f"array operations")
    if trace.abstract:
        return None
    for other in trace.related:
        if other.program is not None and other.program.equations != trace.program.equations:
            return Breach("unrolled_loop",
                          f"{trace.label} the traced program has {number(trace.program.equations)} "
                          f"equations, and {number(other.program.equations)} at {other.label}: it "
                          f"repeats work for each index of {rule['dim']}, as a Python loop or "
                          f"comprehension does; batch it with jax.vmap or array operations")
    return None


def check_traces(rule: dict, traces: list[TraceEvidence], problem) -> Breach | None:
    counted = [(t.label, t.program.equations) for t in traces if t.program is not None]
    if len(counted) < 2 or len({n for _, n in counted}) == 1:
        return None
    told = ", ".join(f"{number(n)} at {label}" for label, n in counted)
    return Breach("unrolled_loop",
                  f"the traced program grows with {rule['dim']} ({told} equations): it repeats "
                  f"work for each index of {rule['dim']}, as a Python loop or comprehension does; "
                  f"batch it with jax.vmap or array operations")
