"""Constraints between a case's inputs, stated in the spec's ``constraints`` as expressions.

``constraints: [{check: "good_steps < period", says: "..."}]``: each ``check`` is an expression
over the parameters (by name), the dims of their shapes (by name) and numbers, true for every
case. Parsed with Python's ``ast`` and evaluated by walking the tree (never ``eval``):

* numbers, ``True``/``False``, parameter and dim names; a tree parameter's leaf as
  ``params["dense"]["w"]``, an array's entry as ``x[0]``;
* ``+ - * / // % **`` and ``@`` (matrix product), unary ``-``, ``not``, ``and``, ``or``,
  comparisons (chains too);
* functions: ``abs``, ``min``, ``max``, ``sum``, ``all``, ``any``, ``norm`` (the Euclidean
  norm of every entry), ``size``, ``dim(a, i)`` (the extent of axis i), ``log2``, ``floor``, ``power_of_two`` (every entry is 2**k
  for a whole k, negative k too).

An array result holds when every entry is true: ``abs(W) <= 4`` bounds each entry. Values are
computed in float64 on the case's own numbers, so the judge and ``judge generate`` decide the
same way; a check whose computation fails on a case (a shape mismatch) is broken by it.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass

import numpy as np

from judge.gate import parsing

_MAX_TEXT = 500
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow, ast.MatMult: operator.matmul}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}


def _power_of_two(a):
    a = np.asarray(a, np.float64)
    with np.errstate(all="ignore"):
        mantissa, _ = np.frexp(a)
    return (a > 0) & (mantissa == 0.5)


_FUNCTIONS = {
    "abs": (1, np.abs), "log2": (1, np.log2), "floor": (1, np.floor),
    "sum": (1, np.sum), "all": (1, np.all), "any": (1, np.any),
    "norm": (1, lambda a: np.sqrt(np.sum(np.square(np.asarray(a, np.float64))))),
    "size": (1, lambda a: np.float64(np.size(a))), "power_of_two": (1, _power_of_two),
    "dim": (2, lambda a, axis: np.float64(np.shape(a)[int(axis)])),
    "min": (None, lambda *a: np.min(a[0]) if len(a) == 1 else np.minimum.reduce(np.broadcast_arrays(*a))),
    "max": (None, lambda *a: np.max(a[0]) if len(a) == 1 else np.maximum.reduce(np.broadcast_arrays(*a))),
}


class ConditionError(ValueError):
    pass


@dataclass(frozen=True)
class Condition:
    """One ``constraints`` entry: its text, its checked tree and what it says in words."""

    text: str
    tree: ast.expr
    says: str = ""

    def holds(self, values: dict, dims: dict) -> bool:
        """Does the case with these typed inputs and dim extents meet it? (False where the
        computation fails.)"""
        try:
            with np.errstate(all="ignore"):
                found = _evaluate(self.tree, values, dims)
            return bool(np.all(found))
        except (ArithmeticError, ValueError, TypeError, KeyError, IndexError):
            return False


def parse(text, says, names, dims) -> Condition:
    """The checked condition; ConditionError names what is wrong. ``names``: the parameters;
    ``dims``: the dim names of their shapes."""
    if not isinstance(text, str) or not text.strip() or len(text) > _MAX_TEXT:
        raise ConditionError(f"must be a non-empty expression of at most {_MAX_TEXT} characters")
    try:
        tree = parsing.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ConditionError(f"cannot be parsed: {exc.msg}") from None
    _check(tree, set(names), set(dims))
    return Condition(text=text.strip(), tree=tree, says=says or "")


def _check(node, names: set, dims: set) -> None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        return
    if isinstance(node, ast.Name):
        if node.id not in names and node.id not in dims:
            known = sorted(names | dims)
            raise ConditionError(f"{node.id!r} is neither a parameter nor a dim"
                                 + (f" (known: {', '.join(known)})" if known else ""))
        return
    children = None
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        children = [node.left, node.right]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
        children = [node.operand]
    elif isinstance(node, ast.BoolOp):
        children = node.values
    elif isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        children = [node.left, *node.comparators]
    elif isinstance(node, ast.Subscript) and _index(node.slice) is not None:
        children = [node.value]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords \
            and node.func.id in _FUNCTIONS:
        arity = _FUNCTIONS[node.func.id][0]
        if not node.args or (arity is not None and len(node.args) != arity):
            raise ConditionError(f"{node.func.id}() takes {arity or 'one or more'} argument"
                                 f"{'s' if arity != 1 else ''}")
        children = node.args
    if children is None:
        raise ConditionError(f"`{ast.unparse(node)}` is not allowed: use numbers, parameter and "
                             f"dim names, x[i], + - * / // % ** @, comparisons, and, or, not and "
                             f"{', '.join(sorted(_FUNCTIONS))}")
    for child in children:
        _check(child, names, dims)


def _index(node):
    """The key of ``x[...]``: a whole number (``-1`` too) or a text, else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _index(node.operand)
        return -inner if type(inner) is int else None
    if isinstance(node, ast.Constant) and type(node.value) in (int, str):
        return node.value
    return None


def _evaluate(node, values: dict, dims: dict):
    # every number is a float64, so that no power of whole numbers can grow without bound
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, bool) else np.float64(node.value)
    if isinstance(node, ast.Name):
        if node.id in values:
            value = values[node.id]
            return value if isinstance(value, dict) else np.asarray(value, np.float64) \
                if np.asarray(value).dtype.kind != "b" else np.asarray(value)
        return np.float64(dims[node.id])
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_evaluate(node.left, values, dims), _evaluate(node.right, values, dims))
    if isinstance(node, ast.UnaryOp):
        inner = _evaluate(node.operand, values, dims)
        if isinstance(node.op, ast.Not):
            return np.logical_not(inner)
        return -inner if isinstance(node.op, ast.USub) else +inner
    if isinstance(node, ast.BoolOp):
        parts = [_evaluate(v, values, dims) for v in node.values]
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
        out = parts[0]
        for part in parts[1:]:
            out = combine(out, part)
        return out
    if isinstance(node, ast.Compare):
        left, out = _evaluate(node.left, values, dims), True
        for op, right_node in zip(node.ops, node.comparators):
            right = _evaluate(right_node, values, dims)
            out = np.logical_and(out, _COMPARE[type(op)](left, right))
            left = right
        return out
    if isinstance(node, ast.Subscript):
        inner = _evaluate(node.value, values, dims)
        key = _index(node.slice)
        if isinstance(inner, dict):
            inner = inner[key]
            return np.asarray(inner, np.float64) if not isinstance(inner, dict) else inner
        if isinstance(key, str):
            raise TypeError("an array has no keys")
        return inner[key]
    args = [_evaluate(a, values, dims) for a in node.args]
    return _FUNCTIONS[node.func.id][1](*args)


def broken(conditions, values: dict, dims: dict) -> list[str]:
    """A message for each condition the case breaks."""
    return [f"breaks the constraint `{c.text}`" + (f" ({c.says})" if c.says else "")
            for c in conditions if not c.holds(values, dims)]
