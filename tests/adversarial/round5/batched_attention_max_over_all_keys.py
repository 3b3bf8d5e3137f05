"""batched_attention: a hand-written softmax that subtracts the maximum over all keys, masked
ones included, and multiplies by the mask after ``exp``: where a masked key's score is far
above every visible key's (more than about 104), the visible keys' exponentials underflow to 0
and the row is 0 / 0 = NaN.

Problem: batched_attention
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    e = jnp.exp(scores - scores.max(axis=-1, keepdims=True)) * mask
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
