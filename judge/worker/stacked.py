"""The stacked outputs of a ``scan`` that a program reads one row at a time only.

A ``scan`` stacks what each step returns into one array with a row per step. Reverse-mode
autodiff of a scan stacks the residuals of its steps this way (a step's running output, shape
``(t, e)``, becomes an ``(s, t, e)`` array) and hands it to the backward scan, which reads one
row per step: no step ever sees more than a row. ``read_by_rows`` finds those values in a whole
program, for ``program.summarize`` to mark them (``rows`` in a symbolic shape's entry), so that
a rule on the size of values can weigh them by their row, where only the judge's derivatives
read them. Runs in the worker; decides nothing.
"""

from __future__ import annotations

from .jaxapi import ONE_BODY_CALLS, scan_layout, sub_jaxprs


def read_by_rows(top, needed=frozenset()) -> set:
    """The ids of the values of the open jaxpr ``top`` and every jaxpr nested in it that are a
    scan's stacked output read one row a step only. A value is the same across a call's
    boundary (an operand and its body's input, a body's output and the call's result); of the
    values that are one, each must be made by a scan as a stacked output (none by another
    equation, none an input of the program or a constant), and none may be read whole: by an
    equation that is not a scan or a call (a sum over the rows, a slice, a transpose), as a
    scan's constant or initial carry, by a ``cond``'s branches, or as an output of ``top``; nor
    may any be among the ids ``needed`` (what the outputs the submission returns need, as
    opposed to the judge's derivatives: autodiff's residuals are read by the backward scan
    only, and a stack the submission builds and reads back by a second scan for its own result
    holds every row at once as much as a value of that shape does)."""
    parent: dict = {}

    def find(key):
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def same(a, b) -> None:
        parent[find(id(a))] = find(id(b))

    stacked, whole, members = set(), set(), {}
    seen: set = set()
    pending = [top]
    whole.update(needed)
    for var in list(top.invars) + list(getattr(top, "constvars", ())) + list(top.outvars):
        whole.add(id(var))  # made outside, or read by whoever called the program
    while pending:
        jaxpr = pending.pop()
        if id(jaxpr) in seen:
            continue
        seen.add(id(jaxpr))
        whole.update(id(v) for v in getattr(jaxpr, "constvars", ()))
        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            subs = [s for p in eqn.params.values() for s in sub_jaxprs(p)]
            pending.extend(subs)
            for var in eqn.outvars:
                members[id(var)] = var
            if name in ONE_BODY_CALLS and len(subs) == 1 and len(subs[0].invars) == len(eqn.invars) \
                    and len(subs[0].outvars) == len(eqn.outvars):
                for outer, inner in zip(eqn.invars, subs[0].invars):
                    if not _literal(outer):
                        same(inner, outer)
                for outer, inner in zip(eqn.outvars, subs[0].outvars):
                    same(outer, inner)
                continue
            layout = _layout(eqn) if name == "scan" else None
            read = len(eqn.invars) if layout is None else sum(layout)  # the scanned come last
            whole.update(id(v) for v in eqn.invars[:read])
            for k, var in enumerate(eqn.outvars):
                if layout is not None and k >= layout[1] and len(getattr(var.aval, "shape", ())) > 0:
                    stacked.add(id(var))
                else:
                    whole.add(id(var))  # made by another equation: a value of its own
            for sub in subs:  # a loop's or a branch's inputs are values of its own
                whole.update(id(v) for v in sub.invars)
    rows = {find(k) for k in stacked} - {find(k) for k in whole}
    return {k for k in members if find(k) in rows}


def _layout(eqn):
    try:
        return scan_layout(eqn.params, len(eqn.invars))
    except Exception:  # noqa: BLE001 - a scan of another form: every operand read whole
        return None


def _literal(var) -> bool:
    return type(var).__name__ == "Literal"
