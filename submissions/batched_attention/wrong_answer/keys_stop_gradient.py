# keys hidden from differentiation: right values, wrong gradient with respect to k
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    k = jax.lax.stop_gradient(k)
    s = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(q.shape[-1])
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", w, v)
