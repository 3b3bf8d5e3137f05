"""A traced program's constants made the worker's own, as soon as it is traced.

A constant a program closes over may be the submission's memory: JAX keeps a NumPy array the
function closes over by reference (a view of it, at the top of the program as in a ``jit``'s
body), and a JAX array may share a NumPy array's memory (``device_put(..., may_alias=True)``).
The submission's code runs again after a program is traced (the next key's trace, a rule's
trace), and may write that memory: the program evaluated would then hold other values than the
ones the rules read (an index, a trip count, a branch). ``own`` replaces every array constant of
a program, at every level of its nested jaxprs, by a copy made here, which no code of the
submission's holds or shares memory with. Decides nothing."""

from __future__ import annotations

import numpy as np


def own(closed):
    """``closed`` (a closed jaxpr), each array constant at every level replaced, in place, by a
    copy of its own. Returns ``closed``."""
    _own(closed, set())
    return closed


def _own(closed, seen: set) -> None:
    if id(closed) in seen:
        return
    seen.add(id(closed))
    consts = getattr(closed, "consts", None)
    if consts is not None:
        copied = [_copy(c) for c in consts]
        if any(a is not b for a, b in zip(copied, consts)):
            if isinstance(consts, list):
                consts[:] = copied
            else:  # a form whose constants cannot be replaced in place
                object.__setattr__(closed, "consts", type(consts)(copied))
    jaxpr = getattr(closed, "jaxpr", closed)
    for eqn in getattr(jaxpr, "eqns", ()):
        for value in eqn.params.values():
            for sub in _nested(value):
                _own(sub, seen)


def _nested(value):
    """The jaxprs, closed or open, one equation parameter holds."""
    if hasattr(value, "eqns") or (hasattr(value, "jaxpr") and hasattr(value, "consts")):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _nested(item)


def _copy(value):
    """A copy of an array that shares no memory with it (its subclass and weak type kept);
    anything else (a number, an immutable NumPy scalar) as it is."""
    if isinstance(value, np.ndarray):
        return value.copy()
    copy = getattr(value, "copy", None)
    if copy is None or not hasattr(value, "dtype") or not hasattr(value, "shape"):
        return value
    try:
        return copy()
    except Exception:  # noqa: BLE001 - an array that cannot be copied stays as it is
        return value
