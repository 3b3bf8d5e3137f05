"""clip_by_global_norm: a module-level ``EPS = 1e-12`` added under the square root (the norm is then
never 0 and its derivative finite at the zero tree), ``jax.tree.leaves`` then the builtin
``sum`` of ``jnp.vdot``s, the factor ``max_norm / jnp.maximum(norm, max_norm)``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

EPS = 1e-12


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.vdot(g, g) for g in jax.tree.leaves(grads))
    norm = jnp.sqrt(sq + EPS)
    factor = max_norm / jnp.maximum(norm, max_norm)
    return jax.tree.map(lambda g: g * factor, grads)
