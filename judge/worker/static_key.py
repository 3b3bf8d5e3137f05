"""A static (nondiff) argument of a custom_vjp function as part of the function's identity
(``instrument``'s numbers): a rule that a static argument changes is another function's for each
value of it, so a choice by x between two static modes of one function is a choice between
rules. Read without calling any code of the submission's: its objects' own ``__hash__`` and
``__eq__`` are never called.
"""

from __future__ import annotations

import jax

_Tracer = jax.core.Tracer


class _Same:
    """An object as a key by its identity, held (its own hash and equality, which may be the
    submission's, are never called)."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return type(other) is _Same and other.obj is self.obj


_SIMPLE = (int, float, bool, str, bytes, complex, type(None))


def key(value):
    """A static argument as part of a function's key: a number, string or None by its value
    (read without calling any code of the submission's), a tracer as one, anything else by
    its identity."""
    kind = type(value)
    if kind in _SIMPLE:
        return kind.__name__, repr(value)
    if kind is tuple:
        return "tuple", tuple(key(v) for v in value)
    if issubclass(kind, _Tracer):
        return ("traced",)
    return "object", _Same(value)
