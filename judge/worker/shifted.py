"""Indices that are one unknown whole number plus numbers written in the program
(``Shifted``), for ``judge.worker.picks``: a Python loop written out over the rows at ``i +
zero``, where ``zero`` is read from an input (``jnp.sum(x > jnp.inf)``), picks rows at indices
no literal fixes, yet its steps' indices still differ from each other by the literals ``i``.
An unknown whole number, a scalar computed outside any loop's body from something that is not
known here (the data, a loop's results), is a *base*; a value computed from one base and
numbers known here by adding, subtracting, moving, clamping or choosing (``min(i + zero, b -
1)``, ``jnp.take``'s negative indices moved by the extent) is that base plus fixed offsets, so
the places picked at it are the offsets, each shared base apart. Inside a loop's body no base
is made: a counter is an unknown that changes from trip to trip, and a stencil at ``i - 1``,
``i``, ``i + 1`` in a body is one loop's trip, not a loop written out. Runs in the worker;
decides nothing."""

from __future__ import annotations

import numpy as np

#: equations that give a value in another shape or whole-number type
_MOVES = frozenset({"broadcast_in_dim", "reshape", "squeeze", "expand_dims", "convert_element_type",
                    "copy", "copy_p"})


class Shifted:
    """A whole-number value ``base + offsets``: ``base`` an unknown scalar (a key: the id of the
    variable it was born as), ``offsets`` a NumPy array of the value's shape."""

    __slots__ = ("base", "offsets")

    def __init__(self, base: int, offsets):
        self.base, self.offsets = base, np.asarray(offsets, np.int64)


def whole(var) -> bool:
    dtype = str(getattr(getattr(var, "aval", None), "dtype", ""))
    return dtype.startswith(("int", "uint"))


def born(var) -> Shifted | None:
    """A base for a scalar whole number nothing is known of; None for anything else."""
    shape = tuple(getattr(getattr(var, "aval", None), "shape", ()) or ())
    return Shifted(id(var), np.zeros((), np.int64)) if shape == () and whole(var) else None


def evaluate(eqn, values: list, shape, move):
    """What ``eqn`` computes where some operand is ``Shifted``: another ``Shifted``, or None
    where it is not one base plus fixed offsets. ``shape``: the output's shape where it is a
    number of elements small enough, else None; ``move(name, params, array, shape)`` moves a
    known array."""
    out = eqn.outvars[0] if len(eqn.outvars) == 1 else None
    if out is None or shape is None or not whole(out):
        return None
    name = eqn.primitive.name
    if name == "select_n":
        return _chosen(values, shape)
    shifted = [v for v in values if isinstance(v, Shifted)]
    known = [v for v in values if isinstance(v, np.ndarray)]
    if len(shifted) != 1 or len(shifted) + len(known) != len(values):
        return None
    base, offsets = shifted[0].base, shifted[0].offsets
    if name in _MOVES:
        return Shifted(base, move(name, eqn.params, offsets, shape))
    if name == "add":
        return Shifted(base, np.broadcast_to(offsets + known[0].astype(np.int64), shape))
    if name == "sub" and isinstance(values[0], Shifted):
        return Shifted(base, np.broadcast_to(offsets - known[0].astype(np.int64), shape))
    if name == "mul" and np.all(known[0] == 1):
        return Shifted(base, np.broadcast_to(offsets, shape))
    if name in ("min", "max") or (name == "clamp" and isinstance(values[1], Shifted)):
        # clamped into the rows (``min(i + zero, b - 1)``, ``mode="clip"``): at a base of 0 the
        # offsets inside the rows stay apart
        return Shifted(base, np.broadcast_to(offsets, shape))
    return None


def _chosen(values: list, shape):
    """``select_n``: the cases it may choose, all one base plus offsets; with a predicate not
    known, the first case (``jnp.take``'s index where it is not negative)."""
    predicate, cases = values[0], values[1:]
    if isinstance(predicate, np.ndarray):
        picked = sorted(set(predicate.astype(np.int64).reshape(-1).tolist()))
        if not all(0 <= c < len(cases) and isinstance(cases[c], Shifted) for c in picked):
            return None
        if len({cases[c].base for c in picked}) != 1:
            return None
        offsets = [c.offsets if isinstance(c, Shifted) else np.zeros((), np.int64) for c in cases]
        return Shifted(cases[picked[0]].base,
                       np.broadcast_to(np.choose(predicate.astype(np.int64), offsets), shape))
    first = cases[0] if cases else None
    return Shifted(first.base, np.broadcast_to(first.offsets, shape)) if isinstance(first, Shifted) else None


def place(value: Shifted, rows) -> tuple:
    """The key of a place picked at ``value``'s base plus ``rows``."""
    return ("shifted", value.base) + tuple(int(r) for r in rows)
