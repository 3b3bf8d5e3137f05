"""Which floating data a type wider than float16 computed by something other than a linear map
(the level ``BENT`` of ``judge.worker.dataflow``).

"The gradient is computed in float16" says that the float32 values an update reads are the
float16 gradient cast up and scaled: casts of float16 values, their sums and their scalings by
values that are not data. Counting the products of two data values does not say it, since a
product is rebuilt from functions of one value: a square on [0, 1] from the tent map ``1 - |2t -
1|`` iterated (``abs``, sums and constant scalings), a product from the bits of one operand,
read by ``floor`` and ``% 2`` or by comparisons, each choosing a shifted copy of the other by
``where``. So a value is bent where an equation computing in such a type (``computes_wide``)
gives it from floating data by anything but a move, a sum, a product or quotient with one data
operand (the divisor not data), or a choice by a flag that is no data; and everything computed
from a bent value is bent (``dataflow.values`` takes the highest level of the operands).

What float16 could compute itself is left as it was, so that honest code keeps its forms:

* a comparison of a value with a constant (an infinity, a threshold) or with itself, or
  ``is_finite`` (``jnp.isfinite``, ``isnan``, ``isinf``, which compares ``abs`` of its operand
  with infinity), gives a flag at the level of the value tested, where that value is straight
  (at most ``FLOATING``: a float16 value cast up and scaled, an input); a comparison of two data
  values, or of a value computed from two, is bent (its thresholds are a function of both);
* a choice (``select_n``, or a ``gather`` or a slice at a data index) by straight flags between
  straight values is straight (``jnp.nan_to_num`` of the unscaled gradient); between values
  computed from two data values (``WIDENED``: ``where(u == 0, p, p + u)``) it is ``CHOSEN``,
  which sums and scalings keep but which no later choice, test or cast down may read (a
  product chosen once, summed, is not chosen again); any other choice by data is bent;
* a cast to an integer type or a narrower float rounds, and bends only a value already computed
  wide from two data values (``WIDENED`` or more): a rounding of a float16 value cast up is the
  float16 value's; integer work (a loop's counter) bends only such a value too;
* a loop's bodies are read with each carry at the level it comes back round with, so a carry
  chosen at every trip is bent; a ``while`` whose test reads data chooses how many trips run.

Open: a threshold of a straight value is a flag float16 could compute, and any straight value
has thresholds (``a >= t``; ``isfinite(1e38 * a)`` is ``|a| < 3.4``; a bit read in float16), so
one factor chosen by thresholds of the others (nested choices of straight values stay straight),
the choices summed, is a product of straight values computed in float32: a sum of products of
float16 values, which no later choice reads, as float16 factors accumulated into float32 are.

Decides nothing: it only marks values.
"""

from __future__ import annotations

from .jaxapi import scan_layout, sub_jaxprs

#: The levels of ``judge.worker.dataflow`` this module reads and gives.
FLOATING, WIDENED, CHOSEN, BENT = 3, 4, 5, 6

#: Equations that move a value (or cast it up) without computing with it.
MOVES = frozenset({"reshape", "broadcast_in_dim", "squeeze", "expand_dims", "transpose", "slice",
                   "concatenate", "copy", "copy_p", "rev", "pad", "split", "stack",
                   "unstack"})
#: Sums: linear in every operand.
SUMS = frozenset({"add", "add_any", "sub", "neg", "reduce_sum", "cumsum"})
#: Products: linear where one operand is data (a quotient's divisor counted twice).
PRODUCTS = frozenset({"mul", "div", "dot_general", "ragged_dot_general"})
#: Choices: which operands choose (the rest are chosen).
CHOOSERS = {"select_n": lambda n: range(0, 1), "gather": lambda n: range(1, 2),
            "dynamic_slice": lambda n: range(1, n), "dynamic_update_slice": lambda n: range(2, n)}
#: Comparisons, a finiteness test among them where it compares with an infinity or with itself.
COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})


def _dtype(var) -> str:
    return str(getattr(getattr(var, "aval", None), "dtype", ""))


def _floating(var) -> bool:
    return _dtype(var).startswith(("float", "bfloat", "complex"))


def _shape(var) -> tuple:
    return tuple(getattr(getattr(var, "aval", None), "shape", ()))


def _infinite(var) -> bool:
    value = getattr(var, "val", None)
    try:
        return value is not None and _shape(var) == () and abs(float(value)) == float("inf")
    except (TypeError, ValueError):
        return False


def _narrowing(eqn) -> bool:
    """A cast to a non-floating type, or to a float of fewer bits: it rounds."""
    source, target = eqn.invars[0], eqn.outvars[0]
    if not _floating(target):
        return _floating(source)
    size = {"float64": 8, "complex128": 16, "complex64": 8, "float32": 4}
    return size.get(_dtype(target), 2) < size.get(_dtype(source), 2)


def _compared(eqn, found: dict, made: dict):
    """The level of a comparison's flag, or None where ``eqn`` is no comparison: a comparison of
    one value with itself, with a value that is no data (a literal: an infinity, a threshold), or
    ``is_finite``, decides at that value's level (through ``abs``, as ``jnp.isinf`` compares
    ``abs(v)`` with infinity), where it is straight; a comparison of two data values, or of a
    value computed from two (whose thresholds are a function of both), is bent."""
    name = eqn.primitive.name
    if name == "is_finite":
        tested = eqn.invars[0]
    elif name in COMPARISONS and len(eqn.invars) == 2:
        a, b = eqn.invars
        data = [v for v in (a, b) if id(v) in found]
        if a is b or len(data) == 1:
            tested = data[0] if data else a
        elif data:
            return BENT
        else:
            return None
    else:
        return None
    source = made.get(id(tested))
    if source is not None and source.primitive.name == "abs":
        tested = source.invars[0]
    level = found.get(id(tested), 0)
    return level if level <= FLOATING else BENT


