"""batched_attention: a factory closing over the scale 1/sqrt(d) (d a Python int read from
the shape), the keys scaled instead of the queries, ``jnp.inner`` for the scores,
``functools.partial(jax.vmap, in_axes=...)`` as a decorator.

Problem: batched_attention
Expected: AC
Cases: all
"""
import functools
import math

import jax
import jax.numpy as jnp


def make_attend(d):
    scale = 1.0 / math.sqrt(d)

    @functools.partial(jax.vmap, in_axes=(0, 0, 0, 0))
    def attend(q, k, v, mask):
        s = jnp.inner(q, k * scale)
        s = jnp.where(mask, s, -jnp.inf)
        m = jax.lax.stop_gradient(jnp.max(s, axis=-1, keepdims=True))
        p = jnp.exp(s - m)
        p = p / p.sum(axis=-1, keepdims=True)
        return p @ v

    return attend


def batched_attention(q, k, v, mask):
    return make_attend(q.shape[-1])(q, k, v, mask)
