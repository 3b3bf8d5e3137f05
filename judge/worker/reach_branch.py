"""Which branches a ``cond`` on the way to a loop may take, read on the program traced with the
dims as symbols (``taken``), so that ``reach.measure`` measures the loop under each of them.

Every case runs that very program made concrete at its dims (``symbolic.instantiate``), so a
cond's index there is the branch the case runs:

* an index JAX decided while tracing is a literal: ``x.shape[0] > 0`` where T is at least 1 (a
  test the ranges of the dims decide), or a Python value. Every case runs that one branch;
* an index computed from the dims' values and constants alone (``jnp.array(T) > 5``) is
  evaluated at every extent the ranges allow: the branches it takes there are those the cases
  may run, one where the test holds over the whole range (``jnp.array(T) >= 1``);
* an index that reads the program's inputs (a test on the data, alone or joined with the dims)
  may take any branch on the cases, whatever it takes on the judge's own inputs; and so may one
  that cannot be evaluated that way (a range without a bound or too many extents, a loop or an
  effect on the way to it, a value too large).

A branch the cases may take whose program output reads none of the program's inputs
(``reads_data``: a NaN fill where the data are not finite, a constant) is left out of the least
reach: a case that takes it gets that fixed output, graded by its values, and no closed form of
the data can hide there. Read on the program's dataflow, not measured: a value reads the inputs
where any equation on the way to it reads one (a comparison, a product by zero), so only a
branch whose output is built from literals, constants and the dims alone is left out.

Decides nothing; runs the few equations an index is computed from, at each extent, not the
program.
"""

from __future__ import annotations

import itertools

import numpy as np

from . import reach, symbolic
from .jaxapi import sub_jaxprs
from .loops import is_ref

#: Most extents (points of the dims' ranges) at which an index is evaluated.
MAX_POINTS = 4096
#: Most equations an index may be computed from, to be evaluated.
MAX_EQUATIONS = 64
#: Most elements of a value computed on the way to an index, at any extent.
MAX_ELEMENTS = 1 << 16
#: Most elements the equations of an index compute in all, over every point at once (each value
#: is made at every point together: 4096 points of a value of 65536 elements would be a GiB).
MAX_WORK = 1 << 22


def taken(closed, path: list, symbols: dict) -> list:
    """For each ``cond`` on ``path`` (``reach.path_to``'s, in ``closed``: the program traced with
    the dims of ``symbols``, name -> [low, high], as symbols), in the order the path meets them:
    the branches it may take over the ranges, sorted (every branch where that is not known)."""
    found = []
    jaxpr, consts, links = reach.opened(closed.jaxpr), list(getattr(closed, "consts", ())), None
    levels: list = []
    steps = list(path)
    while len(steps) > 1:
        eqn = _nth(jaxpr, steps.pop(0))
        levels.append((jaxpr, consts, links))
        if eqn.primitive.name == "cond":
            count = len(eqn.params["branches"])
            found.append(_branches(levels, eqn.invars[0], count, symbols))
            sub, links = eqn.params["branches"][steps.pop(0)[1]], list(eqn.invars[1:])
        else:
            sub, links = reach.call_body(eqn), list(eqn.invars)
        jaxpr, consts = reach.opened(sub), list(getattr(sub, "consts", ()))
    return found


def fixed(closed, path: list, branches: list, outputs: int) -> set:
    """The branches of the one ``cond`` on ``path`` (``reach.path_to``'s, in ``closed``) that may
    take several (``branches``: ``taken``'s) under which none of the first ``outputs`` floating
    outputs of the program reads the program's inputs; none where no such cond, or more than
    one, lies on the path, or where every branch is such (then each is measured). Every other
    ``cond`` on the path takes its one branch; an equation off the path reads the inputs where
    any of its operands does (then so does every ref it is given)."""
    several = [n for n, b in enumerate(branches) if len(b) > 1]
    if len(several) != 1:
        return set()
    top = reach.opened(closed.jaxpr)
    wanted = [i for i, v in enumerate(top.outvars[:outputs])
              if np.issubdtype(np.dtype(getattr(v.aval, "dtype", np.int32)), np.inexact)]
    route = reach.with_choices(path, branches)
    found = {b for b in branches[several[0]]
             if not any(_read(top, [True] * len(top.invars), route, b)[i] for i in wanted)}
    return set() if len(found) == len(branches[several[0]]) else found


