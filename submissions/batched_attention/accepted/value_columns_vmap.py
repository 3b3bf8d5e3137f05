import math

import jax
import jax.numpy as jnp


def weights_of(q, k, mask):
    scores = jnp.where(mask, q @ k.T / math.sqrt(q.shape[-1]), -jnp.inf)
    return jax.nn.softmax(scores, axis=-1)


def attend(q, k, v, mask):
    """One output column per value column: a vmap over the last axis of v, e, as well as one
    over the batch."""
    weights = weights_of(q, k, mask)
    return jax.vmap(lambda column: weights @ column, in_axes=1, out_axes=1)(v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
