"""Sizes in symbolic dims: what a value's extents (as JAX prints them: ``"d"``, ``"2*d + 1"``,
``"m*floordiv(d, 2)"``, ``"d^2"``) say, and proofs that one size stays under a bound over the
dims' declared ranges.

Extents are parsed with Python's ``ast`` (``^`` read as a power) and evaluated by walking the
tree, never ``eval``: integers, dim names, ``+ - *``, ``^`` with an integer exponent, and
``floordiv``, ``mod``, ``max``, ``min`` of two arguments. A proof evaluates both sides exactly
at every integer point of the dims' box when it has at most ``MAX_POINTS`` points; a bigger box,
or a dim without an upper bound, is inconclusive unless the difference, written in the dims
shifted to their lowest extents, is a polynomial with no negative coefficient. Inconclusive is
never a proof.
"""

from __future__ import annotations

import ast
import itertools
import math
from fractions import Fraction

import numpy as np

from judge.gate import parsing

MAX_POINTS = 1 << 22
_FUNCTIONS = {"floordiv", "mod", "max", "min"}


class ExtentError(ValueError):
    pass


def parse(text: str) -> ast.expr:
    """The checked tree of one extent's text."""
    try:
        tree = parsing.parse(text.replace("^", "**"), mode="eval").body
    except SyntaxError:
        raise ExtentError(f"cannot read the extent {text!r}") from None
    for node in ast.walk(tree):
        ok = (isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Add, ast.Sub,
                                ast.Mult, ast.Pow, ast.USub, ast.UAdd))
              or (isinstance(node, ast.Constant) and type(node.value) is int)
              or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in _FUNCTIONS and len(node.args) == 2 and not node.keywords))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            ok = ok and isinstance(node.right, ast.Constant) and type(node.right.value) is int \
                and 0 <= node.right.value <= 16
        if not ok:
            raise ExtentError(f"cannot read the extent {text!r}")
    return tree


def names(tree) -> set[str]:
    """The dim names an extent uses."""
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls}


def degree(tree, dim: str) -> int:
    """How fast the extent grows with ``dim``: its degree in it (``floordiv(d, 2)`` counts as
    d, ``mod(d, 2)`` as a constant)."""
    if isinstance(tree, ast.Constant):
        return 0
    if isinstance(tree, ast.Name):
        return 1 if tree.id == dim else 0
    if isinstance(tree, ast.UnaryOp):
        return degree(tree.operand, dim)
    if isinstance(tree, ast.BinOp):
        left, right = degree(tree.left, dim), degree(tree.right, dim)
        if isinstance(tree.op, ast.Mult):
            return left + right
        if isinstance(tree.op, ast.Pow):
            return left * tree.right.value
        return max(left, right)
    name = tree.func.id
    if name == "mod":
        return min(degree(tree.args[0], dim), degree(tree.args[1], dim))
    if name == "floordiv":
        return degree(tree.args[0], dim)
    return max(degree(a, dim) for a in tree.args)


def evaluate(tree, dims: dict):
    """The extent at ``dims`` (name -> int or integer NumPy array)."""
    if isinstance(tree, ast.Constant):
        return tree.value
    if isinstance(tree, ast.Name):
        return dims[tree.id]
    if isinstance(tree, ast.UnaryOp):
        value = evaluate(tree.operand, dims)
        return -value if isinstance(tree.op, ast.USub) else value
    if isinstance(tree, ast.BinOp):
        a, b = evaluate(tree.left, dims), evaluate(tree.right, dims)
        if isinstance(tree.op, ast.Add):
            return a + b
        if isinstance(tree.op, ast.Sub):
            return a - b
        if isinstance(tree.op, ast.Mult):
            return a * b
        return a ** b
    a, b = (evaluate(x, dims) for x in tree.args)
    name = tree.func.id
    if name == "floordiv":
        return np.floor_divide(a, np.where(b == 0, 1, b))
    if name == "mod":
        return np.mod(a, np.where(b == 0, 1, b))
    return np.maximum(a, b) if name == "max" else np.minimum(a, b)


