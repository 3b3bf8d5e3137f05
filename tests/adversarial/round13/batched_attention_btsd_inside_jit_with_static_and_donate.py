"""batched_attention, cheat: the output as the (b, t, s, e) product of the weights and the values
summed over s, inside a ``jax.jit`` with a static argument and ``donate_argnums`` (a pjit in the
traced program); the size rule must weigh what a jitted call computes.

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2, donate_argnums=1)
def _mix(w, v, axis):
    return jnp.sum(w[..., None] * v[:, None], axis=axis)


def batched_attention(q, k, v, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    w = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return _mix(w, v, 2)
