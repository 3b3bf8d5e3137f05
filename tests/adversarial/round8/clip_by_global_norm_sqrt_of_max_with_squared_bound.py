"""clip_by_global_norm: the factor as max_norm / sqrt(max(g^2, max_norm^2)): the square root is
never taken below max_norm^2, so it is differentiable everywhere, the all-zero tree included
(the maximum sends no cotangent to g^2 there); the squares summed with ``jnp.vdot`` per leaf.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree.leaves(grads)
    sq = sum(jnp.vdot(leaf, leaf) for leaf in leaves)
    scale = max_norm / jnp.sqrt(jnp.maximum(sq, max_norm * max_norm))
    return jax.tree.map(lambda leaf: leaf * scale, grads)
