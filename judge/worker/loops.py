"""What one live ``scan`` or ``while`` loop of a traced program does (``loop_summary``): its
length (a dim's text, a number, or ``"?"``) and whether it is a recurrence, for the summary
``program.summarize`` makes. Read by the rules on loops (``required_primitives``' recurrence,
``no_unrolling``)."""

from __future__ import annotations

import numbers

from . import jaxapi as _jaxapi, protocol, symbolic as _symbolic


def is_ref(var) -> bool:
    """Is ``var`` a mutable ref (``jax.new_ref``)?"""
    aval = getattr(var, "aval", None)
    return aval is not None and (type(aval).__name__ == "AbstractRef" or hasattr(aval, "inner_aval"))


def _inexact(var) -> bool:
    return "float" in str(getattr(getattr(var, "aval", None), "dtype", "")) or \
        "complex" in str(getattr(getattr(var, "aval", None), "dtype", ""))


def _dependencies(body) -> tuple[dict, dict]:
    """For each variable of ``body``, the positions of the body's inputs it depends on; and for
    each ref input, the positions of the inputs of what is written into it. A nested body
    counts as depending on all its inputs."""
    deps = {id(v): {i} for i, v in enumerate(body.invars)}
    written: dict = {}
    for eqn in body.eqns:
        found = set()
        for v in eqn.invars:
            found |= deps.get(id(v), set())
        for v in eqn.invars:
            if is_ref(v) and id(v) in deps:
                written.setdefault(id(v), set()).update(found)
        for v in eqn.outvars:
            deps[id(v)] = set(found)
    return deps, written


def loop_summary(eqn, mask, producers: dict) -> dict | None:
    """What one live scan or while loop does: its length (a dim's text, a number, or ``"?"``)
    and whether it is a recurrence: a floating carry whose next value is computed (not
    copied) from the carries and from data (the scanned rows or the loop's constants), and
    that reaches what the caller needs (the final carry, a scanned output, or a ref written).
    ``carries``: the positions, among the body's inputs, of the recurrent carries (for
    ``reach``; not part of the summary sent)."""
    name = eqn.primitive.name
    params = eqn.params
    if name == "scan":
        body = params["jaxpr"].jaxpr
        consts, ncarry = _jaxapi.scan_layout(params, len(eqn.invars))
        length = _symbolic.text(params["length"])
        carry_in = list(range(consts, consts + ncarry))
        data = set(range(consts)) | set(range(consts + ncarry, len(body.invars)))
        outs = list(body.outvars)
        counters: set = set()
    elif name == "while":
        body = params["body_jaxpr"].jaxpr
        consts = params["body_nconsts"]
        ncarry = len(body.invars) - consts
        carry_in = list(range(consts, consts + ncarry))
        data = set(range(consts))
        outs = list(body.outvars)
        length, counters = _while_length(eqn, producers)
        counters = {consts + k for k in counters}
    else:
        return None
    deps, written = _dependencies(body)
    carry_vars = {id(body.invars[i]) for i in carry_in}
    recurrent = set()
    for k, out in enumerate(outs[:ncarry]):
        position = carry_in[k]
        if position in counters or not _inexact(out) or id(out) in carry_vars:
            continue  # a counter, an integer carry, or a carry copied as it is
        got = deps.get(id(out), set())
        if got & set(carry_in) and got & data:
            recurrent.add(position)
    reaches = False
    for k, out in enumerate(outs):
        needed = k >= len(mask) or mask[k]
        if not needed:
            continue
        if k < ncarry and carry_in[k] in recurrent:
            reaches = True
        elif k >= ncarry and deps.get(id(out), set()) & recurrent:
            reaches = True
    for ref, got in written.items():
        if got & recurrent:
            reaches = True
    return {"primitive": name, "length": length[:protocol.MAX_NAME],
            "recurrent": bool(recurrent) and reaches, "carries": sorted(recurrent)}


