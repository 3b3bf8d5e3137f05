"""batched_attention: ``jnp.einsum(..., optimize=True, precision=lax.Precision.HIGHEST)`` for the
scores and the mix, the mask added as a bias of ``-inf`` then ``jax.nn.softmax``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scores = jnp.einsum("td,sd->ts", q, k, optimize=True, precision=lax.Precision.HIGHEST)
    scores = scores / jnp.sqrt(jnp.float32(k.shape[-1])) + jnp.where(mask, 0.0, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("ts,se->te", weights, v, optimize=True, precision=lax.Precision.HIGHEST)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
