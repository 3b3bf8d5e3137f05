"""Where the autodiff and batching mutants apply: the mistakes and the structural cheats an
autodiff problem invites, found in the reference's syntax tree.

``judge.author.mutants`` asks ``sites(tree)`` where each operator applies, and
``judge.author.mutants_ad_rewrite.mutate`` for the rewritten node; this module only reads
the tree and never runs anything. Operators (the ``kind`` of a mutant):

- ``mode``: ``jacfwd`` <-> ``jacrev`` (``jacobian`` -> ``jacfwd``: the same values, another cost,
  and forward mode fails through a ``custom_vjp``); ``jvp(g, (x,), (v,))`` -> the VJP
  ``vjp(g, x)[1](v)[0]`` (``vjp``: the transposed product, J^T v for J v); ``vjp(g, x)`` -> a
  pullback that applies the JVP (``jvp``). Never forward mode through a function the file
  makes a ``custom_vjp``: JAX refuses it, so the mutant would test nothing.
- ``argnums``: a ``grad``/``value_and_grad``/``jac*``/``hessian`` of a function with two or more
  arguments differentiated with respect to another one (``toN``, ``N`` the new ``argnums``; in
  a tuple, each index in turn replaced by the first argument the tuple leaves out)
- ``seed``: a ``jvp``'s tangents, a ``vjp`` pullback's cotangent or a ``linearize`` function's
  tangent replaced by ones (``ones``) or zeros (``zeros``)
- ``primal``: ``y, t = jvp(...)`` / ``value_and_grad(f)(...)`` with the two outputs swapped
  (``swap``); ``jvp(...)[1]`` -> ``[0]`` is already the ``const`` operator's
- ``term``: a term or factor dropped (``a + b`` -> ``a``, ``b``; ``a - b`` -> ``a``;
  ``a * b`` -> ``a``, ``b``; never leaving a bare number): a chain-rule term or a summand forgotten
- ``transpose``: ``a @ b``, ``dot(a, b)``, ``matmul(a, b)`` with the operands swapped (``swap``),
  ``.T`` put on an operand named with a capital (``tleft``/``tright``: ``W``, ``X``, the usual
  names of matrices), ``a.T`` / ``transpose(a)`` -> ``a`` (``remove``)
- ``unroll``: ``vmap(f, in_axes)(args)`` (in_axes 0 or None per argument; also ``g(args)`` after
  ``g = vmap(f, in_axes)``) and ``lax.map(f, xs)``
  -> a Python loop over the examples stacked with ``jnp.stack`` (``vmap``, ``map``);
  ``lax.scan`` / ``lax.fori_loop`` -> a Python loop (``scan``, ``fori``, through a helper added to
  the file). Rules such as ``no_unrolling`` and ``required_primitives`` refuse them.
- ``materialize``: ``jvp(grad(f), (x,), (v,))[1]`` -> ``tensordot(hessian(f)(x), v)``
  (``hessian``); any other single-argument ``jvp`` -> the full ``jacfwd`` Jacobian times the
  tangent, a single-argument ``vjp`` -> the cotangent times the full ``jacrev`` Jacobian,
  ``vmap(grad(f), in_axes)`` over unbatched ``argnums`` -> ``jacrev`` of the batched function
  (``jacobian``). Rules such as ``max_intermediate_size`` refuse them.
- ``custom_rule``: a ``custom_vjp``/``custom_jvp`` removed (the decorator or the
  ``f = custom_vjp(g)`` wrapper, and the ``defvjp``/``defjvp`` that gave its rules), so JAX
  differentiates the primal itself (``remove``)

Deliberately absent: ``jvp`` <-> ``linearize`` and forward-over-reverse <-> reverse-over-forward
for a Hessian-vector product compute the same values at about the same cost, so every such
mutant would only be listed as equivalent.
"""

from __future__ import annotations

import ast

KINDS = ("mode", "argnums", "seed", "primal", "term", "transpose", "unroll", "materialize",
         "custom_rule")
KIND_WORDS = {"mode": "autodiff mode swapped", "argnums": "differentiated with respect to "
              "another argument", "seed": "tangent or cotangent replaced", "primal": "primal and "
              "derivative outputs swapped", "term": "term dropped", "transpose": "transposed",
              "unroll": "unrolled into a Python loop", "materialize": "full Jacobian built",
              "custom_rule": "custom derivative rule removed"}
