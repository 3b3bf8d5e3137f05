"""batched_attention: no ``vmap``; ``jnp.einsum('bqd,bkd->bqk')`` over the whole batch,
``jax.nn.softmax(where=mask)`` left as it is (JAX gives masked entries zero), then
``jnp.einsum('bqk,bkv->bqv')``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    logits = jnp.einsum("bqd,bkd->bqk", q, k) * d ** -0.5
    probs = jax.nn.softmax(logits, axis=-1, where=mask)
    return jnp.einsum("bqk,bkv->bqv", probs, v)
