"""Look-alike submissions: the same program up to names, comments, whitespace and the order of
definitions.

A submission's source is parsed with ``ast`` (``judge.gate.parsing``), never imported or run,
and reduced to a fingerprint (``fingerprint``); submissions of a class with the same fingerprint
are each other's look-alikes (``similar``).

How a source is reduced:

- Comments and whitespace are gone once parsed; docstrings, type annotations and ``pass`` are
  dropped, and imports too (everyone imports the same few modules).
- Every function or class definition, at any depth, is a unit of its own, taken out of the body
  that holds it, and the top-level statements left are one more unit. The fingerprint is the
  sorted list of the units, so definitions can come in any order.
- Within a unit every name (variables, parameters, functions, modules imported under an alias)
  becomes ``_1``, ``_2``, ... in the order it first appears in that unit, so a consistent
  renaming changes nothing. Attribute names (``jnp.round``, ``f.defvjp``), Python's builtins,
  constants and the structure stay as they are.
- What every student shares is left out, so a common starter does not make a class alike: the
  entry point's signature (its name and parameters are the problem's), and any expression or
  statement equal, in the same reduced form, to a piece of code in the problem's hints (the
  spec's ``hints``, whose code a student may copy word for word) is counted as the problem's,
  not the student's. A submission with fewer than ``MIN_OWN_NODES`` syntax nodes of its own
  left gets no fingerprint and is never anyone's look-alike.

Limits: this finds copies, not paraphrases. An added, removed or changed statement, a loop
written as a comprehension, an expression split in two, or a helper inlined, all give another
fingerprint. Two students who wrote the same short solution independently can get the same
fingerprint: a look-alike is a reason to read both files, not a verdict.
"""

from __future__ import annotations

import ast
import builtins
import copy
import hashlib
import re
from collections import defaultdict

from judge.gate.parsing import parse

#: Below this many syntax nodes of a submission's own (after the problem's code is left out),
#: a submission is too small to call a copy.
MIN_OWN_NODES = 25
#: A piece of a hint smaller than this many nodes (``x / scale``) is not left out.
MIN_HINT_NODES = 5
#: A source larger than this is not searched for the hints' code (it is all its own).
MAX_NODES = 20_000
#: A source larger than this gets no fingerprint: no honest solution comes near it, and reducing
#: one costs time linear in its size (about 20 microseconds a node).
MAX_SOURCE_BYTES = 64 * 1024
KEPT_NAMES = frozenset(dir(builtins))
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_SKIPPED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
_BACKTICKS = re.compile(r"`([^`]+)`")


class _Reduce(ast.NodeTransformer):
    """A unit in reduced form: names numbered by first appearance, annotations and docstrings
    dropped, nested definitions taken out into ``units``."""

    def __init__(self, units: list):
        self.names: dict[str, str] = {}
        self.units = units

    def name(self, text: str) -> str:
        if text in KEPT_NAMES:
            return text
        return self.names.setdefault(text, f"_{len(self.names) + 1}")

    def visit_Name(self, node):
        return ast.copy_location(ast.Name(self.name(node.id), ast.Load()), node)

    def visit_arg(self, node):
        return ast.arg(self.name(node.arg))

    def visit_Global(self, node):
        return ast.Global([self.name(n) for n in node.names])

    def visit_Nonlocal(self, node):
        return ast.Nonlocal([self.name(n) for n in node.names])

    def visit_AnnAssign(self, node):
        if node.value is None:
            return None
        return self.visit(ast.Assign([node.target], node.value))

    def visit_alias(self, node):
        return ast.alias(node.name, None)

    def body(self, statements: list) -> list:
        kept = []
        for i, stmt in enumerate(statements):
            if isinstance(stmt, _DEFS):
                self.units.append(_unit(stmt, self.units))
            elif isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)):
                continue
            elif i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                continue  # a docstring
            else:
                kept.append(self.visit(stmt))
        return [s for s in kept if s is not None]

    def generic_visit(self, node):
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "type_comment"):
                setattr(node, field, None)
            elif isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self.body(value))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v
                                      for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node


def _unit(node: ast.AST, units: list) -> str:
    """A definition in reduced form (its own name numbered like any other)."""
    reduce = _Reduce(units)
    if isinstance(node, ast.ClassDef):
        node = ast.ClassDef(reduce.name(node.name), [reduce.visit(b) for b in node.bases],
                            [reduce.visit(k) for k in node.keywords], reduce.body(node.body),
                            [reduce.visit(d) for d in node.decorator_list])
    else:
        node = type(node)(reduce.name(node.name), reduce.visit(node.args), reduce.body(node.body),
                          [reduce.visit(d) for d in node.decorator_list], None)
    return ast.dump(node, annotate_fields=False)