VARIANT_WORDS = {("mode", "vjp"): "J^T v instead of J v", ("mode", "jvp"): "J v instead of J^T v",
                 ("seed", "ones"): "seeded with ones", ("seed", "zeros"): "seeded with zeros",
                 ("materialize", "hessian"): "full Hessian built",
                 ("transpose", "swap"): "operands swapped",
                 ("transpose", "remove"): "transpose dropped"}
JACOBIANS = {"jacfwd": "jacrev", "jacrev": "jacfwd", "jacobian": "jacfwd"}
DIFFERENTIATORS = ("grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian")
ARRAY_MODULES = ("jnp", "np", "numpy", "jax.numpy")
UNROLL_KEYWORDS = {"scan": ("length", "reverse", "unroll"), "fori_loop": ("unroll",)}


def called(node) -> str | None:
    """``f`` for a call of ``something.f(...)`` or ``f(...)``."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
        if isinstance(node.func, ast.Name):
            return node.func.id
    return None


def _module(node: ast.Call) -> str:
    """``jax.lax`` for ``jax.lax.scan(...)``; empty for a bare name."""
    return ast.unparse(node.func.value) if isinstance(node.func, ast.Attribute) else ""




def keyword_arg(node: ast.Call, name: str, position: int):
    for kw in node.keywords:
        if kw.arg == name:
            return kw.value
    return node.args[position] if len(node.args) > position else None


def _plain(node: ast.Call) -> bool:
    return not any(isinstance(a, ast.Starred) for a in node.args) and \
        all(kw.arg is not None for kw in node.keywords)


def _is_number(node) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def _int_or_ints(node):
    """``k`` for ``argnums=k``, a tuple for ``(i, j)``, None for anything else."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) and type(e.value) is int
                                           for e in node.elts):
        return tuple(e.value for e in node.elts)
    return None


def _arities(tree) -> dict[str, int]:
    """Positional arity of each function defined by name (``def`` or ``name = lambda``); a name
    defined twice with different arities, or taking ``*args``, is left out."""
    found: dict[str, int | None] = {}

    def note(name, args: ast.arguments):
        n = None if args.vararg else len(args.posonlyargs + args.args)
        found[name] = n if found.get(name, n) == n else None

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            note(node.name, node.args)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) \
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            note(node.targets[0].id, node.value.args)
    return {k: v for k, v in found.items() if v is not None}


def _arity(node, arities) -> int | None:
    if isinstance(node, ast.Lambda):
        return None if node.args.vararg else len(node.args.posonlyargs + node.args.args)
    return arities.get(node.id) if isinstance(node, ast.Name) else None


