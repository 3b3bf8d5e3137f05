"""masked_mean_xent: positions from ``lax.broadcasted_iota`` over the symbolic shape, the target
log-probabilities by advanced indexing ``logp[rows, cols, labels]`` with index grids, the count
of valid tokens as ``lengths.sum()``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    logp = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
    rows = lax.broadcasted_iota(jnp.int32, (b, t), 0)
    cols = lax.broadcasted_iota(jnp.int32, (b, t), 1)
    picked = logp[rows, cols, labels]
    valid = cols < lengths[:, None]
    total = jnp.sum(jnp.where(valid, picked, 0.0))
    return -total / lengths.sum()
