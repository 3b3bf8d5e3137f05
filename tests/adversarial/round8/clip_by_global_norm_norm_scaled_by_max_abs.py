"""clip_by_global_norm: the overflow-safe norm of BLAS's nrm2: every entry divided by the largest
magnitude a before squaring, g = a * sqrt(sum((x / a)^2)), the all-zero tree (a = 0) guarded by
``jnp.where``s (the sum of squares is at least 1 elsewhere); the factor picked with ``jnp.minimum``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    flat = jnp.concatenate([jnp.ravel(x) for x in jax.tree.leaves(grads)])
    a = jnp.max(jnp.abs(flat))
    zero = a == 0
    safe_a = jnp.where(zero, 1.0, a)
    s = jnp.sum(jnp.square(flat / safe_a))  # at least 1 where a > 0
    g = jnp.where(zero, 0.0, safe_a * jnp.sqrt(jnp.where(zero, 1.0, s)))
    scale = jnp.minimum(1.0, max_norm / jnp.where(zero, max_norm, g))
    return jax.tree.map(lambda x: scale * x, grads)
