"""masked_mean_xent: the batch handled one sequence at a time, a fixed Python loop over 8 slots,
each reading row ``min(i, b - 1)`` with ``lax.dynamic_index_in_dim`` and counted only where
``i < b`` (a loop padded to the largest batch). Refused: the equations grow past the cap.

Problem: masked_mean_xent
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    total = jnp.float32(0)
    count = jnp.float32(0)
    for i in range(8):
        j = jnp.minimum(i, b - 1)
        z = lax.dynamic_index_in_dim(logits, j, keepdims=False)
        lab = lax.dynamic_index_in_dim(labels, j, keepdims=False)
        n = lax.dynamic_index_in_dim(lengths, j, keepdims=False)
        valid = (jnp.arange(t) < n) & (i < b)
        lp = jax.nn.log_softmax(jnp.where(valid[:, None], z, 0.0))
        nll = -jnp.take_along_axis(lp, lab[:, None], axis=1)[:, 0]
        total = total + jnp.sum(jnp.where(valid, nll, 0.0))
        count = count + jnp.sum(valid)
    return total / count
