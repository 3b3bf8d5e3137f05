"""The source gate's checks of class patterns (``ClassPatternChecks``, a part of
``judge.gate.visitor.Gate``), and ``bound_names``, the names a node binds.

A class pattern with positional sub-patterns (``case View(a, b)``) reads the attributes whose
names the class's ``__match_args__`` holds: a tuple of strings that is data at run time. A named
tuple made with computed field names, or a class that inherits from one, turns the pattern into
``getattr`` with a computed name, and an ABC's ``register()`` makes ``isinstance`` true for any
type (a generator, a frame). So a positional sub-pattern is allowed only where the gate knows,
from the source alone, every attribute it can read (an allowlist; anything else is refused):

* a built-in type that matches the subject itself (``case int(n)``), when nothing in the file
  binds that name;
* a class the file defines once (one ``class`` statement, and no other binding of its name),
  with no keywords, at most one base and only decorators that give the class back: a dataclass
  reads its annotated fields, a ``typing.NamedTuple`` subclass its annotated names, and a base
  that is such a class of the file's own passes its names on. Every name is checked like a
  literal attribute.

Keyword sub-patterns (``case P(x=a)``) name their attributes in the source and are checked by
name wherever the class comes from.
"""

from __future__ import annotations

import ast

from judge.gate.names import CLASS_DECORATORS, SELF_MATCHING_TYPES

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

POSITIONAL = ("positional sub-patterns read the attributes the class's __match_args__ names, which "
              "the judge can check only for built-in types such as int(n) that the file does not "
              "rebind, and for the file's own dataclasses and NamedTuples (one class statement, "
              "no other base or decorator); name the attributes instead: case Point(x=a, y=b)")


def bound_names(node) -> list[str]:
    """The names ``node`` itself binds (an assignment target, a parameter, a definition, an
    import, an exception or pattern capture)."""
    if isinstance(node, ast.Name):
        return [] if isinstance(node.ctx, ast.Load) else [node.id]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, _DEFINITIONS):
        return [node.name]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.split(".")[0]]
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    return []


class ClassPatternChecks:
    """Class-pattern checks of ``Gate``, which provides ``refuse``, ``aliases``, ``bindings``
    (name -> how many places bind it), ``class_defs`` (name -> its class statements) and
    ``check_attribute_name``."""

    def visit_MatchClass(self, node) -> None:
        if node.patterns:
            names = self.match_args(node.cls)
            shown = ast.unparse(node.cls)[:40]
            if names is None:
                self.refuse(node, f"a class pattern with positional sub-patterns on '{shown}'",
                            POSITIONAL)
            else:
                for name in names[:len(node.patterns)]:
                    self.check_attribute_name(
                        node, name, f"the attribute '{name}' a class pattern on '{shown}' reads",
                        is_self=True)
        for attr in node.kwd_attrs:  # read from the subject with getattr
            self.check_attribute_name(node, attr,
                                      construct=f"the class pattern attribute '{attr}'",
                                      is_self=False)
        self.generic_visit(node)

    def match_args(self, cls) -> tuple[str, ...] | None:
        """The attribute names a positional class pattern on ``cls`` may read (empty for a
        built-in that matches the subject itself), or None when the source does not say."""
        if not isinstance(cls, ast.Name):
            return None
        if cls.id in SELF_MATCHING_TYPES:
            return () if not self.bindings.get(cls.id) else None
        return self._class_fields(cls.id, frozenset())

    def _class_fields(self, name: str, seen: frozenset) -> tuple[str, ...] | None:
        defs = self.class_defs.get(name, ())
        if len(defs) != 1 or self.bindings.get(name) != 1 or name in seen:
            return None
        cls = defs[0]
        if cls.keywords or len(cls.bases) > 1:
            return None
        dataclass = False
        for deco in cls.decorator_list:
            kind = self._class_decorator(deco)
            if kind is None:
                return None
            dataclass = dataclass or kind == "dataclass"
        own = tuple(stmt.target.id for stmt in cls.body
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name))
        inherited: tuple[str, ...] = ()
        if cls.bases:
            base = cls.bases[0]
            if self.resolved(base) == "typing.NamedTuple":
                return None if dataclass else own
            plain = isinstance(base, ast.Name) and base.id == "object"
            if plain and not self.bindings.get("object"):
                inherited = ()
            elif isinstance(base, ast.Name) and not plain:
                found = self._class_fields(base.id, seen | {name})
                if found is None:
                    return None
                inherited = found
            else:
                return None
        return inherited + own if dataclass else inherited

    def _class_decorator(self, deco) -> str | None:
        """"dataclass", "same" (a decorator that gives the class back unchanged in its
        attributes) or None (unknown: it may return another class)."""
        call = deco if isinstance(deco, ast.Call) else None
        kind = CLASS_DECORATORS.get(self.resolved(call.func if call else deco))
        if kind is None or (call is not None and kind != "dataclass"):
            return None
        if call is not None:
            if call.args:
                return None
            for keyword in call.keywords:
                if keyword.arg is None or not isinstance(keyword.value, ast.Constant):
                    return None
                if keyword.arg == "match_args" and keyword.value.value is not True:
                    return None
        return kind

    def own_class_body_names(self, expr) -> frozenset[str]:
        """The names the body of a class of the file's own defines (``def``, ``class`` and
        assignment targets), where ``expr`` is that class's name: one ``class`` statement at the
        module's top level (a builtin of the name is never what it reads), no
        other binding of the name, no base and no keyword (its metaclass is ``type``, whose own
        attributes are all dunders), only decorators that give the class back. Such a name,
        looked up on the class, is the file's own attribute: ``Layer._fwd`` reads what
        ``def _fwd`` in ``class Layer`` bound. Empty for anything else."""
        if not isinstance(expr, ast.Name):
            return frozenset()
        defs = self.class_defs.get(expr.id, ())
        if len(defs) != 1 or self.bindings.get(expr.id) != 1:
            return frozenset()
        cls = defs[0]
        if not isinstance(self.parent(cls), ast.Module) or cls.bases or cls.keywords \
                or any(self._class_decorator(deco) is None for deco in cls.decorator_list):
            return frozenset()
        names = set()
        for stmt in cls.body:
            if isinstance(stmt, _DEFINITIONS):
                names.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                names.update(n.id for t in stmt.targets for n in ast.walk(t)
                             if isinstance(n, ast.Name))
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) \
                    and stmt.value is not None:
                names.add(stmt.target.id)
        return frozenset(names)

    def resolved(self, expr) -> str | None:
        """The dotted import path ``expr`` names, when its root is an imported name that nothing
        else in the file binds."""
        root = expr
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or self.bindings.get(root.id) != 1:
            return None
        return self.import_path(expr)
