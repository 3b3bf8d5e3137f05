"""batched_attention: the scores as the (b, t, s, d) product summed over d, hidden in a
``jax.checkpoint`` inside a ``jax.named_call``. The rules read inside both.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


@jax.checkpoint
def _scores(q, k):
    return jnp.sum(q[:, :, None, :] * k[:, None, :, :], axis=-1)


def batched_attention(q, k, v, mask):
    scores = jax.named_call(_scores, name="scores")(q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v
