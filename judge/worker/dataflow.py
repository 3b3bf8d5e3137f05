"""Which values of a traced program are data: computed from its input arrays (``values``).

The program summary (``judge.worker.program``) counts, for each live equation, how many of its
operands are data, and ``judge.rules.primitive_dtypes`` reads the count ("no float32 product of
two values computed from the arrays"). A value is data when it is computed from an input of the
program with at least one dimension (not one of shape ``()``, a constant or a literal), through
any equation, nested bodies included.

Each value has a level: 0 (``NONE``), not data; 1 (``LABELS``), data computed from integer or
bool inputs only (labels ``y``); 2 (``QUANTITIES``), those integers converted to floats and what
is computed from them alone; 3 (``FLOATING``), data computed from a floating input (``x``,
``params``), whatever types it passed through on the way (a float's bits read as an int32 are
still the float's).

A bool is a decision, not a quantity, and is not data: ``finite`` (of shape ``()``), a
comparison of labels (``y[:, None] == arange(k)``, a one-hot, also with the labels converted to
floats first), and what is selected by them from other values is data only as they are. So is
a float computed from integer inputs alone: the labels' one-hot as ``jnp.eye(k)[y]`` holds rows
of a constant, as the comparison's does; but integers converted to floats (``y.astype(float32)``,
an int8 input made float) are quantities, counted as data. But a bool *array* computed from
floating data is data: its bits can hold the floats themselves (``(bits(x) >> i) & 1 == 1``
for each i, summed back by ``where``, rebuilds ``x`` exactly), so a product of ``x`` so rebuilt
and another array is a product of two data operands, as ``x * dz`` is; a bool computed from
the labels as floats holds nothing the labels' own comparisons do not. Inside a loop's body
(``looped``) a bool of shape ``()`` computed from floating data is data too: the trips' scalar
decisions, one entry a trip, carry a whole array (each entry rebuilt from its bits and
multiplied in the same trip is a product of two data values); so is what a ``cond`` whose
index is data chooses, there and anywhere (a ``switch`` on a data index picks a constant per
value of the index).

A quotient by a data value counts that divisor as two data operands (``operands``): ``1 / a`` is
a nonlinear function of ``a``, and squares, hence products, are built from reciprocals alone.

Floating data has a last level, 4 (``WIDENED``): data that some equation on its way from the
inputs *computed* in a type other than float16 (and bool) from two data operands (a quotient's
divisor counted twice), or by any other function of one than a scaling or a sum
(``SCALINGS``), where it did not merely cast or move it (``MOVES``). The float16 prediction cast
up, less the labels in float32 (whose square's derivative is cast back to float16 for the
backward products), is level 4, while the inputs cast to float16 are level 3, and so is the
mean JAX itself takes of float16 values by summing them in float32 and dividing by the count.
A loop's results are level 4 where its body computes in such a type. (``widened``: how many of
an equation's operands are level 4 or more.)

Floating data has two levels above that (``judge.worker.bent``): 6 (``BENT``), data that a
function other than a linear one computed in a type other than float16 (``abs``, ``max``, a
rounding, a comparison of a value computed from two data values, a choice by a data flag), so
that the float32 values an update reads can be held to casts of float16 values, their sums and
their scalings; and 5 (``CHOSEN``), level 4 data chosen once by a flag float16 could compute,
which no later choice may read. Integers converted to floats stay
``QUANTITIES`` whatever computes with them, so that a comparison of them stays a decision: only
floating inputs widen.

Decides nothing: it only marks values.
"""

from __future__ import annotations

from . import bent
from .jaxapi import ONE_BODY_CALLS, scan_layout, sub_jaxprs

#: The levels of data (the module's docstring).
NONE, LABELS, QUANTITIES, FLOATING, WIDENED, CHOSEN, BENT = range(7)

#: Primitives whose bodies' outputs are the equation's outputs, one for one (a call, and
#: ``cond``'s branches): data flows through them output by output.
FOLLOWS = ONE_BODY_CALLS | {"cond"}


#: Primitives that cast or move a value without computing with it.
MOVES = frozenset({"convert_element_type", "reshape", "broadcast_in_dim", "squeeze", "expand_dims",
                   "transpose", "slice", "dynamic_slice", "concatenate", "gather", "copy", "copy_p",
                   "rev", "pad"})
#: The types a computation keeps floating data at ``FLOATING`` (not ``WIDENED``) in.
NARROW = frozenset({"float16", "bool"})
#: What computes with one data operand without widening it: sums, scalings and choices, which
#: keep what a float16 value can hold (JAX's own mean of float16 values sums in float32).
SCALINGS = frozenset({"reduce_sum", "cumsum", "mul", "div", "neg", "add", "add_any", "sub",
                      "dot_general", "ragged_dot_general", "reduce_max", "reduce_min", "max", "min",
                      "select_n", "abs"})

#: Primitives whose second operand divides: nonlinear in it.
DIVIDES = frozenset({"div", "rem"})

