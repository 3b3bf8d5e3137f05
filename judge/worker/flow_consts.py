"""The values of a traced program that are constants of it, for the custom_vjp dataflow
(``provenance``): which branch a ``cond`` or ``switch`` whose index is computed from constants
alone takes on every input (``Constants.branch``), and which case a ``select_n`` whose predicate
is (``Constants.case``). Decides nothing.

A value is known where it is a literal, or a small integer or bool JAX array among the whole
program's constants (the worker replaces every constant by its own copy as soon as the program
is traced, ``judge.worker.owned``, so that the program evaluated holds what was read here; a
NumPy constant, and one of a nested jaxpr, stays unknown); or computed
from known values alone by an exact integer or bool operation (``EXACT``: sums, products,
comparisons, clamps, selections, casts between integer types, moves), through calls
(``jit``) that pass them on; a broadcast of one known value is known as that value at any size
(``Constants.case``: which case a ``select_n`` on it picks). Arithmetic is done on Python integers, and a result that does not
fit its type (a wrap-around), a quotient or remainder by zero, or any float makes the value
unknown: what is known is what every evaluation of the program computes, whichever evaluator
runs it. Anything else is unknown: an input (the factor too), a shape under symbolic dims
(``dimension_size``, ``dim_as_value``), a value read from a ref, what a loop, a ``custom_jvp``,
a callback or a random draw gives, and everything inside a loop's body that depends on its
operands. A jaxpr reached from several places (JAX shares them) keeps a value only where every
place gives it the same one.
"""

from __future__ import annotations

import numpy as np

from . import jaxapi
from .flow_labels import CALLS, is_var

#: Exact integer and bool operations the constants are computed through.
EXACT = frozenset({"add", "sub", "mul", "neg", "max", "min", "abs", "clamp", "select_n", "eq", "ne",
                   "lt", "le", "gt", "ge", "and", "or", "not", "xor", "div", "rem",
                   "convert_element_type", "reshape", "squeeze", "expand_dims", "broadcast_in_dim",
                   "copy", "copy_p"})
#: Calls whose body takes the equation's operands and gives its outputs, followed with their
#: operands' values (not ``custom_jvp_call`` nor ``custom_vjp_call``: their rules are
#: the submission's own, and nothing needs a constant computed through them).
FOLLOWED = frozenset({"jit", "pjit", "closed_call", "core_call", "named_call"})
#: The most entries a known value has (an index is one).
SIZE = 64

_UNKNOWN = object()  # a variable some place leaves unknown, or gives two values


