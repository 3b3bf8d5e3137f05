"""The source gate's checks of attribute access (``AttributeChecks``, a part of
``judge.gate.visitor.Gate``): dunder, private, frame and code attributes, attribute names that
are refused modules or members, denied parts of allowed packages, ``str.format`` fields, and
assignments to imported modules. ``check_attribute_name`` judges a name alone, for the checks
that see only a string."""

from __future__ import annotations

import ast
import string

from judge.gate import reasons
from judge.gate.imports import (DENIED_MODULE_ATTRIBUTES, READABLE_CONFIG_FLAGS, leads_to_allowed,
                               module_verdict)
from judge.gate.names import (CALLABLE_DUNDER_ATTRIBUTES, HARMLESS_DUNDER_ATTRIBUTES, MEMBER_NAMES, MODULE_NAMES,
                              NAME_ARGUMENT_FUNCTIONS, NAMED_TUPLE_FACTORIES, NAMEDTUPLE_API,
                              SUPER_DUNDERS, is_dunder, is_reflective)


class AttributeChecks:
    """Attribute checks of ``Gate``, which provides ``refuse``, ``parent``, ``import_path``,
    ``is_self_reference``, ``is_super_call``, ``rooted_at_import`` and the state they read."""

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.check_attribute(node)
        self.visit(node.value)

    def check_attribute(self, node: ast.Attribute, construct: str | None = None) -> None:
        attr = node.attr
        construct = construct or f"attribute access '{attr}'"
        value = node.value
        if is_dunder(attr):
            if attr in HARMLESS_DUNDER_ATTRIBUTES:
                pass
            elif attr in SUPER_DUNDERS and self.is_super_call(value):
                return
            elif attr in CALLABLE_DUNDER_ATTRIBUTES and isinstance(node.ctx, ast.Load) \
                    and not _is_type_call(value):
                pass
            else:
                self.refuse(node, construct, reasons.DUNDER)
                return
        path = self.import_path(value)
        full = f"{path}.{attr}" if path else None
        explicit = full is not None and (
            full in self.allowed
            or (leads_to_allowed(full, self.allowed) and isinstance(self.parent(node), ast.Attribute)
                and self.parent(node).value is node))
        if full is not None and not explicit and module_verdict(full, self.allowed) == "denied":
            if full == "jax.config" and self._config_flag_read(node):
                return
            if module_verdict(path, self.allowed) != "denied" or leads_to_allowed(path, self.allowed):
                # reported once, where the denied part starts
                self.refuse(node, f"'{full}'", reasons.DENIED)
            return
        if not explicit and not is_dunder(attr):
            if not (attr.startswith("_") and attr in self.own_class_body_names(value)) \
                    and not self.check_attribute_name(node, attr, construct,
                                                      self.is_self_reference(value)):
                return
            call = self.parent(node)
            if attr == "extend" and not (isinstance(call, ast.Call) and call.func is node):
                self.refuse(node, f"{construct} other than as a call (list.extend(...))",
                            reasons.DENIED)
                return
        if attr in ("format", "format_map") and isinstance(node.ctx, ast.Load):
            self._check_format(node)
        self.check_factory_use(node, attr)
        if isinstance(node.ctx, ast.Load) and id(node) not in self.handled:
            self.check_debug_use(node, attr == "debug" or full == "jax.debug",
                                 self.formatting_function(node))
        if attr in NAME_ARGUMENT_FUNCTIONS and id(node) not in self.handled \
                and not self.is_decorator_use(node, attr):
            self.refuse(node, f"'{attr}' used other than as a checked call", reasons.LITERAL_NAME)
        if not isinstance(node.ctx, ast.Load) and self.rooted_at_import(value):
            self.refuse(node, f"{'deleting' if isinstance(node.ctx, ast.Del) else 'assigning'} "
                              f"'{ast.unparse(node)}'", reasons.STORE_MODULE)

    def _config_flag_read(self, node: ast.Attribute) -> bool:
        """``jax.config`` read only as ``jax.config.<flag>``, a flag of
        ``READABLE_CONFIG_FLAGS`` loaded (not assigned, deleted or called)."""
        flag = self.parent(node)
        return (isinstance(node.ctx, ast.Load) and isinstance(flag, ast.Attribute)
                and flag.value is node and flag.attr in READABLE_CONFIG_FLAGS
                and isinstance(flag.ctx, ast.Load)
                and not (isinstance(self.parent(flag), ast.Call) and self.parent(flag).func is flag))

    def check_attribute_name(self, node, attr: str, construct: str, is_self: bool) -> bool:
        """Refuse ``attr`` by its name alone (unknown object); True when it passes."""
        if is_dunder(attr):
            if attr in HARMLESS_DUNDER_ATTRIBUTES:
                return True
            self.refuse(node, construct, reasons.DUNDER)
        elif attr.startswith("_"):
            if (is_self and attr in self.class_private) or attr in NAMEDTUPLE_API:
                return True
            self.refuse(node, construct, reasons.PRIVATE_SELF if is_self else reasons.PRIVATE)
        elif is_reflective(attr):
            self.refuse(node, construct, reasons.REFLECTIVE)
        elif attr in MODULE_NAMES:
            self.refuse(node, construct, reasons.MODULE_NAME)
        elif attr in DENIED_MODULE_ATTRIBUTES:
            self.refuse(node, construct, reasons.DENIED)
        elif attr in MEMBER_NAMES:
            self.refuse(node, construct, MEMBER_NAMES[attr])
        else:
            return True
        return False

    def check_factory_use(self, node, name: str) -> None:
        """A named-tuple factory is called (its field names checked) or is a class's base: held
        in a variable, it could be called with computed field names where no check sees it."""
        parent = self.parent(node)
        if name in NAMED_TUPLE_FACTORIES and id(node) not in self.handled \
                and id(node) not in self.annotations \
                and not (isinstance(parent, ast.ClassDef) and node in parent.bases):
            self.refuse(node, f"'{name}' used other than as a call or a class's base",
                        "its field names become attribute names, so the judge checks them where "
                        "it is called")

    def check_debug_use(self, node, is_debug: bool, formatting: str | None) -> None:
        """``jax.debug`` only as ``jax.debug.<function>``, and its formatting functions only
        called (``CallChecks`` checks their template): passed around, they would format a
        template the gate never sees."""
        parent = self.parent(node)
        if is_debug and not (isinstance(parent, ast.Attribute) and parent.value is node):
            self.refuse(node, f"'{ast.unparse(node)[:40]}' other than as jax.debug.<function>",
                        "jax.debug.print formats a template with the attributes its fields "
                        "name, so the judge checks it where it is called")
        elif formatting is not None:
            self.refuse(node, f"'{formatting}' used other than as a call",
                        reasons.FORMAT_LITERAL)

    def is_decorator_use(self, node, function: str) -> bool:
        """``@jax.tree_util.register_dataclass`` (fields inferred from a dataclass) is safe."""
        parent = self.parent(node)
        return (function == "register_dataclass" and parent is not None
                and node in getattr(parent, "decorator_list", ()))

    def _check_format(self, node: ast.Attribute) -> None:
        value, call = node.value, self.parent(node)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            self._format_fields(node, value.value)
            return
        if isinstance(value, ast.Name) and self.bindings.get(value.id) == 1 \
                and value.id in self.string_constants:  # TEMPLATE = "..." bound nowhere else
            self._format_fields(node, self.string_constants[value.id])
            return
        if (isinstance(value, ast.Name) and value.id == "str" and isinstance(call, ast.Call)
                and call.func is node and call.args and isinstance(call.args[0], ast.Constant)
                and isinstance(call.args[0].value, str)):
            self._format_fields(node, call.args[0].value)
            return
        self.refuse(node, f"'.{node.attr}' on a string that is not a literal",
                    reasons.FORMAT_LITERAL)

    def _format_fields(self, node, text: str, depth: int = 0) -> None:
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError:
            self.refuse(node, f"the format string {text[:40]!r}", "it is malformed")
            return
        for _, field, spec, _ in parsed:
            if field is not None and ("." in field or "[" in field):
                self.refuse(node, f"the format field '{{{field}}}'", reasons.FORMAT_FIELD)
            if spec and "{" in spec and depth < 3:
                self._format_fields(node, spec, depth + 1)


def _is_type_call(expr) -> bool:
    """``type(...)``: the class of an object, which for a class is its metaclass."""
    return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
            and expr.func.id == "type")
