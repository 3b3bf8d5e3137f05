"""batched_attention: ``jax.vmap`` of a ``jax.tree_util.Partial`` that closes ``attend`` over its
scale (a traced float32 scalar, not mapped), ``jnp.matmul`` with ``.mT``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def attend(scale, q, k, v, mask):
    scores = jnp.matmul(q, k.mT) * scale
    scores = jnp.where(mask, scores, -jnp.inf)
    return jnp.matmul(jax.nn.softmax(scores, axis=-1), v)


def batched_attention(q, k, v, mask):
    scale = jax.lax.rsqrt(jnp.float32(q.shape[-1]))
    return jax.vmap(Partial(attend, scale))(q, k, v, mask)
