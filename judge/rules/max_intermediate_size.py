"""Rule ``max_intermediate_size``: no value in the program has more elements than a bound.

Reads the largest values of the traced program (every equation's outputs and every constant,
nested jaxprs included: jit, scan/while/cond bodies, custom_jvp/custom_vjp rules, remat) and
compares the largest with the author's expression evaluated at the trace's shapes, for example
``4 * size(W) + 8 * size(x)``: then "never build the d x d Hessian" is a rule, checked on
every case and, without running anything, at the spec's probe shapes.
"""

from __future__ import annotations

from judge.problem.model import bind_dims, dim_names
from judge.rules import expression
from judge.rules.base import Breach, TraceEvidence, number

ID = "max_intermediate_size"
EVIDENCE = ("program",)
REASONS = ("intermediate_too_large",)


def describe(rule: dict) -> str:
    return f"no intermediate value may have more than {rule['bound']} elements"


def validate(rule: dict, problem) -> list:
    arrays = [p.name for p in problem.parameters if p.kind == "array"]
    try:
        expression.parse(rule["bound"], arrays, dim_names(problem.parameters))
    except expression.ExpressionError as exc:
        return [("bound", str(exc))]
    return []


def bound(rule: dict, parameters, shapes) -> int:
    tree = expression.parse(rule["bound"], [p.name for p in parameters if p.kind == "array"],
                            dim_names(parameters))
    return expression.evaluate(tree, shapes, bind_dims(parameters, shapes))


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    program = trace.program
    if program is None or not program.largest:
        return None
    limit = bound(rule, problem.parameters, trace.shapes)
    largest = program.largest[0]
    if largest.size <= limit:
        return None
    shape = "(" + ", ".join(map(str, largest.shape)) + ("," if len(largest.shape) == 1 else "") + ")"
    return Breach("intermediate_too_large",
                  f"{trace.label}: an intermediate of shape {shape} ({largest.dtype}, made by "
                  f"{largest.primitive}) has {number(largest.size)} elements; the bound "
                  f"{rule['bound']} is {number(limit)} there")


def blind_spots(rule: dict, problem, traces) -> list[str]:
    """A warning when no traced shape (a case's or a probe shape's) has a dim whose square is
    above the bound: a d x d intermediate (a Hessian, a Gram matrix) would pass everywhere."""
    for _, shapes in traces:
        extents = [e for shape in shapes.values() for e in shape]
        if extents and max(extents) ** 2 > bound(rule, problem.parameters, shapes):
            return []
    return [f"at every case and probe shape the bound {rule['bound']} is at least the square of "
            f"the largest dim, so a d x d intermediate passes everywhere; add a probe shape with "
            f"a larger dim (probe_shapes)"]
