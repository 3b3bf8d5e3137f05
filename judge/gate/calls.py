"""The source gate's checks of calls (``CallChecks``, a part of ``judge.gate.visitor.Gate``):
``getattr`` and the other functions that take attribute names as strings (allowed only with
literal names the attribute checks accept), and arrays built over a raw buffer."""

from __future__ import annotations

import ast

from judge.gate import reasons
from judge.gate.names import (CALLABLE_DUNDER_ATTRIBUTES, ENUM_FACTORIES, FORMATTING_FUNCTIONS, NAME_ARGUMENT_BUILTINS,
                              NAME_ARGUMENT_FUNCTIONS, NAMED_TUPLE_FACTORIES)


class CallChecks:
    """Call checks of ``Gate``, which provides ``refuse``, ``parent``, ``check_attribute``,
    ``check_attribute_name`` and the state they read."""

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in CALLABLE_DUNDER_ATTRIBUTES \
                and isinstance(func.ctx, ast.Load):
            self._dunder_call(node, func)
            return
        if isinstance(func, ast.Name) and func.id in NAME_ARGUMENT_BUILTINS \
                and func.id not in self.aliases:
            self.handled.add(id(func))
            self._name_argument_builtin(node, func.id)
            return
        function = (func.attr if isinstance(func, ast.Attribute) else
                    self.name_functions.get(func.id) if isinstance(func, ast.Name) else None)
        if function in NAME_ARGUMENT_FUNCTIONS:
            self.handled.add(id(func))
            self._name_argument_function(node, function)
        self._partial_register_dataclass(node)
        self._raw_memory_array(node)
        self._class_from_data(node)
        self._named_tuple_fields(node)
        if self.formatting_function(func) is not None:
            self.handled.add(id(func))
            self._template(node)
        self.generic_visit(node)

    def _dunder_call(self, node: ast.Call, func: ast.Attribute) -> None:
        """``X.__call__(...)`` does what ``X(...)`` does, so it is checked as that call (the
        checks that know a callee by its name: ``type``, ``namedtuple``, ``Enum``, ``ndarray``,
        ``getattr``, ``jax.debug.print``, ...), and the attribute as an attribute."""
        call = ast.copy_location(ast.Call(func=func.value, args=node.args,
                                          keywords=node.keywords), node)
        self.parents[id(call)] = self.parent(node)
        self.parents[id(func.value)] = call
        self.check_attribute(func)
        self.visit_Call(call)

    def formatting_function(self, expr) -> str | None:
        """``jax.debug.print`` or ``jax.debug.log`` however it is imported, or an attribute
        ``print``/``log`` of an attribute ``debug`` (``d.debug.print``), else None."""
        path = self.import_path(expr)
        if path in FORMATTING_FUNCTIONS:
            return path
        if isinstance(expr, ast.Attribute) and expr.attr in ("print", "log") and (
                getattr(expr.value, "attr", None) == "debug"
                or self.import_path(expr.value) == "jax.debug"):
            return f"jax.debug.{expr.attr}"
        return None

    def _template(self, node: ast.Call) -> None:
        """The template of ``jax.debug.print(fmt, *args)`` is formatted with ``str.format``: it
        must be a literal whose fields read no attribute or item."""
        fmt = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg == "fmt"), None)
        if node.args and isinstance(fmt, ast.Starred) or any(k.arg is None for k in node.keywords):
            fmt = node  # not a literal: refused below
        if fmt is None:
            return
        if isinstance(fmt, ast.Constant) and isinstance(fmt.value, str):
            self._format_fields(fmt, fmt.value)
        else:
            self.refuse(node, f"{ast.unparse(node.func)[:40]}() with a template that is not a "
                              f"literal", reasons.FORMAT_LITERAL)

    def _named_tuple_fields(self, node: ast.Call) -> None:
        """``namedtuple(name, fields)`` and ``NamedTuple(name, [(field, type), ...])`` make
        attribute names (and ``__match_args__``) of their field names: literals only, each
        checked like an attribute."""
        func = node.func
        callee = getattr(func, "attr", getattr(func, "id", None))
        if callee not in NAMED_TUPLE_FACTORIES:
            return
        self.handled.add(id(func))
        if len(node.args) < 2 and not node.keywords:
            return
        fields = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg in ("field_names", "fields")), None)
        names = []
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            names = None
        elif callee == "NamedTuple" and fields is None:  # NamedTuple("P", x=float)
            names = [k.arg for k in node.keywords]
        elif isinstance(fields, ast.Constant) and isinstance(fields.value, str):
            names = fields.value.replace(",", " ").split()
        elif isinstance(fields, (ast.List, ast.Tuple)):
            for item in fields.elts:
                if callee == "NamedTuple" and isinstance(item, ast.Tuple) and item.elts:
                    item = item.elts[0]
                if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
                    names = None
                    break
                names.append(item.value)
        elif fields is not None:
            names = None
        if names is None:
            self.refuse(node, f"{callee}() with computed field names", reasons.CLASS_FROM_DATA)
            return
        for name in names:
            self.check_attribute_name(node, name, f"the field name {name!r} of {callee}()",
                                      is_self=False)

    def _class_from_data(self, node: ast.Call) -> None:
        """``type(name, bases, namespace)`` and the enum functional API (``Enum("E", names)``)
        make classes whose attribute names are data: a dunder key built at run time would define
        ``__array_interface__`` or ``__instancecheck__`` where no check sees it."""
        func = node.func
        if isinstance(func, ast.Name) and func.id == "type" and func.id not in self.aliases:
            self.handled.add(id(func))
            if len(node.args) != 1 or node.keywords:
                self.refuse(node, "type() with three arguments", reasons.CLASS_FROM_DATA)
            return
        callee = getattr(func, "attr", getattr(func, "id", None))
        if callee in ENUM_FACTORIES and (len(node.args) > 1 or node.keywords
                                         or any(isinstance(a, ast.Starred) for a in node.args)):
            self.refuse(node, f"the functional form {callee}(name, members)",
                        reasons.CLASS_FROM_DATA + "; write a class statement instead")

    def _raw_memory_array(self, node: ast.Call) -> None:
        """``np.ndarray(shape, dtype, buffer)`` (and ``type(arr)(...)``, ``np.recarray``) builds
        an array over raw bytes, and with an object dtype those bytes become object references:
        an address turned into any object. Refused in the spellings a static check can see."""
        func = node.func
        callee = getattr(func, "attr", getattr(func, "id", None))
        constructor = callee in ("ndarray", "recarray") or (
            isinstance(func, ast.Call) and getattr(func.func, "id", None) == "type")
        keywords = {k.arg for k in node.keywords}
        if keywords & {"buffer", "buf"} or (constructor and (
                len(node.args) >= 3 or None in keywords
                or any(isinstance(a, ast.Starred) for a in node.args))):
            self.refuse(node, "an array built over a buffer",
                        "with an object dtype its raw bytes become references to any object")

    def _name_argument_builtin(self, node: ast.Call, name: str) -> None:
        args = node.args
        literal = (len(args) >= 2 and not node.keywords
                   and not any(isinstance(a, ast.Starred) for a in args[:2])
                   and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str))
        if not literal:
            self.refuse(node, f"{name}() with a computed attribute name", reasons.LITERAL_NAME)
        else:
            self.name_literals.add(id(args[1]))
            synthetic = ast.Attribute(value=args[0], attr=args[1].value,
                                      ctx=NAME_ARGUMENT_BUILTINS[name]())
            ast.copy_location(synthetic, node)
            self.parents[id(synthetic)] = self.parent(node)
            self.check_attribute(synthetic, f"{name}(..., {args[1].value!r})")
        for arg in args:
            self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword)

    def _literal_names(self, node, values, function: str) -> None:
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                self.name_literals.add(id(value))
                for part in value.value.split(".") if function == "attrgetter" else [value.value]:
                    self.check_attribute_name(value, part, f"{function}({value.value!r})",
                                              is_self=False)
            else:
                self.refuse(value, f"{function}() with a computed attribute name",
                            reasons.LITERAL_NAME)

    def _partial_register_dataclass(self, node: ast.Call) -> None:
        """``@functools.partial(jax.tree_util.register_dataclass, data_fields=[...],
        meta_fields=[...])`` on a class, JAX's documented form: checked as the direct call is
        (literal field names), and only as a class decorator with the fields as keywords, so
        that nothing can call the partial again with other names."""
        func = node.func
        if not node.args or self.import_path(func) != "functools.partial":
            return
        target = node.args[0]
        function = (target.attr if isinstance(target, ast.Attribute) else
                    self.name_functions.get(target.id) if isinstance(target, ast.Name) else None)
        if function != "register_dataclass":
            return
        parent = self.parent(node)
        if not (isinstance(parent, ast.ClassDef) and node in parent.decorator_list):
            return  # left to the check of the name itself: refused
        self.handled.add(id(target))
        if len(node.args) > 1:
            self.refuse(node, "functools.partial(register_dataclass, ...) with positional "
                              "arguments", reasons.LITERAL_NAME)
        call = ast.copy_location(ast.Call(func=target, args=[target], keywords=node.keywords), node)
        self._name_argument_function(call, function)

    def _name_argument_function(self, node: ast.Call, function: str) -> None:
        args, keywords = node.args, node.keywords
        if function == "attrgetter":
            self._literal_names(node, args, function)
            if keywords or not args:
                self.refuse(node, "attrgetter() without literal names", reasons.LITERAL_NAME)
        elif function == "methodcaller":
            self._literal_names(node, args[:1], function)
            if not args:
                self.refuse(node, "methodcaller() without a literal name", reasons.LITERAL_NAME)
            elif getattr(args[0], "value", None) in ("format", "format_map"):
                self.refuse(node, f"methodcaller({args[0].value!r})", reasons.FORMAT_LITERAL)
        elif function in ("wraps", "update_wrapper"):
            positional = 1 if function == "wraps" else 2
            if len(args) > positional or any(k.arg in ("assigned", "updated", None) for k in keywords):
                self.refuse(node, f"{function}() with assigned or updated attribute names",
                            "the judge allows only the default attribute lists")
        elif function == "register_dataclass":
            fields = list(args[1:]) + [k.value for k in keywords
                                       if k.arg in ("data_fields", "meta_fields", "drop_fields")]
            if any(k.arg is None for k in keywords) or any(isinstance(a, ast.Starred) for a in args):
                self.refuse(node, "register_dataclass() with unpacked arguments",
                            reasons.LITERAL_NAME)
            for value in fields:
                if isinstance(value, (ast.List, ast.Tuple)):
                    self._literal_names(node, value.elts, function)
                elif not (isinstance(value, ast.Constant) and value.value is None):
                    self.refuse(value, "register_dataclass() with computed field names",
                                reasons.LITERAL_NAME)
