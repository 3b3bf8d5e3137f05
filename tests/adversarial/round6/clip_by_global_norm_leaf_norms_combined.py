"""clip_by_global_norm: the global norm as the norm of the leaves' ``jnp.linalg.norm``s, with
the double where guarding only the total: right values, but a leaf that is all zero in a tree
that is not differentiates ``jnp.linalg.norm`` at 0 and puts NaN in every leaf's VJP.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    norms = jnp.stack([jnp.linalg.norm(jnp.ravel(x)) for x in jax.tree_util.tree_leaves(grads)])
    sq = jnp.sum(norms ** 2)
    ok = sq > 0
    g = jnp.sqrt(jnp.where(ok, sq, 1.0))
    scale = jnp.where(ok, jnp.minimum(1.0, max_norm / g), 1.0)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
