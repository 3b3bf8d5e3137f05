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

``parameter: K`` keys the rule on a static int parameter instead of a dim (a number of
iterations): the program is traced at each of ``sizes`` of K and, beside each case, at another
value of K in the parameter's range, and must have as many equations at each. A Python loop
over ``range(K)`` grows; a ``fori_loop`` or ``scan`` over K steps does not.
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
    if "parameter" in rule:
        return (f"the traced program must not grow with {rule['parameter']}{budget}: no Python "
                f"loop over range({rule['parameter']}) (run its steps in a jax.lax.fori_loop, "
                f"scan or while_loop)")
    return (f"the traced program must not grow with {rule['dim']}{budget}: no Python loop, "
            f"comprehension or branch over it (use jax.vmap or batched operations)")


def _name(rule: dict) -> str:
    """What the program must not grow with: the dim, or the static parameter."""
    return rule.get("parameter") or rule["dim"]


def validate(rule: dict, problem) -> list:
    if ("dim" in rule) == ("parameter" in rule):
        return [("id", "give `dim` (a dim name) or `parameter` (a static int parameter), one of them")]
    if "parameter" in rule:
        name = rule["parameter"]
        p = next((p for p in problem.parameters if p.name == name), None)
        if p is None or p.kind != "int" or p.traced:
            ints = [q.name for q in problem.parameters if q.kind == "int" and not q.traced]
            return [("parameter", f"{name!r} is not a static int parameter (kind: int, traced: "
                                  f"false)" + (f"; the spec has {', '.join(ints)}" if ints else ""))]
        outside = [n for n in _sizes(rule) if not _in_range(p, n)]
        if outside:
            return [("sizes", f"{outside[0]} is outside {name}'s range ({_range_text(p)}): give "
                              f"sizes it allows")]
        return []
    if rule["dim"] not in dim_names(problem.parameters):
        known = sorted(dim_names(problem.parameters))
        return [("dim", f"{rule['dim']!r} is not a dim name of the parameters' shapes"
                        + (f" (dims: {', '.join(known)})" if known else " (give them a `shape`)"))]
    return []


def _in_range(p, n: int) -> bool:
    return ((p.minimum is None or n >= p.minimum) and (p.maximum is None or n <= p.maximum)
            and (p.exclusive_minimum is None or n > p.exclusive_minimum)
            and (p.exclusive_maximum is None or n < p.exclusive_maximum))


def _range_text(p) -> str:
    low = p.minimum if p.minimum is not None else (
        f"> {p.exclusive_minimum}" if p.exclusive_minimum is not None else "any")
    high = p.maximum if p.maximum is not None else (
        f"< {p.exclusive_maximum}" if p.exclusive_maximum is not None else "any")
    return f"minimum {low}, maximum {high}"


def _sizes(rule: dict) -> tuple[int, ...]:
    return tuple(rule.get("sizes") or DEFAULT_SIZES)


def traces(rule: dict, problem) -> list[AbstractTrace]:
    """The program at each of ``sizes``, other dims and static values from the first example
    (none while no example has loaded, as when ``judge fill`` computes the first outputs; none
    for a symbolic dim unless the spec gives ``sizes``)."""
    if not problem.examples or (rule.get("dim") in problem.symbolic_dims and "sizes" not in rule):
        return []
    base = problem.examples[0].inputs
    params = problem.parameters
    if "parameter" in rule:
        return [_at_value(problem, base, rule["parameter"], size) for size in _sizes(rule)]
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


def _at_value(problem, inputs: dict, name: str, value: int) -> AbstractTrace:
    """The program at ``inputs``' shapes, dtypes and static values, the static int parameter
    ``name`` at ``value``."""
    params = problem.parameters
    values = {p.name: inputs[p.name] for p in params if not p.traced or p.kind == "tree"}
    return AbstractTrace(name=f"{name} = {value}",
                         shapes={p.name: tuple(inputs[p.name].shape) for p in params if p.kind == "array"},
                         values={**values, name: int(value)},
                         dtypes={p.name: str(inputs[p.name].dtype) for p in params
                                 if p.traced and p.kind == "array"})


def other_value(p, value: int) -> int | None:
    """Another value of the static int parameter ``p`` than the case's, drawn at random in its
    range (above the case's where it can be), so that a submission cannot tell it in advance;
    None when the range holds no other."""
    high = p.maximum if p.maximum is not None else (
        p.exclusive_maximum - 1 if p.exclusive_maximum is not None else value + 16)
    low = p.minimum if p.minimum is not None else (
        p.exclusive_minimum + 1 if p.exclusive_minimum is not None else 0)
    if high > value:
        return value + 1 + secrets.randbelow(high - value)
    if low < value:
        return low + secrets.randbelow(value - low)
    return None


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
    if "parameter" in rule:
        # the case's value and another, both traced alike: the case's own program also holds
        # the probes at its cotangent and tangent, so it is not compared with these
        p = problem.parameter(rule["parameter"])
        value = int(values[p.name])
        other = other_value(p, value)
        if other is None:
            return []
        return [AbstractTrace(name=f"{p.name} = {n}", shapes=shapes, values={**values, p.name: n})
                for n in (value, other)]  # the registry gives the dtypes
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
                      f"equations, more than the {number(budget)} " + _budget_words(rule, trace.program))
    if trace.abstract:
        return None
    if "parameter" in rule:
        counted = [(o.label, o.program.equations) for o in trace.related if o.program is not None]
        if len({n for _, n in counted}) > 1:
            told = " and ".join(f"{number(n)} equations at {label}" for label, n in counted)
            return Breach("unrolled_loop", f"{trace.label}: the traced program has {told}: "
                                           + _growth_words(rule))
        return None
    for other in trace.related:
        if other.program is not None and other.program.equations != trace.program.equations:
            return Breach("unrolled_loop",
                          f"{trace.label} the traced program has {number(trace.program.equations)} "
                          f"equations, and {number(other.program.equations)} at {other.label}: "
                          + _growth_words(rule))
    return None


def check_traces(rule: dict, traces: list[TraceEvidence], problem) -> Breach | None:
    counted = [(t.label, t.program.equations) for t in traces if t.program is not None]
    if len(counted) < 2 or len({n for _, n in counted}) == 1:
        return None
    told = ", ".join(f"{number(n)} at {label}" for label, n in counted)
    return Breach("unrolled_loop",
                  f"the traced program grows with {_name(rule)} ({told} equations): "
                  + _growth_words(rule))


def _busiest(program) -> str:
    """``; line 12 makes 380 of them``: the line of the submission that made the most."""
    if not getattr(program, "busiest", None):
        return ""
    line, made = program.busiest[0]
    return f"; line {line} makes {number(made)} of them"


def _growth_words(rule: dict) -> str:
    if "parameter" in rule:
        return (f"it repeats work for each of the {rule['parameter']} steps, as a Python loop "
                f"does; run the steps in a jax.lax.fori_loop, scan or while_loop")
    return (f"it repeats work for each index of {rule['dim']}, as a Python loop or comprehension "
            f"does; batch it with jax.vmap or array operations")


def _budget_words(rule: dict, program) -> str:
    if "parameter" in rule:
        return (f"a solution needs{_busiest(program)}; a Python loop over range({rule['parameter']}) "
                f"makes that many: run the steps in a jax.lax.fori_loop, scan or while_loop")
    return (f"a batched solution needs{_busiest(program)}; a Python loop over {rule['dim']} makes "
            f"that many: batch it with jax.vmap or array operations")
