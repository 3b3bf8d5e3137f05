"""Size expressions in specs: ``4 * size(W) + 8 * size(x)``, ``dim(X, 0) * d``.

Parsed with Python's ``ast`` and evaluated by walking the tree (never ``eval``): integers, the
operators ``+ - * //``, parentheses, ``size(P)`` (the number of elements of parameter P),
``dim(P, i)`` (its extent along axis i), ``ndim(P)``, ``min(a, b, ...)``, ``max(a, b, ...)``
and bare dim names from the parameters' symbolic ``shape``.
"""

from __future__ import annotations

import ast
import functools
import math

import numpy as np

from judge.gate import parsing

def _floordiv(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.where(b == 0, 0, np.floor_divide(a, np.where(b == 0, 1, b)))
    return a // b if b else 0


_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.FloorDiv: _floordiv}
_MAX_TEXT = 500


class ExpressionError(ValueError):
    pass


def parse(text: str, parameters, dims) -> ast.expr:
    """The checked tree of ``text``; ExpressionError names what is wrong. ``parameters``: the
    array parameters' names; ``dims``: the dim names of their symbolic shapes."""
    if not isinstance(text, str) or not text.strip() or len(text) > _MAX_TEXT:
        raise ExpressionError(f"must be a non-empty expression of at most {_MAX_TEXT} characters")
    try:
        tree = parsing.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ExpressionError(f"cannot be parsed: {exc.msg}") from None
    _check(tree, set(parameters), set(dims))
    return tree


def _check(node, parameters: set, dims: set) -> None:
    if isinstance(node, ast.Constant) and type(node.value) is int and node.value >= 0:
        return
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        _check(node.left, parameters, dims)
        _check(node.right, parameters, dims)
        return
    if isinstance(node, ast.Name):
        if node.id not in dims:
            raise ExpressionError(f"{node.id!r} is not a dim name of the parameters' shapes"
                                  + (f" (dims: {', '.join(sorted(dims))})" if dims else ""))
        return
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        name, args = node.func.id, node.args
        if name in ("size", "ndim") and len(args) == 1:
            _parameter(args[0], parameters, name)
            return
        if name == "dim" and len(args) == 2:
            _parameter(args[0], parameters, name)
            if _axis(args[1]) is None:
                raise ExpressionError("dim(P, i) needs an integer axis i")
            return
        if name in ("min", "max") and args:
            for arg in args:
                _check(arg, parameters, dims)
            return
    raise ExpressionError(f"`{ast.unparse(node)}` is not allowed: use integers, + - * //, "
                          f"size(P), dim(P, i), ndim(P), min, max and dim names")


def _axis(node) -> int | None:
    """The integer of an axis argument (``1`` or ``-1``), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _axis(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _parameter(node, parameters: set, fn: str) -> None:
    if not isinstance(node, ast.Name) or node.id not in parameters:
        raise ExpressionError(f"{fn}() takes an array parameter's name"
                              + (f" ({', '.join(sorted(parameters))})" if parameters else ""))


def evaluate(tree: ast.expr, shapes: dict, dims: dict) -> int:
    """The expression's value for parameter ``shapes`` (name -> tuple) and ``dims`` (name ->
    extent); extents may be integer NumPy arrays (every point of a box at once)."""
    if isinstance(tree, ast.Constant):
        return tree.value
    if isinstance(tree, ast.BinOp):
        return _OPS[type(tree.op)](evaluate(tree.left, shapes, dims), evaluate(tree.right, shapes, dims))
    if isinstance(tree, ast.Name):
        return dims[tree.id]
    name, args = tree.func.id, tree.args
    if name == "size":
        return math.prod(shapes[args[0].id])
    if name == "ndim":
        return len(shapes[args[0].id])
    if name == "dim":
        shape, axis = shapes[args[0].id], _axis(args[1])
        return shape[axis] if -len(shape) <= axis < len(shape) else 0
    values = [evaluate(a, shapes, dims) for a in args]
    return functools.reduce(np.minimum if name == "min" else np.maximum, values)
