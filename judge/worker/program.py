"""The summary of a traced program that structural rules read, as plain data.

Runs in the worker, on a jaxpr the case runner traced; decides nothing. The walk covers every
nested jaxpr an equation holds (jit, scan/while/cond bodies, custom_jvp/custom_vjp calls, remat),
each distinct jaxpr walked once and its totals reused wherever it is called again, so the cost
is linear in the program's size however often a body is reused. The summary (its shape is in
``protocol``)::

    {"equations": 412,                       # every equation, each call of a body counted
     "primitives": {"dot_general": 6, ...},  # equations per primitive, counted the same way
     "live": {"dot_general": 5, ...},        # the same, over equations the outputs depend on
     "largest": [{"shape": [4096, 4096], "dtype": "float32", "primitive": "dot_general"}, ...]}

An equation is live when an output of its jaxpr depends on it or it has an effect (a print, a
callback); in a body, the body's own outputs count as needed. A ``lax.scan`` whose result is
thrown away is in ``primitives`` but not in ``live``.

``largest`` holds the values with the most elements (equation outputs and constants), at most
``protocol.MAX_LARGEST``, largest first; the judge recomputes each one's size from its shape.
"""

from __future__ import annotations

import math

from . import protocol


def sub_jaxprs(value):
    """The open jaxprs held in one equation parameter (a jaxpr, a closed jaxpr, or a tuple)."""
    if hasattr(value, "eqns"):
        yield value
    elif hasattr(value, "jaxpr") and hasattr(value.jaxpr, "eqns"):
        yield value.jaxpr
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from sub_jaxprs(item)


def _value(aval, primitive: str):
    shape = getattr(aval, "shape", None)
    if shape is None:
        return None
    try:
        dims = [int(d) for d in shape]
    except (TypeError, ValueError):  # a symbolic dimension: not produced by the judge's traces
        return None
    if len(dims) > protocol.MAX_SUMMARY_NDIM or any(not 0 <= d <= protocol.MAX_SUMMARY_COUNT for d in dims):
        return None
    return math.prod(dims), {"shape": dims, "dtype": str(getattr(aval, "dtype", "?"))[:protocol.MAX_NAME],
                             "primitive": primitive[:protocol.MAX_NAME]}


def summarize(closed) -> dict:
    """The summary of a ClosedJaxpr (or open Jaxpr) and everything nested in it."""
    totals: dict[int, tuple] = {}              # id(jaxpr) -> (equations, primitives, live), once each
    keep: list = []                            # the jaxprs walked, so no id is reused meanwhile
    largest: dict[tuple, tuple[int, dict]] = {}

    def note(found) -> None:
        if found is not None:
            key = (tuple(found[1]["shape"]), found[1]["dtype"])
            if key not in largest or largest[key][1]["primitive"] == "constant":
                largest[key] = found

    def add(into: dict, counts: dict) -> None:
        for k, v in counts.items():
            into[k] = into.get(k, 0) + v

    def walk(jaxpr) -> tuple[int, dict, dict]:
        if id(jaxpr) in totals:
            return totals[id(jaxpr)]
        keep.append(jaxpr)
        equations, primitives, live = 0, {}, {}
        for var in getattr(jaxpr, "constvars", ()):
            note(_value(var.aval, "constant"))
        needed = _live_equations(jaxpr)
        for i, eqn in enumerate(jaxpr.eqns):
            name = eqn.primitive.name
            equations += 1
            primitives[name] = primitives.get(name, 0) + 1
            if i in needed:
                live[name] = live.get(name, 0) + 1
            for var in eqn.outvars:
                note(_value(getattr(var, "aval", None), name))
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    n, counts, sub_live = walk(sub)
                    equations += n
                    add(primitives, counts)
                    if i in needed:
                        add(live, sub_live)
        totals[id(jaxpr)] = (equations, primitives, live)
        return equations, primitives, live

    top = closed.jaxpr if hasattr(closed, "jaxpr") and hasattr(closed.jaxpr, "eqns") else closed
    equations, primitives, live = walk(top)
    # largest first; on a tie a floating value (what a student computed) before an index array
    ranked = sorted(largest.values(), key=lambda item: (-item[0], "float" not in item[1]["dtype"]))
    ranked = ranked[:protocol.MAX_LARGEST]
    names = sorted(primitives, key=lambda k: -primitives[k])[:protocol.MAX_PRIMITIVE_NAMES]
    cap = protocol.MAX_SUMMARY_COUNT  # a body reused in nested loops can count past any bound
    return {"equations": min(equations, cap), "primitives": {k: min(primitives[k], cap) for k in names},
            "live": {k: min(live[k], cap) for k in names if k in live},
            "largest": [entry for _, entry in ranked]}


def _live_equations(jaxpr) -> set[int]:
    """Positions of the equations the jaxpr's outputs depend on, or that have an effect."""
    needed = {id(v) for v in jaxpr.outvars}
    live: set[int] = set()
    for i in range(len(jaxpr.eqns) - 1, -1, -1):
        eqn = jaxpr.eqns[i]
        if getattr(eqn, "effects", None) or any(id(v) in needed for v in eqn.outvars):
            live.add(i)
            needed.update(id(v) for v in eqn.invars)
    return live