#: Indexing primitives -> where their index operands lie among their operands (the others are
#: read or written): a gather's and a scatter's second, a dynamic slice's starts.
_SCATTERS = ("scatter", "scatter-add", "scatter_add", "scatter-mul", "scatter_mul", "scatter-min",
             "scatter_min", "scatter-max", "scatter_max", "scatter-sub", "scatter_sub")
INDEXED = {"gather": slice(1, 2), "dynamic_slice": slice(1, None),
           "dynamic_update_slice": slice(2, None), **{name: slice(1, 2) for name in _SCATTERS}}


def operands(eqn, found: dict) -> int:
    """How many of ``eqn``'s operands are data (``found``: ``values``' marks), a quotient's (or a
    remainder's) divisor counted twice: ``1 / a`` is a nonlinear function of ``a`` (``a * a`` is
    ``1 / (1 / a - 1 / (a + 1)) - a``), so a quotient by a data value counts as a product of two,
    while ``g / loss_scale``, by a scalar input, has one.

    An indexing primitive's data operands are its indices computed from floating data, whatever
    it reads: a table of constants indexed by the float16 bits of a value (``bitcast_convert_type``)
    holds any function of it, its square say, while data moved by constant indices (or by labels)
    is not computed with."""
    where = INDEXED.get(eqn.primitive.name)
    if where is not None:
        return sum(found.get(id(v), NONE) >= FLOATING for v in eqn.invars[where])
    count = sum(id(v) in found for v in eqn.invars)
    if eqn.primitive.name in DIVIDES and len(eqn.invars) == 2 and id(eqn.invars[1]) in found:
        count += 1
    return count


def widened(eqn, found: dict) -> int:
    """How many of ``eqn``'s operands are floating data computed in a type other than float16
    (``WIDENED``)."""
    return sum(found.get(id(v), NONE) >= WIDENED for v in eqn.invars)


def _computes_wide(eqn, seen: set | None = None) -> bool:
    """Whether ``eqn`` computes (does not merely cast or move) with a value of a type outside
    ``NARROW``; for an equation holding bodies (a loop), whether any equation in them does."""
    if eqn.primitive.name in MOVES:
        return False
    seen = set() if seen is None else seen
    subs = [s for p in eqn.params.values() for s in sub_jaxprs(p)]
    if subs:
        fresh = [s for s in subs if id(s) not in seen]
        seen.update(id(s) for s in fresh)
        return any(_computes_wide(e, seen) for s in fresh for e in s.eqns)
    return any(str(getattr(_aval(v), "dtype", "bool")) not in NARROW
               for v in (*eqn.invars, *eqn.outvars))


def _aval(var):
    return getattr(var, "aval", None)


def _is_bool(var) -> bool:
    return str(getattr(_aval(var), "dtype", "bool")) == "bool"


def _floating(var) -> bool:
    dtype = str(getattr(_aval(var), "dtype", ""))
    return dtype.startswith(("float", "bfloat", "complex"))


def input_levels(invars) -> tuple:
    """The level of each input of a whole program: ``FLOATING`` for a floating array of at least
    one dimension, ``LABELS`` for another array of at least one dimension, ``NONE`` for one of
    shape ``()``."""
    return tuple((FLOATING if _floating(v) else LABELS) if len(getattr(_aval(v), "shape", ())) > 0
                 else NONE for v in invars)


def _kept(var, level: int, looped: bool = False) -> int:
    """``var``'s level as data, where it is computed from values of ``level``: a bool is data
    only as an array computed from floating data (not from the labels, as integers or as
    floats), or in a loop's body as a scalar too; a float computed from integer inputs alone (a
    one-hot of labels, rows of ``jnp.eye(k)`` indexed by them) is a selection of constants,
    unless the integers themselves were converted to floats (``values``)."""
    if not level:
        return NONE
    if _is_bool(var):
        return level if level >= FLOATING and (looped or len(getattr(_aval(var), "shape", ())) > 0) \
            else NONE
    if level == LABELS and _floating(var):
        return NONE
    return level


def inner(eqn, found: dict):
    """``sub -> the level of each input of sub``, for the jaxprs ``eqn`` holds: a call's or a
    branch's inputs are its operands one for one (a ``cond``'s after its index); a ``scan``'s
    or a ``while``'s body and test read each constant at its own level and each carry at the
    highest level it comes back round with (``_carried``), so a trip counter beside data stays
    no data; in any other body, and in a ``while`` whose test reads data (the trips that run
    are then chosen by it, and so is what each trip reads), every input has the highest level
    of any operand."""
    levels = tuple(found.get(id(v), 0) for v in eqn.invars)
    name = eqn.primitive.name
    carried = _carried(eqn, levels) if name in ("scan", "while") else {}

    def of(sub) -> tuple:
        count = len(sub.invars)
        if name in ONE_BODY_CALLS and count == len(levels):
            return levels
        if name == "cond" and count == len(levels) - 1:
            return levels[1:]
        if id(sub) in carried and len(carried[id(sub)]) == count:
            return carried[id(sub)]
        return (max(levels, default=0),) * count
    return of


