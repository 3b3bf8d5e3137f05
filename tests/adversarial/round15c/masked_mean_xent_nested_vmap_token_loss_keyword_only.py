"""masked_mean_xent: the loss of one token (``logsumexp(row) - row[label]``) mapped with two nested
``jax.vmap``s over the positions and the sequences, a per-sequence validity row built inside the
outer map from its length, keyword-only ``axis`` defaults in the helper.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def token_loss(row, label, *, axis=-1):
    return jax.nn.logsumexp(row, axis=axis) - row[label]


def sequence_sum(rows, labels, length):
    losses = jax.vmap(token_loss)(rows, labels)
    valid = jnp.arange(rows.shape[0]) < length
    return jnp.sum(jnp.where(valid, losses, 0.0))


def masked_mean_xent(logits, labels, lengths):
    totals = jax.vmap(sequence_sum)(logits, labels, lengths)
    return jnp.sum(totals) / jnp.sum(lengths)