def shape_text(shape) -> str:
    """``(d, d)``, ``(4,)``."""
    return "(" + ", ".join(shape) + ("," if len(shape) == 1 else "") + ")"


def size_text(shape) -> str:
    """The number of elements as one product: ``d^2`` for ``(d, d)``, ``4*d`` for ``(4, d)``."""
    counts: dict = {}
    number = 1
    for extent in shape:
        if extent.isdigit():
            number *= int(extent)
        else:
            key = extent if all(c.isalnum() or c == "_" for c in extent) else f"({extent})"
            counts[key] = counts.get(key, 0) + 1
    parts = ([str(number)] if number != 1 or not counts else []) + \
        [k if n == 1 else f"{k}^{n}" for k, n in counts.items()]
    return "*".join(parts)


def _points(ranges: dict):
    """Every integer point of the box as NumPy arrays (name -> array), or None when the box is
    unbounded or has more than MAX_POINTS points."""
    if any(high is None for _, high in ranges.values()):
        return None
    counts = [high - low + 1 for low, high in ranges.values()]
    if math.prod(counts) > MAX_POINTS:
        return None
    grids = np.meshgrid(*[np.arange(low, high + 1, dtype=np.int64) for low, high in ranges.values()],
                        indexing="ij")
    return {name: grid.ravel() for name, grid in zip(ranges, grids)}


def proves(size, bound, ranges: dict) -> tuple[bool, dict | None]:
    """Is ``size(dims) <= bound(dims)`` at every integer point of ``ranges`` (name -> (low,
    high or None))? ``size`` and ``bound`` take a dict of dims (ints or arrays). Returns
    ``(True, None)`` when proved, ``(False, point)`` with a point where it fails, or ``(False,
    None)`` when it cannot be decided."""
    points = _points(ranges)
    if not ranges:
        return (bool(size({}) <= bound({})), None if size({}) <= bound({}) else {})
    if points is not None:
        with np.errstate(all="ignore"):
            big = {n: np.float64(high) for n, (_, high) in ranges.items()}
            if float(np.max(np.abs(np.asarray(size(big), dtype=np.float64)))) > 2.0 ** 60:
                return False, None
            diff = np.asarray(bound(points) - size(points))
        if diff.ndim == 0:
            diff = np.full(len(next(iter(points.values()))), diff)
        bad = np.nonzero(diff < 0)[0]
        if not len(bad):
            return True, None
        return False, {n: int(points[n][bad[0]]) for n in ranges}
    if _nonnegative_shifted(size, bound, ranges):
        return True, None
    # no proof: a counterexample among the smaller extents, if there is one, to show
    near = {n: (low, low + 63 if high is None else min(high, low + 63)) for n, (low, high) in ranges.items()}
    held, where = proves(size, bound, near) if _points(near) is not None else (True, None)
    return False, (where if not held else None)


def _nonnegative_shifted(size, bound, ranges: dict) -> bool:
    """bound - size as a polynomial in y_i = x_i - low_i (found by interpolation at small
    integer points, then checked at more): all its coefficients at least 0 proves it."""
    dims = list(ranges)
    top = 6  # degrees up to 5 in each dim
    if top ** len(dims) > 50_000:
        return False

    def diff(point):
        at = {n: ranges[n][0] + k for n, k in zip(dims, point)}
        return Fraction(int(bound(at))) - Fraction(int(size(at)))

    # forward differences give the coefficients in the binomial basis C(y, k), which are
    # non-negative integers combinations of y^j for y >= 0: all >= 0 proves diff >= 0
    grid = {p: diff(p) for p in itertools.product(range(top), repeat=len(dims))}
    coefficients = {}
    for k in itertools.product(range(top), repeat=len(dims)):
        total = Fraction(0)
        for j in itertools.product(*[range(kk + 1) for kk in k]):
            sign = (-1) ** (sum(k) - sum(j))
            total += sign * math.prod(math.comb(kk, jj) for kk, jj in zip(k, j)) * grid[j]
        coefficients[k] = total
    if any(c != 0 for k, c in coefficients.items() if max(k, default=0) == top - 1):
        return False  # degree too high to be sure the interpolation is the polynomial
    return all(c >= 0 for c in coefficients.values())
