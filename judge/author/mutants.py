"""Mutants of a reference solution: one small, plausible mistake at a time.

``generate(source)`` parses the reference with ``ast`` and returns one ``Mutant`` per mutation
site and variant: a standalone source file (``ast.unparse`` of the mutated tree). The judge never
imports or runs them here; ``judge.author.mutants_run`` grades them like any submission, in the sandbox.

Operators (the ``kind`` of a mutant):

- ``compare``: ``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``
- ``arith``: ``+`` <-> ``-``, ``*`` <-> ``/``, ``//`` -> ``/``, ``**`` -> ``*``; unary minus removed
- ``const``: a number 0 -> 1, 1 -> 0, any other n -> n + 1 and n - 1
- ``round``: ``round``/``rint``/``floor``/``ceil``/``trunc`` (as ``mod.name(...)``) -> each other one
- ``where``: ``where(c, a, b)`` / ``select(c, a, b)`` -> branches swapped
- ``clip``: ``clip(a, lo, hi)`` -> ``a``
- ``mask``: ``p & q`` -> ``p`` and -> ``q``; ``a * m.astype(t)`` -> ``a``
- ``stop_gradient``: ``stop_gradient(a)`` -> ``a``; a returned value ``v`` -> ``stop_gradient(v)``
- ``bwd``: a backward rule (a function named ``*bwd*``/``*backward*`` with two or more arguments,
  or whose last argument is ``g``) returns its cotangent unchanged: ``return (g,)``

A mutant's id names its kind, where it is and the variant, e.g. ``compare-L17C19-gt``: the same
reference always gives the same ids, so ``submissions/<id>/mutants.yaml`` can name them.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
           ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
ARITH = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Div], ast.Div: [ast.Mult],
         ast.FloorDiv: [ast.Div], ast.Pow: [ast.Mult]}
OP_NAMES = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq",
            ast.NotEq: "ne", ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div",
            ast.FloorDiv: "floordiv", ast.Pow: "pow"}
ROUNDING = ("round", "floor", "ceil", "trunc")
ROUNDING_SOURCES = ROUNDING + ("rint",)
BWD_NAMES = ("bwd", "backward")
BWD_LAST_ARGS = ("g",)
KIND_WORDS = {"compare": "comparison", "arith": "arithmetic", "const": "constant",
              "round": "rounding", "where": "branches swapped", "clip": "clip removed",
              "mask": "mask removed", "stop_gradient": "stop_gradient",
              "bwd": "backward rule returns its cotangent"}


@dataclass(frozen=True)
class Mutant:
    id: str
    kind: str
    line: int
    col: int
    description: str   # the mutation in words: "line 17: `r >= qmin` -> `r > qmin` (comparison)"
    source: str        # the whole mutated file


@dataclass(frozen=True)
class _Site:
    position: int      # the node's position in ast.walk order
    kind: str
    variant: str
    line: int
    col: int


def _attr(node) -> str | None:
    """``f`` for a call of ``something.f(...)`` or ``f(...)``."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
        if isinstance(node.func, ast.Name):
            return node.func.id
    return None


def _is_number(node) -> bool:
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float))


def _number_variants(value) -> list[tuple[str, object]]:
    if value == 0:
        return [("to1", type(value)(1))]
    if value == 1:
        return [("to0", type(value)(0))]
    return [("plus1", value + 1), ("minus1", value - 1)]


