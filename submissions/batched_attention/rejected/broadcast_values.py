import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    # every weighted value row at once: a (b, t, s, e) value
    return jnp.sum(weights[..., None] * v[:, None, :, :], axis=2)
