"""Reference solution for clip_by_global_norm: every leaf of the gradient tree scaled by the
same factor min(1, max_norm / g), g the L2 norm of all the entries of all the leaves together.

The norm is a safe one: at an all-zero tree the square root is taken of 1 instead of 0 and
the result replaced by 0 afterwards (a where on both sides of the sqrt), so that the gradient
of the norm is never 0 * inf = NaN. The scale max_norm / max(g, max_norm) is exactly 1 when
g <= max_norm, so a tree within the norm comes back unchanged, zero included."""

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    sq = sum(jnp.sum(leaf * leaf) for leaf in leaves)
    is_zero = sq == 0
    norm = jnp.where(is_zero, 0.0, jnp.sqrt(jnp.where(is_zero, 1.0, sq)))
    scale = max_norm / jnp.maximum(norm, max_norm)
    return jax.tree_util.tree_map(lambda leaf: leaf * scale, grads)
