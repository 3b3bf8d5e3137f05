"""clip_by_global_norm: honest code: the factor ``jnp.minimum(1, max_norm / g)`` with ``g`` the
norm of a sum of squares replaced by 1 where it is zero (and the factor 1 there).

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    s = jax.tree_util.tree_reduce(lambda a, b: a + b,
                                  jax.tree_util.tree_map(lambda l: jnp.vdot(l, l), grads))
    nonzero = s > 0
    g = jnp.sqrt(jnp.where(nonzero, s, 1.0))
    factor = jnp.where(nonzero, jnp.minimum(1.0, max_norm / g), 1.0)
    return jax.tree_util.tree_map(lambda l: factor * l, grads)
