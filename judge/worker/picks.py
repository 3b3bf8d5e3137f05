"""Which places of a symbolic dim's axes a traced program picks out at indices fixed in its
text (``picks``), for the program's summary: a Python loop of a fixed count over the rows,
written out, takes a row (or a chunk of rows) of a batch at each of its steps, at an index that
does not depend on the batch (``x[3]``, ``jnp.where(rows == 3, ...)``, ``jnp.take(x, arange(16)
+ 16)``, ``.at[3].set``); a batched program takes none, or one (``x[0]`` as a scan's first
carry). ``no_unrolling`` keyed on the dim reads how many distinct places are picked
(``judge.rules.fixed_loops``). Runs in the worker; decides nothing.

A place is a set of indices along an axis whose extent is made of a dim (``b``, ``2*b``),
picked by an equation whose indices are known from the program's text alone: a ``slice`` of a
number of rows at a number, a ``dynamic_slice`` or ``dynamic_update_slice`` of a number of rows
at a start computed from literals only, a ``gather`` or ``scatter`` whose indices are computed from literals and
``iota`` of a fixed length only, or a comparison of an ``iota`` along the axis (moved, cast,
shifted or scaled by literals) with a whole number computed from literals (``rows == 3`` picks
{3}, ``rows < 4`` picks {0, 1, 2, 3}; ``rows >= 4`` picks no fixed set). The dim's extent, where
an index reads it, is taken at the top of its range: an index clamped into the batch (``min(i,
b - 1)``, ``mode="clip"``) or counted from its end (``x[-1 - i]``) is then a number, as at the
largest batch. An index that is one unknown read from the data plus such numbers (``i +
zero``) picks the numbers past that unknown (``shifted``), counted where two or more places
share it. Places picked by two equations alike count once (a gather and the scatter its
derivative makes). Values computed from the literals are evaluated here, on small arrays (at
most ``MAX_ELEMENTS``), with NumPy; a body called at several places is walked once for each
kind of call."""

from __future__ import annotations

import math
import re

import numpy as np

from . import shifted as _shifted, symbolic as _symbolic
from .jaxapi import ONE_BODY_CALLS, dim_top, scan_layout, sub_jaxprs

#: the most elements of a value computed from literals that is evaluated
MAX_ELEMENTS = 4096
#: a name in an extent's text
_NAME = re.compile(r"(?<!\w)[^\W\d]\w*")
_MOVES = frozenset({"broadcast_in_dim", "reshape", "squeeze", "expand_dims", "convert_element_type",
                    "copy", "copy_p"})
_ARITHMETIC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "max": np.maximum,
               "min": np.minimum, "and": np.bitwise_and, "or": np.bitwise_or}
_COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}
_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


class _Index:
    """A value that is ``scale * iota + shift`` along an axis whose extent is made of ``dims``."""

    __slots__ = ("dims", "scale", "shift")

    def __init__(self, dims: frozenset, scale: int = 1, shift: int = 0):
        self.dims, self.scale, self.shift = dims, scale, shift


def _dims(extent) -> frozenset:
    return frozenset(_NAME.findall(_symbolic.text(extent)))


def _shape(var) -> tuple:
    return tuple(getattr(getattr(var, "aval", None), "shape", ()) or ())


def _numbers(shape) -> tuple | None:
    try:
        found = tuple(int(e) for e in shape)
    except Exception:  # noqa: BLE001 - a symbolic extent
        return None
    return found if int(np.prod(found, dtype=np.int64)) <= MAX_ELEMENTS else None


def picks(closed, line_of) -> dict:
    """dim name -> (how many distinct places of its axes are picked, the line of the
    submission that picks the most of them, or None); ``line_of(eqn)`` gives an equation's."""
    jaxpr = closed.jaxpr if hasattr(closed, "jaxpr") and hasattr(closed.jaxpr, "eqns") else closed
    known: dict = {}
    for var, value in zip(getattr(jaxpr, "constvars", ()), getattr(closed, "consts", ())):
        array = np.asarray(value) if _numbers(np.shape(value)) is not None else None
        if array is not None and array.dtype.kind in "iub":
            known[id(var)] = array
    found: dict = {}
    _walk(jaxpr, known, found, line_of, 0, {}, False)
    result = {}
    for dim, places in found.items():
        places = _apart(places)
        if not places:
            continue
        lines: dict = {}
        for line in places.values():
            if line is not None:
                lines[line] = lines.get(line, 0) + 1
        result[dim] = (len(places), max(lines, key=lambda k: (lines[k], -k)) if lines else None)
    return result


