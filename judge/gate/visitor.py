"""The source gate's walk over a submission's syntax tree (``Gate``): the context every check
needs (parents, scopes, import aliases, ``self`` parameters, the private names the submission's
classes bind), and the checks of imports, names, bindings and annotations. Attribute checks are
in ``judge.gate.attributes``, call checks in ``judge.gate.calls``."""

from __future__ import annotations

import ast
import re
from collections import deque

from judge.gate import parsing, reasons, shadows
from judge.gate.attributes import AttributeChecks
from judge.gate.calls import CallChecks
from judge.gate.classes import ClassPatternChecks, bound_names
from judge.gate.findings import Finding
from judge.gate.imports import leads_to_allowed, module_verdict
from judge.gate.names import (CLASS_DUNDER_STORES, FORMATTING_FUNCTIONS, HARMLESS_DUNDER_STRINGS,
                              MODULE_DUNDER_STORES, NAME_ARGUMENT_BUILTINS,
                              NAME_ARGUMENT_FUNCTIONS, READABLE_DUNDER_NAMES, REFUSED_BUILTINS,
                              SENSITIVE_DUNDERS, is_dunder, is_reflective)

_SHAPE_WORD = re.compile(r"[*#?_~]*(\.\.\.|[A-Za-z_][A-Za-z0-9_]*|[0-9]+)")


def _shape_words(text: str) -> bool:
    """A string of two or more words, each a name, a number or ``...`` with the prefixes shape
    annotations use (``Float[Array, "*batch t d"]``, ``"#n ..."``), and no dunder: no
    call, attribute, subscript or operator between them, so no wrapping a library gives a
    forward reference (``(*x,)[0]``) makes it parse, and evaluating it can only fail."""
    words = text.split()
    return len(words) >= 2 and all(_SHAPE_WORD.fullmatch(w) and "__" not in w for w in words)


_SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Gate(AttributeChecks, CallChecks, ClassPatternChecks, ast.NodeVisitor):
    """One walk over a submission's tree, collecting ``findings``. ``run`` first notes every
    node's parent, the names imports bind, how often each name is bound, the class statements
    and the private names the submission's classes bind; the visit then checks imports, names,
    bindings and annotations here, attributes in ``AttributeChecks``, calls in ``CallChecks``
    and class patterns in ``ClassPatternChecks``."""

    def __init__(self, allowed: tuple[str, ...]):
        self.allowed = allowed
        self.findings: list[Finding] = []
        self.parents: dict[int, ast.AST] = {}
        self.aliases: dict[str, str] = {}          # local name -> dotted path, from imports
        self.name_functions: dict[str, str] = {}   # local name -> NAME_ARGUMENT_FUNCTIONS entry
        self.method_self: dict[int, str] = {}      # id(method) -> its self/cls parameter
        self.class_private: set[str] = set()       # private names the submission's classes bind
        self.handled: set[int] = set()             # nodes checked by their enclosing call
        self.name_literals: set[int] = set()       # string literals checked as attribute names
        self.inert: set[int] = set()               # docstrings and other unused constants
        self.annotations: set[int] = set()         # nodes inside annotations
        self.bindings: dict[str, int] = {}        # name -> how many places in the file bind it
        self.class_defs: dict[str, list] = {}      # name -> the class statements defining it
        self.string_constants: dict[str, str] = {}  # name -> the string literal it is bound to
        self.local_bindings: dict = {}             # (id(function), name) -> it binds name

    # -- set-up ---------------------------------------------------------------------------

    def run(self, tree: ast.Module) -> None:
        todo, parents, bindings = deque([tree]), self.parents, self.bindings
        while todo:  # one pass in ast.walk's order, each node once: linear in the source
            node = todo.popleft()
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
                todo.append(child)
            for name in bound_names(node):
                bindings[name] = bindings.get(name, 0) + 1
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                self.inert.add(id(node.value))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    self.string_constants[targets[0].id] = node.value.value
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.aliases[top] = top
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    local = alias.asname or alias.name
                    self.aliases[local] = f"{node.module}.{alias.name}"
                    if alias.name in NAME_ARGUMENT_FUNCTIONS:
                        self.name_functions[local] = alias.name
            elif isinstance(node, ast.ClassDef):
                self.class_defs.setdefault(node.name, []).append(node)
                self._scan_class(node)
        self.visit(tree)

    def _scan_class(self, cls: ast.ClassDef) -> None:
        for stmt in cls.body:
            targets = []
            if isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
                targets = [stmt.name]
            elif isinstance(stmt, ast.Assign):
                targets = [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                targets = [stmt.target.id]
            self.class_private.update(t for t in targets if t.startswith("_") and not is_dunder(t))
            if isinstance(stmt, _FUNCTIONS):
                first = self._self_parameter(stmt)
                if first is None:
                    continue
                self.method_self[id(stmt)] = first
                for node in ast.walk(stmt):
                    if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                            and isinstance(node.value, ast.Name) and node.value.id == first
                            and node.attr.startswith("_") and not is_dunder(node.attr)):
                        self.class_private.add(node.attr)

    @staticmethod
    def _self_parameter(method) -> str | None:
        """The method's first parameter, if it is a plain method or classmethod and nothing else
        in it binds that name."""
        for deco in method.decorator_list:
            name = deco.id if isinstance(deco, ast.Name) else getattr(deco, "attr", None)
            if name == "staticmethod":
                return None
        params = method.args.posonlyargs + method.args.args
        if not params:
            return None
        first = params[0]
        for node in ast.walk(method):
            if node is first:
                continue
            bound = None
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound = node.id
            elif isinstance(node, ast.arg):
                bound = node.arg
            elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)) and node is not method:
                bound = node.name
            elif isinstance(node, ast.ExceptHandler):
                bound = node.name
            elif isinstance(node, ast.alias):
                bound = node.asname or node.name.split(".")[0]
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)):
                bound = node.name
            elif isinstance(node, ast.MatchMapping):
                bound = node.rest
            elif isinstance(node, (ast.Global, ast.Nonlocal)) and first.arg in node.names:
                return None
            if bound == first.arg:
                return None
        return first.arg

    # -- helpers ----------------------------------------------------------------------------

    def refuse(self, node, construct: str, reason: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 1), getattr(node, "col_offset", 0),
                                     construct, reason))

    def parent(self, node):
        return self.parents.get(id(node))

    def is_self_reference(self, expr) -> bool:
        """``self`` (or ``type(self)``) in a method whose first parameter it is."""
        if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
                and expr.func.id == "type" and len(expr.args) == 1 and not expr.keywords):
            expr = expr.args[0]
        if not isinstance(expr, ast.Name):
            return False
        node = self.parent(expr)
        while node is not None:
            if self.method_self.get(id(node)) == expr.id:
                return True
            node = self.parent(node)
        return False

    def is_super_call(self, expr) -> bool:
        """``super()``, or ``super(Class, self)`` in a method."""
        return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
                and expr.func.id == "super" and not expr.keywords
                and (not expr.args
                     or (len(expr.args) == 2 and self.is_self_reference(expr.args[1]))))

    def import_path(self, expr) -> str | None:
        """The dotted path of an attribute chain rooted at an imported name."""
        if isinstance(expr, ast.Name):
            return self.aliases.get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.import_path(expr.value)
            return f"{base}.{expr.attr}" if base else None
        return None

    def rooted_at_import(self, expr) -> bool:
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        return isinstance(expr, ast.Name) and expr.id in self.aliases

    def _scope(self, node):
        node = self.parent(node)
        while node is not None and not isinstance(node, _SCOPES):
            node = self.parent(node)
        return node

    def _binding_name(self, node, name: str | None) -> None:
        """A name the submission binds (parameter, function, import alias, handler...)."""
        if name is None:
            return
        if name in REFUSED_BUILTINS and not self._own_variable(node, name):
            self.refuse(node, f"the name '{name}'", f"it is the built-in {name}(): "
                        f"{REFUSED_BUILTINS[name]}; rename your variable if it is your own")
        elif name in NAME_ARGUMENT_BUILTINS:
            self.refuse(node, f"the name '{name}'", f"it is the built-in {name}(); rename your "
                                                    f"variable if it is your own")

    # -- imports ----------------------------------------------------------------------------

    def _module_problem(self, path: str) -> str | None:
        verdict = module_verdict(path, self.allowed)
        if verdict == "ok":
            return None
        if verdict == "private":
            return "private modules are internals"
        if verdict == "denied":
            return reasons.DENIED
        return f"this problem allows imports from {', '.join(self.allowed) or 'no module'} only"

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            problem = self._module_problem(alias.name)
            if problem:
                self.refuse(node, f"import of '{alias.name}'", problem)
            self._binding_name(node, alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.refuse(node, f"the relative import 'from {'.' * node.level}{module}'",
                        "a submission is a single file")
            return
        if module == "__future__":
            return
        problem = None if leads_to_allowed(module, self.allowed) else self._module_problem(module)
        if problem:
            self.refuse(node, f"import from '{module}'", problem)
            return
        for alias in node.names:
            if alias.name == "*":
                self.refuse(node, f"'from {module} import *'",
                            "it hides which names are used, so the judge cannot check them")
                continue
            full = f"{module}.{alias.name}"
            if not leads_to_allowed(full, self.allowed):
                problem = self._module_problem(full)
                if problem:
                    self.refuse(node, f"'from {module} import {alias.name}'", problem)
                    continue
                self.check_attribute_name(node, alias.name, construct=f"'from {module} "
                                          f"import {alias.name}'", is_self=False)
            self._binding_name(node, alias.asname or alias.name)

    # -- names ----------------------------------------------------------------------------

    def _own_variable(self, node, name: str) -> bool:
        """A refused built-in's name that is a function's own variable here: a parameter, or
        a plain store, ``del`` or load of a name the function binds (``judge.gate.shadows``)."""
        if is_dunder(name) or not isinstance(node, (ast.arg, ast.Name)):
            return False
        if isinstance(node, ast.arg):
            return True
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) \
                and not shadows.is_function_binding(node, self.parent):
            return False
        return shadows.is_local_variable(node, name, self.parent, self.local_bindings)

    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        if name in REFUSED_BUILTINS and self._own_variable(node, name):
            pass
        elif name in REFUSED_BUILTINS:
            self.refuse(node, f"the name '{name}'", REFUSED_BUILTINS[name] + (
                "" if isinstance(node.ctx, ast.Load) else "; rename your variable"))
        elif name in NAME_ARGUMENT_BUILTINS and id(node) not in self.handled:
            self.refuse(node, f"'{name}' used other than as a direct call",
                        f"only {name}(obj, 'name'{', value' if name == 'setattr' else ''}) "
                        f"with a string literal is allowed, so the judge can check the name")
        elif name in self.name_functions and id(node) not in self.handled \
                and not self.is_decorator_use(node, self.name_functions[name]):
            self.refuse(node, f"'{name}' used other than as a checked call",
                        reasons.LITERAL_NAME)
        elif is_dunder(name):
            self._dunder_name(node)
        elif name in self.aliases and id(node) not in self.handled:
            path = self.aliases[name]
            self.check_factory_use(node, path.rsplit(".", 1)[-1])
            self.check_debug_use(node, path == "jax.debug",
                                 path if path in FORMATTING_FUNCTIONS else None)
        elif name == "type" and name not in self.aliases and id(node) not in self.handled \
                and id(node) not in self.annotations and not self._type_test(node):
            self.refuse(node, "the built-in 'type' used other than as type(obj)",
                        reasons.CLASS_FROM_DATA)

    def _type_test(self, node: ast.Name) -> bool:
        """``type`` as the class argument of ``isinstance``/``issubclass`` (alone or in a tuple),
        or subscripted (``type[int]``)."""
        parent = self.parent(node)
        if isinstance(parent, ast.Subscript) and parent.value is node:
            return True
        if isinstance(parent, ast.Tuple):
            node, parent = parent, self.parent(parent)
        return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name)
                and parent.func.id in ("isinstance", "issubclass") and len(parent.args) == 2
                and parent.args[1] is node)

    def _dunder_name(self, node: ast.Name) -> None:
        name, scope = node.id, self._scope(node)
        if isinstance(node.ctx, ast.Load):
            if name in READABLE_DUNDER_NAMES:
                return
            if isinstance(scope, ast.ClassDef) and name in self._class_body_names(scope):
                return
        elif isinstance(scope, ast.Module) and name in MODULE_DUNDER_STORES:
            return
        elif isinstance(scope, ast.ClassDef) and name in CLASS_DUNDER_STORES:
            return
        self.refuse(node, f"the name '{name}'", reasons.DUNDER_NAME)

    @staticmethod
    def _class_body_names(cls: ast.ClassDef) -> set[str]:
        names = set()
        for stmt in cls.body:
            if isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
                names.add(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        return names

    def visit_arg(self, node: ast.arg) -> None:
        self._binding_name(node, node.arg)
        if node.annotation is not None:
            self._annotation(node.annotation)

    def _function(self, node) -> None:
        self._binding_name(node, node.name)
        if isinstance(self.parent(node), ast.ClassDef) and node.name in SENSITIVE_DUNDERS:
            self.refuse(node, f"the method '{node.name}'", reasons.DUNDER_NAME)
        for deco in node.decorator_list:
            self.visit(deco)
        self.visit(node.args)
        if getattr(node, "returns", None) is not None:
            self._annotation(node.returns)
        for stmt in node.body:
            self.visit(stmt)

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._binding_name(node, node.name)
        for keyword in node.keywords:
            if keyword.arg in ("metaclass", None):
                self.refuse(keyword, "a metaclass" if keyword.arg else "unpacked class keywords",
                            "a metaclass decides what isinstance, class patterns and attribute "
                            "lookups on its classes do")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.visit(node.target)
        self._annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)

    def _annotation(self, node, depth: int = 0) -> None:
        """Annotations are code too, and so are the strings in them (``typing`` can evaluate
        them): each string must parse as an expression the gate allows."""
        self.annotations.update(id(n) for n in ast.walk(node))
        self.visit(node)
        data = set()  # Literal["..."] values and Annotated[...] metadata are data, not types
        for sub in ast.walk(node):
            if isinstance(sub, ast.Subscript):
                head = getattr(sub.value, "id", getattr(sub.value, "attr", None))
                if head == "Literal":
                    data.update(id(c) for c in ast.walk(sub.slice))
                elif head == "Annotated" and isinstance(sub.slice, ast.Tuple):
                    data.update(id(c) for e in sub.slice.elts[1:] for c in ast.walk(e))
        for const in ast.walk(node):
            if (isinstance(const, ast.Constant) and isinstance(const.value, str)
                    and id(const) not in data):
                try:
                    expr = parsing.parse(const.value.strip(), mode="eval").body
                except SyntaxError:
                    if const is not node and _shape_words(const.value):
                        continue  # a shape string inside a subscript: data no eval can run
                    self.refuse(const, f"the string annotation {const.value[:40]!r}",
                                "a string annotation must be a Python expression the judge can check")
                    continue
                if depth >= 3:
                    self.refuse(const, "a string annotation nested this deeply",
                                "the judge cannot check it")
                    continue
                for sub in ast.walk(expr):
                    if hasattr(sub, "lineno"):
                        sub.lineno, sub.col_offset = const.lineno, const.col_offset
                    for child in ast.iter_child_nodes(sub):
                        self.parents[id(child)] = sub
                self.parents[id(expr)] = self.parent(const)
                self._annotation(expr, depth + 1)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._binding_name(node, node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node) -> None:
        self._binding_name(node, node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node) -> None:
        self._binding_name(node, node.name)

    def visit_MatchMapping(self, node) -> None:
        self._binding_name(node, node.rest)
        self.generic_visit(node)

    def visit_Global(self, node) -> None:
        for name in node.names:
            self._binding_name(node, name)

    visit_Nonlocal = visit_Global

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if not isinstance(value, str) or id(node) in self.inert or id(node) in self.name_literals:
            return
        if (is_dunder(value) and value not in HARMLESS_DUNDER_STRINGS) or is_reflective(value):
            self.refuse(node, f"the string '{value}'", reasons.DUNDER_STRING)