class Constants:
    """The known values of one traced program (the module's docstring)."""

    def __init__(self, closed=None):
        self.values: dict = {}  # variable -> its value (an ndarray), or _UNKNOWN
        self.uniform: dict = {}  # variable broadcast from one known value -> it, or _UNKNOWN
        self._seen: set = set()
        if closed is None:
            return
        jaxpr = getattr(closed, "jaxpr", closed)
        consts = getattr(closed, "consts", None) if hasattr(closed, "jaxpr") else None
        try:
            self._walk(jaxpr, consts, [None] * len(getattr(jaxpr, "invars", ())))
        except Exception:  # noqa: BLE001 - a form not read here: nothing is known
            self.values = {}

    def value(self, atom):
        """The value of ``atom`` (a variable or a literal) where it is known, else None."""
        if not is_var(atom):
            return _literal(atom)
        found = self.values.get(atom)
        return None if found is None or found is _UNKNOWN else found

    def branch(self, eqn) -> int | None:
        """The branch a ``cond`` takes on every input where its index is known and names one of
        its branches, else None (an index outside them is left to the evaluator: unknown)."""
        index = self.value(eqn.invars[0]) if eqn.invars else None
        count = len(eqn.params.get("branches", ()))
        if index is None or index.shape != () or not 0 <= int(index) < count:
            return None
        return int(index)

    def case(self, eqn) -> int | None:
        """The case a ``select_n`` picks at every entry where its predicate is known, the same
        everywhere (a literal, a known value, or a broadcast of one known value of any size) and
        names one of its cases, else None."""
        which = eqn.invars[0] if eqn.invars else None
        if which is None:
            return None
        value = self.value(which)
        if value is None and is_var(which):
            found = self.uniform.get(which)
            value = None if found is _UNKNOWN else found
        if value is None or value.size == 0:
            return None
        first = int(value.reshape(-1)[0])
        if not bool(np.all(value == first)) or not 0 <= first < len(eqn.invars) - 1:
            return None
        return first

    # --- the walk ---------------------------------------------------------------------------

    def _set(self, var, value) -> None:
        if not is_var(var):
            return
        old = self.values.get(var)
        if old is None and var not in self.values:
            self.values[var] = _UNKNOWN if value is None else value
        elif old is not _UNKNOWN and (value is None or not _same(old, value)):
            self.values[var] = _UNKNOWN

    def _set_uniform(self, var, operand) -> None:
        """Note that ``var`` broadcasts ``operand``: one known value (None: unknown, or several
        values), whatever its size; a place that gives another value leaves it unknown."""
        value = None
        if operand is not None and operand.size and bool(np.all(operand == operand.reshape(-1)[0])):
            value = operand.reshape(-1)[:1].reshape(())
        old = self.uniform.get(var)
        if old is None and var not in self.uniform:
            self.uniform[var] = _UNKNOWN if value is None else value
        elif old is not _UNKNOWN and (value is None or not _same(old, value)):
            self.uniform[var] = _UNKNOWN

    def _walk(self, jaxpr, consts, inputs: list) -> list:
        """Record the values of ``jaxpr``'s variables given its constants and its inputs' values
        (None: unknown); return its outputs' values."""
        key = (id(jaxpr), _key(consts), tuple(_key_value(v) for v in inputs))
        if key in self._seen:
            return [self.value(v) if is_var(v) else _literal(v) for v in jaxpr.outvars]
        self._seen.add(key)
        constvars = list(getattr(jaxpr, "constvars", ()))
        for var, const in zip(constvars, consts if consts is not None else [None] * len(constvars)):
            self._set(var, _const(const))
        for var in constvars[len(consts or ()):]:
            self._set(var, None)
        for var, value in zip(jaxpr.invars, inputs):
            self._set(var, value)
        for eqn in jaxpr.eqns:
            outs = self._equation(eqn)
            for var, value in zip(eqn.outvars, outs):
                self._set(var, value)
            if eqn.primitive.name == "broadcast_in_dim" and eqn.invars and eqn.outvars:
                self._set_uniform(eqn.outvars[0], self.value(eqn.invars[0]))
        return [self.value(v) for v in jaxpr.outvars]

    def _equation(self, eqn) -> list:
        name = eqn.primitive.name
        ins = [self.value(v) for v in eqn.invars]
        if name in FOLLOWED:  # (a nested jaxpr's own constants are not the worker's copies)
            sub = eqn.params.get(CALLS.get(name, ""))
            body = getattr(sub, "jaxpr", sub)
            if hasattr(body, "eqns") and len(body.invars) == len(ins):
                return self._walk(body, None, ins)
        if name == "cond":
            taken = self.branch(eqn)
            outs = [self._walk(getattr(b, "jaxpr", b), None, ins[1:])
                    for b in eqn.params.get("branches", ())]
            return outs[taken] if taken is not None else [None] * len(eqn.outvars)
        for value in eqn.params.values():  # any other body: its inputs unknown
            for body in jaxapi.sub_jaxprs(value):
                self._walk(body, None, [None] * len(body.invars))
        if name not in EXACT or len(eqn.outvars) != 1 or any(v is None for v in ins) or not ins:
            return [None] * len(eqn.outvars)
        try:
            return [_exact(name, eqn.params, ins, eqn.outvars[0].aval)]
        except Exception:  # noqa: BLE001 - a form not handled here is unknown
            return [None]


def _integral(dtype) -> bool:
    try:
        return bool(np.issubdtype(dtype, np.integer) or np.issubdtype(dtype, np.bool_))
    except TypeError:  # an extended type (a random key's): not a number
        return False


def _small(value) -> np.ndarray | None:
    """``value`` as an integer or bool ndarray of at most ``SIZE`` entries, else None."""
    try:
        dtype = np.dtype(value.dtype)
        if not _integral(dtype) or int(np.prod(np.shape(value), dtype=np.int64)) > SIZE:
            return None
        found = np.array(value, dtype=dtype, copy=True)
    except Exception:  # noqa: BLE001 - a symbolic dim, a deleted array: unknown
        return None
    return found if found.dtype == dtype else None


