"""masked_mean_xent: the batch reshaped to a flat list of b*t tokens, each token's position
in its sequence from ``jnp.tile`` of an ``arange`` and its sequence's length from
``jnp.repeat``, the log-softmax written as z - max - log
sum exp, and ``lax.select`` for the mask; returned as a 0-d float32 array.

Problem: masked_mean_xent
Expected: AC
"""

import jax.numpy as jnp
from jax import lax


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    z = logits.reshape(b * t, c)
    lab = labels.reshape(b * t)
    pos = jnp.tile(jnp.arange(t, dtype=jnp.int32), b)
    limit = jnp.repeat(lengths, t)
    valid = pos < limit
    zmax = jnp.max(z, axis=1, keepdims=True)
    shifted = z - zmax
    logp = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=1, keepdims=True))
    picked = jnp.sum(jnp.where(jnp.arange(c)[None, :] == lab[:, None], logp, 0.0), axis=1)
    nll = lax.select(valid, -picked, jnp.zeros_like(picked))
    return (jnp.sum(nll) / jnp.sum(valid)).astype(jnp.float32).reshape(())
