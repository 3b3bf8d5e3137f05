"""clip_by_global_norm: the factor as ``max_norm / sqrt(max(s, max_norm ** 2))``, one guard that
is both the clip and the zero case (below the bound the square root reads the constant), in a
function jitted with ``static_argnames=("max_norm",)``; the leaves listed with
``tree_flatten`` and rebuilt with ``tree_unflatten``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("max_norm",))
def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    s = jnp.sum(jnp.stack([jnp.sum(leaf * leaf) for leaf in leaves]))
    factor = max_norm / jnp.sqrt(jnp.maximum(s, max_norm ** 2))
    return jax.tree_util.tree_unflatten(treedef, [leaf * factor for leaf in leaves])
