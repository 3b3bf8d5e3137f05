"""The rewrites of the autodiff and batching mutants: each site that
``judge.author.mutants_ad_sites.sites`` found, rewritten into its mutant.

``judge.author.mutants`` calls ``mutate`` on a copy of the reference's tree and adds the
helper functions (``HELPERS``) and the imports of the ``_mutant_*`` aliases a rewrite asked
for; this module never runs anything. The operators are described in
``judge.author.mutants_ad_sites``.
"""

from __future__ import annotations

import ast
import copy

from judge.author.mutants_ad_sites import (batched_call, called, custom_decorator,
                                          keyword_arg, vmap_assignments)

JAX = "_mutant_jax"     # `import jax as _mutant_jax`, added when a mutant needs it
JNP = "_mutant_jnp"
HELPERS = {
    "_mutant_scan": f"""\
def _mutant_scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    n = length if xs is None else len({JAX}.tree.leaves(xs)[0])
    carry, ys = init, []
    for i in (range(n - 1, -1, -1) if reverse else range(n)):
        carry, y = f(carry, {JAX}.tree.map(lambda a: a[i], xs))
        ys.append(y)
    ys = ys[::-1] if reverse else ys
    return carry, {JAX}.tree.map(lambda *r: {JNP}.stack(r), *ys)
""",
    "_mutant_fori": """\
def _mutant_fori(lower, upper, body, value, unroll=None):
    for i in range(lower, upper):
        value = body(i, value)
    return value
""",
}


def expr(template: str, **names) -> ast.expr:
    """``template`` parsed, each bare name in ``names`` replaced by a copy of its node."""

    class Fill(ast.NodeTransformer):
        def visit_Name(self, name):
            return copy.deepcopy(names[name.id]) if name.id in names else name

    return Fill().visit(ast.parse(template, mode="eval").body)


def _sibling(node: ast.Call, name: str) -> ast.expr:
    """``name`` from the module ``node`` calls into (``jax.jvp`` -> ``jax.vjp``), or from jax."""
    if isinstance(node.func, ast.Attribute):
        return ast.Attribute(value=copy.deepcopy(node.func.value), attr=name, ctx=ast.Load())
    return expr(f"{JAX}.{name}")


def _stacked(fn: ast.expr, args: list, axes: list) -> ast.expr:
    """``tree.map(stack, *[fn(args with the mapped ones per example) for ... in ...])``."""
    mapped = [i for i, axis in enumerate(axes) if axis == 0]
    call = ast.Call(func=copy.deepcopy(fn), keywords=[],
                    args=[ast.Name(f"_m{i}", ast.Load()) if axes[i] == 0 else copy.deepcopy(a)
                          for i, a in enumerate(args)])
    if len(mapped) == 1:
        target, source = ast.Name(f"_m{mapped[0]}", ast.Store()), copy.deepcopy(args[mapped[0]])
    else:
        target = ast.Tuple([ast.Name(f"_m{i}", ast.Store()) for i in mapped], ast.Store())
        source = ast.Call(ast.Name("zip", ast.Load()), [copy.deepcopy(args[i]) for i in mapped], [])
    loop = ast.ListComp(call, [ast.comprehension(target, source, [], 0)])
    return expr(f"{JAX}.tree.map(lambda *_r: {JNP}.stack(_r), *rows)", rows=loop)


def _remove_rules(name: str):
    """A pass that drops ``name.defvjp(...)``/``name.defjvp(...)`` statements and decorators."""

    def is_rule(node):
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("defvjp", "defjvp") and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == name

    class Drop(ast.NodeTransformer):
        def generic_visit(self, node):
            super().generic_visit(node)
            for field in ("body", "orelse", "finalbody"):
                body = getattr(node, field, None)
                if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                    kept = [s for s in body if not (isinstance(s, ast.Expr) and is_rule(s.value))]
                    setattr(node, field, kept or [ast.Pass()])
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                node.decorator_list = [d for d in node.decorator_list
                                       if not (isinstance(d, ast.Attribute) and is_rule(ast.Call(d, [], [])))]
            return node

    return lambda tree: Drop().visit(tree)


