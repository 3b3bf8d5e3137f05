"""grad_reversal: the layer is a custom_vjp over a dict of features (a pytree), its backward
rule a ``tree_map``; the pullback taken with ``jax.vjp(..., has_aux=True)`` on a function that
also returns the features' shape as aux.

Problem: grad_reversal
Expected: AC
"""

import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def layer(tree):
        return tree

    def fwd(tree):
        return tree, None

    def bwd(_, g):
        return (jax.tree_util.tree_map(lambda c: -lam * c, g),)

    layer.defvjp(fwd, bwd)

    def apply(feats):
        out = layer({"features": feats})
        return out["features"], jnp.shape(feats)

    y, pull, _shape = jax.vjp(apply, x, has_aux=True)
    (dx,) = pull(dy)
    return {"y": y, "dx": dx}
