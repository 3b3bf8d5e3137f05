"""Rule ``max_intermediate_size``: no value in the program has more elements than a bound.

A scan's stacked output that the program reads one row a step only (``rows``, found by
``judge.worker.stacked``: the residuals reverse-mode autodiff keeps of each step of a scan,
read back by the backward scan) is weighed by its row, the value one step made: an
online-softmax attention scanning over the keys is not refused for the ``(s, t, e)`` stack of
its running outputs that its derivative keeps, jitted or not. A stack summed, sliced,
transposed or returned is read whole and weighed whole, and so is one that the output the
submission returns needs (a stack of products built on purpose and read back by a second scan
for the result, not for the judge's derivatives); a step whose own value is too large
is refused as it is made. A value that only a scan's body computes is weighed only where the
scan runs a trip (``SymbolicValue.within``), and a stack read a row a step only where it has a
row: ``lax.map`` with ``batch_size=4`` scans over ``b // 4`` batches of 4 examples, which it
never computes where b < 4.

On the program traced with symbolic dims (``judge.rules.symbolic_trace``), every distinct shape
of every value (equations' outputs and constants, nested jaxprs included: jit, scan/while/cond
bodies, custom_jvp/custom_vjp rules, remat) has a size that is a polynomial in the dims, and so
is the author's ``bound``, for example ``4 * size(W) + 8 * size(x)``: the rule holds only where
the judge proves size <= bound over the dims' declared ranges (``polynomial.proves``;
inconclusive is a breach). ``max_degree`` says how fast a size may grow in a dim: ``{d: 1}`` is
"no value grows as d^2", whatever the bound. On a program traced at concrete shapes (a spec
without symbolic dims, its probe shapes) the largest value is compared with the bound there.
"""

from __future__ import annotations

import math

from judge.problem.model import bind_dims, dim_names
from judge.rules import expression, polynomial
from judge.rules.base import Breach, TraceEvidence, dims_text, made, number

ID = "max_intermediate_size"
EVIDENCE = ("program",)
REASONS = ("intermediate_too_large",)


def describe(rule: dict) -> str:
    said = []
    if "bound" in rule:
        said.append(f"no intermediate value may have more than {rule['bound']} elements")
    for dim, power in (rule.get("max_degree") or {}).items():
        said.append(f"no value's size may grow faster than {dim}{'^' + str(power) if power != 1 else ''}"
                    + (f" (nothing grows as {dim}^{power + 1})" if power else f" (no value grows with {dim})"))
    return "; ".join(said)


def validate(rule: dict, problem) -> list:
    arrays = [p.name for p in problem.parameters if p.kind == "array"]
    found = []
    if "bound" not in rule and not rule.get("max_degree"):
        found.append(("id", "give a bound, a max_degree, or both"))
    if "bound" in rule:
        try:
            expression.parse(rule["bound"], arrays, dim_names(problem.parameters))
        except expression.ExpressionError as exc:
            found.append(("bound", str(exc)))
    for dim in rule.get("max_degree") or {}:
        if dim not in problem.symbolic_dims:
            found.append(("max_degree", f"{dim!r} is not one of the symbolic dims "
                                        f"({', '.join(problem.symbolic_dims) or 'none'}): "
                                        f"a degree is only known in a symbol"))
    return found


def bound(rule: dict, parameters, shapes) -> int:
    tree = expression.parse(rule["bound"], [p.name for p in parameters if p.kind == "array"],
                            dim_names(parameters))
    return expression.evaluate(tree, shapes, bind_dims(parameters, shapes))


def _tree(rule: dict, parameters):
    return expression.parse(rule["bound"], [p.name for p in parameters if p.kind == "array"],
                            dim_names(parameters))


def _bound_polynomial(rule: dict, problem, trace: TraceEvidence) -> str:
    concrete = {k: v for k, v in bind_dims(problem.parameters, trace.shapes).items() if not isinstance(v, str)}
    if not concrete:
        return rule["bound"]
    return rule["bound"] + " with " + ", ".join(f"{k} = {v}" for k, v in sorted(concrete.items()))


def _bound_fn(rule: dict, problem, trace: TraceEvidence):
    tree = _tree(rule, problem.parameters)
    dims_at = bind_dims(problem.parameters, trace.shapes)

    def at(values: dict):
        shapes = {k: tuple(values[e] if isinstance(e, str) else e for e in shape)
                  for k, shape in trace.shapes.items()}
        dims = {k: values[v] if isinstance(v, str) else v for k, v in dims_at.items()}
        return expression.evaluate(tree, shapes, dims)
    return at


