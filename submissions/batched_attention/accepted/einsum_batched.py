import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    scores = jnp.einsum("btd,bsd->bts", q, k) * (d ** -0.5)
    scores = jnp.where(mask, scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("bts,bse->bte", weights, v)
