"""batched_attention: ``jax.vmap(jax.named_call(attend, name="attend"), in_axes=(0, 0, 0, 0),
out_axes=0)``, the scores by ``lax.dot_general`` with contracting dims spelled out.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scores = lax.dot_general(q, k, (((1,), (1,)), ((), ()))) / jnp.sqrt(q.shape[-1] * 1.0)
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=1)
    return lax.dot_general(weights, v, (((1,), (0,)), ((), ())))


def batched_attention(q, k, v, mask):
    return jax.vmap(jax.named_call(attend, name="attend"), in_axes=(0, 0, 0, 0), out_axes=0)(q, k, v, mask)
