"""batched_attention, honest: einsum over the batch, the masked scores set to the float32
minimum, the softmax written out with the row maximum (its gradient stopped) subtracted and the
hidden keys' weights zeroed.

Expected: AC
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) * (q.shape[-1] ** -0.5)
    scores = jnp.where(mask, scores, jnp.finfo(jnp.float32).min)
    scores = scores - jax.lax.stop_gradient(jnp.max(scores, axis=-1, keepdims=True))
    w = jnp.exp(scores) * mask
    return jnp.einsum("bts,bse->bte", w / jnp.sum(w, axis=-1, keepdims=True), v)
