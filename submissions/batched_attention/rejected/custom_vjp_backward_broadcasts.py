# honest forward; the backward builds the (b, t, s, d) products of its cotangents
import jax
import jax.numpy as jnp


@jax.custom_vjp
def scores(q, k):
    return jnp.einsum("btd,bsd->bts", q, k)


def _fwd(q, k):
    return scores(q, k), (q, k)


def _bwd(res, g):
    q, k = res
    dq = (g[..., None] * k[:, None, :, :]).sum(2)
    dk = (g[..., None] * q[:, :, None, :]).sum(1)
    return dq, dk


scores.defvjp(_fwd, _bwd)


def batched_attention(q, k, v, mask):
    s = scores(q, k) / jnp.sqrt(q.shape[-1])
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", w, v)
