"""masked_mean_xent: the flat-token solution with ``jnp.repeat(lengths, t,
total_repeat_length=b * t)``: right at concrete sizes, but JAX refuses a ``total_repeat_length``
when the repeat count is a symbol, and the program is traced with b and t as symbols: a run-time
error on every case, the examples showing JAX's message and the line.

Problem: masked_mean_xent
Expected: RTE exception
"""

import jax.numpy as jnp
from jax import lax


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    z = logits.reshape(b * t, c)
    lab = labels.reshape(b * t)
    pos = jnp.tile(jnp.arange(t, dtype=jnp.int32), b)
    limit = jnp.repeat(lengths, t, total_repeat_length=b * t)
    valid = pos < limit
    zmax = jnp.max(z, axis=1, keepdims=True)
    shifted = z - zmax
    logp = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=1, keepdims=True))
    picked = jnp.sum(jnp.where(jnp.arange(c)[None, :] == lab[:, None], logp, 0.0), axis=1)
    nll = lax.select(valid, -picked, jnp.zeros_like(picked))
    return (jnp.sum(nll) / jnp.sum(valid)).astype(jnp.float32).reshape(())
