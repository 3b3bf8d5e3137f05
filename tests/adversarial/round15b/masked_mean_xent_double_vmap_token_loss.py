"""masked_mean_xent: the loss of one token written for a ``(c,)`` row, a label, a position and
the sequence's length, ``jax.vmap``-ed twice (over positions with the length broadcast, then
over sequences); the padded tokens give 0 by ``jnp.where`` inside it, and the total is divided by
``jnp.sum(lengths)``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def token_loss(row, label, pos, length):
    nll = -jax.nn.log_softmax(row)[label]
    return jnp.where(pos < length, nll, 0.0)


def masked_mean_xent(logits, labels, lengths):
    positions = jnp.arange(labels.shape[1])
    per_seq = jax.vmap(token_loss, in_axes=(0, 0, 0, None))
    per_batch = jax.vmap(per_seq, in_axes=(0, 0, None, 0))
    return jnp.sum(per_batch(logits, labels, positions, lengths)) / jnp.sum(lengths)
