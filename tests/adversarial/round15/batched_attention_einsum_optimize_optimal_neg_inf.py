"""batched_attention, honest: ``jnp.einsum(..., optimize="optimal")`` in ``attend`` for the
scores and the output, the hidden scores set to ``-jnp.inf`` before ``jax.nn.softmax`` (every
row has a visible key, so no row is all ``-inf``).

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.einsum("td,sd->ts", q, k, optimize="optimal") / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return jnp.einsum("ts,se->te", weights, v, optimize="optimal")


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
