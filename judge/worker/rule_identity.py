"""Which applications of custom_vjp functions count as applications of one function
(``instrument``'s numbers), read without calling any code of the submission's (its objects' own
``__hash__`` and ``__eq__`` are never called).

A function is its primal function and rules, compared by code and by what their closures hold:
numbers, strings and None by value, functions and other custom_vjp functions the same way (a
function's reference to itself as such), anything else (an array, a tracer, an instance) by
identity. So the same factory called twice over the same numbers gives one function, while a
factory over another number, or over another array, gives another. A static (nondiff) argument
is part of the key the same way: a rule that a static mode changes is another function's for
each mode, and a choice by x between two modes is a choice between rules.
"""

from __future__ import annotations

import functools
import types

#: How deep closures and partials are read; deeper, a function is keyed by its identity.
DEPTH = 4


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


def static(value, root=None, tracked=None, depth: int = DEPTH):
    """A value as part of a function's key (the module's docstring): ``root`` is the custom_vjp
    function being keyed (a reference to it is itself), ``tracked`` the class of the
    instrumented custom_vjp functions."""
    kind = type(value)
    if kind in _SIMPLE:
        return kind.__name__, repr(value)
    if value is root and root is not None:
        return ("itself",)
    if depth > 0 and kind is tuple:
        return "tuple", tuple(static(v, root, tracked, depth - 1) for v in value)
    if depth > 0 and kind is types.FunctionType:
        cells = tuple(_cell(c, root, tracked, depth - 1) for c in value.__closure__ or ())
        return ("function", value.__code__, cells,
                static(value.__defaults__, root, tracked, depth - 1))
    if depth > 0 and kind is functools.partial:
        return ("partial", static(value.func, root, tracked, depth - 1),
                static(value.args, root, tracked, depth - 1),
                tuple(sorted((str(k), static(v, root, tracked, depth - 1))
                             for k, v in (value.keywords or {}).items() if type(k) is str)))
    if depth > 0 and tracked is not None and kind is tracked:
        return function(value, tracked, depth - 1, root)
    return "object", _Same(value)


def function(fn, tracked, depth: int = DEPTH, root=None):
    """The key of the custom_vjp function ``fn`` (an instance of ``tracked``): its primal
    function, rules and options."""
    root = fn if root is None else root
    parts = (fn.fun, fn.fwd, fn.bwd, tuple(fn.nondiff_argnums), fn.symbolic_zeros,
             getattr(fn, "optimize_remat", False))
    return "custom_vjp", tuple(static(part, root, tracked, depth) for part in parts)


def _cell(cell, root, tracked, depth):
    try:
        contents = cell.cell_contents
    except ValueError:  # a cell not yet filled
        return ("empty",)
    return static(contents, root, tracked, depth)
