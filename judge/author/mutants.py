"""Mutants of a reference solution: one small, plausible mistake at a time.

``generate(source)`` parses the reference with ``ast`` and returns one ``Mutant`` per mutation
site and variant: a standalone source file (``ast.unparse`` of the mutated tree). The judge never
imports or runs them here; ``judge.author.mutants_run`` grades them like any submission, in the sandbox.

Operators (the ``kind`` of a mutant):

- ``compare``: ``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=`` (a mask strict at one end)
- ``arith``: ``+`` <-> ``-``, ``*`` <-> ``/``, ``//`` -> ``/``, ``**`` -> ``*``; unary minus removed
- ``const``: a number 0 -> 1, 1 -> 0, any other n -> n + 1 and n - 1
- ``round``: ``round``/``rint``/``floor``/``ceil``/``trunc`` (as ``mod.name(...)``) -> each other;
  ``round(e)``/``rint(e)`` (ties to even) -> other tie rules that agree with it but at ties:
  ``floor(e + 0.5)`` (``halfup``), ``ceil(e - 0.5)`` (``halfdown``), ``trunc(e + 0.5)``
  (``trunchalf``, a C cast after adding a half: also wrong below -0.5),
  ``sign(e) * floor(abs(e) + 0.5)`` (``halfaway``, C's and Python 2's ``round``); a ratio
  ``a / b`` outside any rounding call -> ``round(a / b)`` (``insert``: for example a mask
  computed from the rounded value)
- ``bound``: a name used as a ``clip`` bound or compared against -> ``name + 1`` and ``name - 1``
  (an off-by-one range such as ``2**bits`` for ``2**bits - 1``)
- ``dtype``: ``a * b`` / ``a / b`` of two non-constants computed in float16 and cast back
  (``f16``: ``asarray(e, 'float16').astype(result_type(e))``); ``round(e)`` ->
  ``round(e).astype('int8')`` (``int8``: integer codes in int8, which saturate at 127);
  ``a.astype(t)`` -> ``a`` (``nocast``)
- ``scale``: a factor or divisor forgotten: ``s * e`` -> ``e`` for a name ``s`` times an expression
  (not a mask, see ``mask``), ``a / b`` -> ``a``
- ``where``: ``where(c, a, b)`` / ``select(c, a, b)`` -> branches swapped
- ``clip``: ``clip(a, lo, hi)`` -> ``a``; ``clip(a, lo, hi)`` -> ``clip(a, hi, lo)`` (``swap``)
- ``mask``: ``p & q`` -> ``p``, -> ``q`` and -> ``p | q``; ``a * m.astype(t)`` -> ``a``
- ``stop_gradient``: ``stop_gradient(a)`` -> ``a``; a returned value ``v`` -> ``stop_gradient(v)``
- ``bwd``: a backward rule (a function named ``*bwd*``/``*backward*`` with two or more arguments,
  or whose last argument is ``g``) returns its cotangent unchanged: ``return (g,)``
- autodiff and batching (``judge.author.mutants_ad_sites``): ``mode``, ``argnums``, ``seed``,
  ``primal``, ``term``, ``transpose``, ``unroll``, ``materialize``, ``custom_rule``. A mutant of
  these kinds that is the same file as another mutant is left out.

There is deliberately no ``a / b`` -> ``a * (1 / b)`` operator: XLA on the CPU already divides
an array of two or more entries by multiplying with the reciprocal (a single entry is divided
exactly), so such a mutant would measure the backend, not the cases.

A mutant's id names its kind, where it is and the variant, e.g. ``compare-L17C19-gt``: the same
reference always gives the same ids, so ``submissions/<id>/mutants.yaml`` can name them.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from judge.author import mutant_ids, mutants_ad_rewrite, mutants_ad_sites
from judge.gate import parsing
from judge.author.mutants_ad_rewrite import expr as _expr

COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
           ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
ARITH = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Div], ast.Div: [ast.Mult],
         ast.FloorDiv: [ast.Div], ast.Pow: [ast.Mult]}
OP_NAMES = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq",
            ast.NotEq: "ne", ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div",
            ast.FloorDiv: "floordiv", ast.Pow: "pow"}
ROUNDING = ("round", "floor", "ceil", "trunc")
ROUNDING_SOURCES = ROUNDING + ("rint",)
TIES_TO_EVEN = ("round", "rint")
# other tie rules for a ties-to-even rounding: (variant, template over the module `m` and `e`)
TIE_RULES = (("halfup", "m.floor(e + 0.5)"), ("halfdown", "m.ceil(e - 0.5)"),
             ("trunchalf", "m.trunc(e + 0.5)"), ("halfaway", "m.sign(e) * m.floor(m.abs(e) + 0.5)"))
BWD_NAMES = ("bwd", "backward")
BWD_LAST_ARGS = ("g",)
KIND_WORDS = {"compare": "comparison", "arith": "arithmetic", "const": "constant",
              "round": "rounding", "bound": "bound off by one", "dtype": "dtype",
              "scale": "factor dropped", "where": "branches swapped", "clip": "clip removed",
              "mask": "mask removed", "stop_gradient": "stop_gradient",
              "bwd": "backward rule returns its cotangent", **mutants_ad_sites.KIND_WORDS}
# words for a variant whose kind's words do not fit
VARIANT_WORDS = {("round", "halfup"): "ties rounded up", ("round", "halfdown"): "ties rounded down",
                 ("round", "trunchalf"): "x + 0.5 truncated",
                 ("round", "halfaway"): "ties rounded away from zero",
                 ("round", "insert"): "rounded where the reference does not round",
                 ("dtype", "f16"): "computed in float16, cast back",
                 ("dtype", "int8"): "codes cast to int8",
                 ("dtype", "nocast"): "cast dropped", ("clip", "swap"): "clip bounds swapped",
                 ("mask", "or"): "mask | instead of &", **mutants_ad_sites.VARIANT_WORDS}
MODULE_ALIAS = "_mutant_jnp"    # `import jax.numpy as _mutant_jnp`, added when a mutant needs it
LAX_ALIAS = "_mutant_lax"


@dataclass(frozen=True)
class Mutant:
    #: stable across edits elsewhere in the file: kind, enclosing function, a digest of the
    #: statement and the expression mutated, variant (``compare-quantize-3fa2c1-gt``)
    id: str
    kind: str
    line: int
    col: int
    description: str   # the mutation in words: "line 17: `r >= qmin` -> `r > qmin` (comparison)"
    source: str        # the whole mutated file
    variant: str = ""

    @property
    def position(self) -> str:
        """Where the mutant is, as ids were once written (``compare-L17C18-gt``): what the id
        of an old ``mutants.yaml`` names."""
        return f"{self.kind}-L{self.line}C{self.col}-{self.variant}"


@dataclass(frozen=True)
class _Site:
    position: int      # the node's position in ast.walk order
    kind: str
    variant: str
    line: int
    col: int


_attr = mutants_ad_sites.called  # ``f`` for a call of ``something.f(...)`` or ``f(...)``


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


def _call_name(node) -> str | None:
    """``f`` for a call ``mod.f(...)`` (a module's or an object's method)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _is_mask_cast(node) -> bool:
    return _attr(node) == "astype"


