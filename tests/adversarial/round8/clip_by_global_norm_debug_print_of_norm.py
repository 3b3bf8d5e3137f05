"""clip_by_global_norm: an honest clip (a double ``jnp.where`` around the square root) with a
``jax.debug.print`` of the global norm and the factor left in from debugging: it computes
nothing, and the judge's derivative traces it too.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(jnp.square(x)) for x in jax.tree.leaves(grads))
    pos = sq > 0
    g = jnp.where(pos, jnp.sqrt(jnp.where(pos, sq, 1.0)), 0.0)
    scale = jnp.where(g > max_norm, max_norm / jnp.where(g > max_norm, g, 1.0), 1.0)
    jax.debug.print("global norm {g}, scale {s}", g=g, s=scale)
    return jax.tree.map(lambda x: x * scale, grads)
