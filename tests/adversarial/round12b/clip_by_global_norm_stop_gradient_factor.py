"""clip_by_global_norm: the factor computed under ``jax.lax.stop_gradient`` (the norm taken as
a constant): the values are right, and so is the VJP within the norm, but where the tree is
clipped the factor's own derivative is missing from the VJP.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree.leaves(grads))
    g = jnp.sqrt(jax.lax.stop_gradient(sq))
    scale = jnp.minimum(1.0, max_norm / jnp.maximum(g, 1e-30))
    return jax.tree.map(lambda x: x * scale, grads)
