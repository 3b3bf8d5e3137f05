"""batched_attention, honest: ``attend`` a ``jax.jit`` function using ``jnp.matmul(...,
precision="highest")``, mapped by ``jax.vmap``; the mask applied as a float multiplier on the
shifted exponentials.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def attend(q, k, v, mask):
    s = jnp.matmul(q, k.T, precision="highest") / jnp.sqrt(jnp.float32(q.shape[-1]))
    s = s - jnp.max(jnp.where(mask, s, -jnp.inf), axis=-1, keepdims=True)
    e = jnp.exp(jnp.where(mask, s, -jnp.inf)) * mask.astype(s.dtype)
    return jnp.matmul(e / e.sum(-1, keepdims=True), v, precision="highest")


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
