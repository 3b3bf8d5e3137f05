"""batched_attention: one example as a ``NamedTuple`` mapped by ``jax.vmap`` through a ``jax.jit``
whose masked fill is a static keyword (``static_argnames``); ``jnp.tensordot`` for both products
and ``lax.rsqrt`` for the scale.

Problem: batched_attention
Expected: AC
Cases: all
"""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Example(NamedTuple):
    q: jax.Array
    k: jax.Array
    v: jax.Array
    mask: jax.Array


@partial(jax.jit, static_argnames=("neg",))
def attend(ex: Example, neg=-1e9):
    scores = jnp.tensordot(ex.q, ex.k, axes=([1], [1])) * jax.lax.rsqrt(jnp.float32(ex.q.shape[1]))
    scores = jnp.where(ex.mask, scores, neg)
    w = jax.nn.softmax(scores)
    return jnp.tensordot(w, ex.v, axes=1)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(Example(q, k, v, mask))
