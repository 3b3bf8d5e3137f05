"""grad_reversal: the reversal layer takes and returns a pytree (a dict ``{"h": x}``, as a layer
between two modules would), its backward rule a ``jax.tree_util.tree_map`` of ``-lam * g`` over
the cotangent tree; ``lam`` closed over.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


def make_reversal(lam):
    @jax.custom_vjp
    def reverse(tree):
        return tree

    def fwd(tree):
        return tree, None

    def bwd(_, g):
        return (jax.tree_util.tree_map(lambda t: -lam * t, g),)

    reverse.defvjp(fwd, bwd)
    return reverse


def grad_reverse(x, lam, dy):
    out, pullback = jax.vjp(make_reversal(lam), {"h": x})
    (grads,) = pullback({"h": dy})
    return {"y": out["h"], "dx": grads["h"]}
