"""batched_attention, honest: no ``vmap``: ``jnp.einsum`` over the batch directly
(``"btd,bsd->bts"`` and ``"bts,bse->bte"``), hidden scores set to ``-jnp.inf`` before a softmax
by hand, and the weights passed through ``jnp.nan_to_num`` (a no-op here, as every row sees a
key).

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    scores = jnp.where(mask, scores, -jnp.inf)
    top = lax.stop_gradient(jnp.max(scores, axis=-1, keepdims=True))
    e = jnp.exp(scores - top)
    weights = jnp.nan_to_num(e / jnp.sum(e, axis=-1, keepdims=True))
    return jnp.einsum("bts,bse->bte", weights, v)
