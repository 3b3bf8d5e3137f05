"""batched_attention: ``attend`` with ``jnp.einsum(..., optimize="greedy")`` for the scores and
the output, the scale ``1 / np.sqrt(d)`` computed with NumPy while tracing from the concrete d,
masked keys at ``-jnp.inf``, ``jax.vmap`` over the batch.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np


def attend(q, k, v, mask):
    scale = np.float32(1.0 / np.sqrt(q.shape[-1]))
    scores = jnp.einsum("td,sd->ts", q, k, optimize="greedy") * scale
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return jnp.einsum("ts,se->te", weights, v, optimize="greedy")


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
