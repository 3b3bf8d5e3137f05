"""batched_attention: a hand-written softmax that subtracts the row's maximum under
``jax.lax.stop_gradient`` (the usual idiom), ``jax.vmap`` with an axis name and explicit
``in_axes``.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.einsum("td,sd->ts", q, k) / jnp.sqrt(q.shape[-1] * 1.0)
    scores = jnp.where(mask, scores, -1e30)
    m = jax.lax.stop_gradient(scores.max(axis=-1, keepdims=True))
    e = jnp.where(mask, jnp.exp(scores - m), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0), out_axes=0, axis_name="batch")(q, k, v, mask)
