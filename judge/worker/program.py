"""The summary of a traced program that structural rules read, as plain data.

Runs in the worker, on a jaxpr the case runner traced; decides nothing. The walk covers every
nested jaxpr an equation holds (jit, scan/while/cond bodies, custom_jvp/custom_vjp calls, remat),
each distinct jaxpr walked once and its totals reused wherever it is called again, so the cost
is linear in the program's size however often a body is reused. The summary (its shape is in
``protocol``)::

    {"equations": 412,                       # every equation, each call of a body counted
     "primitives": {"dot_general": 6, ...},  # equations per primitive, counted the same way
     "live": {"dot_general": 5, ...},        # the same, over equations the outputs depend on
     "largest": [{"shape": [4096, 4096], "dtype": "float32", "primitive": "dot_general"}, ...],
     "omitted": 0}                           # primitives left out past MAX_PRIMITIVE_NAMES

An equation is live when an output of its jaxpr that is needed depends on it. Inside a call
(jit, checkpoint, custom_jvp/custom_vjp) the needed outputs are those the caller uses; inside a
loop or branch body, all of them. A ``lax.scan`` whose result is thrown away, even from inside a
jit, is in ``primitives`` but not in ``live``, and so is one whose step only prints or calls back
(an effect computes nothing the output depends on).

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


#: Primitives whose sub-jaxpr's outputs are the equation's outputs, one for one: liveness
#: follows which of them the caller needs. In any other body (a loop, a branch) every output of
#: the body counts as needed.
_CALLS = frozenset({"jit", "pjit", "closed_call", "core_call", "named_call", "checkpoint", "remat",
                    "remat2", "custom_jvp_call", "custom_vjp_call"})


def _value(aval, primitive: str):
    """``(elements, entry)`` for one value. A value of more dimensions or larger extents than
    the channel carries is sent as one flat extent (its element count, capped), so that a
    Hessian spread over many axes of extent 1 is still seen whole."""
    shape = getattr(aval, "shape", None)
    if shape is None:
        return None
    try:
        dims = [int(d) for d in shape]
    except (TypeError, ValueError):  # a symbolic dimension: no bound holds for it
        dims = [protocol.MAX_SUMMARY_COUNT]
    size = math.prod(dims)
    if len(dims) > protocol.MAX_SUMMARY_NDIM or any(not 0 <= d <= protocol.MAX_SUMMARY_COUNT for d in dims):
        dims = [min(size, protocol.MAX_SUMMARY_COUNT)]
    return size, {"shape": dims, "dtype": str(getattr(aval, "dtype", "?"))[:protocol.MAX_NAME],
                  "primitive": primitive[:protocol.MAX_NAME]}


def summarize(closed) -> dict:
    """The summary of a ClosedJaxpr (or open Jaxpr) and everything nested in it."""
    totals: dict[int, tuple] = {}       # id(jaxpr) -> (equations, primitives), once each
    lives: dict[tuple, dict] = {}       # (id(jaxpr), outputs needed) -> live primitives
    keep: list = []                     # the jaxprs walked, so no id is reused meanwhile
    largest: dict[tuple, tuple[int, dict]] = {}

    def note(found) -> None:
        if found is not None:
            key = (tuple(found[1]["shape"]), found[1]["dtype"])
            if key not in largest or largest[key][1]["primitive"] == "constant":
                largest[key] = found

    def add(into: dict, counts: dict) -> None:
        for k, v in counts.items():
            into[k] = into.get(k, 0) + v

    def walk(jaxpr) -> tuple[int, dict]:
        if id(jaxpr) in totals:
            return totals[id(jaxpr)]
        keep.append(jaxpr)
        equations, primitives = 0, {}
        for var in getattr(jaxpr, "constvars", ()):
            note(_value(var.aval, "constant"))
        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            equations += 1
            primitives[name] = primitives.get(name, 0) + 1
            for var in eqn.outvars:
                note(_value(getattr(var, "aval", None), name))
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    n, counts = walk(sub)
                    equations += n
                    add(primitives, counts)
        totals[id(jaxpr)] = (equations, primitives)
        return equations, primitives

    def live_walk(jaxpr, wanted) -> dict:
        key = (id(jaxpr), wanted)
        if key in lives:
            return lives[key]
        live: dict = {}
        for i, mask in _liveness(jaxpr, wanted).items():
            eqn = jaxpr.eqns[i]
            name = eqn.primitive.name
            live[name] = live.get(name, 0) + 1
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    follows = name in _CALLS and len(sub.outvars) == len(mask)
                    add(live, live_walk(sub, mask if follows else None))
        lives[key] = live
        return live

    top = closed.jaxpr if hasattr(closed, "jaxpr") and hasattr(closed.jaxpr, "eqns") else closed
    equations, primitives = walk(top)
    live = live_walk(top, None)
    # largest first; on a tie a floating value (what a student computed) before an index array
    ranked = sorted(largest.values(), key=lambda item: (-item[0], "float" not in item[1]["dtype"]))
    ranked = ranked[:protocol.MAX_LARGEST]
    names = sorted(primitives, key=lambda k: -primitives[k])[:protocol.MAX_PRIMITIVE_NAMES]
    cap = protocol.MAX_SUMMARY_COUNT  # a body reused in nested loops can count past any bound
    return {"equations": min(equations, cap), "primitives": {k: min(primitives[k], cap) for k in names},
            "live": {k: min(live[k], cap) for k in names if k in live},
            "largest": [entry for _, entry in ranked],
            "omitted": len(primitives) - len(names)}


def _liveness(jaxpr, wanted) -> dict[int, tuple[bool, ...]]:
    """For each equation the ``wanted`` outputs of the jaxpr depend on (None: all of them):
    which of its own outputs are needed. An effect (a print, a callback) does not make an
    equation live: it feeds no output."""
    outs = jaxpr.outvars if wanted is None else [v for v, w in zip(jaxpr.outvars, wanted) if w]
    needed = {id(v) for v in outs}
    live: dict[int, tuple[bool, ...]] = {}
    for i in range(len(jaxpr.eqns) - 1, -1, -1):
        eqn = jaxpr.eqns[i]
        mask = tuple(id(v) in needed for v in eqn.outvars)
        if any(mask):
            live[i] = mask
            needed.update(id(v) for v in eqn.invars)
    return live