def _is_bwd(node) -> str | None:
    """The cotangent argument's name, when ``node`` is a backward rule."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = node.args.posonlyargs + node.args.args
    if len(args) < 2:
        return None
    named = any(word in node.name.lower() for word in BWD_NAMES)
    if named or args[-1].arg in BWD_LAST_ARGS:
        return args[-1].arg
    return None


def _rule_returns(tree: ast.AST) -> set[int]:
    """Returns inside a custom rule's functions: a backward rule, a function decorated with
    ``custom_vjp``/``custom_jvp`` (its primal is never differentiated) or passed to ``defvjp``/
    ``defjvp``. A stop_gradient there changes nothing, so none is inserted."""
    rule_names = set()
    for node in ast.walk(tree):
        if _attr(node) in ("defvjp", "defjvp"):
            rule_names.update(a.id for a in node.args if isinstance(a, ast.Name))
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        decorated = any(_dotted(d).rsplit(".", 1)[-1] in ("custom_vjp", "custom_jvp")
                        for d in node.decorator_list)
        if _is_bwd(node) or decorated or node.name in rule_names:
            found.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Return))
    return found


def _dotted(node) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - a decorator we cannot name is simply not a rule
        return ""


def _sites(tree: ast.AST) -> list[_Site]:
    sites = []
    returns_in_bwd = _rule_returns(tree)
    for position, node in enumerate(ast.walk(tree)):
        where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))

        def add(kind, variant, _where=where, _position=position):
            sites.append(_Site(_position, kind, variant, *_where))

        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE:
                    prefix = f"{i}-" if len(node.ops) > 1 else ""
                    add("compare", prefix + OP_NAMES[COMPARE[type(op)]])
        elif isinstance(node, ast.BinOp):
            for new in ARITH.get(type(node.op), []):
                add("arith", OP_NAMES[new])
            if isinstance(node.op, ast.BitAnd):
                add("mask", "left")
                add("mask", "right")
            if isinstance(node.op, ast.Mult):
                if _attr(node.right) == "astype":
                    add("mask", "left")
                if _attr(node.left) == "astype":
                    add("mask", "right")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            if not _is_number(node.operand):
                add("arith", "noneg")
        elif _is_number(node):
            for variant, _ in _number_variants(node.value):
                add("const", variant)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in ROUNDING_SOURCES:
                for other in ROUNDING:
                    if other != name:
                        add("round", other)
            elif name in ("where", "select") and len(node.args) == 3:
                add("where", "swap")
            elif name == "clip" and node.args:
                add("clip", "drop")
            elif name == "stop_gradient" and len(node.args) == 1:
                add("stop_gradient", "remove")
        elif isinstance(node, ast.Return) and node.value is not None and id(node) not in returns_in_bwd:
            add("stop_gradient", "insert")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_bwd(node):
            add("bwd", "identity")
    return sites


class _Mutate(ast.NodeTransformer):
    """Replace the node at one ``ast.walk`` position; every other node stays as it was."""

    def __init__(self, target: ast.AST, site: _Site):
        self.target, self.site = target, site
        self.before = self.after = ""
        self.needs_jax = False

    def visit(self, node):
        if node is not self.target:
            return super().visit(node)
        self.before = _short(node)
        new = self._mutate(node)
        self.after = _short(new)
        return new

    def _mutate(self, node):
        kind, variant = self.site.kind, self.site.variant
        if kind == "compare":
            i = int(variant.split("-")[0]) if "-" in variant else 0
            node.ops[i] = COMPARE[type(node.ops[i])]()
        elif kind == "arith" and variant == "noneg":
            return node.operand
        elif kind == "arith":
            node.op = ARITH[type(node.op)][0]()
        elif kind == "const":
            node.value = dict(_number_variants(node.value))[variant]
        elif kind == "round":
            node.func.attr = variant
        elif kind == "where":
            node.args[1], node.args[2] = node.args[2], node.args[1]
        elif kind in ("clip", "stop_gradient") and variant in ("drop", "remove"):
            return node.args[0]
        elif kind == "mask":
            return node.left if variant == "left" else node.right
        elif kind == "stop_gradient":   # insert around a returned value
            self.needs_jax = True
            node.value = ast.Call(func=ast.parse("_mutant_lax.stop_gradient", mode="eval").body,
                                  args=[node.value], keywords=[])
        elif kind == "bwd":
            args = node.args.posonlyargs + node.args.args
            node.body = [ast.Return(value=ast.Tuple(elts=[ast.Name(args[-1].arg, ast.Load())],
                                                    ctx=ast.Load()))]
        return node


def _short(node, limit: int = 60) -> str:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        text = f"def {node.name}: " + " ".join(ast.unparse(s).replace("\n", "; ") for s in node.body)
    else:
        text = ast.unparse(node).replace("\n", "; ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _import_position(tree: ast.Module) -> int:
    """After the docstring and ``from __future__`` imports."""
    i = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        i = 1
    while i < len(body) and isinstance(body[i], ast.ImportFrom) and body[i].module == "__future__":
        i += 1
    return i


def generate(source: str) -> list[Mutant]:
    """Every mutant of ``source`` (raise SyntaxError if it does not parse), in source order."""
    tree = ast.parse(source)
    mutants, seen = [], {}
    for site in _sites(tree):
        clone = copy.deepcopy(tree)
        target = next(n for i, n in enumerate(ast.walk(clone)) if i == site.position)
        mutate = _Mutate(target, site)
        clone = mutate.visit(clone)
        if mutate.needs_jax:
            clone.body.insert(_import_position(clone), ast.parse("import jax.lax as _mutant_lax").body[0])
        ast.fix_missing_locations(clone)
        base = f"{site.kind}-L{site.line}C{site.col}-{site.variant}"
        seen[base] = seen.get(base, 0) + 1
        mutant_id = base if seen[base] == 1 else f"{base}-{seen[base]}"
        description = (f"line {site.line}: `{mutate.before}` -> `{mutate.after}` "
                       f"({KIND_WORDS[site.kind]})")
        mutants.append(Mutant(mutant_id, site.kind, site.line, site.col, description,
                              ast.unparse(clone) + "\n"))
    mutants.sort(key=lambda m: (m.line, m.col))
    return mutants