def chosen(flag: int, value: int) -> int:
    """The level of ``value`` chosen by a flag at level ``flag`` (a ``cond`` or ``switch`` on a
    data index, in a loop's body or a ``vmap``'s batch): as ``_choice`` has it, where the flag is
    floating data; else the higher of the two."""
    if flag < FLOATING or value < FLOATING:
        return max(flag, value)
    if flag > FLOATING or value > WIDENED:
        return BENT
    return CHOSEN if value == WIDENED else FLOATING


def _choice(eqn, found: dict):
    """The level of a choice by data, or None where nothing that is data chooses: by straight
    flags, between straight values, straight; between values computed from two data values,
    ``CHOSEN`` (one such choice is a sum chosen by the flags, which no later choice may read
    again); anything else bent."""
    choosers = set(CHOOSERS[eqn.primitive.name](len(eqn.invars)))
    flags = [found[id(v)] for i, v in enumerate(eqn.invars) if i in choosers and id(v) in found]
    if not flags:
        return None
    chosen = max((found.get(id(v), 0) for i, v in enumerate(eqn.invars) if i not in choosers), default=0)
    if max(flags) > FLOATING or chosen > WIDENED:
        return BENT
    return CHOSEN if chosen == WIDENED else FLOATING


def _looped(eqn, found: dict, level: int, body_levels) -> int | None:
    """The level of a loop's results: a ``scan``'s or a ``while``'s body read with each carry at
    the highest level it comes back round with (its constants at their own), bent where it
    bends; a ``while`` whose test reads data chooses how many trips run, as a choice does
    (``_choice``); any other loop's bodies read with every input at the highest level."""
    given = [found.get(id(v), 0) for v in eqn.invars]
    name, params = eqn.primitive.name, eqn.params
    if name == "scan":
        consts, carries = scan_layout(params, len(eqn.invars))
        body = params["jaxpr"]
    elif name == "while":
        consts, carries = params["cond_nconsts"] + params["body_nconsts"], len(eqn.outvars)
        body = params["body_jaxpr"]
    else:
        subs = [s for p in params.values() for s in sub_jaxprs(p)]
        outs = max((max(body_levels(s, (level,) * len(s.invars)), default=0) for s in subs), default=0)
        return BENT if outs >= BENT else (outs if outs > level else None)
    body = next(sub_jaxprs(body))
    for _ in range(BENT + 1):
        if name == "scan":
            outs = body_levels(body, tuple(given))
            back = outs[:carries]
            start = consts
        else:
            cond_n, body_n = params["cond_nconsts"], params["body_nconsts"]
            carry = given[cond_n + body_n:]
            outs = body_levels(body, tuple(given[cond_n:cond_n + body_n] + carry))
            back = outs
            start = cond_n + body_n
        if max(outs, default=0) >= BENT:
            return BENT
        grown = [max(a, b) for a, b in zip(given[start:start + carries], back)]
        if grown == given[start:start + carries]:
            break
        given[start:start + carries] = grown
    results = max(outs, default=0)
    if name == "while":
        cond = next(sub_jaxprs(params["cond_jaxpr"]))
        cond_n = params["cond_nconsts"]
        stop = max(body_levels(cond, tuple(given[:cond_n] + given[start:])), default=0)
        if stop >= FLOATING:  # the trips a data test lets run choose the results
            results = BENT if stop > FLOATING or results > WIDENED else (CHOSEN if results == WIDENED else results)
    return results if results > level else None


def level(eqn, found: dict, level: int, wide: bool, made: dict, body_levels) -> int | None:
    """The level of what ``eqn`` gives where this module decides it (``BENT``, ``CHOSEN``, or a
    test or a choice float16 could make), else None. ``level``: the highest level of its
    operands; ``wide``: it computes in a type other than float16 (``dataflow``); ``made``: the
    equations of its jaxpr by the values they give; ``body_levels(sub, levels)``: the levels of
    a body's outputs, its inputs at ``levels``."""
    if level < FLOATING:
        return None
    compared = _compared(eqn, found, made) if wide else None
    if compared is not None:
        return compared
    if level >= BENT:
        return None
    name = eqn.primitive.name
    if name == "convert_element_type":
        return BENT if level >= WIDENED and _narrowing(eqn) else None
    if name in CHOOSERS:
        return _choice(eqn, found)
    if not wide:
        return None
    if any(sub_jaxprs(p) for p in eqn.params.values()):
        try:
            return _looped(eqn, found, level, body_levels)
        except (KeyError, TypeError, ValueError, StopIteration):  # a loop of another form
            return BENT
    if not any(_floating(v) for v in (*eqn.invars, *eqn.outvars)):
        return BENT if level >= WIDENED else None  # integer work: a counter's, or a rounding's
    if name in MOVES or name in SUMS:
        return None
    if name in PRODUCTS:
        data = sum(id(v) in found for v in eqn.invars)
        if name == "div" and len(eqn.invars) == 2 and id(eqn.invars[1]) in found:
            data += 1
        return None if data <= 1 else BENT
    return BENT
