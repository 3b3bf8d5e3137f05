"""clip_by_global_norm: the norm differentiated through ``jnp.sqrt(sq + stop_gradient(...))``, a
guard that adds 1 under stop_gradient only where the tree is all zero and subtracts it again
(value unchanged): the derivative of the square root at 0 becomes that at 1, finite.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree.leaves(grads)
    sq = jnp.sum(jnp.stack([jnp.sum(x * x) for x in leaves]))
    bump = lax.stop_gradient(jnp.where(sq == 0, 1.0, 0.0))
    g = jnp.sqrt(sq + bump) - bump
    factor = jnp.where(g <= max_norm, 1.0, max_norm / jnp.maximum(g, max_norm))
    return jax.tree.map(lambda x: x * factor, grads)