def _context(tree: ast.AST) -> tuple[set[int], set[int]]:
    """(ids of the names used as a ``clip`` bound or compared against, ids of every node inside a
    rounding call's arguments)."""
    bounds, rounded = set(), set()
    for node in ast.walk(tree):
        if _call_name(node) == "clip" and len(node.args) == 3:
            bounds.update(id(a) for a in node.args[1:] if isinstance(a, ast.Name))
        elif isinstance(node, ast.Compare):
            bounds.update(id(a) for a in node.comparators if isinstance(a, ast.Name))
        elif _call_name(node) in ROUNDING_SOURCES:
            for arg in node.args:
                rounded.update(id(n) for n in ast.walk(arg))
    return bounds, rounded


def _sites(tree: ast.AST) -> list[_Site]:
    sites = []
    returns_in_bwd = _rule_returns(tree)
    bounds, rounded = _context(tree)
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
                add("mask", "or")
            if isinstance(node.op, ast.Mult):
                if _is_mask_cast(node.right):
                    add("mask", "left")
                if _is_mask_cast(node.left):
                    add("mask", "right")
            if isinstance(node.op, ast.Div) and not _is_number(node.left) and id(node) not in rounded:
                add("round", "insert")
            if isinstance(node.op, (ast.Mult, ast.Div)) and not _is_number(node.left) \
                    and not _is_number(node.right):
                add("dtype", "f16")
            if _dropped_factor(node) is not None:
                add("scale", "drop")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            if not _is_number(node.operand):
                add("arith", "noneg")
        elif _is_number(node):
            for variant, _ in _number_variants(node.value):
                add("const", variant)
        elif isinstance(node, ast.Name) and id(node) in bounds:
            add("bound", "plus1")
            add("bound", "minus1")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in ROUNDING_SOURCES:
                for other in ROUNDING:
                    if other != name:
                        add("round", other)
                if name in TIES_TO_EVEN and len(node.args) == 1 and not node.keywords:
                    for variant, _ in TIE_RULES:
                        add("round", variant)
                    add("dtype", "int8")
            elif name in ("where", "select") and len(node.args) == 3:
                add("where", "swap")
            elif name == "clip" and node.args:
                add("clip", "drop")
                if len(node.args) == 3:
                    add("clip", "swap")
            elif name == "stop_gradient" and len(node.args) == 1:
                add("stop_gradient", "remove")
            elif name == "astype" and len(node.args) == 1:
                add("dtype", "nocast")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "stop_gradient" and len(node.args) == 1:
            add("stop_gradient", "remove")         # `from jax.lax import stop_gradient`
        elif isinstance(node, ast.Return) and node.value is not None and id(node) not in returns_in_bwd:
            add("stop_gradient", "insert")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_bwd(node):
            add("bwd", "identity")
    sites.extend(_Site(*found) for found in mutants_ad_sites.sites(tree))
    return sites


