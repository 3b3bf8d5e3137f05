"""batched_attention: ``jnp.matmul(q, k.T)``, masked scores set to ``jnp.finfo(dtype).min``,
softmax by hand with the row maximum subtracted, vmapped with ``in_axes=0``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scale = 1.0 / jnp.sqrt(jnp.asarray(q.shape[-1], dtype=q.dtype))
    s = jnp.matmul(q, k.T) * scale
    s = jnp.where(mask, s, jnp.finfo(s.dtype).min)
    s = s - jnp.max(s, axis=-1, keepdims=True)
    e = jnp.exp(s)
    w = e / jnp.sum(e, axis=-1, keepdims=True)
    return jnp.matmul(w, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=0, out_axes=0)(q, k, v, mask)
