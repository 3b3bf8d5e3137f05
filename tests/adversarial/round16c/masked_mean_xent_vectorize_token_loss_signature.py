"""masked_mean_xent: the loss of one token a function of a ``(c,)`` row and a label, broadcast
over the batch and positions with ``jnp.vectorize(..., signature="(c),()->()")``; the count of
valid tokens from ``lengths.sum()`` with ``jnp.maximum(..., 1)`` as a guard.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def token_loss(row, label):
    return jax.nn.logsumexp(row) - row[label]


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1]) < lengths[:, None]
    row_safe = jnp.where(valid[:, :, None], logits, jnp.zeros_like(logits))
    per_token = jnp.vectorize(token_loss, signature="(c),()->()")(row_safe, labels)
    n = jnp.maximum(lengths.sum(), 1).astype(jnp.float32)
    return jnp.sum(jnp.where(valid, per_token, 0.0)) / n
