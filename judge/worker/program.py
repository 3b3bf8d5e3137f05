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
(jit, checkpoint, custom_jvp/custom_vjp, composite) or a ``cond`` branch the needed outputs are
those the caller uses; inside a loop body, all of them; and an input of a call, a ``cond`` or an
``optimization_barrier`` is needed only when what it computes uses it. A ``lax.scan`` whose
result is thrown away, even from inside a jit, or handed to a jit that ignores it, is in
``primitives`` but not in ``live``, and so is one whose step only prints or calls back (an
effect computes nothing the output depends on).

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
                    "remat2", "custom_jvp_call", "custom_vjp_call", "composite"})
#: The same and ``cond``, whose branches' outputs are its outputs, one for one.
_FOLLOWS = _CALLS | {"cond"}


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
    backward: dict = {}                 # the same key -> what _backward found
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
        for i, mask in _liveness(jaxpr, wanted, backward).items():
            eqn = jaxpr.eqns[i]
            name = eqn.primitive.name
            live[name] = live.get(name, 0) + 1
            for param in eqn.params.values():
                for sub in sub_jaxprs(param):
                    follows = name in _FOLLOWS and len(sub.outvars) == len(mask)
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


def _liveness(jaxpr, wanted, cache: dict | None = None) -> dict[int, tuple[bool, ...]]:
    """For each equation the ``wanted`` outputs of the jaxpr depend on (None: all of them):
    which of its own outputs are needed. An effect (a print, a callback) does not make an
    equation live: it feeds no output. Nor does an input a call, a ``cond`` or an
    ``optimization_barrier`` receives but does not use for a needed output (a scan's result
    passed to a jit that ignores it)."""
    return _backward(jaxpr, wanted, {} if cache is None else cache)[0]


def _backward(jaxpr, wanted, cache: dict):
    """``_liveness`` and the ids of the jaxpr's variables the wanted outputs need (its inputs
    among them), memoized per (jaxpr, wanted) in ``cache``."""
    key = (id(jaxpr), wanted)
    if key in cache:
        return cache[key][1:]
    outs = jaxpr.outvars if wanted is None else [v for v, w in zip(jaxpr.outvars, wanted) if w]
    needed = {id(v) for v in outs}
    live: dict[int, tuple[bool, ...]] = {}
    for i in range(len(jaxpr.eqns) - 1, -1, -1):
        eqn = jaxpr.eqns[i]
        mask = tuple(id(v) in needed for v in eqn.outvars)
        if any(mask):
            live[i] = mask
            needed.update(id(v) for v in _inputs_needed(eqn, mask, cache))
    cache[key] = (jaxpr, live, needed)  # the jaxpr is kept so that its id is not reused
    return live, needed


def _inputs_needed(eqn, mask: tuple[bool, ...], cache: dict) -> list:
    """The inputs of ``eqn`` its ``mask`` of needed outputs depends on: for a call or a
    ``cond``, those its body (any branch) uses for them; for an ``optimization_barrier``, the
    input of each needed output; otherwise all of them."""
    name = eqn.primitive.name
    invars = list(eqn.invars)
    if name == "optimization_barrier" and len(invars) == len(mask):
        return [v for v, m in zip(invars, mask) if m]
    if name not in _FOLLOWS:
        return invars
    bodies = [sub for param in eqn.params.values() for sub in sub_jaxprs(param)]
    operands = invars[1:] if name == "cond" else invars  # a cond's first input is its index
    if not bodies or any(len(b.invars) != len(operands) or len(b.outvars) != len(mask) for b in bodies):
        return invars
    used = [False] * len(operands)
    for body in bodies:
        needed = _backward(body, mask, cache)[1]
        used = [u or id(v) in needed for u, v in zip(used, body.invars)]
    return invars[:len(invars) - len(operands)] + [v for v, u in zip(operands, used) if u]
