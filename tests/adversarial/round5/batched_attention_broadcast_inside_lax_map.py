"""batched_attention: ``jax.lax.map`` over the examples, each example's scores from the
broadcast product ``(q[:, None, :] * k[None]).sum(-1)``: a (t, s, d) value per example, which
the size bound refuses even though nothing holds b * t * s * d elements at once.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    def one(args):
        q, k, v, mask = args
        scores = (q[:, None, :] * k[None, :, :]).sum(-1) / jnp.sqrt(jnp.float32(q.shape[-1]))
        return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v

    return jax.lax.map(one, (q, k, v, mask))