def _dropped_factor(node: ast.BinOp):
    """What is left of ``node`` when its scale factor is forgotten: the numerator of ``a / b``
    (``a`` not a number); the expression of ``s * e`` or ``e * s`` for a name ``s`` (``e`` neither
    a name, a number nor a mask cast, which ``mask`` drops); else None."""
    if isinstance(node.op, ast.Div):
        return None if _is_number(node.left) else node.left
    if isinstance(node.op, ast.Mult):
        for factor, rest in ((node.left, node.right), (node.right, node.left)):
            if isinstance(factor, ast.Name) and not isinstance(rest, ast.Name) \
                    and not _is_number(rest) and not _is_mask_cast(rest):
                return rest
    return None


class _Mutate(ast.NodeTransformer):
    """Replace the node at one ``ast.walk`` position; every other node stays as it was."""

    def __init__(self, target: ast.AST, site: _Site):
        self.target, self.site = target, site
        self.before = self.after = ""
        self.imports: set[str] = set()     # aliases the mutant needs imported
        self.helpers: set[str] = set()     # helper functions (mutants_ad_rewrite.HELPERS) it needs
        self.passes: list = []             # rewrites of the whole file that must follow
        self.root = None                   # the file being mutated

    def visit(self, node):
        if node is not self.target:
            return super().visit(node)
        self.before = _short(node)
        new = self._mutate(node)
        self.after = _short(new)
        if (self.site.kind, self.site.variant) == ("dtype", "f16"):   # the wrapper's text is long
            self.after = f"float16({self.before})"
        if self.site.kind == "custom_rule" and isinstance(new, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.before, self.after = f"@... def {new.name}", f"def {new.name}"
        return new

    def _mutate(self, node):
        kind, variant = self.site.kind, self.site.variant
        if kind in mutants_ad_sites.KINDS:
            return mutants_ad_rewrite.mutate(node, kind, variant, self)
        if kind == "compare":
            i = int(variant.split("-")[0]) if "-" in variant else 0
            node.ops[i] = COMPARE[type(node.ops[i])]()
        elif kind == "arith" and variant == "noneg":
            return node.operand
        elif kind == "arith":
            node.op = ARITH[type(node.op)][0]()
        elif kind == "const":
            node.value = dict(_number_variants(node.value))[variant]
        elif kind == "round" and variant == "insert":
            self.imports.add(MODULE_ALIAS)
            return _expr(f"{MODULE_ALIAS}.round(e)", e=node)
        elif kind == "round" and variant in dict(TIE_RULES):
            return _expr(dict(TIE_RULES)[variant], m=node.func.value, e=node.args[0])
        elif kind == "round":
            node.func.attr = variant
        elif kind == "bound":
            return _expr(f"n {'+' if variant == 'plus1' else '-'} 1", n=node)
        elif kind == "dtype" and variant == "f16":
            self.imports.add(MODULE_ALIAS)
            return _expr(f"{MODULE_ALIAS}.asarray(e, 'float16').astype({MODULE_ALIAS}.result_type(e))",
                         e=node)
        elif kind == "dtype" and variant == "int8":
            return _expr("e.astype('int8')", e=node)
        elif kind == "dtype":           # nocast
            return node.func.value
        elif kind == "scale":
            return _dropped_factor(node)
        elif kind == "where":
            node.args[1], node.args[2] = node.args[2], node.args[1]
        elif kind == "clip" and variant == "swap":
            node.args[1], node.args[2] = node.args[2], node.args[1]
        elif kind in ("clip", "stop_gradient") and variant in ("drop", "remove"):
            return node.args[0]
        elif kind == "mask" and variant == "or":
            node.op = ast.BitOr()
        elif kind == "mask":
            return node.left if variant == "left" else node.right
        elif kind == "stop_gradient":   # insert around a returned value
            self.imports.add(LAX_ALIAS)
            node.value = ast.Call(func=ast.parse(f"{LAX_ALIAS}.stop_gradient", mode="eval").body,
                                  args=[node.value], keywords=[])
        elif kind == "bwd":
            args = node.args.posonlyargs + node.args.args
            node.body = [ast.Return(value=ast.Tuple(elts=[ast.Name(args[-1].arg, ast.Load())],
                                                    ctx=ast.Load()))]
        return node


IMPORTS = {LAX_ALIAS: "import jax.lax as _mutant_lax", MODULE_ALIAS: "import jax.numpy as _mutant_jnp",
           mutants_ad_rewrite.JAX: "import jax as _mutant_jax"}


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
    tree = parsing.parse(source)
    mutants, seen = [], {}
    sources = {ast.unparse(tree) + "\n"}
    places = mutant_ids.places(tree)
    for site in _sites(tree):
        clone = copy.deepcopy(tree)
        target = next(n for i, n in enumerate(ast.walk(clone)) if i == site.position)
        mutate = _Mutate(target, site)
        mutate.root = clone
        clone = mutate.visit(clone)
        for rewrite in mutate.passes:
            clone = rewrite(clone)
        at = _import_position(clone)
        for helper in sorted(mutate.helpers, reverse=True):
            clone.body[at:at] = ast.parse(mutants_ad_rewrite.HELPERS[helper]).body
        used = {n.id for n in ast.walk(clone) if isinstance(n, ast.Name) and n.id in IMPORTS}
        for alias in sorted(mutate.imports | used, reverse=True):
            clone.body.insert(at, ast.parse(IMPORTS[alias]).body[0])
        ast.fix_missing_locations(clone)
        text = ast.unparse(clone) + "\n"
        if site.kind in mutants_ad_sites.KINDS and text in sources:
            continue            # the same file as the reference or as another mutant
        sources.add(text)
        base = mutant_ids.stable_id(site.kind, site.variant, site.position, tree, places)
        seen[base] = seen.get(base, 0) + 1  # the same expression twice in one statement
        mutant_id = base if seen[base] == 1 else f"{base}-{seen[base]}"
        words = VARIANT_WORDS.get((site.kind, site.variant), KIND_WORDS[site.kind])
        description = f"line {site.line}: `{mutate.before}` -> `{mutate.after}` ({words})"
        mutants.append(Mutant(mutant_id, site.kind, site.line, site.col, description, text,
                              site.variant))
    mutants.sort(key=lambda m: (m.line, m.col))
    return mutants
