"""A mutant's stable id (``judge.author.mutants``): its kind, the function it is in, a digest of
the statement and expression it changes, and its variant, so that an edit elsewhere in the
reference leaves every other mutant's id (and the equivalent mutants recorded by it) as it was."""

from __future__ import annotations

import ast
import hashlib


def places(tree: ast.Module) -> dict[int, tuple[str, ast.AST]]:
    """Each node's position in ``ast.walk`` order -> (the innermost function around it, or
    ``module``; the innermost statement around it, or the node itself)."""
    position = {id(n): i for i, n in enumerate(ast.walk(tree))}
    places: dict[int, tuple[str, ast.AST]] = {}

    def visit(node, scope: str, statement) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            places[position[id(node)]] = (scope, node)  # its decorators and itself: the outer scope
            for child in node.decorator_list:
                visit(child, scope, node)
            scope = node.name
            for child in ast.iter_child_nodes(node):
                if child not in node.decorator_list:
                    visit(child, scope, child if isinstance(child, ast.stmt) else node)
            return
        here = node if isinstance(node, ast.stmt) and not isinstance(node, ast.ClassDef) else statement
        places[position[id(node)]] = (scope, here if here is not None else node)
        for child in ast.iter_child_nodes(node):
            visit(child, scope, here)

    visit(tree, "module", None)
    return places


def stable_id(kind: str, variant: str, position: int, tree: ast.Module, places: dict) -> str:
    """``kind-function-digest-variant``: the digest is of the statement and the expression
    mutated (a statement's own text, not its lines), so an edit elsewhere in the file leaves
    the id as it was, and an edit of that statement makes a new one."""
    scope, statement = places[position]
    node = next(n for i, n in enumerate(ast.walk(tree)) if i == position)
    text = ast.unparse(statement if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
                       else node) + "\0" + ast.unparse(node)
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]
    return f"{kind}-{scope}-{digest}-{variant}"
