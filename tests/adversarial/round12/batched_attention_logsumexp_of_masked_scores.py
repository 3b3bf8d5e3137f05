"""batched_attention: log-weights as the masked scores less their ``jax.nn.logsumexp`` (masked
scores -inf, so their weight is exp(-inf) = 0), vmapped.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def attend(q, k, v, mask):
    s = jnp.dot(q, k.T) / jnp.sqrt(q.shape[1] * 1.0)
    s = jnp.where(mask, s, -jnp.inf)
    log_w = s - logsumexp(s, axis=1, keepdims=True)
    return jnp.dot(jnp.exp(log_w), v)


batched_attention = jax.vmap(attend, in_axes=(0, 0, 0, 0))