def _while_length(eqn, producers: dict) -> tuple[str, set]:
    """A ``fori_loop`` with a symbolic bound is a while loop: ``i < n`` in its condition, ``i``
    a carry starting at a literal k >= 0 and growing by one each step, ``n`` carried unchanged
    and made by ``dim_as_value`` of a dim. The length's text (``T``, or ``T - k`` for
    ``fori_loop(k, T, ...)``) and the carries ``{i, n}``; else ``"?"`` and no counter. A
    ``while_loop`` of the submission's own (its bound a constant of the condition) is not
    one: a problem that admits it names ``while`` among its primitives."""
    params = eqn.params
    cond, body = params["cond_jaxpr"].jaxpr, params["body_jaxpr"].jaxpr
    cc, bc = params["cond_nconsts"], params["body_nconsts"]
    if len(cond.eqns) != 1 or cond.eqns[0].primitive.name != "lt":
        return "?", set()
    position = {id(v): i for i, v in enumerate(cond.invars)}
    a, b = (position.get(id(v), -1) - cc for v in cond.eqns[0].invars)
    if min(a, b) < 0 or body.outvars[b] is not body.invars[bc + b]:
        return "?", set()
    start = eqn.invars[cc + bc + a]
    step = _producer(body, body.outvars[a])
    if not isinstance(getattr(start, "val", None), numbers.Integral) or int(start.val) < 0 \
            or step is None or step.primitive.name != "add" \
            or not any(v is body.invars[bc + a] for v in step.invars) \
            or not any(getattr(v, "val", None) == 1 for v in step.invars):
        return "?", set()
    made = producers.get(id(eqn.invars[cc + bc + b]))
    while made is not None and made.primitive.name == "convert_element_type":
        made = producers.get(id(made.invars[0]))
    if made is None or made.primitive.name != "dim_as_value":
        return "?", set()
    dim, k = _symbolic.text(made.params.get("dim")), int(start.val)
    return (dim if k == 0 else f"{dim} - {k}"), {a, b}


def _producer(jaxpr, var):
    """The equation of ``jaxpr`` that makes ``var``, or None."""
    return next((e for e in jaxpr.eqns if any(o is var for o in e.outvars)), None)


def loop_needs(eqn, mask: tuple, needed_in) -> tuple[dict, list] | None:
    """Which carries of a live ``scan`` or ``while`` the outputs in ``mask`` need, to a fixed
    point: a carry is needed when a needed output is it, or when the step computes a needed
    carry from it (and a while loop's condition needs its own carries). Returns ``(id of each
    body -> the outputs of it that are needed, the equation's inputs that are needed)``, or None
    for another equation. ``needed_in(jaxpr, wanted)``: which inputs of ``jaxpr`` its
    ``wanted`` outputs need (a tuple of bools). A ref among the carries or the constants is
    memory: always needed."""
    name, params, invars = eqn.primitive.name, eqn.params, list(eqn.invars)
    if name == "scan":
        body = params["jaxpr"].jaxpr
        consts, ncarry = _jaxapi.scan_layout(params, len(invars))
        carries = [bool(m) for m in mask[:ncarry]]
        ys = tuple(bool(m) for m in mask[ncarry:])
        while True:
            used = needed_in(body, tuple(carries) + ys)
            more = [c or u for c, u in zip(carries, used[consts:consts + ncarry])]
            if more == carries:
                break
            carries = more
        keep = [u or is_ref(v) for u, v in zip(used, invars)]
        keep[consts:consts + ncarry] = [c or is_ref(v) for c, v in zip(carries, invars[consts:consts + ncarry])]
        return {id(body): tuple(carries) + ys}, [v for v, k in zip(invars, keep) if k]
    if name == "while":
        cond, body = params["cond_jaxpr"].jaxpr, params["body_jaxpr"].jaxpr
        cc, bc = params["cond_nconsts"], params["body_nconsts"]
        on_cond = needed_in(cond, (True,))
        carries = [bool(m) or c for m, c in zip(mask, on_cond[cc:])]
        while True:
            used = needed_in(body, tuple(carries))
            more = [c or u for c, u in zip(carries, used[bc:])]
            if more == carries:
                break
            carries = more
        keep = list(on_cond[:cc]) + list(used[:bc]) + carries
        keep = [k or is_ref(v) for k, v in zip(keep, invars)]
        return {id(body): tuple(carries), id(cond): (True,)}, [v for v, k in zip(invars, keep) if k]
    return None
