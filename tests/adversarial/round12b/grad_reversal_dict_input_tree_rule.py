"""grad_reversal: the layer written for a pytree (a dict of features), its backward
``jax.tree_util.tree_map(lambda g: -lam * g, ct)``; called on ``{"h": x}`` and the pullback's
dict read back.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def reverse_tree(tree):
        return tree

    def fwd(tree):
        return tree, None

    def bwd(_, ct):
        return (jax.tree_util.tree_map(lambda g: -lam * g, ct),)

    reverse_tree.defvjp(fwd, bwd)
    y, back = jax.vjp(reverse_tree, {"h": x})
    (dtree,) = back({"h": dy})
    return {"y": y["h"], "dx": dtree["h"]}
