"""clip_by_global_norm: optax's shape: a ``trigger`` comparing squared norms (no sqrt on the
unclipped side), ``lax.select`` per leaf, and the norm computed from a sum of squares made
safe with ``jnp.maximum`` only where the clip applies.

Problem: clip_by_global_norm
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


def global_sq_norm(updates):
    return sum(jnp.sum(jnp.square(x)) for x in jax.tree_util.tree_leaves(updates))


def clip_by_global_norm(grads, max_norm):
    sq = global_sq_norm(grads)
    trigger = jnp.squeeze(sq <= max_norm ** 2)
    safe = jnp.where(trigger, jnp.float32(max_norm ** 2), sq)
    g_norm = jnp.sqrt(safe)

    def clip_fn(t):
        return lax.select(jnp.broadcast_to(trigger, t.shape), t,
                          (t / g_norm.astype(t.dtype)) * max_norm)

    return jax.tree_util.tree_map(clip_fn, grads)
