import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    # every product q[i, j, :] * k[i, l, :] at once: a (b, t, s, d) value
    scores = jnp.sum(q[:, :, None, :] * k[:, None, :, :], axis=-1) / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", weights, v)
