"""clip_by_global_norm: the squared norm by ``jax.tree.reduce`` over ``jax.tree.map`` of leaf sums
of squares, the norm ``sqrt`` of it floored at the tiniest float32 (a safe derivative at zero, the
floor far below any case's norm), the factor ``max_norm / max(g, max_norm)``; under ``jax.jit``
with ``static_argnums=1``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def clip_by_global_norm(grads, max_norm):
    sq = jax.tree.reduce(jnp.add, jax.tree.map(lambda l: jnp.sum(l * l), grads))
    g = jnp.sqrt(jnp.maximum(sq, jnp.finfo(jnp.float32).tiny))
    return jax.tree.map(lambda l: l * (max_norm / jnp.maximum(g, max_norm)), grads)