def _literal(atom):
    """A literal's value: a NumPy value, or a Python int or bool in the literal's type."""
    value = getattr(atom, "val", None)
    if hasattr(value, "dtype"):
        return _small(value)
    dtype = getattr(getattr(atom, "aval", None), "dtype", None)
    if type(value) not in (bool, int) or dtype is None or not _integral(dtype):
        return None
    return _fits(np.array(int(value), dtype=object), dtype)


def _const(value):
    """A closed-over constant's value where no code can change it (a JAX array), else None."""
    kind = type(value)
    if kind.__name__ != "ArrayImpl" or not kind.__module__.startswith(("jaxlib", "jax")):
        return None
    return _small(value)


def _fits(result, dtype):
    """``result`` (Python integers) in ``dtype``, or None where an entry does not fit it."""
    dtype = np.dtype(dtype)
    flat = [int(v) for v in np.asarray(result, dtype=object).reshape(-1)]
    if np.issubdtype(dtype, np.bool_):
        if any(v not in (0, 1) for v in flat):
            return None
    else:
        info = np.iinfo(dtype)
        if any(v < info.min or v > info.max for v in flat):
            return None
    return np.array(flat, dtype=object).reshape(np.shape(result)).astype(dtype)


def _exact(name, params, ins, aval):
    dtype = np.dtype(aval.dtype)
    if not _integral(dtype) or not all(_integral(v.dtype) for v in ins):
        return None
    ints = [v.astype(object) if v.dtype != np.bool_ else v.astype(np.int64).astype(object)
            for v in ins]
    shape = tuple(int(d) for d in aval.shape)
    result = _compute(name, params, ints, ins, shape)
    if result is None:
        return None
    result = np.asarray(result, dtype=object)
    if result.shape != shape:
        return None
    return _fits(result, dtype)


def _compute(name, params, ints, ins, shape):
    a = ints[0]
    if name in ("reshape", "squeeze", "expand_dims", "copy", "copy_p", "convert_element_type"):
        if name == "convert_element_type" and np.issubdtype(np.dtype(params["new_dtype"]), np.bool_):
            return np.vectorize(lambda v: int(v != 0), otypes=[object])(a).reshape(shape)
        return a.reshape(shape)
    if name == "broadcast_in_dim":
        dims = tuple(params["broadcast_dimensions"])
        expanded = [1] * len(shape)
        for axis, extent in zip(dims, a.shape):
            expanded[axis] = extent
        return np.broadcast_to(a.reshape(expanded), shape)
    if name == "neg":
        return -a
    if name == "abs":
        return np.vectorize(abs, otypes=[object])(a)
    if name == "not":
        return 1 - a if ins[0].dtype == np.bool_ else np.vectorize(lambda v: ~v, otypes=[object])(a)
    if name == "clamp":
        low, x, high = ints
        return np.minimum(np.maximum(x, low), high)
    if name == "select_n":
        which, cases = ints[0], ints[1:]
        which = np.broadcast_to(which, shape)
        if np.any(which < 0) or np.any(which >= len(cases)):
            return None
        picked = np.empty(shape, dtype=object)
        for index in np.ndindex(*shape):
            picked[index] = np.broadcast_to(cases[int(which[index])], shape)[index]
        return picked
    if len(ints) != 2:
        return None
    b = ints[1]
    if name in ("div", "rem"):
        if np.any(b == 0):
            return None
        quotient = np.vectorize(lambda p, q: abs(p) // abs(q) * (1 if (p < 0) == (q < 0) else -1),
                                otypes=[object])(a, b)
        return quotient if name == "div" else a - quotient * b
    binary = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q,
              "max": lambda p, q: max(p, q), "min": lambda p, q: min(p, q),
              "eq": lambda p, q: int(p == q), "ne": lambda p, q: int(p != q),
              "lt": lambda p, q: int(p < q), "le": lambda p, q: int(p <= q),
              "gt": lambda p, q: int(p > q), "ge": lambda p, q: int(p >= q),
              "and": lambda p, q: p & q, "or": lambda p, q: p | q, "xor": lambda p, q: p ^ q}
    op = binary.get(name)
    return None if op is None else np.vectorize(op, otypes=[object])(a, b)


def _same(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and bool(np.all(a == b))


def _key_value(value):
    return None if value is None else (str(value.dtype), value.shape, value.tobytes())


def _key(consts):
    return None if consts is None else tuple(id(c) for c in consts)