def _apart(places: dict) -> dict:
    """The places that count: each fixed one, and those at one base plus offsets where that
    base has two or more (a single row at a data index, ``x[argmax]``, is no loop's steps)."""
    bases: dict = {}
    for key in places:
        if key[:1] == ("shifted",):
            bases[key[1]] = bases.get(key[1], 0) + 1
    return {key: line for key, line in places.items()
            if key[:1] != ("shifted",) or bases[key[1]] >= 2}


def _value(var, known: dict):
    """A literal's or a known variable's value (a NumPy array or an ``_Index``), else None."""
    if type(var).__name__ == "Literal":
        value = getattr(var, "val", None)
        try:
            array = np.asarray(value)
        except Exception:  # noqa: BLE001 - not a number
            return None
        return array if array.dtype.kind in "iubf" and array.size <= MAX_ELEMENTS else None
    return known.get(id(var))


def _sign(value):
    """What is known of a body's input, as a key: a body walked with the same is not walked
    again (a jitted function called at many places, nested, is walked once per kind of call)."""
    if isinstance(value, _Index):
        return ("index", value.dims, value.scale, value.shift)
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, _shifted.Shifted):
        return ("shifted", value.base, value.offsets.shape, value.offsets.tobytes())
    return None


def _walk(jaxpr, known: dict, found: dict, line_of, depth: int, memo: dict, looped: bool) -> None:
    """Note what ``jaxpr`` picks; ``line_of`` gives an equation's line, or that of the call
    holding it where its own is not the submission's (a body JAX traced once for many calls).
    ``memo``: (body, what is known of its inputs, ``looped``) -> what is known of its results;
    ``looped``: whether ``jaxpr`` is (inside) a loop's body, where no base is made."""
    for eqn in jaxpr.eqns:
        values = [_value(v, known) for v in eqn.invars]
        here = line_of(eqn)
        line = (lambda e, here=here: line_of(e) or here) if here is not None else line_of
        try:
            _picked(eqn, values, found, line_of)
            made = _evaluate(eqn, values)
        except Exception:  # noqa: BLE001 - an equation of a form not read: nothing known
            made = None
        if made is not None:
            known[id(eqn.outvars[0])] = made
        if depth < 16:
            for sub, feeds in _bodies(eqn, values):
                inside = looped or (eqn.primitive.name not in ONE_BODY_CALLS and eqn.primitive.name != "cond")
                key = (id(sub), tuple(_sign(f) for f in feeds), inside)
                if key not in memo:
                    inner = {id(v): f for v, f in zip(sub.invars, feeds) if f is not None}
                    memo[key] = (sub, [None] * len(sub.outvars))  # the body kept: its id stays its own
                    _walk(sub, inner, found, line, depth + 1, memo, inside)
                    memo[key] = (sub, [_value(out, inner) for out in sub.outvars])
                results = memo[key][1]
                if eqn.primitive.name in ONE_BODY_CALLS and len(results) == len(eqn.outvars):
                    for outer, got in zip(eqn.outvars, results):  # a call's results
                        if got is not None:
                            known[id(outer)] = got
        if not looped:  # an unknown whole number made outside any loop's body: a base
            for out in eqn.outvars:
                base = None if id(out) in known else _shifted.born(out)
                if base is not None:
                    known[id(out)] = base


def _bodies(eqn, values: list):
    """Each body of ``eqn`` whose inputs its operands feed one for one (a call, a ``cond``'s
    branches after the index, a loop's constants), with what is known of them."""
    name = eqn.primitive.name
    for param in eqn.params.values():
        for sub in sub_jaxprs(param):
            feeds = values[1:] if name == "cond" else values
            if name == "scan":
                consts = scan_layout(eqn.params, len(eqn.invars))[0]
                feeds = values[:consts] + [None] * (len(sub.invars) - consts)
            elif name not in ONE_BODY_CALLS and name != "cond":
                feeds = [None] * len(sub.invars)
            if len(feeds) == len(sub.invars):
                yield sub, feeds