def _carried(eqn, levels: tuple) -> dict:
    """``{id(body): the level of each of its inputs}`` for a ``scan``'s body, or a ``while``'s
    body and test, each carry at the highest level it comes back round with; empty where the
    loop has another form, or where a ``while``'s test reads data."""
    params, given = eqn.params, list(levels)
    try:
        if eqn.primitive.name == "scan":
            body = next(sub_jaxprs(params["jaxpr"]))
            consts, carries = scan_layout(params, len(eqn.invars))
            start, feed = consts, lambda: tuple(given)
        else:
            body = next(sub_jaxprs(params["body_jaxpr"]))
            test = next(sub_jaxprs(params["cond_jaxpr"]))
            cond_n, body_n = params["cond_nconsts"], params["body_nconsts"]
            start, carries = cond_n + body_n, len(eqn.outvars)
            feed = lambda: tuple(given[cond_n:])  # noqa: E731 - the body's constants and carries
        if len(given) < start + carries:
            return {}
        for _ in range(len(given) * (BENT + 1) + 1):
            back = values(body, feed(), {}, True)[1][:carries]
            grown = [max(a, b) for a, b in zip(given[start:start + carries], back)]
            if grown == given[start:start + carries]:
                break
            given[start:start + carries] = grown
        else:
            return {}
        if eqn.primitive.name == "scan":
            return {id(body): feed()}
        reads = tuple(given[:cond_n] + given[start:])
        read = {id(v) for e in test.eqns for v in e.invars} | {id(v) for v in test.outvars}
        if any(level >= LABELS and id(v) in read for v, level in zip(test.invars, reads)):
            return {}  # the test reads data: the trips it lets run choose what each reads
        return {id(body): feed(), id(test): reads}
    except (KeyError, StopIteration, TypeError):
        return {}


def values(jaxpr, levels: tuple, cache: dict, looped: bool = False) -> tuple:
    """(``{id: level}`` of the values of ``jaxpr`` that are data, given the ``levels`` of its
    inputs; the level of each of its outputs). A call's or a branch's outputs are data as its
    body's are (a ``cond``'s also as its index is); any other equation's (a loop's included)
    have the highest level of its operands. ``looped``: ``jaxpr`` is a loop's body, or runs
    inside one, where a scalar bool computed from floating data is data."""
    key = (id(jaxpr), levels, looped)
    if key in cache:
        return cache[key]
    found = {}
    made = {}  # id of a value -> the equation of this jaxpr that gives it
    for v, level in zip(jaxpr.invars, levels):
        if _kept(v, level, looped):
            found[id(v)] = _kept(v, level, looped)
    for eqn in jaxpr.eqns:
        level = max((found.get(id(v), 0) for v in eqn.invars), default=0)
        if not level:
            continue
        subs = [s for p in eqn.params.values() for s in sub_jaxprs(p)]
        if eqn.primitive.name in FOLLOWS and subs and all(len(s.outvars) == len(eqn.outvars) for s in subs):
            outs = [values(s, inner(eqn, found)(s), cache, looped)[1] for s in subs]
            index = found.get(id(eqn.invars[0]), NONE) if eqn.primitive.name == "cond" else NONE
            for i, v in enumerate(eqn.outvars):
                kept = _kept(v, bent.chosen(index, max(o[i] for o in outs)), looped)
                if kept:
                    found[id(v)] = kept
        else:
            if level == LABELS and eqn.primitive.name == "convert_element_type" and \
                    not _floating(eqn.invars[0]) and not _is_bool(eqn.invars[0]):
                level = QUANTITIES  # integer quantities made floats: counted as data from here
            shaped = None if level < FLOATING else bent.level(
                eqn, found, level, _computes_wide(eqn), made,
                lambda sub, levels: values(sub, levels, cache, True)[1])
            if shaped is not None:
                level = shaped  # bent, or a choice float16 could make (``judge.worker.bent``)
            elif level == FLOATING and _computes_wide(eqn) and (
                    eqn.primitive.name not in SCALINGS or operands(eqn, found) >= 2):
                level = WIDENED  # floating data computed in a type other than float16
            for v in eqn.outvars:
                if _kept(v, level, looped):
                    found[id(v)] = _kept(v, level, looped)
        made.update((id(v), eqn) for v in eqn.outvars)
    result = (found, tuple(found.get(id(v), 0) for v in jaxpr.outvars))
    cache[key] = result
    return result


def bent_outputs(jaxpr, outputs: int | None, cache: dict) -> int:
    """How many of the first ``outputs`` outputs of a whole program (all where None) are
    ``BENT``: floating data a type other than float16 computed by something other than a linear
    map (``judge.worker.bent``)."""
    levels = values(jaxpr, input_levels(jaxpr.invars), cache)[1]
    return sum(level == BENT for level in levels[:outputs])
