"""batched_attention: the batch carried by ``jnp.vectorize`` with a gufunc signature
``(t,d),(s,d),(s,e),(t,s)->(t,e)`` (``vmap`` underneath) around ``attend``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jnp.vectorize(attend, signature="(t,d),(s,d),(s,e),(t,s)->(t,e)")(q, k, v, mask)
