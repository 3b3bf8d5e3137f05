"""masked_mean_xent: ``jax.vmap`` over the sequences of a function giving one sequence's summed
loss over its valid positions (``jax.nn.log_softmax``, ``jnp.where`` on the position index),
the batch total divided by ``jnp.sum(lengths)`` as a float.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def sequence_loss(logits, labels, length):
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]
    valid = jnp.arange(logits.shape[0]) < length
    return jnp.sum(jnp.where(valid, nll, 0.0))


def masked_mean_xent(logits, labels, lengths):
    total = jnp.sum(jax.vmap(sequence_loss)(logits, labels, lengths))
    return total / jnp.sum(lengths).astype(jnp.float32)
