"""batched_attention: the one-example function lifted over b by ``jnp.vectorize`` with a gufunc
signature ``(t,d),(s,d),(s,e),(t,s)->(t,e)`` instead of ``jax.vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    return jax.nn.softmax(s, axis=-1) @ v


batched_attention = jnp.vectorize(attend, signature="(t,d),(s,d),(s,e),(t,s)->(t,e)")
