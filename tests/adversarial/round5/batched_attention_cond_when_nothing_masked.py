"""batched_attention: a ``lax.cond`` per example (under vmap, a select) that skips the masking
when the example's mask is all True; both branches are right.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.lax.cond(
        jnp.all(mask),
        lambda s: jax.nn.softmax(s, axis=-1),
        lambda s: jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1),
        scores,
    )
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
