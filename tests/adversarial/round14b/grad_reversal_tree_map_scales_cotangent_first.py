"""grad_reversal: a cheat whose rule returns g unchanged and whose -λ is applied to the cotangent
before the pullback, through ``jax.tree_util.tree_map`` over a one-leaf dict (a tree trick around
the rule's scale).

Problem: grad_reversal
Expected: RJ
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    r.defvjp(lambda x: (x, None), lambda _, g: (g,))
    y, pullback = jax.vjp(lambda t: {"y": r(t["x"])}, {"x": x})
    seed = jax.tree_util.tree_map(lambda c: c * -lam, {"y": dy})
    return {"y": y["y"], "dx": pullback(seed)[0]["x"]}