def _read(jaxpr, given: list, route: list, forced: int) -> list:
    """Which outputs of ``jaxpr`` read the data, its inputs ``given`` reading them or not, along
    ``route`` (``_read``'s path, its indices counted without ``dim_as_value``)."""
    from jax._src import core

    marked = {id(v) for v, g in zip(jaxpr.invars, given) if g}

    def reads(v):
        return not isinstance(v, core.Literal) and id(v) in marked

    index = 0
    for eqn in jaxpr.eqns:
        here = eqn.primitive.name != "dim_as_value" and bool(route) and index == route[0]
        index += eqn.primitive.name != "dim_as_value"
        ins = [reads(v) for v in eqn.invars]
        if here and eqn.primitive.name == "cond" and len(route) > 1:
            _, b, branches = route[1]
            chosen = forced if len(branches) > 1 else branches[0]
            inner = route[2:] if chosen == b else []
            outs = _read(reach.opened(eqn.params["branches"][chosen]), ins[1:], inner, forced)
        elif here and len(route) > 1 and reach.call_body(eqn) is not None:
            outs = _read(reach.opened(reach.call_body(eqn)), ins, route[1:], forced)
        else:
            outs = [any(ins)] * len(eqn.outvars)
            if any(ins):  # a ref an equation is given may be written with what it reads
                marked.update(id(v) for v in eqn.invars if not isinstance(v, core.Literal) and is_ref(v))
        marked.update(id(v) for v, o in zip(eqn.outvars, outs) if o)
    return [reads(v) for v in jaxpr.outvars]


def _nth(jaxpr, index: int):
    """The equation at ``index`` counted as ``reach.path_to`` counts: without ``dim_as_value``."""
    return [e for e in jaxpr.eqns if e.primitive.name != "dim_as_value"][index]


def _branches(levels: list, index, count: int, symbols: dict) -> tuple:
    from jax._src import core

    if isinstance(index, core.Literal):
        return (_clipped(index.val, count),)
    points = _points(symbols)
    try:
        values = None if points is None else _evaluated(levels, index, points)
    except Exception:  # noqa: BLE001 - an index of a form not evaluated here: any branch
        values = None
    if values is None:
        return tuple(range(count))
    return tuple(sorted({_clipped(v, count) for v in values}))


def _clipped(value, count: int) -> int:
    """The branch an index selects (clamped to the branches, as ``lax.switch`` clamps it)."""
    return int(np.clip(int(np.asarray(value)), 0, count - 1))


def _points(symbols: dict) -> list | None:
    """Every assignment of the dims within their ranges; None: a range without an upper bound,
    or more than ``MAX_POINTS`` of them."""
    names = sorted(symbols)
    ranges = []
    for name in names:
        low, high = symbols[name]
        if high is None:
            return None
        ranges.append(range(1 if low is None else int(low), int(high) + 1))
    if int(np.prod([len(r) for r in ranges], dtype=np.int64)) > MAX_POINTS:
        return None
    return [dict(zip(names, values)) for values in itertools.product(*ranges)]


