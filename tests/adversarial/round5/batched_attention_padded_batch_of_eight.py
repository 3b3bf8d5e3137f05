"""batched_attention: every batch padded to the largest b, 8, with ``jnp.pad``, vmapped, and
sliced back: the padded scores hold 8 * t * s elements, more than the bound allows when b is
small.

Problem: batched_attention
Expected: RJ
"""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


def batched_attention(q, k, v, mask):
    b = q.shape[0]
    pad = lambda a, fill=0: jnp.pad(a, [(0, 8 - b)] + [(0, 0)] * (a.ndim - 1), constant_values=fill)
    out = jax.vmap(attend)(pad(q), pad(k), pad(v), pad(mask, True))
    return out[:b]
