"""clip_by_global_norm: a wrong honest form: the factor computed from a ``stop_gradient``-ed norm
(as if the scale were a constant): the values are right, but where g > max_norm the VJP misses
the factor's dependence on the tree.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    g = jax.lax.stop_gradient(jnp.sqrt(sum(jnp.sum(l * l) for l in leaves)))
    scale = jnp.minimum(1.0, max_norm / jnp.maximum(g, 1e-30))
    return jax.tree_util.tree_map(lambda l: l * scale, grads)