def _evaluate(eqn, values: list):
    """What ``eqn`` computes from literals and ``iota``: a NumPy array of a fixed shape, or an
    ``_Index`` along a dim's axis; None for anything else."""
    name = eqn.primitive.name
    out = eqn.outvars[0] if len(eqn.outvars) == 1 else None
    if out is None:
        return None
    if any(isinstance(v, _shifted.Shifted) for v in values):
        return _shifted.evaluate(eqn, values, _numbers(_shape(out)), _move)
    if not any(t in str(getattr(out.aval, "dtype", "")) for t in ("int", "bool")):
        # a float: only an index cast or moved (``arange(b) * 1.0``), or a literal's copy
        indexes = [v for v in values if isinstance(v, _Index)]
        return _moved(eqn.primitive.name, values, indexes[0]) if indexes and all(v is not None for v in values) else None
    shape = _numbers(_shape(out))
    params = eqn.params
    if name == "dim_as_value":
        # a dim's extent at the top of its range: an index computed from it (``min(i, b - 1)``,
        # a negative index moved by the extent) is then a number, as at the largest batch
        top = dim_top(params.get("dim"))
        return None if top is None else np.asarray(top, np.int64)
    if name == "iota":
        axis = params["dimension"]
        dims = _dims(_shape(out)[axis])
        if dims:
            return _Index(dims)
        if shape is None:
            return None
        return np.broadcast_to(np.arange(shape[axis]).reshape(
            [-1 if k == axis else 1 for k in range(len(shape))]), shape).astype(np.int64)
    if name == "select_n" and isinstance(values[0], np.ndarray):
        # the cases the predicate chooses known (``jnp.take``'s negative indices moved by the
        # dim's extent, where none is negative)
        chosen = sorted(set(np.asarray(values[0]).astype(np.int64).reshape(-1).tolist()))
        if shape is None or any(not isinstance(values[1 + c], np.ndarray) for c in chosen):
            return None
        cases = [v if isinstance(v, np.ndarray) else np.zeros((), np.int64) for v in values[1:]]
        return np.broadcast_to(np.choose(values[0].astype(np.int64), cases), shape)
    if any(v is None for v in values):
        return None
    indexes = [v for v in values if isinstance(v, _Index)]
    if indexes:
        return _moved(name, values, indexes[0])
    if shape is None:
        return None
    if name in _MOVES:
        return _move(name, params, values[0], shape)
    if name in _ARITHMETIC and len(values) == 2:
        return np.broadcast_to(_ARITHMETIC[name](values[0], values[1]), shape)
    if name in _COMPARE and len(values) == 2:
        return np.broadcast_to(_COMPARE[name](values[0], values[1]), shape)
    if name == "neg":
        return -values[0]
    if name == "clamp" and len(values) == 3:  # jnp.take's mode="clip"
        return np.broadcast_to(np.minimum(np.maximum(values[1], values[0]), values[2]), shape)
    if name in ("div", "rem") and len(values) == 2 and np.all(values[1] != 0):
        a, b = (np.asarray(v, np.int64) for v in values)
        quotient = np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))  # rounded toward zero
        return np.broadcast_to(quotient if name == "div" else a - b * quotient, shape)
    return None


def _move(name: str, params, array, shape: tuple):
    """A value computed from literals, broadcast, reshaped or cast."""
    if name == "broadcast_in_dim":
        kept = params.get("broadcast_dimensions", ())
        expanded = [1] * len(shape)
        for k, axis in enumerate(kept):
            expanded[axis] = array.shape[k]
        return np.broadcast_to(array.reshape(expanded), shape)
    if name == "convert_element_type":
        return array.astype(np.int64)
    return array.reshape(shape)


def _moved(name: str, values: list, index: _Index):
    """An ``_Index`` moved, cast, shifted or scaled by a whole number."""
    if name in _MOVES or name == "copy_p":
        return index
    others = [v for v in values if not isinstance(v, _Index)]
    if len(values) != 2 or len(others) != 1 or others[0].size != 1 or others[0].dtype.kind not in "iubf":
        return None
    number = float(np.asarray(others[0]).reshape(()))
    if not number.is_integer():  # a fraction of the rows: not read
        return None
    k = int(number)
    if name == "add":
        return _Index(index.dims, index.scale, index.shift + k)
    if name == "sub" and isinstance(values[0], _Index):
        return _Index(index.dims, index.scale, index.shift - k)
    if name == "mul" and k != 0:
        return _Index(index.dims, index.scale * k, index.shift * k)
    return None


def _note(found: dict, dims, place, line) -> None:
    for dim in dims:
        places = found.setdefault(dim, {})
        if place not in places or places[place] is None:
            places[place] = line


