import math

import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    s = jnp.einsum("btd,bsd->bts", q, k) / math.sqrt(d)
    s = jnp.where(mask, s, jnp.finfo(jnp.float32).min)
    m = jnp.max(s, axis=-1, keepdims=True)
    p = jnp.exp(s - m) * mask
    p = p / jnp.sum(p, axis=-1, keepdims=True)
    return jnp.einsum("bts,bse->bte", p, v)
