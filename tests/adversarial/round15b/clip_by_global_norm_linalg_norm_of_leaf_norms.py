"""clip_by_global_norm: a near miss: the global norm as ``jnp.linalg.norm`` of the stacked
``jnp.linalg.norm`` of each leaf, and the factor from a ``where`` on the norm: at an all-zero
tree the norms' derivatives are 0/0, and the VJP is NaN.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    g = jnp.linalg.norm(jnp.stack([jnp.linalg.norm(l) for l in leaves]))
    factor = jnp.where(g > max_norm, max_norm / g, 1.0)
    return jax.tree_util.tree_map(lambda l: l * factor, grads)