def mutate(node, kind: str, variant: str, edit) -> ast.AST:
    """``node`` rewritten (``edit.root``: the file it is in). ``edit.helpers`` collects the
    helper functions the file must add, ``edit.passes`` the rewrites of the whole file that
    must follow; the imports of the ``_mutant_*`` aliases are added for whatever it uses."""
    if kind == "mode" and variant in ("jacfwd", "jacrev"):
        node.func = _sibling(node, variant)
        return node
    if kind == "argnums":
        new = [ast.Constant(int(c)) for c in variant[2:]]
        old = keyword_arg(node, "argnums", 1)
        value = ast.Tuple(new, ast.Load()) if isinstance(old, ast.Tuple) else new[0]
        if len(node.args) > 1:
            node.args[1] = value
        else:
            node.keywords = [kw for kw in node.keywords if kw.arg != "argnums"]
            node.keywords.append(ast.keyword("argnums", value))
        return node
    if kind == "seed":
        return expr(f"{JAX}.tree.map({JNP}.{variant}_like, t)", t=node)
    if kind == "primal":
        node.targets[0].elts.reverse()
        return node
    if kind == "term":
        return node.left if variant == "left" else node.right
    if kind == "transpose" and variant == "remove":
        return node.value if isinstance(node, ast.Attribute) else \
            (node.args[0] if node.args else node.func.value)
    if kind == "transpose":
        operands = [node.left, node.right] if isinstance(node, ast.BinOp) else node.args
        if variant == "swap":
            operands.reverse()
        else:
            i = 0 if variant == "tleft" else 1
            operands[i] = ast.Attribute(operands[i], "T", ast.Load())
        if isinstance(node, ast.BinOp):
            node.left, node.right = operands
        else:
            node.args = operands
        return node
    if kind in ("unroll", "materialize") and isinstance(node, ast.Call) and called(node) != "vjp":
        vmap, axes = batched_call(node, vmap_assignments(edit.root)) or (None, None)
    if kind == "unroll" and variant == "vmap":
        return _stacked(vmap.args[0], node.args, axes)
    if kind == "unroll" and variant == "map":
        return _stacked(node.args[0], node.args[1:], [0])
    if kind == "unroll":
        helper = "_mutant_scan" if variant == "scan" else "_mutant_fori"
        edit.helpers.add(helper)
        node.func = ast.Name(helper, ast.Load())
        return node
    if kind == "custom_rule":
        if isinstance(node, ast.Assign):
            edit.passes.append(_remove_rules(node.targets[0].id))
            node.value = node.value.args[0]
        else:
            edit.passes.append(_remove_rules(node.name))
            node.decorator_list = [d for d in node.decorator_list if not custom_decorator(d)]
        return node
    call = node.value if isinstance(node, ast.Subscript) else node
    if called(call) == "jvp":
        g, x, v = call.args[0], call.args[1].elts[0], call.args[2].elts[0]
        if kind == "mode":
            tangent = expr("vjp(g, x)[1](v)[0]", vjp=_sibling(call, "vjp"), g=g, x=x, v=v)
        elif variant == "hessian":
            tangent = expr(f"{JNP}.tensordot({JAX}.hessian(f)(x), v, {JNP}.ndim(v))", f=g.args[0], x=x, v=v)
        else:
            tangent = expr(f"{JNP}.tensordot({JAX}.jacfwd(g)(x), v, {JNP}.ndim(v))", g=g, x=x, v=v)
        if call is node:
            return expr("(g(x), t)", g=g, x=x, t=tangent)
        return tangent
    if called(call) == "vjp":
        g, x = call.args
        if kind == "mode":
            return expr("(g(x), lambda _ct: (jvp(g, (x,), (_ct,))[1],))", g=g, x=x, jvp=_sibling(call, "jvp"))
        return expr(f"(g(x), lambda _ct: ({JNP}.tensordot(_ct, {JAX}.jacrev(g)(x), {JNP}.ndim(_ct)),))",
                    g=g, x=x)
    # materialize: vmap(grad(f, argnums), in_axes)(args) -> jacrev(vmap(f, in_axes), argnums)(args)
    grad = vmap.args[0]
    batched = ast.Call(func=copy.deepcopy(vmap.func), args=[copy.deepcopy(grad.args[0])],
                       keywords=[ast.keyword("in_axes", copy.deepcopy(keyword_arg(vmap, "in_axes", 1)))])
    argnums = keyword_arg(grad, "argnums", 1) or ast.Constant(0)
    return ast.Call(func=expr(f"{JAX}.jacrev(f, argnums=a)", f=batched, a=argnums),
                    args=node.args, keywords=[])