def check_symbolic(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    """Every distinct shape of the program traced with symbolic dims, against ``max_degree``
    and against the bound over the dims' ranges. Of the values over the bound, the message
    names the one furthest over it (the Jacobian, not a slice of it)."""
    symbols = dict(trace.symbols)
    limit = _bound_fn(rule, problem, trace) if "bound" in rule else None
    worst: tuple[tuple, Breach] | None = None
    for value in trace.program.shapes:
        try:
            trees = [polynomial.parse(e) for e in value.shape]
        except polynomial.ExtentError as exc:
            return Breach("intermediate_too_large", f"{trace.label}: {exc}; the size of a value made "
                                                    f"by {value.primitive} cannot be bounded")
        shape, size = polynomial.shape_text(value.shape), polynomial.size_text(value.shape)
        unknown = sorted(set().union(*[polynomial.names(t) for t in trees]) - set(symbols)) if trees else []
        if unknown:
            return Breach("intermediate_too_large", f"{trace.label}: a {shape} value made by "
                                                    f"{value.primitive} has extents in {', '.join(unknown)}, "
                                                    f"not a dim of this problem")
        if value.rows:  # a scan's stack read one row a step: a row is what a step holds
            trees, shape = trees[1:], f"a row {polynomial.shape_text(value.shape[1:])} of {shape}"
            size = polynomial.size_text(value.shape[1:])
        for dim, power in (rule.get("max_degree") or {}).items():
            grown = sum(polynomial.degree(t, dim) for t in trees)
            if grown > power:
                return Breach("intermediate_too_large",
                              f"{trace.label}: {shape} {value.dtype} {made(value)} has {size} "
                              f"elements, growing as {dim}^{grown}; this problem allows no value "
                              f"growing faster than {dim}" + (f"^{power}" if power != 1 else ""))
        if limit is None:
            continue
        try:
            counts = [polynomial.parse(n) for n in value.within]
        except polynomial.ExtentError:
            counts = []  # a count the rule cannot read: the value is weighed everywhere
        if value.rows:  # a stack of no row holds no row
            counts.append(polynomial.parse(value.shape[0]))

        def elements(values, trees=trees, counts=counts):
            size = math.prod([polynomial.evaluate(t, values) for t in trees]) if trees else 1
            for count in counts:  # a scan of no trip never computes what its body makes
                size = size * (polynomial.evaluate(count, values) > 0)
            return size
        held, where = polynomial.proves(elements, limit, symbols)
        if not held:
            if where is not None:
                count, allowed = int(elements(where)), int(limit(where))
                # on a tie, a floating value (what the student computed) before a mask or index
                rank = (count - allowed, "float" in value.dtype)
                if worst is None or rank > worst[0]:
                    worst = (rank, Breach(
                        "intermediate_too_large",
                        _too_large(trace.label, shape, value, size, count,
                                   {**where, **_concrete(problem, trace)}, allowed, rule["bound"])))
                continue
            ranges = ", ".join(f"{lo} <= {d} <= {hi}" if hi is not None else f"{d} >= {lo}"
                               for d, (lo, hi) in symbols.items())
            return Breach("intermediate_too_large",
                          f"{trace.label}: {shape} {value.dtype} {made(value)} has {size} elements, "
                          f"not <= {_bound_polynomial(rule, problem, trace)} over {ranges}; the "
                          f"judge could not prove it over every extent (inconclusive counts as a "
                          f"breach)")
    return worst[1] if worst else None


def _concrete(problem, trace: TraceEvidence) -> dict:
    """The dims a trace has as numbers (a case's own, beside the symbols)."""
    return {k: v for k, v in bind_dims(problem.parameters, trace.shapes).items()
            if not isinstance(v, str)}


def _too_large(label: str, shape: str, value, size: str, count: int, dims: dict, limit: int,
               bound_text: str) -> str:
    """``(17, 17) float32 from line 7 (made by iota) has 289 elements; at n = 1, d = 16 this
    problem allows 149 (BOUND)``; a size in symbols is given as it is and counted at the dims:
    ``has 64*n elements: 64 at n = 1, d = 2, where this problem allows 46 (BOUND)``."""
    if size == str(count):
        return (f"{label}: {shape} {value.dtype} {made(value)} has {number(count)} elements; at "
                f"{dims_text(dims)} this problem allows {number(limit)} ({bound_text})")
    return (f"{label}: {shape} {value.dtype} {made(value)} has {size} elements: {number(count)} at "
            f"{dims_text(dims)}, where this problem allows {number(limit)} ({bound_text})")


def evidence(rule: dict, trace: TraceEvidence, problem) -> str:
    """What the rule saw on a program traced with symbolic dims, for ``judge check``: its
    largest shapes by degree."""
    ranked = sorted(trace.program.shapes, key=lambda v: -sum(
        polynomial.degree(polynomial.parse(e), d) for e in v.shape[1 if v.rows else 0:] for d in trace.symbols))
    top = ", ".join(f"{polynomial.shape_text(v.shape)} from {v.primitive}" for v in ranked[:3])
    return f"largest values {top or '(none)'}: each proved within the rule"


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    program = trace.program
    if program is not None and program.symbolic:
        return check_symbolic(rule, trace, problem)
    if program is None or not program.largest or "bound" not in rule:
        return None
    limit = bound(rule, problem.parameters, trace.shapes)
    largest = program.largest[0]
    if largest.size <= limit:
        return None
    shape = "(" + ", ".join(map(str, largest.shape)) + ("," if len(largest.shape) == 1 else "") + ")"
    return Breach("intermediate_too_large",
                  _too_large(trace.label, shape, largest, str(largest.size), largest.size,
                             _concrete(problem, trace), limit, rule["bound"]))


def blind_spots(rule: dict, problem, traces) -> list[str]:
    """A warning when no traced shape (a case's or a probe shape's) has a dim whose square is
    above the bound: a d x d intermediate (a Hessian, a Gram matrix) would pass everywhere.
    Not for a problem whose dims are symbols: the bound is proved over their whole ranges."""
    if problem.symbolic_dims or "bound" not in rule:
        return []
    for _, shapes in traces:
        extents = [e for shape in shapes.values() for e in shape]
        if extents and max(extents) ** 2 > bound(rule, problem.parameters, shapes):
            return []
    return [f"at every case and probe shape the bound {rule['bound']} is at least the square of "
            f"the largest dim, so a d x d intermediate passes everywhere; add a probe shape with "
            f"a larger dim (probe_shapes)"]
