"""batched_attention: the mask made float32 and compared with 0.5 where it is used, scores and
output by ``jnp.einsum`` over the whole batch at ``precision=lax.Precision.HIGHEST`` (no vmap).

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    m = mask.astype(jnp.float32)
    scores = jnp.einsum("btd,bsd->bts", q, k, precision=lax.Precision.HIGHEST) / jnp.sqrt(float(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(m > 0.5, scores, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", weights, v, precision=lax.Precision.HIGHEST)
