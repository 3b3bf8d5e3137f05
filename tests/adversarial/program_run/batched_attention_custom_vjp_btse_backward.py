"""batched_attention: an honest forward in a ``jax.custom_vjp`` whose backward forms the
(b, t, s, e) product ``weights[..., None] * v[:, None]`` to get the gradient of the weights.
The judge's vjp is traced into the program the rules read, backward included.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def _weights(q, k, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)


@jax.custom_vjp
def _attend(q, k, v, mask):
    return _weights(q, k, mask) @ v


def _fwd(q, k, v, mask):
    return _attend(q, k, v, mask), (q, k, v, mask)


def _bwd(res, g):
    q, k, v, mask = res
    w, pull = jax.vjp(lambda q, k: _weights(q, k, mask), q, k)
    dw = jnp.sum(g[:, :, None, :] * v[:, None, :, :], axis=-1)
    dq, dk = pull(dw)
    return dq, dk, jnp.einsum("bts,bte->bse", w, g), None


_attend.defvjp(_fwd, _bwd)


def batched_attention(q, k, v, mask):
    return _attend(q, k, v, mask)
