"""Which symbolic dims a loop's body indexes by its counter (``steps_over``), for the loop's
summary (``loops.loop_summary``): a loop whose trips each pick one index of an axis whose
extent is a dim, by a value that changes from trip to trip (the counter of a ``fori_loop``, a
scanned ``arange``, a carry stepped by the body). ``no_unrolling`` refuses such a loop where its
count is a fixed number: it walks the dim one index a trip, padded to a count that never reads
the dim. Runs in the worker; decides nothing.

A value changes from trip to trip where it is computed from a carry or a scanned row (the
loop's constants do not). The body indexes an axis by it in a ``dynamic_slice`` or
``dynamic_update_slice`` (``x[i]``, ``dynamic_index_in_dim``, ``.at[i].set``), a ``gather`` or
``scatter`` (``jnp.take``, ``x[i]`` on some paths), or a comparison of a whole number or flag
that changes, with no dim in its shape, with a value whose shape holds the dim (``rows == i``,
``one_hot(i, b)``, a mask or a one-hot product chosen by the counter). Nested bodies are walked
with their operands' state (a ``jit``, a ``cond``'s branches, a loop inside)."""

from __future__ import annotations

import re

from . import jaxapi as _jaxapi, symbolic as _symbolic

#: comparisons that pick indices of an axis when one side is the counter
_COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})
#: a name in an extent's text (``2*T + d``): a word that does not start with a digit
_NAME = re.compile(r"(?<!\w)[^\W\d]\w*")
#: equations that give a counter's values in another shape or type
_MOVES = frozenset({"broadcast_in_dim", "reshape", "squeeze", "expand_dims", "convert_element_type",
                    "copy", "copy_p", "transpose"})


def steps_over(body, varying: set) -> list:
    """The names of the dims whose axes ``body`` indexes by a value that changes from trip to
    trip, sorted; ``varying``: the positions of the body's inputs that change (carries and
    scanned rows)."""
    found: set = set()
    _walk(body, {id(v) for i, v in enumerate(body.invars) if i in varying}, found, 0)
    return sorted(found)


def _walk(jaxpr, moving: set, found: set, depth: int, counters: set | None = None) -> None:
    """Mark what changes from trip to trip in ``jaxpr`` (``moving``: ids of its variables) and
    which of those are counters (``counters``: whole numbers or flags that change, with no dim
    in their shape (a float counter cast to a whole number is one), and such values broadcast
    or combined with values that do not change and have no dim in their shape), adding to
    ``found`` the dims it indexes by such a value."""
    if counters is None:
        counters = {id(v) for v in jaxpr.invars if id(v) in moving and _counter_like(v)}
    for eqn in jaxpr.eqns:
        ins = [id(v) in moving for v in eqn.invars]
        counted = [id(v) in counters for v in eqn.invars]
        _indexed(eqn, ins, counted, found)
        if depth < 16:  # each body with the inputs that change and those that are counters
            for (sub, sub_moving), (_, fed) in zip(_inner(eqn, ins), _inner(eqn, counted)):
                _walk(sub, sub_moving, found, depth + 1,
                      fed | {id(v) for v in sub.invars if id(v) in sub_moving and _counter_like(v)})
        if any(ins):
            moving.update(id(v) for v in eqn.outvars)
            made = _counts(eqn, ins, counters)
            counters.update(id(v) for v in eqn.outvars if _counter_like(v) or (made and _whole(v)))


def _counter_like(var) -> bool:
    return _whole(var) and not any(_dims(e) for e in _shape(var))


def _counts(eqn, ins: list, counters: set) -> bool:
    """Whether ``eqn``'s outputs are counters: each changing operand a counter, each other one
    without a dim in its shape, or the equation a move or a broadcast of a counter."""
    if eqn.primitive.name in _MOVES and id(eqn.invars[0]) in counters:
        return True
    return all((id(v) in counters) if moves else not any(_dims(e) for e in _shape(v))
               for v, moves in zip(eqn.invars, ins))


def _inner(eqn, ins: list):
    """Each body ``eqn`` holds, with the ids of its inputs that change: an input is fed by the
    operand in the same place where the equation passes its operands on one for one (a call,
    a loop's constants, carries and rows), by the operands after the index for a ``cond``'s
    branches; any other body counts all of its inputs as changing where any operand does."""
    name = eqn.primitive.name
    for value in eqn.params.values():
        for sub in _jaxapi.sub_jaxprs(value):
            feeds = ins[1:] if name == "cond" else ins
            if name == "while":
                feeds = _while_feeds(eqn, sub, ins)
            if len(feeds) != len(sub.invars):
                feeds = [any(ins)] * len(sub.invars)
            yield sub, {id(v) for v, moves in zip(sub.invars, feeds) if moves}


def _while_feeds(eqn, sub, ins: list) -> list:
    params = eqn.params
    cc, bc = params["cond_nconsts"], params["body_nconsts"]
    carries = ins[cc + bc:]
    if sub is params["cond_jaxpr"].jaxpr:
        return ins[:cc] + carries
    return ins[cc:cc + bc] + carries


def _dims(extent) -> set:
    """The names of the dims an extent is made of (none for a number)."""
    return set(_NAME.findall(_symbolic.text(extent)))


def _shape(var) -> tuple:
    return tuple(getattr(getattr(var, "aval", None), "shape", ()) or ())


def _whole(var) -> bool:
    dtype = str(getattr(getattr(var, "aval", None), "dtype", ""))
    return dtype.startswith(("int", "uint", "bool"))


def _axes(found: set, var, axes) -> None:
    shape = _shape(var)
    for axis in axes:
        if 0 <= axis < len(shape):
            found |= _dims(shape[axis])


def _indexed(eqn, ins: list, counted: list, found: set) -> None:
    """Add the dims ``eqn`` indexes by a value that changes (``ins``: which operands do;
    ``counted``: which are counters)."""
    name = eqn.primitive.name
    invars = eqn.invars
    if name == "dynamic_slice":
        _axes(found, invars[0], [k for k, moves in enumerate(ins[1:]) if moves])
    elif name == "dynamic_update_slice":
        _axes(found, invars[0], [k for k, moves in enumerate(ins[2:]) if moves])
    elif name == "gather" and len(ins) > 1 and ins[1]:
        numbers = eqn.params.get("dimension_numbers")
        _axes(found, invars[0], tuple(getattr(numbers, "start_index_map", ())))
    elif name.startswith("scatter") and len(ins) > 1 and ins[1]:
        numbers = eqn.params.get("dimension_numbers")
        _axes(found, invars[0], tuple(getattr(numbers, "scatter_dims_to_operand_dims", ())))
    elif name in _COMPARISONS and len(invars) == 2:
        for k in (0, 1):
            other = invars[1 - k]
            if counted[k] and not counted[1 - k]:
                _axes(found, other, range(len(_shape(other))))
                _axes(found, invars[k], range(len(_shape(invars[k]))))
