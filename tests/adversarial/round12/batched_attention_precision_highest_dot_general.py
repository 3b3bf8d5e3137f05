"""batched_attention: ``lax.dot_general`` with ``precision=lax.Precision.HIGHEST`` for both
products, inside ``jax.vmap``; mask by ``jnp.where(mask, s, -jnp.inf)``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

HI = lax.Precision.HIGHEST


def attend(q, k, v, mask):
    s = lax.dot_general(q, k, (((1,), (1,)), ((), ())), precision=HI)
    s = s / jnp.sqrt(jnp.float32(q.shape[1]))
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=1)
    return lax.dot_general(w, v, (((1,), (0,)), ((), ())), precision=HI)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