def _evaluated(levels: list, var, points: list):
    """The value of ``var`` (of the innermost of ``levels``: each a jaxpr, its constants, and the
    atoms of the level around it its inputs are, None at the program's top) at each of
    ``points``, stacked; None where it reads the program's inputs or cannot be evaluated."""
    import jax
    from jax._src import core

    jaxpr, consts, links = levels[-1]
    if isinstance(var, core.Literal):
        value = np.asarray(var.val)
        return np.broadcast_to(value, (len(points), *value.shape))
    cut = _slice(jaxpr, var)
    if cut is None:
        return None
    eqns, inputs, seen = cut
    if len(points) * sum(_size(v) for e in eqns for v in e.outvars) > MAX_WORK:
        return None
    given = []
    for v in inputs:  # the level's inputs it reads: from the level around it
        if links is None:
            return None  # the program's inputs: data
        outer = _evaluated(levels[:-1], links[next(n for n, w in enumerate(jaxpr.invars) if w is v)], points)
        if outer is None:
            return None
        given.append(outer)
    # each dim's value, at every point, an input of the equations: the rest is the same at all
    dims = [e for e in eqns if e.primitive.name == "dim_as_value"]
    given += [np.array([symbolic.concrete((e.params["dim"],), p)[0] for p in points], e.outvars[0].aval.dtype)
              for e in dims]
    kept = [n for n, v in enumerate(jaxpr.constvars) if id(v) in seen]
    invars = [*inputs, *(e.outvars[0] for e in dims)]
    info = getattr(jaxpr, "debug_info", None)
    info = info and info._replace(arg_names=("",) * len(invars), result_paths=("",))
    piece = core.Jaxpr([jaxpr.constvars[n] for n in kept], invars, [var],
                       [e for e in eqns if e.primitive.name != "dim_as_value"], debug_info=info)
    values = [consts[n] for n in kept]
    if not given:
        value = np.asarray(core.eval_jaxpr(piece, values)[0])
        return np.broadcast_to(value, (len(points), *value.shape))
    return np.asarray(jax.vmap(lambda *a: core.eval_jaxpr(piece, values, *a)[0])(*given))


def _slice(jaxpr, var):
    """The equations of ``jaxpr`` that ``var`` is computed from, in order, and the inputs of
    ``jaxpr`` they read; None where one is not plain (``_plain``) or there are too many."""
    from jax._src import core

    producers = {id(v): e for e in jaxpr.eqns for v in e.outvars}
    invars = {id(v) for v in jaxpr.invars}
    wanted, seen, inputs = [var], set(), set()
    while wanted:
        v = wanted.pop()
        if isinstance(v, core.Literal) or id(v) in seen:
            continue
        seen.add(id(v))
        eqn = producers.get(id(v))
        if eqn is None:
            if id(v) in invars:
                inputs.add(id(v))
            continue
        if not _plain(eqn):
            return None
        wanted.extend(eqn.invars)
    eqns = [e for e in jaxpr.eqns if any(id(v) in seen for v in e.outvars)]
    if len(eqns) > MAX_EQUATIONS:
        return None
    return eqns, [v for v in jaxpr.invars if id(v) in inputs], seen


def _plain(eqn, nested: bool = False) -> bool:
    """Cheap to run at every extent at once and running nothing of the submission's: no effect,
    no loop, no callback, values of a fixed shape (none of a dim's extent) of at most
    ``MAX_ELEMENTS``, and no dim in a parameter, in the equation and in every jaxpr it holds
    (where a dim's value, read inside, would not be the point's)."""
    name = eqn.primitive.name
    if eqn.effects or name in ("while", "scan") or "callback" in name or (nested and name == "dim_as_value"):
        return False
    for v in eqn.outvars:
        shape = getattr(v.aval, "shape", None)
        if shape is None or not all(isinstance(n, (int, np.integer)) for n in shape) \
                or int(np.prod(shape, dtype=np.int64)) > MAX_ELEMENTS:
            return False
    if name != "dim_as_value" and any(_dim(item) for p in eqn.params.values() for item in _items(p)):
        return False
    return all(_plain(e, True) for p in eqn.params.values() for sub in sub_jaxprs(p) for e in sub.eqns)


def _size(var) -> int:
    """The elements of ``var`` (a fixed shape: ``_plain`` checked it)."""
    return max(1, int(np.prod(getattr(var.aval, "shape", ()), dtype=np.int64)))


def _items(value):
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _items(item)
    else:
        yield value


def _dim(value) -> bool:
    """Is ``value`` a symbolic extent (``T``, ``2*T``)?"""
    return not isinstance(value, (int, np.integer)) and hasattr(value, "_evaluate")