_PIECES = (ast.expr, ast.Assign, ast.AugAssign, ast.Return)


def _sizes(tree: ast.AST) -> dict[int, int]:
    """The size (``_size``) of every node of ``tree``, by ``id``, in one pass."""
    sizes: dict[int, int] = {}
    for node in reversed(list(ast.walk(tree))):  # breadth first, reversed: children first
        sizes[id(node)] = (not isinstance(node, _SKIPPED)) + sum(
            sizes[id(child)] for child in ast.iter_child_nodes(node))
    return sizes


def _pieces(tree: ast.Module) -> set[str]:
    """Every statement and expression of ``tree`` of at least ``MIN_HINT_NODES`` nodes, each in
    reduced form on its own (``_key``)."""
    sizes = _sizes(tree)
    return {_key(node, sizes[id(node)]) for node in ast.walk(tree)
            if isinstance(node, _PIECES) and sizes[id(node)] >= MIN_HINT_NODES}


def _key(node: ast.AST, size: int) -> str:
    """``node`` alone in reduced form, as text, after its size (``node`` is left as it is)."""
    return f"{size}:" + ast.dump(_Reduce([]).visit(copy.deepcopy(node)), annotate_fields=False)


def _fragments(text: str) -> list[str]:
    """Candidate code in a hint's prose: its `backticked` spans, and its clauses (split at
    sentence ends, colons, semicolons, commas and ' and '), each also without its first words."""
    out = _BACKTICKS.findall(text)
    for clause in re.split(r"(?<=[.:;])\s+|\s+and\s+|,\s+(?=[A-Za-z_]+\s*[,=])", text):
        words = clause.strip().rstrip(".:;").split(" ")
        out.extend(" ".join(words[i:]) for i in range(len(words)))  # prose before the code
    return out


def starter(problem) -> set[str]:
    """The problem's own code, as reduced pieces: what parses as Python in its hints (and is
    no mere name or number)."""
    found: set[str] = set()
    for hint in getattr(problem, "hints", ()):
        for fragment in _fragments(hint):
            try:
                tree = parse(fragment)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            found |= _pieces(tree)
    return found


class _Own(ast.NodeVisitor):
    """Counts the nodes of a submission that are not the problem's: the entry point's
    signature and anything equal to a piece of the hints are left out."""

    def __init__(self, entry_point: str, shared: set[str], sizes: dict[int, int]):
        self.entry_point, self.shared, self.count = entry_point, shared, 0
        self.sizes = sizes  # of the submission's nodes; only a node of a piece's size and kind
        # is compared (reducing keeps a piece's kind: its key's text starts with the kind's name)
        self.piece_kinds = {(int(size), text.partition("(")[0])
                            for size, _, text in (key.partition(":") for key in shared)}

    def visit(self, node):
        if isinstance(node, _SKIPPED) or isinstance(node, (ast.Import, ast.ImportFrom)):
            return
        size = self.sizes.get(id(node), 0)
        if isinstance(node, _PIECES) and (size, type(node).__name__) in self.piece_kinds \
                and _key(node, size) in self.shared:
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.name == self.entry_point:
            for stmt in node.body:
                self.visit(stmt)
            return
        self.count += 1
        self.generic_visit(node)


def fingerprint(source: bytes | str, entry_point: str,
                shared: set[str] = frozenset()) -> str | None:
    """The submission's fingerprint (see the module's docstring); None for a source that does
    not parse, is larger than ``MAX_SOURCE_BYTES`` or has fewer than ``MIN_OWN_NODES`` nodes of
    its own. ``shared`` is ``starter(problem)``."""
    if len(source) > MAX_SOURCE_BYTES:
        return None
    try:
        tree = parse(source)
        sizes = _sizes(tree)
        if sizes[id(tree)] > MAX_NODES:
            shared = frozenset()  # no starter is this large: its own code is well past the bound
        own = _Own(entry_point, set(shared), sizes)
        own.visit(tree)
        if own.count < MIN_OWN_NODES:
            return None
        units: list[str] = []
        top = _Reduce(units).body(tree.body)
        units.append(ast.dump(ast.Module(top, []), annotate_fields=False))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return hashlib.sha256("\n".join(sorted(units)).encode()).hexdigest()


def similar(fingerprints: dict[str, str | None]) -> dict[str, list[str]]:
    """For each name, the other names with the same fingerprint (in name order)."""
    by_print = defaultdict(list)
    for name, value in fingerprints.items():
        if value:
            by_print[value].append(name)
    return {name: sorted(n for n in by_print[value] if n != name) if value else []
            for name, value in fingerprints.items()}
