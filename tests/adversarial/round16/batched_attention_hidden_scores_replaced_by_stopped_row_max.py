"""batched_attention, honest: hidden scores replaced by the stopped row maximum over the visible
keys (``jnp.where(mask, s, m)``, so every ``exp`` is of a number at most 0 and hidden ones of
exactly 0), the exponentials then multiplied by the float mask before the sum.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.einsum("td,sd->ts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    m = jax.lax.stop_gradient(jnp.max(jnp.where(mask, s, -jnp.inf), axis=-1, keepdims=True))
    e = jnp.exp(jnp.where(mask, s, m) - m) * mask.astype(s.dtype)
    return jnp.einsum("ts,se->te", e / e.sum(-1, keepdims=True), v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
