"""clip_by_global_norm: lambdas assigned to names (``square_sum``, ``scale_leaf``), the squared
norm as the builtin ``sum`` over ``jax.tree.leaves``, the zero tree kept apart with a
``where`` on both sides of the square root, the factor ``jnp.minimum(1.0, max_norm / norm)``
selected to 1 at zero.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

square_sum = lambda leaf: jnp.sum(jnp.square(leaf))


def clip_by_global_norm(grads, max_norm):
    total = sum(square_sum(leaf) for leaf in jax.tree.leaves(grads))
    empty = total == 0.0
    norm = jnp.sqrt(jnp.where(empty, 1.0, total))
    factor = jnp.where(empty, 1.0, jnp.minimum(1.0, max_norm / norm))
    scale_leaf = lambda leaf: (leaf * factor).astype(jnp.float32)
    return jax.tree.map(scale_leaf, grads)
