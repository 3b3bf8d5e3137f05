"""batched_attention: a ``jax.custom_vjp`` for the masked softmax (backward:
p * (g - sum(g * p))), the rest by autodiff, vmapped over the batch.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def masked_softmax(scores, mask):
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)


def _fwd(scores, mask):
    p = masked_softmax(scores, mask)
    return p, (p, mask)


def _bwd(res, g):
    p, mask = res
    return p * (g - jnp.sum(g * p, axis=-1, keepdims=True)), None


masked_softmax.defvjp(_fwd, _bwd)


def attend(q, k, v, mask):
    return masked_softmax(q @ k.T / jnp.sqrt(jnp.float32(k.shape[-1])), mask) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
