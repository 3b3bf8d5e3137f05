"""batched_attention, cheat: the forward pass by matrix products, the scores a ``jax.custom_vjp``
whose backward rule forms the gradients of q and k from (t, s, d) products
(``ds[:, :, None] * k[None]``) summed over an axis: a value of b t s d elements in the
derivative the judge takes.

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def _scores(q, k):
    return q @ k.T


def _fwd(q, k):
    return q @ k.T, (q, k)


def _bwd(res, ds):
    q, k = res
    return jnp.sum(ds[:, :, None] * k[None], axis=1), jnp.sum(ds[:, :, None] * q[:, None], axis=0)


_scores.defvjp(_fwd, _bwd)


def attend(q, k, v, mask):
    scores = _scores(q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