def _derivative_functions(tree) -> set[str]:
    """Names bound to the function a ``vjp`` (its pullback) or ``linearize`` returns second."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and called(node.value) in ("vjp", "linearize") \
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and len(node.targets[0].elts) == 2 and isinstance(node.targets[0].elts[1], ast.Name):
            names.add(node.targets[0].elts[1].id)
    return names


def _single_jvp(node) -> bool:
    """``jvp(g, (x,), (v,))``: one primal, one tangent, no ``has_aux``."""
    return (called(node) == "jvp" and len(node.args) == 3 and not node.keywords and _plain(node)
            and all(isinstance(a, ast.Tuple) and len(a.elts) == 1 for a in node.args[1:]))


def _single_vjp(node) -> bool:
    return called(node) == "vjp" and len(node.args) == 2 and not node.keywords and _plain(node)


def _in_axes(vmap: ast.Call, count: int) -> list | None:
    """The axis of each of ``count`` arguments (0 or None) of ``vmap(f, in_axes)``, or None when
    the axes are anything else (or ``out_axes`` is not 0)."""
    if len(vmap.args) > 2 or any(kw.arg not in ("in_axes", "out_axes") for kw in vmap.keywords):
        return None
    out_axes = keyword_arg(vmap, "out_axes", 99)
    if out_axes is not None and not (isinstance(out_axes, ast.Constant) and out_axes.value == 0):
        return None
    axes = keyword_arg(vmap, "in_axes", 1)
    if axes is None:
        return [0] * count
    if isinstance(axes, ast.Constant) and axes.value == 0:
        return [0] * count
    if isinstance(axes, (ast.Tuple, ast.List)) and len(axes.elts) == count and all(
            isinstance(e, ast.Constant) and e.value in (0, None) and e.value is not False
            for e in axes.elts):
        return [e.value for e in axes.elts]
    return None


def vmap_assignments(tree) -> dict[str, ast.Call]:
    """``{name: vmap call}`` for each name assigned once, by ``name = vmap(f, ...)``."""
    assigned: dict[str, list] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned.setdefault(name.id, []).append(node.value)
    return {name: values[0] for name, values in assigned.items()
            if len(values) == 1 and called(values[0]) == "vmap" and values[0].args
            and isinstance(values[0].func, (ast.Attribute, ast.Name))}


def batched_call(node, vmapped) -> tuple[ast.Call, list] | None:
    """``(vmap call, axes)`` for ``vmap(f, in_axes)(args)``, or ``g(args)`` after
    ``g = vmap(f, in_axes)``, that a loop can replace."""
    if not (isinstance(node, ast.Call) and not node.keywords and _plain(node) and node.args):
        return None
    vmap = node.func if isinstance(node.func, ast.Call) else \
        vmapped.get(node.func.id) if isinstance(node.func, ast.Name) else None
    if not (called(vmap) == "vmap" and vmap.args):
        return None
    axes = _in_axes(vmap, len(node.args))
    if axes is None or 0 not in axes:
        return None
    return vmap, axes


def _is_lax(node: ast.Call) -> bool:
    return _module(node).split(".")[-1] == "lax" or isinstance(node.func, ast.Name)


def custom_decorator(decorator, kinds=("custom_vjp", "custom_jvp")) -> bool:
    names = [ast.unparse(decorator.func if isinstance(decorator, ast.Call) else decorator)]
    if isinstance(decorator, ast.Call) and names[0].split(".")[-1] == "partial" and decorator.args:
        names.append(ast.unparse(decorator.args[0]))
    return any(n.split(".")[-1] in kinds for n in names)


def _capital(node) -> bool:
    return isinstance(node, ast.Name) and node.id[:1].isupper()


def _seeds(node, pullbacks) -> bool:
    """A ``jvp`` (its tangents), or a call of a pullback or ``linearize`` function (its one
    argument)."""
    if not isinstance(node, ast.Call) or not _plain(node):
        return False
    if called(node) == "jvp":
        return len(node.args) >= 3
    if len(node.args) != 1 or node.keywords:
        return False
    return isinstance(node.func, ast.Name) and node.func.id in pullbacks \
        or isinstance(node.func, ast.Subscript) and _single_vjp(node.func.value)


def _argnums_variants(node, arities) -> list[str]:
    if not (called(node) in DIFFERENTIATORS and node.args and _plain(node)):
        return []
    n = _arity(node.args[0], arities)
    now = _int_or_ints(keyword_arg(node, "argnums", 1) or ast.Constant(0))
    if not n or not 2 <= n <= 10:
        return []
    if isinstance(now, int):
        return [f"to{other}" for other in range(n) if other != now]
    unused = [i for i in range(n) if i not in now] if isinstance(now, tuple) else []
    if unused:      # one index of the tuple replaced by the first argument it leaves out
        return ["to" + "".join(str(unused[0] if j == k else i) for j, i in enumerate(now))
                for k in range(len(now))]
    return []


def _per_example_grad(batched) -> bool:
    """``vmap(grad(f, argnums), in_axes)`` where every ``argnums`` argument is unbatched."""
    vmap, axes = batched
    grad = vmap.args[0]
    if not (called(grad) == "grad" and grad.args and _plain(grad)
            and all(kw.arg == "argnums" for kw in grad.keywords)):
        return False
    argnums = _int_or_ints(keyword_arg(grad, "argnums", 1) or ast.Constant(0))
    argnums = (argnums,) if isinstance(argnums, int) else argnums
    return bool(argnums) and all(i < len(axes) and axes[i] is None for i in argnums)


def _loop_variant(node) -> str | None:
    name = called(node)
    if not (isinstance(node, ast.Call) and _is_lax(node) and _plain(node)):
        return None
    if name == "map" and isinstance(node.func, ast.Attribute) and len(node.args) == 2 \
            and not node.keywords:
        return "map"
    if name in UNROLL_KEYWORDS and all(kw.arg in UNROLL_KEYWORDS[name] for kw in node.keywords) \
            and len(node.args) >= (2 if name == "scan" else 4):
        return "scan" if name == "scan" else "fori"
    return None


def _swappable_outputs(node) -> bool:
    return isinstance(node, ast.Assign) and len(node.targets) == 1 \
        and isinstance(node.targets[0], ast.Tuple) and len(node.targets[0].elts) == 2 \
        and (called(node.value) == "jvp"
             or isinstance(node.value, ast.Call) and called(node.value.func) == "value_and_grad")


def _product(node) -> tuple | None:
    """The two operands of ``a @ b``, ``jnp.dot(a, b)``, ``jnp.matmul(a, b)``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return node.left, node.right
    if isinstance(node, ast.Call) and called(node) in ("dot", "matmul") and len(node.args) == 2 \
            and not node.keywords and _module(node) in ARRAY_MODULES:
        return tuple(node.args)
    return None


