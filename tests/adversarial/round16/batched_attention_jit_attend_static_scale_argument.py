"""batched_attention, honest: a ``jax.jit``ted ``attend`` taking the scale as a static keyword
(``static_argnames="scale"``), called under ``vmap`` through ``functools.partial``; the mask
applied by ``jax.nn.softmax(where=)`` with ``jnp.where`` after it.

Problem: batched_attention
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="scale")
def attend(q, k, v, mask, *, scale):
    w = jax.nn.softmax(q @ k.T * scale, axis=-1, where=mask)
    return jnp.where(mask, w, 0.0) @ v


def batched_attention(q, k, v, mask):
    scale = float(q.shape[-1]) ** -0.5
    return jax.vmap(partial(attend, scale=scale))(q, k, v, mask)
