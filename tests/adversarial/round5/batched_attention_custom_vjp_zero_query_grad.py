"""batched_attention: a ``jax.custom_vjp`` whose backward returns the right gradients of k and
v but zeros for q ("queries are not trained here").

Problem: batched_attention
Expected: WA
"""

import jax
import jax.numpy as jnp


def _attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


@jax.custom_vjp
def attention(q, k, v, mask):
    return jax.vmap(_attend)(q, k, v, mask)


def _fwd(q, k, v, mask):
    return attention(q, k, v, mask), (q, k, v, mask)


def _bwd(res, g):
    q, k, v, mask = res
    _, pull = jax.vjp(lambda k, v: jax.vmap(_attend)(q, k, v, mask), k, v)
    gk, gv = pull(g)
    return jnp.zeros_like(q), gk, gv, None


attention.defvjp(_fwd, _bwd)


def batched_attention(q, k, v, mask):
    return attention(q, k, v, mask)
