"""grad_reversal: a ``custom_vjp`` whose primal takes and returns a dict (``{"h": x}``), the
backward rule applying -λ to every leaf of the cotangent tree with ``jax.tree_util.tree_map``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def reverse(tree):
        return {"h": tree["h"]}

    def fwd(tree):
        return reverse(tree), None

    def bwd(_, g):
        return (jax.tree_util.tree_map(lambda t: -lam * t, g),)

    reverse.defvjp(fwd, bwd)

    y, pullback = jax.vjp(reverse, {"h": x})
    (dx,) = pullback({"h": dy})
    return {"y": y["h"], "dx": dx["h"]}
