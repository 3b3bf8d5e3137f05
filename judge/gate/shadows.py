"""Where a refused built-in's name (``input``, ``open``, ``vars``...) is a function's own local
variable: a parameter (``def cross_entropy(input, target)``, ported from PyTorch) or a name the
function assigns. Python resolves a name to the built-in only where no enclosing function
binds it, so a name that a function binds is that function's variable everywhere in its body,
nested functions, lambdas, comprehensions and class bodies included (before an assignment it is
unbound, never the built-in). The readings here are conservative: a binding counts only as a
parameter or a plain assignment (``=``, ``for``, ``with ... as``, ``del``) made in the function
itself; one made in a comprehension, a class body or at module level, by ``global`` or
``nonlocal``, an import, a ``def`` or an ``except ... as`` does not, and stays refused."""

from __future__ import annotations

import ast
from typing import Callable

_FUNCTION_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _in_body(scope, child) -> bool:
    """``child`` is evaluated inside ``scope`` (its body), not where ``scope`` is defined (its
    decorators, defaults, annotations, bases)."""
    if isinstance(scope, ast.Lambda):
        return child is scope.body
    return child in scope.body


def enclosing_scope(node, parent: Callable) -> ast.AST | None:
    """The function, class or module whose namespace ``node`` is evaluated in; a comprehension
    is returned as itself (it has its own namespace)."""
    child, scope = node, parent(node)
    while scope is not None:
        if isinstance(scope, ast.Module):
            return scope
        if isinstance(scope, (*_FUNCTION_SCOPES, ast.ClassDef)) and _in_body(scope, child):
            return scope
        if isinstance(scope, _COMPREHENSIONS):
            return scope
        child, scope = scope, parent(scope)
    return None


def binds_locally(function, name: str, parent: Callable, cache: dict) -> bool:
    """``function`` has a parameter ``name``, or a plain store or ``del`` of ``name`` whose
    namespace is ``function`` itself (remembered in ``cache``, so each function's body is
    read once per name)."""
    key = (id(function), name)
    if key not in cache:
        cache[key] = _binds_locally(function, name, parent)
    return cache[key]


def _binds_locally(function, name: str, parent: Callable) -> bool:
    args = function.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs,
              *(a for a in (args.vararg, args.kwarg) if a)]
    if any(p.arg == name for p in params):
        return True
    body = [function.body] if isinstance(function, ast.Lambda) else function.body
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id == name \
                    and not isinstance(node.ctx, ast.Load) \
                    and enclosing_scope(node, parent) is function:
                return True
    return False


def is_local_variable(node, name: str, parent: Callable, cache: dict) -> bool:
    """``name`` at ``node`` is a variable of an enclosing function (so not the built-in):
    comprehensions and class bodies on the way out are looked through (a binding there is not
    relied on), and the first function that binds ``name`` decides."""
    scope = enclosing_scope(node, parent)
    while scope is not None and not isinstance(scope, ast.Module):
        if isinstance(scope, _FUNCTION_SCOPES) and binds_locally(scope, name, parent, cache):
            return True
        scope = enclosing_scope(scope, parent)
    return False


def is_function_binding(node, parent: Callable) -> bool:
    """A store or ``del`` of a name (an ``ast.Name`` not loaded) made in a function's own
    namespace, or a function's parameter (an ``ast.arg``)."""
    if isinstance(node, ast.arg):
        return True
    return isinstance(enclosing_scope(node, parent), _FUNCTION_SCOPES)
