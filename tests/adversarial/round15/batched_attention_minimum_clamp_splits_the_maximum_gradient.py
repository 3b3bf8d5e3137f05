"""batched_attention, mistake: the mask as a float (``mask.astype(jnp.float32)``) multiplying the
exponentials of the scores shifted by their (stopped) visible maximum, the hidden ones first
clamped with ``jnp.minimum(s - m, 0)`` so that no ``exp`` overflows: the value is right, but at
each row's maximum s - m is exactly 0, a tie, where ``jnp.minimum`` passes half the derivative
to each side, so the gradients are wrong.

Problem: batched_attention
Expected: WA wrong_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    keep = mask.astype(jnp.float32)
    s = jnp.einsum("td,sd->ts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    m = jax.lax.stop_gradient(jnp.max(jnp.where(mask, s, -jnp.inf), axis=-1, keepdims=True))
    e = jnp.exp(jnp.minimum(s - m, 0.0)) * keep
    return jnp.einsum("ts,se->te", e / jnp.einsum("ts->t", e)[:, None], v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
