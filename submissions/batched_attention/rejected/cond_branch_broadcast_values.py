# the (b, t, s, e) product in a cond branch taken only when all mask rows are full
import jax
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    s = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(q.shape[-1])
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)
    return lax.cond(jnp.all(mask),
                    lambda w, v: jnp.sum(w[..., None] * v[:, None, :, :], axis=2),
                    lambda w, v: jnp.einsum("bts,bse->bte", w, v), w, v)
