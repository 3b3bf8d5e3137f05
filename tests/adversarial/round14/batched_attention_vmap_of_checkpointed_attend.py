"""batched_attention: ``jax.vmap`` of ``jax.checkpoint(attend)`` (the weights recomputed in the
backward pass), ``jax.nn.softmax(where=mask)`` zeroed outside the mask.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def attend(q, k, v, mask):
    scores = jnp.einsum("td,sd->ts", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    w = jnp.where(mask, jax.nn.softmax(scores, axis=-1, where=mask), 0.0)
    return jnp.einsum("ts,se->te", w, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