def _rows(eqn, var, axis: int) -> frozenset:
    shape = _shape(var)
    return _dims(shape[axis]) if 0 <= axis < len(shape) else frozenset()


def _picked(eqn, values: list, found: dict, line_of) -> None:
    """Note in ``found`` (dim -> place -> line) the places ``eqn`` picks at fixed indices, each
    place the rows it picks, in order (whatever the equation: ``x[0]`` and the update its
    derivative writes at row 0 are one place)."""
    name = eqn.primitive.name
    invars, params = eqn.invars, eqn.params
    if name == "slice":
        for axis, (start, limit) in enumerate(zip(params["start_indices"], params["limit_indices"])):
            dims = _rows(eqn, invars[0], axis)
            span = _numbers((start, limit))
            if dims and span is not None and _numbers((_shape(eqn.outvars[0])[axis],)) is not None:
                _note(found, dims, tuple(range(span[0], span[1])), line_of(eqn))
    elif name in ("dynamic_slice", "dynamic_update_slice"):
        starts = values[1:] if name == "dynamic_slice" else values[2:]
        piece = _shape(eqn.outvars[0]) if name == "dynamic_slice" else _shape(invars[1])
        for axis, start in enumerate(starts):
            dims = _rows(eqn, invars[0], axis)
            size = _numbers((piece[axis],)) if axis < len(piece) else None
            at, start = _at(start)
            if dims and size is not None and start is not None and start.size == 1:
                first = int(start.reshape(()))
                _note(found, dims, at + tuple(range(first, first + size[0])), line_of(eqn))
    elif (name == "gather" or name.startswith("scatter")) and len(values) > 1 \
            and _at(values[1])[1] is not None:
        numbers = params.get("dimension_numbers")
        axes = tuple(getattr(numbers, "start_index_map", ()) if name == "gather"
                     else getattr(numbers, "scatter_dims_to_operand_dims", ()))
        at, indices = _at(values[1])
        indices = indices.reshape(-1, max(len(axes), 1)) if indices.size else indices
        for k, axis in enumerate(axes):
            dims = _rows(eqn, invars[0], axis)
            if dims and indices.size:
                _note(found, dims, at + tuple(sorted(set(indices[:, k].tolist()))), line_of(eqn))
    elif name in _COMPARE and len(values) == 2:
        for k in (0, 1):
            index, other = values[k], values[1 - k]
            if name == "eq" and isinstance(index, _Index) and isinstance(other, _shifted.Shifted) \
                    and other.offsets.size == 1 and index.scale > 0:
                # ``rows == zero + 3``: row 3 past one base
                row, rest = divmod(int(other.offsets.reshape(())) - index.shift, index.scale)
                if rest == 0:
                    _note(found, index.dims, _shifted.place(other, (row,)), line_of(eqn))
            if isinstance(index, _Index) and isinstance(other, np.ndarray) and other.size == 1 \
                    and other.dtype.kind in "iuf" and np.isfinite(other).all():
                op, number = _FLIP[name] if k == 1 else name, float(other.reshape(()))
                if not number.is_integer():  # rows are whole: rows < 2.5 is rows <= 2
                    op, number = ("le", math.floor(number)) if op in ("lt", "le") else (None, 0)
                place = _compared(op, index, int(number)) if op is not None else None
                if place is not None:
                    _note(found, index.dims, place, line_of(eqn))


def _at(value):
    """A known index as (the key its places start with, its numbers): () and the array for
    numbers fixed in the program, a base's key and its offsets for one base plus offsets;
    (None, None) for anything else."""
    if isinstance(value, np.ndarray):
        return (), value
    if isinstance(value, _shifted.Shifted):
        return _shifted.place(value, ()), value.offsets
    return None, None


def _compared(name: str, index: _Index, k: int):
    """The fixed set of rows ``scale * row + shift <op> k`` holds for, in order; None where it
    is not a fixed set (``rows >= 4``, ``rows != 3``) or none."""
    if index.scale <= 0:
        return None
    if name == "eq":
        row, rest = divmod(k - index.shift, index.scale)
        return (row,) if rest == 0 and row >= 0 else None
    if name in ("lt", "le"):
        bound = k - index.shift + (1 if name == "le" else 0)  # scale * row < bound
        top = -(-bound // index.scale)  # rows 0 .. top - 1
        return tuple(range(top)) if 0 < top <= MAX_ELEMENTS else None
    return None
