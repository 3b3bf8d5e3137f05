"""Where a refused built-in's name (``input``, ``open``, ``vars``...) is a function's own local
variable: a parameter (``def cross_entropy(input, target)``, ported from PyTorch) or a name the
function assigns. Python resolves a name to the built-in only where no enclosing function
binds it, so a name that a function binds is that function's variable everywhere in its body,
nested functions, lambdas, comprehensions and class bodies included (before an assignment it is
unbound, never the built-in). A comprehension is a scope of its own too: a name its ``for``
targets bind (``sum(f(input) for input in leaves)``) is its variable everywhere in it but its
first iterable, which Python evaluates outside it (``[input for input in input()]`` calls the
built-in there). The readings here are conservative: a binding counts only as a parameter, a
plain assignment (``=``, ``for``, ``with ... as``, ``del``) made in the function itself, or a
comprehension's ``for`` target; one made in a class body or at module level, by ``global`` or
``nonlocal``, an import, a ``def``, an ``except ... as`` or a ``:=`` does not, and stays
refused."""

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


def _target_binds(comprehension, name: str) -> bool:
    """One of ``comprehension``'s ``for`` targets stores ``name``."""
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for gen in comprehension.generators for n in ast.walk(gen.target))


def _in_first_iterable(comprehension, node) -> bool:
    """``node`` lies in ``comprehension``'s first iterable, evaluated outside it."""
    return any(n is node for n in ast.walk(comprehension.generators[0].iter))


def is_local_variable(node, name: str, parent: Callable, cache: dict) -> bool:
    """``name`` at ``node`` is a variable of an enclosing function or comprehension (so not the
    built-in): class bodies on the way out are looked through (a binding there is not relied
    on), and the first function or comprehension that binds ``name`` (a comprehension's ``for``
    target, where ``node`` is not in its first iterable) decides."""
    scope = enclosing_scope(node, parent)
    while scope is not None and not isinstance(scope, ast.Module):
        if isinstance(scope, _FUNCTION_SCOPES) and binds_locally(scope, name, parent, cache):
            return True
        if isinstance(scope, _COMPREHENSIONS) and _target_binds(scope, name) \
                and not _in_first_iterable(scope, node):
            return True
        scope = enclosing_scope(scope, parent)
    return False


def is_function_binding(node, parent: Callable) -> bool:
    """A store or ``del`` of a name (an ``ast.Name`` not loaded) made in a function's own
    namespace or as a comprehension's ``for`` target, or a function's parameter (an
    ``ast.arg``)."""
    if isinstance(node, ast.arg):
        return True
    scope = enclosing_scope(node, parent)
    if isinstance(scope, _COMPREHENSIONS):
        return any(n is node for gen in scope.generators for n in ast.walk(gen.target))
    return isinstance(scope, _FUNCTION_SCOPES)
