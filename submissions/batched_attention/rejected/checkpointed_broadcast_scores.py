# the (b, t, s, d) product hidden inside jax.checkpoint
import jax
import jax.numpy as jnp


@jax.checkpoint
def _scores(q, k):
    return jnp.sum(q[:, :, None, :] * k[:, None, :, :], axis=-1)


def batched_attention(q, k, v, mask):
    s = _scores(q, k) / jnp.sqrt(q.shape[-1])
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", w, v)
