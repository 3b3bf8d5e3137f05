import jax
import jax.numpy as jnp
import numpy as np


def _scores(q, k):
    return np.einsum("btd,bsd->bts", q, k).astype(np.float32)


def batched_attention(q, k, v, mask):
    shape = jax.ShapeDtypeStruct(q.shape[:2] + k.shape[1:2], jnp.float32)
    scores = jax.pure_callback(_scores, shape, jax.lax.stop_gradient(q), jax.lax.stop_gradient(k))
    scores = scores + (jnp.einsum("btd,bsd->bts", q, k) - jax.lax.stop_gradient(
        jnp.einsum("btd,bsd->bts", q, k)))
    scores = scores / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", weights, v)
