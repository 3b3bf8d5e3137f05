"""batched_attention: ``jnp.vectorize`` with a ``signature=`` for one example instead of a
``jax.vmap`` written out, the softmax from ``jax.nn.softmax(..., where=mask)``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.dot(q, k.T) / jnp.sqrt(q.shape[-1]).astype(jnp.float32)
    weights = jax.nn.softmax(scores, axis=-1, where=mask)
    weights = jnp.where(mask, weights, 0.0)
    return jnp.dot(weights, v)


batched_attention = jnp.vectorize(attend, signature="(t,d),(s,d),(s,e),(t,s)->(t,e)")