def _transposed(node) -> bool:
    """``a.T``, ``jnp.transpose(a)`` or ``a.transpose()``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "T" and isinstance(node.ctx, ast.Load)
    return called(node) == "transpose" and isinstance(node.func, ast.Attribute) \
        and not node.keywords and (len(node.args) == 1 and _module(node) in ARRAY_MODULES
                                   or not node.args)


def _custom(node, kinds=("custom_vjp", "custom_jvp")) -> bool:
    """A function given a custom rule: decorated, or assigned from ``custom_vjp(f)``."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return any(custom_decorator(d, kinds) for d in node.decorator_list)
    return isinstance(node, ast.Assign) and len(node.targets) == 1 \
        and isinstance(node.targets[0], ast.Name) and called(node.value) in kinds \
        and len(node.value.args) == 1 and not node.value.keywords


def sites(tree) -> list[tuple[int, str, str, int, int]]:
    """``(ast.walk position, kind, variant, line, column)`` of every autodiff mutation."""
    found = []
    arities = _arities(tree)
    pullbacks = _derivative_functions(tree)
    vmapped = vmap_assignments(tree)
    nodes = list(ast.walk(tree))
    custom_vjps = {n.targets[0].id if isinstance(n, ast.Assign) else n.name for n in nodes
                   if _custom(n, ("custom_vjp",))}

    def _reverse_only(function):     # forward mode through a custom_vjp raises: no mutant to grade
        return isinstance(function, ast.Name) and function.id in custom_vjps

    positions = {id(n): i for i, n in enumerate(nodes)}
    parents = {id(child): parent for parent in nodes for child in ast.iter_child_nodes(parent)}
    for node in nodes:
        def add(kind, variant, at=node):
            found.append((positions[id(at)], kind, variant, getattr(at, "lineno", 0),
                          getattr(at, "col_offset", 0)))

        name = called(node)
        if name in JACOBIANS and node.args \
                and not (JACOBIANS[name] == "jacfwd" and _reverse_only(node.args[0])):
            add("mode", JACOBIANS[name])
        for variant in _argnums_variants(node, arities):
            add("argnums", variant)
        if _seeds(node, pullbacks):     # the site is the tangent or cotangent itself
            seed = node.args[2 if name == "jvp" else 0]
            add("seed", "ones", seed)
            add("seed", "zeros", seed)
        if _single_jvp(node):
            parent = parents.get(id(node))
            index = parent.slice.value if isinstance(parent, ast.Subscript) and parent.value is node \
                and isinstance(parent.slice, ast.Constant) else None
            if index != 0:     # the primal alone: the tangent is never used
                at = parent if index == 1 else node
                add("mode", "vjp", at)
                grad = node.args[0]
                add("materialize", "hessian" if called(grad) == "grad" and len(grad.args) == 1
                    and not grad.keywords else "jacobian", at)
        if _single_vjp(node):
            if not _reverse_only(node.args[0]):
                add("mode", "jvp")
            add("materialize", "jacobian")
        batched = batched_call(node, vmapped)
        if batched:
            add("unroll", "vmap")
            if _per_example_grad(batched):
                add("materialize", "jacobian")
        loop = _loop_variant(node)
        if loop:
            add("unroll", loop)
        if _swappable_outputs(node):
            add("primal", "swap")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            if not _is_number(node.left):
                add("term", "left")
            if not _is_number(node.right) and not isinstance(node.op, ast.Sub):
                add("term", "right")
        operands = _product(node)
        if operands:
            if not all(isinstance(o, ast.Name) and not _capital(o) for o in operands):
                add("transpose", "swap")      # (two vectors, by their names: the same dot)
            if _capital(operands[0]):
                add("transpose", "tleft")
            if _capital(operands[1]):
                add("transpose", "tright")
        if _transposed(node):
            add("transpose", "remove")
        if _custom(node):
            add("custom_rule", "remove")
    return found
