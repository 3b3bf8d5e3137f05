"""batched_attention: the scores and softmax in float16 "to save memory", cast back to float32
for the product with v: about 1e-3 relative error, far beyond the tolerance.

Problem: batched_attention
Expected: WA
"""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    q16, k16 = q.astype(jnp.float16), k.astype(jnp.float16)
    scores = q16 @ k16.T / jnp.sqrt(jnp.float16(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return weights.astype(jnp.float32) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
